//! Syntax diagnostics: what the parser (and file reading) found, per file.

use super::{Diagnostic, Related, Severity};
use crate::module::Module;
use crate::syntax::SyntaxSeverity;

/// Code of a syntax error.
pub const SYNTAX_ERROR: &str = "syntax-error";
/// Code of a file that could not be read.
pub const UNREADABLE_FILE: &str = "unreadable-file";
/// Code of an expression Terraform accepts but Strata could not analyse.
pub const UNANALYSED_EXPRESSION: &str = "unanalysed-expression";

pub(super) fn check(module: &Module, out: &mut Vec<Diagnostic>) {
    for source in &module.sources {
        for d in &source.syntax.diagnostics {
            if d.summary == "Failed to read file" {
                // Terraform gives it no range; the editor shows it on the file itself.
                let mut unreadable = Diagnostic::without_range(
                    Severity::Error,
                    UNREADABLE_FILE,
                    d.summary.clone(),
                    d.detail.clone(),
                );
                unreadable.related.push(Related {
                    path: source.path.clone(),
                    span: d.span,
                    message: "the file that could not be read".into(),
                });
                out.push(unreadable);
                continue;
            }
            let (severity, code) = match d.severity {
                SyntaxSeverity::Error => (Severity::Error, SYNTAX_ERROR),
                SyntaxSeverity::Note => (Severity::Information, UNANALYSED_EXPRESSION),
            };
            out.push(Diagnostic {
                severity,
                summary: d.summary.clone(),
                detail: match d.cited {
                    Some(span) => d
                        .detail
                        .replace("{range}", &super::file_range_text(source, span)),
                    None => d.detail.clone(),
                },
                path: source.path.clone(),
                span: d.span,
                code,
                related: Vec::new(),
                values: Vec::new(),
            });
        }
    }
}
