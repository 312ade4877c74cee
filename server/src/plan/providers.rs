//! What Strata knows of providers without running them (DESIGN "Plan preview without
//! providers"): exact behaviour for `terraform_data` and for the utility providers whose
//! behaviour is fixed (`null`, `random`, `local`, `tls`, `time`); for any other resource
//! type, a changed argument is an in-place update that carries a caveat.
//!
//! Given the prior object and the configuration of one instance, `propose` gives what the
//! provider's PlanResourceChange would: the planned object and the arguments whose
//! change requires replacement.

use std::collections::BTreeMap;

use super::schema_objects::{block_names, planned_create, planned_update};
use crate::eval::{not_null_unknown, Refinement, Value};
use crate::schema::{BlockSchema, ValueType};
use crate::types::Type;

/// A stored object as the planner compares it: attributes of dynamic type, which state
/// stores wrapped as `{"value": ..., "type": ...}`, unwrapped (`terraform_data`'s
/// `input`, `output` and `triggers_replace`).
pub fn decode_prior(type_name: &str, attributes: &serde_json::Value) -> Value {
    let mut value = Value::from_json(attributes);
    let dynamic = dynamic_attributes(type_name);
    if !dynamic.is_empty() {
        if let Value::Object(map) = &mut value {
            for &name in dynamic {
                if let Some(inner) = attributes.get(name).and_then(unwrap_dynamic) {
                    map.insert(name.to_string(), inner);
                }
            }
        }
    }
    value
}

/// The attributes of dynamic type of a resource type, which state stores with their type
/// (`{"value", "type"}`): two types with the same decode a stored object the same.
pub fn dynamic_attributes(type_name: &str) -> &'static [&'static str] {
    match type_name {
        "terraform_data" => &["input", "output", "triggers_replace"],
        "terraform_remote_state" => &["config", "defaults", "outputs"],
        _ => &[],
    }
}

/// The object an import yields, where Strata knows it: `terraform_data`'s import keeps
/// the id and leaves every other attribute null. `None` for other types, whose provider
/// reads the object.
pub fn imported(type_name: &str, id: &Value) -> Option<Value> {
    (type_name == "terraform_data").then(|| {
        Value::Object(
            BTreeMap::from([
                ("id".to_string(), id.clone()),
                ("input".to_string(), Value::Null),
                ("output".to_string(), Value::Null),
                ("triggers_replace".to_string(), Value::Null),
            ])
            .into(),
        )
    })
}

/// A dynamic attribute as state stores it, `{"value": ..., "type": ...}`, read with the
/// collection kinds its type gives it (a list is no tuple: comparing them is a change).
fn unwrap_dynamic(wrapped: &serde_json::Value) -> Option<Value> {
    let fields = wrapped.as_object()?;
    if fields.len() != 2 {
        return None;
    }
    let value = fields.get("value")?;
    Some(match ValueType::from_json(fields.get("type")?) {
        Some(ty) => Value::from_typed_json(value, &Type::from(&ty)),
        None => Value::from_json(value),
    })
}

/// The caveat attached to changes of resource types Strata has no schema for.
pub const UNKNOWN_PROVIDER_CAVEAT: &str = "provider may require replacement";

/// Which arguments force replacement when they change.
#[derive(Debug, Clone, Copy)]
enum Replace {
    /// Every argument (the `random`, `local`, `tls` providers, and most of `time`).
    All,
    /// Only these.
    Only(&'static [&'static str]),
}

/// A resource type Strata knows exactly.
#[derive(Debug, Clone, Copy)]
struct Schema {
    /// Attributes the provider computes (unknown until apply when the object is created).
    computed: &'static [&'static str],
    /// Which arguments force replacement.
    replace: Replace,
    /// Arguments the planned object holds (as null) even when the configuration leaves
    /// them out; listed where Strata knows the whole schema. One the configuration no
    /// longer sets is a change to null.
    arguments: &'static [&'static str],
    /// Arguments of dynamic type: the provider compares them exactly (cty's `RawEquals`),
    /// so a change of type alone, or null against an empty collection, is a change.
    dynamic: &'static [&'static str],
}

