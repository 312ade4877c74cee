//! Values as Terraform's evaluator sees them: cty values with their collection kinds and
//! with unknown values ("known after apply"), untyped or, where Terraform knows it, of a
//! type (an input variable's type constraint at validate time), and with the marks
//! (sensitive, ephemeral) that travel with values (`marks.rs`). The accessors below look
//! through a value's own marks; operations that must carry them take them off and put
//! them back themselves.
//!
//! Lists, tuples and sets are kept apart, as are maps and objects, because Terraform's
//! rules depend on the kind (`for_each` takes a map or a set, never a list). Sets are kept
//! free of duplicates, in cty's order.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value as Json;

use super::marks::Marks;
use super::refinement::Refinement;
use super::shared::{Attributes, Elements};
use crate::types::Type;

/// A value, possibly unknown or containing unknowns.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`
    Null,
    /// A value that will only be known after apply, of a type Strata does not know
    /// (`cty.DynamicVal`).
    Unknown,
    /// A value that will only be known after apply, of a type Terraform already knows
    /// (`cty.UnknownVal(T)`), with its refinements (`refinement.rs`): HCL judges what is
    /// done with it by that type. Function implementations see only refined ones
    /// (`Value::untyped` erases the others' types first).
    UnknownOf(Type, Refinement),
    /// `true` / `false`
    Bool(bool),
    /// A number (cty numbers are arbitrary-precision; a float is enough here).
    Number(f64),
    /// A string.
    String(String),
    /// `[a, b]` as written: elements of any types.
    Tuple(Elements),
    /// `list(T)`
    List(Elements),
    /// `set(T)`: without duplicates, in cty's order.
    Set(Elements),
    /// `{a = 1}` as written: attributes of any types.
    Object(Attributes),
    /// `map(T)`
    Map(Attributes),
    /// A planned resource object of a type whose schema Strata does not know: the
    /// attributes it holds are known, and any other attribute the provider computes is
    /// unknown (reading one gives an unknown value, never an error).
    PartialObject(Attributes),
    /// A value with marks (never itself a marked value: marks merge).
    Marked(Box<Value>, Marks),
}

impl Value {
    /// A string value.
    pub fn string(s: impl Into<String>) -> Self {
        Value::String(s.into())
    }

    /// A set built from any elements: de-duplicated, in cty's order (`set_order.rs`); the
    /// elements' marks move to the set, as cty's `SetVal` moves them.
    pub fn set(items: Vec<Value>) -> Self {
        let mut marks = Marks::NONE;
        let items: Vec<Value> = items
            .into_iter()
            .map(|v| {
                let (v, m) = v.unmark_deep();
                marks |= m;
                v
            })
            .collect();
        Value::Set(super::set_order::in_set_order(items).into()).mark(marks)
    }

