//! Forms Terraform still accepts but has deprecated, reported as warnings in its words:
//! the texts shared by every family that meets a quoted reference or keyword, and
//! `depends_on` entries written as quoted strings (`internal/configs/depends_on.go`).

use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Origin};
use crate::syntax::{ExprKind, Syntax};

/// Code of a deprecated form Terraform still accepts.
pub const DEPRECATED: &str = "deprecated";

/// The detail Terraform gives for a reference written in quotes.
pub const QUOTED_REFERENCE: &str = "In this context, references are expected literally rather than in quotes. Terraform 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of Terraform. Remove the quotes surrounding this reference to silence this warning.";

/// The detail Terraform gives for a keyword written in quotes.
pub const QUOTED_KEYWORD: &str = "In this context, keywords are expected literally rather than in quotes. Terraform 0.11 and earlier required quotes, but quoted keywords are now deprecated and will be removed in a future version of Terraform. Remove the quotes surrounding this keyword to silence this warning.";

/// `Quoted references are deprecated` for each quoted entry of a `depends_on`.
pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for (fi, file) in m.files.iter().enumerate() {
        if file.syntax.syntax == Syntax::Json {
            continue; // JSON strings are always quoted; they are the JSON form, not this one.
        }
        let blocks = file.syntax.body.blocks.iter().flat_map(|b| {
            let nested = b
                .body
                .blocks_of("data")
                .filter(move |_| &*b.kind.name == "check");
            std::iter::once(b).chain(nested)
        });
        for block in blocks {
            let Some(a) = block.body.attribute("depends_on") else {
                continue;
            };
            let ExprKind::Tuple(items) = &a.expr.kind else {
                continue;
            };
            for item in items
                .iter()
                .filter(|i| matches!(i.kind, ExprKind::String(_)))
            {
                let origin = Origin {
                    file: fi as u32,
                    span: item.span,
                };
                out.push(at(
                    m,
                    origin,
                    Severity::Warning,
                    DEPRECATED,
                    "Quoted references are deprecated".into(),
                    QUOTED_REFERENCE.into(),
                ));
            }
        }
    }
}