const TIME_PARTS: &[&str] = &[
    "id", "rfc3339", "year", "month", "day", "hour", "minute", "second", "unix",
];

fn schema(type_name: &str) -> Option<Schema> {
    let s = |computed, replace| {
        Some(Schema {
            computed,
            replace,
            arguments: &[],
            dynamic: &[],
        })
    };
    match type_name {
        "terraform_data" => Some(Schema {
            computed: &["id", "output"],
            replace: Replace::Only(&["triggers_replace"]),
            arguments: &["input", "triggers_replace"],
            dynamic: &["input", "triggers_replace"],
        }),
        "null_resource" => Some(Schema {
            computed: &["id"],
            replace: Replace::Only(&["triggers"]),
            arguments: &["triggers"],
            dynamic: &[],
        }),
        // The builtin provider's data source: the object read is whole (Terraform's
        // `dataSourceRemoteStateRead` sets every attribute).
        "terraform_remote_state" => Some(Schema {
            computed: &["outputs"],
            replace: Replace::Only(&[]),
            arguments: &["backend", "config", "defaults", "workspace"],
            dynamic: &["config", "defaults", "outputs"],
        }),
        "random_id" => s(&["id", "b64_url", "b64_std", "hex", "dec"], Replace::All),
        "random_string" => s(&["id", "result"], Replace::All),
        "random_password" => s(&["id", "result", "bcrypt_hash"], Replace::All),
        "random_integer" | "random_shuffle" | "random_uuid" => s(&["id", "result"], Replace::All),
        "random_pet" => s(&["id"], Replace::All),
        "random_bytes" => s(&["base64", "hex"], Replace::All),
        "local_file" | "local_sensitive_file" => s(
            &[
                "id",
                "content_md5",
                "content_sha1",
                "content_sha256",
                "content_sha512",
                "content_base64sha256",
                "content_base64sha512",
            ],
            Replace::All,
        ),
        "tls_private_key" => s(
            &[
                "id",
                "private_key_pem",
                "private_key_openssh",
                "private_key_pem_pkcs8",
                "public_key_pem",
                "public_key_openssh",
                "public_key_fingerprint_md5",
                "public_key_fingerprint_sha256",
            ],
            Replace::All,
        ),
        "tls_self_signed_cert" | "tls_locally_signed_cert" => s(
            &[
                "id",
                "cert_pem",
                "validity_start_time",
                "validity_end_time",
                "ready_for_renewal",
                "ca_key_algorithm",
                "key_algorithm",
            ],
            Replace::All,
        ),
        "tls_cert_request" => s(&["id", "cert_request_pem", "key_algorithm"], Replace::All),
        "time_sleep" => s(&["id"], Replace::Only(&["triggers"])),
        "time_static" => s(TIME_PARTS, Replace::All),
        "time_offset" => s(TIME_PARTS, Replace::All),
        "time_rotating" => s(TIME_PARTS, Replace::All),
        _ => None,
    }
}

/// What the provider would plan for one instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Proposal {
    /// The planned object (unknown where the provider computes a value at apply).
    pub after: Value,
    /// Arguments whose change forces replacement, when some did change.
    pub replace_paths: Vec<String>,
    /// Whether the planned object differs from the prior one.
    pub changed: bool,
    /// Set for resource types Strata has no schema for, when something changed.
    pub caveat: Option<&'static str>,
}

