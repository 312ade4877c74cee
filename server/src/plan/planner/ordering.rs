//! What a resource depends on, and the `create_before_destroy` Terraform forces on the
//! dependencies of a resource that has it.

use std::collections::HashSet;

use super::scope::{body_exprs, literal_bool};
use super::Planner;
use crate::eval::references;
use crate::merge::{Mode, Resource, ResourceKey};
use crate::plan::address::{ModulePath, Target};
use crate::syntax::Expr;

impl Planner<'_> {
    /// The managed resources a resource depends on in its module: those its arguments,
    /// `count`/`for_each` and `depends_on` refer to, directly or through local values.
    pub(in crate::plan) fn dependencies(&self, node: usize, r: &Resource) -> Vec<ResourceKey> {
        let m = self.node(node).merged.clone();
        let listed = depends_on_references(r);
        let mut exprs: Vec<&Expr> = Vec::new();
        body_exprs(&r.config, &mut exprs);
        for a in [&r.count, &r.for_each].into_iter().flatten() {
            exprs.push(a.expr());
        }
        exprs.extend(&listed);
        let mut out = Vec::new();
        let mut seen_locals = HashSet::new();
        while let Some(e) = exprs.pop() {
            for reference in references(e) {
                let subject = crate::merge::strip_instance_keys(&reference.subject);
                let parts: Vec<&str> = subject.split('.').collect();
                match parts.as_slice() {
                    ["local", name, ..] if seen_locals.insert(name.to_string()) => {
                        if let Some(l) = m.locals.get(*name) {
                            exprs.push(l.value.expr());
                        }
                    }
                    [t, name, ..]
                        if !matches!(
                            *t,
                            "var"
                                | "module"
                                | "data"
                                | "path"
                                | "count"
                                | "each"
                                | "self"
                                | "terraform"
                        ) =>
                    {
                        let key = ResourceKey {
                            mode: Mode::Managed,
                            type_name: t.to_string(),
                            name: name.to_string(),
                        };
                        if m.resources.contains_key(&key) && !out.contains(&key) {
                            out.push(key);
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// Spec §4.7: a resource some create_before_destroy resource depends on, directly or
    /// not, is replaced create-before-destroy too.
    pub(super) fn compute_forced_cbd(&self, node: usize) {
        let m = self.node(node).merged.clone();
        let mut forced = HashSet::new();
        let mut stack: Vec<ResourceKey> = m
            .resources
            .values()
            .filter(|r| literal_bool(r.lifecycle.create_before_destroy.as_ref()))
            .flat_map(|r| self.dependencies(node, r))
            .collect();
        // Orphaned create_before_destroy objects force their recorded dependencies too.
        let path = self.node(node).path.clone();
        for o in &self.objects {
            if o.addr.resource.module == path && o.instance.create_before_destroy {
                for dep in &o.instance.dependencies {
                    if let Ok(Target::Resource(res)) = Target::parse(dep, &ModulePath::root()) {
                        stack.push(ResourceKey {
                            mode: Mode::Managed,
                            type_name: res.type_name,
                            name: res.name,
                        });
                    }
                }
            }
        }
        while let Some(key) = stack.pop() {
            if forced.insert(key.clone()) {
                if let Some(r) = m.resources.get(&key) {
                    stack.extend(self.dependencies(node, r));
                }
            }
        }
        self.forced_cbd.borrow_mut().insert(node, forced);
    }
}

/// The references of a resource's `depends_on` as Terraform decodes them (`hcl.ExprList`,
/// then `hcl.AbsTraversalForExpr` per element: in the JSON syntax a string holding a
/// reference, never a template).
pub(super) fn depends_on_references(r: &Resource) -> Vec<Expr> {
    r.depends_on
        .as_ref()
        .and_then(|a| a.expr().static_list())
        .unwrap_or_default()
        .iter()
        .filter_map(Expr::static_traversal)
        .collect()
}
