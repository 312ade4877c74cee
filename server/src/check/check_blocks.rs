//! `check` blocks as Terraform decodes them (`internal/configs/checks.go`): at most one
//! scoped data source, which takes no `count`, `for_each` or `lifecycle`, and at least
//! one `assert` that decodes cleanly (both arguments, nothing else, a condition that
//! refers to something).

use super::{at, range_text, Diagnostic, Severity};
use crate::eval::references;
use crate::merge::{header_span, MergedModule, Origin};
use crate::syntax::{Block, Span};

/// Code of a malformed check block.
pub const CHECK_BLOCK: &str = "invalid-check-block";

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for (fi, file) in m.files.iter().enumerate() {
        if m.is_override_file(fi as u32) {
            continue; // Override files may not hold check blocks (overrides.rs).
        }
        for block in file.syntax.body.blocks_of("check") {
            if block.labels.len() == 1 {
                check_block(m, fi as u32, block, out);
            }
        }
    }
}

fn check_block(m: &MergedModule, file: u32, block: &Block, out: &mut Vec<Diagnostic>) {
    let mut push = |span: Span, summary: &str, detail: String| {
        out.push(at(
            m,
            Origin { file, span },
            Severity::Error,
            CHECK_BLOCK,
            summary.into(),
            detail,
        ));
    };
    let mut first_data: Option<&Block> = None;
    for data in block.body.blocks_of("data").filter(|d| d.labels.len() == 2) {
        if let Some(first) = first_data {
            let first = range_text(
                m,
                Origin {
                    file,
                    span: header_span(first),
                },
            );
            push(
                header_span(data),
                "Multiple data resource blocks",
                format!("This check block already has a data resource defined at {first}."),
            );
            continue;
        }
        let mut clean = true;
        for (arg, summary) in [
            ("count", "Invalid \"count\" attribute"),
            ("for_each", "Invalid \"for_each\" attribute"),
        ] {
            if let Some(a) = data.body.attribute(arg) {
                clean = false;
                push(
                    a.name.span,
                    summary,
                    "The \"count\" and \"for_each\" meta-arguments are not supported within nested data blocks.".into(),
                );
            }
        }
        for lc in data.body.blocks_of("lifecycle") {
            clean = false;
            push(
                header_span(lc),
                "Invalid lifecycle block",
                "Nested data blocks do not support \"lifecycle\" blocks as the lifecycle is managed by the containing block.".into(),
            );
        }
        // Terraform keeps only a data source that decoded without errors.
        if clean {
            first_data = Some(data);
        }
    }
    if !block.body.blocks_of("assert").any(|a| decodes_cleanly(a)) {
        push(
            header_span(block),
            "Zero assert blocks",
            "Check blocks must have at least one assert block.".into(),
        );
    }
}

/// Whether Terraform decodes an `assert` without error, and so counts it.
fn decodes_cleanly(assert: &Block) -> bool {
    let only_known = assert
        .body
        .attributes
        .iter()
        .all(|a| matches!(&*a.name.name, "condition" | "error_message"));
    let condition_refers = assert
        .body
        .attribute("condition")
        .is_some_and(|c| !references(&c.expr).is_empty());
    only_known
        && assert.body.blocks.is_empty()
        && assert.body.attribute("error_message").is_some()
        && condition_refers
}
