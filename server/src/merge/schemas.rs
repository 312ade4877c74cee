//! Override merging directed by provider schemas (spec §1.5): Terraform merges a
//! resource's body (and a provider configuration's) lazily, decoding the base and each
//! override with the schema of the resource type (or of the provider), so the schema, not the syntax, says which names are attributes
//! (replaced one by one) and which are nested block types (all blocks of a type replaced
//! by the override's). What the schema does not ask for is left aside unread: an
//! argument written as a block, a block written as an argument, names the type does not
//! have. Attributes that accept blocks (`blocktoattr`, e.g. `ingress` in
//! `aws_security_group`) are blocks unless some layer sets them as an attribute.
//!
//! Only bodies an override changed are re-merged: a body alone is decoded as written, and
//! what it holds in excess is the check layer's to report.

use super::named::PROVIDER_META;
use super::resource::META;
use super::{effective_block_type, MergedBody, MergedModule, Nested};
use crate::module::{Dialect, Module};
use crate::schema::{BlockSchema, ProviderBody, ProviderSchemaSource, SchemaLookup};
use std::borrow::Cow;

use crate::syntax::{json_blocks, Block, Body};

/// Merges a module's files as `merge` does, then re-merges every overridden resource body
/// whose provider schema `schemas` knows. With no schema the result is `merge`'s.
pub fn merge_with(module: &Module, schemas: &dyn ProviderSchemaSource) -> MergedModule {
    let mut merged = super::merge(module);
    merged.apply_provider_schemas(schemas);
    merged
}

impl MergedModule {
    /// Re-merges overridden resource bodies with their types' schemas, and overridden
    /// provider configurations with their providers' schemas.
    fn apply_provider_schemas(&mut self, schemas: &dyn ProviderSchemaSource) {
        let dialect = self.dialect;
        let found: Vec<_> = self
            .resources
            .iter()
            .filter(|(_, r)| r.bodies.len() > 1)
            .filter_map(|(key, r)| {
                let provider = self.resource_provider(r);
                match schemas.lookup(&provider, key.mode.provider_body(), &key.type_name) {
                    SchemaLookup::Found(schema) => Some((key.clone(), schema)),
                    SchemaLookup::NoSuchType | SchemaLookup::Unavailable => None,
                }
            })
            .collect();
        for (key, schema) in found {
            if let Some(r) = self.resources.get_mut(&key) {
                r.config = schema_body(&r.bodies, META, &schema.block, dialect);
            }
        }
        let configured: Vec<_> = self
            .providers
            .iter()
            .filter(|(_, p)| p.bodies.len() > 1)
            .filter_map(|(key, p)| {
                let provider = self.local_provider(&p.name);
                let schema = schemas
                    .lookup(&provider, ProviderBody::Provider, "")
                    .found()?;
                Some((key.clone(), schema))
            })
            .collect();
        for (key, schema) in configured {
            if let Some(p) = self.providers.get_mut(&key) {
                p.config = schema_body(&p.bodies, PROVIDER_META, &schema.block, dialect);
            }
        }
    }
}

/// A body merged from its declaration and overrides (`bodies`) as the schema reads it,
/// leaving out the names in `meta` (the block's own arguments and blocks).
fn schema_body(
    bodies: &[Nested],
    meta: &[&str],
    schema: &BlockSchema,
    dialect: Dialect,
) -> MergedBody {
    let layers: Vec<(Cow<'_, Body>, _)> = bodies
        .iter()
        .map(|Nested { block, file }| (as_read(&block.body, schema, dialect), *file))
        .collect();
    // `blocktoattr` probes the merged body: an attribute set in any layer wins.
    let set_as_attribute = |name: &str| {
        layers
            .iter()
            .any(|(body, _)| body.attribute(name).is_some())
    };
    let is_attribute = |name: &str| match schema.attribute(name, dialect) {
        Some(a) => !a.accepts_blocks() || set_as_attribute(name),
        None => false,
    };
    let is_block_type = |name: &str| {
        schema.block(name, dialect).is_some()
            || schema
                .attribute(name, dialect)
                .is_some_and(|a| a.accepts_blocks() && !set_as_attribute(name))
    };
    let keep_attribute = |name: &str| !meta.contains(&name) && is_attribute(name);
    let keep_block = |block: &Block| {
        let kind = &*block.kind.name;
        // The escaping block `_` holds meta-argument names; it stays as written.
        kind == "_" || (!meta.contains(&kind) && is_block_type(effective_block_type(block)))
    };
    let mut merged = MergedBody::default();
    for (body, file) in &layers {
        merged.apply_kept(body, *file, &keep_attribute, &keep_block);
    }
    merged
}

/// A body as the schema reads it: in the JSON syntax a property named like a nested block
/// type holds blocks (a property named like an attribute that accepts blocks stays the
/// attribute, as Terraform prefers there).
fn as_read<'b>(body: &'b Body, schema: &BlockSchema, dialect: Dialect) -> Cow<'b, Body> {
    let is_block_property = |a: &crate::syntax::Attribute| {
        schema.block(&a.name.name, dialect).is_some() && json_blocks(a).is_some()
    };
    if !body.attributes.iter().any(|a| is_block_property(a)) {
        return Cow::Borrowed(body);
    }
    let mut read = Body {
        attributes: Vec::new(),
        blocks: body.blocks.clone(),
    };
    for a in &body.attributes {
        match json_blocks(a).filter(|_| schema.block(&a.name.name, dialect).is_some()) {
            Some(blocks) => read.blocks.extend(blocks),
            None => read.attributes.push(a.clone()),
        }
    }
    Cow::Owned(read)
}
