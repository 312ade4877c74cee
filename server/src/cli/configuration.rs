//! The configuration representation of `terraform show -json` (the `configuration`
//! object), built from merged modules: `provider_config` and `root_module`, recursing into
//! local child modules. Conventions follow Terraform's own marshalling: empty and false
//! values are omitted, `count_expression` wins over `for_each_expression`, resources are
//! managed then data each sorted by address, and provider keys of child modules are
//! `module.x:name`, pointing at the parent's configuration when it is passed or inherited.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::eval::{constant, references};
use crate::merge::{
    effective_block_type, literal_string, merge_with, Attr, MergedBody, MergedModule, Mode,
    Resource,
};
use crate::module::Dialect;
use crate::syntax::{Block, Body, Expr, ExprKind, JsonKind, TraversalStep};
use crate::workspace::Workspace;

/// Child modules deeper than this are not followed (a source cycle would be endless).
const MAX_DEPTH: usize = 16;

/// A merged module and the local child modules its calls load.
pub struct ModuleTree {
    /// The module address: empty for the root, `module.a.module.b` below.
    address: String,
    merged: MergedModule,
    children: BTreeMap<String, ModuleTree>,
}

impl ModuleTree {
    /// Loads the tree below a merged root module in `dir`.
    pub fn load(ws: &Workspace, root: MergedModule, dir: &Path) -> Self {
        let mut seen = HashSet::from([dir.to_path_buf()]);
        Self::build(ws, root, dir, String::new(), &mut seen, 0)
    }

    fn build(
        ws: &Workspace,
        merged: MergedModule,
        dir: &Path,
        address: String,
        seen: &mut HashSet<PathBuf>,
        depth: usize,
    ) -> Self {
        let mut children = BTreeMap::new();
        for (name, call) in &merged.module_calls {
            let source = call.source.as_ref().and_then(|s| literal_string(s.expr()));
            let Some(child_dir) = source.and_then(|s| crate::workspace::local_child_dir(dir, s))
            else {
                continue;
            };
            if depth >= MAX_DEPTH || !seen.insert(child_dir.clone()) {
                continue;
            }
            let module = ws.index_dir(&child_dir);
            if !module.sources.is_empty() {
                let child_address = join_address(&address, &format!("module.{name}"));
                let child = Self::build(
                    ws,
                    merge_with(&module, &*ws.provider_schemas_for(&child_dir)),
                    &child_dir,
                    child_address,
                    seen,
                    depth + 1,
                );
                children.insert(name.clone(), child);
            }
            seen.remove(&child_dir);
        }
        Self {
            address,
            merged,
            children,
        }
    }
}

fn join_address(parent: &str, child: &str) -> String {
    if parent.is_empty() {
        child.to_string()
    } else {
        format!("{parent}.{child}")
    }
}

/// The whole `configuration` document.
pub fn to_json(tree: &ModuleTree) -> Value {
    let mut providers = ProviderConfigs::default();
    providers.collect(tree, None);
    let root = module_json(tree, &providers);
    json!({
        "provider_config": providers.public(),
        "root_module": root,
    })
}

/// `{"constant_value": v}` and/or `{"references": [...]}`, as Terraform represents an
/// expression (an empty object when it is neither, e.g. a function call).
pub fn expression(expr: &Expr) -> Value {
    let mut out = Map::new();
    if let Some(v) = constant(expr) {
        out.insert("constant_value".into(), v);
    }
    let refs: Vec<String> = references(expr)
        .iter()
        .flat_map(|r| r.json_strings())
        .collect();
    if !refs.is_empty() {
        out.insert("references".into(), json!(refs));
    }
    Value::Object(out)
}

fn attr_expression(a: &Attr) -> Value {
    expression(a.expr())
}

/// `count_expression`, else `for_each_expression`, as Terraform shows only one.
fn repetition(entry: &mut Map<String, Value>, count: &Option<Attr>, for_each: &Option<Attr>) {
    let non_empty = |v: &Value| v.as_object().is_some_and(|o| !o.is_empty());
    if let Some(c) = count.as_ref().map(attr_expression).filter(non_empty) {
        entry.insert("count_expression".into(), c);
    } else if let Some(f) = for_each.as_ref().map(attr_expression).filter(non_empty) {
        entry.insert("for_each_expression".into(), f);
    }
}

