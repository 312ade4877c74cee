//! One provider's schema as the store keeps it, in memory and in a cache file: every
//! body (the provider's configuration, each resource type, data source and ephemeral
//! resource type, the functions) is its own gzip member of the JSON that `terraform
//! providers schema -json` prints for it, behind a small header that indexes them by
//! name. Loading an entry reads the header and checks the body's checksum; a body is
//! decompressed and converted to a `ResourceSchema` only when it is first looked up,
//! once (the AWS provider has 2,000 bodies, and a module uses a handful).
//!
//! Layout: `MAGIC`, the header's length (u32, little-endian), the header (JSON), the body
//! (the gzip members, one after another).

use std::collections::BTreeMap;
use std::io::Read;
use std::sync::OnceLock;

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::providers::schema_file::{read_functions, read_resource};
use crate::schema::{FunctionLookup, ProviderBody, ProviderFunction, ResourceSchema, SchemaLookup};

/// The first bytes of an entry; the number is the layout's version.
const MAGIC: &[u8] = b"STRATA-PROVIDER-SCHEMA 1\n";

/// The largest header accepted (the AWS provider's is about 100 KB).
const MAX_HEADER: usize = 16 << 20;

/// The largest body decompressed for one type (the biggest AWS type is under 1 MB).
const MAX_BODY_JSON: u64 = 64 << 20;

/// What an entry says of where its schema came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct EntryInfo {
    /// The provider's source address (`registry.terraform.io/hashicorp/aws`).
    pub address: String,
    /// The provider's version, when known.
    pub version: Option<String>,
    /// The SHA-256 of the binary the schema was read from (hex), or `None` for an
    /// imported schema file.
    pub binary_sha256: Option<String>,
    /// The binary's path or the schema file's path it was first read from.
    pub read_from: String,
}

/// Where one body lies in the entry's body: offset and length.
type Span = (u64, u64);

/// The header: the entry's information and the index of its bodies.
#[derive(Debug, Serialize, Deserialize)]
struct Header {
    info: EntryInfo,
    /// The body's length and CRC-32, checked when the entry is loaded.
    body_len: u64,
    body_crc: u32,
    provider: Span,
    functions: Option<Span>,
    resource_schemas: BTreeMap<String, Span>,
    data_source_schemas: BTreeMap<String, Span>,
    ephemeral_resource_schemas: BTreeMap<String, Span>,
}

/// Why bytes are not a usable entry: the cache ignores (and rewrites) such a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CorruptEntry {
    /// Not an entry of this layout version.
    #[error("not a Strata provider schema entry (or an older layout)")]
    Magic,
    /// The header is cut short or is not valid.
    #[error("the entry's header is damaged: {0}")]
    Header(String),
    /// The body is cut short or its checksum differs.
    #[error("the entry's body is damaged")]
    Body,
    /// A body does not decompress or is not a schema.
    #[error("{0}")]
    Schema(String),
}

/// A provider schema whose bodies are converted on first lookup.
#[derive(Debug)]
pub struct LazySchema {
    info: EntryInfo,
    body: Box<[u8]>,
    provider: Slot,
    functions: Option<Span>,
    /// The functions, read on the first function lookup (`None`: they failed).
    converted_functions: OnceLock<Option<Functions>>,
    resources: BTreeMap<Box<str>, Slot>,
    data_sources: BTreeMap<Box<str>, Slot>,
    ephemeral_resources: BTreeMap<Box<str>, Slot>,
}

/// A provider's functions by name.
type Functions = BTreeMap<Box<str>, ProviderFunction>;

/// One body: where it lies, and its conversion once done (`None`: it failed).
#[derive(Debug)]
struct Slot {
    span: Span,
    converted: OnceLock<Option<ResourceSchema>>,
}

impl Slot {
    fn new(span: Span) -> Self {
        Self {
            span,
            converted: OnceLock::new(),
        }
    }
}

/// The kinds of bodies a provider schema lists, by their field in the JSON format.
const KINDS: [&str; 3] = [
    "resource_schemas",
    "data_source_schemas",
    "ephemeral_resource_schemas",
];

