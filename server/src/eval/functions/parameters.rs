//! What HCL does to each argument before it calls a function
//! (`hclsyntax.FunctionCallExpr.Value`): it converts the argument to its parameter's type
//! with go-cty's conversion, and an argument that does not convert is `Invalid function
//! argument`. The messages are go-cty 1.16.2's, as Terraform 1.11 prints them: a
//! type-level mismatch (`string required`, `element 0: bool required`, `list of string
//! required`) and a value-level failure (`a number is required`).
//!
//! An unknown value converts where its type does (`types::type_mismatch`); an untyped one
//! always converts. A tuple of mixed types converting to a collection of `any` is not
//! judged (go-cty unifies its element types, which Strata does not model). Whatever is
//! not judged is accepted.

use crate::eval::value::Value;
use crate::types::Type;

/// Reads a parameter type as `schema::functions` writes it (`list(string)`, `any`); forms
/// the built-in signatures do not use (`object`, `tuple`) read as `any`, which accepts
/// everything.
pub(super) fn parameter_type(text: &str) -> Type {
    let inner = |prefix: &str| {
        text.strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(')'))
            .map(|t| Box::new(parameter_type(t)))
    };
    match text {
        "string" => Type::String,
        "number" => Type::Number,
        "bool" => Type::Bool,
        _ => inner("list(")
            .map(Type::List)
            .or_else(|| inner("set(").map(Type::Set))
            .or_else(|| inner("map(").map(Type::Map))
            .unwrap_or(Type::Dynamic),
    }
}

/// go-cty's friendly name of a type constraint (`list of string`).
fn friendly(ty: &Type) -> String {
    match ty {
        Type::String => "string".into(),
        Type::Number => "number".into(),
        Type::Bool => "bool".into(),
        Type::List(t) => format!("list of {}", friendly(t)),
        Type::Set(t) => format!("set of {}", friendly(t)),
        Type::Map(t) => format!("map of {}", friendly(t)),
        _ => "any single type".into(),
    }
}

/// Why `value` does not convert to `ty`, in go-cty's words; `None` when it converts (or
/// when Strata cannot tell).
pub(in crate::eval) fn conversion_error(value: &Value, ty: &Type) -> Option<String> {
    type_mismatch(value, ty).or_else(|| value_error(value, ty))
}

/// The type-level message: no conversion exists from the value's type to `ty`.
fn type_mismatch(value: &Value, ty: &Type) -> Option<String> {
    let value = value.unmarked();
    match value {
        Value::Unknown | Value::Null => return None,
        Value::UnknownOf(known, _) => return crate::types::type_mismatch(known, ty),
        _ => {}
    }
    let primitive = matches!(value, Value::String(_) | Value::Number(_) | Value::Bool(_));
    match ty {
        Type::Dynamic | Type::Tuple(_) | Type::Object(_) => None,
        Type::String => (!primitive).then(|| "string required".into()),
        Type::Number => (!matches!(value, Value::Number(_) | Value::String(_)))
            .then(|| "number required".into()),
        Type::Bool => {
            (!matches!(value, Value::Bool(_) | Value::String(_))).then(|| "bool required".into())
        }
        Type::List(element) | Type::Set(element) => match value {
            Value::Tuple(items) if **element != Type::Dynamic => {
                items.iter().enumerate().find_map(|(i, item)| {
                    type_mismatch(item, element).map(|m| format!("element {i}: {m}"))
                })
            }
            Value::Tuple(_) => None,
            Value::List(items) | Value::Set(items) => {
                let same_kind = matches!(
                    (value, ty),
                    (Value::List(_), Type::List(_)) | (Value::Set(_), Type::Set(_))
                );
                let kind = if matches!(ty, Type::List(_)) {
                    "list"
                } else {
                    "set"
                };
                // The elements of a collection share one type: the first known one shows it.
                let first = items.iter().find(|v| v.is_known() && !v.is_null());
                match first {
                    Some(item) if same_kind && **element != Type::Dynamic => {
                        type_mismatch(item, element)
                            .map(|m| format!("incorrect {kind} element type: {m}"))
                    }
                    _ => None,
                }
            }
            Value::PartialObject(_) => None,
            _ => Some(format!("{} required", friendly(ty))),
        },
        Type::Map(element) => match value {
            Value::Object(attrs) if **element != Type::Dynamic => {
                attrs.iter().find_map(|(k, v)| {
                    type_mismatch(v, element).map(|m| format!("element {k:?}: {m}"))
                })
            }
            Value::Object(_) | Value::Map(_) | Value::PartialObject(_) => None,
            _ => Some(format!("{} required", friendly(ty))),
        },
    }
}

/// The value-level message, once the types convert: a string that is no number or bool.
fn value_error(value: &Value, ty: &Type) -> Option<String> {
    match (value.unmarked(), ty) {
        (Value::String(s), Type::Number) => s
            .parse::<f64>()
            .is_err()
            .then(|| "a number is required".into()),
        (Value::String(s), Type::Bool) => match s.as_str() {
            "true" | "false" | "1" | "0" => None,
            other if other.eq_ignore_ascii_case("true") => {
                Some("a bool is required; to convert from string, use lowercase \"true\"".into())
            }
            other if other.eq_ignore_ascii_case("false") => {
                Some("a bool is required; to convert from string, use lowercase \"false\"".into())
            }
            _ => Some("a bool is required".into()),
        },
        (
            Value::Tuple(items) | Value::List(items) | Value::Set(items),
            Type::List(e) | Type::Set(e),
        ) => items.iter().find_map(|item| value_error(item, e)),
        (Value::Object(attrs) | Value::Map(attrs), Type::Map(e)) => {
            attrs.values().find_map(|v| value_error(v, e))
        }
        _ => None,
    }
}
