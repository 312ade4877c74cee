//! Values whose type the schema leaves open (dynamic attributes such as
//! `terraform_data`'s `input`, output values, JSON inside strings) are diffed by their JSON
//! type (`jsonformat/jsondiff`): objects as objects with bare keys, arrays as lists, and a
//! change of JSON type as the old value removed and the new one added. Nothing in them
//! says `# forces replacement`.

use serde_json::Value as Json;

use super::diff::{Diff, Primitive, Renderer};
use super::structured::Change;
use super::transform::{transform_map, transform_slice};
use crate::plan::Action;

/// The JSON type of a value (`jsondiff.GetType`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum JsonType {
    Null,
    Bool,
    Number,
    String,
    Object,
    Array,
}

fn json_type(value: &Json) -> JsonType {
    match value {
        Json::Null => JsonType::Null,
        Json::Bool(_) => JsonType::Bool,
        Json::Number(_) => JsonType::Number,
        Json::String(_) => JsonType::String,
        Json::Object(_) => JsonType::Object,
        Json::Array(_) => JsonType::Array,
    }
}

/// The diff of a value by its JSON type (`JsonOpts.Transform`).
pub(super) fn json_diff(change: Change) -> Diff {
    if let Some(sensitive) = change.check_sensitive(json_diff, |inner, before, after, action| {
        let renderer = Renderer::Sensitive {
            inner: Box::new(inner),
            before,
            after,
        };
        Diff::new(renderer, action, false)
    }) {
        return sensitive;
    }
    if let Some(unknown) = change.check_unknown(
        Json::Bool(false),
        |_| Diff::new(Renderer::Unknown(None), Action::Create, false),
        |_, before| {
            let renderer = Renderer::Unknown(Some(Box::new(json_diff(before))));
            Diff::new(renderer, Action::Update, false)
        },
    ) {
        return unknown;
    }
    let (before, after) = (json_type(&change.before), json_type(&change.after));
    let deleted = after == JsonType::Null && !change.after_explicit;
    let created = before == JsonType::Null && !change.before_explicit;
    if before == after || created || deleted {
        let target = if before == JsonType::Null {
            after
        } else {
            before
        };
        return update(&change, target);
    }
    let old = update(&change.as_delete(), before);
    let new = update(&change.as_create(), after);
    Diff::new(
        Renderer::TypeChange(Box::new(old), Box::new(new)),
        Action::Update,
        false,
    )
}

fn update(change: &Change, ty: JsonType) -> Diff {
    match ty {
        JsonType::Null => primitive(change, Primitive::Null),
        JsonType::Bool => primitive(change, Primitive::Bool),
        JsonType::Number => primitive(change, Primitive::Number),
        JsonType::String => primitive(change, Primitive::String),
        JsonType::Object => {
            let (attributes, action) =
                transform_map(change.map_sides(), change.all_keys(), |key| {
                    json_diff(change.key(key))
                });
            let renderer = Renderer::Object {
                attributes,
                nested: false,
            };
            Diff::new(renderer, action, false)
        }
        JsonType::Array => {
            let (before, after) = change.slices();
            let object = |v: &Json| v.is_object();
            let (elements, action) = transform_slice(before, after, object, |b, a| {
                json_diff(change.element(b, a))
            });
            let renderer = Renderer::List {
                elements,
                context: true,
            };
            Diff::new(renderer, action, false)
        }
    }
}

fn primitive(change: &Change, ty: Primitive) -> Diff {
    let before_missing = change.before.is_null() && !change.before_explicit;
    let after_missing = change.after.is_null() && !change.after_explicit;
    let action = match (before_missing, after_missing) {
        (true, false) => Action::Create,
        (false, true) => Action::Delete,
        _ if change.before == change.after => Action::NoOp,
        _ => Action::Update,
    };
    let renderer = Renderer::Primitive {
        before: change.before.clone(),
        after: change.after.clone(),
        ty,
    };
    Diff::new(renderer, action, false)
}
