//! Conversion of a value to a type constraint with go-cty's unsafe rules (spec §2.5).
//!
//! As in go-cty, conversion is decided first from the types: where no conversion exists,
//! the error is a type-mismatch message (`element 1: number required`).
//! Where one exists, it can still fail on a value (`"x"` to number); that error carries
//! the path to the value (`[0].a: a number is required`). Messages follow go-cty 1.16.2,
//! as Terraform 1.11.4 prints them (`bool required`; later releases add `, but have
//! number`).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::Type;

/// Why a value does not convert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversionError {
    /// Where in the value, rendered as Terraform renders paths (`[0].a`, `["k"]`); empty
    /// for type-level mismatches and failures at the top.
    pub path: String,
    /// go-cty's message.
    pub message: String,
}

impl ConversionError {
    /// The message with its path, as `Invalid default value for variable` prints it.
    pub fn with_path(&self) -> String {
        if self.path.is_empty() {
            self.message.clone()
        } else {
            format!("{}: {}", self.path, self.message)
        }
    }

    /// The message without the path, as the override-merge errors print it.
    pub fn bare(&self) -> String {
        self.message.clone()
    }
}

/// Converts `value` to `ty`.
pub fn convert(value: &Value, ty: &Type) -> Result<Value, ConversionError> {
    if let Some(source) = Type::of_value(value) {
        if let Some(message) = mismatch(&source, ty) {
            return Err(ConversionError {
                path: String::new(),
                message,
            });
        }
    }
    convert_value(value, ty, &mut String::new())
}

/// Inserts the defaults of `optional(T, default)` attributes into objects where the
/// attribute is absent or null, recursively (spec §2.5 step 1).
pub fn apply_defaults(value: &Value, ty: &Type) -> Value {
    match (value, ty) {
        (Value::Object(map), Type::Object(attrs)) => {
            let mut out = map.clone();
            for (name, attr) in attrs {
                let missing = out.get(name).is_none_or(Value::is_null);
                if missing {
                    if let Some(default) = &attr.default {
                        out.insert(name.clone(), default.clone());
                    }
                }
                if let Some(v) = out.get(name).cloned() {
                    out.insert(name.clone(), apply_defaults(&v, &attr.ty));
                }
            }
            Value::Object(out)
        }
        (Value::Object(map), Type::Map(element)) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), apply_defaults(v, element)))
                .collect(),
        ),
        (Value::Array(items), Type::List(element) | Type::Set(element)) => {
            Value::Array(items.iter().map(|v| apply_defaults(v, element)).collect())
        }
        (Value::Array(items), Type::Tuple(types)) => Value::Array(
            items
                .iter()
                .zip(types)
                .map(|(v, t)| apply_defaults(v, t))
                .collect(),
        ),
        _ => value.clone(),
    }
}

/// The message go-cty gives when no conversion exists from `source` to `target`, or
/// `None` when one exists (what converting an unknown value of type `source` says).
pub fn mismatch(source: &Type, target: &Type) -> Option<String> {
    use Type::*;
    match (source, target) {
        (_, Dynamic) | (Dynamic, _) => None,
        (a, b) if a.is_primitive() && b.is_primitive() => {
            let convertible = a == b || matches!((a, b), (String, _) | (_, String));
            (!convertible).then(|| required(source, target))
        }
        (Tuple(elements), List(t) | Set(t)) => {
            let kind = if matches!(target, List(_)) {
                "list"
            } else {
                "set"
            };
            collection_from(
                elements.iter().enumerate().map(|(i, e)| (i.to_string(), e)),
                t,
                kind,
            )
        }
        (Object(attrs), Map(t)) => collection_from(
            attrs.iter().map(|(k, a)| (format!("{k:?}"), &a.ty)),
            t,
            "map",
        ),
        (List(a) | Set(a), List(b) | Set(b)) | (Map(a), Map(b)) => {
            mismatch(a, b).map(|m| format!("incorrect {} element type: {m}", kind_name(target)))
        }
        (Tuple(a), Tuple(b)) => {
            if a.len() != b.len() {
                return Some(required(source, target));
            }
            a.iter()
                .zip(b)
                .enumerate()
                .find_map(|(i, (x, y))| mismatch(x, y).map(|m| format!("element {i}: {m}")))
        }
        (Object(have), Object(want)) => {
            let mut missing: Vec<&std::string::String> = want
                .iter()
                .filter(|(k, a)| !a.optional && !have.contains_key(*k))
                .map(|(k, _)| k)
                .collect();
            missing.sort();
            if !missing.is_empty() {
                let names: Vec<&str> = missing.iter().map(|s| s.as_str()).collect();
                return Some(attributes_required(&names));
            }
            want.iter().find_map(|(k, a)| {
                let source = have.get(k)?;
                mismatch(&source.ty, &a.ty).map(|m| format!("attribute {k:?}: {m}"))
            })
        }
        (Map(element), Object(want)) => want.values().find_map(|a| mismatch(element, &a.ty)),
        _ => Some(required(source, target)),
    }
}

