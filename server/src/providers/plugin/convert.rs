//! A `GetProviderSchema` response as a `schema::ProviderSchema`: the same values a schema
//! file gives (`schema_file.rs` builds attributes and nested blocks the same way), with
//! attributes and block types sorted by name as Terraform lists them.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use super::messages::{self, v5, v6, MARKDOWN};
use crate::providers::schema_file::{attribute, nested_block, Flags};
use crate::schema::{
    block, BlockSchema, DescriptionKind, FunctionParameter, NestedAttributes, Nesting,
    ProviderFunction, ProviderSchema, ResourceSchema, ValueType,
};

/// Why a response cannot be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("the provider sent an invalid type for {0}")]
pub struct InvalidType(pub String);

type Read<T> = Result<T, InvalidType>;

/// Reads a protocol 6 response.
pub fn provider_schema(response: &v6::GetProviderSchemaResponse) -> Read<ProviderSchema> {
    let kinds = |schemas: &HashMap<String, v6::Schema>| -> Read<_> {
        let mut out = BTreeMap::new();
        for (name, s) in schemas {
            out.insert(name.as_str().into(), resource(s, name)?);
        }
        Ok(out)
    };
    let mut functions = BTreeMap::new();
    for (name, f) in &response.functions {
        functions.insert(name.as_str().into(), function(f, name)?);
    }
    let provider = match &response.provider {
        Some(p) => resource(p, "the provider")?,
        None => ResourceSchema::blockless(),
    };
    Ok(ProviderSchema {
        provider,
        resources: kinds(&response.resource_schemas)?,
        data_sources: kinds(&response.data_source_schemas)?,
        ephemeral_resources: kinds(&response.ephemeral_resource_schemas)?,
        functions,
    })
}

fn kind(description_kind: i32) -> DescriptionKind {
    if description_kind == MARKDOWN {
        DescriptionKind::Markdown
    } else {
        DescriptionKind::Plain
    }
}

fn value_type(json: &[u8], what: &str) -> Read<ValueType> {
    serde_json::from_slice(json)
        .ok()
        .and_then(|v| ValueType::from_json(&v))
        .ok_or_else(|| InvalidType(what.to_string()))
}

fn nesting(mode: i32) -> Nesting {
    match mode {
        1 => Nesting::Single,
        3 => Nesting::Set,
        4 => Nesting::Map,
        5 => Nesting::Group,
        _ => Nesting::List,
    }
}

fn resource(s: &v6::Schema, what: &str) -> Read<ResourceSchema> {
    let body = match &s.block {
        Some(b) => block_schema(b, what)?,
        None => BlockSchema::default(),
    };
    Ok(ResourceSchema {
        version: s.version,
        block: Arc::new(body),
        blockless: s.block.is_none(),
    })
}

fn block_schema(b: &v6::Block, what: &str) -> Read<BlockSchema> {
    let mut schema = block(&b.description);
    schema.doc_kind = kind(b.description_kind);
    schema.deprecated = b.deprecated.then(|| "".into());
    schema.attributes = attributes(&b.attributes, what)?;
    let mut nested: Vec<&v6::NestedBlock> = b.block_types.iter().collect();
    nested.sort_by(|x, y| x.type_name.cmp(&y.type_name));
    for n in nested {
        let inner = format!("{what}.{}", n.type_name);
        let body = match &n.block {
            Some(b) => block_schema(b, &inner)?,
            None => BlockSchema::default(),
        };
        let items = (n.min_items.max(0) as u64, n.max_items.max(0) as u64);
        let nesting = nesting(n.nesting);
        schema
            .blocks
            .push(nested_block(&n.type_name, body, nesting, items));
    }
    Ok(schema)
}

