//! A resource's entry of `root_module.resources`: its address, mode, provider
//! configuration key, expressions, repetition, `depends_on` and provisioners.

use serde_json::{json, Map, Value};

use super::expressions::{depends_on, merged_body, plain_body, repetition, traversal_text};
use super::providers::{opaque_key, ProviderConfigs, BUILTIN_PROVIDER};
use super::{insert_some, ModuleTree};
use crate::merge::{Mode, Resource};

pub(super) fn resource_json(r: &Resource, tree: &ModuleTree, providers: &ProviderConfigs) -> Value {
    let mut entry = Map::new();
    entry.insert("address".into(), json!(r.key.to_string()));
    let mode = if r.key.mode == Mode::Data {
        "data"
    } else {
        "managed"
    };
    entry.insert("mode".into(), json!(mode));
    entry.insert("type".into(), json!(r.key.type_name));
    entry.insert("name".into(), json!(r.key.name));
    let key = opaque_key(&provider_local_key(r), &tree.address);
    entry.insert("provider_config_key".into(), json!(providers.resolve(&key)));
    let expressions = merged_body(&r.config);
    if !expressions.is_empty() {
        entry.insert("expressions".into(), Value::Object(expressions));
    }
    repetition(&mut entry, &r.count, &r.for_each);
    if providers.full_name_of(&key) == Some(BUILTIN_PROVIDER) {
        // The builtin provider's resource types are all at schema version 0; for other
        // providers the version is in a schema Strata does not keep, and is left out.
        entry.insert("schema_version".into(), json!(0));
    }
    insert_some(&mut entry, "depends_on", depends_on(&r.depends_on));
    let provisioners: Vec<Value> = r
        .provisioners
        .iter()
        .map(|p| {
            json!({
                "type": p.block.label(0).unwrap_or_default(),
                "expressions": plain_body(&p.block.body),
            })
        })
        .collect();
    if !provisioners.is_empty() {
        entry.insert("provisioners".into(), Value::Array(provisioners));
    }
    Value::Object(entry)
}

/// The provider configuration a resource names: its `provider` argument (`aws.east`), or
/// the local name implied by its type (`aws_instance` → `aws`).
pub(super) fn provider_local_key(r: &Resource) -> String {
    r.provider
        .as_ref()
        .and_then(|p| traversal_text(p.expr()))
        .unwrap_or_else(|| implied_provider(&r.key.type_name).to_string())
}

fn implied_provider(type_name: &str) -> &str {
    type_name.split('_').next().unwrap_or(type_name)
}
