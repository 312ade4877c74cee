//! Checks made once every instance is planned: `-replace` addresses that lack the
//! instance key their resource needs (spec §4.10). `moved` statements are validated in
//! `move_validation.rs`.

use super::address::{ModulePath, Target};
use super::planner::{Planner, Repetition};
use super::PlanDiagnostic;
use crate::merge::{Mode, ResourceKey};

impl Planner<'_> {
    /// `Incompletely-matched force-replace resource instance` for a `-replace` address
    /// without a key when its resource has keyed instances, or none.
    pub(super) fn replace_warnings(&self) {
        for text in &self.options.replace {
            let Ok(Target::Resource(r)) = Target::parse(text, &ModulePath::root()) else {
                continue;
            };
            let Some(node) = self.nodes.borrow().iter().position(|n| n.path == r.module) else {
                continue;
            };
            let key = ResourceKey {
                mode: Mode::Managed,
                type_name: r.type_name.clone(),
                name: r.name.clone(),
            };
            let expansions = self.expansions.borrow();
            let Some((repetition, instances)) = expansions.get(&(node, key)) else {
                continue;
            };
            if *repetition == Repetition::Single && !instances.is_empty() {
                continue;
            }
            let options: Vec<String> = instances
                .iter()
                .map(|(k, _)| {
                    let addr = r.instance(k.clone()).to_string();
                    format!("\n  -replace={}", serde_json::Value::String(addr))
                })
                .collect();
            let prefix = format!(
                "Your force-replace request for {r} doesn't match any resource instances because"
            );
            let detail = match options.len() {
                0 => format!("{prefix} this resource doesn't have any instances."),
                1 => format!("{prefix} it lacks an instance key.\n\nTo force replacement of the single declared instance, use the following option instead:{}", options[0]),
                _ => format!("{prefix} it lacks an instance key.\n\nTo force replacement of particular instances, use one or more of the following options instead:{}", options.concat()),
            };
            self.warnings.borrow_mut().push(PlanDiagnostic::sourceless(
                "Incompletely-matched force-replace resource instance",
                detail,
            ));
        }
    }
}
