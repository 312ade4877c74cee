//! Fixes for what an override file may not do: a `depends_on` moved out of the override
//! into the block it overrides (Terraform refuses to override `depends_on`), and the base
//! declaration created for an override that has none.

use super::{file_name, writable, Fix, Place};
use crate::check::Diagnostic;
use crate::ide::edits::{append_block, append_to_body, remove_item, FileEdit};
use crate::merge::{MergedModule, MissingBase};
use crate::module::SourceFile;
use crate::syntax::{Block, ExprKind, Span, Syntax};

/// Terraform's summary for a `depends_on` in an override block.
const OVERRIDDEN_DEPENDS_ON: &str = "The depends_on argument may not be overridden.";

/// The fix for `d` when it is an override's problem.
pub(super) fn fixes(place: &Place, d: &Diagnostic) -> Option<Fix> {
    if !place.native() {
        return None; // They move and copy text of the native syntax.
    }
    if d.detail == OVERRIDDEN_DEPENDS_ON {
        return move_depends_on(place, d);
    }
    let m = &*place.merged;
    let file = m.file_index(&place.file.path)?;
    let missing = m
        .missing_bases
        .iter()
        .find(|b| b.origin.file == file && b.origin.span == d.span)?;
    create_base(place, missing)
}

/// The override's `depends_on` (its diagnostic is at the first element) taken out, and
/// its elements added to the base block's `depends_on` (which it gets when it has none).
fn move_depends_on(place: &Place, d: &Diagnostic) -> Option<Fix> {
    let m = &*place.merged;
    let file = m.file_index(&place.file.path)?;
    let offset = d.span.start as usize;
    let overriding = place.top_level_block(offset)?;
    let attr = overriding.body.attribute("depends_on")?;
    let ExprKind::Tuple(items) = &attr.expr.kind else {
        return None;
    };
    let decl = m.object_at(file, offset)?.provenance();
    let base_source = m.file(decl.decl.file);
    if decl.decl.file == file || base_source.syntax.syntax != Syntax::Native {
        return None;
    }
    let base = base_source
        .syntax
        .body
        .blocks
        .iter()
        .find(|b| b.span == decl.decl_span)?;
    let text = |s: &SourceFile, span: Span| s.text.get(span.range()).map(str::to_string);
    let added: Vec<String> = items
        .iter()
        .filter_map(|i| text(&place.file, i.span))
        .collect();
    let into_base = add_dependencies(base_source, base, &added)?;
    Some(Fix {
        title: format!(
            "Move depends_on into the base block in {}",
            file_name(base_source)
        ),
        edits: vec![remove_item(&place.file, attr.span), into_base],
        safe: true,
        fixes: Vec::new(),
    })
}

/// `added` references appended to `base`'s `depends_on` list (those it already lists
/// left out), or a `depends_on` argument holding them.
fn add_dependencies(source: &SourceFile, base: &Block, added: &[String]) -> Option<FileEdit> {
    let Some(existing) = base.body.attribute("depends_on") else {
        let line = format!("depends_on = [{}]", added.join(", "));
        return append_to_body(source, base, &[line]);
    };
    let ExprKind::Tuple(items) = &existing.expr.kind else {
        return None;
    };
    let listed: Vec<&str> = items
        .iter()
        .filter_map(|i| source.text.get(i.span.range()))
        .collect();
    let new: Vec<&String> = added
        .iter()
        .filter(|a| !listed.contains(&a.as_str()))
        .collect();
    let close = (existing.expr.span.end as usize).checked_sub(1)?;
    let (at, prefix) = match items.last() {
        Some(last) => {
            // After the last element (and its trailing comma, if written).
            let end = last.span.end as usize;
            let comma = source.text[end..close].find(',').map(|i| end + i + 1);
            (
                comma.unwrap_or(end),
                if comma.is_some() { " " } else { ", " },
            )
        }
        None => (close, ""),
    };
    let joined = new
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    Some(FileEdit {
        path: source.path.clone(),
        span: Span::new(at, at),
        new_text: if new.is_empty() {
            String::new()
        } else {
            format!("{prefix}{joined}")
        },
    })
}

/// The declaration an orphan override block overrides, created empty (with what its
/// kind requires, copied from the override) at the end of the module's main file.
fn create_base(place: &Place, missing: &MissingBase) -> Option<Fix> {
    let m = &*place.merged;
    let target = main_file(m)?;
    let offset = missing.origin.span.start as usize;
    let overriding = place.top_level_block(offset)?;
    let copied = |name: &str| {
        overriding
            .body
            .attribute(name)
            .and_then(|a| place.text(a.span))
            .map(str::to_string)
    };
    let n = &missing.name;
    let q = missing.qualifier.as_deref().unwrap_or_default();
    let (header, body): (String, Vec<String>) = match missing.kind {
        "locals" => {
            let value = overriding
                .body
                .attribute(n)
                .and_then(|a| place.text(a.expr.span));
            (
                "locals".into(),
                vec![format!("{n} = {}", value.unwrap_or("null"))],
            )
        }
        "variable" => (format!("variable \"{n}\""), Vec::new()),
        "output" => (
            format!("output \"{n}\""),
            vec![copied("value").unwrap_or_else(|| "value = null".into())],
        ),
        "module" => (
            format!("module \"{n}\""),
            copied("source").into_iter().collect(),
        ),
        "provider" => (
            format!("provider \"{n}\""),
            vec![format!("alias = \"{q}\"")],
        ),
        kind => (format!("{kind} \"{q}\" \"{n}\""), Vec::new()),
    };
    let block = match body.is_empty() {
        true => format!("{header} {{}}"),
        false => {
            let lines: String = body.iter().map(|l| format!("  {l}\n")).collect();
            format!("{header} {{\n{lines}}}")
        }
    };
    Some(Fix {
        title: format!("Create the base declaration in {}", file_name(target)),
        edits: vec![append_block(target, &block)],
        safe: false,
        fixes: Vec::new(),
    })
}

/// The module's `main.tf`, else its first primary file in the native syntax.
fn main_file(m: &MergedModule) -> Option<&SourceFile> {
    let count = m.files.len() as u32;
    let fit = |i: &u32| writable(m, *i);
    let index = (0..count)
        .filter(fit)
        .find(|&i| m.file_name(i) == "main.tf")
        .or_else(|| (0..count).find(fit))?;
    Some(m.file(index))
}
