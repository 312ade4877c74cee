//! The type a reference's use implies, for the declaration of an undeclared variable:
//! an argument's whole value has the argument's type, an interpolation is a string, an
//! operand of arithmetic a number, of logic or a condition a bool. In the JSON syntax
//! the expressions are the templates of the value's strings, and a string that is one
//! interpolation alone (`"${var.n}"`) is the value itself, as Terraform reads it.

use super::declarations::argument_type;
use super::Place;
use crate::ide::completion::{context_in, Options, Scope};
use crate::syntax::{
    json_string_template, Attribute, Body, Expr, ExprKind, JsonKind, JsonValue, Span, TemplatePart,
};

/// The type (a type constraint's text) the use of the reference at `span` of the
/// place's file implies, if it implies one.
pub(super) fn inferred_type(place: &Place, span: Span) -> Option<String> {
    let (attr, ctx_offset) = attribute_at(&place.file.syntax.body, span)?;
    let whole = match &attr.expr.kind {
        ExprKind::Json(value) => lone_interpolation(value).is_some_and(|e| e.span == span),
        _ => attr.expr.span == span,
    };
    if whole {
        let scope = Scope::new(
            place.ws,
            &place.file.path,
            &place.file,
            ctx_offset,
            Options::default(),
        );
        let ctx = context_in(&scope, &place.file, ctx_offset);
        return match &*attr.name.name {
            "count" => Some("number".into()),
            name => argument_type(&scope, &ctx.blocks, name).filter(|t| t != "any"),
        };
    }
    let mut found = None;
    let mut look = |e: &Expr| {
        if found.is_none() {
            found = use_in(e, span);
        }
    };
    match &attr.expr.kind {
        ExprKind::Json(value) => each_template(value, &mut |template| match lone(&template) {
            // The value itself, not a string: only what is inside asks a type.
            Some(inner) => inner.walk(&mut look),
            None => template.walk(&mut look),
        }),
        _ => attr.expr.walk(&mut look),
    }
    found.map(str::to_string)
}

/// The expression of a JSON string that is one interpolation alone.
fn lone_interpolation(value: &JsonValue) -> Option<Expr> {
    let template = json_string_template(value)?;
    lone(&template).cloned()
}

/// The interpolation a template is made of alone.
fn lone(template: &Expr) -> Option<&Expr> {
    match &template.kind {
        ExprKind::Template(parts) => match parts.as_slice() {
            [TemplatePart::Interpolation(inner)] => Some(inner),
            _ => None,
        },
        _ => None,
    }
}

/// Calls `f` with the template of every string in `value` that is one.
fn each_template(value: &JsonValue, f: &mut dyn FnMut(Expr)) {
    match &value.kind {
        JsonKind::String(_) => {
            if let Some(template) = json_string_template(value) {
                f(template);
            }
        }
        JsonKind::Array(items) => items.iter().for_each(|i| each_template(i, f)),
        JsonKind::Object(properties) => properties.iter().for_each(|(_, v)| each_template(v, f)),
        JsonKind::Null | JsonKind::Bool(_) | JsonKind::Number(_) | JsonKind::Invalid => {}
    }
}

/// The attribute (in `body` or a block nested in it) whose value holds `span`, with an
/// offset inside its block's body (for the completion context of its block).
fn attribute_at(body: &Body, span: Span) -> Option<(&Attribute, usize)> {
    if let Some(a) = body
        .attributes
        .iter()
        .find(|a| a.expr.span.start <= span.start && span.end <= a.expr.span.end)
    {
        return Some((a, a.span.start as usize));
    }
    let block = body
        .blocks
        .iter()
        .find(|b| b.span.contains(span.start as usize))?;
    attribute_at(&block.body, span)
}

/// The type `e` asks of its direct operand at `span`, if it asks one.
fn use_in(e: &Expr, span: Span) -> Option<&'static str> {
    match &e.kind {
        ExprKind::Template(parts) => parts
            .iter()
            .any(|p| matches!(p, TemplatePart::Interpolation(i) if i.span == span))
            .then_some("string"),
        ExprKind::Binary { op, operands } if operands.iter().any(|o| o.span == span) => match *op {
            "+" | "-" | "*" | "/" | "%" | "<" | "<=" | ">" | ">=" => Some("number"),
            "&&" | "||" => Some("bool"),
            _ => None,
        },
        ExprKind::Unary { op, expr } if expr.span == span => match *op {
            "!" => Some("bool"),
            "-" => Some("number"),
            _ => None,
        },
        ExprKind::Conditional(parts) if parts[0].span == span => Some("bool"),
        _ => None,
    }
}
