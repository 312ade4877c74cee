//! Expressions written as JSON strings that Terraform re-parses itself rather than
//! evaluating them as templates (`unwrapJSONRefExpr` in `internal/configs/import.go`,
//! used for an import's `to` and each `replace_triggered_by` element).

use super::file_range_text;
use crate::merge::MergedModule;
use crate::syntax::{json_string_native, Expr, ExprKind, JsonKind, Span};

/// One error of an unwrapped expression: where, summary, detail.
pub(super) type Failure = (Span, String, String);

/// `expr` (of file `file`) as `unwrapJSONRefExpr` reads it: a native expression is
/// itself; a JSON string is re-parsed as a native expression from its opening quote (its
/// syntax errors are the result); any other JSON value is `Invalid reference expression`.
pub(super) fn unwrap_json_reference(
    m: &MergedModule,
    file: u32,
    expr: &Expr,
) -> Result<Expr, Vec<Failure>> {
    let ExprKind::Json(value) = &expr.kind else {
        return Ok(expr.clone());
    };
    match json_string_native(value) {
        Some(Ok(parsed)) => Ok(parsed),
        Some(Err(errors)) => Err(errors
            .into_iter()
            .map(|d| {
                let detail = match d.cited {
                    Some(span) => d
                        .detail
                        .replace("{range}", &file_range_text(m.file(file), span)),
                    None => d.detail,
                };
                (d.span, d.summary, detail)
            })
            .collect()),
        // A string HCL reads that Strata cannot: nothing to say.
        None if matches!(value.kind, JsonKind::String(_)) => Err(Vec::new()),
        None => Err(vec![(
            expr.span,
            "Invalid reference expression".to_string(),
            "A single reference string is required.".to_string(),
        )]),
    }
}
