//! Fixes for what an override file may not do: a `depends_on` moved out of the override
//! into the block it overrides (Terraform refuses to override `depends_on`), and the base
//! declaration created for an override that has none. Either file may be in either
//! syntax: what is taken out and added is written in its file's syntax (a JSON
//! `depends_on` lists its references as strings; values copied across syntaxes by
//! `json_values.rs`).

use super::json_values::value_in;
use super::{file_name, primary_file, Fix, Place};
use crate::check::Diagnostic;
use crate::ide::edits::{
    append_block, append_json_block, append_to_body, append_to_object, remove_item,
    remove_property, FileEdit,
};
use crate::merge::{MergedModule, MissingBase};
use crate::module::SourceFile;
use crate::syntax::{Attribute, Block, ExprKind, JsonKind, Span, Syntax};

/// Terraform's summary for a `depends_on` in an override block.
const OVERRIDDEN_DEPENDS_ON: &str = "The depends_on argument may not be overridden.";

/// The fix for `d` when it is an override's problem.
pub(super) fn fixes(place: &Place, d: &Diagnostic) -> Option<Fix> {
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
    let moved = DependsOn::of(&place.file, attr)?;
    let decl = m.object_at(file, offset)?.provenance();
    if decl.decl.file == file {
        return None;
    }
    let base_source = m.file(decl.decl.file);
    let base = base_source
        .syntax
        .body
        .blocks
        .iter()
        .find(|b| b.span == decl.decl_span)?;
    let into_base = add_dependencies(base_source, base, &moved.references)?;
    let taken_out = match place.native() {
        true => remove_item(&place.file, attr.span),
        false => remove_property(&place.file, attr.span),
    };
    Some(Fix {
        title: format!(
            "Move depends_on into the base block in {}",
            file_name(base_source)
        ),
        edits: vec![taken_out, into_base],
        safe: true,
        fixes: Vec::new(),
    })
}

/// A `depends_on` list as written.
struct DependsOn {
    /// Each element's reference (a JSON string's text).
    references: Vec<String>,
    /// Where each element is written.
    elements: Vec<Span>,
    /// The list's `]`.
    close: usize,
}

impl DependsOn {
    /// The list of `attr`, a `depends_on` argument of `source`; `None` when it is no
    /// list (or, in JSON, lists anything but strings).
    fn of(source: &SourceFile, attr: &Attribute) -> Option<Self> {
        let (references, elements) = match &attr.expr.kind {
            ExprKind::Tuple(items) => (
                items
                    .iter()
                    .map(|i| source.text.get(i.span.range()).map(str::to_string))
                    .collect::<Option<Vec<_>>>()?,
                items.iter().map(|i| i.span).collect(),
            ),
            ExprKind::Json(value) => {
                let JsonKind::Array(items) = &value.kind else {
                    return None;
                };
                let strings = items.iter().map(|i| match &i.kind {
                    JsonKind::String(s) => Some(s.to_string()),
                    _ => None,
                });
                (
                    strings.collect::<Option<Vec<_>>>()?,
                    items.iter().map(|i| i.span).collect(),
                )
            }
            _ => return None,
        };
        let close = (attr.expr.span.end as usize).checked_sub(1)?;
        (source.text.get(close..close + 1) == Some("]")).then_some(Self {
            references,
            elements,
            close,
        })
    }
}

/// A reference as an element of a `depends_on` list of `syntax`.
fn element(reference: &str, syntax: Syntax) -> String {
    match syntax {
        Syntax::Native => reference.to_string(),
        Syntax::Json => serde_json::Value::from(reference).to_string(),
    }
}

