//! A thread for work nobody is waiting for (the diagnostics of modules no edit touched:
//! after indexing, new provider schemas, new settings, files changed on disk), at the
//! lowest CPU priority the system gives a thread, so that requests and the checks of
//! edited modules get the cores first: on a busy machine, or a workspace of thousands of
//! modules, that work would otherwise take a share of every request's time for minutes.

use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;

use tokio::sync::oneshot;
use tracing::warn;

/// A job for the thread.
type Job = Box<dyn FnOnce() + Send>;

/// The background thread, ended when this is dropped.
#[derive(Debug)]
pub struct Background {
    /// `None` when the thread could not be started: jobs then run on the blocking pool.
    jobs: Option<mpsc::Sender<Job>>,
}

impl Background {
    /// Starts the thread.
    pub fn start() -> Self {
        let (jobs, queue) = mpsc::channel::<Job>();
        let spawned = std::thread::Builder::new()
            .name("strata-background".into())
            .stack_size(crate::limits::THREAD_STACK_BYTES)
            .spawn(move || {
                lower_priority();
                while let Ok(job) = queue.recv() {
                    // A job contains its own panics; one that escapes must not end the
                    // thread (its caller sees its answer dropped).
                    let _ = catch_unwind(AssertUnwindSafe(job));
                }
            });
        match spawned {
            Ok(_) => Self { jobs: Some(jobs) },
            Err(err) => {
                warn!("no background thread ({err}): background work runs beside requests");
                Self { jobs: None }
            }
        }
    }

    /// Queues `f` to run on the thread after the jobs before it; its result, `None` if
    /// it panicked.
    pub fn run<T, F>(&self, f: F) -> impl Future<Output = Option<T>> + Send + 'static
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let (answer, answered) = oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = answer.send(f());
        });
        match &self.jobs {
            Some(jobs) => match jobs.send(job) {
                Ok(()) => {}
                // The thread is gone (it never ends while `jobs` lives).
                Err(mpsc::SendError(job)) => drop(tokio::task::spawn_blocking(job)),
            },
            None => drop(tokio::task::spawn_blocking(job)),
        }
        async { answered.await.ok() }
    }
}

/// Gives the calling thread the lowest scheduling priority (nice 19): on Linux, a
/// thread's nice value is its own. Elsewhere `setpriority` would lower the whole
/// process, requests included, so the thread keeps its priority.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        let thread = rustix::thread::gettid();
        if let Err(err) = rustix::process::setpriority_process(Some(thread), 19) {
            warn!("could not lower the background thread's priority: {err}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn runs_jobs_in_order_and_survives_a_panic() {
        let background = Background::start();
        assert_eq!(background.run(|| 1).await, Some(1));
        let panicked: Option<()> = background.run(|| panic!("contained")).await;
        assert_eq!(panicked, None);
        assert_eq!(background.run(|| 2).await, Some(2));
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn the_thread_runs_at_the_lowest_priority() {
        let background = Background::start();
        let nice = background
            .run(|| rustix::process::getpriority_process(Some(rustix::thread::gettid())).ok())
            .await;
        assert_eq!(nice, Some(Some(19)));
    }
}
