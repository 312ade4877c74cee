//! References and function names in an expression: the names a reference may start with
//! (`var`, `local`, `module`, `data`, resource types, `each`, `count`, `self`, `path`,
//! `terraform`, a `dynamic` block's iterator) and the built-in functions with their
//! signatures; after `var.`, `local.`, `module.`, `module.NAME.`, `data.`, `TYPE.` and
//! `TYPE.NAME.` the names the merged module declares (with their effective type, value
//! or source as detail) and the attributes the provider schema gives a resource.

use std::collections::BTreeSet;

use super::context::{BlockFrame, ValuePlace};
use super::{escape_snippet, variables, Context, Item, ItemKind, Scope};
use crate::merge::{literal_string, Attr, MergedModule, Mode, Resource};
use crate::schema::{attribute_markdown, functions, Function, ProviderBody};

/// Sort groups: declared names first, then functions, then keywords.
const NAMES: u8 = 4;
const FUNCTIONS: u8 = 5;
const KEYWORDS: u8 = 6;

/// The longest detail shown for an expression's text.
const DETAIL_CHARS: usize = 60;

/// The references (and function names) that may be written at `place`.
pub fn references(scope: &Scope, ctx: &Context, place: &ValuePlace) -> Vec<Item> {
    let Some(m) = scope.merged.as_deref() else {
        return match place.path.is_empty() {
            true => function_items(scope),
            false => Vec::new(),
        };
    };
    let path: Vec<&str> = place.path.iter().map(String::as_str).collect();
    match path.as_slice() {
        [] => {
            let mut items = roots(scope, m, ctx);
            items.extend(function_items(scope));
            items
        }
        ["var"] => m
            .variables
            .values()
            .map(|v| variables::reference(m, v, NAMES))
            .collect(),
        ["local"] => m
            .locals
            .values()
            .map(|l| {
                Item::plain(&l.name, ItemKind::Variable, NAMES).detail(source_text(m, &l.value))
            })
            .collect(),
        ["module"] => m
            .module_calls
            .values()
            .map(|c| {
                let source = c.source.as_ref().map(|s| source_text(m, s));
                Item::plain(&c.name, ItemKind::Object, NAMES).detail(source.unwrap_or_default())
            })
            .collect(),
        ["module", call] => child_outputs(scope, call),
        ["data" | "ephemeral"] => types_of(m, mode_of(path[0])),
        ["data" | "ephemeral", type_name] => names_of(m, mode_of(path[0]), type_name),
        ["data" | "ephemeral", type_name, name] => {
            attributes(scope, m, mode_of(path[0]), type_name, name)
        }
        ["each"] if has_argument(scope, m, ctx, "for_each") => {
            words(&["key", "value"], ItemKind::Attribute, "each")
        }
        ["count"] if has_argument(scope, m, ctx, "count") => {
            words(&["index"], ItemKind::Attribute, "count")
        }
        ["path"] => words(&["module", "root", "cwd"], ItemKind::Attribute, "path"),
        ["terraform"] => words(&["workspace", "applying"], ItemKind::Attribute, "terraform"),
        ["self"] => match (self_allowed(ctx), ctx.blocks.first()) {
            (true, Some(BlockFrame { kind, labels, .. })) if kind == "resource" => {
                match labels.as_slice() {
                    [type_name, name, ..] => attributes(scope, m, Mode::Managed, type_name, name),
                    _ => Vec::new(),
                }
            }
            _ => Vec::new(),
        },
        [iterator] if dynamic_iterators(ctx).contains(*iterator) => {
            words(&["key", "value"], ItemKind::Attribute, iterator)
        }
        [type_name] => names_of(m, Mode::Managed, type_name),
        [type_name, name] => attributes(scope, m, Mode::Managed, type_name, name),
        _ => Vec::new(),
    }
}

