//! Terraform's built-in functions that do not touch the outside world: string,
//! collection, numeric, encoding, type conversion, hashing, `cidr*`, and the filesystem
//! functions confined to the module's directory. `timestamp` and `uuid` are unknown at
//! plan time, as in Terraform.
//!
//! A function whose arguments contain unknown values returns an unknown value, unless it
//! is one of the few that look only at the shape of their arguments (`length`, `concat`,
//! ...).
//!
//! No call builds a value larger than [`MAX_STRING_BYTES`] or with more than
//! [`MAX_ELEMENTS`] elements: where Terraform would build it (or run out of memory, or
//! panic), the call fails with a size-limit error instead.

mod argument_errors;
mod charsets;
mod cidr;
mod collection;
mod conversion;
mod csv;
mod datetime;
mod digits;
mod encoding;
mod files;
mod fileset;
mod format;
mod glob;
mod hash;
mod marked;
mod numeric;
mod parameters;
mod patterns;
mod provider;
mod refined;
mod string;
mod template_string;
mod timestamps;
mod uuid;
mod yaml;
mod yaml_emitter;
mod yaml_resolve;

use super::evaluate::{EvalError, Evaluator};
use super::value::Value;
use crate::schema::{function as builtin, Dialect, Function as Signature};
use crate::syntax::{Expr, Span};
use argument_errors::terraform_failure;
pub(in crate::eval) use format::big_float_string;
pub(in crate::eval) use parameters::conversion_error;
use parameters::parameter_type;

/// The largest string, in bytes, that one function call may build (64 MiB).
pub const MAX_STRING_BYTES: usize = 64 * 1024 * 1024;

/// The most elements one function call may build into a collection (2^20).
pub const MAX_ELEMENTS: usize = 1 << 20;

/// What a function implementation returns: a value, or the reason the call failed (in
/// go-cty's words; `argument_errors` says which reasons are about one argument).
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
    let written = name;
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
                Err(e) if unimplemented(&e) => Value::Unknown,
                Err(_) => Value::Bool(false),
            });
        }
        // Impure: unknown while planning (go-cty's `Unpredictable`, which keeps the
        // function's refinement); `plantimestamp` is known only to Terraform.
        "timestamp" | "uuid" => return Ok(refined::unknown_result(name)),
        "plantimestamp" => return Ok(Value::Unknown),
        _ => {}
    }
    let Some(function) = lookup(name) else {
        if written.contains("::") && !written.starts_with("core::") {
            return provider::call(ev, written, args, expand_final, span);
        }
        return Err(EvalError::new(
            "Call to unknown function",
            format!("There is no function named \"{name}\"."),
            span,
        ));
    };
    let Some((values, places)) = arguments(ev, args, expand_final, span)? else {
        return Ok(Value::Unknown);
    };
    let (values, marking) = marked::strip(name, values);
    let call = Call {
        name: written,
        signature: builtin(written, Dialect::Terraform),
        places: &places,
        expanded: expand_final,
        span,
    };
    call.convert(&values)?;
    if name == "templatestring" {
        if let Some(reason) = args.first().and_then(template_string::syntax_failure) {
            return Err(call.failed(Some(0), reason));
        }
    }
    if let Some(reason) = argument_errors::type_failure(name, &values) {
        return Err(call.failed(None, reason));
    }
    // A wholly unknown argument makes every result unknown; only unknowns nested inside
    // a known collection can be looked past. Implementations see no typed unknowns.
    if values.iter().any(|v| !v.is_known()) {
        let result = match (name, values.as_slice()) {
            // `length` takes an unknown value: its type or refinements may tell.
            ("length", [value]) => refined::unknown_length(value),
            _ => refined::unknown_result(name),
        };
        return Ok(marking.unknown(name, result));
    }
    if !UNKNOWN_TOLERANT.contains(&name) && !values.iter().all(Value::is_wholly_known) {
        return Ok(marking.finish(name, refined::unknown_result(name)));
    }
    let typed = (name == "merge").then(|| values.clone());
    let values: Vec<Value> = values.into_iter().map(Value::untyped).collect();
    let result = function(&values, ev);
    let result = match typed {
        Some(typed) => result.map(|merged| typed_attributes(merged, &typed)),
        None => result,
    };
    if let Some(limit) = ev.limit_reached() {
        return Err(limit);
    }
    result
        .and_then(|v| within_limits(&v).map(|()| marking.finish(name, v)))
        .map_err(|reason| match terraform_failure(name, &reason, &values) {
            Some(argument) => call.failed(argument, reason),
            None => {
                let mut error = call.failed(None, reason);
                error.function = None;
                error
            }
        })
}

