//! The exact type of a provider attribute or function parameter, as provider schemas give
//! it: go-cty's JSON type encoding (`"string"`, `["list", "bool"]`,
//! `["object", {"a": "string"}, ["a"]]`), read and written losslessly, and shown as
//! Terraform writes type constraints (`list(bool)`, `object({a=optional(string)})`).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_json::{Map, Value};

/// A cty type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueType {
    /// `string`
    String,
    /// `number`
    Number,
    /// `bool`
    Bool,
    /// `dynamic` in the encoding, `any` in the language: decided by the value.
    Dynamic,
    /// `list(T)`
    List(Box<ValueType>),
    /// `set(T)`
    Set(Box<ValueType>),
    /// `map(T)`
    Map(Box<ValueType>),
    /// `tuple([...])`
    Tuple(Vec<ValueType>),
    /// `object({...})`: attribute types by name, and which of them are optional.
    Object {
        /// Attribute types, sorted by name.
        attributes: BTreeMap<Box<str>, ValueType>,
        /// The attributes that may be left out.
        optional: BTreeSet<Box<str>>,
    },
}

impl ValueType {
    /// Reads go-cty's JSON encoding; `None` when `json` is not a type.
    pub fn from_json(json: &Value) -> Option<Self> {
        match json {
            Value::String(name) => match name.as_str() {
                "string" => Some(Self::String),
                "number" => Some(Self::Number),
                "bool" => Some(Self::Bool),
                "dynamic" => Some(Self::Dynamic),
                _ => None,
            },
            Value::Array(parts) => match parts.as_slice() {
                [Value::String(kind), element] if kind == "list" => {
                    Some(Self::List(Box::new(Self::from_json(element)?)))
                }
                [Value::String(kind), element] if kind == "set" => {
                    Some(Self::Set(Box::new(Self::from_json(element)?)))
                }
                [Value::String(kind), element] if kind == "map" => {
                    Some(Self::Map(Box::new(Self::from_json(element)?)))
                }
                [Value::String(kind), Value::Array(elements)] if kind == "tuple" => {
                    let elements = elements.iter().map(Self::from_json);
                    Some(Self::Tuple(elements.collect::<Option<_>>()?))
                }
                [Value::String(kind), Value::Object(attributes), rest @ ..]
                    if kind == "object" && rest.len() <= 1 =>
                {
                    let attributes = attributes
                        .iter()
                        .map(|(name, t)| Some((name.as_str().into(), Self::from_json(t)?)))
                        .collect::<Option<_>>()?;
                    let optional = match rest {
                        [Value::Array(names)] => names
                            .iter()
                            .map(|n| n.as_str().map(Box::from))
                            .collect::<Option<_>>()?,
                        [] => BTreeSet::new(),
                        _ => return None,
                    };
                    Some(Self::Object {
                        attributes,
                        optional,
                    })
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// go-cty's JSON encoding, as `terraform providers schema -json` writes it.
    pub fn to_json(&self) -> Value {
        let collection =
            |kind: &str, element: &ValueType| Value::Array(vec![kind.into(), element.to_json()]);
        match self {
            Self::String => "string".into(),
            Self::Number => "number".into(),
            Self::Bool => "bool".into(),
            Self::Dynamic => "dynamic".into(),
            Self::List(element) => collection("list", element),
            Self::Set(element) => collection("set", element),
            Self::Map(element) => collection("map", element),
            Self::Tuple(elements) => Value::Array(vec![
                "tuple".into(),
                Value::Array(elements.iter().map(Self::to_json).collect()),
            ]),
            Self::Object {
                attributes,
                optional,
            } => {
                let types: Map<String, Value> = attributes
                    .iter()
                    .map(|(name, t)| (name.to_string(), t.to_json()))
                    .collect();
                let mut parts = vec!["object".into(), Value::Object(types)];
                if !optional.is_empty() {
                    parts.push(optional.iter().map(|n| Value::from(&**n)).collect());
                }
                Value::Array(parts)
            }
        }
    }
}

impl fmt::Display for ValueType {
    /// The type constraint syntax of the language: `map(list(string))`, `any`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::String => f.write_str("string"),
            Self::Number => f.write_str("number"),
            Self::Bool => f.write_str("bool"),
            Self::Dynamic => f.write_str("any"),
            Self::List(element) => write!(f, "list({element})"),
            Self::Set(element) => write!(f, "set({element})"),
            Self::Map(element) => write!(f, "map({element})"),
            Self::Tuple(elements) => {
                f.write_str("tuple([")?;
                for (i, element) in elements.iter().enumerate() {
                    let comma = if i == 0 { "" } else { ", " };
                    write!(f, "{comma}{element}")?;
                }
                f.write_str("])")
            }
            Self::Object {
                attributes,
                optional,
            } => {
                f.write_str("object({")?;
                for (i, (name, t)) in attributes.iter().enumerate() {
                    let comma = if i == 0 { "" } else { ", " };
                    if optional.contains(name) {
                        write!(f, "{comma}{name}=optional({t})")?;
                    } else {
                        write!(f, "{comma}{name}={t}")?;
                    }
                }
                f.write_str("})")
            }
        }
    }
}