fn attributes(list: &[v6::Attribute], what: &str) -> Read<Vec<crate::schema::AttributeSchema>> {
    let mut sorted: Vec<&v6::Attribute> = list.iter().collect();
    sorted.sort_by(|x, y| x.name.cmp(&y.name));
    sorted
        .into_iter()
        .map(|a| {
            let inner = format!("{what}.{}", a.name);
            let flags = Flags {
                required: a.required,
                optional: a.optional,
                computed: a.computed,
                sensitive: a.sensitive,
                write_only: a.write_only,
                deprecated: a.deprecated,
            };
            let doc = (a.description.as_str(), kind(a.description_kind));
            let (value_type, nested) = match &a.nested_type {
                Some(object) => {
                    let nested = NestedAttributes {
                        nesting: nesting(object.nesting),
                        attributes: attributes(&object.attributes, &inner)?,
                    };
                    (ValueType::Dynamic, Some(nested))
                }
                None => (value_type(&a.r#type, &inner)?, None),
            };
            Ok(attribute(&a.name, doc, flags, value_type, nested))
        })
        .collect()
}

fn function(f: &messages::Function, name: &str) -> Read<ProviderFunction> {
    let parameter = |p: &messages::Parameter| -> Read<FunctionParameter> {
        Ok(FunctionParameter {
            name: p.name.as_str().into(),
            description: p.description.as_str().into(),
            description_kind: kind(p.description_kind),
            ty: value_type(&p.r#type, &format!("{name}({})", p.name))?,
            allow_null: p.allow_null_value,
            allow_unknown: p.allow_unknown_values,
        })
    };
    let return_type = match &f.r#return {
        Some(r) => value_type(&r.r#type, name)?,
        None => return Err(InvalidType(name.to_string())),
    };
    Ok(ProviderFunction {
        summary: f.summary.as_str().into(),
        description: f.description.as_str().into(),
        description_kind: kind(f.description_kind),
        deprecation: (!f.deprecation_message.is_empty())
            .then(|| f.deprecation_message.as_str().into()),
        parameters: f.parameters.iter().map(parameter).collect::<Read<_>>()?,
        variadic: f.variadic_parameter.as_ref().map(parameter).transpose()?,
        return_type,
    })
}

/// A protocol 5 response in protocol 6's messages: the same but for nested attributes,
/// which protocol 5 does not have.
pub fn upgrade(r: v5::GetProviderSchemaResponse) -> v6::GetProviderSchemaResponse {
    let schemas = |m: HashMap<String, v5::Schema>| -> HashMap<String, v6::Schema> {
        m.into_iter().map(|(k, s)| (k, upgrade_schema(s))).collect()
    };
    v6::GetProviderSchemaResponse {
        provider: r.provider.map(upgrade_schema),
        resource_schemas: schemas(r.resource_schemas),
        data_source_schemas: schemas(r.data_source_schemas),
        diagnostics: r.diagnostics,
        functions: r.functions,
        ephemeral_resource_schemas: schemas(r.ephemeral_resource_schemas),
    }
}

fn upgrade_schema(s: v5::Schema) -> v6::Schema {
    v6::Schema {
        version: s.version,
        block: s.block.map(upgrade_block),
    }
}

fn upgrade_block(b: v5::Block) -> v6::Block {
    v6::Block {
        attributes: b.attributes.into_iter().map(upgrade_attribute).collect(),
        block_types: b
            .block_types
            .into_iter()
            .map(|n| v6::NestedBlock {
                type_name: n.type_name,
                block: n.block.map(upgrade_block),
                nesting: n.nesting,
                min_items: n.min_items,
                max_items: n.max_items,
            })
            .collect(),
        description: b.description,
        description_kind: b.description_kind,
        deprecated: b.deprecated,
    }
}

fn upgrade_attribute(a: v5::Attribute) -> v6::Attribute {
    v6::Attribute {
        name: a.name,
        r#type: a.r#type,
        nested_type: None,
        description: a.description,
        required: a.required,
        optional: a.optional,
        computed: a.computed,
        sensitive: a.sensitive,
        description_kind: a.description_kind,
        deprecated: a.deprecated,
        write_only: a.write_only,
    }
}
