//! Resource types whose arguments Strata knows without a provider (DESIGN.md: built-in
//! knowledge, used while no provider schema is loaded for them): an argument they do not
//! have is `Unsupported argument`. In a resource an override file changes (Terraform then
//! stops checking its top-level arguments, spec §1.5), an argument its type does not
//! have, by that table or by its provider's schema, is a warning that it is silently
//! ignored (the rule is `arguments::unknown_argument`). `ignore_changes` is checked
//! against the table: names the type does not have, and attributes only the provider
//! decides (`Redundant ignore_changes element`). Bodies with a provider schema are
//! decoded by `provider_bodies.rs`.

use super::arguments::{unknown_argument, Ignored};
use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Mode, Origin, META};
use crate::schema::{BlockSchema, ProviderSchemaSource, SchemaLookup, ValueType};
use crate::syntax::{Expr, ExprKind};

/// The arguments of the resource types whose schema is fixed and known.
pub(super) fn arguments(type_name: &str) -> Option<&'static [&'static str]> {
    match type_name {
        "terraform_data" => Some(&["input", "triggers_replace"]),
        "null_resource" => Some(&["triggers"]),
        _ => None,
    }
}

/// The attributes the provider computes, beside the arguments.
fn computed(type_name: &str) -> &'static [&'static str] {
    match type_name {
        "terraform_data" => &["id", "output"],
        "null_resource" => &["id"],
        _ => &[],
    }
}

/// Every attribute of a known resource type: its arguments, then what it computes.
pub(super) fn attributes(type_name: &str) -> Vec<&'static str> {
    let known = arguments(type_name).unwrap_or_default();
    known.iter().chain(computed(type_name)).copied().collect()
}

/// The schema of a known resource type, as far as references into it go: `id` is a
/// string, `null_resource`'s `triggers` a map of strings, the rest of any type.
pub(super) fn builtin_schema(type_name: &str) -> Option<BlockSchema> {
    arguments(type_name)?;
    let attributes = attributes(type_name)
        .into_iter()
        .map(|name| {
            let ty = match (type_name, name) {
                (_, "id") => ValueType::String,
                ("null_resource", "triggers") => ValueType::Map(Box::new(ValueType::String)),
                _ => ValueType::Dynamic,
            };
            let mut a = crate::schema::arg(name, &ty.to_string(), "");
            a.value_type = Some(ty);
            if !arguments(type_name).unwrap_or_default().contains(&name) {
                a.requirement = crate::schema::Requirement::Computed;
                a.computed = true;
            }
            a
        })
        .collect();
    Some(BlockSchema {
        attributes,
        ..BlockSchema::default()
    })
}

/// Arguments a resource's type does not have, where its schema is known and
/// `provider_bodies.rs` does not decode its body: in a resource an override file changes
/// (warnings), and in the built-in types when no provider schema is loaded.
pub(super) fn check(
    m: &MergedModule,
    provider_schemas: &dyn ProviderSchemaSource,
    out: &mut Vec<Diagnostic>,
) {
    ignore_changes(m, out);
    for r in m.resources.values() {
        let overridden = !r.provenance.overrides.is_empty();
        let schema = match super::provider_lookup::resource_schema(m, provider_schemas, r) {
            SchemaLookup::Found(s) if overridden => s.block,
            SchemaLookup::Unavailable if r.key.mode == Mode::Managed => {
                match builtin_schema(&r.key.type_name) {
                    Some(s) => std::sync::Arc::new(s),
                    None => continue,
                }
            }
            _ => continue,
        };
        let known: Vec<&str> = schema
            .attributes
            .iter()
            .filter(|a| a.requirement != crate::schema::Requirement::Computed)
            .map(|a| &*a.name)
            .collect();
        // In an overridden resource the merge (with a schema) leaves out what the type
        // does not have, so the written bodies are read; alone, the merged body is the one
        // body as written.
        let written: Vec<(u32, &crate::syntax::Attribute)> = if overridden {
            r.bodies
                .iter()
                .flat_map(|b| b.block.body.attributes.iter().map(move |a| (b.file, &**a)))
                .filter(|(_, a)| !META.contains(&&*a.name.name))
                .collect()
        } else {
            r.config
                .attributes
                .iter()
                .map(|a| (a.file, &*a.attr))
                .collect()
        };
        for (file, attr) in written {
            let name = &*attr.name.name;
            if known.contains(&name) {
                continue;
            }
            let origin = Origin {
                file,
                span: attr.name.span,
            };
            let ignored = overridden.then(|| Ignored {
                summary: "Argument ignored in an overridden resource",
                reason: format!("{} has no argument \"{name}\".", r.key.type_name),
                what: "a resource",
            });
            out.push(unknown_argument(m, origin, name, &known, ignored));
        }
    }
}