/// `added` references appended to `base`'s `depends_on` list (those it already lists
/// left out), or a `depends_on` argument holding them.
fn add_dependencies(source: &SourceFile, base: &Block, added: &[String]) -> Option<FileEdit> {
    let syntax = source.syntax.syntax;
    let Some(existing) = base.body.attribute("depends_on") else {
        let list: Vec<String> = added.iter().map(|r| element(r, syntax)).collect();
        let list = list.join(", ");
        return match syntax {
            Syntax::Native => append_to_body(source, base, &[format!("depends_on = [{list}]")]),
            Syntax::Json => {
                let close = (base.span.end as usize).checked_sub(1)?;
                append_to_object(source, close, &[format!("\"depends_on\": [{list}]")])
            }
        };
    };
    let listed = DependsOn::of(source, existing)?;
    let new: Vec<String> = added
        .iter()
        .filter(|a| !listed.references.contains(a))
        .map(|r| element(r, syntax))
        .collect();
    let close = listed.close;
    let (at, prefix) = match listed.elements.last() {
        Some(last) => {
            // After the last element (and its trailing comma, if written).
            let end = last.end as usize;
            let comma = source.text[end..close].find(',').map(|i| end + i + 1);
            (
                comma.unwrap_or(end),
                if comma.is_some() { " " } else { ", " },
            )
        }
        None => (close, ""),
    };
    Some(FileEdit {
        path: source.path.clone(),
        span: Span::new(at, at),
        new_text: if new.is_empty() {
            String::new()
        } else {
            format!("{prefix}{}", new.join(", "))
        },
    })
}

/// The declaration an orphan override block overrides, created empty (with what its
/// kind requires, copied from the override) at the end of the module's main file, in
/// that file's syntax.
fn create_base(place: &Place, missing: &MissingBase) -> Option<Fix> {
    let m = &*place.merged;
    let target = main_file(m)?;
    let syntax = target.syntax.syntax;
    let offset = missing.origin.span.start as usize;
    let overriding = place.top_level_block(offset)?;
    let copied = |name: &str| {
        let attr = overriding.body.attribute(name)?;
        value_in(&place.file, attr, syntax)
    };
    let n = missing.name.as_str();
    let q = missing.qualifier.as_deref().unwrap_or_default();
    let null = || "null".to_string();
    let (labels, body): (Vec<&str>, Vec<(&str, String)>) = match missing.kind {
        "locals" => (Vec::new(), vec![(n, copied(n).unwrap_or_else(null))]),
        "variable" => (vec![n], Vec::new()),
        "output" => (
            vec![n],
            vec![("value", copied("value").unwrap_or_else(null))],
        ),
        "module" => (
            vec![n],
            copied("source")
                .map(|v| ("source", v))
                .into_iter()
                .collect(),
        ),
        "provider" => (
            vec![n],
            vec![("alias", serde_json::Value::from(q).to_string())],
        ),
        _ => (vec![q, n], Vec::new()),
    };
    let edit = match syntax {
        Syntax::Native => {
            let header: String = std::iter::once(missing.kind.to_string())
                .chain(labels.iter().map(|l| format!("\"{l}\"")))
                .collect::<Vec<_>>()
                .join(" ");
            let block = match body.is_empty() {
                true => format!("{header} {{}}"),
                false => {
                    let lines: String =
                        body.iter().map(|(k, v)| format!("  {k} = {v}\n")).collect();
                    format!("{header} {{\n{lines}}}")
                }
            };
            append_block(target, &block)
        }
        Syntax::Json => {
            let properties: Vec<String> = body
                .iter()
                .map(|(k, v)| format!("{}: {v}", serde_json::Value::from(*k)))
                .collect();
            append_json_block(target, missing.kind, &labels, &properties)?
        }
    };
    Some(Fix {
        title: format!("Create the base declaration in {}", file_name(target)),
        edits: vec![edit],
        safe: false,
        fixes: Vec::new(),
    })
}

/// The module's `main.tf`, else its first primary file in the native syntax, else
/// `main.tf.json`, else its first primary file in the JSON syntax.
fn main_file(m: &MergedModule) -> Option<&SourceFile> {
    let count = m.files.len() as u32;
    let index = [(Syntax::Native, "main.tf"), (Syntax::Json, "main.tf.json")]
        .into_iter()
        .find_map(|(syntax, named)| {
            let fit = |i: &u32| primary_file(m, *i, syntax);
            (0..count)
                .filter(fit)
                .find(|&i| m.file_name(i) == named)
                .or_else(|| (0..count).find(fit))
        })?;
    Some(m.file(index))
}
