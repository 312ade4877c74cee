//! Schema files: the format `terraform providers schema -json` prints (format version
//! 1.x), read into `schema::ProviderSchema` values and written back from them. Users who
//! cannot run provider binaries (or CI) give Strata such a file; `strata schemas export`
//! writes one from what Strata found.
//!
//! Reading is strict about shapes (a wrong shape is an error naming the JSON path, never a
//! silently different schema) and lenient about fields it does not know, which newer
//! Terraform versions may add.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::schema::{
    arg, block, AttributeSchema, BlockRole, BlockSchema, DescriptionKind, FunctionParameter,
    NestedAttributes, NestedBlock, Nesting, ProviderFunction, ProviderSchema, Requirement,
    ResourceSchema, ValueType,
};

/// The format version Strata writes; it reads any `1.x`.
pub const FORMAT_VERSION: &str = "1.0";

/// Provider schemas by provider source address (`registry.terraform.io/hashicorp/aws`).
pub type ProviderSchemas = BTreeMap<String, ProviderSchema>;

/// Why a schema file cannot be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SchemaFileError {
    /// Not JSON at all.
    #[error("not valid JSON: {0}")]
    Json(String),
    /// A format version this reader does not know.
    #[error("unsupported format_version {0:?} (expected 1.x)")]
    FormatVersion(String),
    /// JSON of the wrong shape at `path`.
    #[error("{path}: {message}")]
    Shape {
        /// Where, as `provider_schemas["…"].resource_schemas["…"].block…`.
        path: String,
        /// What is wrong there.
        message: String,
    },
}

type Read<T> = Result<T, SchemaFileError>;

fn shape(path: &str, message: &str) -> SchemaFileError {
    SchemaFileError::Shape {
        path: path.to_string(),
        message: message.to_string(),
    }
}

/// Reads a whole schema file.
pub fn read_schema_file(text: &str) -> Read<ProviderSchemas> {
    let json: Value =
        serde_json::from_str(text).map_err(|e| SchemaFileError::Json(e.to_string()))?;
    let version = json["format_version"].as_str().unwrap_or_default();
    if version.split('.').next() != Some("1") {
        return Err(SchemaFileError::FormatVersion(version.to_string()));
    }
    let mut schemas = BTreeMap::new();
    for (address, provider) in object(&json["provider_schemas"], "provider_schemas", true)? {
        let path = format!("provider_schemas[{address:?}]");
        schemas.insert(address.clone(), read_provider(provider, &path)?);
    }
    Ok(schemas)
}

/// Writes `schemas` in the format `read_schema_file` reads.
pub fn write_schema_file(schemas: &ProviderSchemas) -> Value {
    let providers: Map<String, Value> = schemas
        .iter()
        .map(|(address, p)| (address.clone(), write_provider(p)))
        .collect();
    serde_json::json!({ "format_version": FORMAT_VERSION, "provider_schemas": providers })
}

/// The object at `path`; a missing value is an empty object when `optional`.
fn object<'a>(value: &'a Value, path: &str, optional: bool) -> Read<&'a Map<String, Value>> {
    static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);
    match value {
        Value::Object(map) => Ok(map),
        Value::Null if optional => Ok(&EMPTY),
        _ => Err(shape(path, "expected an object")),
    }
}

fn text(value: &Value, path: &str) -> Read<Box<str>> {
    match value {
        Value::String(s) => Ok(s.as_str().into()),
        Value::Null => Ok("".into()),
        _ => Err(shape(path, "expected a string")),
    }
}

fn flag(value: &Value, path: &str) -> Read<bool> {
    match value {
        Value::Bool(b) => Ok(*b),
        Value::Null => Ok(false),
        _ => Err(shape(path, "expected true or false")),
    }
}

fn count(value: &Value, path: &str) -> Read<u64> {
    match value {
        Value::Null => Ok(0),
        v => v.as_u64().ok_or_else(|| shape(path, "expected a count")),
    }
}

fn value_type(value: &Value, path: &str) -> Read<ValueType> {
    ValueType::from_json(value).ok_or_else(|| shape(path, "expected a type"))
}

