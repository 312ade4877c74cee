//! HCL's operations on values (HCL 2.23's `hcl.GetAttr`, `hcl.Index`, `BinaryOpExpr`,
//! `UnaryOpExpr` and `ConditionalExpr`), with the errors in HCL's words: an operation is
//! judged by the types of its operands, so an unknown value whose type is known
//! (`Value::UnknownOf`) is refused where its type is; an untyped unknown never is.

use std::cmp::Ordering;

use super::evaluate::EvalError;
use super::functions::conversion_error;
use super::refinement::{definitely_not_null, not_null_unknown, Bound, Refinement};
use super::value::{friendly_name, Value};
use crate::syntax::Span;
use crate::types::Type;

/// An unknown value of `ty`: untyped when the type is `any`.
pub(super) fn unknown_of(ty: Type) -> Value {
    match ty {
        Type::Dynamic => Value::Unknown,
        ty => Value::UnknownOf(ty, Refinement::NONE),
    }
}

/// `value.name`, the error at the `.name` step.
pub(super) fn get_attr(value: Value, name: &str, span: Span) -> Result<Value, EvalError> {
    if value.is_null() {
        return Err(EvalError::new(
            "Attempt to get attribute from null value",
            "This value is null, so it does not have any attributes.",
            span,
        ));
    }
    let unsupported = |detail: String| EvalError::new("Unsupported attribute", detail, span);
    let absent = || {
        unsupported(format!(
            "This object does not have an attribute named {name:?}."
        ))
    };
    match value {
        Value::Unknown => Ok(Value::Unknown),
        Value::PartialObject(mut map) => Ok(map.remove(name).unwrap_or(Value::Unknown)),
        Value::Object(mut map) => map.remove(name).ok_or_else(absent),
        Value::Map(mut map) => map.remove(name).ok_or_else(|| {
            EvalError::new(
                "Missing map element",
                format!("This map does not have an element with the key {name:?}."),
                span,
            )
        }),
        Value::UnknownOf(Type::Object(attrs), _) => attrs
            .get(name)
            .map(|a| unknown_of(a.ty.clone()))
            .ok_or_else(absent),
        Value::UnknownOf(Type::Map(element), _) => Ok(unknown_of(*element)),
        other => Err(unsupported(no_attributes(&other.ty(), name))),
    }
}

/// Why a value of `ty`, neither an object nor a map, has no attribute `name`.
fn no_attributes(ty: &Type, name: &str) -> String {
    match ty {
        Type::List(element) => match &**element {
            Type::Object(attrs) if attrs.contains_key(name) => format!("Can't access attributes on a list of objects. Did you mean to access attribute {name:?} for a specific element of the list, or across all elements of the list?"),
            Type::Object(_) => "Can't access attributes on a list of objects. Did you mean to access an attribute for a specific element of the list, or across all elements of the list?".into(),
            _ => "This value does not have any attributes.".into(),
        },
        Type::Set(element) if matches!(**element, Type::Object(_)) => "Can't access attributes on a set of objects. Did you mean to access an attribute across all elements of the set?".into(),
        t if t.is_primitive() => format!(
            "Can't access attributes on a primitive-typed value ({}).",
            friendly_name(t)
        ),
        _ => "This value does not have any attributes.".into(),
    }
}

