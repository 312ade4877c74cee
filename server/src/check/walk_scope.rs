//! The values names have during Terraform's validate walk (`internal/terraform/evaluate.go`
//! with `walkValidate`): every input variable is unknown, of its type constraint
//! (`cty.UnknownVal(config.Type)`), whatever its default or the value a caller passes;
//! resources, data sources, module outputs, `count.index`, `each`, `self`, `path` and
//! `terraform`'s other attributes are unknown to Strata here; `terraform.workspace` is the
//! default workspace's name, as the planner gives it; local values are computed from their
//! expressions. A local that fails or refers to itself is unknown (its own error is
//! reported where it is declared). Files are not read: what a file function returns is
//! unknown. A variable declared sensitive or ephemeral is unknown and marked so, as
//! Terraform marks it. Locals are computed deepest first (`settle`), so a long chain of
//! them never nests one evaluation per link.
//!
//! The one exception Terraform makes, a variable's own validation rules seeing the value
//! it was given (`evalVariableValidations`), is `WalkScope::with_variable`.
//!
//! A call of a provider-defined function is an unknown value of its return type where
//! the provider's schema gives its signature (`provider_functions.rs`), after the checks
//! of its arguments; Terraform calls the provider, Strata never does.
//!
//! Every expression evaluated in one scope shares one evaluation budget, a plan's
//! (`crate::limits::MAX_PLAN_STEPS`): each expression is bounded on its own, and so are a
//! module's many. Once it is spent, evaluations fail with the budget's error, which is
//! never reported as Terraform's, so what is left is not analysed.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap, HashSet};

use super::marks::declared_marks;
use super::provider_functions::{namespaced, Namespaced};
use crate::eval::{evaluate, references, Budget, EvalError, Refinement, Scope, Value};
use crate::merge::MergedModule;
use crate::schema::{ProviderFunction, ProviderSchemaSource};
use crate::syntax::Span;
use crate::types::{parse_type_argument, Type};

/// Names as the validate walk sees them in one module.
pub struct WalkScope<'a> {
    module: &'a MergedModule,
    /// The provider schemas, for the signatures of provider-defined functions.
    schemas: &'a dyn ProviderSchemaSource,
    locals: RefCell<HashMap<String, Value>>,
    computing: RefCell<HashSet<String>>,
    /// Whether `settle` is computing locals (each then needs no settling of its own).
    settling: Cell<bool>,
    /// The value of each variable looked up so far (reading its type is not free).
    variables: RefCell<HashMap<String, Value>>,
    /// The variable whose validation rules are evaluated, with its value.
    validated: Option<(String, Value)>,
    /// The steps every evaluation in this scope shares.
    budget: Budget,
}

impl<'a> WalkScope<'a> {
    /// The validate walk's names in `module`, whose providers' schemas `schemas` holds.
    pub fn new(module: &'a MergedModule, schemas: &'a dyn ProviderSchemaSource) -> Self {
        WalkScope {
            module,
            schemas,
            locals: RefCell::default(),
            computing: RefCell::default(),
            settling: Cell::new(false),
            variables: RefCell::default(),
            validated: None,
            budget: Budget::default(),
        }
    }

    /// The names a variable's validation rules see: the walk's, with the variable
    /// `name` set to `value`.
    pub fn with_variable(
        module: &'a MergedModule,
        schemas: &'a dyn ProviderSchemaSource,
        name: &str,
        value: Value,
    ) -> Self {
        WalkScope {
            validated: Some((name.to_string(), value)),
            ..WalkScope::new(module, schemas)
        }
    }

    /// The names a root variable's validation rules see at plan time: the walk's, with
    /// every root variable set to the value the plan gives it (Terraform 1.9 and later
    /// let a rule refer to other variables).
    pub fn with_values(
        module: &'a MergedModule,
        schemas: &'a dyn ProviderSchemaSource,
        values: &BTreeMap<String, Value>,
    ) -> Self {
        let scope = WalkScope::new(module, schemas);
        scope.variables.replace(
            values
                .iter()
                .map(|(name, value)| (name.clone(), value.clone()))
                .collect(),
        );
        scope
    }