/// The names a reference or value may start with.
fn roots(scope: &Scope, m: &MergedModule, ctx: &Context) -> Vec<Item> {
    let mut items: Vec<Item> = ["var", "local", "module", "data", "path", "terraform"]
        .iter()
        .map(|w| Item::plain(*w, ItemKind::Keyword, KEYWORDS))
        .collect();
    if m.resources.keys().any(|k| k.mode == Mode::Ephemeral) {
        items.push(Item::plain("ephemeral", ItemKind::Keyword, KEYWORDS));
    }
    if has_argument(scope, m, ctx, "for_each") {
        items.push(Item::plain("each", ItemKind::Keyword, KEYWORDS));
    }
    if has_argument(scope, m, ctx, "count") {
        items.push(Item::plain("count", ItemKind::Keyword, KEYWORDS));
    }
    if self_allowed(ctx) {
        items.push(Item::plain("self", ItemKind::Keyword, KEYWORDS));
    }
    for iterator in dynamic_iterators(ctx) {
        items.push(
            Item::plain(iterator, ItemKind::Variable, NAMES).detail("dynamic block iterator"),
        );
    }
    items.extend(types_of(m, Mode::Managed));
    items
}

/// Every built-in function of the dialect, with its signature; a snippet places the
/// cursor between the parentheses.
fn function_items(scope: &Scope) -> Vec<Item> {
    functions(scope.dialect)
        .filter(|f| !f.name.starts_with("core::"))
        .map(|f| {
            Item::plain(&f.name, ItemKind::Function, FUNCTIONS)
                .detail(signature(f))
                .insert(
                    scope.options.snippets,
                    format!("{}($1)", escape_snippet(&f.name)),
                    f.name.clone(),
                )
        })
        .collect()
}

/// A function's signature as Terraform's documentation writes it:
/// `join(separator string, lists... list(string)) string`.
pub fn signature(f: &Function) -> String {
    let mut parameters: Vec<String> = f
        .parameters
        .iter()
        .flatten()
        .map(|p| format!("{} {}", p.name, p.ty))
        .collect();
    if let Some(v) = &f.variadic {
        parameters.push(format!("{}... {}", v.name, v.ty));
    }
    format!("{}({}) {}", f.name, parameters.join(", "), f.return_type)
}

/// The outputs of the local child module that module call `call` calls.
fn child_outputs(scope: &Scope, call: &str) -> Vec<Item> {
    let Some(child) = scope.child_module(call) else {
        return Vec::new();
    };
    child
        .outputs
        .values()
        .map(|o| {
            let value = o.value.as_ref().map(|v| source_text(&child, v));
            let doc = o
                .description
                .as_ref()
                .and_then(|d| literal_string(d.expr()));
            Item::plain(&o.name, ItemKind::Variable, NAMES)
                .detail(value.unwrap_or_default())
                .doc(doc.unwrap_or_default().to_string())
        })
        .collect()
}

/// The mode of a reference's first step (`data`, `ephemeral`).
fn mode_of(keyword: &str) -> Mode {
    Mode::from_keyword(keyword).unwrap_or(Mode::Data)
}

/// The resource types of `mode` the module declares.
fn types_of(m: &MergedModule, mode: Mode) -> Vec<Item> {
    let types: BTreeSet<&str> = m
        .resources
        .keys()
        .filter(|k| k.mode == mode)
        .map(|k| &*k.type_name)
        .collect();
    types
        .into_iter()
        .map(|t| Item::plain(t, ItemKind::Type, NAMES).detail(format!("{} type", mode.keyword())))
        .collect()
}

/// The names of the resources of `mode` and type `type_name` the module declares.
fn names_of(m: &MergedModule, mode: Mode, type_name: &str) -> Vec<Item> {
    m.resources
        .values()
        .filter(|r| r.key.mode == mode && r.key.type_name == type_name)
        .map(|r| {
            let repetition = match (&r.count, &r.for_each) {
                (Some(c), _) => format!("count = {}", source_text(m, c)),
                (_, Some(f)) => format!("for_each = {}", source_text(m, f)),
                _ => String::new(),
            };
            Item::plain(&r.key.name, ItemKind::Object, NAMES)
                .detail(format!("{} {}", r.key, repetition).trim_end().to_string())
        })
        .collect()
}