/// Encodes one provider's JSON (one value of a schema file's `provider_schemas`) as an
/// entry. Each body is compressed on its own so that it can be read on its own.
pub fn encode(info: EntryInfo, provider: &Value) -> Result<Vec<u8>, CorruptEntry> {
    let mut body = Vec::new();
    let mut member = |json: &Value| -> Result<Span, CorruptEntry> {
        let start = body.len() as u64;
        let mut gz = GzEncoder::new(&mut body, Compression::fast());
        serde_json::to_writer(&mut gz, json).map_err(|e| CorruptEntry::Schema(e.to_string()))?;
        gz.finish()
            .map_err(|e| CorruptEntry::Schema(e.to_string()))?;
        Ok((start, body.len() as u64 - start))
    };
    let empty = Value::Object(Map::new());
    let provider_span = member(provider.get("provider").unwrap_or(&empty))?;
    let functions = match provider.get("functions") {
        Some(f) if !f.is_null() => Some(member(f)?),
        _ => None,
    };
    let mut kinds: [BTreeMap<String, Span>; 3] = Default::default();
    for (field, index) in KINDS.iter().zip(kinds.iter_mut()) {
        let Some(types) = provider.get(*field).and_then(Value::as_object) else {
            continue;
        };
        for (name, schema) in types {
            index.insert(name.clone(), member(schema)?);
        }
    }
    let [resource_schemas, data_source_schemas, ephemeral_resource_schemas] = kinds;
    let mut crc = flate2::Crc::new();
    crc.update(&body);
    let header = Header {
        info,
        body_len: body.len() as u64,
        body_crc: crc.sum(),
        provider: provider_span,
        functions,
        resource_schemas,
        data_source_schemas,
        ephemeral_resource_schemas,
    };
    let header = serde_json::to_vec(&header).map_err(|e| CorruptEntry::Header(e.to_string()))?;
    let length = u32::try_from(header.len()).map_err(|_| CorruptEntry::Header("too big".into()))?;
    let mut out = Vec::with_capacity(MAGIC.len() + 4 + header.len() + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&length.to_le_bytes());
    out.extend_from_slice(&header);
    out.extend_from_slice(&body);
    Ok(out)
}

impl LazySchema {
    /// Reads an entry: its header and the body's checksum; no body is converted.
    pub fn decode(bytes: Vec<u8>) -> Result<Self, CorruptEntry> {
        let rest = bytes.strip_prefix(MAGIC).ok_or(CorruptEntry::Magic)?;
        let (length, rest) = rest
            .split_first_chunk::<4>()
            .ok_or_else(|| CorruptEntry::Header("cut short".into()))?;
        let length = u32::from_le_bytes(*length) as usize;
        if length > MAX_HEADER || length > rest.len() {
            return Err(CorruptEntry::Header("cut short".into()));
        }
        let header: Header = serde_json::from_slice(&rest[..length])
            .map_err(|e| CorruptEntry::Header(e.to_string()))?;
        let body_start = MAGIC.len() + 4 + length;
        let body = &bytes[body_start..];
        let mut crc = flate2::Crc::new();
        crc.update(body);
        if body.len() as u64 != header.body_len || crc.sum() != header.body_crc {
            return Err(CorruptEntry::Body);
        }
        let len = body.len() as u64;
        let spans = std::iter::once(&header.provider)
            .chain(header.functions.iter())
            .chain(header.resource_schemas.values())
            .chain(header.data_source_schemas.values())
            .chain(header.ephemeral_resource_schemas.values());
        if spans
            .into_iter()
            .any(|&(at, n)| at.checked_add(n).is_none_or(|end| end > len))
        {
            return Err(CorruptEntry::Header("a body lies outside the entry".into()));
        }
        let slots = |index: BTreeMap<String, Span>| {
            index
                .into_iter()
                .map(|(name, span)| (name.into_boxed_str(), Slot::new(span)))
                .collect()
        };
        let mut bytes = bytes;
        bytes.drain(..body_start);
        Ok(Self {
            info: header.info,
            body: bytes.into_boxed_slice(),
            provider: Slot::new(header.provider),
            functions: header.functions,
            converted_functions: OnceLock::new(),
            resources: slots(header.resource_schemas),
            data_sources: slots(header.data_source_schemas),
            ephemeral_resources: slots(header.ephemeral_resource_schemas),
        })
    }

    /// Encodes and decodes in one step: an entry held only in memory.
    pub fn from_json(info: EntryInfo, provider: &Value) -> Result<Self, CorruptEntry> {
        Self::decode(encode(info, provider)?)
    }

    /// Where the schema came from.
    pub fn info(&self) -> &EntryInfo {
        &self.info
    }

