//! `provider_config`: the provider configurations of the module tree, keyed as
//! Terraform keys them (`module.x:name`), each one a child module receives (passed in
//! `providers = {...}` or inherited) resolved to the parent's; fully qualified names and
//! version constraints from `required_providers`.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::expressions::traversal_text;
use super::resources::provider_local_key;
use super::{insert_some, ModuleTree};
use crate::eval::constant;
use crate::merge::MergedModule;
use crate::module::Dialect;
use crate::syntax::{Expr, ExprKind, JsonKind};

pub(super) fn opaque_key(provider: &str, module_address: &str) -> String {
    if module_address.is_empty() {
        provider.to_string()
    } else {
        format!("{module_address}:{provider}")
    }
}

/// One entry of `provider_config`, with the key of the configuration it stands for in a
/// parent module (passed in `providers = {...}` or inherited), if any.
#[derive(Debug, Clone)]
struct ProviderConfig {
    name: String,
    full_name: String,
    alias: Option<String>,
    version_constraint: Option<String>,
    module_address: String,
    parent_key: Option<String>,
}

#[derive(Default)]
pub(super) struct ProviderConfigs {
    entries: BTreeMap<String, ProviderConfig>,
}

impl ProviderConfigs {
    pub(super) fn collect(&mut self, tree: &ModuleTree, parent: Option<&ModuleTree>) {
        let m = &tree.merged;
        let addr = &tree.address;

        for (name, alias) in m.providers.keys() {
            let key_name = alias
                .as_ref()
                .map_or(name.clone(), |a| format!("{name}.{a}"));
            let (full_name, version_constraint) = requirement(m, name);
            self.entries.insert(
                opaque_key(&key_name, addr),
                ProviderConfig {
                    name: name.clone(),
                    full_name,
                    alias: alias.clone(),
                    version_constraint,
                    module_address: addr.clone(),
                    parent_key: None,
                },
            );
        }
        // Required providers without a configuration block, then providers used only
        // implicitly (by resources, a check block's data sources among them); in a child
        // module both may stand for a parent's.
        let required = m.terraform.required_providers.keys().cloned();
        let scoped = m.scoped_data();
        let implied = m.resources.values().chain(&scoped).map(|r| {
            provider_local_key(r)
                .split('.')
                .next()
                .unwrap_or_default()
                .to_string()
        });
        for name in required.chain(implied) {
            let key = opaque_key(&name, addr);
            if self.entries.contains_key(&key) {
                continue;
            }
            let (full_name, version_constraint) = requirement(m, &name);
            let parent_key =
                parent.and_then(|p| self.find_source(&opaque_key(&name, &p.address), &full_name));
            self.entries.insert(
                key,
                ProviderConfig {
                    name,
                    full_name,
                    alias: None,
                    version_constraint,
                    module_address: addr.clone(),
                    parent_key,
                },
            );
        }
        for (call_name, child) in &tree.children {
            if let Some(map) = m
                .module_calls
                .get(call_name)
                .and_then(|c| c.providers.as_ref())
            {
                for (in_child, in_parent) in passed_providers(map.expr()) {
                    let local = in_child.split('.').next().unwrap_or_default();
                    let (full_name, _) = requirement(&child.merged, local);
                    let parent_key = self.find_source(&opaque_key(&in_parent, addr), &full_name);
                    self.entries.insert(
                        opaque_key(&in_child, &child.address),
                        ProviderConfig {
                            name: in_child.clone(),
                            full_name,
                            alias: None,
                            version_constraint: None,
                            module_address: child.address.clone(),
                            parent_key,
                        },
                    );
                }
            }
            self.collect(child, Some(tree));
        }
    }

    /// Follows parent links from `start` while the provider stays the same one.
    fn find_source(&self, start: &str, full_name: &str) -> Option<String> {
        let mut found = None;
        let mut key = Some(start.to_string());
        while let Some(k) = key {
            match self.entries.get(&k) {
                Some(pc) if pc.full_name == full_name => {
                    key = pc.parent_key.clone();
                    found = Some(k);
                }
                _ => break,
            }
        }
        found
    }

    /// The key a resource's configuration resolves to: a parent's when passed or inherited.
    pub(super) fn resolve(&self, key: &str) -> String {
        match self.entries.get(key).and_then(|pc| pc.parent_key.as_ref()) {
            Some(parent) if self.entries.contains_key(parent) => parent.clone(),
            _ => key.to_string(),
        }
    }

