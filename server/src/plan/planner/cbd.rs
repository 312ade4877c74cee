//! `create_before_destroy` as Terraform's `ForcedCBDTransformer` decides it (spec §4.7):
//! a resource is replaced create-before-destroy when its own configuration says so, or
//! when a resource that says so depends on it, directly or through anything of the plan
//! graph: local values, module input variables and outputs, module calls (a resource
//! in a module depends on its call's `count`, `for_each` and `depends_on`), data sources.
//! The graph is of configuration objects, not instances, as Terraform's plan graph is;
//! the flag recorded in state plays no part for a configured resource.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::ordering::depends_on_references;
use super::scope::{body_exprs, literal_bool};
use super::Planner;
use crate::eval::references;
use crate::merge::{Attr, MergedModule, Mode, Nested, Resource, ResourceKey};
use crate::syntax::Expr;

/// What a vertex of the graph is, within its module.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Item {
    Resource(ResourceKey),
    Local(String),
    Variable(String),
    Output(String),
    /// A module call's expansion (its `count`, `for_each` and `depends_on`).
    Call(String),
}

/// A vertex: the call names from the root to its module, and the object there.
type Vertex = (Vec<String>, Item);

/// The managed resources whose replacement is create-before-destroy, by module (call
/// names from the root) and resource.
pub(super) type Forced = HashSet<(Vec<String>, ResourceKey)>;

impl Planner<'_> {
    /// Every managed resource of the instantiated modules that is replaced
    /// create-before-destroy, by configuration or forced.
    pub(super) fn create_before_destroy(&self) -> Forced {
        let mut modules: HashMap<Vec<String>, Arc<MergedModule>> = HashMap::new();
        for n in self.nodes.borrow().iter() {
            let calls = n.path.calls().iter().map(|c| c.to_string()).collect();
            modules.entry(calls).or_insert_with(|| n.merged.clone());
        }
        let graph = Graph { modules: &modules };
        let mut forced = Forced::new();
        for (calls, m) in &modules {
            for r in m.resources.values() {
                if r.key.mode != Mode::Managed
                    || !literal_bool(r.lifecycle.create_before_destroy.as_ref())
                {
                    continue;
                }
                forced.insert((calls.clone(), r.key.clone()));
                // Everything this resource depends on, walked once.
                let mut seen = HashSet::new();
                let mut stack = graph.dependencies(&(calls.clone(), Item::Resource(r.key.clone())));
                while let Some(v) = stack.pop() {
                    if !seen.insert(v.clone()) {
                        continue;
                    }
                    if let (path, Item::Resource(key)) = &v {
                        if key.mode == Mode::Managed {
                            forced.insert((path.clone(), key.clone()));
                        }
                    }
                    stack.extend(graph.dependencies(&v));
                }
            }
        }
        forced
    }
}

/// The dependency edges of the configuration's objects, read from their expressions.
struct Graph<'a> {
    modules: &'a HashMap<Vec<String>, Arc<MergedModule>>,
}

