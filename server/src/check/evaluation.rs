//! The errors of the expressions the validate walk evaluates (HCL's `Value` methods):
//! every expression Terraform evaluates at validate time (`evaluated.rs`) is evaluated
//! with the names the walk gives (`walk_scope.rs`, where variables are unknown values of
//! their type constraints). Reported are a function call whose arguments are known (or
//! typed) and wrong (`Invalid function argument` at the argument, `Error in function
//! call` at the call), and HCL's own errors in its words (`HCL_ERRORS`: operands,
//! conditional result types, attributes and indexes, template interpolations).
//!
//! Only what Strata is sure of is reported: the first error of each expression (HCL
//! reports every one), never the filesystem functions (Terraform reads files relative
//! to the directory it runs in, which Strata does not know for a module checked on its
//! own). The walk follows the merged model: an argument an override replaced is never
//! evaluated, the override's is.

use super::evaluated::Walked;
use super::walk_scope::WalkScope;
use super::{at, Diagnostic, Severity};
use crate::eval::{evaluate, EvalError};
use crate::merge::{MergedModule, Origin};

/// Code of a function call the validate walk rejects.
pub const FUNCTION_ERROR: &str = "function-error";

/// Code of an expression HCL refuses to evaluate.
pub const EVALUATION_ERROR: &str = "evaluation-error";

/// The evaluation errors Strata writes in HCL 2.23's words (`eval/operations.rs`,
/// `eval/evaluate.rs`); Strata's other evaluation errors are its own and not reported.
const HCL_ERRORS: &[&str] = &[
    "Invalid operand",
    "Operation failed",
    "Inconsistent conditional result types",
    "Incorrect condition type",
    "Null condition",
    "Unsupported attribute",
    "Missing map element",
    "Attempt to get attribute from null value",
    "Invalid index",
    "Attempt to index null value",
    "Invalid template interpolation value",
    // Only once an argument is expanded with `...`: `functions.rs` counts the others.
    "Not enough function arguments",
    "Too many function arguments",
];

/// The code to report an evaluation error with, when it is in Terraform's words and not
/// about files.
pub(super) fn reportable(error: &EvalError) -> Option<&'static str> {
    match &error.function {
        Some(function) => {
            let bare = function.strip_prefix("core::").unwrap_or(function);
            (!FILESYSTEM.contains(&bare)).then_some(FUNCTION_ERROR)
        }
        None => HCL_ERRORS
            .contains(&error.summary.as_str())
            .then_some(EVALUATION_ERROR),
    }
}

/// Functions whose result depends on files.
const FILESYSTEM: &[&str] = &[
    "file",
    "filebase64",
    "fileexists",
    "fileset",
    "filemd5",
    "filesha1",
    "filesha256",
    "filesha512",
    "filebase64sha256",
    "filebase64sha512",
    "templatefile",
    "abspath",
];

pub(super) fn check(
    m: &MergedModule,
    walked: &Walked<'_>,
    scope: &WalkScope<'_>,
    out: &mut Vec<Diagnostic>,
) {
    for visit in walked.iter() {
        let place = visit.place();
        let Err(error) = evaluate(visit.expr, scope) else {
            continue;
        };
        let Some(code) = reportable(&error) else {
            continue;
        };
        let origin = Origin {
            file: place.file,
            span: error.span,
        };
        out.push(at(
            m,
            origin,
            Severity::Error,
            code,
            error.summary,
            error.detail,
        ));
    }
}