/// Plans one instance of `type_name`: `prior` is the current object (`None` to create),
/// `config` the evaluated configuration (an object of arguments and nested blocks).
/// `block_types` names the keys of `config` that hold nested blocks (as lists of objects).
/// `provider_schema` is the type's schema from its provider, when known; the hand
/// knowledge above wins over it (it also knows what forces replacement).
pub fn propose(
    type_name: &str,
    prior: Option<&Value>,
    config: &Value,
    block_types: &[String],
    provider_schema: Option<&BlockSchema>,
) -> Proposal {
    let empty = BTreeMap::new();
    let config_attrs = config.attributes().unwrap_or(&empty);
    let schema = schema(type_name);
    if let (None, Some(provider_schema)) = (schema, provider_schema) {
        return propose_with_schema(provider_schema, prior, config);
    }
    let Some(prior) = prior else {
        let mut after = config_attrs.clone();
        if let Some(schema) = schema {
            for name in schema.arguments {
                after.entry(name.to_string()).or_insert(Value::Null);
            }
            for name in schema.computed {
                if after.get(*name).is_none_or(Value::is_null) {
                    after.insert(name.to_string(), Value::Unknown);
                }
            }
            if type_name == "terraform_data" {
                // Its schema's `id` is a string (`cty.UnknownVal(cty.String)`).
                after.insert("id".into(), not_null_unknown(Type::String));
                after.insert("output".into(), computed_copy(config_attrs.get("input")));
            }
        }
        return Proposal {
            after: Value::Object(after.into()),
            replace_paths: Vec::new(),
            changed: true,
            caveat: None,
        };
    };
    let prior_attrs = prior.attributes().unwrap_or(&empty);
    let is_computed = |name: &str| schema.is_some_and(|s| s.computed.contains(&name));
    let is_dynamic = |name: &str| schema.is_some_and(|s| s.dynamic.contains(&name));
    // The configuration object holds every argument of a known schema: one left out is
    // null, so deleting an argument changes it to null.
    let mut configured = config_attrs.clone();
    for name in schema.map_or(&[][..], |s| s.arguments) {
        configured.entry(name.to_string()).or_insert(Value::Null);
    }
    let mut after = prior_attrs.clone();
    let mut changed_args = Vec::new();
    for (name, value) in &configured {
        let before = prior_attrs.get(name).unwrap_or(&Value::Null);
        // Without a schema, an argument left out (null) may be optional and computed: the
        // prior value stands, as it would for such an argument.
        if value.is_null() && (schema.is_none() || is_computed(name)) {
            continue;
        }
        let changed = if is_dynamic(name) {
            value != before
        } else {
            differs(value, before, block_types.contains(name))
        };
        if changed {
            changed_args.push(name.clone());
            after.insert(name.clone(), value.clone());
        }
    }
    let replace_paths: Vec<String> = match schema.map(|s| s.replace) {
        Some(Replace::All) => changed_args
            .iter()
            .filter(|a| !is_computed(a))
            .cloned()
            .collect(),
        Some(Replace::Only(names)) => changed_args
            .iter()
            .filter(|a| names.contains(&a.as_str()))
            .cloned()
            .collect(),
        None => Vec::new(),
    };
    // terraform_data's update plans `output` unknown whenever `input` changed, even to null.
    if type_name == "terraform_data" && changed_args.iter().any(|a| a == "input") {
        let input = configured.get("input").unwrap_or(&Value::Null);
        after.insert("output".into(), unknown_like(input));
    }
    let changed = !changed_args.is_empty();
    Proposal {
        after: Value::Object(after.into()),
        replace_paths,
        changed,
        caveat: (changed && schema.is_none()).then_some(UNKNOWN_PROVIDER_CAVEAT),
    }
}

/// What a provider schema says of one instance: the planned object of `schema_objects`;
/// which change forces replacement no schema says, so a change carries the caveat.
fn propose_with_schema(schema: &BlockSchema, prior: Option<&Value>, config: &Value) -> Proposal {
    let Some(prior) = prior else {
        return Proposal {
            after: planned_create(schema, config),
            replace_paths: Vec::new(),
            changed: true,
            caveat: None,
        };
    };
    let after = planned_update(schema, prior, config);
    let blocks = block_names(schema);
    let changed = match (after.attributes(), prior.attributes()) {
        (Some(planned), Some(before)) => planned
            .iter()
            .any(|(k, v)| differs(v, before.get(k).unwrap_or(&Value::Null), blocks.contains(k))),
        _ => true,
    };
    Proposal {
        after,
        replace_paths: Vec::new(),
        changed,
        caveat: changed.then_some(UNKNOWN_PROVIDER_CAVEAT),
    }
}