fn description_kind(value: &Value, path: &str) -> Read<DescriptionKind> {
    match value.as_str() {
        None | Some("plain") => Ok(DescriptionKind::Plain),
        Some("markdown") => Ok(DescriptionKind::Markdown),
        Some(_) => Err(shape(path, "expected \"plain\" or \"markdown\"")),
    }
}

fn read_provider(json: &Value, path: &str) -> Read<ProviderSchema> {
    let provider = match &json["provider"] {
        Value::Null => ResourceSchema::blockless(),
        p => read_resource(p, &format!("{path}.provider"))?,
    };
    let kinds = |field: &str| -> Read<BTreeMap<Box<str>, ResourceSchema>> {
        let mut out = BTreeMap::new();
        for (name, r) in object(&json[field], &format!("{path}.{field}"), true)? {
            let at = format!("{path}.{field}[{name:?}]");
            out.insert(name.as_str().into(), read_resource(r, &at)?);
        }
        Ok(out)
    };
    Ok(ProviderSchema {
        provider,
        resources: kinds("resource_schemas")?,
        data_sources: kinds("data_source_schemas")?,
        ephemeral_resources: kinds("ephemeral_resource_schemas")?,
        functions: read_functions(&json["functions"], &format!("{path}.functions"))?,
    })
}

/// A provider's `functions` object (absent: none), by name.
pub(crate) fn read_functions(
    json: &Value,
    path: &str,
) -> Read<BTreeMap<Box<str>, ProviderFunction>> {
    let mut functions = BTreeMap::new();
    for (name, f) in object(json, path, true)? {
        let at = format!("{path}[{name:?}]");
        functions.insert(name.as_str().into(), read_function(f, &at)?);
    }
    Ok(functions)
}

pub(crate) fn read_resource(json: &Value, path: &str) -> Read<ResourceSchema> {
    let version = match &json["version"] {
        Value::Null => 0,
        v => v
            .as_i64()
            .ok_or_else(|| shape(&format!("{path}.version"), "expected an integer"))?,
    };
    let block = match &json["block"] {
        Value::Null => BlockSchema::default(),
        b => read_block(b, &format!("{path}.block"))?,
    };
    Ok(ResourceSchema {
        version,
        block: Arc::new(block),
        blockless: json["block"].is_null(),
    })
}

fn read_block(json: &Value, path: &str) -> Read<BlockSchema> {
    let mut schema = block(&text(&json["description"], &format!("{path}.description"))?);
    schema.doc_kind = description_kind(&json["description_kind"], path)?;
    if flag(&json["deprecated"], &format!("{path}.deprecated"))? {
        schema.deprecated = Some("".into());
    }
    let attributes = object(&json["attributes"], &format!("{path}.attributes"), true)?;
    for (name, a) in attributes {
        let at = format!("{path}.attributes[{name:?}]");
        schema.attributes.push(read_attribute(name, a, &at)?);
    }
    let blocks = object(&json["block_types"], &format!("{path}.block_types"), true)?;
    for (name, b) in blocks {
        let at = format!("{path}.block_types[{name:?}]");
        let nesting = nesting(&json_at(b, "nesting_mode"), &format!("{at}.nesting_mode"))?;
        let nested = read_block(&b["block"], &format!("{at}.block"))?;
        let items = (
            count(&b["min_items"], &format!("{at}.min_items"))?,
            count(&b["max_items"], &format!("{at}.max_items"))?,
        );
        schema
            .blocks
            .push(nested_block(name, nested, nesting, items));
    }
    Ok(schema)
}

/// A provider's nested block type; a `map` block takes one label, its key.
pub(super) fn nested_block(
    name: &str,
    body: BlockSchema,
    nesting: Nesting,
    (min_items, max_items): (u64, u64),
) -> NestedBlock {
    let body = if nesting == Nesting::Map {
        body.label("key")
    } else {
        body
    };
    NestedBlock {
        name: name.into(),
        schema: Arc::new(body),
        nesting,
        role: BlockRole::Normal,
        dialects: Default::default(),
        duplicate: None,
        min_items,
        max_items,
    }
}