/// The expressions of a body: attributes, nested blocks as arrays of objects, and
/// `dynamic` blocks under the `dynamic` key (Strata's extension; Terraform drops them).
fn body_expressions<'a>(
    attributes: impl Iterator<Item = &'a Arc<crate::syntax::Attribute>>,
    blocks: impl Iterator<Item = &'a Arc<Block>>,
) -> Map<String, Value> {
    let mut out = Map::new();
    for a in attributes {
        out.insert(a.name.name.to_string(), expression(&a.expr));
    }
    let mut dynamic: Map<String, Value> = Map::new();
    for b in blocks {
        if &*b.kind.name == "dynamic" {
            let mut entry = Map::new();
            for arg in ["for_each", "iterator", "labels"] {
                if let Some(a) = b.body.attribute(arg) {
                    entry.insert(arg.into(), expression(&a.expr));
                }
            }
            let content: Vec<Value> = b
                .body
                .blocks_of("content")
                .map(|c| Value::Object(plain_body(&c.body)))
                .collect();
            entry.insert("content".into(), Value::Array(content));
            push(&mut dynamic, effective_block_type(b), Value::Object(entry));
        } else {
            push(&mut out, &b.kind.name, Value::Object(plain_body(&b.body)));
        }
    }
    if !dynamic.is_empty() {
        out.insert("dynamic".into(), Value::Object(dynamic));
    }
    out
}

fn plain_body(body: &Body) -> Map<String, Value> {
    body_expressions(body.attributes.iter(), body.blocks.iter())
}

/// The expressions of a merged body, as `expressions` shows them.
pub fn merged_body(body: &MergedBody) -> Map<String, Value> {
    body_expressions(
        body.attributes.iter().map(|a| &a.attr),
        body.blocks.iter().map(|b| &b.block),
    )
}

fn push(map: &mut Map<String, Value>, key: &str, value: Value) {
    match map.get_mut(key) {
        Some(Value::Array(items)) => items.push(value),
        _ => {
            map.insert(key.into(), Value::Array(vec![value]));
        }
    }
}

fn insert_some(map: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    if let Some(v) = value {
        map.insert(key.into(), v);
    }
}

/// `depends_on` as Terraform lists it: the subject of each reference.
fn depends_on(a: &Option<Attr>) -> Option<Value> {
    let a = a.as_ref()?;
    let items: Vec<String> = references(a.expr())
        .into_iter()
        .map(|r| r.subject)
        .collect();
    (!items.is_empty()).then(|| json!(items))
}

/// A static traversal as text: `aws.east`, `module.m`, `foo.bar[0]`.
fn traversal_text(expr: &Expr) -> Option<String> {
    match &expr.kind {
        ExprKind::Variable(id) => Some(id.name.to_string()),
        ExprKind::Traversal { root, steps } => {
            let mut out = traversal_text(root)?;
            for step in steps {
                match step {
                    TraversalStep::Attr(id) => {
                        out.push('.');
                        out.push_str(&id.name);
                    }
                    TraversalStep::LegacyIndex(n, _) => out.push_str(&format!("[{n}]")),
                    TraversalStep::Index(e) => match &e.kind {
                        ExprKind::Number(n) => out.push_str(&format!("[{n}]")),
                        ExprKind::String(s) => out.push_str(&format!("[{s:?}]")),
                        _ => return None,
                    },
                    _ => return None,
                }
            }
            Some(out)
        }
        ExprKind::Json(v) => match &v.kind {
            JsonKind::String(s) => Some(s.to_string()),
            _ => None,
        },
        _ => None,
    }
}

fn module_json(tree: &ModuleTree, providers: &ProviderConfigs) -> Value {
    let m = &tree.merged;
    let mut root = Map::new();

    let mut outputs = Map::new();
    for (name, o) in &m.outputs {
        let mut entry = Map::new();
        entry.insert(
            "expression".into(),
            o.value.as_ref().map_or(json!({}), attr_expression),
        );
        if is_true(&o.sensitive) {
            entry.insert("sensitive".into(), json!(true));
        }
        insert_some(&mut entry, "description", non_empty_string(&o.description));
        insert_some(&mut entry, "depends_on", depends_on(&o.depends_on));
        outputs.insert(name.clone(), Value::Object(entry));
    }
    if !outputs.is_empty() {
        root.insert("outputs".into(), Value::Object(outputs));
    }

    let mut resources: Vec<&Resource> = m
        .resources
        .values()
        .filter(|r| r.key.mode != Mode::Ephemeral)
        .collect();
    resources.sort_by_key(|r| (r.key.mode, r.key.to_string()));
    let resources: Vec<Value> = resources
        .into_iter()
        .map(|r| resource_json(r, tree, providers))
        .collect();
    if !resources.is_empty() {
        root.insert("resources".into(), Value::Array(resources));
    }

    let mut calls = Map::new();
    for (name, c) in &m.module_calls {
        let mut entry = Map::new();
        let source = c.source.as_ref().and_then(|s| literal_string(s.expr()));
        insert_some(&mut entry, "source", source.map(|s| json!(s)));
        let args = merged_body(&c.arguments);
        if !args.is_empty() {
            entry.insert("expressions".into(), Value::Object(args));
        }
        let version = c.version.as_ref().and_then(|v| literal_string(v.expr()));
        insert_some(
            &mut entry,
            "version_constraint",
            version.map(|v| json!(normalize_constraints(v))),
        );
        repetition(&mut entry, &c.count, &c.for_each);
        insert_some(&mut entry, "depends_on", depends_on(&c.depends_on));
        if let Some(child) = tree.children.get(name) {
            entry.insert("module".into(), module_json(child, providers));
        }
        calls.insert(name.clone(), Value::Object(entry));
    }
    if !calls.is_empty() {
        root.insert("module_calls".into(), Value::Object(calls));
    }

    let mut variables = Map::new();
    for (name, v) in &m.variables {
        let mut entry = Map::new();
        insert_some(&mut entry, "default", variable_default(m, v));
        insert_some(&mut entry, "description", non_empty_string(&v.description));
        if is_true(&v.sensitive) {
            entry.insert("sensitive".into(), json!(true));
        }
        variables.insert(name.clone(), Value::Object(entry));
    }
    if !variables.is_empty() {
        root.insert("variables".into(), Value::Object(variables));
    }
    Value::Object(root)
}