/// A tuple or object converting to a collection: elements must unify when the element
/// type is `any`, else each must convert.
fn collection_from<'a>(
    elements: impl Iterator<Item = (String, &'a Type)>,
    element: &Type,
    kind: &str,
) -> Option<String> {
    let elements: Vec<(String, &Type)> = elements.collect();
    if *element == Type::Dynamic {
        return unify(elements.iter().map(|(_, t)| *t))
            .is_none()
            .then(|| format!("all {kind} elements must have the same type"));
    }
    elements
        .iter()
        .find_map(|(key, t)| mismatch(t, element).map(|m| format!("element {key}: {m}")))
}

fn kind_name(t: &Type) -> &'static str {
    match t {
        Type::List(_) => "list",
        Type::Set(_) => "set",
        _ => "map",
    }
}

/// `X required`: go-cty 1.16.2's message, as Terraform 1.11 prints it (1.16.3 and later
/// add `, but have Y`).
fn required(_source: &Type, target: &Type) -> String {
    format!("{target} required")
}

fn attributes_required(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    match quoted.as_slice() {
        [one] => format!("attribute {one} is required"),
        [a, b] => format!("attributes {a} and {b} are required"),
        [rest @ .., last] => format!("attributes {}, and {last} are required", rest.join(", ")),
        [] => String::new(),
    }
}

/// The one type all `types` convert to, chosen among them as go-cty's unification does:
/// identical types, or string for a mix of string with numbers and bools. Structural
/// types unify attribute by attribute. `None` when there is none.
pub fn unify<'a>(types: impl Iterator<Item = &'a Type>) -> Option<Type> {
    let types: Vec<&Type> = types.filter(|t| **t != Type::Dynamic).collect();
    let Some(first) = types.first() else {
        return Some(Type::Dynamic);
    };
    if types.iter().all(|t| t == first) {
        return Some((*first).clone());
    }
    if types.iter().all(|t| t.is_primitive()) {
        return types.contains(&&Type::String).then_some(Type::String);
    }
    match first {
        Type::Object(attrs) => {
            let mut unified = BTreeMap::new();
            for (name, attr) in attrs {
                let mut each = Vec::new();
                for t in &types {
                    let Type::Object(other) = t else { return None };
                    if other.len() != attrs.len() {
                        return None;
                    }
                    each.push(&other.get(name)?.ty);
                }
                let mut a = attr.clone();
                a.ty = unify(each.into_iter())?;
                unified.insert(name.clone(), a);
            }
            Some(Type::Object(unified))
        }
        Type::Tuple(elements) => {
            let mut unified = Vec::new();
            for i in 0..elements.len() {
                let mut each = Vec::new();
                for t in &types {
                    let Type::Tuple(other) = t else { return None };
                    if other.len() != elements.len() {
                        return None;
                    }
                    each.push(&other[i]);
                }
                unified.push(unify(each.into_iter())?);
            }
            Some(Type::Tuple(unified))
        }
        _ => None,
    }
}

fn fail(path: &str, message: &str) -> ConversionError {
    ConversionError {
        path: path.to_string(),
        message: message.to_string(),
    }
}