/// What a provider schema says of an attribute besides its name, type and description.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Flags {
    pub required: bool,
    pub optional: bool,
    pub computed: bool,
    pub sensitive: bool,
    pub write_only: bool,
    pub deprecated: bool,
}

/// A provider attribute: `value_type` is its type, or `nested` its nested attributes.
pub(super) fn attribute(
    name: &str,
    (doc, doc_kind): (&str, DescriptionKind),
    flags: Flags,
    value_type: ValueType,
    nested: Option<NestedAttributes>,
) -> AttributeSchema {
    let mut a = arg(name, "", doc);
    a.doc_kind = doc_kind;
    a.requirement = match (flags.required, flags.optional, flags.computed) {
        (true, _, _) => Requirement::Required,
        (false, false, true) => Requirement::Computed,
        _ => Requirement::Optional,
    };
    a.computed = flags.computed;
    a.sensitive = flags.sensitive;
    a.write_only = flags.write_only;
    a.deprecated = flags.deprecated.then(|| "".into());
    let value_type = nested
        .as_ref()
        .map_or(value_type, NestedAttributes::value_type);
    a.ty = value_type.to_string().into();
    a.value_type = Some(value_type);
    a.nested = nested.map(Arc::new);
    a
}

fn json_at(json: &Value, field: &str) -> Value {
    json.get(field).cloned().unwrap_or(Value::Null)
}

fn nesting(json: &Value, path: &str) -> Read<Nesting> {
    Ok(match json.as_str() {
        Some("single") => Nesting::Single,
        Some("group") => Nesting::Group,
        Some("list") => Nesting::List,
        Some("set") => Nesting::Set,
        Some("map") => Nesting::Map,
        _ => return Err(shape(path, "expected a nesting mode")),
    })
}

fn nesting_name(nesting: Nesting) -> &'static str {
    match nesting {
        Nesting::Single => "single",
        Nesting::Group => "group",
        Nesting::List => "list",
        Nesting::Set => "set",
        Nesting::Map => "map",
    }
}

fn read_attribute(name: &str, json: &Value, path: &str) -> Read<AttributeSchema> {
    let doc = text(&json["description"], &format!("{path}.description"))?;
    let doc_kind = description_kind(&json["description_kind"], path)?;
    let is = |field: &str| flag(&json[field], &format!("{path}.{field}"));
    let flags = Flags {
        required: is("required")?,
        optional: is("optional")?,
        computed: is("computed")?,
        sensitive: is("sensitive")?,
        write_only: is("write_only")?,
        deprecated: is("deprecated")?,
    };
    let (value_type, nested) = match &json["nested_type"] {
        Value::Null => (value_type(&json["type"], &format!("{path}.type"))?, None),
        nested => {
            let nested = read_nested(nested, &format!("{path}.nested_type"))?;
            (ValueType::Dynamic, Some(nested))
        }
    };
    Ok(attribute(name, (&doc, doc_kind), flags, value_type, nested))
}

fn read_nested(json: &Value, path: &str) -> Read<NestedAttributes> {
    let nesting = nesting(
        &json_at(json, "nesting_mode"),
        &format!("{path}.nesting_mode"),
    )?;
    let mut attributes = Vec::new();
    for (name, a) in object(&json["attributes"], &format!("{path}.attributes"), false)? {
        let at = format!("{path}.attributes[{name:?}]");
        attributes.push(read_attribute(name, a, &at)?);
    }
    Ok(NestedAttributes {
        nesting,
        attributes,
    })
}

