//! Type constraints (`list(object({a = optional(string, "x")}))`) and conversion of
//! values to them with Terraform's rules (go-cty's unsafe conversion), with the messages
//! Terraform prints when a conversion fails.
//!
//! Values are JSON (`serde_json::Value`) as `eval::constant` produces them: an array is a
//! tuple and an object is an object, exactly the types of HCL literals.

mod convert;
mod from_schema;
mod parse;

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

pub use convert::{apply_defaults, convert, mismatch as type_mismatch, unify, ConversionError};
pub use parse::{parse_type, parse_type_argument, TypeError};

#[cfg(test)]
mod tests;

/// A type, or a type constraint (`any` is `Dynamic`).
#[derive(Debug, Clone, PartialEq)]
pub enum Type {
    /// `string`
    String,
    /// `number`
    Number,
    /// `bool`
    Bool,
    /// `any`: whatever the value is.
    Dynamic,
    /// `list(T)`
    List(Box<Type>),
    /// `set(T)`
    Set(Box<Type>),
    /// `map(T)`
    Map(Box<Type>),
    /// `tuple([...])`
    Tuple(Vec<Type>),
    /// `object({...})`: attributes by name, sorted.
    Object(BTreeMap<String, Attribute>),
}

/// An attribute of an object type.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    /// Its type.
    pub ty: Type,
    /// Declared with `optional(...)`.
    pub optional: bool,
    /// The default of `optional(T, default)`, already converted to `T`.
    pub default: Option<Value>,
}

impl Type {
    /// Whether the type is a primitive (string, number, bool).
    pub fn is_primitive(&self) -> bool {
        matches!(self, Type::String | Type::Number | Type::Bool)
    }

    /// Whether any object attribute, at any depth, has an `optional(T, default)` default.
    pub fn has_defaults(&self) -> bool {
        match self {
            Type::List(t) | Type::Set(t) | Type::Map(t) => t.has_defaults(),
            Type::Tuple(ts) => ts.iter().any(Type::has_defaults),
            Type::Object(attrs) => attrs
                .values()
                .any(|a| a.default.is_some() || a.ty.has_defaults()),
            _ => false,
        }
    }

    /// The type of a literal value: arrays are tuples, objects are objects; `None` for
    /// null, which has every type.
    pub fn of_value(v: &Value) -> Option<Type> {
        Some(match v {
            Value::Null => return None,
            Value::Bool(_) => Type::Bool,
            Value::Number(_) => Type::Number,
            Value::String(_) => Type::String,
            Value::Array(items) => Type::Tuple(
                items
                    .iter()
                    .map(|i| Type::of_value(i).unwrap_or(Type::Dynamic))
                    .collect(),
            ),
            Value::Object(map) => Type::Object(
                map.iter()
                    .map(|(k, v)| {
                        let attribute = Attribute {
                            ty: Type::of_value(v).unwrap_or(Type::Dynamic),
                            optional: false,
                            default: None,
                        };
                        (k.clone(), attribute)
                    })
                    .collect(),
            ),
        })
    }
}

impl fmt::Display for Type {
    /// The friendly names Terraform uses in messages: `list of string`, `object`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::String => f.write_str("string"),
            Type::Number => f.write_str("number"),
            Type::Bool => f.write_str("bool"),
            Type::Dynamic => f.write_str("any type"),
            Type::List(t) => write!(f, "list of {t}"),
            Type::Set(t) => write!(f, "set of {t}"),
            Type::Map(t) => write!(f, "map of {t}"),
            Type::Tuple(_) => f.write_str("tuple"),
            Type::Object(_) => f.write_str("object"),
        }
    }
}
