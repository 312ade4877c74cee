//! Names written in a body and labels of block headers: the block types of the file's
//! top level and of each block, argument and nested block names of the block being
//! edited (the language's and its provider's, required first, those already written left
//! out, meta-arguments included, a local child module's input variables in its `module`
//! block), resource and data source types from the provider schemas in use, and in an
//! override file the names of the declarations it may override.

use std::collections::HashSet;
use std::sync::Arc;

use super::context::BlockFrame;
use super::prepared::{PreparedList, PreparedLists};
use super::{escape_snippet, variables, Context, Item, ItemKind, Scope};
use crate::merge::Mode;
use crate::schema::{
    attribute_markdown, nested_block_markdown, AttributeSchema, BlockRole, NestedBlock, Nesting,
    ProviderBody, Requirement,
};

/// Sort groups: required arguments, the provider's other arguments, meta-arguments and the
/// language's other arguments, nested blocks.
const REQUIRED: u8 = 0;
const OPTIONAL: u8 = 1;
const META: u8 = 2;
const BLOCKS: u8 = 3;

/// The argument and block names that may start a statement in the body inside
/// `ctx.blocks`.
pub fn names(scope: &Scope, ctx: &Context) -> Vec<Item> {
    let schemas = scope.body_schemas(&ctx.blocks);
    let mut written: HashSet<String> = scope.written(&ctx.blocks).into_iter().collect();
    if let Some(frame) = ctx.blocks.last() {
        written.extend(frame.written.iter().cloned());
    }
    let top = ctx.blocks.is_empty();
    // Override files may leave out anything: nothing is required there.
    let required =
        |a: &AttributeSchema| a.requirement == Requirement::Required && !scope.is_override();
    let mut items = Vec::new();
    if let Some(provider) = &schemas.provider {
        for a in &provider.attributes {
            if a.requirement == Requirement::Computed || written.contains(&*a.name) {
                continue;
            }
            let group = if required(a) { REQUIRED } else { OPTIONAL };
            items.push(argument(scope, a, group));
        }
        for b in &provider.blocks {
            if b.max_items == 1 && written.contains(&*b.name) {
                continue;
            }
            items.push(block(scope, b, BLOCKS));
        }
    }
    if let Some(language) = &schemas.language {
        for a in &language.attributes {
            if !a.dialects.includes(scope.dialect)
                || a.requirement == Requirement::Reserved
                || written.contains(&*a.name)
            {
                continue;
            }
            let group = if required(a) { REQUIRED } else { META };
            items.push(argument(scope, a, group));
        }
        for b in &language.blocks {
            let once = b.duplicate.is_some() || b.nesting == Nesting::Single;
            if !b.dialects.includes(scope.dialect)
                || matches!(b.role, BlockRole::Reserved)
                || (once && written.contains(&*b.name))
                // Only so that a misplaced block gets a message pointing into `terraform`.
                || (top && &*b.name == "required_providers")
            {
                continue;
            }
            items.push(block(scope, b, if top { REQUIRED } else { BLOCKS }));
        }
    }
    if let [call] = ctx.blocks.as_slice() {
        if call.kind == "module" {
            items.extend(module_inputs(scope, call, &written));
        }
    }
    items
}

/// An argument's suggestion: `name = ` with a placeholder shaped by its type.
fn argument(scope: &Scope, a: &AttributeSchema, group: u8) -> Item {
    let ty = a
        .value_type
        .as_ref()
        .map_or(a.ty.to_string(), |t| t.to_string());
    let value = match &a.form {
        crate::schema::Form::Keyword(words) => format!("${{1|{}|}}", words.join(",")),
        _ if ty == "string" => "\"$1\"".into(),
        _ if ty == "bool" => "${1|true,false|}".into(),
        _ if ty.starts_with("list") || ty.starts_with("set") || ty.starts_with("tuple") => {
            "[$1]".into()
        }
        _ if ty.starts_with("map") || ty.starts_with("object") => "{\n  $1\n}".into(),
        _ => "$1".into(),
    };
    let requirement = if group == REQUIRED { "required " } else { "" };
    Item::plain(&*a.name, super::ItemKind::Argument, group)
        .detail(format!("{requirement}{ty}"))
        .doc(attribute_markdown(a))
        .insert(
            scope.options.snippets,
            format!("{} = {value}", escape_snippet(&a.name)),
            format!("{} = ", a.name),
        )
}

/// A nested block type's suggestion, its labels as placeholders.
fn block(scope: &Scope, b: &NestedBlock, group: u8) -> Item {
    let mut snippet = escape_snippet(&b.name);
    let mut labels: Vec<String> = b.schema.labels.iter().map(|l| l.name.to_string()).collect();
    if b.role == BlockRole::Dynamic {
        labels = vec!["name".into()];
    } else if b.nesting == Nesting::Map && labels.is_empty() {
        labels.push("key".into());
    }
    for (i, label) in labels.iter().enumerate() {
        snippet.push_str(&format!(" \"${{{}:{}}}\"", i + 1, escape_snippet(label)));
    }
    snippet.push_str(" {\n  $0\n}");
    let detail = match labels.as_slice() {
        [] => "block".to_string(),
        labels => format!("block: {}", labels.join(", ")),
    };
    Item::plain(&*b.name, ItemKind::Block, group)
        .detail(detail)
        .doc(nested_block_markdown(b))
        .insert(scope.options.snippets, snippet, b.name.to_string())
}

