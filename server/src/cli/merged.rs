//! `strata merged`: the effective configuration of a module, as JSON in the shape of the
//! `configuration` object of `terraform show -json`, or as HCL text with the origin of
//! every overridden piece.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use serde_json::{json, Map, Value};

use super::Format;
use crate::eval::{constant, references};
use crate::merge::{
    effective_block_type, literal_string, merge, render, Attr, MergedBody, MergedModule, Mode,
    Nested, Resource,
};
use crate::module::Dialect;
use crate::syntax::{Block, Body, Expr, ExprKind, JsonKind, TraversalStep};
use crate::workspace::Workspace;

/// Child modules deeper than this are not followed (a source cycle would be endless).
const MAX_DEPTH: usize = 16;

/// Prints the merged module in `dir`.
pub fn run(dir: &Path, format: Format, dialect: Option<Dialect>) -> Result<ExitCode> {
    let dir = super::check::readable_dir(dir)?;
    let ws = Workspace::new();
    ws.set_dialect(dialect);
    let module = ws.index_dir(&dir);
    if module.sources.is_empty() {
        bail!("{} holds no Terraform configuration files", dir.display());
    }
    let merged = merge(&module);
    let mut out = std::io::stdout().lock();
    match format {
        Format::Text => out.write_all(render::render_module(&merged).as_bytes())?,
        Format::Json => {
            let mut seen = HashSet::from([dir.clone()]);
            let root = module_json(&ws, &merged, &dir, &mut seen, 0);
            let document = json!({
                "provider_config": provider_config(&merged),
                "root_module": root,
            });
            serde_json::to_writer_pretty(&mut out, &document).context("writing JSON")?;
            writeln!(out)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `{"constant_value": v}` or `{"references": [...]}`, as Terraform represents an
/// expression.
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

/// The expressions of a body: attributes, nested blocks as arrays of objects, and
/// `dynamic` blocks under the `dynamic` key (Strata's extension; Terraform drops them).
fn body_expressions<'a>(
    attributes: impl Iterator<Item = &'a crate::syntax::Attribute>,
    blocks: impl Iterator<Item = &'a Block>,
) -> Map<String, Value> {
    let mut out = Map::new();
    for a in attributes {
        out.insert(a.name.name.to_string(), expression(&a.expr));
    }
    let mut dynamic: Map<String, Value> = Map::new();
    for b in blocks {
        if &*b.kind.name == "dynamic" {
            let label = effective_block_type(b).to_string();
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
            push(&mut dynamic, &label, Value::Object(entry));
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

fn merged_body(body: &MergedBody) -> Map<String, Value> {
    body_expressions(
        body.attributes.iter().map(|a| &a.attr),
        body.blocks.iter().map(|b: &Nested| &b.block),
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

/// `depends_on` as Terraform lists it: one address string per traversal.
fn depends_on(a: &Option<Attr>) -> Option<Value> {
    let a = a.as_ref()?;
    let items: Vec<String> = match &a.expr().kind {
        ExprKind::Tuple(items) => items.iter().filter_map(traversal_text).collect(),
        ExprKind::Json(v) => match &v.kind {
            JsonKind::Array(items) => items
                .iter()
                .filter_map(|i| match &i.kind {
                    JsonKind::String(s) => Some(s.to_string()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    (!items.is_empty()).then(|| json!(items))
}

/// A static traversal as text: `aws_instance.a`, `module.m`, `foo.bar[0]`.
pub fn traversal_text(expr: &Expr) -> Option<String> {
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

fn module_json(
    ws: &Workspace,
    m: &MergedModule,
    dir: &Path,
    seen: &mut HashSet<PathBuf>,
    depth: usize,
) -> Value {
    let mut root = Map::new();

    let mut outputs = Map::new();
    for (name, o) in &m.outputs {
        let mut entry = Map::new();
        insert_some(
            &mut entry,
            "expression",
            o.value.as_ref().map(attr_expression),
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

    let resources: Vec<Value> = m.resources.values().map(resource_json).collect();
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
        insert_some(
            &mut entry,
            "count_expression",
            c.count.as_ref().map(attr_expression),
        );
        insert_some(
            &mut entry,
            "for_each_expression",
            c.for_each.as_ref().map(attr_expression),
        );
        insert_some(&mut entry, "depends_on", depends_on(&c.depends_on));
        if let Some(child) = source.and_then(|s| local_child(dir, s)) {
            if depth < MAX_DEPTH && seen.insert(child.clone()) {
                let module = ws.index_dir(&child);
                if !module.sources.is_empty() {
                    let merged = merge(&module);
                    let json = module_json(ws, &merged, &child, seen, depth + 1);
                    entry.insert("module".into(), json);
                }
                seen.remove(&child);
            }
        }
        calls.insert(name.clone(), Value::Object(entry));
    }
    if !calls.is_empty() {
        root.insert("module_calls".into(), Value::Object(calls));
    }

    let mut variables = Map::new();
    for (name, v) in &m.variables {
        let mut entry = Map::new();
        insert_some(
            &mut entry,
            "default",
            v.default
                .as_ref()
                .map(|d| constant(d.expr()).unwrap_or(Value::Null)),
        );
        insert_some(&mut entry, "description", non_empty_string(&v.description));
        for (key, flag) in [("sensitive", &v.sensitive), ("ephemeral", &v.ephemeral)] {
            if is_true(flag) {
                entry.insert(key.into(), json!(true));
            }
        }
        variables.insert(name.clone(), Value::Object(entry));
    }
    if !variables.is_empty() {
        root.insert("variables".into(), Value::Object(variables));
    }
    Value::Object(root)
}

fn resource_json(r: &Resource) -> Value {
    let mut entry = Map::new();
    entry.insert("address".into(), json!(r.key.to_string()));
    entry.insert(
        "mode".into(),
        json!(match r.key.mode {
            Mode::Managed => "managed",
            Mode::Data => "data",
            Mode::Ephemeral => "ephemeral",
        }),
    );
    entry.insert("type".into(), json!(r.key.type_name));
    entry.insert("name".into(), json!(r.key.name));
    entry.insert("provider_config_key".into(), json!(provider_config_key(r)));
    let expressions = merged_body(&r.config);
    if !expressions.is_empty() {
        entry.insert("expressions".into(), Value::Object(expressions));
    }
    insert_some(
        &mut entry,
        "count_expression",
        r.count.as_ref().map(attr_expression),
    );
    insert_some(
        &mut entry,
        "for_each_expression",
        r.for_each.as_ref().map(attr_expression),
    );
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

/// The provider configuration a resource uses: its `provider` argument, or the local
/// name implied by its type (`aws_instance` → `aws`).
fn provider_config_key(r: &Resource) -> String {
    r.provider
        .as_ref()
        .and_then(|p| traversal_text(p.expr()))
        .unwrap_or_else(|| implied_provider(&r.key.type_name).to_string())
}

fn implied_provider(type_name: &str) -> &str {
    type_name.split('_').next().unwrap_or(type_name)
}

fn provider_config(m: &MergedModule) -> Value {
    let registry = match m.dialect {
        Dialect::Terraform => "registry.terraform.io",
        Dialect::OpenTofu => "registry.opentofu.org",
    };
    let requirement = |name: &str| -> (String, Option<String>) {
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
    };
    let mut out = Map::new();
    for (name, alias) in m.providers.keys() {
        let key = match alias {
            Some(a) => format!("{name}.{a}"),
            None => name.clone(),
        };
        let (full, version) = requirement(name);
        let mut entry = Map::new();
        entry.insert("name".into(), json!(name));
        entry.insert("full_name".into(), json!(full));
        insert_some(&mut entry, "alias", alias.as_ref().map(|a| json!(a)));
        insert_some(&mut entry, "version_constraint", version.map(|v| json!(v)));
        out.insert(key, Value::Object(entry));
    }
    // Providers that resources use without a configuration block are listed too.
    let implied: Vec<String> = m.resources.values().map(provider_config_key).collect();
    let required = m.terraform.required_providers.keys().cloned();
    for key in required.chain(implied) {
        if out.contains_key(&key) {
            continue;
        }
        let name = key.split('.').next().unwrap_or(&key).to_string();
        let (full, version) = requirement(&name);
        let mut entry = Map::new();
        entry.insert("name".into(), json!(name));
        entry.insert("full_name".into(), json!(full));
        insert_some(&mut entry, "version_constraint", version.map(|v| json!(v)));
        out.insert(key, Value::Object(entry));
    }
    Value::Object(out)
}

/// A provider's fully qualified name from its `source` (or the implied
/// `hashicorp/<name>`), with the default registry host added.
fn full_name(registry: &str, local: &str, source: Option<&str>) -> String {
    let source = source.unwrap_or(local).to_lowercase();
    match source.split('/').count() {
        1 => format!("{registry}/hashicorp/{source}"),
        2 => format!("{registry}/{source}"),
        _ => source,
    }
}

/// `~>2.0.0, >=1` → `~> 2.0.0, >= 1`, as Terraform prints version constraints.
pub fn normalize_constraints(text: &str) -> String {
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

/// The directory of a local module source (`./x`, `../x`), if it exists.
fn local_child(dir: &Path, source: &str) -> Option<PathBuf> {
    if !(source.starts_with("./") || source.starts_with("../")) {
        return None;
    }
    let child = dir.join(source);
    child
        .is_dir()
        .then(|| child.canonicalize().unwrap_or(child))
}
