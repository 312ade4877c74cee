//! Numeric functions.

use super::{integer, number, text, Function, Outcome};
use crate::eval::value::Value;

pub(super) fn lookup(name: &str) -> Option<Function> {
    Some(match name {
        "abs" => |a, _| Ok(Value::Number(number(a, 0)?.abs())),
        "ceil" => |a, _| Ok(Value::Number(number(a, 0)?.ceil())),
        "floor" => |a, _| Ok(Value::Number(number(a, 0)?.floor())),
        "signum" => |a, _| {
            let n = number(a, 0)?;
            Ok(Value::Number(if n == 0.0 { 0.0 } else { n.signum() }))
        },
        "pow" => |a, _| Ok(Value::Number(number(a, 0)?.powf(number(a, 1)?))),
        "log" => |a, _| Ok(Value::Number(number(a, 0)?.log(number(a, 1)?))),
        "max" => |a, _| fold(a, f64::NEG_INFINITY, f64::max),
        "min" => |a, _| fold(a, f64::INFINITY, f64::min),
        "parseint" => |a, _| {
            let s = text(a, 0)?;
            let base = integer(a, 1)?;
            if !(2..=36).contains(&base) {
                return Err("base must be a whole number between 2 and 36 inclusive".into());
            }
            i64::from_str_radix(&s, base as u32)
                .map(|n| Value::Number(n as f64))
                .map_err(|_| format!("cannot parse {s:?} as a base {base} integer"))
        },
        _ => return None,
    })
}

/// `max` and `min`: every argument a number, at least one.
fn fold(a: &[Value], init: f64, f: fn(f64, f64) -> f64) -> Outcome {
    if a.is_empty() {
        return Err("must pass at least one number".into());
    }
    let mut acc = init;
    for i in 0..a.len() {
        acc = f(acc, number(a, i)?);
    }
    Ok(Value::Number(acc))
}
