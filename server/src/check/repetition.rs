//! The values of `count` and `for_each` as the validate walk evaluates them
//! (`internal/terraform/eval_count.go`, `eval_for_each.go`), for resources, data sources
//! and module calls: a `count` that is null, not a number, not whole, or negative; a
//! `for_each` that is null, neither a map nor a set, or a set of something else than
//! strings or with null elements; a `for_each` value marked sensitive (`marks.rs`), known
//! or not. Values are those of the validate walk
//! (`walk_scope.rs`): whatever depends on a variable or a resource is unknown, and an
//! unknown value is accepted, as Terraform accepts it until it plans. The effective
//! arguments are read (after overrides), in both syntaxes.

use super::marks::marked_sensitive;
use super::walk_scope::WalkScope;
use super::{at, Diagnostic, Severity};
use crate::eval::{evaluate, Marks, Value};
use crate::merge::{Attr, MergedModule};

/// Terraform's refusal of a sensitive `for_each` value.
pub(crate) const SENSITIVE_FOR_EACH: &str = "Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.";

/// Code of a `count` or `for_each` value the validate walk rejects.
pub const REPETITION: &str = "invalid-repetition";

pub(super) fn check(m: &MergedModule, scope: &WalkScope<'_>, out: &mut Vec<Diagnostic>) {
    let resources = m.resources.values().map(|r| (&r.count, &r.for_each));
    let calls = m.module_calls.values().map(|c| (&c.count, &c.for_each));
    for (count, for_each) in resources.chain(calls) {
        if let Some((attr, value)) = evaluated(scope, count) {
            if let Some((summary, detail)) = count_problem(&value) {
                out.push(error(m, attr, summary, detail));
            }
        }
        if let Some((attr, value)) = evaluated(scope, for_each) {
            // Checked first, known or not: the keys would expose the sensitive value.
            if marked_sensitive(m, attr.expr()) || value.marks().contains(Marks::SENSITIVE) {
                out.push(error(
                    m,
                    attr,
                    "Invalid for_each argument",
                    SENSITIVE_FOR_EACH.into(),
                ));
            } else if let Some((summary, detail)) = for_each_problem(&value) {
                out.push(error(m, attr, summary, detail));
            }
        }
    }
}

/// The value of an argument, when it evaluates.
fn evaluated<'a>(scope: &WalkScope<'_>, attr: &'a Option<Attr>) -> Option<(&'a Attr, Value)> {
    let attr = attr.as_ref()?;
    let value = evaluate(attr.expr(), scope).ok()?;
    Some((attr, value))
}

fn error(m: &MergedModule, attr: &Attr, summary: &str, detail: String) -> Diagnostic {
    at(
        m,
        attr.expr_origin(),
        Severity::Error,
        REPETITION,
        summary.into(),
        detail,
    )
}

/// What `evaluateCountExpression` says of a known `count` value.
fn count_problem(value: &Value) -> Option<(&'static str, String)> {
    let invalid = "Invalid count argument";
    let number = match value.unmarked() {
        Value::Unknown | Value::UnknownOf(..) => return None,
        Value::Null => {
            return Some((
                invalid,
                "The given \"count\" argument value is null. An integer is required.".into(),
            ))
        }
        Value::Number(n) => *n,
        Value::String(s) => match s.parse::<f64>() {
            Ok(n) => n,
            Err(_) => {
                return Some((
                    "Incorrect value type",
                    "Invalid expression value: a number is required.".into(),
                ))
            }
        },
        Value::Bool(_)
        | Value::Tuple(_)
        | Value::List(_)
        | Value::Set(_)
        | Value::Object(_)
        | Value::Map(_) => {
            return Some((
                "Incorrect value type",
                "Invalid expression value: number required.".into(),
            ))
        }
        // `unmarked` leaves no marked value.
        Value::PartialObject(_) | Value::Marked(..) => return None,
    };
    if number.fract() != 0.0 {
        return Some((invalid, "The given \"count\" argument value is unsuitable: value must be a whole number, between -9223372036854775808 and 9223372036854775807.".into()));
    }
    (number < 0.0).then(|| {
        (
            invalid,
            "The given \"count\" argument value is unsuitable: must be greater than or equal to zero.".into(),
        )
    })
}

/// What `evaluateForEachExpression` says of a known `for_each` value.
fn for_each_problem(value: &Value) -> Option<(&'static str, String)> {
    let unsuitable = "The given \"for_each\" argument value is unsuitable";
    let of_type = |ty: &str| {
        Some((
            "Invalid for_each argument",
            format!("{unsuitable}: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type {ty}."),
        ))
    };
    let value = value.unmarked();
    match value {
        Value::Unknown
        | Value::UnknownOf(..)
        | Value::Object(_)
        | Value::Map(_)
        | Value::PartialObject(_)
        | Value::Marked(..) => None,
        Value::Null => Some((
            "Invalid for_each argument",
            format!("{unsuitable}: the given \"for_each\" argument value is null. A map, or set of strings is allowed."),
        )),
        // Terraform accepts an empty set, whatever its element type.
        Value::Set(items) => {
            if items.is_empty() || !value.is_wholly_known() {
                return None;
            }
            let set_error = |detail: String| Some(("Invalid for_each set argument", detail));
            match element_kind(items)? {
                "string" if items.iter().any(Value::is_null) => set_error(format!(
                    "{unsuitable}: \"for_each\" sets must not contain null values."
                )),
                "string" => None,
                kind => set_error(format!("{unsuitable}: \"for_each\" supports maps and sets of strings, but you have provided a set containing type {kind}.")),
            }
        }
        Value::List(items) if items.is_empty() => None,
        Value::List(items) => of_type(&format!("list of {}", element_kind(items)?)),
        Value::Tuple(_) => of_type("tuple"),
        Value::String(_) => of_type("string"),
        Value::Number(_) => of_type("number"),
        Value::Bool(_) => of_type("bool"),
    }
}

/// The one primitive type the elements of a collection share (`dynamic` when they are
/// all null or there are none); `None` when Strata cannot tell it (mixed or structured
/// elements, which go-cty would have unified or typed otherwise).
fn element_kind(items: &[Value]) -> Option<&'static str> {
    let mut kind = None;
    for item in items.iter().filter(|v| !v.is_null()) {
        let this = match item {
            Value::String(_) => "string",
            Value::Number(_) => "number",
            Value::Bool(_) => "bool",
            _ => return None,
        };
        if kind.is_some_and(|k| k != this) {
            return None;
        }
        kind = Some(this);
    }
    Some(kind.unwrap_or("dynamic"))
}