impl Graph<'_> {
    /// The vertices `v` depends on.
    fn dependencies(&self, v: &Vertex) -> Vec<Vertex> {
        let (calls, item) = v;
        let Some(m) = self.modules.get(calls) else {
            return Vec::new();
        };
        let mut exprs: Vec<&Expr> = Vec::new();
        let listed: Vec<Expr>;
        let mut out = Vec::new();
        // A module's objects wait for its call's expansion.
        if let Some((name, parent)) = calls.split_last() {
            out.push((parent.to_vec(), Item::Call(name.clone())));
        }
        match item {
            Item::Resource(key) => {
                let Some(r) = m.resources.get(key) else {
                    return out;
                };
                listed = depends_on_references(r);
                resource_exprs(r, &mut exprs);
                exprs.extend(&listed);
            }
            Item::Local(name) => exprs.extend(m.locals.get(name).map(|l| l.value.expr())),
            Item::Output(name) => {
                let Some(o) = m.outputs.get(name) else {
                    return out;
                };
                exprs.extend(o.value.as_ref().map(Attr::expr));
                exprs.extend(o.depends_on.as_ref().map(Attr::expr));
                condition_exprs(&o.preconditions, &mut exprs);
            }
            Item::Variable(name) => {
                // The value the calling module gives it, read in the calling module.
                let Some((call, parent)) = calls.split_last() else {
                    return out;
                };
                let argument = self
                    .modules
                    .get(parent)
                    .and_then(|p| p.module_calls.get(call))
                    .and_then(|c| {
                        c.arguments
                            .attributes
                            .iter()
                            .find(|a| *a.attr.name.name == **name)
                    });
                if let Some(a) = argument {
                    out.extend(self.referenced(parent, a.expr()));
                }
                return out;
            }
            Item::Call(name) => {
                let Some(c) = m.module_calls.get(name) else {
                    return out;
                };
                for a in [&c.count, &c.for_each, &c.depends_on].into_iter().flatten() {
                    exprs.push(a.expr());
                }
            }
        }
        for e in exprs {
            out.extend(self.referenced(calls, e));
        }
        out
    }

    /// The vertices an expression of the module at `calls` refers to.
    fn referenced(&self, calls: &[String], e: &Expr) -> Vec<Vertex> {
        let Some(m) = self.modules.get(calls) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for reference in references(e) {
            let subject = crate::merge::strip_instance_keys(&reference.subject);
            let parts: Vec<&str> = subject.split('.').collect();
            let here = |item| (calls.to_vec(), item);
            match parts.as_slice() {
                ["var", name, ..] => out.push(here(Item::Variable(name.to_string()))),
                ["local", name, ..] => out.push(here(Item::Local(name.to_string()))),
                ["module", call, rest @ ..] => {
                    let mut child = calls.to_vec();
                    child.push(call.to_string());
                    match rest.first() {
                        Some(output) => out.push((child, Item::Output(output.to_string()))),
                        // The whole module: every output of it.
                        None => {
                            if let Some(c) = self.modules.get(&child) {
                                out.extend(
                                    c.outputs
                                        .keys()
                                        .map(|o| (child.clone(), Item::Output(o.clone()))),
                                );
                            }
                        }
                    }
                }
                ["data", type_name, name, ..] => out.push(here(Item::Resource(ResourceKey {
                    mode: Mode::Data,
                    type_name: type_name.to_string(),
                    name: name.to_string(),
                }))),
                [t, name, ..]
                    if !matches!(*t, "path" | "count" | "each" | "self" | "terraform") =>
                {
                    let key = ResourceKey {
                        mode: Mode::Managed,
                        type_name: t.to_string(),
                        name: name.to_string(),
                    };
                    if m.resources.contains_key(&key) {
                        out.push(here(Item::Resource(key)));
                    }
                }
                _ => {}
            }
        }
        out
    }
}

/// The expressions whose references a resource depends on (Terraform's
/// `NodeAbstractResource.References`): its arguments and blocks, `count`, `for_each`,
/// `replace_triggered_by` and its conditions (`depends_on` is read separately).
fn resource_exprs<'r>(r: &'r Resource, out: &mut Vec<&'r Expr>) {
    body_exprs(&r.config, out);
    for a in [&r.count, &r.for_each, &r.lifecycle.replace_triggered_by]
        .into_iter()
        .flatten()
    {
        out.push(a.expr());
    }
    condition_exprs(&r.lifecycle.preconditions, out);
    condition_exprs(&r.lifecycle.postconditions, out);
}

/// The `condition` and `error_message` of condition blocks.
fn condition_exprs<'b>(blocks: &'b [Nested], out: &mut Vec<&'b Expr>) {
    for c in blocks {
        for name in ["condition", "error_message"] {
            out.extend(c.block.body.attribute(name).map(|a| &a.expr));
        }
    }
}