/// The values of a call's arguments, with where each was written.
type Arguments = (Vec<Value>, Vec<Span>);

/// The values of the arguments `args` of a call at `span`, with where each was written
/// (an expanded argument's elements all point at it); `None` when an expanded argument
/// is unknown, which makes the call's value unknown.
fn arguments(
    ev: &mut Evaluator,
    args: &[Expr],
    expand_final: bool,
    span: Span,
) -> Result<Option<Arguments>, EvalError> {
    let mut values = args
        .iter()
        .map(|a| ev.expr(a))
        .collect::<Result<Vec<_>, _>>()?;
    let mut places: Vec<Span> = args.iter().map(Expr::start_range).collect();
    if expand_final {
        let whole = args.last().map_or(span, |a| a.span);
        places.pop();
        match values.pop() {
            Some(last) if !last.is_known() => return Ok(None),
            Some(last) => match last.elements() {
                Some(items) => {
                    places.extend(items.iter().map(|_| whole));
                    values.extend(items.iter().cloned());
                }
                None => {
                    return Err(EvalError::new(
                        "Invalid expanding argument value",
                        "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
                        whole,
                    ))
                }
            },
            None => {}
        }
    }
    Ok(Some((values, places)))
}

/// A size-limit error when `bytes` is more than one value may hold.
fn size_limit(bytes: usize) -> Result<(), String> {
    if bytes > MAX_STRING_BYTES {
        return Err(format!(
            "the result would be larger than {MAX_STRING_BYTES} bytes (64 MiB), the most Strata builds for one value"
        ));
    }
    Ok(())
}

/// A size-limit error when a collection of `count` elements is more than one value may
/// hold.
fn element_limit(count: usize) -> Result<(), String> {
    if count > MAX_ELEMENTS {
        return Err(format!(
            "the result would have more than {MAX_ELEMENTS} elements, the most Strata builds for one value"
        ));
    }
    Ok(())
}

/// The limits checked on every result, for the functions whose output can only grow a
/// bounded amount over their input (`upper`, `urlencode`, `concat`, ...).
fn within_limits(v: &Value) -> Result<(), String> {
    match v {
        Value::String(s) => size_limit(s.len()),
        v => element_limit(
            v.elements()
                .map(<[Value]>::len)
                .or_else(|| v.attributes().map(|a| a.len()))
                .unwrap_or(0),
        ),
    }
}

/// One call being made: the function's name and signature (where Strata has it), where
/// each argument was written, and where the call is.
struct Call<'a> {
    name: &'a str,
    signature: Option<&'a Signature>,
    places: &'a [Span],
    /// Whether the last argument was expanded with `...` (its elements are in `places`).
    expanded: bool,
    span: Span,
}

impl Call<'_> {
    /// HCL's conversion of each argument to its parameter type, then go-cty's refusal of
    /// a null argument where the parameter does not take one.
    fn convert(&self, values: &[Value]) -> Result<(), EvalError> {
        let Some(f) = self.signature else {
            return Ok(());
        };
        let Some(params) = &f.parameters else {
            return Ok(());
        };
        if values.len() < params.len() || f.variadic.is_none() && values.len() > params.len() {
            return Err(self.arity(values.len(), params));
        }
        let param = |i: usize| params.get(i).or(f.variadic.as_ref());
        for (i, value) in values.iter().enumerate() {
            let Some(p) = param(i) else { continue };
            if let Some(reason) = conversion_error(value, &parameter_type(&p.ty)) {
                return Err(self.failed(Some(i), reason));
            }
        }
        if values.iter().any(|v| !v.is_known()) {
            return Ok(());
        }
        for (i, value) in values.iter().enumerate() {
            if value.is_null() && param(i).is_some_and(|p| !p.nullable) {
                return Err(self.failed(Some(i), "argument must not be null".into()));
            }
        }
        Ok(())
    }

    /// Too few or too many arguments. Once an argument is expanded, only evaluation can
    /// count them: HCL's errors (at the closing parenthesis, or at the first argument too
    /// many). Otherwise `check/functions.rs` reports the count from the syntax, and this
    /// is Strata's own error.
    fn arity(&self, count: usize, params: &[crate::schema::Parameter]) -> EvalError {
        if !self.expanded {
            return arity(self.name, self.span);
        }
        let variadic = self.signature.is_some_and(|f| f.variadic.is_some());
        match params.get(count) {
            Some(missing) => {
                let at_least = if variadic { " at least" } else { "" };
                let close = self.span.end.saturating_sub(1) as usize;
                EvalError::new(
                    "Not enough function arguments",
                    format!(
                        "Function {:?} expects{at_least} {} argument(s). Missing value for {:?}.",
                        self.name,
                        params.len(),
                        missing.name
                    ),
                    Span::new(close, close + 1),
                )
            }
            None => EvalError::new(
                "Too many function arguments",
                format!(
                    "Function {:?} expects only {} argument(s).",
                    self.name,
                    params.len()
                ),
                self.places.get(params.len()).copied().unwrap_or(self.span),
            ),
        }
    }

    /// The diagnostic HCL makes of a failed call: `Invalid function argument` at the
    /// argument a failure names, else `Error in function call` at the name and `(`.
    fn failed(&self, argument: Option<usize>, reason: String) -> EvalError {
        let param = self.signature.and_then(|f| {
            f.parameters
                .as_ref()?
                .get(argument?)
                .or(f.variadic.as_ref())
        });
        let mut error = match (param, argument) {
            (Some(p), Some(i)) => EvalError::new(
                "Invalid function argument",
                format!("Invalid value for {:?} parameter: {}.", p.name, reason),
                self.places.get(i).copied().unwrap_or(self.span),
            ),
            _ => {
                let end = self.span.start as usize + self.name.len() + 1;
                EvalError::new(
                    "Error in function call",
                    format!("Call to function {:?} failed: {}.", self.name, reason),
                    Span::new(self.span.start as usize, end),
                )
            }
        };
        error.function = Some(self.name.to_string());
        error
    }
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
            Err(e) if unimplemented(&e) => return Ok(Value::Unknown),
            Err(_) => continue,
        }
    }
    Err(EvalError::new(
        "Error in function call",
        "Call to function \"try\" failed: no expression succeeded.",
        span,
    ))
}

