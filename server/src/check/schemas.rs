//! Resource types whose arguments Strata knows without a provider (DESIGN.md: built-in
//! knowledge, used while no provider schema is loaded for them): an argument they do not
//! have is `Unsupported argument`. In a resource an override file changes (Terraform then
//! stops checking its top-level arguments, spec §1.5), an argument its type does not
//! have, by that table or by its provider's schema, is a warning that it is silently
//! ignored (the rule is `arguments::unknown_argument`). `ignore_changes` is checked
//! against their schema by `ignore_changes.rs`. Bodies with a provider schema are
//! decoded by `provider_bodies.rs`.

use super::arguments::{ignored_in_layers, settable, unknown_argument, Ignored};
use super::Diagnostic;
use crate::merge::{MergedModule, Mode, Origin, META};
use crate::schema::{BlockSchema, ProviderSchemaSource, SchemaLookup, ValueType};

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
        if overridden {
            let ignored = |name: &str| Ignored {
                summary: "Argument ignored in an overridden resource",
                reason: format!("{} has no argument \"{name}\".", r.key.type_name),
                what: "a resource",
            };
            ignored_in_layers(m, &r.bodies, META, &schema, &ignored, out);
            continue;
        }
        // Alone, the merged body is the one body as written.
        let known = settable(&schema);
        for a in &r.config.attributes {
            let name = &*a.attr.name.name;
            if known.contains(&name) {
                continue;
            }
            let origin = Origin {
                file: a.file,
                span: a.attr.name.span,
            };
            out.push(unknown_argument(m, origin, name, &known, None));
        }
    }
}
