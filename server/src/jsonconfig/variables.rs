//! A variable's `default` as `show -json` writes it: the value Terraform's loader keeps
//! after decoding the block that sets it and merging its overrides.

use serde_json::Value;

use super::expressions::constant_value;
use crate::merge::{Attr, MergedModule, Variable};
use crate::types::{apply_defaults, convert, parse_type_argument, Type};

/// A variable's default as Terraform stores it. Decoding the block that sets it fills in
/// the optional-attribute defaults of that block's own `type` (a non-null default only)
/// and converts it to that type; an override block without `type` converts nothing.
/// Merging then converts the default to the merged type constraint, with no defaults
/// filled in (spec §1.7). A default that does not convert (an error elsewhere) is shown
/// as written.
pub(super) fn variable_default(m: &MergedModule, v: &Variable) -> Option<Value> {
    let default = v.default.as_ref()?;
    let written = constant_value(default.expr()).unwrap_or(Value::Null);
    let mut value = written.clone();
    if let Some(own) = declaring_type(m, v, default) {
        if !value.is_null() {
            value = apply_defaults(&value, &own);
        }
        match convert(&value, &own) {
            Ok(converted) => value = converted,
            Err(_) => return Some(written),
        }
    }
    let Some(ty) = parse(m, v.type_constraint.as_ref()) else {
        return Some(value);
    };
    match convert(&value, &ty) {
        // Typed again so that sets are in cty's order, as `show -json` prints them.
        Ok(converted) => Some(crate::eval::Value::from_typed_json(&converted, &ty).to_json()),
        Err(_) => Some(written),
    }
}

/// The type constraint written in the same `variable` block as `default`, if any.
fn declaring_type(m: &MergedModule, v: &Variable, default: &Attr) -> Option<Type> {
    let file = &m.file(default.file).syntax;
    let block = file.body.blocks.iter().find(|b| {
        &*b.kind.name == "variable"
            && b.label(0) == Some(v.name.as_str())
            && b.body
                .attribute("default")
                .is_some_and(|a| std::sync::Arc::ptr_eq(a, &default.attr))
    })?;
    let ty = block.body.attribute("type")?;
    parse_type_argument(&ty.expr, file.syntax, m.dialect)?.ok()
}

fn parse(m: &MergedModule, a: Option<&Attr>) -> Option<Type> {
    let a = a?;
    let syntax = m.file(a.file).syntax.syntax;
    parse_type_argument(a.expr(), syntax, m.dialect)?.ok()
}
