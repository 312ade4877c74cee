//! The problems Terraform reports in a root module's variable definitions file when it
//! plans with it (`terraform plan` reads `terraform.tfvars` and `*.auto.tfvars` itself,
//! others with `-var-file`; `validate` reads none): a value for a variable the module
//! does not declare (`Value for undeclared variable`, a warning), each part of a value
//! that refers to something (`Variables not allowed`) or calls a function (`Function
//! calls not allowed`), every one HCL finds, a block (the file holds arguments only: `plan::block_problems`), and a
//! value that does not convert to the variable's type (`Invalid value for input
//! variable`). Terraform gives the undeclared value no place; the editor shows it at
//! the name.

use std::path::Path;

use super::tfvars::tfvars_file;
use crate::check::{Diagnostic, Severity};
use crate::plan::{block_problems, definitions, unsuitable_in_file, variable_type, Definition};
use crate::syntax::SyntaxSeverity;
use crate::types::convert;
use crate::workspace::Workspace;

/// Code of a problem of a variable definitions file.
pub const TFVARS: &str = "tfvars-value";

/// The problems of the variable definitions file at `path` for the module of its
/// directory.
pub fn diagnostics(ws: &Workspace, path: &Path) -> Vec<Diagnostic> {
    let (Some(file), Some(m)) = (
        tfvars_file(ws, path),
        path.parent().and_then(|d| ws.merged(d)),
    ) else {
        return Vec::new();
    };
    let at = |severity, span, summary: &str, detail: String| Diagnostic {
        severity,
        summary: summary.to_string(),
        detail,
        path: path.to_path_buf(),
        span,
        code: TFVARS,
        related: Vec::new(),
        values: Vec::new(),
    };
    let syntax_errors: Vec<Diagnostic> = file
        .syntax
        .diagnostics
        .iter()
        .filter(|d| d.severity == SyntaxSeverity::Error)
        .map(|d| at(Severity::Error, d.span, &d.summary, d.detail.clone()))
        .collect();
    if !syntax_errors.is_empty() {
        return syntax_errors; // Terraform reads no value of a file that does not parse.
    }
    let shown = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let blocks = block_problems(&shown, &file.syntax.body);
    if !blocks.is_empty() {
        // Terraform reads no value of a file with blocks.
        return blocks
            .into_iter()
            .map(|p| at(Severity::Error, p.span, &p.summary, p.detail))
            .collect();
    }
    let mut out = Vec::new();
    for (a, definition) in definitions(&m, &shown, &file.syntax.body) {
        match definition {
            Definition::Undeclared { detail, .. } => out.push(at(
                Severity::Warning,
                a.name.span,
                "Value for undeclared variable",
                detail,
            )),
            Definition::Failed(errors) => out.extend(
                errors
                    .into_iter()
                    .map(|e| at(Severity::Error, e.span, &e.summary, e.detail)),
            ),
            Definition::Value { name, value } => {
                let Some(v) = m.variables.get(&name) else {
                    continue;
                };
                if let Err(e) = convert(&value, &variable_type(&m, v)) {
                    out.push(at(
                        Severity::Error,
                        a.expr.span,
                        "Invalid value for input variable",
                        unsuitable_in_file(&m, v, &e.bare()),
                    ));
                }
            }
        }
    }
    out
}