/// `value[key]`, the error at the brackets.
pub fn index(value: Value, key: &Value, span: Span) -> Result<Value, EvalError> {
    let invalid = |detail: &str| EvalError::new("Invalid index", detail, span);
    let not_identified = "The given key does not identify an element in this collection value";
    if value.is_null() {
        return Err(EvalError::new(
            "Attempt to index null value",
            "This value is null, so it does not have any indices.",
            span,
        ));
    }
    if key.is_null() {
        return Err(invalid("Can't use a null value as an indexing key."));
    }
    if let Value::PartialObject(map) = &value {
        return Ok(key
            .to_text()
            .and_then(|k| map.get(&k).cloned())
            .unwrap_or(Value::Unknown));
    }
    let ty = value.ty();
    if ty == Type::Dynamic || key.ty() == Type::Dynamic {
        return Ok(Value::Unknown);
    }
    let key_error = |wanted: &Type| {
        conversion_error(key, wanted).map(|reason| invalid(&format!("{not_identified}: {reason}.")))
    };
    match ty {
        Type::List(_) | Type::Tuple(_) | Type::Map(_) => {
            let wanted = match ty {
                Type::Map(_) => Type::String,
                _ => Type::Number,
            };
            if let Some(e) = key_error(&wanted) {
                return Err(e);
            }
            if !value.is_known() || !key.is_known() {
                return Ok(match ty {
                    Type::List(element) | Type::Map(element) => unknown_of(*element),
                    _ => Value::Unknown,
                });
            }
            if let Value::Map(map) | Value::Object(map) = &value {
                let k = key.to_text().unwrap_or_default();
                return map
                    .get(&k)
                    .cloned()
                    .ok_or_else(|| invalid(&format!("{not_identified}.")));
            }
            let items = value.elements().unwrap_or_default();
            let n = key.to_number().unwrap_or(f64::NAN);
            if let Some(item) = (n >= 0.0 && n.fract() == 0.0)
                .then(|| items.get(n as usize))
                .flatten()
            {
                return Ok(item.clone());
            }
            // HCL's more specific messages, as its length test words them: an index
            // equal to the length, or 0 in an empty sequence.
            let len = items.len() as f64;
            Err(invalid(&if n.fract() != 0.0 {
                format!("{not_identified}: indexing a sequence requires a whole number, but the given index has a fractional part.")
            } else if n < 0.0 {
                format!("{not_identified}: a negative number is not a valid index for a sequence.")
            } else if n == len && len == 0.0 {
                format!("{not_identified}: the collection has no elements.")
            } else if n == len {
                format!("{not_identified}: the given index is greater than or equal to the length of the collection.")
            } else {
                format!("{not_identified}.")
            }))
        }
        Type::Object(attrs) => {
            if let Some(e) = key_error(&Type::String) {
                return Err(e);
            }
            if !value.is_known() || !key.is_known() {
                return Ok(Value::Unknown);
            }
            let name = key.to_text().unwrap_or_default();
            match value {
                Value::Object(mut map) if attrs.contains_key(&name) => {
                    Ok(map.remove(&name).unwrap_or(Value::Unknown))
                }
                _ => {
                    let numeric = if matches!(key, Value::Number(_)) {
                        " An object only supports looking up attributes by name, not by numeric index."
                    } else {
                        ""
                    };
                    Err(invalid(&format!("{not_identified}.{numeric}")))
                }
            }
        }
        Type::Set(_) => Err(invalid("Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.")),
        _ => Err(invalid("This value does not have any indices.")),
    }
}

/// Each operand of the binary operator `op` that does not convert to the type it takes
/// (`Invalid operand`), the left first: HCL converts both and reports each.
pub(super) fn unsuitable_operands(
    op: &str,
    a: &Value,
    b: &Value,
    spans: [Span; 2],
) -> Vec<EvalError> {
    if matches!(op, "==" | "!=") {
        return Vec::new();
    }
    let wanted = match op {
        "&&" | "||" => Type::Bool,
        _ => Type::Number,
    };
    [(a, "left", spans[0]), (b, "right", spans[1])]
        .into_iter()
        .filter_map(|(v, which, span)| operand(v, &wanted, which, span).err())
        .collect()
}

/// An operand converted to the type the operation takes: `Invalid operand` at the
/// operand when it does not convert.
fn operand(value: &Value, wanted: &Type, which: &str, span: Span) -> Result<(), EvalError> {
    match conversion_error(value, wanted) {
        Some(reason) => Err(EvalError::new(
            "Invalid operand",
            format!("Unsuitable value for {which} operand: {reason}."),
            span,
        )),
        None => Ok(()),
    }
}

/// The operation's refusal of a null operand, at the whole expression.
fn null_operand(span: Span) -> EvalError {
    EvalError::new(
        "Operation failed",
        "Error during operation: argument must not be null.",
        span,
    )
}

/// `!v` and `-v`; `operand_span` is where the operand is written.
pub(super) fn unary(
    op: &str,
    v: Value,
    operand_span: Span,
    span: Span,
) -> Result<Value, EvalError> {
    let wanted = if op == "!" { Type::Bool } else { Type::Number };
    operand(&v, &wanted, "unary", operand_span)?;
    if v.is_null() {
        return Err(null_operand(span));
    }
    if !v.is_known() {
        return Ok(not_null_unknown(wanted));
    }
    Ok(match op {
        "!" => Value::Bool(!v.to_bool().unwrap_or_default()),
        _ => Value::Number(-v.to_number().unwrap_or_default()),
    })
}

