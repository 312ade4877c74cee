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
        "pow" => |a, _| real(number(a, 0)?.powf(number(a, 1)?)),
        "log" => |a, _| real(number(a, 0)?.log(number(a, 1)?)),
        "max" => |a, _| fold(a, f64::NEG_INFINITY, f64::max),
        "min" => |a, _| fold(a, f64::INFINITY, f64::min),
        "parseint" => |a, _| {
            let s = text(a, 0)?;
            let base = integer(a, 1)?;
            if !(2..=36).contains(&base) {
                return Err("base must be a whole number between 2 and 36 inclusive".into());
            }
            parse_int(&s, base as u32)
                .map(Value::Number)
                .ok_or_else(|| format!("cannot parse {s:?} as a base {base} integer"))
        },
        _ => return None,
    })
}

/// A result of Go's `math` functions: go-cty cannot hold NaN (it panics; `pow(-8, 0.5)`),
/// while infinities are numbers.
fn real(n: f64) -> Outcome {
    if n.is_nan() {
        return Err("the result is not a number (NaN)".into());
    }
    Ok(Value::Number(n))
}

/// `s` as a whole number in `base`, with an optional sign, of any size (Go's
/// `big.Int.SetString`), rounded to the nearest `f64`.
fn parse_int(s: &str, base: u32) -> Option<f64> {
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() {
        return None;
    }
    let mut n = 0.0f64;
    for c in digits.chars() {
        n = n * f64::from(base) + f64::from(c.to_digit(base)?);
    }
    Some(if negative { -n } else { n })
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
