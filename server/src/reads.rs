//! The files an analysis looked at on disk, recorded so that a result kept for later
//! (the workspace's cached plan of a module) knows when it went stale: a plan reads the
//! `.tfvars` files of its root module, the files `file()`, `fileset()` and their kin
//! name, and the state files `terraform_remote_state` names, none of which the
//! workspace's module snapshots hold.
//!
//! The recorder is ambient, as [`crate::cancel`]'s flag is: whoever wants to know what an
//! analysis read runs it inside [`record_reads`], and the few places that touch the disk
//! for an analysis (`text::read`, the variables files' discovery, `fileset`'s walk) call
//! [`record`]. An analysis runs on one thread from start to end, so nothing between the
//! cache and the evaluator has to carry the recorder. Where none is installed (the CLI,
//! the language server's other requests) recording costs one thread-local look-up.
//!
//! Each path is stamped when it is first looked at, before it is read: a file changed
//! between the stamp and the read makes the stamp differ from the file afterwards, so the
//! result is computed again rather than kept stale.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// What tells a changed file or directory: its modification time, size and (on Unix)
/// inode, which a file replaced by a rename changes. A directory's modification time
/// changes when an entry is added, removed or renamed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
    inode: u64,
}

impl Stamp {
    /// The stamp of what `meta` describes.
    pub fn of(meta: &std::fs::Metadata) -> Self {
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(meta);
        #[cfg(not(unix))]
        let inode = 0;
        Self {
            modified: meta.modified().ok(),
            len: meta.len(),
            inode,
        }
    }

    /// The stamp of `path` now, following symlinks: `None` when nothing is there (or it
    /// cannot be looked at, which a later look tells apart only by succeeding).
    pub fn now(path: &Path) -> Option<Self> {
        std::fs::metadata(path).ok().map(|m| Self::of(&m))
    }
}

/// The paths an analysis looked at, each with its stamp when first looked at.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reads(BTreeMap<PathBuf, Option<Stamp>>);

impl Reads {
    /// Whether every path recorded is as it was: the result computed from them would be
    /// the same now.
    pub fn unchanged(&self) -> bool {
        self.0
            .iter()
            .all(|(path, stamp)| Stamp::now(path) == *stamp)
    }

    /// How many paths were recorded.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no path was recorded.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Adds the paths of `other` not recorded yet, with the stamps `other` gave them.
    fn add(&mut self, other: &Reads) {
        for (path, stamp) in &other.0 {
            self.0.entry(path.clone()).or_insert_with(|| stamp.clone());
        }
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Reads>> = const { RefCell::new(None) };
}

/// Runs `f`, recording every path it looks at through [`record`]; what was recorded
/// before on this thread is back afterwards, with these paths added to it (an outer
/// recording depends on what an inner one read), even if `f` panics.
pub fn record_reads<T>(f: impl FnOnce() -> T) -> (T, Reads) {
    /// Puts the outer recording back, with what the inner one recorded added.
    struct Restore(Option<Reads>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| {
                let inner = c.replace(self.0.take());
                if let (Some(outer), Some(inner)) = (c.borrow_mut().as_mut(), inner) {
                    outer.add(&inner);
                }
            });
        }
    }
    let outer = CURRENT.with(|c| c.replace(Some(Reads::default())));
    let _restore = Restore(outer);
    let value = f();
    let reads = CURRENT.with(|c| c.borrow().clone()).unwrap_or_default();
    (value, reads)
}

/// Records that the analysis running on this thread looks at `path` (a file it reads or
/// whose presence it tests, a directory it lists); nothing when none records.
pub fn record(path: &Path) {
    CURRENT.with(|c| {
        if let Some(reads) = c.borrow_mut().as_mut() {
            if !reads.0.contains_key(path) {
                reads.0.insert(path.to_path_buf(), Stamp::now(path));
            }
        }
    });
}

/// Records that the analysis running on this thread depends on every path of `reads`,
/// with the stamps they had when first looked at: what a kept result that one read
/// (served in its place) looked at.
pub fn record_all(reads: &Reads) {
    CURRENT.with(|c| {
        if let Some(current) = c.borrow_mut().as_mut() {
            current.add(reads);
        }
    });
}

#[cfg(test)]
#[path = "reads_tests.rs"]
mod tests;
