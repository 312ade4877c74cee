//! An output's preconditions as the validate walk checks them (`NodeApplyableOutput` in
//! `internal/terraform/node_output.go`, `evalCheckRule` in `eval_conditions.go`): before
//! Terraform evaluates an output's value it evaluates every precondition, with the names
//! the walk gives (`walk_scope.rs`: variables unknown, `terraform.workspace` known), and
//! an output whose rules failed or had errors goes no further: its value is never
//! evaluated, so neither its evaluation errors nor `Output refers to sensitive values`
//! are reported (`terraform validate` and `plan` report the failed precondition alone;
//! recorded in fixtures/differential/diff-1314 and fixtures/validate/output-preconditions).
//!
//! Each rule's condition and error message are evaluated; a condition known to be false
//! is `Module output value precondition failed` at the condition, with the message, or
//! with Terraform's stand-in when the message is unknown or cannot be shown; a null or
//! non-bool condition is `Invalid condition result`. The evaluation errors of either
//! expression are `evaluation.rs`'s to report; here they only stop the output. Not
//! reported yet: the warning Terraform adds for a message carrying a sensitive or
//! ephemeral value, and the `Invalid error message` of a null or non-string one (the
//! stand-in detail is given for both).

use std::collections::BTreeSet;

use super::walk_scope::WalkScope;
use super::{at, Diagnostic, Severity};
use crate::eval::{evaluate, expression_values, parse_references, Causes, Marks, Value};
use crate::merge::{MergedModule, Nested, Origin, Output};
use crate::types::{convert, Type};

/// Code of an output precondition that failed, or whose condition is not a bool.
pub const OUTPUT_PRECONDITION: &str = "output-precondition";

/// Terraform's detail for a failed rule whose error message it cannot show.
const INVALID_MESSAGE: &str = "This check failed, but has an invalid error message as described in the other accompanying messages.";

/// Reports the failed preconditions of `m`'s outputs; returns the names of the outputs
/// whose preconditions failed or could not be evaluated, which the walk evaluates no
/// further.
pub(super) fn check(
    m: &MergedModule,
    scope: &WalkScope<'_>,
    out: &mut Vec<Diagnostic>,
) -> BTreeSet<String> {
    let mut stopped = BTreeSet::new();
    for output in m.outputs.values() {
        let mut failed = false;
        for rule in &output.preconditions {
            failed |= !run(m, scope, rule, out);
        }
        if failed {
            stopped.insert(output.name.clone());
        }
    }
    stopped
}

/// Drops from `found` what the walk reports of the stopped outputs' values and
/// `depends_on`, which Terraform never evaluates.
pub(super) fn skip_stopped(
    m: &MergedModule,
    stopped: &BTreeSet<String>,
    found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let unevaluated: Vec<Origin> = stopped
        .iter()
        .filter_map(|name| m.outputs.get(name))
        .flat_map(|o: &Output| [&o.value, &o.depends_on])
        .flatten()
        .map(|a| a.origin())
        .collect();
    let inside = |d: &Diagnostic, o: &Origin| {
        d.path == m.file(o.file).path && o.span.start <= d.span.start && d.span.end <= o.span.end
    };
    found
        .into_iter()
        .filter(|d| !unevaluated.iter().any(|o| inside(d, o)))
        .collect()
}

/// One rule; returns whether it passed (or is unknown) without errors.
fn run(m: &MergedModule, scope: &WalkScope<'_>, rule: &Nested, out: &mut Vec<Diagnostic>) -> bool {
    let body = &rule.block.body;
    let (Some(condition), Some(message)) =
        (body.attribute("condition"), body.attribute("error_message"))
    else {
        return true; // A missing argument is the decoder's error (`decode.rs`).
    };
    if parse_references(&condition.expr).is_empty() {
        return true; // The loader refused it (`conditions.rs`): Terraform never evaluates it.
    }
    let (Ok(result), Ok(message)) = (
        evaluate(&condition.expr, scope),
        evaluate(&message.expr, scope),
    ) else {
        return false;
    };
    if !result.is_known() {
        return true;
    }
    let origin = Origin {
        file: rule.file,
        span: condition.expr.span,
    };
    let report = |summary: &str, detail: String, out: &mut Vec<Diagnostic>| {
        let mut d = at(
            m,
            origin,
            Severity::Error,
            OUTPUT_PRECONDITION,
            summary.into(),
            detail,
        );
        d.values = expression_values(&condition.expr, scope, Causes::default());
        out.push(d);
    };
    let invalid = "Invalid condition result";
    if result.is_null() {
        let detail = "Condition expression must return either true or false, not null.";
        report(invalid, detail.into(), out);
        return false;
    }
    let (result, _) = result.unmark_deep_with_paths();
    match convert(&result.to_json(), &Type::Bool) {
        Err(e) => {
            let detail = format!("Invalid condition result value: {}.", e.with_path());
            report(invalid, detail, out);
            false
        }
        Ok(passed) if passed.as_bool() != Some(false) => true,
        Ok(_) => {
            let detail = shown_message(&message).unwrap_or_else(|| INVALID_MESSAGE.into());
            report("Module output value precondition failed", detail, out);
            false
        }
    }
}

/// The text of a known error message that can be shown (`evalCheckErrorMessage`): a
/// string without sensitive or ephemeral marks, trimmed.
fn shown_message(message: &Value) -> Option<String> {
    if !message.is_known() || message.is_null() {
        return None;
    }
    let marks = message.deep_marks();
    if marks.contains(Marks::SENSITIVE) || marks.contains(Marks::EPHEMERAL) {
        return None;
    }
    Some(message.to_text()?.trim().to_string())
}