/// The attributes of the resource `type_name.name` of `mode`, from its provider schema.
fn attributes(
    scope: &Scope,
    m: &MergedModule,
    mode: Mode,
    type_name: &str,
    name: &str,
) -> Vec<Item> {
    let key = crate::merge::ResourceKey {
        mode,
        type_name: type_name.to_string(),
        name: name.to_string(),
    };
    let provider = match m.resources.get(&key) {
        Some(resource) => m.resource_provider(resource),
        None => return Vec::new(),
    };
    let body: ProviderBody = mode.provider_body();
    let Some(schema) = scope.schemas.lookup(&provider, body, type_name).found() else {
        return Vec::new();
    };
    let attributes = schema.block.attributes.iter().map(|a| {
        let ty = a
            .value_type
            .as_ref()
            .map_or(a.ty.to_string(), |t| t.to_string());
        Item::plain(&*a.name, ItemKind::Attribute, NAMES)
            .detail(ty)
            .doc(attribute_markdown(a))
    });
    let blocks = schema
        .block
        .blocks
        .iter()
        .map(|b| Item::plain(&*b.name, ItemKind::Attribute, NAMES).detail("block"));
    attributes.chain(blocks).collect()
}

/// Items for fixed attribute names of `object` (`path.module`).
fn words(names: &[&str], kind: ItemKind, object: &str) -> Vec<Item> {
    names
        .iter()
        .map(|n| Item::plain(*n, kind, NAMES).detail(format!("{object}.{n}")))
        .collect()
}

/// Whether the top-level block around the cursor sets `argument` (`count`, `for_each`),
/// in any of its files: an override's base counts.
fn has_argument(scope: &Scope, m: &MergedModule, ctx: &Context, argument: &str) -> bool {
    let Some(top) = ctx.blocks.first() else {
        return false;
    };
    if top.written.iter().any(|w| w == argument)
        || scope
            .written(&ctx.blocks[..1])
            .iter()
            .any(|w| w == argument)
    {
        return true;
    }
    let pick = |r: &Resource| match argument {
        "count" => r.count.is_some(),
        _ => r.for_each.is_some(),
    };
    match (&*top.kind, top.labels.as_slice()) {
        ("resource" | "data" | "ephemeral", [type_name, name, ..]) => {
            let key = crate::merge::ResourceKey {
                mode: Mode::from_keyword(&top.kind).unwrap_or(Mode::Managed),
                type_name: type_name.clone(),
                name: name.clone(),
            };
            m.resources.get(&key).is_some_and(pick)
        }
        ("module", [name, ..]) => m.module_calls.get(name).is_some_and(|c| match argument {
            "count" => c.count.is_some(),
            _ => c.for_each.is_some(),
        }),
        _ => false,
    }
}

/// Whether `self` may be referred to: in a resource's provisioners and connection, and in
/// its postconditions.
fn self_allowed(ctx: &Context) -> bool {
    ctx.blocks.first().is_some_and(|b| b.kind == "resource")
        && ctx
            .blocks
            .iter()
            .any(|b| matches!(&*b.kind, "provisioner" | "connection" | "postcondition"))
}

/// The iterator names of the `dynamic` blocks around the cursor (their `iterator`
/// argument is not read here: the block's label, the default).
fn dynamic_iterators(ctx: &Context) -> BTreeSet<&str> {
    ctx.blocks
        .iter()
        .filter(|b| b.kind == "dynamic")
        .filter_map(|b| b.labels.first().map(String::as_str))
        .collect()
}

/// The text of an argument's expression, on one line and shortened, for a detail.
pub fn source_text(m: &MergedModule, attr: &Attr) -> String {
    let text = &m.file(attr.file).text;
    let span = attr.expr().span;
    let raw = text.get(span.range()).unwrap_or_default();
    let one_line: String = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > DETAIL_CHARS {
        let cut: String = one_line.chars().take(DETAIL_CHARS).collect();
        format!("{cut}…")
    } else {
        one_line
    }
}
