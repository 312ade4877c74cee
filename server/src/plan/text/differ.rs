//! The diff of a resource's object by its schema (`jsonformat/differ`): a block's
//! attributes by their types (nested attribute types by their nesting), its nested
//! blocks by their nesting mode, each value first checked for sensitivity, then for
//! being unknown. Without a schema (a provider Strata has none for), every attribute is
//! of dynamic type and the nested block types the plan knows are lists.

use std::collections::BTreeMap;

use serde_json::{Map, Value as Json};

use super::diff::{compare_actions, BlockGroup, Blocks, Diff, Primitive, Renderer};
use super::json::json_diff;
use super::structured::Change;
use super::transform::{process_set, transform_map, transform_slice};
use crate::plan::Action;
use crate::schema::{AttributeSchema, BlockSchema, Nesting, ValueType};

/// What the differ knows of a block's shape.
#[derive(Clone, Copy)]
pub(super) enum Shape<'a> {
    /// The provider's schema.
    Schema(&'a BlockSchema),
    /// None: every attribute is dynamic, and these keys are nested block lists.
    Inferred(&'a [String]),
}

/// The type of a value the schema leaves open.
static DYNAMIC: ValueType = ValueType::Dynamic;

/// An attribute of a block or nested object: its type, or its nested attributes.
#[derive(Clone, Copy)]
enum Kind<'a> {
    Type(&'a ValueType),
    Nested(Nesting, &'a [AttributeSchema]),
}

struct Attribute<'a> {
    name: &'a str,
    kind: Kind<'a>,
    write_only: bool,
}

fn attribute_of(a: &AttributeSchema) -> Attribute<'_> {
    let kind = match (&a.nested, &a.value_type) {
        (Some(n), _) => Kind::Nested(n.nesting, &n.attributes),
        (None, Some(t)) => Kind::Type(t),
        (None, None) => Kind::Type(&DYNAMIC),
    };
    Attribute {
        name: &a.name,
        kind,
        write_only: a.write_only,
    }
}

/// A block's attributes: the schema's, or (inferred) every key of the value, known or
/// not, that is no nested block.
fn attributes<'a>(shape: Shape<'a>, change: &'a Change) -> Vec<Attribute<'a>> {
    match shape {
        Shape::Schema(s) => s.attributes.iter().map(attribute_of).collect(),
        Shape::Inferred(blocks) => [&change.before, &change.after, &change.unknown]
            .into_iter()
            .filter_map(Json::as_object)
            .flat_map(Map::keys)
            .filter(|k| !blocks.contains(k))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .map(|name| Attribute {
                name,
                kind: Kind::Type(&DYNAMIC),
                write_only: false,
            })
            .collect(),
    }
}

/// A block's nested block types: name, nesting and shape.
fn block_types(shape: Shape<'_>) -> Vec<(&str, Nesting, Shape<'_>)> {
    match shape {
        Shape::Schema(s) => s
            .blocks
            .iter()
            .map(|b| (&*b.name, b.nesting, Shape::Schema(&b.schema)))
            .collect(),
        Shape::Inferred(blocks) => blocks
            .iter()
            .map(|b| (b.as_str(), Nesting::List, Shape::Inferred(&[])))
            .collect(),
    }
}

/// Whether a schema has what legacy providers cannot declare (`containsNonLegacyFeatures`):
/// then an empty string is shown as a value, not as null.
fn non_legacy(shape: Shape<'_>) -> bool {
    let Shape::Schema(s) = shape else {
        return true;
    };
    let block = s
        .blocks
        .iter()
        .any(|b| matches!(b.nesting, Nesting::Map | Nesting::Group));
    block
        || s.attributes
            .iter()
            .any(|a| match (&a.nested, &a.value_type) {
                (Some(_), _) | (None, None) => true,
                (None, Some(t)) => non_legacy_type(t),
            })
}

fn non_legacy_type(t: &ValueType) -> bool {
    match t {
        _ if has_dynamic(t) => true,
        ValueType::Tuple(_) | ValueType::Object { .. } => true,
        ValueType::List(e) | ValueType::Set(e) | ValueType::Map(e) => match &**e {
            ValueType::List(inner) | ValueType::Set(inner) | ValueType::Map(inner) => !matches!(
                **inner,
                ValueType::String | ValueType::Number | ValueType::Bool
            ),
            _ => false,
        },
        _ => false,
    }
}

