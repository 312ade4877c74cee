//! What each module of the workspace is to the others (`check::Role`): a module that
//! another module of the set calls through a local `source` is checked as that caller's
//! child, under the module paths (`module.a.module.b`) by which the root modules reach
//! it; any other module as a root module. `strata check` and the editor decide it here,
//! so both report a child module in the same words.
//!
//! The editor asks for the roles once per module it checks: they are kept, and decided
//! again only once a module's local calls changed or a module came or went
//! (`Workspace::module_roles`), since deciding them reads every module of the workspace.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use dashmap::DashMap;

use super::{local_child_dir, Workspace};
use crate::check::Role;
use crate::module::Module;

/// The local module calls of one module: each call's name and the directory it calls.
type Calls = Arc<Vec<(String, PathBuf)>>;

/// The local calls of each module, kept per module revision so that deciding the roles
/// after an edit reads only the edited module's calls again (a call's directory is
/// looked for on disk when its caller changes), and the roles last decided from them.
#[derive(Debug, Default)]
pub(super) struct CallsCache {
    by_module: DashMap<PathBuf, (u64, Calls)>,
    roles: Mutex<Option<KeptRoles>>,
}

/// The roles of the workspace's modules and the calls they were decided from.
#[derive(Debug)]
struct KeptRoles {
    /// The workspace generation they were last found up to date at.
    generation: u64,
    /// Each module's local calls.
    calls: HashMap<PathBuf, Calls>,
    roles: Arc<ModuleRoles>,
}

/// The role of every module of a set.
#[derive(Debug, Default)]
pub struct ModuleRoles {
    called: HashSet<PathBuf>,
    paths: HashMap<PathBuf, Vec<String>>,
}

impl ModuleRoles {
    /// The roles of `modules`, the workspace's modules (or those `strata check` reads).
    pub fn of(ws: &Workspace, modules: &[Arc<Module>]) -> Self {
        let calls: HashMap<&Path, Calls> = modules
            .iter()
            .map(|m| (m.dir.as_path(), ws.local_calls(m)))
            .collect();
        let called = calls
            .values()
            .flat_map(|c| c.iter().map(|(_, dir)| dir.clone()))
            .collect();
        let mut roles = Self {
            called,
            paths: HashMap::new(),
        };
        roles.paths = module_paths(modules, &calls, &roles.called);
        roles
    }

    /// Whether another module of the set calls the module of `dir`.
    pub fn is_called(&self, dir: &Path) -> bool {
        self.called.contains(dir)
    }

    /// The module paths the module of `dir` is called by, `None` for a root module: what
    /// its diagnostics depend on, to compare two roles.
    pub fn paths_of(&self, dir: &Path) -> Option<&[String]> {
        match self.role(dir) {
            Role::Called(paths) => Some(paths),
            Role::Root => None,
        }
    }

    /// What the module of `dir` is checked as.
    pub fn role(&self, dir: &Path) -> Role<'_> {
        match self.is_called(dir) {
            true => Role::Called(self.paths.get(dir).map_or(&[], Vec::as_slice)),
            false => Role::Root,
        }
    }
}

impl Workspace {
    /// The role of every module of the workspace. Kept between calls: after a rebuild,
    /// only each module's calls are compared with those the kept roles were decided from
    /// (an edit rarely changes a call's `source`), and the roles are decided again when a
    /// module's calls changed or a module came or went.
    pub fn module_roles(&self) -> Arc<ModuleRoles> {
        // Read before the modules: a rebuild meanwhile leaves the kept roles one
        // generation behind, and the next call compares again.
        let generation = self.generation();
        let mut kept = self
            .calls
            .roles
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(k) = kept.as_mut() {
            if k.generation == generation || self.same_calls(&k.calls) {
                k.generation = generation;
                return k.roles.clone();
            }
        }
        let modules = self.modules();
        let roles = Arc::new(ModuleRoles::of(self, &modules));
        let calls = modules
            .iter()
            .map(|m| (m.dir.clone(), self.local_calls(m)))
            .collect();
        *kept = Some(KeptRoles {
            generation,
            calls,
            roles: roles.clone(),
        });
        roles
    }

