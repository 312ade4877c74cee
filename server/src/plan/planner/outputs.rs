//! The planned changes of the root module's output values (`output_changes`), as
//! Terraform plans them: an output new to the state is created, one no longer configured
//! is deleted, a known value equal to the state's (and as sensitive) is unchanged, any
//! other is updated; under `-destroy` every output is deleted that the refresh before it
//! leaves in the state.

use std::collections::BTreeMap;

use super::scope::literal_bool;
use super::Planner;
use crate::eval::Value;
use crate::plan::{Action, OutputChange, PlanMode, State};

impl Planner<'_> {
    /// Every root output's change, by name.
    pub(super) fn output_changes(&self, state: &State) -> Vec<OutputChange> {
        let removed = |name: &String, before: &Value, sensitive: bool| OutputChange {
            name: name.clone(),
            action: Action::Delete,
            before: before.clone(),
            after: Value::Null,
            sensitive,
        };
        let root = self.node(0).merged.clone();
        if self.options.mode == PlanMode::Destroy {
            // The refresh before a destroy stores each output whose value is known (and
            // drops a null one); then every stored output is deleted.
            let mut stored: BTreeMap<&String, (Value, bool)> = state
                .outputs
                .iter()
                .map(|(name, o)| (name, (Value::from_json(&o.value), o.sensitive)))
                .collect();
            for (name, output) in &root.outputs {
                let value = self.output_value(0, name);
                if !value.is_wholly_known() {
                    continue;
                }
                match value.is_null() {
                    true => stored.remove(name),
                    false => stored.insert(name, (value, literal_bool(output.sensitive.as_ref()))),
                };
            }
            return stored
                .into_iter()
                .map(|(name, (value, sensitive))| removed(name, &value, sensitive))
                .collect();
        }
        let mut changes: Vec<OutputChange> = state
            .outputs
            .iter()
            .filter(|(name, _)| !root.outputs.contains_key(*name))
            .map(|(name, o)| removed(name, &Value::from_json(&o.value), o.sensitive))
            .collect();
        for (name, output) in &root.outputs {
            // An output whose evaluation failed is not planned (Terraform's walk stops
            // there); the failure is reported.
            let (after, failed) = self.noting_failed(|| self.output_value(0, name));
            if failed {
                continue;
            }
            let declared_sensitive = literal_bool(output.sensitive.as_ref());
            let prior = state.outputs.get(name);
            let before = prior.map_or(Value::Null, |o| Value::from_json(&o.value));
            let sensitive_before = prior.is_some_and(|o| o.sensitive);
            let action = if after.unmarked().is_null() && before.is_null() {
                Action::NoOp
            } else if prior.is_none() {
                Action::Create
            } else if after.is_wholly_known()
                && after.known_json() == before.known_json()
                && declared_sensitive == sensitive_before
            {
                Action::NoOp
            } else {
                Action::Update
            };
            changes.push(OutputChange {
                name: name.clone(),
                action,
                before,
                after,
                sensitive: sensitive_before || declared_sensitive,
            });
        }
        changes.sort_by(|a, b| a.name.cmp(&b.name));
        changes
    }
}
