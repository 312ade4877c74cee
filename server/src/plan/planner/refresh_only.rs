//! An instance in a refresh-only plan (Terraform's `managedResourceExecute` with
//! `skipPlanChanges`): its preconditions, then its postconditions against the refreshed
//! object (the prior one: Strata refreshes nothing), which references read too; nothing
//! is planned.
//!
//! `self` in a postcondition is looked up as Terraform's evaluator looks it up
//! (`evalVarBuilder.putSelfValue`): the whole resource as the state holds it
//! (`GetResource`), indexed by the instance's key (`hcl.Index`). An instance the state
//! does not hold (one `count` or `for_each` adds, or that an implied move left without an
//! object) has nothing there: `count` makes the resource a tuple as long as its largest
//! key in the state (empty without any), `for_each` an object of the keys there, so a key
//! beyond them is `Invalid index`, an error even in a refresh-only plan, once per `self`
//! reference of each rule's condition and error message (every reference is looked up
//! before the rule is evaluated); a key within them, or a resource without either, gives
//! an unknown `self`. Recorded in fixtures/differential/diff-408 and
//! fixtures/plan-recorded/refresh-only-self-index.

use super::{Bindings, Planned, Planner};
use crate::eval::{index_value, references, EvalError, Value};
use crate::merge::{Origin, Resource};
use crate::plan::address::InstanceAddr;
use crate::plan::providers;
use crate::plan::state::InstanceKey;
use crate::plan::{Action, PlanDiagnostic};

impl Planner<'_> {
    /// Evaluates a refresh-only plan's instance: its conditions, and its object unchanged.
    pub(super) fn refresh_only(
        &self,
        node: usize,
        r: &Resource,
        addr: &InstanceAddr,
        bindings: &Bindings,
    ) -> Planned {
        let _ = self.conditions(
            node,
            &r.lifecycle.preconditions,
            bindings,
            "Resource precondition failed",
        );
        let Some(&i) = self.current.get(addr) else {
            match self.self_without_object(r, addr) {
                Ok(self_value) => self.postconditions(node, r, bindings, self_value),
                Err(e) => self.self_lookup_failed(node, r, &e),
            }
            return Planned::unknown();
        };
        let type_name = &addr.resource.type_name;
        let prior = self.objects[i].instance.prior(type_name);
        let schema = self.resource_schema(node, r);
        let referenced =
            providers::as_referenced(type_name, prior.clone(), false, schema.as_deref());
        self.postconditions(node, r, bindings, referenced);
        Planned {
            action: Action::NoOp,
            before: prior.clone(),
            after: prior,
        }
    }

    /// `self` for an instance the state holds no object of: unknown, or the error of
    /// indexing the resource's value in the state with the instance's key.
    fn self_without_object(&self, r: &Resource, addr: &InstanceAddr) -> Result<Value, EvalError> {
        let keys = self
            .current
            .keys()
            .filter(|a| a.resource == addr.resource)
            .map(|a| &a.key);
        // Every slot is unknown: only the value's shape decides the lookup.
        let (resource, key) = match &addr.key {
            InstanceKey::Int(k) if r.count.is_some() => {
                let length = keys
                    .filter_map(|k| match k {
                        InstanceKey::Int(i) => usize::try_from(*i).ok(),
                        _ => None,
                    })
                    .map(|i| i.saturating_add(1))
                    .max()
                    .unwrap_or(0);
                let tuple = Value::Tuple(vec![Value::Unknown; length].into());
                (tuple, Value::Number(*k as f64))
            }
            InstanceKey::String(k) if r.for_each.is_some() => {
                let object = keys
                    .filter_map(|k| match k {
                        InstanceKey::String(s) => Some((s.clone(), Value::Unknown)),
                        _ => None,
                    })
                    .collect();
                (Value::Object(object), Value::String(k.clone()))
            }
            _ => return Ok(Value::Unknown),
        };
        index_value(resource, &key, crate::syntax::Span::default())
    }

    /// The lookup's error at every `self` of the postconditions' conditions and error
    /// messages, as Terraform reports it before evaluating each rule.
    fn self_lookup_failed(&self, node: usize, r: &Resource, e: &EvalError) {
        let m = self.node(node).merged.clone();
        for rule in &r.lifecycle.postconditions {
            let body = &rule.block.body;
            for attr in ["condition", "error_message"].map(|a| body.attribute(a)) {
                let Some(attr) = attr else { continue };
                for reference in references(&attr.expr)
                    .iter()
                    .filter(|r| r.subject == "self")
                {
                    let at = Origin {
                        file: rule.file,
                        span: reference.subject_span,
                    };
                    self.error(PlanDiagnostic::at(&m, at, &e.summary, e.detail.clone()));
                }
            }
        }
    }
}