    /// How many resource types, data sources and ephemeral resource types it defines.
    pub fn type_count(&self) -> usize {
        self.resources.len() + self.data_sources.len() + self.ephemeral_resources.len()
    }

    /// The type names of body `kind` (none for the provider's own configuration), in
    /// order, without converting anything: for listing and completion.
    pub fn type_names(&self, kind: ProviderBody) -> Vec<&str> {
        let slots = match kind {
            ProviderBody::Resource => &self.resources,
            ProviderBody::DataSource => &self.data_sources,
            ProviderBody::EphemeralResource => &self.ephemeral_resources,
            _ => return Vec::new(),
        };
        slots.keys().map(|k| &**k).collect()
    }

    /// The schema of body `kind` named `type_name`, converted on first request.
    pub fn lookup(&self, kind: ProviderBody, type_name: &str) -> SchemaLookup {
        let slot = match kind {
            ProviderBody::Provider => Some(&self.provider),
            ProviderBody::Resource => self.resources.get(type_name),
            ProviderBody::DataSource => self.data_sources.get(type_name),
            ProviderBody::EphemeralResource => self.ephemeral_resources.get(type_name),
            ProviderBody::Provisioner | ProviderBody::Backend => return SchemaLookup::Unavailable,
        };
        let Some(slot) = slot else {
            return SchemaLookup::NoSuchType;
        };
        let converted = slot.converted.get_or_init(|| {
            let at = format!("{} {type_name}", self.info.address);
            self.convert(slot.span, &at, read_resource)
        });
        match converted {
            Some(schema) => SchemaLookup::Found(schema.clone()),
            None => SchemaLookup::Unavailable,
        }
    }

    /// The function `name`, all functions being read on the first request (a provider
    /// has a few).
    pub fn function(&self, name: &str) -> FunctionLookup {
        let converted = self.converted_functions.get_or_init(|| {
            let Some(span) = self.functions else {
                return Some(Functions::new());
            };
            let at = format!("{} functions", self.info.address);
            self.convert(span, &at, read_functions)
        });
        match converted {
            Some(functions) => FunctionLookup::among(functions, name),
            None => FunctionLookup::Unavailable,
        }
    }

    /// One body read with `read` (called `at` in messages); `None`, with a warning, when
    /// it is unusable.
    fn convert<T, E: std::fmt::Display>(
        &self,
        span: Span,
        at: &str,
        read: impl FnOnce(&Value, &str) -> Result<T, E>,
    ) -> Option<T> {
        let converted = self
            .json(span)
            .and_then(|json| read(&json, at).map_err(|e| e.to_string()));
        match converted {
            Ok(converted) => Some(converted),
            Err(why) => {
                tracing::warn!("provider schema of {at} unusable: {why}");
                None
            }
        }
    }

    /// The JSON of one body.
    fn json(&self, (at, len): Span) -> Result<Value, String> {
        let bytes = usize::try_from(at)
            .ok()
            .zip(usize::try_from(at + len).ok())
            .and_then(|(from, to)| self.body.get(from..to))
            .ok_or("a body lies outside the entry")?;
        let mut text = Vec::new();
        GzDecoder::new(bytes)
            .take(MAX_BODY_JSON)
            .read_to_end(&mut text)
            .map_err(|e| e.to_string())?;
        serde_json::from_slice(&text).map_err(|e| e.to_string())
    }

    /// The whole provider in the JSON format of schema files (for `strata schemas
    /// export`): every body decompressed, none converted.
    pub fn to_json(&self) -> Result<Value, CorruptEntry> {
        let body = |span| self.json(span).map_err(CorruptEntry::Schema);
        let mut out = Map::new();
        out.insert("provider".into(), body(self.provider.span)?);
        for (field, slots) in KINDS.iter().zip([
            &self.resources,
            &self.data_sources,
            &self.ephemeral_resources,
        ]) {
            if slots.is_empty() {
                continue;
            }
            let mut types = Map::new();
            for (name, slot) in slots {
                types.insert(name.to_string(), body(slot.span)?);
            }
            out.insert((*field).into(), Value::Object(types));
        }
        if let Some(span) = self.functions {
            out.insert("functions".into(), body(span)?);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
impl LazySchema {
    /// How many bodies have been converted so far.
    pub(super) fn converted(&self) -> usize {
        std::iter::once(&self.provider)
            .chain(self.resources.values())
            .chain(self.data_sources.values())
            .chain(self.ephemeral_resources.values())
            .filter(|s| s.converted.get().is_some())
            .count()
    }
}