/// `a op b`; `spans` are where the operands are written.
pub(super) fn binary(
    op: &str,
    a: Value,
    b: Value,
    spans: [Span; 2],
    span: Span,
) -> Result<Value, EvalError> {
    if matches!(op, "==" | "!=") {
        return Ok(match equality(&a, &b) {
            Some(equal) => Value::Bool(if op == "==" { equal } else { !equal }),
            None => not_null_unknown(Type::Bool),
        });
    }
    let logical = matches!(op, "&&" | "||");
    if let Some(first) = unsuitable_operands(op, &a, &b, spans).into_iter().next() {
        return Err(first);
    }
    if a.is_null() || b.is_null() {
        return Err(null_operand(span));
    }
    let result = if logical || matches!(op, "<" | "<=" | ">" | ">=") {
        Type::Bool
    } else {
        Type::Number
    };
    // The comparisons take unknown operands and may know their result from the
    // operands' ranges; cty's other operations take none (`false && x` is unknown when
    // `x` is). Every such result is refined as not null, as their functions' are.
    if !a.is_known() || !b.is_known() {
        let known = match op {
            "<" => less_than(&a, &b),
            ">" => less_than(&b, &a),
            "<=" => at_most(&a, &b),
            ">=" => at_most(&b, &a),
            _ => None,
        };
        return Ok(known.map_or_else(|| not_null_unknown(result), Value::Bool));
    }
    if logical {
        let (x, y) = (
            a.to_bool().unwrap_or_default(),
            b.to_bool().unwrap_or_default(),
        );
        return Ok(Value::Bool(if op == "&&" { x && y } else { x || y }));
    }
    let (Some(x), Some(y)) = (a.to_number(), b.to_number()) else {
        return Ok(unknown_of(result));
    };
    let zero = || {
        EvalError::new(
            "Error in function call",
            "Call to function \"divide\" failed: can't divide by zero.",
            span,
        )
    };
    Ok(match op {
        "+" => Value::Number(x + y),
        "-" => Value::Number(x - y),
        "*" => Value::Number(x * y),
        "/" if y == 0.0 => return Err(zero()),
        "/" => Value::Number(x / y),
        "%" if y == 0.0 => return Err(zero()),
        "%" => Value::Number(x % y),
        "<" => Value::Bool(x < y),
        "<=" => Value::Bool(x <= y),
        ">" => Value::Bool(x > y),
        ">=" => Value::Bool(x >= y),
        other => {
            return Err(EvalError::new(
                "Unsupported operator",
                format!("The operator {other} is not supported."),
                span,
            ))
        }
    })
}

/// `a == b` as cty's `Equals` decides it: `None` where it is unknown. A null is unequal to
/// a value that cannot be null, and a known value to an unknown whose range (its
/// refinements, its type) excludes it, before any unknown makes the result unknown; a
/// known value compared with null is known even when values nested in it are not.
fn equality(a: &Value, b: &Value) -> Option<bool> {
    if a.is_null() && definitely_not_null(b) || b.is_null() && definitely_not_null(a) {
        return Some(false);
    }
    for (known, unknown) in [(a, b), (b, a)] {
        if known.is_known() && !unknown.is_known() && unknown.range().includes(known) == Some(false)
        {
            return Some(false);
        }
    }
    if !a.is_known() || !b.is_known() {
        return None;
    }
    if a.is_null() || b.is_null() {
        return Some(a.is_null() && b.is_null());
    }
    if !a.is_wholly_known() || !b.is_wholly_known() {
        return None;
    }
    Some(a.equals(b))
}

/// `a < b` with an unknown operand, as cty's `LessThan` knows it from the operands'
/// number ranges (every bound taken as exclusive): `None` where it is unknown.
fn less_than(a: &Value, b: &Value) -> Option<bool> {
    let (a, b) = (a.range(), b.range());
    if *a.ty() != Type::Number || *b.ty() != Type::Number {
        return None;
    }
    let below =
        |x: Option<Bound>, y: Option<Bound>| x.zip(y).is_some_and(|(x, y)| x.value < y.value);
    if below(a.number_upper(), b.number_lower()) {
        return Some(true);
    }
    if below(b.number_upper(), a.number_lower()) {
        return Some(false);
    }
    None
}

