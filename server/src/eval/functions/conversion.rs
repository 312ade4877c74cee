//! Type conversion functions (`tostring`, `tolist`, ...) and the functions of marks,
//! identities on the unmarked values they are given (`marked.rs` reads and writes the
//! marks).

use super::{arg, Function};
use crate::eval::value::Value;

pub(super) fn lookup(name: &str) -> Option<Function> {
    Some(match name {
        "tostring" => |a, _| match arg(a, 0)? {
            Value::Null => Ok(Value::Null),
            v => v
                .to_text()
                .map(Value::String)
                .ok_or_else(|| format!("cannot convert {} to string", v.type_name())),
        },
        "tonumber" => |a, _| match arg(a, 0)? {
            Value::Null => Ok(Value::Null),
            Value::String(s) => string_to_number(s),
            v => v
                .to_number()
                .map(Value::Number)
                .ok_or_else(|| format!("cannot convert {} to number", v.type_name())),
        },
        "tobool" => |a, _| match arg(a, 0)? {
            Value::Null => Ok(Value::Null),
            Value::String(s) if s != "true" && s != "false" => Err(format!(
                "cannot convert {s:?} to bool; only the strings \"true\" or \"false\" are allowed"
            )),
            v => v
                .to_bool()
                .map(Value::Bool)
                .ok_or_else(|| format!("cannot convert {} to bool", v.type_name())),
        },
        "tolist" => |a, _| match arg(a, 0)? {
            Value::Unknown => Ok(Value::Unknown),
            v => v
                .elements()
                .map(|items| Value::List(items.to_vec().into()))
                .ok_or_else(|| {
                    format!(
                        "cannot convert {} to list of any single type",
                        v.type_name()
                    )
                }),
        },
        "toset" => |a, _| match arg(a, 0)? {
            Value::Unknown => Ok(Value::Unknown),
            // Elements holding unknown values stay, each one distinct (`set_order.rs`).
            v => match v.elements() {
                Some(items) => Ok(Value::set(items.to_vec())),
                None => Err(format!(
                    "cannot convert {} to set of any single type",
                    v.type_name()
                )),
            },
        },
        "tomap" => |a, _| match arg(a, 0)? {
            Value::Unknown => Ok(Value::Unknown),
            v => v
                .attributes()
                .map(|m| Value::Map(m.clone().into()))
                .ok_or_else(|| {
                    format!("cannot convert {} to map of any single type", v.type_name())
                }),
        },
        "sensitive" | "nonsensitive" | "ephemeralasnull" => |a, _| Ok(arg(a, 0)?.clone()),
        "issensitive" => |_, _| Ok(Value::Bool(false)),
        _ => return None,
    })
}

/// `tonumber` of a string: a number in decimal notation.
fn string_to_number(s: &str) -> Result<Value, String> {
    Value::String(s.to_string())
        .to_number()
        .map(Value::Number)
        .ok_or_else(|| format!("cannot convert {:?} to number; given string must be a decimal representation of a number", s))
}
