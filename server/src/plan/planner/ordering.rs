//! What a resource depends on in its module, and the `create_before_destroy` of each
//! module instance's resources (decided across the configuration in `cbd.rs`).

use std::collections::HashSet;

use super::cbd::Forced;
use super::scope::body_exprs;
use super::Planner;
use crate::eval::references;
use crate::merge::{Mode, Resource, ResourceKey};
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

    /// Spec §4.7: the resources of module instance `node` replaced
    /// create-before-destroy, from the configuration's (`cbd.rs`). An orphan's recorded
    /// flag forces nothing: Terraform plans orphans inside their resource's expansion,
    /// after its `ForcedCBDTransformer` ran (recorded fixture `cbd-orphan-cycle`: the
    /// orphan's dependency is replaced destroy-then-create, and the apply graph then
    /// has a cycle).
    pub(super) fn compute_forced_cbd(&self, node: usize, configured: &Forced) {
        let path = self.node(node).path.clone();
        let calls: Vec<String> = path.calls().iter().map(|c| c.to_string()).collect();
        let forced: HashSet<ResourceKey> = configured
            .iter()
            .filter(|(module, _)| *module == calls)
            .map(|(_, key)| key.clone())
            .collect();
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
