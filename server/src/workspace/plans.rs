//! The last plan of each module, kept until something it was computed from changes: an
//! editor asks for code lenses and inlay hints after every edit and on every scroll, and
//! code actions and the plan preview plan the same module too, so without it a module
//! with a prior state would be planned several times per keystroke.
//!
//! A plan depends on the module's snapshot and those of the local child modules it
//! called (their revisions: an edit, a file changed on disk, the dialect, the core
//! version and the provider schemas each rebuild a module and give it a new revision), on
//! where each call's `source` leads, on every file the plan looked at on disk (the state,
//! the `.tfvars` files, what file functions and `terraform_remote_state` read:
//! [`crate::reads`]), and on the state path and plan options asked for. An entry is
//! served only while all of them are as they were; otherwise the module is planned again.
//!
//! One entry per module, dropped with the module (`Workspace::forget_dir`). Requests for
//! the same module wait for a plan being computed rather than compute it too; a plan
//! whose computation was cancelled is partial and never kept.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::slots::Slots;
use super::{local_child_dir, Workspace};
use crate::plan::{Plan, PlanOptions, StateError};
use crate::reads::{record_reads, Reads};

/// The kept plans, by module directory (each slot's lock is held while computing).
pub(super) type PlanCache = Slots<Option<Entry>>;

/// One kept plan and what it was computed from.
#[derive(Debug)]
pub(super) struct Entry {
    state: PathBuf,
    options: PlanOptions,
    inputs: PlanInputs,
    plan: Result<Arc<Plan>, StateError>,
}

/// The local module calls a plan looked up, by calling directory and `source`: the child
/// module's directory and revision, `None` when the source led to no directory.
pub(super) type Calls = BTreeMap<(PathBuf, String), Option<(PathBuf, u64)>>;

/// What a plan read of the workspace and of the disk.
#[derive(Debug, Default)]
pub(super) struct PlanInputs {
    /// The planned module's directory and revision.
    pub(super) root: Option<(PathBuf, u64)>,
    /// Each local module call looked up.
    pub(super) calls: Calls,
    /// The files and directories looked at.
    pub(super) reads: Reads,
}

impl PlanInputs {
    /// Whether a plan computed now would read the same: every module at the same
    /// revision, every call leading to the same directory, every file unchanged.
    fn current(&self, ws: &Workspace) -> bool {
        let revision = |dir: &Path| ws.module(dir).map(|m| m.revision);
        let root = self
            .root
            .as_ref()
            .is_some_and(|(dir, rev)| revision(dir) == Some(*rev));
        root && self.calls.iter().all(|((from, source), found)| {
            let now = local_child_dir(from, source);
            match found {
                None => now.is_none(),
                Some((dir, rev)) => now.as_ref() == Some(dir) && revision(dir) == Some(*rev),
            }
        }) && self.reads.unchanged()
    }
}

impl Workspace {
    /// The plan of the module of `dir` against the state at `state`, shared: computed
    /// at most once per change of what it depends on (see the module's documentation),
    /// whoever asks (code lenses, inlay hints, code actions, the plan preview).
    pub fn planned(
        &self,
        dir: &Path,
        state: &Path,
        options: &PlanOptions,
    ) -> Result<Arc<Plan>, StateError> {
        let slot = self.plans.slot(dir);
        // Poisoned only by a plan that panicked, which stored nothing.
        let mut held = slot.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entry) = held.as_ref() {
            if entry.state == state && entry.options == *options && entry.inputs.current(self) {
                return entry.plan.clone();
            }
        }
        let ((plan, mut inputs), reads) =
            record_reads(|| self.plan_recording(dir, Some(state), options));
        inputs.reads = reads;
        let plan = plan.map(Arc::new);
        let computed = self.plans.count_computed();
        tracing::debug!(dir = %dir.display(), computed, "planned module");
        // A cancelled plan stopped part way; a forgotten module keeps nothing.
        if !crate::cancel::requested() && self.modules.contains_key(dir) {
            *held = Some(Entry {
                state: state.to_path_buf(),
                options: options.clone(),
                inputs,
                plan: plan.clone(),
            });
        }
        plan
    }

    /// How many plans [`Workspace::planned`] computed so far (not served from the cache).
    pub fn plans_computed(&self) -> u64 {
        self.plans.computed()
    }
}

#[cfg(test)]
#[path = "plans_tests.rs"]
mod tests;
