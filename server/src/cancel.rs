//! Stopping a long analysis whose result nobody will read: a plan preview or plan code
//! lens the client cancelled (`$/cancelRequest`), or one that a newer edit of its module
//! superseded, and the diagnostics of a module snapshot that a newer one replaced.
//!
//! The flag is ambient: whoever starts an analysis installs its [`Cancel`] on the thread
//! that runs it ([`Cancel::run`]), and the places where the work repeats (each evaluation
//! step in `eval`, each module and resource in the planner, the stages of `check`) ask
//! [`requested`]. An analysis runs on one thread from start to end, so no signature
//! between the language server and the evaluator has to carry the flag. Where none is
//! installed (the CLI, tests) nothing is ever cancelled.
//!
//! A cancelled analysis returns early with a partial result, which its caller discards.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A request to stop one analysis; clones share it.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag nobody has set yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the analysis to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the analysis was asked to stop.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Runs `f` on this thread with this flag as the one [`requested`] reads; the flag
    /// that was installed before is back afterwards, even if `f` panics.
    pub fn run<T>(&self, f: impl FnOnce() -> T) -> T {
        struct Restore(Option<Cancel>);
        impl Drop for Restore {
            fn drop(&mut self) {
                CURRENT.with(|c| *c.borrow_mut() = self.0.take());
            }
        }
        let outer = CURRENT.with(|c| c.borrow_mut().replace(self.clone()));
        let _restore = Restore(outer);
        f()
    }

    /// A guard that sets the flag when it is dropped: held by the one who waits for the
    /// result, so that giving up waiting (a dropped future) stops the work too.
    pub fn on_drop(&self) -> CancelOnDrop {
        CancelOnDrop(self.clone())
    }
}

/// Sets its flag when dropped (see [`Cancel::on_drop`]).
#[derive(Debug)]
pub struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Cancel>> = const { RefCell::new(None) };
}

/// The flag of the analysis running on this thread, if one was installed: for loops that
/// ask often, which keep it instead of reading the thread's each time.
pub fn current() -> Option<Cancel> {
    CURRENT.with(|c| c.borrow().clone())
}

/// Whether the analysis running on this thread was asked to stop.
pub fn requested() -> bool {
    CURRENT.with(|c| c.borrow().as_ref().is_some_and(Cancel::is_cancelled))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_installed_flag_is_read_and_the_outer_one_comes_back() {
        let outer = Cancel::new();
        let inner = Cancel::new();
        assert!(!requested());
        outer.run(|| {
            inner.cancel();
            assert!(!requested());
            inner.run(|| assert!(requested()));
            assert!(!requested());
            outer.cancel();
            assert!(requested());
        });
        assert!(!requested());
        assert!(current().is_none());
    }

    #[test]
    fn a_panic_does_not_leave_the_flag_installed() {
        let flag = Cancel::new();
        flag.cancel();
        let _ = std::panic::catch_unwind(|| flag.run(|| panic!("boom")));
        assert!(!requested());
    }

    #[test]
    fn dropping_the_guard_cancels() {
        let flag = Cancel::new();
        drop(flag.on_drop());
        assert!(flag.is_cancelled());
    }
}
