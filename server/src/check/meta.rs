//! Meta-argument checks (spec §3.7): `count` and `for_each` on one resource, data source,
//! ephemeral resource or module call is an error,
//! checked block by block as Terraform decodes them; and, beyond Terraform, a warning
//! when merging leaves both set (from different blocks), where Terraform silently uses
//! `count`.

use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Origin};
use crate::module::Dialect;
use crate::syntax::{Block, Span};

/// Code of `count` with `for_each` in one block.
pub const COUNT_AND_FOR_EACH: &str = "count-and-for-each";
/// Code of `count` and `for_each` both in effect after merging.
pub const MERGED_COUNT_AND_FOR_EACH: &str = "override-count-and-for-each";

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for (fi, file) in m.files.iter().enumerate() {
        for block in &file.syntax.body.blocks {
            if let Some(d) = same_block(m, fi as u32, block) {
                out.push(d);
            }
        }
    }
    for r in m.resources.values() {
        let (Some(count), Some(for_each)) = (&r.count, &r.for_each) else {
            continue;
        };
        let same_block = count.file == for_each.file
            && m.file(count.file).syntax.body.blocks.iter().any(|b| {
                b.span.contains(count.attr.span.start as usize)
                    && b.span.contains(for_each.attr.span.start as usize)
            });
        if same_block {
            continue; // Already an error on that block.
        }
        out.push(at(
            m,
            for_each.origin(),
            Severity::Warning,
            MERGED_COUNT_AND_FOR_EACH,
            "Both \"count\" and \"for_each\" in effect".into(),
            format!(
                "After override files are merged, {} has count (from {}) and for_each (from {}). Terraform does not report this and silently uses count; remove the one that should not apply.",
                r.key,
                m.describe(count.origin()),
                m.describe(for_each.origin())
            ),
        )
        .with_related(m, count.origin(), "count is set here"));
    }
}

fn same_block(m: &MergedModule, file: u32, block: &Block) -> Option<Diagnostic> {
    let things = match &*block.kind.name {
        "resource" => "resources",
        "data" => "data sources",
        "ephemeral" => "ephemeral resources",
        "module" => "module instances",
        _ => return None,
    };
    let count = block
        .body
        .attribute("count")
        .map(|a| ("count", a.name.span));
    let for_each = block
        .body
        .attribute("for_each")
        .map(|a| ("for_each", a.name.span));
    let (detail_names, summary_names, span) = match m.dialect {
        Dialect::Terraform => {
            let (_, for_each_span) = for_each?;
            count?;
            (
                "\"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.".to_string(),
                "\"count\" and \"for_each\"".to_string(),
                for_each_span,
            )
        }
        Dialect::OpenTofu => {
            // OpenTofu also counts lifecycle `enabled`, and spans first to last name.
            let enabled = block
                .body
                .blocks_of("lifecycle")
                .find_map(|lc| lc.body.attribute("enabled"))
                .map(|a| ("enabled", a.name.span));
            let present: Vec<(&str, Span)> =
                [count, enabled, for_each].into_iter().flatten().collect();
            if present.len() < 2 {
                return None;
            }
            let names = quoted_list(&present.iter().map(|(n, _)| *n).collect::<Vec<_>>());
            // OpenTofu words the module call's rule a little differently.
            let may = if things == "module instances" {
                "should"
            } else {
                "may"
            };
            let start = present.iter().map(|(_, s)| s.start).min()?;
            let end = present.iter().map(|(_, s)| s.end).max()?;
            (
                format!("{names} meta-arguments are mutually-exclusive. Only one {may} be used to be explicit about the number of {things} to be created."),
                names,
                Span { start, end },
            )
        }
    };
    Some(at(
        m,
        Origin { file, span },
        Severity::Error,
        COUNT_AND_FOR_EACH,
        format!("Invalid combination of {summary_names}"),
        format!("The {detail_names}"),
    ))
}

/// `"a" and "b"`, or `"a", "b", and "c"`.
fn quoted_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    match quoted.as_slice() {
        [a, b] => format!("{a} and {b}"),
        [rest @ .., last] => format!("{}, and {last}", rest.join(", ")),
        [] => String::new(),
    }
}
