//! `provider` blocks decoded against their provider's configuration schema, as the
//! validate walk decodes them (`NodeApplyableProvider.ValidateProvider`, with the same
//! decoding as resource bodies, `provider_bodies.rs`). Terraform prunes a configuration
//! nothing uses from the walk, so only the configurations a resource of the module names
//! (by its `provider` argument, or implicitly the default one of its type's provider) are
//! decoded; one only a module call passes on is left alone, as is one an override file
//! changes.

use super::provider_bodies::{decode, provider_content};
use super::Diagnostic;
use crate::merge::{implied_local_name, resource_local_name, MergedModule};
use crate::schema::{file_schema, ProviderBody, ProviderSchemaSource, SchemaLookup};
use crate::syntax::{Body, Expr, ExprKind, JsonKind, TraversalStep};

pub(super) fn check(
    m: &MergedModule,
    schemas: &dyn ProviderSchemaSource,
    out: &mut Vec<Diagnostic>,
) {
    let Some(language) = file_schema().block("provider", m.dialect) else {
        return;
    };
    for ((local, alias), p) in &m.providers {
        let used = m.resources.values().any(|r| {
            let named = r.provider.as_ref().and_then(|a| configuration(a.expr()));
            match named {
                Some((name, named_alias)) => name == *local && named_alias == *alias,
                None => alias.is_none() && resource_local_name(r) == *local,
            }
        });
        let decl = p.provenance.decl;
        if !used || !p.provenance.overrides.is_empty() {
            continue;
        }
        let address = m.local_provider(local);
        let SchemaLookup::Found(schema) = schemas.lookup(&address, ProviderBody::Provider, "")
        else {
            continue;
        };
        let file = m.file(decl.file);
        let Some(block) = file
            .syntax
            .body
            .blocks_of("provider")
            .find(|b| b.span == p.provenance.decl_span)
        else {
            continue;
        };
        let content = provider_content(&language.schema, &block.body, m);
        decode(m, decl.file, &schema.block, &content, block, out);
    }
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
