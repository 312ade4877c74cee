//! Data resource instances (spec §4.7): read during the plan when their configuration is
//! known and nothing they depend on changes, deferred to apply otherwise.

use super::remote_state::REMOTE_STATE;
use super::{declared_at, Bindings, Planned, Planner};
use crate::eval::Value;
use crate::merge::Resource;
use crate::plan::address::InstanceAddr;
use crate::plan::providers;
use crate::plan::{Action, ResourceChange};

impl Planner<'_> {
    pub(super) fn plan_data(
        &self,
        node: usize,
        r: &Resource,
        addr: &InstanceAddr,
        bindings: &Bindings,
    ) -> Planned {
        let n = self.node(node);
        let m = &n.merged;
        let Some((config, _)) = self.eval_config(node, &r.config, bindings) else {
            return Planned::unknown();
        };
        // Read unmarked; the configuration's marks go back on the object read.
        let (config, config_marks) = config.unmark_deep_with_paths();
        if self.conditions(
            node,
            &r.lifecycle.preconditions,
            bindings,
            "Resource precondition failed",
        ) && !self.conditions_only_warn()
        {
            return Planned::unknown();
        }
        let reason = if !config.is_wholly_known() {
            Some("read_because_config_unknown")
        } else if self.dependencies(node, r).iter().any(|dep| {
            self.resource_value(node, dep);
            self.planned
                .borrow()
                .get(&(node, dep.clone()))
                .is_some_and(|list| list.iter().any(|(_, p)| p.action != Action::NoOp))
        }) {
            Some("read_because_dependency_pending")
        } else {
            None
        };
        let schema = self.resource_schema(node, r);
        // With a schema the object to read is whole: what the configuration sets, and the
        // attributes the provider computes unknown (Terraform's planned data object).
        let to_read = |config: Value| match schema.as_deref() {
            Some(s) => crate::plan::schema_objects::planned_create(s, &config),
            None => providers::to_be_computed(config),
        };
        if let Some(reason) = reason {
            let planned = schema
                .as_deref()
                .map(|s| crate::plan::schema_objects::planned_create(s, &config));
            self.changes.borrow_mut().push(ResourceChange {
                addr: addr.clone(),
                previous: None,
                deposed: None,
                action: Action::Read,
                reason: Some(reason),
                before: None,
                after: Some((planned.clone().unwrap_or(config)).mark_with_paths(&config_marks)),
                replace_paths: Vec::new(),
                caveat: None,
                importing: None,
                declared_at: declared_at(m, r),
                blocks: schema
                    .as_deref()
                    .map(crate::plan::schema_objects::block_names)
                    .unwrap_or_default(),
                schema: schema.clone(),
            });
            return Planned {
                action: Action::Read,
                before: Value::Null,
                after: planned
                    .unwrap_or(Value::Unknown)
                    .mark_with_paths(&config_marks),
            };
        }
        // Read now: the local backend's state Strata reads itself; other data sources it
        // cannot read, so it reuses the last result when the arguments are the ones it
        // was read with.
        let read = (addr.resource.type_name == REMOTE_STATE)
            .then(|| self.read_remote_state(node, r, addr, &config, false))
            .flatten();
        let prior = || {
            self.current
                .get(addr)
                .map(|&i| self.objects[i].instance.prior(&addr.resource.type_name))
                .filter(|p| !crate::plan::providers::differs(&config, p, true))
        };
        let after = read
            .or_else(prior)
            .unwrap_or_else(|| {
                // Terraform would read it now; Strata knows only the arguments.
                self.unread.set(true);
                to_read(config)
            })
            .mark_with_paths(&config_marks);
        self.postconditions(
            node,
            r,
            bindings,
            providers::as_referenced(
                &addr.resource.type_name,
                after.clone(),
                false,
                schema.as_deref(),
            ),
        );
        Planned {
            action: Action::NoOp,
            before: Value::Null,
            after,
        }
    }
}
