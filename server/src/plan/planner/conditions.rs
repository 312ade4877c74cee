//! Custom conditions (spec §4.13): resource preconditions and postconditions, and the
//! assertions of `check` blocks with their scoped data sources.

use super::remote_state::REMOTE_STATE;
use super::{declared_at, Bindings, Planner};
use crate::eval::{Causes, Value};
use crate::merge::{Nested, Origin, Resource};
use crate::plan::address::{InstanceAddr, ResourceAddr};
use crate::plan::state::{InstanceKey, ResourceMode};
use crate::plan::{Action, PlanDiagnostic, PlanMode, ResourceChange};

impl Planner<'_> {
    /// Evaluates `precondition`/`postcondition` blocks; each false condition is an error
    /// with `summary`, a warning for check assertions and in a refresh-only plan (where
    /// nothing is planned that a failure could stop). A check assertion known only after
    /// apply warns so. Returns whether any failed.
    pub(super) fn conditions(
        &self,
        node: usize,
        blocks: &[Nested],
        bindings: &Bindings,
        summary: &str,
    ) -> bool {
        let assertion = summary.starts_with("Check block");
        // A refresh-only plan only warns; so does the refresh before a destroy
        // (`preDestroyRefresh`: resources' and outputs' conditions alike).
        let warns = assertion || self.conditions_only_warn();
        let m = self.node(node).merged.clone();
        let mut failed = false;
        for c in blocks {
            let Some(condition) = c.block.body.attribute("condition") else {
                continue;
            };
            let (value, unread) =
                self.noting_unread(|| self.eval(node, c.file, &condition.expr, bindings));
            let Some(value) = value else {
                continue;
            };
            let at = Origin {
                file: c.file,
                span: condition.expr.span,
            };
            // An unknown that is only Strata's ignorance (a data source Terraform reads
            // while planning) says nothing of what Terraform knows.
            if assertion && !value.is_known() && !unread {
                self.warnings.borrow_mut().push(PlanDiagnostic::at(
                    &m,
                    at,
                    "Check block assertion known after apply",
                    "The condition could not be evaluated at this time, a result will be known when this plan is applied.",
                ));
                continue;
            }
            if value.to_bool() != Some(false) {
                continue;
            }
            failed = true;
            let message = c
                .block
                .body
                .attribute("error_message")
                .and_then(|m| self.eval(node, c.file, &m.expr, bindings))
                .and_then(|m| m.to_text())
                .unwrap_or_default();
            let values =
                self.expression_values(node, c.file, &condition.expr, bindings, Causes::default());
            let d = PlanDiagnostic::at(&m, at, summary, message).with_values(values);
            if warns {
                self.warnings.borrow_mut().push(d);
            } else {
                self.error(d);
            }
        }
        failed
    }

    /// Whether a failed condition only warns in this plan, leaving what it guards to be
    /// planned: a refresh-only plan, and the normal plan that refreshes before a destroy.
    pub(super) fn conditions_only_warn(&self) -> bool {
        matches!(self.options.mode, PlanMode::RefreshOnly | PlanMode::Destroy)
    }

    /// Evaluates a resource's postconditions with `self` bound to its planned object.
    pub(super) fn postconditions(
        &self,
        node: usize,
        r: &Resource,
        bindings: &Bindings,
        self_value: Value,
    ) {
        let with_self = Bindings {
            self_value: Some(self_value),
            ..bindings.clone()
        };
        let _ = self.conditions(
            node,
            &r.lifecycle.postconditions,
            &with_self,
            "Resource postcondition failed",
        );
    }

    /// `check` blocks: nested data sources are read while planning, and planned to be
    /// read again at apply; failed assertions are warnings.
    pub(super) fn plan_checks(&self, node: usize) {
        let m = self.node(node).merged.clone();
        let none = Bindings::default();
        for check in &m.checks {
            let warned = self.warnings.borrow().len();
            for data in m.scoped_data_of(check) {
                self.plan_scoped_data(node, &data);
            }
            // A data source that failed to read fails its check: Terraform evaluates
            // none of its assertions then (`nodeCheckAssert`).
            if self.warnings.borrow().len() > warned {
                continue;
            }
            let asserts: Vec<Nested> = check
                .block
                .body
                .blocks_of("assert")
                .map(|b| Nested {
                    block: b.clone(),
                    file: check.file,
                })
                .collect();
            let _ = self.conditions(node, &asserts, &none, "Check block assertion failed");
        }
    }

    /// A `check` block's data source: read now where Strata can, and planned to be read
    /// at apply (`read_because_check_nested`); what it read is what the check's
    /// assertions see.
    fn plan_scoped_data(&self, node: usize, data: &Resource) {
        let n = self.node(node);
        let m = &n.merged;
        let none = Bindings::default();
        let resource = ResourceAddr {
            module: n.path.clone(),
            mode: ResourceMode::Data,
            type_name: data.key.type_name.clone(),
            name: data.key.name.clone(),
        };
        // A check's data source has no repetition: its one instance has no key.
        let addr = InstanceAddr {
            resource: resource.clone(),
            key: InstanceKey::None,
        };
        let config = self.eval_config(node, &data.config, &none).map(|(v, _)| v);
        // The local backend's state Strata reads as Terraform does (a failed read
        // only warns here); other data sources it cannot read.
        let read = config.as_ref().and_then(|c| {
            let (c, marks) = c.clone().unmark_deep_with_paths();
            (data.key.type_name == REMOTE_STATE && c.is_wholly_known())
                .then(|| self.read_remote_state(node, data, &addr, &c, true))
                .flatten()
                .map(|v| v.mark_with_paths(&marks))
        });
        let after = read.or(config);
        if let Some(value) = &after {
            self.scoped
                .borrow_mut()
                .insert((node, data.key.clone()), value.clone());
        }
        self.changes.borrow_mut().push(ResourceChange {
            addr: resource.instance(InstanceKey::None),
            previous: None,
            deposed: None,
            action: Action::Read,
            reason: Some("read_because_check_nested"),
            before: None,
            after,
            replace_paths: Vec::new(),
            caveat: None,
            importing: None,
            declared_at: declared_at(m, data),
            blocks: Vec::new(),
            schema: None,
        });
    }
}
