//! The prior state: Terraform's state file format version 4 (spec §4.1), read into typed
//! values with the load errors Terraform gives for invalid modes, keys, statuses and
//! duplicate instances. A missing state file is an empty state.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;
use thiserror::Error;

use super::providers::{decode_prior, dynamic_attributes};
use crate::eval::{MarkedPaths, Marks, PathStep};
use crate::merge::strip_instance_keys;
use crate::text::read::{read_bounded, ReadError};

/// Why a state file could not be read.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum StateError {
    /// The file exists but could not be read.
    #[error("cannot read state file {file}: {reason}")]
    Unreadable {
        /// The state file.
        file: String,
        /// What went wrong.
        reason: String,
    },
    /// The file is not JSON of the expected shape.
    #[error("state file {file} is not valid JSON state (line {line}, column {column}): {reason}")]
    Malformed {
        /// The state file.
        file: String,
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// What is wrong.
        reason: String,
    },
    /// A format version other than 4.
    #[error("state file {file} has format version {version}; Strata reads version 4 (Terraform 0.12 and later)")]
    UnsupportedVersion {
        /// The state file.
        file: String,
        /// The version found.
        version: u64,
    },
    /// A `version` that is missing or not a whole number, in Terraform's words.
    #[error("state file {file}: Unsupported state file format: {detail}")]
    InvalidVersion {
        /// The state file.
        file: String,
        /// Terraform's detail.
        detail: String,
    },
    /// A resource or instance that Terraform would refuse to load.
    #[error("state file {file}: {resource}: {reason}")]
    Invalid {
        /// The state file.
        file: String,
        /// The resource's address.
        resource: String,
        /// What is wrong.
        reason: String,
    },
}

/// A resource's mode as stored (ephemeral resources are never stored).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ResourceMode {
    /// `"managed"`
    Managed,
    /// `"data"`
    Data,
}

/// An instance key: none, an integer (`count`) or a string (`for_each`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum InstanceKey {
    /// A resource without `count` or `for_each`.
    None,
    /// `[0]`
    Int(i64),
    /// `["a"]`
    String(String),
}

/// Whether an object is healthy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InstanceStatus {
    /// Created successfully.
    Ready,
    /// Marked for replacement (`terraform taint`, or a failed create).
    Tainted,
}

/// The prior state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct State {
    /// The Terraform version that wrote it.
    pub terraform_version: Option<String>,
    /// The serial number.
    pub serial: u64,
    /// The lineage.
    pub lineage: String,
    /// Root module outputs by name.
    pub outputs: BTreeMap<String, StateOutput>,
    /// Resources, as stored.
    pub resources: Vec<StateResource>,
}

/// A root module output value.
#[derive(Debug, Clone, PartialEq)]
pub struct StateOutput {
    /// The value.
    pub value: Value,
    /// Its type, as cty's JSON type (`"string"`, `["list", "string"]`), when recorded.
    pub type_: Option<Value>,
    /// Whether it is sensitive.
    pub sensitive: bool,
}

/// A resource with its instances.
#[derive(Debug, Clone, PartialEq)]
pub struct StateResource {
    /// The module instance it belongs to (`module.a["x"]`), empty for the root module.
    pub module: String,
    /// Managed or data.
    pub mode: ResourceMode,
    /// The resource type.
    pub type_name: String,
    /// The resource name.
    pub name: String,
    /// The provider configuration address, as stored.
    pub provider: Option<String>,
    /// Its objects, current and deposed.
    pub instances: Vec<Arc<StateInstance>>,
}

/// One stored object of a resource instance.
#[derive(Debug, Clone, PartialEq)]
pub struct StateInstance {
    /// The instance key.
    pub key: InstanceKey,
    /// Ready or tainted.
    pub status: InstanceStatus,
    /// The deposed key, for an object kept while its replacement was created.
    pub deposed: Option<String>,
    /// The resource type's schema version.
    pub schema_version: u64,
    /// The attribute values (a legacy `attributes_flat` map is kept as it is).
    pub attributes: Value,
    /// The attributes as the planner compares them, decoded once with the resource's type
    /// (`providers::decode_prior`): a kept state is planned against after every edit.
    decoded: (&'static [&'static str], crate::eval::Value),
    /// The resources this object depended on (instance keys removed).
    pub dependencies: Vec<String>,
    /// Whether it was created with `create_before_destroy`.
    pub create_before_destroy: bool,
    /// OpenTofu's `skip_destroy` (set from `lifecycle { destroy = false }`).
    pub skip_destroy: bool,
    /// Where its attributes are sensitive (`sensitive_attributes`; a path Strata cannot
    /// read is left out).
    pub sensitive_paths: MarkedPaths,
}

