//! Expressions as `show -json` represents them: `constant_value` and `references`, the
//! expressions of a body (nested and `dynamic` blocks), `count`/`for_each`, `depends_on`,
//! and static traversals as text.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::eval::{evaluate, json_literal, references, EvalError, Scope, Value as EvalValue};
use crate::merge::{effective_block_type, Attr, MergedBody};
use crate::syntax::{Block, Body, Expr, ExprKind, JsonKind, Span, TraversalStep};

/// `{"constant_value": v}` and/or `{"references": [...]}`, as Terraform represents an
/// expression (an empty object when it is neither, e.g. a function call).
pub fn expression(expr: &Expr) -> Value {
    let mut out = Map::new();
    if let Some(v) = constant_value(expr) {
        out.insert("constant_value".into(), v);
    }
    let refs: Vec<String> = references(expr)
        .iter()
        .flat_map(|r| r.json_strings())
        .collect();
    if !refs.is_empty() {
        out.insert("references".into(), json!(refs));
    }
    Value::Object(out)
}

/// The value HCL gives `expr` with no evaluation context (`Value(nil)`), which
/// Terraform writes as `constant_value` and decodes a variable's `default` with. In the
/// JSON syntax strings are then read as written, `${` sequences and all; a native
/// expression is evaluated, and has no value once it names a variable or calls a
/// function (`Variables not allowed`, `Function calls not allowed`): a `for`
/// expression's own iterators are the only names it may use.
pub(super) fn constant_value(expr: &Expr) -> Option<Value> {
    if let Some(literal) = json_literal(expr) {
        return Some(literal);
    }
    let mut calls = false;
    expr.walk(&mut |e| calls |= matches!(e.kind, ExprKind::FuncCall { .. }));
    if calls {
        return None;
    }
    let value = evaluate(expr, &NoContext).ok()?;
    value.is_wholly_known().then(|| value.to_json())
}

/// An evaluation context that defines nothing.
struct NoContext;

impl Scope for NoContext {
    fn lookup(&self, _: &str, _: &[&str], span: Span) -> Result<(EvalValue, usize), EvalError> {
        Err(EvalError::new(
            "Variables not allowed",
            "Variables may not be used here.",
            span,
        ))
    }
}

pub(super) fn attr_expression(a: &Attr) -> Value {
    expression(a.expr())
}

/// `count_expression`, else `for_each_expression`, as Terraform shows only one.
pub(super) fn repetition(
    entry: &mut Map<String, Value>,
    count: &Option<Attr>,
    for_each: &Option<Attr>,
) {
    let non_empty = |v: &Value| v.as_object().is_some_and(|o| !o.is_empty());
    if let Some(c) = count.as_ref().map(attr_expression).filter(non_empty) {
        entry.insert("count_expression".into(), c);
    } else if let Some(f) = for_each.as_ref().map(attr_expression).filter(non_empty) {
        entry.insert("for_each_expression".into(), f);
    }
}

/// The expressions of a body: attributes, nested blocks as arrays of objects, and
/// `dynamic` blocks under the `dynamic` key (Strata's extension; Terraform drops them).
fn body_expressions<'a>(
    attributes: impl Iterator<Item = &'a Arc<crate::syntax::Attribute>>,
    blocks: impl Iterator<Item = &'a Arc<Block>>,
) -> Map<String, Value> {
    let mut out = Map::new();
    for a in attributes {
        out.insert(a.name.name.to_string(), expression(&a.expr));
    }
    let mut dynamic: Map<String, Value> = Map::new();
    for b in blocks {
        if &*b.kind.name == "dynamic" {
            let mut entry = Map::new();
            for arg in ["for_each", "iterator", "labels"] {
                if let Some(a) = b.body.attribute(arg) {
                    entry.insert(arg.into(), expression(&a.expr));
                }
            }
            let content: Vec<Value> = b
                .body
                .blocks_of("content")
                .map(|c| Value::Object(plain_body(&c.body)))
                .collect();
            entry.insert("content".into(), Value::Array(content));
            push(&mut dynamic, effective_block_type(b), Value::Object(entry));
        } else {
            push(&mut out, &b.kind.name, Value::Object(plain_body(&b.body)));
        }
    }
    if !dynamic.is_empty() {
        out.insert("dynamic".into(), Value::Object(dynamic));
    }
    out
}

pub(super) fn plain_body(body: &Body) -> Map<String, Value> {
    body_expressions(body.attributes.iter(), body.blocks.iter())
}

/// The expressions of a merged body, as `expressions` shows them.
pub fn merged_body(body: &MergedBody) -> Map<String, Value> {
    body_expressions(
        body.attributes.iter().map(|a| &a.attr),
        body.blocks.iter().map(|b| &b.block),
    )
}

fn push(map: &mut Map<String, Value>, key: &str, value: Value) {
    match map.get_mut(key) {
        Some(Value::Array(items)) => items.push(value),
        _ => {
            map.insert(key.into(), Value::Array(vec![value]));
        }
    }
}

/// `depends_on` as Terraform lists it: the subject of each reference.
pub(super) fn depends_on(a: &Option<Attr>) -> Option<Value> {
    let a = a.as_ref()?;
    let items: Vec<String> = references(a.expr())
        .into_iter()
        .map(|r| r.subject)
        .collect();
    (!items.is_empty()).then(|| json!(items))
}

/// A static traversal as text: `aws.east`, `module.m`, `foo.bar[0]`.
pub(super) fn traversal_text(expr: &Expr) -> Option<String> {
    match &expr.kind {
        ExprKind::Variable(id) => Some(id.name.to_string()),
        ExprKind::Traversal { root, steps } => {
            let mut out = traversal_text(root)?;
            for step in steps {
                match step {
                    TraversalStep::Attr(id) => {
                        out.push('.');
                        out.push_str(&id.name);
                    }
                    TraversalStep::LegacyIndex(n, _) => out.push_str(&format!("[{n}]")),
                    TraversalStep::Index(e) => match &e.kind {
                        ExprKind::Number(n) => out.push_str(&format!("[{n}]")),
                        ExprKind::String(s) => out.push_str(&format!("[{s:?}]")),
                        _ => return None,
                    },
                    _ => return None,
                }
            }
            Some(out)
        }
        ExprKind::Json(v) => match &v.kind {
            JsonKind::String(s) => Some(s.to_string()),
            _ => None,
        },
        _ => None,
    }
}
