//! Custom conditions (spec §4.13): resource preconditions and postconditions, and the
//! assertions of `check` blocks with their scoped data sources.

use super::{Bindings, Planner};
use crate::eval::Value;
use crate::merge::{MergedBody, Nested, Origin, Resource};
use crate::plan::address::ResourceAddr;
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
        // A refresh-only plan only warns; so does the refresh before a destroy of a
        // resource's conditions (`preDestroyRefresh`), not of an output's.
        let warns = assertion
            || self.options.mode == PlanMode::RefreshOnly
            || self.options.mode == PlanMode::Destroy && summary.starts_with("Resource");
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
            let d = PlanDiagnostic::at(&m, at, summary, message);
            if warns {
                self.warnings.borrow_mut().push(d);
            } else {
                self.error(d);
            }
        }
        failed
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

    /// `check` blocks: nested data sources are always read at apply; failed assertions
    /// are warnings.
    pub(super) fn plan_checks(&self, node: usize) {
        let n = self.node(node);
        let m = &n.merged;
        let none = Bindings::default();
        for check in &m.checks {
            for data in check.block.body.blocks_of("data") {
                let (Some(t), Some(name)) = (data.label(0), data.label(1)) else {
                    continue;
                };
                let resource = ResourceAddr {
                    module: n.path.clone(),
                    mode: ResourceMode::Data,
                    type_name: t.to_string(),
                    name: name.to_string(),
                };
                let config = MergedBody::base(
                    &data.body,
                    check.file,
                    &["depends_on", "provider", "lifecycle"],
                );
                let after = self.eval_config(node, &config, &none).map(|(v, _)| v);
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
                    declared_at: Some((
                        m.file(check.file).path.clone(),
                        crate::merge::header_span(data),
                    )),
                    blocks: Vec::new(),
                    schema: None,
                });
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
}
