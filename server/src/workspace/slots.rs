//! Per-module slots of kept analyses (`checks.rs`, `plans.rs`): one mutex per module
//! directory, held while its analysis is computed, so that a second request for the same
//! module waits for that one instead of computing it too; and a count of computations.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use dashmap::DashMap;

/// What is kept for each module directory, behind its own lock.
#[derive(Debug)]
pub(super) struct Slots<T> {
    slots: DashMap<PathBuf, Arc<Mutex<T>>>,
    /// How many analyses were computed (for tests and the log).
    computed: AtomicU64,
}

impl<T> Default for Slots<T> {
    fn default() -> Self {
        Slots {
            slots: DashMap::new(),
            computed: AtomicU64::new(0),
        }
    }
}

impl<T: Default> Slots<T> {
    /// The slot of the module in `dir`, made empty on first use.
    pub(super) fn slot(&self, dir: &Path) -> Arc<Mutex<T>> {
        self.slots.entry(dir.to_path_buf()).or_default().clone()
    }

    /// Forgets what is kept for the module in `dir`.
    pub(super) fn forget(&self, dir: &Path) {
        self.slots.remove(dir);
    }

    /// Counts one computation; the count so far, this one included.
    pub(super) fn count_computed(&self) -> u64 {
        self.computed.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Whether nothing is kept for any module.
    #[cfg(test)]
    pub(super) fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// How many computations were counted so far.
    pub(super) fn computed(&self) -> u64 {
        self.computed.load(Ordering::Relaxed)
    }
}
