//! The values of named objects in one module instance: input variables (from the
//! caller's arguments or the root's inputs), locals, output values and module calls.

use super::expansion::assemble;
use super::scope::literal_bool;
use super::{Bindings, Memo, Planner};
use crate::check::{declared_marks, SENSITIVE_OUTPUT_DETAIL, SENSITIVE_OUTPUT_SUMMARY};
use crate::eval::{EvalError, Marks, Value};
use crate::plan::variables::variable_type;
use crate::plan::PlanDiagnostic;
use crate::syntax::Span;
use crate::types::convert;

/// The summary of the error that stops an evaluation reading a failed value; never
/// reported (the failure was).
const UPSTREAM_FAILED: &str = "Upstream dependency failed";

impl Planner<'_> {
    pub(super) fn variable(&self, node: usize, name: &str, span: Span) -> Result<Value, EvalError> {
        let n = self.node(node);
        let Some(declared) = n.merged.variables.get(name) else {
            return Err(EvalError::new(
                "Reference to undeclared input variable",
                format!("An input variable with the name \"{name}\" has not been declared."),
                span,
            ));
        };
        // A variable declared sensitive or ephemeral marks its value.
        let marks = declared_marks(declared);
        let Some((parent, call, bindings)) = &n.parent else {
            let value = self.root_vars.get(name).cloned();
            return Ok(value.unwrap_or(Value::Unknown).mark(marks));
        };
        Ok(self.memoized(Memo::Var(node, name.to_string()), || {
            let ty = variable_type(&n.merged, declared);
            let p = self.node(*parent);
            let given = p
                .merged
                .module_calls
                .get(call)
                .and_then(|c| c.arguments.attribute(name));
            let default = || {
                declared
                    .default
                    .as_ref()
                    .and_then(|d| crate::eval::constant(d.expr()))
                    .map(|j| Value::from_json(&j))
            };
            // `nullable = false`: a null argument means the default, as if omitted.
            let not_nullable = declared
                .nullable
                .as_ref()
                .and_then(|a| crate::eval::constant(a.expr()))
                == Some(serde_json::Value::Bool(false));
            let value = match given {
                Some(a) => match self.eval(*parent, a.file, a.expr(), bindings) {
                    Some(Value::Null) if not_nullable => default(),
                    other => other,
                },
                None => default(),
            };
            // Converted unmarked; the argument's marks stay where they were.
            let (value, paths) = match value {
                Some(v) => {
                    let (v, paths) = v.unmark_deep_with_paths();
                    (Some(v), paths)
                }
                None => (None, Vec::new()),
            };
            let value = match value {
                Some(v) if v.is_wholly_known() => match convert(&v.to_json(), &ty) {
                    Ok(json) => {
                        let json = crate::types::apply_defaults(&json, &ty);
                        Value::from_converted(&json, &ty, Some(&v))
                    }
                    Err(_) => v,
                },
                Some(v) => crate::eval::conform(v, &ty),
                None => Value::Null,
            };
            value.mark_with_paths(&paths).mark(marks)
        }))
    }

    pub(super) fn local(&self, node: usize, name: &str, span: Span) -> Result<Value, EvalError> {
        let n = self.node(node);
        let Some(local) = n.merged.locals.get(name) else {
            return Err(EvalError::new(
                "Reference to undeclared local value",
                format!("A local value with the name \"{name}\" has not been declared."),
                span,
            ));
        };
        let (value, failed) = self.noting_failed(|| {
            self.memoized(Memo::Local(node, name.to_string()), || {
                self.eval(
                    node,
                    local.value.file,
                    local.value.expr(),
                    &Bindings::default(),
                )
                .unwrap_or(Value::Unknown)
            })
        });
        // A local value whose evaluation failed stops the evaluation that reads it
        // (which reports nothing more: see `Planner::eval`).
        match failed {
            true => Err(EvalError::new(UPSTREAM_FAILED, String::new(), span)),
            false => Ok(value),
        }
    }

    pub(super) fn output_value(&self, node: usize, name: &str) -> Value {
        let n = self.node(node);
        let Some(output) = n.merged.outputs.get(name) else {
            return Value::Unknown;
        };
        self.memoized(Memo::Output(node, name.to_string()), || {
            let none = Bindings::default();
            let failed = self.conditions(
                node,
                &output.preconditions,
                &none,
                "Module output value precondition failed",
            );
            // Where a failed condition only warns, the value stands.
            if failed && !self.conditions_only_warn() {
                return Value::Unknown;
            }
            let value = match &output.value {
                Some(v) => self
                    .eval(node, v.file, v.expr(), &none)
                    .unwrap_or(Value::Unknown),
                None => Value::Null,
            };
            // A caller reads an output declared sensitive as a sensitive value.
            let sensitive = literal_bool(output.sensitive.as_ref());
            // A root output must be declared sensitive to return a sensitive value: the
            // plan walk's check of the values it plans (`node_output.go`), which the
            // validate walk could not make of values from resources.
            if node == 0 && !sensitive && value.deep_marks().contains(Marks::SENSITIVE) {
                let m = &self.node(node).merged;
                self.error(PlanDiagnostic::at(
                    m,
                    output.provenance.decl,
                    SENSITIVE_OUTPUT_SUMMARY,
                    SENSITIVE_OUTPUT_DETAIL,
                ));
            }
            match sensitive {
                true => value.mark(Marks::SENSITIVE),
                false => value,
            }
        })
    }

    pub(super) fn call_value(
        &self,
        node: usize,
        name: &str,
        span: Span,
    ) -> Result<Value, EvalError> {
        let n = self.node(node);
        if !n.merged.module_calls.contains_key(name) {
            return Err(EvalError::new(
                "Reference to undeclared module",
                format!("No module call named \"{name}\" is declared in this module."),
                span,
            ));
        }
        Ok(self.memoized(Memo::Call(node, name.to_string()), || {
            let Some((repetition, children)) =
                self.calls.borrow().get(&(node, name.to_string())).cloned()
            else {
                // A module Strata cannot read (a registry or remote source, or instances it
                // could not expand): Terraform knows its outputs, Strata does not.
                self.unread.set(true);
                return Value::Unknown;
            };
            // Only the failed outputs themselves are missing (unknown): Terraform skips what
            // depends on the output, not on the others of the call.
            let outputs = |child: usize| {
                let m = self.node(child).merged.clone();
                let output = |o: &String| self.noting_failed(|| self.output_value(child, o)).0;
                Value::Object(m.outputs.keys().map(|o| (o.clone(), output(o))).collect())
            };
            assemble(
                repetition,
                children
                    .iter()
                    .map(|(k, c)| (k.clone(), outputs(*c)))
                    .collect(),
            )
        }))
    }
}