/// An instance's object as references to it read it: for a type without a schema, the
/// attributes the provider computes are not in the object, so it is partial, and so are
/// the objects of its nested blocks; one about to be `created` is `to_be_computed`. With
/// a schema (known here or the provider's) the object is whole.
pub fn as_referenced(
    type_name: &str,
    object: Value,
    created: bool,
    provider_schema: Option<&BlockSchema>,
) -> Value {
    if schema(type_name).is_some() || provider_schema.is_some() {
        return object;
    }
    if created {
        to_be_computed(object)
    } else {
        partial(object)
    }
}

/// An object the provider is about to fill in from `config` (a create, a data source read
/// while planning): partial, and an argument the configuration leaves null may be one the
/// provider computes, so it is unknown too.
pub fn to_be_computed(config: Value) -> Value {
    match partial(config) {
        Value::PartialObject(mut map) => {
            map.retain(|_, v| !v.is_null());
            Value::PartialObject(map)
        }
        other => other,
    }
}

/// `value` with every object in it partial: attributes it lacks are unknown.
pub fn partial(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            Value::PartialObject(map.into_iter().map(|(k, v)| (k, partial(v))).collect())
        }
        Value::List(items) => Value::List(items.into_iter().map(partial).collect()),
        Value::Tuple(items) => Value::Tuple(items.into_iter().map(partial).collect()),
        other => other,
    }
}

/// The planned object of a replacement: the configuration with every computed attribute
/// unknown again.
pub fn propose_replacement(
    type_name: &str,
    config: &Value,
    provider_schema: Option<&BlockSchema>,
) -> Value {
    propose(type_name, None, config, &[], provider_schema).after
}

/// `terraform_data.output` while planning: null stays null, anything else is computed.
fn computed_copy(input: Option<&Value>) -> Value {
    match input {
        None | Some(Value::Null) => Value::Null,
        Some(input) => unknown_like(input),
    }
}

/// An unknown value of the type of `value`, as `terraform_data` plans `output`
/// (`cty.UnknownVal(input.Type())`): typed where the type is a collection's or an
/// object's, whose shape `after_sensitive` shows (`{}`, `[]`).
fn unknown_like(value: &Value) -> Value {
    match value.ty() {
        ty @ (Type::List(_) | Type::Set(_) | Type::Map(_) | Type::Tuple(_) | Type::Object(_)) => {
            Value::UnknownOf(ty, Refinement::NONE)
        }
        _ => Value::Unknown,
    }
}

/// Whether a configured value differs from the stored one. Primitives compare by their
/// text (state stores `"80"` and `80` alike for a string attribute). Within nested blocks
/// (`in_block`) objects compare only the arguments the configuration sets, since the
/// state also holds every computed and defaulted one; elsewhere an object is an
/// argument's map, and a key only the state has is a change.
pub fn differs(config: &Value, prior: &Value, in_block: bool) -> bool {
    match (config, prior) {
        (c, _) if !c.is_known() => true,
        (Value::Null, p) => !(p.is_null() || in_block && is_empty(p)),
        (c, Value::Null) => !is_empty(c),
        (c, p) if c.elements().is_some() || p.elements().is_some() => {
            let (Some(cs), Some(ps)) = (c.elements(), p.elements()) else {
                return true;
            };
            if cs.len() != ps.len() {
                return true;
            }
            if matches!(c, Value::Set(_)) {
                // A set's order in state is the provider's, not the configuration's.
                return !cs
                    .iter()
                    .all(|x| ps.iter().any(|y| !differs(x, y, in_block)));
            }
            cs.iter().zip(ps).any(|(x, y)| differs(x, y, in_block))
        }
        (c, p) if c.attributes().is_some() || p.attributes().is_some() => {
            let (Some(cm), Some(pm)) = (c.attributes(), p.attributes()) else {
                return true;
            };
            cm.iter()
                .any(|(k, v)| differs(v, pm.get(k).unwrap_or(&Value::Null), in_block))
                || !in_block && pm.keys().any(|k| !cm.contains_key(k))
        }
        (c, p) => c.to_text() != p.to_text(),
    }
}

/// Whether a collection is empty (state stores an absent list argument as `[]` or null).
fn is_empty(v: &Value) -> bool {
    v.elements().is_some_and(<[Value]>::is_empty) || v.attributes().is_some_and(BTreeMap::is_empty)
}

#[cfg(test)]
#[path = "providers_tests.rs"]
mod tests;
