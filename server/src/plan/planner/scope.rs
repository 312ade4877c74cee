//! How expressions see a module instance: the scope of one resource instance's
//! bindings, nested blocks evaluated to objects, and the expressions of a body.

use std::collections::BTreeMap;
use std::path::Path;

use super::{Bindings, Planner};
use crate::eval::{evaluate, Budget, EvalError, Scope, Value};
use crate::merge::{effective_block_type, Attr, MergedBody, Mode, ResourceKey};
use crate::syntax::{Body, Expr, ExprKind, Span};

/// A literal `true` (lifecycle flags are literal-only; the checks reject anything else).
pub(in crate::plan) fn literal_bool(attr: Option<&Attr>) -> bool {
    attr.and_then(|a| crate::eval::constant(a.expr()))
        .is_some_and(|v| {
            v == serde_json::Value::Bool(true) || v == serde_json::Value::String("true".into())
        })
}

/// Every expression of a body, nested blocks included.
pub(super) fn body_exprs<'b>(body: &'b MergedBody, out: &mut Vec<&'b Expr>) {
    out.extend(body.attributes.iter().map(Attr::expr));
    for b in &body.blocks {
        syntax_body_exprs(&b.block.body, out);
    }
}

pub(super) fn syntax_body_exprs<'b>(body: &'b Body, out: &mut Vec<&'b Expr>) {
    out.extend(body.attributes.iter().map(|a| &a.expr));
    for b in &body.blocks {
        syntax_body_exprs(&b.body, out);
    }
}

/// A nested block's evaluated objects: its effective type, and the objects (`None` when
/// a `dynamic` block's `for_each` is unknown).
pub(super) fn block_values(
    block: &crate::syntax::Block,
    scope: &dyn Scope,
) -> Result<(String, Option<Vec<Value>>), EvalError> {
    let kind = effective_block_type(block).to_string();
    if &*block.kind.name != "dynamic" {
        return Ok((kind, Some(vec![body_value(&block.body, scope)?])));
    }
    let Some(for_each) = block.body.attribute("for_each") else {
        return Ok((kind, Some(Vec::new())));
    };
    let collection = evaluate(&for_each.expr, scope)?;
    let iterator = block
        .body
        .attribute("iterator")
        .and_then(|i| match &i.expr.kind {
            ExprKind::Variable(id) => Some(id.name.to_string()),
            _ => None,
        })
        .unwrap_or_else(|| kind.clone());
    let pairs: Vec<(Value, Value)> = match &collection {
        Value::Unknown | Value::UnknownOf(..) => return Ok((kind, None)),
        v if v.attributes().is_some() => v
            .attributes()
            .into_iter()
            .flatten()
            .map(|(k, v)| (Value::string(k.clone()), v.clone()))
            .collect(),
        Value::Set(items) => items.iter().map(|v| (v.clone(), v.clone())).collect(),
        v => v
            .elements()
            .unwrap_or(&[])
            .iter()
            .enumerate()
            .map(|(i, v)| (Value::Number(i as f64), v.clone()))
            .collect(),
    };
    let mut out = Vec::new();
    for (key, value) in pairs {
        let bound = Bound {
            inner: scope,
            name: &iterator,
            value: Value::Object(
                BTreeMap::from([("key".to_string(), key), ("value".to_string(), value)]).into(),
            ),
        };
        for content in block.body.blocks_of("content") {
            out.push(body_value(&content.body, &bound)?);
        }
    }
    Ok((kind, Some(out)))
}

/// A syntax body evaluated to an object (nested blocks as lists of objects).
pub(super) fn body_value(body: &Body, scope: &dyn Scope) -> Result<Value, EvalError> {
    let mut map = BTreeMap::new();
    for a in &body.attributes {
        map.insert(a.name.name.to_string(), evaluate(&a.expr, scope)?);
    }
    for b in &body.blocks {
        let (kind, items) = block_values(b, scope)?;
        let entry = map
            .entry(kind)
            .or_insert_with(|| Value::List(Vec::new().into()));
        match (entry, items) {
            (Value::List(list), Some(items)) => list.extend(items),
            (slot, _) => *slot = Value::Unknown,
        }
    }
    Ok(Value::Object(map.into()))
}

/// A scope with one more name: a `dynamic` block's iterator.
pub(super) struct Bound<'s> {
    inner: &'s dyn Scope,
    name: &'s str,
    value: Value,
}

impl Scope for Bound<'_> {
    fn lookup(&self, root: &str, attrs: &[&str], span: Span) -> Result<(Value, usize), EvalError> {
        if root == self.name {
            return Ok((self.value.clone(), 0));
        }
        self.inner.lookup(root, attrs, span)
    }

    fn module_dir(&self) -> Option<&Path> {
        self.inner.module_dir()
    }

    fn provider_function(&self, name: &str) -> Option<crate::schema::ProviderFunction> {
        self.inner.provider_function(name)
    }

    fn budget(&self) -> Option<&Budget> {
        self.inner.budget()
    }

    fn file_outside(&self, path: &str, real: &Path, span: Span) {
        self.inner.file_outside(path, real, span);
    }
}