fn read_function(json: &Value, path: &str) -> Read<ProviderFunction> {
    let parameter = |p: &Value, at: &str| -> Read<FunctionParameter> {
        Ok(FunctionParameter {
            name: text(&p["name"], &format!("{at}.name"))?,
            description: text(&p["description"], &format!("{at}.description"))?,
            description_kind: description_kind(&p["description_kind"], at)?,
            ty: value_type(&p["type"], &format!("{at}.type"))?,
            allow_null: flag(&p["is_nullable"], &format!("{at}.is_nullable"))?,
            allow_unknown: false,
        })
    };
    let parameters = match &json["parameters"] {
        Value::Null => Vec::new(),
        Value::Array(ps) => ps
            .iter()
            .enumerate()
            .map(|(i, p)| parameter(p, &format!("{path}.parameters[{i}]")))
            .collect::<Read<_>>()?,
        _ => return Err(shape(&format!("{path}.parameters"), "expected an array")),
    };
    let variadic = match &json["variadic_parameter"] {
        Value::Null => None,
        p => Some(parameter(p, &format!("{path}.variadic_parameter"))?),
    };
    let deprecation = text(&json["deprecation_message"], path)?;
    Ok(ProviderFunction {
        summary: text(&json["summary"], &format!("{path}.summary"))?,
        description: text(&json["description"], &format!("{path}.description"))?,
        description_kind: description_kind(&json["description_kind"], path)?,
        deprecation: (!deprecation.is_empty()).then_some(deprecation),
        parameters,
        variadic,
        return_type: value_type(&json["return_type"], &format!("{path}.return_type"))?,
    })
}

pub(crate) fn write_provider(p: &ProviderSchema) -> Value {
    let mut out = Map::new();
    out.insert("provider".into(), write_resource(&p.provider));
    for (field, kinds) in [
        ("resource_schemas", &p.resources),
        ("data_source_schemas", &p.data_sources),
        ("ephemeral_resource_schemas", &p.ephemeral_resources),
    ] {
        if !kinds.is_empty() {
            let kinds = kinds
                .iter()
                .map(|(n, r)| (n.to_string(), write_resource(r)));
            out.insert(field.into(), Value::Object(kinds.collect()));
        }
    }
    if !p.functions.is_empty() {
        let functions = p
            .functions
            .iter()
            .map(|(n, f)| (n.to_string(), write_function(f)));
        out.insert("functions".into(), Value::Object(functions.collect()));
    }
    Value::Object(out)
}

fn write_resource(r: &ResourceSchema) -> Value {
    let mut out = Map::new();
    out.insert("version".into(), r.version.into());
    // Terraform leaves out the block of a schema that has none (the builtin provider's),
    // and writes an empty one a provider sent (`hashicorp/null`'s configuration).
    if !r.blockless {
        out.insert("block".into(), write_block(&r.block));
    }
    Value::Object(out)
}

/// Adds `field` only when it says something, as Terraform's `omitempty` fields do.
fn put(out: &mut Map<String, Value>, field: &str, value: Value) {
    let empty = match &value {
        Value::Bool(b) => !b,
        Value::String(s) => s.is_empty(),
        Value::Object(m) => m.is_empty(),
        Value::Number(n) => n.as_u64() == Some(0),
        _ => false,
    };
    if !empty {
        out.insert(field.into(), value);
    }
}

fn kind_name(kind: DescriptionKind) -> &'static str {
    match kind {
        DescriptionKind::Plain => "plain",
        DescriptionKind::Markdown => "markdown",
    }
}

fn write_block(b: &BlockSchema) -> Value {
    let mut out = Map::new();
    let attributes = b
        .attributes
        .iter()
        .map(|a| (a.name.to_string(), write_attribute(a)));
    put(&mut out, "attributes", Value::Object(attributes.collect()));
    let mut blocks = Map::new();
    for nested in &b.blocks {
        let mut body = (*nested.schema).clone();
        if nested.nesting == Nesting::Map {
            body.labels.clear();
        }
        let mut n = Map::new();
        n.insert("nesting_mode".into(), nesting_name(nested.nesting).into());
        n.insert("block".into(), write_block(&body));
        put(&mut n, "min_items", nested.min_items.into());
        put(&mut n, "max_items", nested.max_items.into());
        blocks.insert(nested.name.to_string(), Value::Object(n));
    }
    put(&mut out, "block_types", Value::Object(blocks));
    put(&mut out, "description", (*b.doc).into());
    out.insert("description_kind".into(), kind_name(b.doc_kind).into());
    put(&mut out, "deprecated", b.deprecated.is_some().into());
    Value::Object(out)
}

