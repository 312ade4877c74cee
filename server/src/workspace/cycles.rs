//! Module call cycles for `check`: a local module call that loads a module already being
//! loaded above it (`source = "./"`, or a → b → a). The planner stops such a call when it
//! expands the module tree (`plan::planner::instances`); `check` looks at one module and
//! its direct children only, so the tree is walked here, where every module is known, and
//! the cycle is reported in the planner's words at the call's `source`.
//!
//! The walk is depth-first over module directories, each explored once (a module called
//! from many places is not walked again, so a wide tree stays linear), on an explicit
//! stack (a long chain of modules cannot overflow the thread's).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{local_child_dir, Workspace};
use crate::check::{Diagnostic, Severity};
use crate::merge::{literal_string, MergedModule};
use crate::plan::{call_cycle_detail, ChildModule, MODULE_CALL_CYCLE};

impl Workspace {
    /// The local module a call's `source` names from `from`, when the workspace has read
    /// it: its directory and merged model (the lookup [`CallCycles::walk`] takes).
    pub fn read_child(&self, from: &Path, source: &str) -> Option<(PathBuf, Arc<MergedModule>)> {
        let dir = local_child_dir(from, source)?;
        self.merged(&dir).map(|m| (dir, m))
    }
}

/// The code of a module call cycle's diagnostic.
pub const CALL_CYCLE_CODE: &str = "module-call-cycle";

/// Where the walk is with a module directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    /// Being walked: on the current chain of calls.
    OnChain,
    /// Walked to the end.
    Done,
}

/// One module on the current chain of calls.
struct Frame {
    dir: PathBuf,
    merged: Arc<MergedModule>,
    /// The module path, `module.a.module.b` (empty for the walk's root).
    path: String,
    /// The call that loaded it (`None` for the walk's root).
    call: Option<String>,
    /// Its calls not followed yet, last first.
    calls: Vec<String>,
}

impl Frame {
    fn new(dir: PathBuf, merged: Arc<MergedModule>, path: String, call: Option<String>) -> Self {
        let calls = merged.module_calls.keys().rev().cloned().collect();
        Self {
            dir,
            merged,
            path,
            call,
            calls,
        }
    }
}

/// The module call cycles found by walks from several root modules, each reported once:
/// a module walked from one root is not walked again from the next.
#[derive(Debug, Default)]
pub struct CallCycles {
    seen: HashMap<PathBuf, Seen>,
}

impl CallCycles {
    /// No walk yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether a walk has reached the module in `dir`.
    pub fn reached(&self, dir: &Path) -> bool {
        self.seen.contains_key(dir)
    }

    /// Walks the local module calls from the root module `root` in `root_dir`, finding
    /// each called module with `child`; returns an error at the `source` of every call
    /// that closes a cycle.
    pub fn walk(
        &mut self,
        root_dir: &Path,
        root: Arc<MergedModule>,
        child: ChildModule<'_>,
    ) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        if self.reached(root_dir) {
            return out;
        }
        self.seen.insert(root_dir.to_path_buf(), Seen::OnChain);
        let mut chain = vec![Frame::new(
            root_dir.to_path_buf(),
            root,
            String::new(),
            None,
        )];
        while let Some(top) = chain.last_mut() {
            let Some(name) = top.calls.pop() else {
                self.seen.insert(top.dir.clone(), Seen::Done);
                chain.pop();
                continue;
            };
            let merged = top.merged.clone();
            let Some(source) = merged
                .module_calls
                .get(&name)
                .and_then(|c| c.source.as_ref())
            else {
                continue;
            };
            let Some((dir, loaded)) =
                literal_string(source.expr()).and_then(|s| child(&chain_dir(&chain), s))
            else {
                continue;
            };
            match self.seen.get(&dir) {
                Some(Seen::Done) => {}
                Some(Seen::OnChain) => {
                    let detail = cycle_detail(root_dir, &chain, &dir, &name);
                    let origin = source.origin();
                    out.push(Diagnostic {
                        severity: Severity::Error,
                        summary: MODULE_CALL_CYCLE.into(),
                        detail,
                        path: merged.file(origin.file).path.clone(),
                        span: origin.span,
                        code: CALL_CYCLE_CODE,
                        related: Vec::new(),
                        values: Vec::new(),
                    });
                }
                None => {
                    self.seen.insert(dir.clone(), Seen::OnChain);
                    let path = match chain_path(&chain) {
                        "" => format!("module.{name}"),
                        above => format!("{above}.module.{name}"),
                    };
                    chain.push(Frame::new(dir, loaded, path, Some(name)));
                }
            }
        }
        out
    }
}

/// The directory of the module whose calls are being followed.
fn chain_dir(chain: &[Frame]) -> PathBuf {
    chain.last().map(|f| f.dir.clone()).unwrap_or_default()
}

/// The module path of the module whose calls are being followed.
fn chain_path(chain: &[Frame]) -> &str {
    chain.last().map_or("", |f| f.path.as_str())
}

/// The planner's detail for the call `name` of the last module of `chain`, which loads
/// the module in `dir` that is on the chain already.
fn cycle_detail(root_dir: &Path, chain: &[Frame], dir: &Path, name: &str) -> String {
    let first = chain.iter().rposition(|f| f.dir == dir).unwrap_or(0);
    let calls: Vec<String> = chain[first..]
        .iter()
        .filter_map(|f| f.call.as_ref())
        .chain(std::iter::once(&name.to_string()))
        .map(|c| format!("module.{c}"))
        .collect();
    call_cycle_detail(root_dir, dir, &chain[first].path, &calls)
}

#[cfg(test)]
#[path = "cycles_tests.rs"]
mod tests;