/// The scope of one module instance, with the bindings of one resource instance.
pub(in crate::plan) struct InstanceScope<'p> {
    pub planner: &'p Planner<'p>,
    pub node: usize,
    /// The file of the expressions evaluated.
    pub file: u32,
    pub bindings: Bindings,
}

impl Scope for InstanceScope<'_> {
    fn lookup(&self, root: &str, attrs: &[&str], span: Span) -> Result<(Value, usize), EvalError> {
        let p = self.planner;
        let first = attrs.first().copied();
        let missing = |what: &str| {
            EvalError::new(
                "Invalid reference",
                format!("A reference to {what} must be followed by an attribute name."),
                span,
            )
        };
        match root {
            "var" => Ok((p.variable(self.node, first.ok_or_else(|| missing("var"))?, span)?, 1)),
            "local" => Ok((p.local(self.node, first.ok_or_else(|| missing("local"))?, span)?, 1)),
            "module" => Ok((p.call_value(self.node, first.ok_or_else(|| missing("module"))?, span)?, 1)),
            "data" => {
                let (Some(t), Some(n)) = (first, attrs.get(1)) else {
                    return Err(missing("a data source"));
                };
                let key = ResourceKey {
                    mode: Mode::Data,
                    type_name: t.to_string(),
                    name: n.to_string(),
                };
                // A check block's own data source, read before its assertions.
                if let Some(v) = p.scoped.borrow().get(&(self.node, key.clone())) {
                    return Ok((v.clone(), 2));
                }
                if !p.node(self.node).merged.resources.contains_key(&key) {
                    return Err(EvalError::new("Reference to undeclared resource", format!("A data resource \"{t}\" \"{n}\" has not been declared in this module."), span));
                }
                Ok((p.resource_value(self.node, &key), 2))
            }
            "count" => match (&self.bindings.count_index, first) {
                (Some(i), Some("index")) => Ok((i.clone(), 1)),
                _ => Err(EvalError::new("Reference to \"count\" in non-counted context", "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, and only when the \"count\" argument is set.", span)),
            },
            "each" => match (&self.bindings.each, first) {
                (Some((k, _)), Some("key")) => Ok((k.clone(), 1)),
                (Some((_, v)), Some("value")) => Ok((v.clone(), 1)),
                _ => Err(EvalError::new("Reference to \"each\" in context without for_each", "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only when the \"for_each\" argument is set.", span)),
            },
            "self" => match &self.bindings.self_value {
                Some(v) => Ok((v.clone(), 0)),
                None => Err(EvalError::new("Invalid \"self\" reference", "The \"self\" object is not available in this context.", span)),
            },
            "path" => {
                let n = p.node(self.node);
                let relative = |dir: &Path| {
                    dir.strip_prefix(&p.config.root_dir)
                        .ok()
                        .map(|d| d.to_string_lossy().into_owned())
                        .filter(|d| !d.is_empty())
                        .unwrap_or_else(|| ".".into())
                };
                match first {
                    Some("module") => Ok((Value::String(relative(&n.dir)), 1)),
                    Some("root") => Ok((Value::string("."), 1)),
                    Some("cwd") => Ok((Value::String(p.config.root_dir.to_string_lossy().into_owned()), 1)),
                    _ => Err(EvalError::new("Invalid \"path\" attribute", "The \"path\" object does not have an attribute with that name.", span)),
                }
            }
            "terraform" | "tofu" => match first {
                Some("workspace") => Ok((Value::string("default"), 1)),
                _ => Ok((Value::Unknown, attrs.len().min(1))),
            },
            type_name => {
                let Some(name) = first else {
                    return Err(EvalError::new("Invalid reference", format!("A reference to a resource type must be followed by at least one attribute access, specifying the resource name (\"{type_name}\")."), span));
                };
                let key = ResourceKey {
                    mode: Mode::Managed,
                    type_name: type_name.to_string(),
                    name: name.to_string(),
                };
                // A check block's own data source, read before its assertions.
                if let Some(v) = p.scoped.borrow().get(&(self.node, key.clone())) {
                    return Ok((v.clone(), 2));
                }
                if !p.node(self.node).merged.resources.contains_key(&key) {
                    return Err(EvalError::new("Reference to undeclared resource", format!("A managed resource \"{type_name}\" \"{name}\" has not been declared in the root module."), span));
                }
                Ok((p.resource_value(self.node, &key), 1))
            }
        }
    }

    fn module_dir(&self) -> Option<&Path> {
        Some(&self.planner.config.root_dir)
    }

    /// A provider-defined function's signature, from the schema of the provider the
    /// module requires under its local name: the call is an unknown value of its return
    /// type (Strata never calls a provider).
    fn provider_function(&self, name: &str) -> Option<crate::schema::ProviderFunction> {
        let merged = &self.planner.node(self.node).merged;
        match merged.provider_function(self.planner.config.schemas, name)? {
            (_, crate::schema::FunctionLookup::Found(f)) => Some(*f),
            _ => None,
        }
    }

    fn budget(&self) -> Option<&Budget> {
        Some(&self.planner.budget)
    }

    fn file_outside(&self, path: &str, real: &Path, span: Span) {
        self.planner
            .file_outside(self.node, self.file, path, real, span);
    }
}
