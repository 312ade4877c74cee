//! `moved` blocks for renames the plan would otherwise carry out as a destroy and a
//! create: a managed resource of the file that the plan creates while it destroys a
//! resource of the same type that is no longer configured
//! (`delete_because_no_resource_config`). Each such pair is one fix; the author picks the
//! pair that is the rename.

use std::collections::BTreeSet;
use std::path::Path;

use super::Fix;
use crate::ide::rename::moved_block_for;
use crate::plan::{Action, Plan, ResourceAddr, ResourceMode};
use crate::syntax::Span;
use crate::workspace::Workspace;

/// Terraform's reason for destroying an object whose resource block is gone.
const NO_CONFIGURATION: &str = "delete_because_no_resource_config";

/// The `moved` fixes for the resources declared in `path` whose block touches `range`,
/// from `plan` (the module's plan against its prior state).
pub fn moves(ws: &Workspace, path: &Path, plan: &Plan, range: Span) -> Vec<Fix> {
    let Some(m) = path.parent().and_then(|d| ws.merged(d)) else {
        return Vec::new();
    };
    let Some(file) = m.file_index(path) else {
        return Vec::new();
    };
    let managed_root = |r: &ResourceAddr| r.mode == ResourceMode::Managed && r.module.0.is_empty();
    let gone: BTreeSet<String> = plan
        .changes
        .iter()
        .filter(|c| c.action == Action::Delete && c.reason == Some(NO_CONFIGURATION))
        .filter(|c| c.deposed.is_none() && managed_root(&c.addr.resource))
        .map(|c| c.addr.resource.to_string())
        .collect();
    // A resource whose every instance is created: one that exists already was not renamed.
    let mut created: BTreeSet<(String, String)> = BTreeSet::new();
    let mut existing: BTreeSet<String> = BTreeSet::new();
    for c in &plan.changes {
        let resource = &c.addr.resource;
        if !managed_root(resource) {
            continue;
        }
        let Some((declared, span)) = &c.declared_at else {
            continue;
        };
        let touches = span.start <= range.end && range.start <= span.end;
        match c.action {
            Action::Create if declared == path && touches => {
                created.insert((resource.type_name.clone(), resource.to_string()));
            }
            _ => {
                existing.insert(resource.to_string());
            }
        }
    }
    let mut fixes = Vec::new();
    for (type_name, to) in created.iter().filter(|(_, to)| !existing.contains(to)) {
        let prefix = format!("{type_name}.");
        for from in gone.iter().filter(|g| g.starts_with(&prefix)) {
            if let Some(edit) = moved_block_for(&m, from, to, file) {
                fixes.push(Fix {
                    title: format!("Add a moved block from {from} to {to}"),
                    edits: vec![edit],
                    safe: false,
                    fixes: Vec::new(),
                });
            }
        }
    }
    fixes
}
