//! `provider` blocks decoded against their provider's configuration schema, as the
//! validate walk decodes them (`NodeApplyableProvider.ValidateProvider`, with the same
//! decoding as resource bodies, `provider_bodies.rs`). Terraform prunes a configuration
//! nothing uses from the walk, so only the configurations a resource of the module names
//! (by its `provider` argument, or implicitly the default one of its type's provider) are
//! decoded; one only a module call passes on is left alone.
//!
//! A configuration an override file changes is not decoded by validate: its merged body
//! (`configs.mergeBody`) reads each layer with `PartialContent`, so the probe with which
//! `ValidateProvider` skips a configuration holding nothing (the body's `Content` against
//! an empty schema) finds no error and validation returns early (recorded in
//! fixtures/validate-providers/aws-provider-config-overrides*). Planning decodes it
//! (`ConfigureProvider`): `plan_time` reports what that decoding finds, the merged body
//! decoded as a resource's is (`provider_bodies/overrides.rs`; recorded in
//! fixtures/plan-recorded/provider-config-overrides*). Neither reads an argument of an
//! overridden configuration that the provider's schema lacks: `ignored_arguments` warns
//! of each (as `schemas.rs` does for resources).

use super::arguments::{ignored_in_layers, Ignored};
use super::provider_bodies::{decode, overrides, provider_content};
use super::Diagnostic;
use crate::merge::{
    implied_local_name, resource_local_name, MergedModule, Provider, PROVIDER_META,
};
use crate::schema::{
    file_schema, BlockSchema, ProviderBody, ProviderSchemaSource, ResourceSchema, SchemaLookup,
};
use crate::syntax::{Body, Expr, ExprKind, JsonKind, TraversalStep};

/// What `terraform validate` reports of the configurations no override changes.
pub(super) fn check(
    m: &MergedModule,
    schemas: &dyn ProviderSchemaSource,
    out: &mut Vec<Diagnostic>,
) {
    for (p, schema, language) in used_configurations(m, schemas) {
        if !p.provenance.overrides.is_empty() {
            continue;
        }
        let decl = p.provenance.decl;
        let file = m.file(decl.file);
        let Some(block) = file
            .syntax
            .body
            .blocks_of("provider")
            .find(|b| b.span == p.provenance.decl_span)
        else {
            continue;
        };
        let content = provider_content(language, &block.body, m);
        decode(m, decl.file, &schema.block, &content, block, out);
    }
}

/// What `terraform plan` reports, configuring each provider, of the configurations an
/// override changes (validate skips them, so only planning finds these errors).
pub(super) fn plan_time(
    m: &MergedModule,
    schemas: &dyn ProviderSchemaSource,
    out: &mut Vec<Diagnostic>,
) {
    for (p, schema, language) in used_configurations(m, schemas) {
        if p.provenance.overrides.is_empty() {
            continue;
        }
        overrides::decode(m, &schema.block, language, &p.bodies, &p.config, out);
    }
}

/// A warning for each argument of a configuration an override changes that its
/// provider's schema lacks: Terraform reads neither when validating nor when planning.
pub(super) fn ignored_arguments(
    m: &MergedModule,
    schemas: &dyn ProviderSchemaSource,
    out: &mut Vec<Diagnostic>,
) {
    for p in m.providers.values() {
        if p.provenance.overrides.is_empty() {
            continue;
        }
        let address = m.local_provider(&p.name);
        let SchemaLookup::Found(schema) = schemas.lookup(&address, ProviderBody::Provider, "")
        else {
            continue;
        };
        let ignored = |name: &str| Ignored {
            summary: "Argument ignored in an overridden provider configuration",
            reason: format!(
                "The provider {} has no argument \"{name}\" in its configuration.",
                address.for_display()
            ),
            what: "a provider configuration",
        };
        ignored_in_layers(m, &p.bodies, PROVIDER_META, &schema.block, &ignored, out);
    }
}

/// Every configuration a resource of `m` uses whose provider's schema is known, with
/// that schema and the language's schema of a `provider` block.
fn used_configurations<'m>(
    m: &'m MergedModule,
    schemas: &dyn ProviderSchemaSource,
) -> Vec<(&'m Provider, ResourceSchema, &'static BlockSchema)> {
    let Some(language) = file_schema().block("provider", m.dialect) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for ((local, alias), p) in &m.providers {
        let used = m.resources.values().any(|r| {
            let named = r.provider.as_ref().and_then(|a| configuration(a.expr()));
            match named {
                Some((name, named_alias)) => name == *local && named_alias == *alias,
                None => alias.is_none() && resource_local_name(r) == *local,
            }
        });
        if !used {
            continue;
        }
        let address = m.local_provider(local);
        if let SchemaLookup::Found(schema) = schemas.lookup(&address, ProviderBody::Provider, "") {
            found.push((p, schema, &*language.schema));
        }
    }
    found
}

/// The address (`provider.aws.west`) of the configuration a resource, data source or
/// ephemeral resource block of type `type_name` uses: its `provider` argument's, else the
/// default configuration of the provider its type implies. The validate walk validates
/// the configuration before the objects that use it (`upstream.rs`).
pub(super) fn configuration_address(body: &Body, type_name: &str) -> String {
    let named = body
        .attribute("provider")
        .and_then(|a| configuration(&a.expr));
    match named {
        Some((local, Some(alias))) => format!("provider.{local}.{alias}"),
        Some((local, None)) => format!("provider.{local}"),
        None => format!("provider.{}", implied_local_name(type_name)),
    }
}

/// The configuration a `provider` argument names: its local name and alias.
fn configuration(expr: &Expr) -> Option<(String, Option<String>)> {
    let split = |s: &str| {
        let (name, alias) = match s.split_once('.') {
            Some((n, a)) => (n, Some(a.to_string())),
            None => (s, None),
        };
        Some((name.to_string(), alias))
    };
    match &expr.kind {
        ExprKind::Variable(id) => Some((id.name.to_string(), None)),
        ExprKind::Traversal { root, steps } => match (&root.kind, steps.as_slice()) {
            (ExprKind::Variable(id), [TraversalStep::Attr(alias)]) => {
                Some((id.name.to_string(), Some(alias.name.to_string())))
            }
            _ => None,
        },
        ExprKind::String(s) => split(s),
        ExprKind::Json(v) => match &v.kind {
            JsonKind::String(s) => split(s),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
#[path = "provider_configs_tests.rs"]
mod tests;
