//! A variable's `default` as `show -json` writes it.

use serde_json::Value;

use crate::eval::constant;
use crate::merge::{Attr, MergedModule};

/// A variable's default as Terraform stores it: converted to its type constraint, with
/// the optional-attribute defaults of the base's type filled in (spec §1.7, §2.5). A
/// default that does not convert (an error elsewhere) is shown as written.
pub(super) fn variable_default(m: &MergedModule, v: &crate::merge::Variable) -> Option<Value> {
    let written = constant(v.default.as_ref()?.expr()).unwrap_or(Value::Null);
    let parse = |a: Option<&Attr>| {
        let a = a?;
        let syntax = m.file(a.file).syntax.syntax;
        crate::types::parse_type_argument(a.expr(), syntax, m.dialect)?.ok()
    };
    let Some(ty) = parse(v.type_constraint.as_ref()) else {
        return Some(written);
    };
    let defaults = parse(v.defaults_type.as_ref()).unwrap_or_else(|| ty.clone());
    let filled = if written.is_null() {
        written.clone()
    } else {
        crate::types::apply_defaults(&written, &defaults)
    };
    match crate::types::convert(&filled, &ty) {
        // Typed again so that sets are in cty's order, as `show -json` prints them.
        Ok(converted) => Some(crate::eval::Value::from_typed_json(&converted, &ty).to_json()),
        Err(_) => Some(written),
    }
}