/// `ignore_changes` paths whose first step the resource type does not have, as
/// `terraform validate` checks them against the schema (`Unsupported attribute`).
fn ignore_changes(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for (fi, file) in m.files.iter().enumerate() {
        for block in file.syntax.body.blocks_of("resource") {
            let Some(type_name) = block.label(0).filter(|t| arguments(t).is_some()) else {
                continue;
            };
            let all = attributes(type_name);
            let paths = block
                .body
                .blocks_of("lifecycle")
                .filter_map(|lc| lc.body.attribute("ignore_changes"));
            for a in paths {
                for item in &ignored_paths(&a.expr) {
                    let first = match &item.kind {
                        ExprKind::Variable(id) => id,
                        ExprKind::Traversal { root, .. } => match &root.kind {
                            ExprKind::Variable(id) => id,
                            _ => continue,
                        },
                        _ => continue,
                    };
                    if all.contains(&&*first.name) {
                        continue;
                    }
                    let hint = super::arguments::suggestion_among(&first.name, &all)
                        .map(|s| format!(" Did you mean {s:?}?"))
                        .unwrap_or_default();
                    let origin = Origin {
                        file: fi as u32,
                        span: first.span,
                    };
                    out.push(at(
                        m,
                        origin,
                        Severity::Error,
                        super::arguments::UNSUPPORTED_ARGUMENT,
                        "Unsupported attribute".into(),
                        format!(
                            "This object has no argument, nested block, or exported attribute named {:?}.{hint}",
                            first.name
                        ),
                    ));
                }
            }
        }
    }
}

/// The elements of an `ignore_changes` list, each as written in the native syntax or,
/// in the JSON syntax, as the reference its string holds (the loader refuses the rest).
fn ignored_paths(list: &Expr) -> Vec<Expr> {
    let items = list.static_list().unwrap_or_default();
    let read = |e: Expr| match e.is_json() {
        true => e.static_traversal(),
        false => Some(e),
    };
    items.into_iter().filter_map(read).collect()
}

/// `Redundant ignore_changes element`: a warning at the resource type for each
/// `ignore_changes` element that names an attribute the provider alone decides, added
/// to `found` (the validate walk's diagnostics). Terraform checks these after the
/// resource's `count`/`for_each`, `depends_on` and body, and only while neither those
/// nor an earlier element had an error; conditions, provisioners and the connection
/// are evaluated later and do not count.
pub(super) fn redundant_ignore_changes(
    m: &MergedModule,
    mut found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let mut added = Vec::new();
    for (fi, file) in m.files.iter().enumerate() {
        let path = &m.file(fi as u32).path;
        for block in file.syntax.body.blocks_of("resource") {
            let Some(type_label) = block.labels.first() else {
                continue;
            };
            let type_name = &*type_label.name;
            let Some(known) = arguments(type_name) else {
                continue;
            };
            let later: Vec<crate::syntax::Span> = block
                .body
                .blocks
                .iter()
                .filter(|b| matches!(&*b.kind.name, "provisioner" | "connection"))
                .chain(
                    block
                        .body
                        .blocks_of("lifecycle")
                        .flat_map(|lc| &lc.body.blocks),
                )
                .map(|b| b.span)
                .collect();
            let lifecycle: Vec<&crate::syntax::Block> =
                block.body.blocks_of("lifecycle").map(|b| &**b).collect();
            let items = lifecycle
                .iter()
                .filter_map(|lc| lc.body.attribute("ignore_changes"))
                .flat_map(|a| ignored_paths(&a.expr));
            let inside = |outer: crate::syntax::Span, d: &Diagnostic| {
                &d.path == path && outer.start <= d.span.start && d.span.end <= outer.end
            };
            let mut failed = found.iter().any(|d| {
                d.severity == Severity::Error
                    && inside(block.span, d)
                    && !later.iter().any(|s| inside(*s, d))
                    && !lifecycle.iter().any(|lc| {
                        lc.body
                            .attribute("ignore_changes")
                            .is_some_and(|a| inside(a.span, d))
                    })
            });
            for item in &items.collect::<Vec<_>>() {
                let name = match &item.kind {
                    ExprKind::Variable(id) => &*id.name,
                    _ => "",
                };
                failed |= found
                    .iter()
                    .any(|d| d.severity == Severity::Error && inside(item.span, d));
                let computed_only = !known.contains(&name) && computed(type_name).contains(&name);
                if failed || !computed_only {
                    continue;
                }
                let origin = Origin {
                    file: fi as u32,
                    span: type_label.span,
                };
                added.push(at(
                    m,
                    origin,
                    Severity::Warning,
                    REDUNDANT_IGNORE_CHANGES,
                    "Redundant ignore_changes element".into(),
                    format!("Adding an attribute name to ignore_changes tells Terraform to ignore future changes to the argument in configuration after the object has been created, retaining the value originally configured.\n\nThe attribute {name} is decided by the provider alone and therefore there can be no configured value to compare with. Including this attribute in ignore_changes has no effect. Remove the attribute from ignore_changes to quiet this warning."),
                ));
            }
        }
    }
    found.extend(added);
    found
}

/// Code of an `ignore_changes` element that has no effect.
pub const REDUNDANT_IGNORE_CHANGES: &str = "redundant-ignore-changes";