    /// Whether the workspace's modules are those of `calls`, each with the same local
    /// calls.
    fn same_calls(&self, calls: &HashMap<PathBuf, Calls>) -> bool {
        // No shard lock is held while the calls are read: merging a module reads the
        // workspace.
        let modules: Vec<Arc<Module>> = self.modules.iter().map(|m| m.clone()).collect();
        if modules.len() != calls.len() {
            return false;
        }
        for module in &modules {
            let Some(kept) = calls.get(&module.dir) else {
                return false;
            };
            let now = self.local_calls(module);
            if !Arc::ptr_eq(kept, &now) && kept != &now {
                return false;
            }
        }
        true
    }

    /// The local calls of `module` (a module's call of its own directory left out), from
    /// the cache while its revision is unchanged.
    fn local_calls(&self, module: &Module) -> Calls {
        let key = module.revision;
        if let Some(cached) = self.calls.by_module.get(&module.dir) {
            if cached.0 == key {
                return cached.1.clone();
            }
        }
        let merged = self.merged_of(module);
        let mut out = Vec::new();
        for (name, call) in &merged.module_calls {
            let source = call
                .source
                .as_ref()
                .and_then(|s| crate::merge::literal_string(s.expr()));
            if let Some(child) = source.and_then(|s| local_child_dir(&module.dir, s)) {
                if child != module.dir {
                    out.push((name.clone(), child));
                }
            }
        }
        let calls = Arc::new(out);
        self.calls
            .by_module
            .insert(module.dir.clone(), (key, calls.clone()));
        calls
    }

    /// The modules of the workspace that call the module of `dir` through a local
    /// `source`: each caller's directory and the name of its call.
    pub fn callers_of(&self, dir: &Path) -> Vec<(PathBuf, String)> {
        // Calls name canonical directories; an editor's path may not be one.
        let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        // Unsorted (no shard lock is held while the calls are read): only the few callers
        // found are put in directory order, stably, so each caller's calls keep theirs.
        let modules: Vec<Arc<Module>> = self.modules.iter().map(|m| m.clone()).collect();
        let mut out = Vec::new();
        for module in modules {
            for (call, child) in self.local_calls(&module).iter() {
                if *child == dir {
                    out.push((module.dir.clone(), call.clone()));
                }
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// Drops what is kept of the calls of a module the workspace forgets.
    pub(super) fn forget_calls(&self, dir: &Path) {
        self.calls.by_module.remove(dir);
    }
}

/// The module paths (`module.a.module.b`) by which the root modules of the set reach
/// each called module, as Terraform's validate walk names them, at most
/// [`MAX_MODULE_PATHS`](crate::limits::MAX_MODULE_PATHS) each. A call that comes back to
/// a module on its own path is a cycle (`CallCycles`) and is not followed.
fn module_paths(
    modules: &[Arc<Module>],
    calls: &HashMap<&Path, Calls>,
    called: &HashSet<PathBuf>,
) -> HashMap<PathBuf, Vec<String>> {
    fn visit(
        calls: &HashMap<&Path, Calls>,
        dir: &Path,
        prefix: &str,
        stack: &mut Vec<PathBuf>,
        paths: &mut HashMap<PathBuf, Vec<String>>,
    ) {
        let Some(of_dir) = calls.get(dir) else {
            return; // a directory that is not a module of the set
        };
        for (name, child) in of_dir.iter() {
            let known = paths.entry(child.clone()).or_default();
            if stack.contains(child) || known.len() >= crate::limits::MAX_MODULE_PATHS {
                continue;
            }
            let path = match prefix {
                "" => format!("module.{name}"),
                _ => format!("{prefix}.module.{name}"),
            };
            known.push(path.clone());
            stack.push(child.clone());
            visit(calls, child, &path, stack, paths);
            stack.pop();
        }
    }
    let mut paths = HashMap::new();
    for m in modules.iter().filter(|m| !called.contains(&m.dir)) {
        visit(calls, &m.dir, "", &mut vec![m.dir.clone()], &mut paths);
    }
    paths
}