    /// The fully qualified name of the provider the configuration `key` stands for.
    pub(super) fn full_name_of(&self, key: &str) -> Option<&str> {
        self.entries
            .get(&self.resolve(key))
            .or_else(|| self.entries.get(key))
            .map(|pc| pc.full_name.as_str())
    }

    /// The entries Terraform prints: those that do not stand for a parent's configuration.
    pub(super) fn public(&self) -> Map<String, Value> {
        let mut out = Map::new();
        for (key, pc) in &self.entries {
            if pc.parent_key.is_some() {
                continue;
            }
            let mut entry = Map::new();
            entry.insert("name".into(), json!(pc.name));
            entry.insert("full_name".into(), json!(pc.full_name));
            insert_some(&mut entry, "alias", pc.alias.as_ref().map(|a| json!(a)));
            insert_some(
                &mut entry,
                "version_constraint",
                pc.version_constraint.as_ref().map(|v| json!(v)),
            );
            if !pc.module_address.is_empty() {
                entry.insert("module_address".into(), json!(pc.module_address));
            }
            out.insert(key.clone(), Value::Object(entry));
        }
        out
    }
}

/// The fully qualified name and version constraint of a provider local name, from the
/// module's `required_providers` (or the implied `hashicorp/<name>`).
fn requirement(m: &MergedModule, name: &str) -> (String, Option<String>) {
    let registry = match m.dialect {
        Dialect::Terraform => "registry.terraform.io",
        Dialect::OpenTofu => "registry.opentofu.org",
    };
    let entry = m
        .terraform
        .required_providers
        .get(name)
        .and_then(|a| constant(a.expr()));
    let source = entry
        .as_ref()
        .and_then(|e| e.get("source"))
        .and_then(Value::as_str);
    let version = match &entry {
        Some(Value::String(v)) => Some(v.as_str()),
        Some(e) => e.get("version").and_then(Value::as_str),
        None => None,
    };
    (
        full_name(registry, name, source),
        version.map(normalize_constraints),
    )
}

/// `providers = { aws = aws.east }` as (name in the child, configuration in the parent).
fn passed_providers(expr: &Expr) -> Vec<(String, String)> {
    match &expr.kind {
        ExprKind::Object(items) => items
            .iter()
            .filter_map(|(k, v)| Some((traversal_text(k)?, traversal_text(v)?)))
            .collect(),
        ExprKind::Json(v) => match &v.kind {
            JsonKind::Object(props) => props
                .iter()
                .filter_map(|(k, v)| match &v.kind {
                    JsonKind::String(s) => Some((k.name.to_string(), s.to_string())),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// A provider's fully qualified name from its `source` (or the implied
/// `hashicorp/<name>`), with the default registry host added.
fn full_name(registry: &str, local: &str, source: Option<&str>) -> String {
    if source.is_none() && local == "terraform" {
        // The builtin provider (`terraform_data`, `terraform_remote_state`).
        return BUILTIN_PROVIDER.to_string();
    }
    let source = source.unwrap_or(local).to_lowercase();
    match source.split('/').count() {
        1 => format!("{registry}/hashicorp/{source}"),
        2 => format!("{registry}/{source}"),
        _ => source,
    }
}

/// The builtin provider's fully qualified name, as `show -json` writes it.
pub(super) const BUILTIN_PROVIDER: &str = "terraform.io/builtin/terraform";

/// `~>2.0.0, >=1` → `~> 2.0.0, >= 1`, as Terraform prints version constraints.
pub(super) fn normalize_constraints(text: &str) -> String {
    text.split(',')
        .map(|c| {
            let c = c.trim();
            let op_len = c
                .bytes()
                .take_while(|b| matches!(b, b'<' | b'>' | b'=' | b'~' | b'!'))
                .count();
            let (op, version) = c.split_at(op_len);
            let version = version.trim();
            if op.is_empty() {
                version.to_string()
            } else {
                format!("{op} {version}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::normalize_constraints;

    #[test]
    fn constraints_print_as_terraform_prints_them() {
        assert_eq!(normalize_constraints("~>2.0.0"), "~> 2.0.0");
        assert_eq!(normalize_constraints(">=5.1, <6"), ">= 5.1, < 6");
        assert_eq!(normalize_constraints("1.2.3"), "1.2.3");
    }
}
