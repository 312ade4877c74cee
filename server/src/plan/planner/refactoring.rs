//! `moved` statements applied to the prior state's objects before planning, and the
//! configuration module at a module path (imports are in `imports.rs`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use super::Planner;
use crate::merge::{literal_string, MergedModule, Mode, ResourceKey};
use crate::module::Dialect;
use crate::plan::address::{ModulePath, ResourceAddr};
use crate::plan::moves::{self};
use crate::plan::state::{InstanceKey, ResourceMode};
use crate::plan::PlanDiagnostic;

impl Planner<'_> {
    /// The configuration module at a path of call names from the root.
    pub(in crate::plan) fn config_module(
        &self,
        calls: &[&str],
    ) -> Option<(PathBuf, Arc<MergedModule>)> {
        let mut dir = self.config.root_dir.clone();
        let mut m = self.config.root.clone();
        for call in calls {
            let source = m.module_calls.get(*call)?.source.as_ref()?;
            let (d, child) = (self.config.child)(&dir, literal_string(source.expr())?)?;
            dir = d;
            m = child;
        }
        Some((dir, m))
    }

    /// `Unresolved resource instance address changes` for the moves an object at the
    /// destination blocked; Terraform warns only when the plan has no errors, since an
    /// invalid statement is the likelier cause.
    pub(super) fn blocked_moves_warning(&self) -> Option<PlanDiagnostic> {
        if self.blocked_moves.is_empty() {
            return None;
        }
        let tool = match self.dialect {
            Dialect::Terraform => ("Terraform", "terraform"),
            Dialect::OpenTofu => ("OpenTofu", "tofu"),
        };
        let items: String = self
            .blocked_moves
            .iter()
            .map(|(from, to)| format!("\n  - {from} could not move to {to}"))
            .collect();
        Some(PlanDiagnostic::sourceless(
            "Unresolved resource instance address changes",
            format!("{0} tried to adjust resource instance addresses in the prior state based on change information recorded in the configuration, but some adjustments did not succeed due to existing objects already at the intended addresses:{items}\n\n{0} has planned to destroy these objects. If {0}'s proposed changes aren't appropriate, you must first resolve the conflicts using the \"{1} state\" subcommands and then create a new plan.", tool.0, tool.1),
        ))
    }

    /// Applies explicit and implied moves to the prior state's objects.
    pub(super) fn apply_moves(&mut self) {
        let mut statements = Vec::new();
        let mut module_paths: Vec<ModulePath> = self
            .objects
            .iter()
            .map(|o| o.addr.resource.module.clone())
            .collect();
        module_paths.sort_by_key(ToString::to_string);
        module_paths.dedup();
        for path in &module_paths {
            if let Some((_, m)) = self.config_module(&path.calls()) {
                statements.extend(moves::explicit_statements(&m, path));
            }
        }
        let mut by_resource: BTreeMap<String, (ResourceAddr, Vec<InstanceKey>)> = BTreeMap::new();
        for o in &self.objects {
            if o.instance.deposed.is_none() && o.addr.resource.mode == ResourceMode::Managed {
                by_resource
                    .entry(o.addr.resource.to_string())
                    .or_insert_with(|| (o.addr.resource.clone(), Vec::new()))
                    .1
                    .push(o.addr.key.clone());
            }
        }
        let mentioned = moves::mentioned(&statements);
        for (resource, keys) in by_resource.values() {
            if mentioned.contains(resource) {
                continue;
            }
            let Some((_, m)) = self.config_module(&resource.module.calls()) else {
                continue;
            };
            let key = ResourceKey {
                mode: Mode::Managed,
                type_name: resource.type_name.clone(),
                name: resource.name.clone(),
            };
            if let Some(r) = m.resources.get(&key) {
                statements.extend(moves::implied_statement(
                    resource,
                    keys,
                    r.count.is_some(),
                    r.for_each.is_some(),
                ));
            }
        }
        self.blocked_moves = moves::apply(&mut self.objects, &statements);
    }
}