fn has_dynamic(t: &ValueType) -> bool {
    match t {
        ValueType::Dynamic => true,
        ValueType::List(e) | ValueType::Set(e) | ValueType::Map(e) => has_dynamic(e),
        ValueType::Tuple(items) => items.iter().any(has_dynamic),
        ValueType::Object { attributes, .. } => attributes.values().any(has_dynamic),
        _ => false,
    }
}

/// The diff of a block (`ComputeDiffForBlock`).
pub(super) fn block(change: Change, shape: Shape<'_>) -> Diff {
    let replace = change.replace.matches();
    if let Some(d) = change.check_sensitive(
        |v| block(v, shape),
        |inner, before, after, action| {
            let inner = Box::new(inner);
            Diff::new(
                Renderer::SensitiveBlock {
                    inner,
                    before,
                    after,
                },
                action,
                replace,
            )
        },
    ) {
        return d;
    }
    let all_unknown = unknown_children(attributes(shape, &change).iter().map(|a| a.name));
    if let Some(d) = change.check_unknown(all_unknown, unknown, |current, before| {
        unknown_after(&current, block(before, shape))
    }) {
        return d;
    }
    let mut change = change;
    change.non_legacy |= non_legacy(shape);
    let mut found = BTreeMap::new();
    let listed = attributes(shape, &change);
    let others = listed.iter().filter(|a| !a.write_only);
    let mut current = attribute_diffs(&change, others, &mut found);
    let mut blocks = BTreeMap::new();
    for (name, nesting, inner) in block_types(shape) {
        let child = change.key(name);
        let unknown = child.is_unknown();
        let (diffs, action) = match nesting {
            Nesting::Set => {
                let (d, a) = block_set(&child, inner);
                (Blocks::Set(d), a)
            }
            Nesting::List => {
                let (d, a) = block_list(&child, inner);
                (Blocks::List(d), a)
            }
            Nesting::Map => {
                let (d, a) = transform_map(child.map_sides(), child.explicit_keys(), |k| {
                    block(child.key(k), inner)
                });
                (Blocks::Map(d), a)
            }
            Nesting::Single | Nesting::Group => {
                let d = block(child.clone(), inner);
                let a = d.action;
                (Blocks::Single(Box::new(d)), a)
            }
        };
        if action == Action::NoOp && child.before.is_null() && child.after.is_null() && !unknown {
            continue;
        }
        let group = BlockGroup {
            blocks: diffs,
            replace: child.replace.matches(),
            before_sensitive: child.is_before_sensitive(),
            after_sensitive: child.is_after_sensitive(),
            unknown,
        };
        blocks.insert(name.to_string(), group);
        current = compare_actions(current, action);
    }
    for a in listed.iter().filter(|a| a.write_only) {
        found.insert(a.name.to_string(), write_only(&change, current));
    }
    let renderer = Renderer::Block {
        attributes: found,
        blocks,
    };
    Diff::new(renderer, current, replace)
}

/// The diff of an output value (`ComputeDiffForOutput`): by its JSON type.
pub(super) fn output(change: Change) -> Diff {
    let replace = change.replace.matches();
    if let Some(d) = change.check_sensitive(
        |v| of_type(v, &DYNAMIC),
        |i, b, a, action| sensitive(i, b, a, action, replace),
    ) {
        return d;
    }
    if let Some(d) = change.check_unknown(Json::Bool(false), unknown, |current, before| {
        unknown_after(&current, of_type(before, &DYNAMIC))
    }) {
        return d;
    }
    json_diff(change)
}

/// `after_unknown` for the before of an unknown object: each attribute unknown.
fn unknown_children<'a>(names: impl Iterator<Item = &'a str>) -> Json {
    Json::Object(names.map(|n| (n.to_string(), Json::Bool(true))).collect())
}

/// A value known only after apply, with nothing before (`processUnknown`).
fn unknown(current: Change) -> Diff {
    let action = current.calculate_action();
    Diff::new(Renderer::Unknown(None), action, current.replace.matches())
}

