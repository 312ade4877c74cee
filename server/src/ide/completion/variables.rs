//! Input variables as suggestions: as a reference after `var.` (the effective type and
//! default as detail), and as an argument to give a value to, in a `module` block of a
//! local child module or in a `.tfvars` file (those without a default first).

use super::references::source_text;
use super::{escape_snippet, Item, ItemKind};
use crate::merge::{literal_string, MergedModule, Variable};

/// A variable's description, when it is a literal string.
fn description(v: &Variable) -> String {
    v.description
        .as_ref()
        .and_then(|d| literal_string(d.expr()))
        .unwrap_or_default()
        .to_string()
}

/// `var.NAME`'s suggestion, sorted in `group`: its type and default as written, an
/// override's replacing the base's.
pub fn reference(m: &MergedModule, v: &Variable, group: u8) -> Item {
    let ty = v.type_constraint.as_ref().map(|t| source_text(m, t));
    let default = v.default.as_ref().map(|d| source_text(m, d));
    let detail = match (ty, default) {
        (Some(t), Some(d)) => format!("{t} = {d}"),
        (Some(t), None) => t,
        (None, Some(d)) => format!("= {d}"),
        (None, None) => "any".into(),
    };
    Item::plain(&v.name, ItemKind::Variable, group)
        .detail(detail)
        .doc(description(v))
}

/// The suggestion to give variable `v` of module `m` a value (`NAME = `): group 0 when
/// it has no default, else 1.
pub fn input(m: &MergedModule, v: &Variable, snippets: bool) -> Item {
    let required = v.default.is_none();
    let ty = v
        .type_constraint
        .as_ref()
        .map_or_else(|| "any".to_string(), |t| source_text(m, t));
    let detail = match &v.default {
        None => format!("required {ty}"),
        Some(d) => format!("{ty} = {}", source_text(m, d)),
    };
    Item::plain(&v.name, ItemKind::Argument, u8::from(!required))
        .detail(detail)
        .doc(description(v))
        .insert(
            snippets,
            format!("{} = $0", escape_snippet(&v.name)),
            format!("{} = ", v.name),
        )
}