    /// The provider schemas this scope reads.
    pub fn schemas(&self) -> &'a dyn ProviderSchemaSource {
        self.schemas
    }

    /// `var.name`: unknown, of the variable's type constraint where it has a readable one.
    pub fn variable(&self, name: &str) -> Value {
        if let Some((_, value)) = self.validated.as_ref().filter(|(n, _)| n == name) {
            return value.clone();
        }
        if let Some(value) = self.variables.borrow().get(name) {
            return value.clone();
        }
        let ty = self.module.variables.get(name).and_then(|v| {
            let t = v.type_constraint.as_ref()?;
            let syntax = self.module.file(t.file).syntax.syntax;
            parse_type_argument(t.expr(), syntax, self.module.dialect)?.ok()
        });
        let value = match ty {
            Some(ty) if ty != Type::Dynamic => Value::UnknownOf(ty, Refinement::NONE),
            _ => Value::Unknown,
        };
        // Unknown, but marked as its declaration says, as Terraform's validate walk
        // marks it.
        let value = match self.module.variables.get(name) {
            Some(v) => value.mark(declared_marks(v)),
            None => value,
        };
        (self.variables.borrow_mut()).insert(name.to_string(), value.clone());
        value
    }

    fn local(&self, name: &str) -> Value {
        if let Some(v) = self.locals.borrow().get(name) {
            return v.clone();
        }
        let Some(local) = self.module.locals.get(name) else {
            return Value::Unknown;
        };
        if !self.settling.get() && self.computing.borrow().is_empty() {
            self.settle(name);
            if let Some(v) = self.locals.borrow().get(name) {
                return v.clone();
            }
        }
        if !self.computing.borrow_mut().insert(name.to_string()) {
            return Value::Unknown;
        }
        let value = evaluate(local.value.expr(), self).unwrap_or(Value::Unknown);
        self.computing.borrow_mut().remove(name);
        self.locals
            .borrow_mut()
            .insert(name.to_string(), value.clone());
        value
    }
}

impl WalkScope<'_> {
    /// Computes the locals `name` needs before it, deepest first, with an explicit work
    /// stack: each evaluation then finds the locals it refers to computed, and a long
    /// chain of locals never nests one evaluation inside the other (which would overflow
    /// the stack).
    fn settle(&self, name: &str) {
        self.settling.set(true);
        let mut stack = vec![(name.to_string(), false)];
        let mut seen = HashSet::new();
        while let Some((next, needs_done)) = stack.pop() {
            if self.locals.borrow().contains_key(&next) {
                continue;
            }
            if needs_done {
                // One level deep: what it refers to is computed (or part of a cycle).
                self.local(&next);
                continue;
            }
            let Some(local) = self.module.locals.get(&next) else {
                continue;
            };
            if !seen.insert(next.clone()) {
                continue;
            }
            stack.push((next, true));
            for reference in references(local.value.expr()) {
                if let Some(needed) = reference.subject.strip_prefix("local.") {
                    stack.push((needed.to_string(), false));
                }
            }
        }
        self.settling.set(false);
    }
}

impl Scope for WalkScope<'_> {
    fn lookup(&self, root: &str, attrs: &[&str], _: Span) -> Result<(Value, usize), EvalError> {
        Ok(match (root, attrs.first()) {
            ("local", Some(name)) => (self.local(name), 1),
            ("var", Some(name)) => (self.variable(name), 1),
            // Known while validating; Strata plans in the default workspace only.
            ("terraform" | "tofu", Some(&"workspace")) => (Value::string("default"), 1),
            _ => (Value::Unknown, 0),
        })
    }

    fn budget(&self) -> Option<&Budget> {
        Some(&self.budget)
    }

    fn provider_function(&self, name: &str) -> Option<ProviderFunction> {
        match namespaced(self.module, self.schemas, name) {
            Namespaced::Offered(f) => Some(*f),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::test_support::merged;
    use crate::eval::EVALUATION_LIMIT;

    #[test]
    fn the_expressions_of_a_module_share_one_budget() {
        // Ten locals of two million steps each: five spend a plan's ten million, and the
        // rest are refused at once instead of taking as long again.
        let heavy = "[for a in range(1000) : [for b in range(1000) : a]]";
        let text: String = (0..10)
            .map(|i| format!("locals {{ x{i} = {heavy} }}\n"))
            .collect();
        let m = merged(&text, crate::module::Dialect::Terraform);
        let scope = WalkScope::new(&m, &crate::schema::NoProviderSchemas);
        let details: Vec<String> = (0..10)
            .map(|i| {
                let local = &m.locals[&format!("x{i}")];
                let error = evaluate(local.value.expr(), &scope).unwrap_err();
                assert_eq!(error.summary, EVALUATION_LIMIT);
                error.detail
            })
            .collect();
        let each = |d: &String| d.starts_with("Evaluating this expression took more than");
        let all = |d: &String| d.starts_with("The expressions evaluated so far took more than");
        assert!(details[..5].iter().all(each), "{details:?}");
        assert!(details[5..].iter().all(all), "{details:?}");
    }
}
