//! Arguments Terraform decodes as constants, with no variables or functions: the
//! lifecycle booleans, a variable's flags and its default (spec §2.4, §2.7, §3.2).

use serde_json::Value;

use super::{at, Diagnostic, Severity};
use crate::eval::constant;
use crate::merge::{MergedModule, Origin};
use crate::syntax::{Attribute, Expr, ExprKind};

/// Code of an argument with a value Terraform cannot use.
pub const LITERAL_VALUE: &str = "invalid-literal";

/// `Variables not allowed` and `Function calls not allowed` for an expression that must
/// be a constant; returns the diagnostics, empty when it is one.
pub fn not_constant(m: &MergedModule, file: u32, expr: &Expr) -> Vec<Diagnostic> {
    let (variables, functions) = uses(expr);
    let origin = Origin {
        file,
        span: expr.span,
    };
    let mut out = Vec::new();
    if variables {
        out.push(at(
            m,
            origin,
            Severity::Error,
            LITERAL_VALUE,
            "Variables not allowed".into(),
            "Variables may not be used here.".into(),
        ));
    }
    if functions {
        out.push(at(
            m,
            origin,
            Severity::Error,
            LITERAL_VALUE,
            "Function calls not allowed".into(),
            "Functions may not be called here.".into(),
        ));
    }
    out
}

/// A boolean decoded without any evaluation context (spec §3.2).
pub fn literal_bool(m: &MergedModule, file: u32, a: &Attribute) -> Vec<Diagnostic> {
    let mut out = not_constant(m, file, &a.expr);
    let problem = match constant(&a.expr) {
        _ if !out.is_empty() => Some("value must be known".to_string()),
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
        let origin = Origin {
            file,
            span: a.expr.span,
        };
        out.push(at(
            m,
            origin,
            Severity::Error,
            LITERAL_VALUE,
            "Unsuitable value type".into(),
            format!("Unsuitable value: {problem}"),
        ));
    }
    out
}

/// Whether an expression refers to anything, and whether it calls a function.
fn uses(expr: &Expr) -> (bool, bool) {
    let mut found = (false, false);
    // A bare name as an object key is the key itself, not a reference. (A set: a default
    // of many objects has as many keys.)
    let mut keys = std::collections::HashSet::new();
    expr.walk(&mut |e| match &e.kind {
        ExprKind::Object(items) => keys.extend(
            items
                .iter()
                .filter(|(k, _)| matches!(k.kind, ExprKind::Variable(_)))
                .map(|(k, _)| k.span),
        ),
        ExprKind::Variable(_) if keys.contains(&e.span) => {}
        ExprKind::Variable(_) | ExprKind::Traversal { .. } => found.0 = true,
        ExprKind::FuncCall { .. } => found.1 = true,
        _ => {}
    });
    found
}