/// Converts a value whose type is known to be convertible; failures are value-level.
fn convert_value(value: &Value, ty: &Type, path: &mut String) -> Result<Value, ConversionError> {
    if value.is_null() {
        return Ok(Value::Null);
    }
    match ty {
        Type::Dynamic => Ok(value.clone()),
        Type::String => match value {
            Value::String(_) => Ok(value.clone()),
            Value::Number(n) => Ok(Value::String(n.to_string())),
            Value::Bool(b) => Ok(Value::String(b.to_string())),
            _ => Err(fail(path, "string required")),
        },
        Type::Number => match value {
            Value::Number(_) => Ok(value.clone()),
            Value::String(s) => parse_number(s).ok_or_else(|| fail(path, "a number is required")),
            _ => Err(fail(path, "a number is required")),
        },
        Type::Bool => match value {
            Value::Bool(_) => Ok(value.clone()),
            Value::String(s) => match s.as_str() {
                "true" | "1" => Ok(Value::Bool(true)),
                "false" | "0" => Ok(Value::Bool(false)),
                other if other.eq_ignore_ascii_case("true") => Err(fail(
                    path,
                    "a bool is required; to convert from string, use lowercase \"true\"",
                )),
                other if other.eq_ignore_ascii_case("false") => Err(fail(
                    path,
                    "a bool is required; to convert from string, use lowercase \"false\"",
                )),
                _ => Err(fail(path, "a bool is required")),
            },
            _ => Err(fail(path, "a bool is required")),
        },
        Type::List(element) | Type::Set(element) => {
            let Value::Array(items) = value else {
                return Err(fail(path, &format!("{ty} required")));
            };
            let element = match **element {
                Type::Dynamic => unify(
                    items
                        .iter()
                        .filter_map(Type::of_value)
                        .collect::<Vec<_>>()
                        .iter(),
                )
                .unwrap_or(Type::Dynamic),
                ref t => t.clone(),
            };
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                out.push(convert_value(item, &element, path)?);
                path.truncate(len);
            }
            if matches!(ty, Type::Set(_)) {
                let mut unique: Vec<Value> = Vec::new();
                for v in out {
                    if !unique.contains(&v) {
                        unique.push(v);
                    }
                }
                out = unique;
            }
            Ok(Value::Array(out))
        }
        Type::Map(element) => {
            let Value::Object(map) = value else {
                return Err(fail(path, &format!("{ty} required")));
            };
            let element = match **element {
                Type::Dynamic => unify(
                    map.values()
                        .filter_map(Type::of_value)
                        .collect::<Vec<_>>()
                        .iter(),
                )
                .unwrap_or(Type::Dynamic),
                ref t => t.clone(),
            };
            let mut out = Map::new();
            for (k, v) in map {
                let len = path.len();
                path.push_str(&format!("[{k:?}]"));
                out.insert(k.clone(), convert_value(v, &element, path)?);
                path.truncate(len);
            }
            Ok(Value::Object(out))
        }
        Type::Tuple(types) => {
            let Value::Array(items) = value else {
                return Err(fail(path, "tuple required"));
            };
            let mut out = Vec::with_capacity(items.len());
            for (i, (item, t)) in items.iter().zip(types).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                out.push(convert_value(item, t, path)?);
                path.truncate(len);
            }
            Ok(Value::Array(out))
        }
        Type::Object(attrs) => {
            let Value::Object(map) = value else {
                return Err(fail(path, "object required"));
            };
            let mut out = Map::new();
            for (name, attr) in attrs {
                match map.get(name) {
                    Some(v) => {
                        let len = path.len();
                        path.push('.');
                        path.push_str(name);
                        out.insert(name.clone(), convert_value(v, &attr.ty, path)?);
                        path.truncate(len);
                    }
                    None if attr.optional => {
                        out.insert(name.clone(), Value::Null);
                    }
                    None => return Err(fail(path, &format!("attribute {name:?} is required"))),
                }
            }
            Ok(Value::Object(out))
        }
    }
}

/// A string as a number, as go-cty parses it: decimal, optionally signed, with an
/// optional fraction and exponent; no hex, no underscores, no infinities.
fn parse_number(s: &str) -> Option<Value> {
    let t = s.strip_prefix(['+', '-']).unwrap_or(s);
    let valid = !t.is_empty()
        && t.bytes()
            .next()
            .is_some_and(|b| b.is_ascii_digit() || b == b'.')
        && t.bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    if !valid {
        return None;
    }
    let f: f64 = s.parse().ok()?;
    if f.fract() == 0.0 && f.abs() < 9.0e15 {
        return Some(Value::Number((f as i64).into()));
    }
    serde_json::Number::from_f64(f).map(Value::Number)
}