fn write_attribute(a: &AttributeSchema) -> Value {
    let mut out = Map::new();
    match (&a.nested, &a.value_type) {
        (Some(nested), _) => {
            let attributes = nested
                .attributes
                .iter()
                .map(|a| (a.name.to_string(), write_attribute(a)));
            let nested = serde_json::json!({
                "attributes": Value::Object(attributes.collect()),
                "nesting_mode": nesting_name(nested.nesting),
            });
            out.insert("nested_type".into(), nested);
        }
        (None, Some(t)) => {
            out.insert("type".into(), t.to_json());
        }
        (None, None) => {
            out.insert("type".into(), ValueType::Dynamic.to_json());
        }
    }
    put(&mut out, "description", (*a.doc).into());
    out.insert("description_kind".into(), kind_name(a.doc_kind).into());
    put(&mut out, "deprecated", a.deprecated.is_some().into());
    put(
        &mut out,
        "required",
        (a.requirement == Requirement::Required).into(),
    );
    put(
        &mut out,
        "optional",
        (a.requirement == Requirement::Optional).into(),
    );
    put(&mut out, "computed", a.computed.into());
    put(&mut out, "sensitive", a.sensitive.into());
    put(&mut out, "write_only", a.write_only.into());
    Value::Object(out)
}

fn write_function(f: &ProviderFunction) -> Value {
    let parameter = |p: &FunctionParameter| {
        let mut out = Map::new();
        out.insert("name".into(), (*p.name).into());
        put(&mut out, "description", (*p.description).into());
        put(&mut out, "is_nullable", p.allow_null.into());
        out.insert("type".into(), p.ty.to_json());
        Value::Object(out)
    };
    let mut out = Map::new();
    put(&mut out, "description", (*f.description).into());
    put(&mut out, "summary", (*f.summary).into());
    if let Some(why) = &f.deprecation {
        put(&mut out, "deprecation_message", (**why).into());
    }
    out.insert("return_type".into(), f.return_type.to_json());
    if !f.parameters.is_empty() {
        let parameters = f.parameters.iter().map(parameter).collect();
        out.insert("parameters".into(), Value::Array(parameters));
    }
    if let Some(v) = &f.variadic {
        out.insert("variadic_parameter".into(), parameter(v));
    }
    Value::Object(out)
}

#[cfg(test)]
#[path = "schema_file_tests.rs"]
mod tests;

/// The largest schema file Strata reads (the AWS provider's schema is about 40 MB).
pub const MAX_SCHEMA_FILE_BYTES: u64 = 512 * 1024 * 1024;

/// Why a schema file given by path cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LoadSchemaFileError {
    /// The file cannot be read.
    #[error("{path}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: crate::text::read::ReadError,
    },
    /// The file is not a schema file.
    #[error("{path}")]
    Schema {
        /// The file.
        path: String,
        /// Why.
        source: SchemaFileError,
    },
    /// A provider address in the file does not parse.
    #[error("{path}: invalid provider address {address:?}")]
    Address {
        /// The file.
        path: String,
        /// The address as written.
        address: String,
    },
}

/// Reads schema files into one source for analysis; a provider in a later file replaces
/// the same provider from an earlier one.
pub fn load_schema_files(
    paths: &[std::path::PathBuf],
) -> Result<crate::schema::LoadedProviderSchemas, LoadSchemaFileError> {
    let mut loaded = crate::schema::LoadedProviderSchemas::default();
    for path in paths {
        let shown = path.display().to_string();
        let bytes =
            crate::text::read::read_bounded(path, MAX_SCHEMA_FILE_BYTES).map_err(|source| {
                LoadSchemaFileError::Read {
                    path: shown.clone(),
                    source,
                }
            })?;
        let text = String::from_utf8_lossy(&bytes);
        let schemas = read_schema_file(&text).map_err(|source| LoadSchemaFileError::Schema {
            path: shown.clone(),
            source,
        })?;
        for (address, schema) in schemas {
            let parsed =
                crate::schema::ProviderAddress::parse(&address, crate::schema::Dialect::Terraform)
                    .ok_or_else(|| LoadSchemaFileError::Address {
                        path: shown.clone(),
                        address: address.clone(),
                    })?;
            let origin = crate::schema::SchemaOrigin {
                version: None,
                from: shown.clone(),
            };
            loaded.schemas.insert(parsed, (schema, origin));
        }
    }
    Ok(loaded)
}
