//! Values where the language or the schema makes them finite: an argument's keywords
//! (provisioner `when`, `on_failure`), booleans, type constraints in `type =`, provider
//! configurations in `provider =` and, in `ignore_changes`, the resource's arguments
//! and `all`.

use super::context::ValuePlace;
use super::{escape_snippet, Context, Item, ItemKind, Scope};
use crate::schema::{AttributeSchema, Form};

/// Sort group: values come before references.
const VALUES: u8 = 0;

/// The type constraint keywords, with the snippet each inserts.
const TYPES: &[(&str, &str)] = &[
    ("string", "string"),
    ("number", "number"),
    ("bool", "bool"),
    ("any", "any"),
    ("list", "list(${1:string})"),
    ("set", "set(${1:string})"),
    ("map", "map(${1:string})"),
    ("object", "object({\n  ${1:name} = ${2:string}\n})"),
    ("tuple", "tuple([${1:string}])"),
    ("optional", "optional(${1:string})"),
];

/// The values argument `attribute` of the body inside `ctx.blocks` takes at `place`.
pub fn values(scope: &Scope, ctx: &Context, attribute: &str, place: &ValuePlace) -> Vec<Item> {
    if !place.path.is_empty() {
        return Vec::new();
    }
    let Some(schema) = attribute_schema(scope, ctx, attribute) else {
        return Vec::new();
    };
    match &schema.form {
        Form::Keyword(words) if place.whole => words
            .iter()
            .map(|w| Item::plain(&**w, ItemKind::Keyword, VALUES))
            .collect(),
        Form::TypeConstraint => TYPES
            .iter()
            .map(|(name, snippet)| {
                Item::plain(*name, ItemKind::Keyword, VALUES)
                    .detail("type constraint")
                    .insert(
                        scope.options.snippets,
                        snippet.to_string(),
                        name.to_string(),
                    )
            })
            .collect(),
        Form::Reference if attribute == "provider" && place.whole => provider_configurations(scope),
        Form::RelativePaths => ignore_changes(scope, ctx, place),
        _ if is_bool(&schema) && place.whole => ["true", "false"]
            .iter()
            .map(|v| Item::plain(*v, ItemKind::Value, VALUES))
            .collect(),
        _ => Vec::new(),
    }
}

/// The schema of argument `name` of the body inside `ctx.blocks`: the language's, else
/// its provider's.
fn attribute_schema(scope: &Scope, ctx: &Context, name: &str) -> Option<AttributeSchema> {
    let body = scope.body_schemas(&ctx.blocks);
    let language = body
        .language
        .as_ref()
        .and_then(|l| l.attribute(name, scope.dialect).cloned());
    language.or_else(|| body.provider?.attribute(name, scope.dialect).cloned())
}

fn is_bool(a: &AttributeSchema) -> bool {
    match &a.value_type {
        Some(t) => t.to_string() == "bool",
        None => &*a.ty == "bool",
    }
}

/// The provider configurations a `provider` argument may name: each local name the
/// module requires or uses, and each alias configured.
fn provider_configurations(scope: &Scope) -> Vec<Item> {
    let Some(m) = &scope.merged else {
        return Vec::new();
    };
    let mut items: Vec<Item> = m
        .provider_addresses()
        .into_iter()
        .map(|(local, address)| {
            Item::plain(local, ItemKind::Object, VALUES).detail(address.to_string())
        })
        .collect();
    for (name, alias) in m.providers.keys() {
        if let Some(alias) = alias {
            let address = m.local_provider(name);
            items.push(
                Item::plain(format!("{name}.{alias}"), ItemKind::Object, VALUES)
                    .detail(address.to_string()),
            );
        }
    }
    items
}

/// In `lifecycle { ignore_changes = ... }`: the resource type's arguments, and `all` as
/// the whole value.
fn ignore_changes(scope: &Scope, ctx: &Context, place: &ValuePlace) -> Vec<Item> {
    let mut items = Vec::new();
    if place.whole {
        items.push(Item::plain("all", ItemKind::Keyword, VALUES));
    }
    let Some(resource) = ctx.blocks.first() else {
        return items;
    };
    let provider = scope.body_schemas(&ctx.blocks[..1]).provider;
    for a in provider.iter().flat_map(|p| p.attributes.iter()) {
        // Only what the configuration may set can be ignored.
        if a.requirement == crate::schema::Requirement::Computed {
            continue;
        }
        items.push(
            Item::plain(&*a.name, ItemKind::Attribute, VALUES)
                .detail(format!(
                    "argument of {}",
                    resource.labels.first().map_or("", |s| s)
                ))
                .insert(
                    scope.options.snippets,
                    escape_snippet(&a.name),
                    a.name.to_string(),
                ),
        );
    }
    items
}