/// Whether an error only says that Strata lacks a function (Terraform may have it), so
/// that `try` and `can` cannot tell what Terraform would get.
fn unimplemented(e: &EvalError) -> bool {
    e.summary == "Call to unknown function"
}

fn lookup(name: &str) -> Option<Function> {
    string::lookup(name)
        .or_else(|| format::lookup(name))
        .or_else(|| collection::lookup(name))
        .or_else(|| conversion::lookup(name))
        .or_else(|| numeric::lookup(name))
        .or_else(|| encoding::lookup(name))
        .or_else(|| hash::lookup(name))
        .or_else(|| cidr::lookup(name))
        .or_else(|| files::lookup(name))
        .or_else(|| datetime::lookup(name))
        .or_else(|| uuid::lookup(name))
        .or_else(|| charsets::lookup(name))
        .or_else(|| csv::lookup(name))
        .or_else(|| yaml::lookup(name))
        .or_else(|| opaque(name))
        .or_else(|| {
            (name == "templatestring").then_some(template_string::templatestring as Function)
        })
}

/// Functions whose value Strata does not compute, though Terraform does at plan time:
/// `base64gzip` (the bytes are those of Go's own compressor), `bcrypt` (a random salt
/// each time) and `rsadecrypt` (RSA is not implemented). Their arguments are checked;
/// their value is unknown.
fn opaque(name: &str) -> Option<Function> {
    match name {
        "base64gzip" | "bcrypt" | "rsadecrypt" => Some(|_, _| Ok(Value::Unknown)),
        _ => None,
    }
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

/// The `n`th argument as a whole number, as go-cty converts a number to a Go `int`.
/// An `f64` cannot tell 2^63 - 1 from 2^63, so 2^63 is taken as the largest.
fn integer(args: &[Value], n: usize) -> Result<i64, String> {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    let f = number(args, n)?;
    if f.fract() != 0.0 || !(-TWO_63..=TWO_63).contains(&f) {
        return Err(
            "value must be a whole number, between -9223372036854775808 and 9223372036854775807"
                .into(),
        );
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

#[cfg(test)]
mod limits_tests;

#[cfg(test)]
mod hostile_tests;

#[cfg(test)]
mod work_tests;

#[cfg(test)]
mod results_tests;

#[cfg(test)]
mod yaml_tests;

/// `merge`'s result with each unknown attribute of the type its argument gave it: cty's
/// `merge` copies attribute values as they are, so a typed unknown stays typed (what
/// `after_sensitive` shows of it: `{}` or `[]`).
fn typed_attributes(merged: Value, arguments: &[Value]) -> Value {
    let Value::Object(mut attributes) = merged else {
        return merged;
    };
    for (key, value) in attributes.iter_mut() {
        if *value != Value::Unknown {
            continue;
        }
        let given = arguments
            .iter()
            .rev()
            .find_map(|a| a.attributes().and_then(|m| m.get(key)));
        if let Some(typed @ Value::UnknownOf(..)) = given {
            *value = typed.clone();
        }
    }
    Value::Object(attributes)
}
