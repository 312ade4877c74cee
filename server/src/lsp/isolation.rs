//! One request cannot take the server down: the analysis behind a request (a hover, a
//! code lens, a plan preview, the diagnostics of one module) runs contained, so that a
//! panic in it becomes an error for that request alone, logged through `tracing`.
//!
//! Quick analyses run in place (`contain`). Long ones (planning) run on the blocking
//! pool (`Heavy::run`), a bounded number at a time: their handler only awaits the
//! result, so `$/cancelRequest` answers at once (tower-lsp-server drops the handler), and
//! dropping the handler cancels the computation (`crate::cancel`), which stops at its
//! next evaluation step, resource or module and gives its permit back.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use tokio::sync::Semaphore;

use crate::cancel::Cancel;
use tower_lsp_server::jsonrpc;
use tracing::error;

/// An analysis that panicked.
#[derive(Debug, thiserror::Error)]
#[error("strata: {what} failed: {message}")]
pub struct Panicked {
    /// What was being computed ("hover", "diagnostics of /x").
    pub what: String,
    /// The panic's message.
    pub message: String,
}

impl From<Panicked> for jsonrpc::Error {
    fn from(p: Panicked) -> Self {
        let mut error = jsonrpc::Error::internal_error();
        error.message = p.to_string().into();
        error
    }
}

/// Routes panic reports (message and place) to the log on stderr, the only place a
/// server speaking LSP on stdout may write them.
pub fn log_panics() {
    std::panic::set_hook(Box::new(|info| error!("panic: {info}")));
}

/// Runs `f`, turning a panic into `Panicked`.
pub fn contain<T>(what: impl Into<String>, f: impl FnOnce() -> T) -> Result<T, Panicked> {
    let what = what.into();
    catch_unwind(AssertUnwindSafe(|| {
        fault::inject(&what);
        f()
    }))
    .map_err(|payload| failed(what, payload.as_ref()))
}

fn failed(what: String, payload: &(dyn Any + Send)) -> Panicked {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into());
    let p = Panicked { what, message };
    error!("{p}");
    p
}

/// Runs long analyses on the blocking pool, at most one per core at a time.
#[derive(Debug, Clone)]
pub struct Heavy {
    permits: Arc<Semaphore>,
}

impl Default for Heavy {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Self {
            permits: Arc::new(Semaphore::new(cores)),
        }
    }
}

impl Heavy {
    /// Runs `f` off the async threads, contained and cancellable. Dropping the returned
    /// future (a cancelled or superseded request) stops waiting and cancels `f`
    /// (`crate::cancel`); the computation keeps its permit until it has stopped, so
    /// abandoned computations cannot pile up.
    pub async fn run<T, F>(&self, what: impl Into<String>, f: F) -> Result<T, Panicked>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let what = what.into();
        let cancel = Cancel::new();
        let _stop = cancel.on_drop();
        let permit = self.permits.clone().acquire_owned().await;
        let task = what.clone();
        let joined = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            cancel.run(|| contain(task, f))
        })
        .await;
        match joined {
            Ok(result) => result,
            // Only a panic outside `contain` (none) or a runtime shutting down.
            Err(err) => Err(Panicked {
                what,
                message: err.to_string(),
            }),
        }
    }
}

/// Fault injection for the black-box tests of this containment (debug builds only):
/// `STRATA_INJECT_FAULT=panic:<what>` makes every analysis whose name starts with
/// `<what>` panic (e.g. `panic:hover of /x/main.tf`, `panic:diagnostics of /x`), and
/// `STRATA_INJECT_FAULT=slow:<what>` makes it take ten seconds, like a long plan (and,
/// like one, stop early when cancelled). A `*` in `<what>` stands for any text
/// (`panic:diagnostics of *boom`).
mod fault {
    #[cfg(debug_assertions)]
    pub fn inject(what: &str) {
        use std::sync::OnceLock;
        static FAULT: OnceLock<Option<(String, String)>> = OnceLock::new();
        let fault = FAULT.get_or_init(|| {
            let value = std::env::var("STRATA_INJECT_FAULT").ok()?;
            let (kind, target) = value.split_once(':')?;
            Some((kind.to_string(), target.to_string()))
        });
        let Some((kind, target)) = fault else {
            return;
        };
        let mut parts = target.split('*');
        let prefix = parts.next().unwrap_or_default();
        let Some(mut rest) = what.strip_prefix(prefix).filter(|_| !target.is_empty()) else {
            return;
        };
        for part in parts {
            match rest.find(part) {
                Some(at) => rest = &rest[at + part.len()..],
                None => return,
            }
        }
        match kind.as_str() {
            "panic" => panic!("injected panic in {what}"),
            "slow" => {
                let started = std::time::Instant::now();
                while started.elapsed().as_secs() < 10 && !crate::cancel::requested() {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
            }
            _ => {}
        }
    }

    #[cfg(not(debug_assertions))]
    pub fn inject(_: &str) {}
}