impl StateInstance {
    /// The stored object as the planner compares it for a resource of `type_name`
    /// (`providers::decode_prior`), decoded when the state was read unless `type_name`
    /// decodes it otherwise than the resource's own type (a move across types).
    pub fn prior(&self, type_name: &str) -> crate::eval::Value {
        let (dynamic, decoded) = &self.decoded;
        if *dynamic == dynamic_attributes(type_name) {
            return decoded.clone();
        }
        decode_prior(type_name, &self.attributes)
    }
}

impl StateResource {
    /// The resource's address: `aws_instance.a`, `data.t.n`, `module.m.t.n`.
    pub fn address(&self) -> String {
        let local = match self.mode {
            ResourceMode::Managed => format!("{}.{}", self.type_name, self.name),
            ResourceMode::Data => format!("data.{}.{}", self.type_name, self.name),
        };
        if self.module.is_empty() {
            local
        } else {
            format!("{}.{local}", self.module)
        }
    }
}

/// The largest state file Strata reads (256 MiB): larger ones, or a sparse file claiming
/// to be, are refused with an error rather than read whole.
pub const MAX_STATE_BYTES: u64 = 256 * 1024 * 1024;

/// Reads the state file at `path`; `Ok(None)` when there is none (an empty state). Only
/// a regular file of at most [`MAX_STATE_BYTES`] is read.
pub fn read_state(path: &Path) -> Result<Option<State>, StateError> {
    let file = path.display().to_string();
    let bytes = match read_bounded(path, MAX_STATE_BYTES) {
        Ok(bytes) => bytes,
        Err(ReadError::NotFound) => return Ok(None),
        Err(e) => {
            return Err(StateError::Unreadable {
                file,
                reason: e.to_string(),
            })
        }
    };
    let text = String::from_utf8(bytes).map_err(|e| StateError::Unreadable {
        file: file.clone(),
        reason: format!(
            "it is not valid UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ),
    })?;
    parse_state(&text, &file).map(Some)
}

#[derive(Deserialize)]
struct RawState {
    terraform_version: Option<String>,
    #[serde(default)]
    serial: u64,
    #[serde(default)]
    lineage: String,
    #[serde(default)]
    outputs: BTreeMap<String, RawOutput>,
    #[serde(default)]
    resources: Vec<RawResource>,
}

#[derive(Deserialize)]
struct RawOutput {
    value: Value,
    #[serde(rename = "type")]
    type_: Option<Value>,
    #[serde(default)]
    sensitive: bool,
}

#[derive(Deserialize)]
struct RawResource {
    module: Option<String>,
    mode: String,
    #[serde(rename = "type")]
    type_name: String,
    name: String,
    provider: Option<String>,
    #[serde(default)]
    instances: Vec<RawInstance>,
}

#[derive(Deserialize)]
struct RawInstance {
    index_key: Option<Value>,
    status: Option<String>,
    deposed: Option<String>,
    #[serde(default)]
    schema_version: u64,
    attributes: Option<Value>,
    attributes_flat: Option<Value>,
    #[serde(default)]
    dependencies: Vec<String>,
    #[serde(default)]
    create_before_destroy: bool,
    #[serde(default)]
    skip_destroy: bool,
    #[serde(default)]
    sensitive_attributes: Vec<Value>,
}

/// The format version, read as Terraform sniffs it (into a Go `*uint64`): an error in
/// Terraform's words when it is missing or anything but a whole number (`4.0`, `"4"`,
/// `-1`).
fn format_version(state: &Value) -> Result<u64, String> {
    let shown = match state.get("version") {
        None | Some(Value::Null) => {
            return Err("The state file does not have a \"version\" attribute, which is required to identify the format version.".into())
        }
        Some(Value::Number(n)) => match n.as_u64() {
            Some(v) => return Ok(v),
            None => format!("number {n}"),
        },
        Some(Value::String(_)) => "string".into(),
        Some(Value::Bool(_)) => "bool".into(),
        Some(Value::Array(_)) => "array".into(),
        Some(Value::Object(_)) => "object".into(),
    };
    Err(format!(
        "The version in the state file is {shown}. A positive whole number is required."
    ))
}

/// Parses the text of a state file; `file` names it in errors.
pub fn parse_state(text: &str, file: &str) -> Result<State, StateError> {
    let value: Value = serde_json::from_str(text).map_err(|e| malformed(file, &e))?;
    let version = format_version(&value).map_err(|detail| StateError::InvalidVersion {
        file: file.into(),
        detail,
    })?;
    if version != 4 {
        return Err(StateError::UnsupportedVersion {
            file: file.into(),
            version,
        });
    }
    let raw: RawState = serde_json::from_value(value).map_err(|e| StateError::Malformed {
        file: file.into(),
        line: 0,
        column: 0,
        reason: e.to_string(),
    })?;
    let mut resources = Vec::with_capacity(raw.resources.len());
    for r in raw.resources {
        resources.push(resource(file, r)?);
    }
    Ok(State {
        terraform_version: raw.terraform_version,
        serial: raw.serial,
        lineage: raw.lineage,
        outputs: raw
            .outputs
            .into_iter()
            .map(|(k, o)| {
                (
                    k,
                    StateOutput {
                        value: o.value,
                        type_: o.type_,
                        sensitive: o.sensitive,
                    },
                )
            })
            .collect(),
        resources,
    })
}

fn malformed(file: &str, e: &serde_json::Error) -> StateError {
    StateError::Malformed {
        file: file.into(),
        line: e.line(),
        column: e.column(),
        reason: e.to_string(),
    }
}

fn resource(file: &str, r: RawResource) -> Result<StateResource, StateError> {
    let mode = match r.mode.as_str() {
        "managed" => ResourceMode::Managed,
        "data" => ResourceMode::Data,
        other => {
            return Err(StateError::Invalid {
                file: file.into(),
                resource: format!("{}.{}", r.type_name, r.name),
                reason: format!("invalid resource mode {other:?}"),
            })
        }
    };
    let mut out = StateResource {
        module: r.module.unwrap_or_default(),
        mode,
        type_name: r.type_name,
        name: r.name,
        provider: r.provider,
        instances: Vec::with_capacity(r.instances.len()),
    };
    let address = out.address();
    let invalid = |reason: String| StateError::Invalid {
        file: file.into(),
        resource: address.clone(),
        reason,
    };
    let mut seen = HashSet::new();
    for i in r.instances {
        let key = match i.index_key {
            None | Some(Value::Null) => InstanceKey::None,
            Some(Value::Number(n)) => match n.as_i64() {
                Some(k) => InstanceKey::Int(k),
                None => return Err(invalid(format!("invalid instance key {n}"))),
            },
            Some(Value::String(s)) => InstanceKey::String(s),
            Some(other) => return Err(invalid(format!("invalid instance key {other}"))),
        };
        let status = match i.status.as_deref() {
            None | Some("") => InstanceStatus::Ready,
            Some("tainted") => InstanceStatus::Tainted,
            Some(other) => return Err(invalid(format!("invalid instance status {other:?}"))),
        };
        if !seen.insert((key.clone(), i.deposed.clone())) {
            let what = match &i.deposed {
                Some(d) => format!("deposed object {d}"),
                None => "current object".into(),
            };
            return Err(invalid(format!("duplicate {what} for instance {key:?}")));
        }
        let attributes = i.attributes.or(i.attributes_flat).unwrap_or(Value::Null);
        let decoded = (
            dynamic_attributes(&out.type_name),
            decode_prior(&out.type_name, &attributes),
        );
        out.instances.push(Arc::new(StateInstance {
            key,
            status,
            deposed: i.deposed,
            schema_version: i.schema_version,
            attributes,
            decoded,
            // Dependencies are recorded per resource, whatever instance wrote them.
            dependencies: i
                .dependencies
                .iter()
                .map(|d| strip_instance_keys(d))
                .collect(),
            create_before_destroy: i.create_before_destroy,
            skip_destroy: i.skip_destroy,
            sensitive_paths: i
                .sensitive_attributes
                .iter()
                .filter_map(sensitive_path)
                .map(|path| (path, Marks::SENSITIVE))
                .collect(),
        }));
    }
    Ok(out)
}

/// One path of `sensitive_attributes` as Terraform writes it: steps
/// `{"type": "get_attr", "value": "input"}` and `{"type": "index", "value": {"value": 0,
/// "type": "number"}}`.
fn sensitive_path(path: &Value) -> Option<Vec<PathStep>> {
    path.as_array()?
        .iter()
        .map(
            |step| match (step.get("type")?.as_str()?, step.get("value")?) {
                ("get_attr", Value::String(name)) => Some(PathStep::Key(name.clone())),
                ("index", key) => match key.get("value")? {
                    Value::String(k) => Some(PathStep::Key(k.clone())),
                    Value::Number(n) => Some(PathStep::Index(usize::try_from(n.as_u64()?).ok()?)),
                    _ => None,
                },
                _ => None,
            },
        )
        .collect()
}

#[cfg(test)]
#[path = "state_tests.rs"]
mod tests;
