//! The errors of function calls that the validate walk evaluates
//! (`hclsyntax.FunctionCallExpr.Value`): every expression Terraform evaluates at validate
//! time (`evaluated.rs`) is evaluated with the names the walk gives (`walk_scope.rs`), and
//! a call whose arguments are known and wrong is `Invalid function argument` (at the
//! argument) or `Error in function call` (at the call).
//!
//! Only what Strata is sure of is reported: the first error of each expression, only
//! function-call errors (its other evaluation errors are not yet in HCL's words), never
//! the filesystem functions (Terraform reads files relative to the directory it runs in,
//! which Strata does not know for a module checked on its own), and nothing in a module
//! with override files (Terraform evaluates only the merged result, which the walk over
//! the written blocks does not follow).

use super::walk_scope::WalkScope;
use super::{at, Diagnostic, Severity};
use crate::eval::evaluate;
use crate::merge::{MergedModule, Origin};

/// Code of a function call the validate walk rejects.
pub const FUNCTION_ERROR: &str = "function-error";

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

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    if (0..m.files.len()).any(|fi| m.is_override_file(fi as u32)) {
        return;
    }
    let scope = WalkScope::new(m);
    super::evaluated::walk(m, |expr, place| {
        let r = evaluate(expr, &scope);
        let Err(error) = r else {
            return;
        };
        let Some(function) = &error.function else {
            return;
        };
        let bare = function.strip_prefix("core::").unwrap_or(function);
        if FILESYSTEM.contains(&bare) {
            return;
        }
        let origin = Origin {
            file: place.file,
            span: error.span,
        };
        out.push(at(
            m,
            origin,
            Severity::Error,
            FUNCTION_ERROR,
            error.summary,
            error.detail,
        ));
    });
}
