//! Arguments Terraform decodes as constants, with no variables or functions: the
//! lifecycle booleans, a variable's flags and its default (spec §2.4, §2.7, §3.2), a
//! provider configuration's alias.

use serde_json::Value;

use super::{at, Diagnostic, Severity};
use crate::eval::{constant, json_literal};
use crate::merge::{MergedModule, Origin};
use crate::syntax::{Attribute, Expr, ExprKind, Span, TemplatePart, TraversalStep};

/// Code of an argument with a value Terraform cannot use.
pub const LITERAL_VALUE: &str = "invalid-literal";

/// `Variables not allowed` and `Function calls not allowed` for an expression that must
/// be a constant, as HCL reports them when it evaluates without a context: one for each
/// reference (at its root name) and each outermost function call, in source order;
/// empty when it is a constant.
pub fn not_constant(m: &MergedModule, file: u32, expr: &Expr) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    unevaluable(expr, &mut found);
    found
        .into_iter()
        .map(|(span, variable)| {
            let (summary, detail) = if variable {
                ("Variables not allowed", "Variables may not be used here.")
            } else {
                (
                    "Function calls not allowed",
                    "Functions may not be called here.",
                )
            };
            let origin = Origin { file, span };
            at(
                m,
                origin,
                Severity::Error,
                LITERAL_VALUE,
                summary.into(),
                detail.into(),
            )
        })
        .collect()
}

/// The references (`true`) and function calls (`false`) HCL cannot evaluate without a
/// context, in the order it evaluates them: a call's arguments are never reached, nor a
/// `for` expression's body once its collection failed.
fn unevaluable(expr: &Expr, out: &mut Vec<(Span, bool)>) {
    match &expr.kind {
        ExprKind::Variable(id) => out.push((id.span, true)),
        ExprKind::FuncCall { .. } => out.push((expr.span, false)),
        ExprKind::For(f) => unevaluable(&f.collection, out),
        ExprKind::Traversal { root, steps } => {
            unevaluable(root, out);
            for step in steps {
                if let TraversalStep::Index(e) = step {
                    unevaluable(e, out);
                }
            }
        }
        ExprKind::Object(items) => {
            for (k, v) in items {
                // A bare name as a key is the key itself, not a reference.
                if !matches!(k.kind, ExprKind::Variable(_)) {
                    unevaluable(k, out);
                }
                unevaluable(v, out);
            }
        }
        ExprKind::Tuple(items) => items.iter().for_each(|e| unevaluable(e, out)),
        ExprKind::Conditional(parts) => parts.iter().for_each(|e| unevaluable(e, out)),
        ExprKind::Binary { operands, .. } => operands.iter().for_each(|e| unevaluable(e, out)),
        ExprKind::Unary { expr, .. } | ExprKind::Parens(expr) => unevaluable(expr, out),
        ExprKind::Template(parts) => unevaluable_parts(parts, out),
        ExprKind::Null
        | ExprKind::Bool(_)
        | ExprKind::Number(_)
        | ExprKind::String(_)
        | ExprKind::Json(_)
        | ExprKind::Unanalysed
        | ExprKind::Missing => {}
    }
}

fn unevaluable_parts(parts: &[TemplatePart], out: &mut Vec<(Span, bool)>) {
    for part in parts {
        match part {
            TemplatePart::Literal(_) => {}
            TemplatePart::Interpolation(e) => unevaluable(e, out),
            TemplatePart::If {
                condition,
                then,
                otherwise,
            } => {
                unevaluable(condition, out);
                unevaluable_parts(then, out);
                unevaluable_parts(otherwise, out);
            }
            TemplatePart::For { collection, .. } => unevaluable(collection, out),
        }
    }
}

/// An argument's value with no evaluation context, as `gohcl.DecodeExpression` sees it:
/// a native constant, or a JSON value with its strings as written.
pub fn decoded(expr: &Expr) -> Option<Value> {
    match expr.is_json() {
        true => json_literal(expr),
        false => constant(expr),
    }
}

