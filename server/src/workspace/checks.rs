//! The last check of each module snapshot, shared: after an edit the editor's diagnostics
//! check the new snapshot, and the plan behind the code lenses checks the same snapshot
//! first (a configuration with errors plans nothing), and each code action request needs
//! the diagnostics too. Without this each of them ran `check` again on every keystroke.
//!
//! A check depends on the module snapshot (its revision, which the provider schemas,
//! dialect and core version also change), on the role it is checked in, on what each of
//! its local module calls found (the child's directory and revision), and on the files it
//! looked at on disk ([`crate::reads`]; `check` evaluates without a module directory and
//! reads none today, but a check that did would be kept no longer than they stay the
//! same). An entry is served only while all of them are as they were. A second request for the same check waits for the one being computed rather
//! than compute it too; a cancelled check is partial and never kept. The diagnostics of a
//! module no edit touched, checked on the background thread at the lowest priority, never
//! make a request wait for them: while another check of the module is running they check
//! on their own.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError};

use super::slots::Slots;
use super::{local_child_dir, Workspace};
use crate::check::{check_module, Diagnostic, Role};
use crate::merge::MergedModule;
use crate::module::Module;
use crate::reads::{record_all, record_reads, Reads};

/// How a check finds the local child modules its calls name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChildLookup {
    /// Only modules the workspace built already (the editor's diagnostics: a directory
    /// outside the workspace folders is read only while a document in it is open).
    Built,
    /// Indexing a child's directory on first use, as a plan loads its child modules.
    Index,
    /// Built modules only, and never waiting for a check of the same module that is
    /// running: work nobody waits for (the background lane's diagnostics).
    BuiltWithoutWaiting,
}

/// What one call found: the child's directory (`None` when the source led to no
/// directory) and its revision (`None` when no module was found there).
type Found = Option<(PathBuf, Option<u64>)>;

/// What a check's calls found, by `source`.
type Calls = BTreeMap<String, Found>;

/// The kept checks, by module directory (each slot's lock is held while computing).
pub(super) type CheckCache = Slots<Vec<Entry>>;

/// One kept check and what it was computed from.
#[derive(Debug)]
pub(super) struct Entry {
    revision: u64,
    /// `None` for the root module's role, else the module paths it is called by.
    role: Option<Vec<String>>,
    calls: Calls,
    reads: Reads,
    found: Arc<Vec<Diagnostic>>,
}

impl Entry {
    /// What the check found, and the `source` of each call it looked up.
    fn found_and_sources(&self) -> (Arc<Vec<Diagnostic>>, Vec<String>) {
        (self.found.clone(), self.calls.keys().cloned().collect())
    }
}

/// How many checks a module keeps: one per role it may be checked in at once (the
/// diagnostics' role of a called module, and the root role its plan checks it in).
const ROLES_KEPT: usize = 2;

impl Workspace {
    /// What `check_module` finds in `module` in `role`, with the provider schemas of its
    /// own root module (`Workspace::provider_schemas_for`), finding its children as
    /// `lookup` says: computed at most once per change of what it depends on (see the
    /// module's documentation), whoever asks (diagnostics, the plan, code actions).
    pub fn checked(
        &self,
        module: &Module,
        role: Role<'_>,
        lookup: ChildLookup,
    ) -> Arc<Vec<Diagnostic>> {
        self.checked_calls(module, role, lookup).0
    }