/// The input variables of the local child module a `module` block calls, those without
/// a default first.
fn module_inputs(scope: &Scope, call: &BlockFrame, written: &HashSet<String>) -> Vec<Item> {
    let Some(child) = call
        .labels
        .first()
        .and_then(|name| scope.child_module(name))
    else {
        return Vec::new();
    };
    child
        .variables
        .values()
        .filter(|v| !written.contains(&v.name))
        .map(|v| variables::input(&child, v, scope.options.snippets))
        .collect()
}

/// The labels that may be written as label `index` of a block of type `kind` inside
/// `ctx.blocks`.
pub fn labels(scope: &Scope, ctx: &Context, kind: &str, index: usize) -> Vec<Item> {
    let quoted = label_quoted(ctx);
    let names: Vec<(String, String)> = if scope.is_override() {
        declared(scope, ctx, kind, index)
    } else {
        Vec::new()
    };
    let names = match (ctx.blocks.last().map(|b| &*b.kind), kind, index) {
        _ if !names.is_empty() => names,
        (None, "resource" | "data" | "ephemeral", 0) => types(scope, kind),
        (None, "provider", 0) => provider_names(scope),
        (Some(_), "provisioner", 0) => ["local-exec", "remote-exec", "file"]
            .map(|p| (p.to_string(), "provisioner".to_string()))
            .into(),
        (Some(_), "dynamic", 0) => scope
            .body_schemas(&ctx.blocks)
            .provider
            .map(|p| {
                p.blocks
                    .iter()
                    .map(|b| (b.name.to_string(), "nested block".to_string()))
                    .collect()
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    label_items(names, quoted)
}

/// The prepared list of the type names that label `index` of a block of type `kind`
/// inside `ctx.blocks` takes (the first label of a top-level `resource`, `data` or
/// `ephemeral` block): the items `labels` gives there, kept in `lists` while the
/// schemas stay the same. `None` where `labels` builds its items for the place (in an
/// override file that has declarations of that type to name).
pub fn prepared_labels(
    lists: &PreparedLists,
    scope: &Scope,
    ctx: &Context,
    kind: &str,
    index: usize,
) -> Option<Arc<PreparedList>> {
    let typed = ctx.blocks.is_empty() && index == 0;
    if !typed || !matches!(kind, "resource" | "data" | "ephemeral") {
        return None;
    }
    if scope.is_override() && !declared(scope, ctx, kind, index).is_empty() {
        return None;
    }
    let quoted = label_quoted(ctx);
    Some(lists.get(&scope.schemas, kind, quoted, || {
        label_items(types(scope, kind), quoted)
    }))
}

/// Whether the label at the cursor has its opening quote written.
fn label_quoted(ctx: &Context) -> bool {
    matches!(ctx.position, super::Position::Label { quoted: true, .. })
}

/// Label suggestions for `names` with their details, quoted unless the opening quote
/// is written.
fn label_items(names: Vec<(String, String)>, quoted: bool) -> Vec<Item> {
    names
        .into_iter()
        .map(|(name, detail)| {
            let insert = if quoted {
                name.clone()
            } else {
                format!("\"{name}\"")
            };
            let mut item = Item::plain(name, ItemKind::Type, REQUIRED).detail(detail);
            item.insert.text = insert;
            item
        })
        .collect()
}

/// The type names of body `kind` (`resource`, `data`, `ephemeral`) of every provider
/// whose schema the module is analysed with.
fn types(scope: &Scope, kind: &str) -> Vec<(String, String)> {
    let body = Mode::from_keyword(kind).map_or(ProviderBody::Resource, Mode::provider_body);
    let mut out = Vec::new();
    for provider in scope.schemas.providers() {
        let detail = provider.to_string();
        out.extend(
            scope
                .schemas
                .type_names(&provider, body)
                .into_iter()
                .map(|name| (name, detail.clone())),
        );
    }
    out
}

/// The provider local names the module requires or configures.
fn provider_names(scope: &Scope) -> Vec<(String, String)> {
    let Some(m) = &scope.merged else {
        return Vec::new();
    };
    m.provider_addresses()
        .into_iter()
        .map(|(local, address)| (local, address.to_string()))
        .collect()
}

/// In an override file: the names of the declarations of block type `kind` an override
/// may change, for label `index` (a resource's name once its type is written).
fn declared(scope: &Scope, ctx: &Context, kind: &str, index: usize) -> Vec<(String, String)> {
    let Some(m) = &scope.merged else {
        return Vec::new();
    };
    if !ctx.blocks.is_empty() {
        return Vec::new();
    }
    let described = |name: &String, origin| (name.clone(), format!("in {}", m.describe(origin)));
    match (kind, index) {
        ("variable", 0) => m
            .variables
            .values()
            .map(|v| described(&v.name, v.provenance.decl))
            .collect(),
        ("output", 0) => m
            .outputs
            .values()
            .map(|o| described(&o.name, o.provenance.decl))
            .collect(),
        ("module", 0) => m
            .module_calls
            .values()
            .map(|c| described(&c.name, c.provenance.decl))
            .collect(),
        ("resource" | "data" | "ephemeral", 0 | 1) => {
            let typed = match &ctx.position {
                super::Position::Label { before, .. } => before.as_slice(),
                _ => &[],
            };
            m.resources
                .values()
                .filter(|r| r.key.mode.keyword() == kind)
                .filter(|r| index == 0 || typed.first() == Some(&r.key.type_name))
                .map(|r| {
                    let name = if index == 0 {
                        &r.key.type_name
                    } else {
                        &r.key.name
                    };
                    described(name, r.provenance.decl)
                })
                .collect()
        }
        _ => Vec::new(),
    }
}