/// A value known only after apply, after `before`.
fn unknown_after(current: &Change, before: Diff) -> Diff {
    let renderer = Renderer::Unknown(Some(Box::new(before)));
    Diff::new(
        renderer,
        current.calculate_action(),
        current.replace.matches(),
    )
}

/// A write-only attribute: no value, the action of its block (none for an update).
fn write_only(change: &Change, block_action: Action) -> Diff {
    let sensitive = change.is_before_sensitive() || change.is_after_sensitive();
    let action = match block_action {
        Action::Update => Action::NoOp,
        other => other,
    };
    Diff::new(
        Renderer::WriteOnly { sensitive },
        action,
        change.replace.matches(),
    )
}

fn block_list(change: &Change, shape: Shape<'_>) -> (Vec<Diff>, Action) {
    nested_list(change, |c| block(c, shape))
}

fn block_set(change: &Change, shape: Shape<'_>) -> (Vec<Diff>, Action) {
    let mut current = change.default_action();
    let mut elements = Vec::new();
    process_set(change, |c| {
        let d = block(c, shape);
        current = compare_actions(current, d.action);
        elements.push(d);
    });
    (elements, current)
}

/// Elements compared index by index (`processNestedList`).
fn nested_list(change: &Change, mut diff: impl FnMut(Change) -> Diff) -> (Vec<Diff>, Action) {
    let mut current = change.default_action();
    let (before, after) = change.slices();
    let count = before.map_or(0, Vec::len).max(after.map_or(0, Vec::len));
    let mut elements = Vec::new();
    for i in 0..count {
        let d = diff(change.element(i, i));
        current = compare_actions(current, d.action);
        elements.push(d);
    }
    (elements, current)
}

fn attribute(change: Change, kind: Kind<'_>) -> Diff {
    match kind {
        Kind::Type(t) => of_type(change, t),
        Kind::Nested(nesting, attributes) => nested(change, nesting, attributes),
    }
}

/// An attribute of a nested type (`computeDiffForNestedAttribute`).
fn nested(change: Change, nesting: Nesting, attributes: &[AttributeSchema]) -> Diff {
    let replace = change.replace.matches();
    if let Some(d) = change.check_sensitive(
        |v| nested(v, nesting, attributes),
        |i, b, a, action| sensitive(i, b, a, action, replace),
    ) {
        return d;
    }
    let all_unknown = unknown_children(attributes.iter().map(|a| &*a.name));
    if let Some(d) = change.check_unknown(all_unknown, unknown, |current, before| {
        unknown_after(&current, nested(before, nesting, attributes))
    }) {
        return d;
    }
    let single = |c: Change| nested(c, Nesting::Single, attributes);
    let (renderer, action) = match nesting {
        Nesting::Single | Nesting::Group => {
            let (attributes, action) = object(&change, attributes.iter().map(attribute_of));
            let renderer = Renderer::Object {
                attributes,
                nested: true,
            };
            (renderer, action)
        }
        Nesting::Map => {
            let (elements, action) =
                transform_map(change.map_sides(), change.explicit_keys(), |k| {
                    single(change.key(k))
                });
            (
                Renderer::Map {
                    elements,
                    nested: true,
                },
                action,
            )
        }
        Nesting::List => {
            let (elements, action) = nested_list(&change, single);
            (
                Renderer::List {
                    elements,
                    context: false,
                },
                action,
            )
        }
        Nesting::Set => {
            let mut current = change.default_action();
            let mut elements = Vec::new();
            process_set(&change, |c| {
                let d = single(c);
                current = compare_actions(current, d.action);
                elements.push(d);
            });
            (
                Renderer::Set {
                    elements,
                    nested: true,
                },
                current,
            )
        }
    };
    Diff::new(renderer, action, replace)
}

fn sensitive(inner: Diff, before: bool, after: bool, action: Action, replace: bool) -> Diff {
    let inner = Box::new(inner);
    Diff::new(
        Renderer::Sensitive {
            inner,
            before,
            after,
        },
        action,
        replace,
    )
}

/// An object's attributes (`processObject`): write-only ones last, with the object's
/// action so far.
fn object<'a>(
    change: &Change,
    attributes: impl Iterator<Item = Attribute<'a>>,
) -> (BTreeMap<String, Diff>, Action) {
    let mut found = BTreeMap::new();
    let (write_only_attributes, others): (Vec<_>, Vec<_>) = attributes.partition(|a| a.write_only);
    let current = attribute_diffs(change, others.iter(), &mut found);
    for a in write_only_attributes {
        let child = attribute_change(change, a.name);
        found.insert(a.name.to_string(), write_only(&child, current));
    }
    (found, current)
}