/// `a <= b` with an unknown operand: cty's `LessThan(b).Or(Equals(b))`, where either
/// being true makes it true.
fn at_most(a: &Value, b: &Value) -> Option<bool> {
    match (less_than(a, b), equality(a, b)) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (Some(false), Some(false)) => Some(false),
        _ => None,
    }
}

/// `c ? t : f` where `c` is unknown, as HCL's `ConditionalExpr` refines it from the
/// ranges of both results: null where both are, else an unknown of their unified type,
/// not null where neither can be, a number within both bounds, a collection within both
/// lengths. It carries the results' own marks.
pub(super) fn unknown_choice(t: Value, f: Value) -> Value {
    let (t, t_marks) = t.unmark();
    let (f, f_marks) = f.unmark();
    let marks = t_marks | f_marks;
    if t.is_null() && f.is_null() {
        return Value::Null.mark(marks);
    }
    let (t_range, f_range) = (t.range(), f.range());
    let (t_ty, f_ty) = (t_range.ty().clone(), f_range.ty().clone());
    // A null of no type takes the other's type; an unknown type stays unknown.
    let ty = match (t.is_null(), f.is_null()) {
        (true, _) => Some(f_ty.clone()),
        (_, true) => Some(t_ty.clone()),
        _ if t_ty == Type::Dynamic || f_ty == Type::Dynamic => Some(Type::Dynamic),
        _ => crate::types::unify([&t_ty, &f_ty].into_iter()),
    };
    let Some(ty) = ty.filter(|ty| *ty != Type::Dynamic) else {
        return Value::Unknown.mark(marks);
    };
    let mut refine = Value::UnknownOf(ty.clone(), Refinement::NONE).refine();
    if t_range.definitely_not_null() && f_range.definitely_not_null() {
        refine = refine.not_null();
    }
    let collections = |t: &Type| matches!(t, Type::List(_) | Type::Set(_) | Type::Map(_));
    if t_ty == Type::Number && f_ty == Type::Number {
        if let Some((t, f)) = t_range.number_lower().zip(f_range.number_lower()) {
            let lo = wider(t, f, Ordering::Less);
            refine = refine.number_lower(lo.value, lo.inclusive);
        }
        if let Some((t, f)) = t_range.number_upper().zip(f_range.number_upper()) {
            let hi = wider(t, f, Ordering::Greater);
            refine = refine.number_upper(hi.value, hi.inclusive);
        }
    } else if collections(&t_ty) && t_ty == f_ty {
        refine = refine.length_lower(t_range.length_lower().min(f_range.length_lower()));
        if let Some(hi) = t_range.length_upper().zip(f_range.length_upper()) {
            refine = refine.length_upper(hi.0.max(hi.1));
        }
    }
    refine.value().mark(marks)
}

/// The wider of two bounds at one end of a range, `outward` the direction that widens
/// (less for a lower bound); of equal bounds, the inclusive one.
fn wider(t: Bound, f: Bound, outward: Ordering) -> Bound {
    match t.value.total_cmp(&f.value) {
        Ordering::Equal => Bound {
            inclusive: t.inclusive || f.inclusive,
            ..f
        },
        order if order == outward => t,
        _ => f,
    }
}

/// Why the results of a conditional have no type in common (HCL's
/// `describeConditionalTypeMismatch` for the pairs Strata is sure go-cty cannot unify: a
/// number and a bool, a primitive and anything structured, a sequence and a mapping);
/// `None` where they unify or Strata cannot tell.
pub(super) fn inconsistent_results(a: &Type, b: &Type) -> Option<String> {
    let sequence = |t: &Type| matches!(t, Type::List(_) | Type::Set(_) | Type::Tuple(_));
    let mapping = |t: &Type| matches!(t, Type::Map(_) | Type::Object(_));
    let fails = match (a, b) {
        (Type::Dynamic, _) | (_, Type::Dynamic) => false,
        (x, y) if x.is_primitive() && y.is_primitive() => {
            x != y && *x != Type::String && *y != Type::String
        }
        (x, y) if x.is_primitive() || y.is_primitive() => true,
        (x, y) => sequence(x) && mapping(y) || mapping(x) && sequence(y),
    };
    fails.then(|| {
        format!(
            "The 'true' value is {}, but the 'false' value is {}",
            friendly_name(a),
            friendly_name(b)
        )
    })
}