/// A boolean decoded without any evaluation context (spec §3.2), errors at the start of
/// the expression as `gohcl.DecodeExpression` puts them (`StartRange`).
pub fn literal_bool(m: &MergedModule, file: u32, a: &Attribute) -> Vec<Diagnostic> {
    let mut out = not_constant(m, file, &a.expr);
    let problem = match decoded(&a.expr) {
        _ if !out.is_empty() || is_missing(&a.expr) => Some("value must be known".to_string()),
        Some(Value::Bool(_)) => None,
        Some(Value::String(s)) if matches!(s.as_str(), "true" | "false" | "1" | "0") => None,
        Some(Value::String(_)) => Some("a bool is required".into()),
        Some(Value::Null) => Some("null value is not allowed".into()),
        Some(Value::Number(_)) => Some("bool required".into()),
        Some(Value::Array(_)) => Some("bool required".into()),
        Some(Value::Object(_)) => Some("bool required".into()),
        None => None,
    };
    if let Some(problem) = problem {
        out.push(unsuitable(m, file, a.expr.start_range(), &problem));
    }
    out
}

/// Whether `expr` is HCL's placeholder for a missing value, which decodes to an unknown.
fn is_missing(expr: &Expr) -> bool {
    matches!(expr.kind, ExprKind::Missing)
}

/// gohcl's `Unsuitable value type` for a value that does not decode.
fn unsuitable(m: &MergedModule, file: u32, span: Span, problem: &str) -> Diagnostic {
    let origin = Origin { file, span };
    let detail = format!("Unsuitable value: {problem}");
    let summary = "Unsuitable value type".to_string();
    at(m, origin, Severity::Error, LITERAL_VALUE, summary, detail)
}

/// A string decoded without any evaluation context (`gohcl.DecodeExpression` into a
/// string with no context): the errors (`Variables not allowed`, `Unsuitable value type`)
/// and the string, empty when decoding failed; numbers and booleans convert to strings.
pub fn literal_string(m: &MergedModule, file: u32, a: &Attribute) -> (Vec<Diagnostic>, String) {
    let mut out = not_constant(m, file, &a.expr);
    let (text, problem) = match decoded(&a.expr) {
        _ if !out.is_empty() || is_missing(&a.expr) => (String::new(), Some("value must be known")),
        Some(Value::String(s)) => (s, None),
        Some(Value::Bool(b)) => (b.to_string(), None),
        Some(Value::Number(n)) => (n.to_string(), None),
        Some(Value::Null) => (String::new(), Some("null value is not allowed")),
        Some(Value::Array(_) | Value::Object(_)) => (String::new(), Some("string required")),
        None => (String::new(), None),
    };
    if let Some(problem) = problem {
        out.push(unsuitable(m, file, a.expr.start_range(), problem));
    }
    (out, text)
}

/// OpenTofu's `deprecated` argument of a variable or output (`named_values.go`): a string
/// decoded as a constant, which must hold more than blanks unless decoding failed (or,
/// for an output, an error came `before` it in the block); that error is `Invalid
/// \`deprecated\` {noun}` at `subject`, naming the `object` being deprecated.
pub fn deprecated(
    m: &MergedModule,
    a: (u32, &Attribute),
    subject: Origin,
    before: bool,
    (noun, object): (&str, &str),
) -> Vec<Diagnostic> {
    let (mut out, text) = literal_string(m, a.0, a.1);
    if out.is_empty() && !before && text.trim().is_empty() {
        out.push(at(
            m,
            subject,
            Severity::Error,
            LITERAL_VALUE,
            format!("Invalid `deprecated` {noun}"),
            format!(
                "The \"deprecated\" argument must not be empty, and should provide instructions \
                 on how to migrate away from usage of this deprecated {object}."
            ),
        ));
    }
    out
}
