//! The values names have during Terraform's validate walk (`internal/terraform/evaluate.go`
//! with `walkValidate`): every input variable is unknown, whatever its default or the
//! value a caller passes; resources, data sources, module outputs, `count.index`, `each`,
//! `self`, `path` and `terraform` are unknown to Strata here; local values are computed
//! from their expressions. A local that fails or refers to itself is unknown (its own
//! error is reported where it is declared). Files are not read: what a file function
//! returns is unknown.
//!
//! (The one exception Terraform makes, a variable's own validation rules seeing the value
//! its caller gives it in `evalVariableValidations`, is not followed yet.)

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use crate::eval::{evaluate, EvalError, Scope, Value};
use crate::merge::MergedModule;
use crate::syntax::Span;

/// Names as the validate walk sees them in one module.
pub struct WalkScope<'a> {
    module: &'a MergedModule,
    locals: RefCell<HashMap<String, Value>>,
    computing: RefCell<HashSet<String>>,
}

impl<'a> WalkScope<'a> {
    /// The validate walk's names in `module`.
    pub fn new(module: &'a MergedModule) -> Self {
        WalkScope {
            module,
            locals: RefCell::default(),
            computing: RefCell::default(),
        }
    }

    fn local(&self, name: &str) -> Value {
        if let Some(v) = self.locals.borrow().get(name) {
            return v.clone();
        }
        let Some(local) = self.module.locals.get(name) else {
            return Value::Unknown;
        };
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

impl Scope for WalkScope<'_> {
    fn lookup(&self, root: &str, attrs: &[&str], _: Span) -> Result<(Value, usize), EvalError> {
        Ok(match (root, attrs.first()) {
            ("local", Some(name)) => (self.local(name), 1),
            ("var", Some(_)) => (Value::Unknown, 1),
            _ => (Value::Unknown, 0),
        })
    }
}
