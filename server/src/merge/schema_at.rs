//! The provider schema item at a place in a module's files, for hover: the body a
//! `resource`, `data`, `ephemeral` or `provider` block's header opens (with the provider
//! and where its schema came from), or the argument or nested block type under the cursor
//! inside such a body, found by walking the nested blocks down the schema
//! (`dynamic "X"` blocks through their `content`). In the JSON syntax the labels are the
//! header, and a property the schema makes a block type stands for blocks: its name
//! documents the type, its objects are the blocks' bodies.

use std::sync::Arc;

use super::{header_span, resource::META, FileIndex, MergedModule};
use crate::schema::{
    attribute_markdown, nested_block_markdown, provider_body_markdown, AttributeSchema,
    BlockSchema, NestedBlock, ProviderAddress, ProviderBody, ProviderSchemaSource, SchemaOrigin,
    ValueType,
};
use crate::syntax::{json_blocks, Block, Body, Span};

/// A provider schema item.
#[derive(Debug, Clone)]
pub enum SchemaItem {
    /// The body a block header opens, of the provider at `provider`.
    Body {
        /// The provider whose schema defines the body.
        provider: ProviderAddress,
        /// Where that schema came from.
        origin: Option<SchemaOrigin>,
        /// The body's schema.
        schema: Arc<BlockSchema>,
    },
    /// An argument.
    Attribute(AttributeSchema),
    /// A nested block type.
    Block(NestedBlock),
    /// An attribute of the objects of an attribute written as blocks (`from_port` in an
    /// `ingress` block): the object type gives only its name and type.
    Field {
        /// The attribute written as blocks.
        parent: Box<str>,
        /// The field's name.
        name: Box<str>,
        /// Its type.
        ty: ValueType,
    },
}

impl SchemaItem {
    /// Its documentation as Markdown.
    pub fn markdown(&self) -> String {
        match self {
            SchemaItem::Body {
                provider,
                origin,
                schema,
            } => provider_body_markdown(provider, origin.as_ref(), schema),
            SchemaItem::Attribute(a) => attribute_markdown(a),
            SchemaItem::Block(b) => nested_block_markdown(b),
            SchemaItem::Field { parent, name, ty } => {
                format!("`{name}`: `{ty}`, an attribute of the objects of `{parent}`")
            }
        }
    }
}

impl MergedModule {
    /// The schema item at `offset` in file `file`, with the span it documents; `None`
    /// outside provider-defined bodies, on meta-arguments, or when `schemas` does not
    /// know the body.
    pub fn schema_at(
        &self,
        file: FileIndex,
        offset: usize,
        schemas: &dyn ProviderSchemaSource,
    ) -> Option<(Span, SchemaItem)> {
        let block = self.top_block_at(file, offset)?;
        let (provider, kind, type_name) = self.body_provider(block)?;
        let schema = schemas.lookup(&provider, kind, &type_name).found()?.block;
        // In JSON the labels are the keys of objects around the body.
        let label = block.labels.iter().find(|l| l.span.contains(offset));
        let header = label.map_or(header_span(block), |l| l.span);
        if header.contains(offset) {
            let origin = schemas.origin(&provider);
            let item = SchemaItem::Body {
                provider,
                origin,
                schema,
            };
            return Some((header, item));
        }
        let meta: &[&str] = match kind {
            ProviderBody::Provider => &["alias", "version"],
            _ => META,
        };
        item_in(&block.body, &schema, offset, meta, self)
    }

    /// The provider whose schema defines the body of the top-level block at `offset` in
    /// file `file` (whatever the schema says of the item under the cursor).
    pub fn provider_at(&self, file: FileIndex, offset: usize) -> Option<ProviderAddress> {
        let block = self.top_block_at(file, offset)?;
        Some(self.body_provider(block)?.0)
    }

    fn top_block_at(&self, file: FileIndex, offset: usize) -> Option<&Block> {
        let body = &self.files.get(file as usize)?.syntax.body;
        body.blocks
            .iter()
            .find(|b| b.span.contains(offset))
            .map(|b| &**b)
    }

    /// The provider, body kind and type of a top-level block a provider defines: a
    /// `provider` block, or a resource, data source or ephemeral resource of this module.
    pub fn body_provider(&self, block: &Block) -> Option<(ProviderAddress, ProviderBody, String)> {
        if &*block.kind.name == "provider" {
            let provider = self.local_provider(block.label(0)?);
            return Some((provider, ProviderBody::Provider, String::new()));
        }
        let key = super::resource::key_of(block)?;
        let resource = self.resources.get(&key)?;
        Some((
            self.resource_provider(resource),
            key.mode.provider_body(),
            key.type_name,
        ))
    }
}

/// The item at `offset` inside `body` of schema `schema`, leaving out the names in `meta`.
fn item_in(
    body: &Body,
    schema: &BlockSchema,
    offset: usize,
    meta: &[&str],
    m: &MergedModule,
) -> Option<(Span, SchemaItem)> {
    if let Some(a) = body.attributes.iter().find(|a| a.span.contains(offset)) {
        if meta.contains(&&*a.name.name) {
            return None;
        }
        if let Some(block) = schema.block(&a.name.name, m.dialect) {
            // A JSON property standing for blocks: its name documents the block type,
            // the object under the cursor is one block's body.
            if a.name.span.contains(offset) {
                return Some((a.name.span, SchemaItem::Block(block.clone())));
            }
            let blocks = json_blocks(a)?;
            let inner = blocks.iter().find(|b| b.span.contains(offset))?;
            return item_in(&inner.body, &block.schema, offset, &[], m);
        }
        let attribute = schema.attribute(&a.name.name, m.dialect)?;
        return Some((a.span, SchemaItem::Attribute(attribute.clone())));
    }
    let nested = body.blocks.iter().find(|b| b.span.contains(offset))?;
    if meta.contains(&&*nested.kind.name) {
        return None;
    }
    let dynamic = &*nested.kind.name == "dynamic";
    let name = if dynamic {
        nested.label(0)?
    } else {
        &nested.kind.name
    };
    let header = header_span(nested);
    if let Some(block) = schema.block(name, m.dialect) {
        if header.contains(offset) {
            return Some((header, SchemaItem::Block(block.clone())));
        }
        let inner = if dynamic {
            &nested
                .body
                .blocks_of("content")
                .find(|c| c.span.contains(offset))?
                .body
        } else {
            &nested.body
        };
        return item_in(inner, &block.schema, offset, &[], m);
    }
    // An attribute written as blocks: its header documents the attribute, its arguments
    // are the fields of the attribute's object type.
    let attribute = schema
        .attribute(name, m.dialect)
        .filter(|a| a.accepts_blocks())?;
    if header.contains(offset) {
        return Some((header, SchemaItem::Attribute(attribute.clone())));
    }
    let field = nested
        .body
        .attributes
        .iter()
        .find(|a| a.span.contains(offset))?;
    let Some(ValueType::List(element) | ValueType::Set(element)) = &attribute.value_type else {
        return None;
    };
    let ValueType::Object { attributes, .. } = &**element else {
        return None;
    };
    let ty = attributes.get(&*field.name.name)?.clone();
    let item = SchemaItem::Field {
        parent: attribute.name.clone(),
        name: field.name.name.clone(),
        ty,
    };
    Some((field.span, item))
}