    /// [`Workspace::checked`], with the `source` of every local module call the check
    /// looked up.
    pub(super) fn checked_calls(
        &self,
        module: &Module,
        role: Role<'_>,
        lookup: ChildLookup,
    ) -> (Arc<Vec<Diagnostic>>, Vec<String>) {
        let role_key = match role {
            Role::Root => None,
            Role::Called(paths) => Some(paths.to_vec()),
        };
        let slot = self.checks.slot(&module.dir);
        let held = match lookup {
            ChildLookup::BuiltWithoutWaiting => slot.try_lock().ok(),
            _ => Some(slot.lock().unwrap_or_else(PoisonError::into_inner)),
        };
        let Some(mut held) = held else {
            return self.check_now(module, role, lookup).found_and_sources();
        };
        let kept = held.iter().position(|e| {
            e.revision == module.revision
                && e.role == role_key
                && self.calls_find_the_same(&module.dir, &e.calls, lookup)
                && e.reads.unchanged()
        });
        if let Some(i) = kept {
            // Whoever records what this analysis read depends on what the check read.
            record_all(&held[i].reads);
            return held[i].found_and_sources();
        }
        let entry = self.check_now(module, role, lookup);
        let found = entry.found_and_sources();
        // A cancelled check stopped part way; a forgotten module keeps nothing, nor does
        // a snapshot older than the module's current one.
        let current = self
            .module(&module.dir)
            .is_some_and(|m| m.revision == module.revision);
        if !crate::cancel::requested() && current {
            held.retain(|e| e.role != entry.role && e.revision == module.revision);
            if held.len() >= ROLES_KEPT {
                held.remove(0);
            }
            held.push(entry);
        }
        found
    }

    /// Checks `module` now, recording what it read.
    fn check_now(&self, module: &Module, role: Role<'_>, lookup: ChildLookup) -> Entry {
        let calls = std::cell::RefCell::new(Calls::new());
        let children = |source: &str| -> Option<Arc<MergedModule>> {
            let (found, merged) = self.lookup_child(&module.dir, source, lookup);
            calls.borrow_mut().insert(source.to_string(), found);
            merged
        };
        let merged = self.merged_of(module);
        let schemas = self.provider_schemas_for(&module.dir);
        let (found, reads) =
            record_reads(|| check_module(module, &merged, &children, &*schemas, role));
        let computed = self.checks.count_computed();
        tracing::debug!(dir = %module.dir.display(), computed, "checked module");
        Entry {
            revision: module.revision,
            role: match role {
                Role::Root => None,
                Role::Called(paths) => Some(paths.to_vec()),
            },
            calls: calls.into_inner(),
            reads,
            found: Arc::new(found),
        }
    }

    /// The module a call's `source` names from `dir`, found as `lookup` says, with what
    /// a kept check compares: the directory and the revision found.
    fn lookup_child(
        &self,
        dir: &Path,
        source: &str,
        lookup: ChildLookup,
    ) -> (Found, Option<Arc<MergedModule>>) {
        let Some((child, module)) = self.find_child(dir, source, lookup) else {
            return (None, None);
        };
        let revision = module.as_ref().map(|m| m.revision);
        let merged = module.map(|m| self.merged_of(&m));
        (Some((child, revision)), merged)
    }

    /// The directory a call's `source` names from `dir`, and the module there if there is
    /// one (indexed now when `lookup` says so).
    fn find_child(
        &self,
        dir: &Path,
        source: &str,
        lookup: ChildLookup,
    ) -> Option<(PathBuf, Option<Arc<Module>>)> {
        let child = local_child_dir(dir, source)?;
        let module = match (self.module(&child), lookup) {
            (None, ChildLookup::Index) => Some(self.index_dir(&child)),
            (found, _) => found,
        };
        Some((child, module))
    }

    /// How many checks [`Workspace::checked`] computed so far (not served from the cache).
    pub fn checks_computed(&self) -> u64 {
        self.checks.computed()
    }

    /// Whether each call of a kept check finds what it found then.
    fn calls_find_the_same(&self, dir: &Path, calls: &Calls, lookup: ChildLookup) -> bool {
        calls.iter().all(|(source, found)| {
            let now = self
                .find_child(dir, source, lookup)
                .map(|(child, module)| (child, module.map(|m| m.revision)));
            *found == now
        })
    }
}

#[cfg(test)]
#[path = "checks_tests.rs"]
mod tests;