    /// A JSON value with the types of HCL literals: arrays are tuples, objects objects.
    pub fn from_json(json: &Json) -> Self {
        match json {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.as_f64().unwrap_or(0.0)),
            Json::String(s) => Value::String(s.clone()),
            Json::Array(items) => Value::Tuple(items.iter().map(Value::from_json).collect()),
            Json::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), Value::from_json(v)))
                    .collect(),
            ),
        }
    }

    /// A JSON value already converted to `ty` (by `types::convert`), with the collection
    /// kinds `ty` gives it.
    pub fn from_typed_json(json: &Json, ty: &Type) -> Self {
        Value::from_converted(json, ty, None)
    }

    /// The value `given` converted to `ty`, where `json` is what `types::convert` made of
    /// it: the collection kinds `ty` gives, and where `ty` is `any`, `given` itself, as
    /// cty's conversion to `DynamicPseudoType` returns its value unchanged (a list stays
    /// a list and a map a map, rather than the tuple and object a JSON literal would be).
    pub fn from_converted(json: &Json, ty: &Type, given: Option<&Value>) -> Self {
        let elements = given.and_then(Value::elements);
        let element = |i: usize| elements.and_then(|items| items.get(i));
        let attributes = given.and_then(Value::attributes);
        let attribute = |k: &str| attributes.and_then(|map| map.get(k));
        match (json, ty) {
            (Json::Null, _) => Value::Null,
            (json, Type::Dynamic) => match given {
                Some(v) if v.to_json() == *json => v.clone(),
                _ => Value::from_json(json),
            },
            (Json::Array(items), Type::List(t)) => Value::List(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| Value::from_converted(item, t, element(i)))
                    .collect(),
            ),
            // A set's elements are in cty's order, not the given value's.
            (Json::Array(items), Type::Set(t)) => {
                Value::set(items.iter().map(|i| Value::from_typed_json(i, t)).collect())
            }
            (Json::Array(items), Type::Tuple(ts)) => Value::Tuple(
                items
                    .iter()
                    .zip(ts)
                    .enumerate()
                    .map(|(i, (item, t))| Value::from_converted(item, t, element(i)))
                    .collect(),
            ),
            (Json::Object(map), Type::Map(t)) => Value::Map(
                map.iter()
                    .map(|(k, v)| (k.clone(), Value::from_converted(v, t, attribute(k))))
                    .collect(),
            ),
            (Json::Object(map), Type::Object(attrs)) => Value::Object(
                map.iter()
                    .map(|(k, v)| {
                        let t = attrs.get(k).map_or(&Type::Dynamic, |a| &a.ty);
                        (k.clone(), Value::from_converted(v, t, attribute(k)))
                    })
                    .collect(),
            ),
            (json, _) => Value::from_json(json),
        }
    }

    /// The value as JSON, unknowns as `null` (see `known_json` for plan output).
    pub fn to_json(&self) -> Json {
        match self {
            Value::Null | Value::Unknown | Value::UnknownOf(..) => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => number_json(*n),
            Value::String(s) => Json::String(s.clone()),
            Value::Tuple(items) | Value::List(items) | Value::Set(items) => {
                Json::Array(items.iter().map(Value::to_json).collect())
            }
            Value::Object(map) | Value::Map(map) | Value::PartialObject(map) => {
                Json::Object(map.iter().map(|(k, v)| (k.clone(), v.to_json())).collect())
            }
            Value::Marked(inner, _) => inner.to_json(),
        }
    }

    /// The value as `terraform show -json` writes `after`: unknown object attributes are
    /// left out and unknown elements are `null`.
    pub fn known_json(&self) -> Json {
        match self {
            Value::Object(map) | Value::Map(map) | Value::PartialObject(map) => Json::Object(
                map.iter()
                    .filter(|(_, v)| v.is_known())
                    .map(|(k, v)| (k.clone(), v.known_json()))
                    .collect(),
            ),
            Value::Tuple(items) | Value::List(items) | Value::Set(items) => {
                Json::Array(items.iter().map(Value::known_json).collect())
            }
            Value::Marked(inner, _) => inner.known_json(),
            other => other.to_json(),
        }
    }

    /// Where the value is unknown, as `after_unknown` writes it (Terraform's
    /// `unknownAsBool`): `true` for an unknown value, `false` for a known primitive or
    /// null, an array for every list, tuple or set and an object for every map or object,
    /// even when all of it is known; objects leave out their `false` entries only.
    pub fn unknown_json(&self) -> Json {
        match self {
            Value::Unknown | Value::UnknownOf(..) => Json::Bool(true),
            Value::Object(map) | Value::Map(map) | Value::PartialObject(map) => Json::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), v.unknown_json()))
                    .filter(|(_, u)| *u != Json::Bool(false))
                    .collect(),
            ),
            Value::Tuple(items) | Value::List(items) | Value::Set(items) => {
                Json::Array(items.iter().map(Value::unknown_json).collect())
            }
            Value::Marked(inner, _) => inner.unknown_json(),
            _ => Json::Bool(false),
        }
    }

    /// Whether the value itself is known (its elements may not be).
    pub fn is_known(&self) -> bool {
        !matches!(self.unmarked(), Value::Unknown | Value::UnknownOf(..))
    }

    /// Whether the value and everything in it is known.
    pub fn is_wholly_known(&self) -> bool {
        match self {
            Value::Unknown | Value::UnknownOf(..) => false,
            Value::Tuple(items) | Value::List(items) | Value::Set(items) => {
                items.iter().all(Value::is_wholly_known)
            }
            Value::Object(map) | Value::Map(map) => map.values().all(Value::is_wholly_known),
            Value::PartialObject(_) => false,
            Value::Marked(inner, _) => inner.is_wholly_known(),
            _ => true,
        }
    }

    /// Whether the value is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self.unmarked(), Value::Null)
    }

    /// The elements of a list, tuple or set.
    pub fn elements(&self) -> Option<&[Value]> {
        match self.unmarked() {
            Value::Tuple(items) | Value::List(items) | Value::Set(items) => Some(items),
            _ => None,
        }
    }

    /// The attributes of an object or the elements of a map (for a partial object, the
    /// attributes known to exist).
    pub fn attributes(&self) -> Option<&BTreeMap<String, Value>> {
        match self.unmarked() {
            Value::Object(map) | Value::Map(map) | Value::PartialObject(map) => Some(map),
            _ => None,
        }
    }

    /// The string, for a string.
    pub fn as_str(&self) -> Option<&str> {
        match self.unmarked() {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// A primitive as a string, as templates and string parameters convert it.
    pub fn to_text(&self) -> Option<String> {
        match self.unmarked() {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(format_number(*n)),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    /// A number, or a string that reads as one, as number parameters convert it.
    pub fn to_number(&self) -> Option<f64> {
        match self.unmarked() {
            Value::Number(n) => Some(*n),
            Value::String(s) => s.trim().parse().ok().filter(|f: &f64| f.is_finite()),
            _ => None,
        }
    }

    /// A bool, or the strings go-cty converts to one (`"true"`, `"false"`, `"1"`, `"0"`).
    pub fn to_bool(&self) -> Option<bool> {
        match self.unmarked() {
            Value::Bool(b) => Some(*b),
            Value::String(s) if s == "true" || s == "1" => Some(true),
            Value::String(s) if s == "false" || s == "0" => Some(false),
            _ => None,
        }
    }

    /// The friendly type name Terraform uses in messages.
    pub fn type_name(&self) -> String {
        let element = |items: &[Value]| {
            items
                .first()
                .map_or("dynamic".to_string(), |v| v.type_name())
        };
        match self {
            Value::Null | Value::Unknown => "dynamic".into(),
            Value::UnknownOf(ty, _) => friendly_name(ty),
            Value::Bool(_) => "bool".into(),
            Value::Number(_) => "number".into(),
            Value::String(_) => "string".into(),
            Value::Tuple(_) => "tuple".into(),
            Value::Object(_) | Value::PartialObject(_) => "object".into(),
            Value::List(items) => format!("list of {}", element(items)),
            Value::Set(items) => format!("set of {}", element(items)),
            Value::Map(map) => format!(
                "map of {}",
                element(&map.values().cloned().collect::<Vec<_>>())
            ),
            Value::Marked(inner, _) => inner.type_name(),
        }
    }

    /// The value's type as far as Strata knows it: `Dynamic` where it does not (an
    /// untyped unknown, `null`, a planned object of an unknown schema, the elements of an
    /// empty collection).
    pub fn ty(&self) -> Type {
        let element = |items: &[Value]| {
            items
                .iter()
                .find(|v| !v.is_null())
                .map_or(Type::Dynamic, Value::ty)
        };
        match self {
            Value::Null | Value::Unknown | Value::PartialObject(_) => Type::Dynamic,
            Value::UnknownOf(ty, _) => ty.clone(),
            Value::Bool(_) => Type::Bool,
            Value::Number(_) => Type::Number,
            Value::String(_) => Type::String,
            Value::Tuple(items) => Type::Tuple(items.iter().map(Value::ty).collect()),
            Value::List(items) => Type::List(Box::new(element(items))),
            Value::Set(items) => Type::Set(Box::new(element(items))),
            Value::Map(map) => {
                let values: Vec<Value> = map.values().cloned().collect();
                Type::Map(Box::new(element(&values)))
            }
            Value::Object(map) => Type::Object(
                map.iter()
                    .map(|(k, v)| {
                        let attribute = crate::types::Attribute {
                            ty: v.ty(),
                            optional: false,
                            default: None,
                        };
                        (k.clone(), attribute)
                    })
                    .collect(),
            ),
            Value::Marked(inner, _) => inner.ty(),
        }
    }

    /// The value with every typed unknown in it made untyped: what function
    /// implementations see. A refined unknown keeps its type and refinements, which a
    /// function that returns an element of its argument passes on (`lookup`).
    pub fn untyped(self) -> Value {
        match self {
            Value::UnknownOf(_, refinement) if refinement == Refinement::NONE => Value::Unknown,
            Value::Tuple(items) => Value::Tuple(items.into_iter().map(Value::untyped).collect()),
            Value::List(items) => Value::List(items.into_iter().map(Value::untyped).collect()),
            Value::Set(items) => Value::Set(items.into_iter().map(Value::untyped).collect()),
            Value::Object(map) => {
                Value::Object(map.into_iter().map(|(k, v)| (k, v.untyped())).collect())
            }
            Value::Map(map) => Value::Map(map.into_iter().map(|(k, v)| (k, v.untyped())).collect()),
            Value::Marked(inner, marks) => inner.untyped().mark(marks),
            other => other,
        }
    }

    /// Equality as HCL's `==` decides it for known values: collections compare by content
    /// whatever their kind (a list and a tuple with equal elements are equal).
    pub fn equals(&self, other: &Value) -> bool {
        compare(self, other) == Ordering::Equal
    }
}

/// Which family a value belongs to, for equality: numbers never equal strings.
fn primitive_kind(v: &Value) -> u8 {
    match v.unmarked() {
        Value::Null => 0,
        Value::Unknown | Value::UnknownOf(..) => 1,
        Value::Bool(_) => 2,
        Value::Number(_) => 3,
        Value::String(_) => 4,
        Value::Tuple(_) | Value::List(_) | Value::Set(_) => 5,
        Value::Object(_) | Value::Map(_) | Value::PartialObject(_) => 6,
        Value::Marked(inner, _) => primitive_kind(inner),
    }
}

/// A total order on values, for equality and searching: numbers numerically, strings
/// bytewise, then collections element by element. A set's order is cty's own
/// (`set_order.rs`).
pub fn compare(a: &Value, b: &Value) -> Ordering {
    match (a.unmarked(), b.unmarked()) {
        (Value::Number(x), Value::Number(y)) => x.total_cmp(y),
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (x, y) if primitive_kind(x) != primitive_kind(y) => {
            primitive_kind(x).cmp(&primitive_kind(y))
        }
        (x, y) => match (x.elements(), y.elements(), x.attributes(), y.attributes()) {
            (Some(xs), Some(ys), _, _) => xs
                .iter()
                .zip(ys)
                .map(|(p, q)| compare(p, q))
                .find(|o| o.is_ne())
                .unwrap_or(xs.len().cmp(&ys.len())),
            (_, _, Some(xm), Some(ym)) => xm.keys().cmp(ym.keys()).then_with(|| {
                xm.values()
                    .zip(ym.values())
                    .map(|(p, q)| compare(p, q))
                    .find(|o| o.is_ne())
                    .unwrap_or(Ordering::Equal)
            }),
            _ => Ordering::Equal,
        },
    }
}

/// go-cty's friendly name of a type (`list of string`, `object`, `dynamic`), as HCL's
/// messages about values print it.
pub fn friendly_name(ty: &Type) -> String {
    match ty {
        Type::String => "string".into(),
        Type::Number => "number".into(),
        Type::Bool => "bool".into(),
        Type::Dynamic => "dynamic".into(),
        Type::List(t) => format!("list of {}", friendly_name(t)),
        Type::Set(t) => format!("set of {}", friendly_name(t)),
        Type::Map(t) => format!("map of {}", friendly_name(t)),
        Type::Tuple(_) => "tuple".into(),
        Type::Object(_) => "object".into(),
    }
}

/// A number as Terraform prints it: integers without a fraction.
pub fn format_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e21 {
        format!("{n:.0}")
    } else {
        n.to_string()
    }
}

fn number_json(n: f64) -> Json {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        Json::Number((n as i64).into())
    } else {
        serde_json::Number::from_f64(n).map_or(Json::Null, Json::Number)
    }
}

impl fmt::Display for Value {
    /// The value in HCL syntax, as plan output shows it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Unknown | Value::UnknownOf(..) => f.write_str("(known after apply)"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Number(n) => f.write_str(&format_number(*n)),
            Value::String(s) => write!(f, "{}", Json::String(s.clone())),
            Value::Tuple(items) | Value::List(items) | Value::Set(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            Value::Object(map) | Value::Map(map) | Value::PartialObject(map) => {
                f.write_str("{")?;
                for (i, (k, v)) in map.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{} = {v}", Json::String(k.clone()))?;
                }
                f.write_str("}")
            }
            Value::Marked(inner, marks) if !marks.contains(Marks::SENSITIVE) => inner.fmt(f),
            Value::Marked(..) => f.write_str("(sensitive value)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A value converted to `any` keeps its kinds (fixture `module-any-variable`).
    #[test]
    fn conversion_to_any_keeps_the_given_value() {
        let list = Value::List(vec![Value::string("a")].into());
        assert_eq!(
            Value::from_converted(&json!(["a"]), &Type::Dynamic, Some(&list)),
            list
        );
        let tuple = Value::Tuple(vec![Value::string("a")].into());
        assert_eq!(
            Value::from_converted(&json!(["a"]), &Type::Dynamic, Some(&tuple)),
            tuple
        );
        // `map(any)` unifies `{x = "1", y = 2}` to a map of strings.
        let object = Value::Object(
            BTreeMap::from([
                ("x".to_string(), Value::string("1")),
                ("y".to_string(), Value::Number(2.0)),
            ])
            .into(),
        );
        let ty = Type::Map(Box::new(Type::Dynamic));
        let converted = json!({"x": "1", "y": "2"});
        assert_eq!(
            Value::from_converted(&converted, &ty, Some(&object)),
            Value::Map(
                BTreeMap::from([
                    ("x".to_string(), Value::string("1")),
                    ("y".to_string(), Value::string("2")),
                ])
                .into()
            )
        );
        // `list(any)` keeps nested lists.
        let nested =
            Value::List(vec![Value::List(vec![].into()), Value::List(vec![].into())].into());
        let ty = Type::List(Box::new(Type::Dynamic));
        assert_eq!(
            Value::from_converted(&json!([[], []]), &ty, Some(&nested)),
            nested
        );
    }
}