/// The change of attribute `name`: an attribute is never explicit.
fn attribute_change(change: &Change, name: &str) -> Change {
    let mut child = change.key(name);
    child.before_explicit = false;
    child.after_explicit = false;
    child
}

/// Adds each attribute's diff to `found`, but for those null on both sides and unchanged;
/// returns the action of the whole so far.
fn attribute_diffs<'a, 'b: 'a>(
    change: &Change,
    attributes: impl Iterator<Item = &'a Attribute<'b>>,
    found: &mut BTreeMap<String, Diff>,
) -> Action {
    let mut current = change.default_action();
    for a in attributes {
        let child = attribute_change(change, a.name);
        let (empty_before, empty_after) = (child.before.is_null(), child.after.is_null());
        let diff = attribute(child, a.kind);
        if diff.action == Action::NoOp && empty_before && empty_after {
            continue;
        }
        current = compare_actions(current, diff.action);
        found.insert(a.name.to_string(), diff);
    }
    current
}

/// A value of type `ty` (`ComputeDiffForType`).
pub(super) fn of_type(mut change: Change, ty: &ValueType) -> Diff {
    if !change.non_legacy {
        // Legacy providers cannot tell an empty string from null.
        for side in [&mut change.before, &mut change.after] {
            if side.as_str() == Some("") {
                *side = Json::Null;
            }
        }
    }
    let replace = change.replace.matches();
    if let Some(d) = change.check_sensitive(
        |v| of_type(v, ty),
        |i, b, a, action| sensitive(i, b, a, action, replace),
    ) {
        return d;
    }
    if let Some(d) = change.check_unknown(Json::Bool(false), unknown, |current, before| {
        unknown_after(&current, of_type(before, ty))
    }) {
        return d;
    }
    let primitive = |ty| {
        let renderer = Renderer::Primitive {
            before: change.before.clone(),
            after: change.after.clone(),
            ty,
        };
        Diff::new(renderer, change.calculate_action(), replace)
    };
    let (renderer, action) = match ty {
        ValueType::Dynamic => return json_diff(change),
        ValueType::String => return primitive(Primitive::String),
        ValueType::Number => return primitive(Primitive::Number),
        ValueType::Bool => return primitive(Primitive::Bool),
        ValueType::Object { attributes, .. } => {
            let listed = attributes.iter().map(|(name, t)| Attribute {
                name,
                kind: Kind::Type(t),
                write_only: false,
            });
            let (attributes, action) = object(&change, listed);
            (
                Renderer::Object {
                    attributes,
                    nested: false,
                },
                action,
            )
        }
        ValueType::Map(e) => {
            let (elements, action) = transform_map(change.map_sides(), change.all_keys(), |k| {
                of_type(change.key(k), e)
            });
            (
                Renderer::Map {
                    elements,
                    nested: false,
                },
                action,
            )
        }
        ValueType::List(e) => {
            let (before, after) = change.slices();
            let object = |_: &Json| matches!(**e, ValueType::Object { .. });
            let (elements, action) = transform_slice(before, after, object, |b, a| {
                of_type(change.element(b, a), e)
            });
            (
                Renderer::List {
                    elements,
                    context: true,
                },
                action,
            )
        }
        ValueType::Tuple(types) => {
            let mut current = change.default_action();
            let mut elements = Vec::new();
            for (i, t) in types.iter().enumerate() {
                let d = of_type(change.element(i, i), t);
                current = compare_actions(current, d.action);
                elements.push(d);
            }
            (
                Renderer::List {
                    elements,
                    context: true,
                },
                current,
            )
        }
        ValueType::Set(e) => {
            let mut current = change.default_action();
            let mut elements = Vec::new();
            process_set(&change, |c| {
                let d = of_type(c, e);
                current = compare_actions(current, d.action);
                elements.push(d);
            });
            (
                Renderer::Set {
                    elements,
                    nested: false,
                },
                current,
            )
        }
    };
    Diff::new(renderer, action, replace)
}
