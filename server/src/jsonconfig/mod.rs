//! The configuration representation of `terraform show -json` (the `configuration`
//! object, Terraform's `command/jsonconfig`), built from merged modules: `provider_config`
//! and `root_module`, recursing into local child modules. Conventions follow Terraform's
//! own marshalling: empty and false values are omitted, `count_expression` wins over
//! `for_each_expression`, resources are managed then data each sorted by address, and
//! provider keys of child modules are `module.x:name`, pointing at the parent's
//! configuration when it is passed or inherited. The CLI's `merged --format json` prints
//! it; the workspace loads the tree (`Workspace::configuration_tree`).

mod expressions;
mod providers;
mod resources;
mod variables;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::eval::constant;
use crate::merge::{literal_string, Attr, MergedModule, Mode, Resource};

use expressions::{attr_expression, depends_on, repetition};
pub use expressions::{expression, merged_body};
use providers::{normalize_constraints, ProviderConfigs};
use resources::resource_json;
use variables::variable_default;

/// Child modules deeper than this are not followed (a source cycle would be endless).
const MAX_DEPTH: usize = 16;

/// Where the tree finds the local child modules a module calls.
pub trait ChildModules {
    /// The directory a call's `source` names from the calling module's `dir`, when it is
    /// a local module that exists.
    fn local_dir(&self, dir: &Path, source: &str) -> Option<PathBuf>;
    /// The merged model of the module in `dir`; `None` when it holds no configuration.
    fn merged(&self, dir: &Path) -> Option<MergedModule>;
}

/// A merged module and the local child modules its calls load.
pub struct ModuleTree {
    /// The module address: empty for the root, `module.a.module.b` below.
    address: String,
    merged: MergedModule,
    children: BTreeMap<String, ModuleTree>,
}

impl ModuleTree {
    /// Loads the tree below a merged root module in `dir`.
    pub fn load(modules: &dyn ChildModules, root: MergedModule, dir: &Path) -> Self {
        let mut seen = HashSet::from([dir.to_path_buf()]);
        Self::build(modules, root, dir, String::new(), &mut seen, 0)
    }

    fn build(
        modules: &dyn ChildModules,
        merged: MergedModule,
        dir: &Path,
        address: String,
        seen: &mut HashSet<PathBuf>,
        depth: usize,
    ) -> Self {
        let mut children = BTreeMap::new();
        for (name, call) in &merged.module_calls {
            let source = call.source.as_ref().and_then(|s| literal_string(s.expr()));
            let Some(child_dir) = source.and_then(|s| modules.local_dir(dir, s)) else {
                continue;
            };
            if depth >= MAX_DEPTH || !seen.insert(child_dir.clone()) {
                continue;
            }
            if let Some(child_merged) = modules.merged(&child_dir) {
                let child_address = join_address(&address, &format!("module.{name}"));
                let child = Self::build(
                    modules,
                    child_merged,
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
    let mut document = Map::new();
    // `provider_config` is left out when empty, as Go's `omitempty` leaves it.
    let provider_config = providers.public();
    if !provider_config.is_empty() {
        document.insert("provider_config".into(), Value::Object(provider_config));
    }
    document.insert("root_module".into(), root);
    Value::Object(document)
}

fn insert_some(map: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    if let Some(v) = value {
        map.insert(key.into(), v);
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

    // A check block's data sources are among the module's data resources.
    let scoped = m.scoped_data();
    let mut resources: Vec<&Resource> = m
        .resources
        .values()
        .chain(&scoped)
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

fn is_true(a: &Option<Attr>) -> bool {
    a.as_ref().and_then(|a| constant(a.expr())) == Some(Value::Bool(true))
}

fn non_empty_string(a: &Option<Attr>) -> Option<Value> {
    let s = a.as_ref().and_then(|a| literal_string(a.expr()))?;
    (!s.is_empty()).then(|| json!(s))
}
