//! The values a root module passes to a local child module's variables, as the validate
//! walk prepares them (`prepareFinalInputVariableValue` in
//! `internal/terraform/eval_variable.go`): a value that does not convert to the
//! variable's type constraint (`Invalid value for input variable`, placed on the
//! variable when it is sensitive), and null given to a variable that is not nullable and
//! has no default (`Required variable not set`). Module addresses are written from the
//! root (`module.x.var.y`, without instance keys, as validate writes them), so only a
//! module checked as the root reports them. `Invalid default value for module argument`
//! is not reachable here: a default its type rejects stops loading first.
//!
//! Values are the validate walk's (`walk_scope.rs`): only wholly known values shaped as
//! literals are judged (Strata keeps no element types for lists, sets and maps).

use std::sync::Arc;

use super::marks::is_true;
use super::walk_scope::WalkScope;
use super::{at, range_text, ChildModules, Diagnostic, Severity};
use crate::eval::{evaluate, Value};
use crate::merge::{literal_string, Attr, MergedModule, ModuleCall, Variable};
use crate::types::{apply_defaults, convert, parse_type_argument, Type};

/// Code of a value a module call gives a variable that the variable refuses.
pub const MODULE_ARGUMENT_VALUE: &str = "module-argument-value";

pub(super) fn check(
    m: &MergedModule,
    children: ChildModules<'_>,
    scope: &WalkScope<'_>,
    out: &mut Vec<Diagnostic>,
) {
    for (call, source, child) in local_calls(m, children) {
        for argument in &call.arguments.attributes {
            let Some(variable) = child.variables.get(&*argument.attr.name.name) else {
                continue;
            };
            let Ok(value) = evaluate(argument.expr(), scope) else {
                continue;
            };
            let given = Given {
                caller: m,
                call,
                source,
                child: &child,
                variable,
                argument,
            };
            if let Some(d) = given.judge(&value) {
                out.push(d);
            }
        }
    }
}

/// The calls of `m` whose child module Strata has read (a local `source`), with the
/// source and the child. Calls an override file changes are left alone: Terraform decodes
/// them partially (`modules.rs`).
pub(super) fn local_calls<'a>(
    m: &'a MergedModule,
    children: ChildModules<'_>,
) -> Vec<(&'a ModuleCall, &'a str, Arc<MergedModule>)> {
    m.module_calls
        .values()
        .filter(|call| call.provenance.overrides.is_empty())
        .filter_map(|call| {
            let source = literal_string(call.source.as_ref()?.expr())?;
            Some((call, source, children(source)?))
        })
        .collect()
}

/// One argument of a call and the variable it sets.
struct Given<'a> {
    caller: &'a MergedModule,
    call: &'a ModuleCall,
    source: &'a str,
    child: &'a MergedModule,
    variable: &'a Variable,
    argument: &'a Attr,
}

impl Given<'_> {
    fn judge(&self, value: &Value) -> Option<Diagnostic> {
        if !value.is_wholly_known() || !literal_shaped(value) {
            return None;
        }
        let ty = type_of(self.child, self.variable)?;
        let address = format!("module.{}.var.{}", self.call.name, self.variable.name);
        let json = value.to_json();
        if json.is_null() {
            let not_nullable = self.variable.nullable.as_ref().is_some_and(|a| {
                crate::eval::constant(a.expr()) == Some(serde_json::Value::Bool(false))
            });
            if !not_nullable || self.variable.default.is_some() {
                return None;
            }
            return Some(self.error(
                "Required variable not set",
                format!(
                    "The given value is not suitable for {address} defined at {}: required variable may not be set to null.",
                    self.declared_at()
                ),
            ));
        }
        // Printed without its path, as go-cty's path errors print themselves.
        let reason = convert(&apply_defaults(&json, &ty), &ty).err()?.bare();
        if is_true(&self.variable.sensitive) {
            let detail = format!(
                "The given value is not suitable for {address}, which is sensitive: {reason}. Invalid value defined at {}.",
                range_text(self.caller, self.argument.expr_origin())
            );
            return Some(at(
                self.child,
                self.variable.provenance.decl,
                Severity::Error,
                MODULE_ARGUMENT_VALUE,
                "Invalid value for input variable".into(),
                detail,
            ));
        }
        Some(self.error(
            "Invalid value for input variable",
            format!(
                "The given value is not suitable for {address} declared at {}: {reason}.",
                self.declared_at()
            ),
        ))
    }

    /// A diagnostic at the argument's value.
    fn error(&self, summary: &str, detail: String) -> Diagnostic {
        at(
            self.caller,
            self.argument.expr_origin(),
            Severity::Error,
            MODULE_ARGUMENT_VALUE,
            summary.into(),
            detail,
        )
    }

    /// Where the variable is declared, as Terraform names the child's file from the
    /// caller's directory (`child/main.tf:1,1-15`).
    fn declared_at(&self) -> String {
        in_caller_terms(
            self.source,
            range_text(self.child, self.variable.provenance.decl),
        )
    }
}

/// A place in a local child module (`main.tf:1,1-15`) as Terraform writes it from the
/// caller's directory (`child/main.tf:1,1-15`).
pub(super) fn in_caller_terms(source: &str, local: String) -> String {
    let mut dir: Vec<&str> = Vec::new();
    for part in source.split('/') {
        match part {
            "" | "." => {}
            ".." if dir.last().is_some_and(|p| *p != "..") => {
                dir.pop();
            }
            other => dir.push(other),
        }
    }
    if dir.is_empty() {
        local
    } else {
        format!("{}/{local}", dir.join("/"))
    }
}

/// The type constraint of a variable (`any` when it has none); `None` when unreadable.
fn type_of(module: &MergedModule, variable: &Variable) -> Option<Type> {
    match &variable.type_constraint {
        Some(t) => {
            let syntax = module.file(t.file).syntax.syntax;
            parse_type_argument(t.expr(), syntax, module.dialect)?.ok()
        }
        None => Some(Type::Dynamic),
    }
}

/// The value a call gives a child's variable as the validate walk prepares it
/// (`prepareFinalInputVariableValue`), with the argument that sets it: the argument
/// converted to the type constraint (optional attributes' defaults included), or the
/// default when the call sets none. `None` where Strata does not know the value wholly,
/// where it is null, or where it does not convert (reported by `check`).
pub(super) fn final_value<'a>(
    scope: &WalkScope<'_>,
    call: &'a ModuleCall,
    child: &MergedModule,
    variable: &Variable,
) -> Option<(Value, Option<&'a Attr>)> {
    let argument = call
        .arguments
        .attributes
        .iter()
        .find(|a| *a.attr.name.name == *variable.name);
    let json = match argument {
        Some(a) => {
            let value = evaluate(a.expr(), scope).ok()?;
            if !value.is_wholly_known() || !literal_shaped(&value) {
                return None;
            }
            value.to_json()
        }
        None => crate::eval::constant(variable.default.as_ref()?.expr())?,
    };
    if json.is_null() {
        return None;
    }
    let ty = type_of(child, variable)?;
    let converted = convert(&apply_defaults(&json, &ty), &ty).ok()?;
    Some((Value::from_typed_json(&converted, &ty), argument))
}

/// Whether the value holds only primitives, tuples and objects: the shapes whose
/// conversion Strata's JSON values reproduce.
fn literal_shaped(value: &Value) -> bool {
    match value {
        Value::Tuple(items) => items.iter().all(literal_shaped),
        Value::Object(attrs) => attrs.values().all(literal_shaped),
        Value::List(_) | Value::Set(_) | Value::Map(_) | Value::PartialObject(_) => false,
        _ => true,
    }
}
