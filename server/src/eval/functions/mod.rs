//! Terraform's built-in functions that do not touch the outside world: string,
//! collection, numeric, encoding, type conversion, hashing, `cidr*`, and the filesystem
//! functions confined to the module's directory. `timestamp` and `uuid` are unknown at
//! plan time, as in Terraform.
//!
//! A function whose arguments contain unknown values returns an unknown value, unless it
//! is one of the few that look only at the shape of their arguments (`length`, `concat`,
//! ...).

mod cidr;
mod collection;
mod conversion;
mod encoding;
mod files;
mod hash;
mod numeric;
mod string;

use super::evaluate::{EvalError, Evaluator};
use super::value::Value;
use crate::syntax::{Expr, Span};

/// What a function implementation returns: a value, or the reason the call failed.
type Outcome = Result<Value, String>;

/// A function implementation: its evaluated arguments, and the evaluator for the few that
/// need the module directory.
type Function = fn(&[Value], &Evaluator) -> Outcome;

/// Functions that are called even when an argument contains unknown values.
const UNKNOWN_TOLERANT: &[&str] = &[
    "length",
    "concat",
    "merge",
    "element",
    "lookup",
    "tolist",
    "toset",
    "tomap",
    "coalesce",
    "keys",
    "flatten",
    "compact",
    "sensitive",
    "nonsensitive",
    "one",
    "values",
    "slice",
    "reverse",
    "zipmap",
];

/// Calls the function `name` with `args` as written at `span`.
pub(super) fn call(
    ev: &mut Evaluator,
    name: &str,
    args: &[Expr],
    expand_final: bool,
    span: Span,
) -> Result<Value, EvalError> {
    let name = name.strip_prefix("core::").unwrap_or(name);
    match name {
        "try" => return try_each(ev, args, span),
        "can" => {
            let [arg] = args else {
                return Err(arity(name, span));
            };
            return Ok(match ev.expr(arg) {
                Err(e) if e.is_limit() => return Err(e),
                Ok(v) if !v.is_wholly_known() => Value::Unknown,
                Ok(_) => Value::Bool(true),
                Err(_) => Value::Bool(false),
            });
        }
        "timestamp" | "uuid" | "plantimestamp" => return Ok(Value::Unknown),
        _ => {}
    }
    let Some(function) = lookup(name) else {
        return Err(EvalError::new(
            "Call to unknown function",
            format!("There is no function named \"{name}\"."),
            span,
        ));
    };
    let mut values = args
        .iter()
        .map(|a| ev.expr(a))
        .collect::<Result<Vec<_>, _>>()?;
    if expand_final {
        match values.pop() {
            Some(Value::Unknown) => return Ok(Value::Unknown),
            Some(last) => match last.elements() {
                Some(items) => values.extend(items.iter().cloned()),
                None => {
                    return Err(EvalError::new(
                        "Invalid expanding argument value",
                        "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
                        span,
                    ))
                }
            },
            None => {}
        }
    }
    // A wholly unknown argument (of a type not known yet) makes every result unknown;
    // only unknowns nested inside a known collection can be looked past.
    if values.iter().any(|v| matches!(v, Value::Unknown))
        || !UNKNOWN_TOLERANT.contains(&name) && !values.iter().all(Value::is_wholly_known)
    {
        return Ok(Value::Unknown);
    }
    function(&values, ev).map_err(|reason| {
        EvalError::new(
            "Error in function call",
            format!("Call to function \"{name}\" failed: {reason}."),
            span,
        )
    })
}

fn arity(name: &str, span: Span) -> EvalError {
    EvalError::new(
        "Incorrect number of function arguments",
        format!("Function \"{name}\" was called with the wrong number of arguments."),
        span,
    )
}

/// `try(a, b, ...)`: the first argument that evaluates without error.
fn try_each(ev: &mut Evaluator, args: &[Expr], span: Span) -> Result<Value, EvalError> {
    for arg in args {
        match ev.expr(arg) {
            Ok(v) if !v.is_wholly_known() => return Ok(Value::Unknown),
            Ok(v) => return Ok(v),
            Err(e) if e.is_limit() => return Err(e),
            Err(_) => continue,
        }
    }
    Err(EvalError::new(
        "Error in function call",
        "Call to function \"try\" failed: no expression succeeded.",
        span,
    ))
}

fn lookup(name: &str) -> Option<Function> {
    string::lookup(name)
        .or_else(|| collection::lookup(name))
        .or_else(|| conversion::lookup(name))
        .or_else(|| numeric::lookup(name))
        .or_else(|| encoding::lookup(name))
        .or_else(|| hash::lookup(name))
        .or_else(|| cidr::lookup(name))
        .or_else(|| files::lookup(name))
}

/// The `n`th argument, or an arity error.
fn arg(args: &[Value], n: usize) -> Result<&Value, String> {
    args.get(n)
        .ok_or_else(|| format!("missing argument {}", n + 1))
}

/// The `n`th argument as a string (numbers and bools convert, as Terraform converts them).
fn text(args: &[Value], n: usize) -> Result<String, String> {
    let v = arg(args, n)?;
    v.to_text().ok_or_else(|| {
        format!(
            "argument {}: string required, but have {}",
            n + 1,
            v.type_name()
        )
    })
}

/// The `n`th argument as a number.
fn number(args: &[Value], n: usize) -> Result<f64, String> {
    let v = arg(args, n)?;
    v.to_number().ok_or_else(|| {
        format!(
            "argument {}: number required, but have {}",
            n + 1,
            v.type_name()
        )
    })
}

/// The `n`th argument as a whole number.
fn integer(args: &[Value], n: usize) -> Result<i64, String> {
    let f = number(args, n)?;
    if f.fract() != 0.0 {
        return Err(format!("argument {}: a whole number is required", n + 1));
    }
    Ok(f as i64)
}

/// The `n`th argument as a list, tuple or set.
fn elements(args: &[Value], n: usize) -> Result<&[Value], String> {
    let v = arg(args, n)?;
    v.elements().ok_or_else(|| {
        format!(
            "argument {}: list, tuple or set required, but have {}",
            n + 1,
            v.type_name()
        )
    })
}

#[cfg(test)]
mod tests;