/// A variable's default as Terraform stores it: converted to its type constraint, with
/// the optional-attribute defaults of the base's type filled in (spec §1.7, §2.5). A
/// default that does not convert (an error elsewhere) is shown as written.
fn variable_default(m: &MergedModule, v: &crate::merge::Variable) -> Option<Value> {
    let written = constant(v.default.as_ref()?.expr()).unwrap_or(Value::Null);
    let parse = |a: Option<&Attr>| {
        let a = a?;
        let syntax = m.file(a.file).syntax.syntax;
        crate::types::parse_type_argument(a.expr(), syntax, m.dialect)?.ok()
    };
    let Some(ty) = parse(v.type_constraint.as_ref()) else {
        return Some(written);
    };
    let defaults = parse(v.defaults_type.as_ref()).unwrap_or_else(|| ty.clone());
    let filled = if written.is_null() {
        written.clone()
    } else {
        crate::types::apply_defaults(&written, &defaults)
    };
    match crate::types::convert(&filled, &ty) {
        // Typed again so that sets are in cty's order, as `show -json` prints them.
        Ok(converted) => Some(crate::eval::Value::from_typed_json(&converted, &ty).to_json()),
        Err(_) => Some(written),
    }
}

fn resource_json(r: &Resource, tree: &ModuleTree, providers: &ProviderConfigs) -> Value {
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
fn provider_local_key(r: &Resource) -> String {
    r.provider
        .as_ref()
        .and_then(|p| traversal_text(p.expr()))
        .unwrap_or_else(|| implied_provider(&r.key.type_name).to_string())
}

fn implied_provider(type_name: &str) -> &str {
    type_name.split('_').next().unwrap_or(type_name)
}

fn opaque_key(provider: &str, module_address: &str) -> String {
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
struct ProviderConfigs {
    entries: BTreeMap<String, ProviderConfig>,
}

impl ProviderConfigs {
    fn collect(&mut self, tree: &ModuleTree, parent: Option<&ModuleTree>) {
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
        // implicitly (by resources); in a child module both may stand for a parent's.
        let required = m.terraform.required_providers.keys().cloned();
        let implied = m.resources.values().map(|r| {
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
    fn resolve(&self, key: &str) -> String {
        match self.entries.get(key).and_then(|pc| pc.parent_key.as_ref()) {
            Some(parent) if self.entries.contains_key(parent) => parent.clone(),
            _ => key.to_string(),
        }
    }

    /// The fully qualified name of the provider the configuration `key` stands for.
    fn full_name_of(&self, key: &str) -> Option<&str> {
        self.entries
            .get(&self.resolve(key))
            .or_else(|| self.entries.get(key))
            .map(|pc| pc.full_name.as_str())
    }

    /// The entries Terraform prints: those that do not stand for a parent's configuration.
    fn public(&self) -> Value {
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
        Value::Object(out)
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
const BUILTIN_PROVIDER: &str = "terraform.io/builtin/terraform";

/// `~>2.0.0, >=1` → `~> 2.0.0, >= 1`, as Terraform prints version constraints.
fn normalize_constraints(text: &str) -> String {
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

fn is_true(a: &Option<Attr>) -> bool {
    a.as_ref().and_then(|a| constant(a.expr())) == Some(Value::Bool(true))
}

fn non_empty_string(a: &Option<Attr>) -> Option<Value> {
    let s = a.as_ref().and_then(|a| literal_string(a.expr()))?;
    (!s.is_empty()).then(|| json!(s))
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
