//! Long chains of references planned without deep recursion.
//!
//! The planner is lazy: a reference to a local, an output, a module call or a resource
//! computes it on first use, from inside the evaluation that met the reference. A chain
//! of 100,000 locals, each referring to the one before, would recurse 100,000 times. So
//! once the computations in progress are nested [`SETTLE_DEPTH`] deep, the next one first
//! settles what it depends on with an explicit work stack, deepest first: each of those
//! then finds its own dependencies memoized and returns at once. What a static look at
//! the references misses (or a reference cycle) recurses lazily as before, and past
//! [`MAX_REFERENCE_DEPTH`] nested computations the planner stops with a diagnostic.

use std::collections::HashSet;

use super::ordering::depends_on_references;
use super::scope::body_exprs;
use super::{Memo, Planner};
use crate::eval::references;
use crate::limits::{beyond_terraform, MAX_REFERENCE_DEPTH};
use crate::merge::{strip_instance_keys, Mode, ResourceKey};
use crate::plan::PlanDiagnostic;
use crate::syntax::{Expr, Span};

/// How many computations may be nested before the next one settles its dependencies.
const SETTLE_DEPTH: usize = 32;

/// The summary of the diagnostic for references nested past [`MAX_REFERENCE_DEPTH`].
const REFERENCES_TOO_DEEP: &str = "References nested too deeply";

/// What a computation in progress should do before it starts.
pub(super) enum Entry {
    /// Compute, one level deeper.
    Compute,
    /// Give up: the nesting limit was reached (and reported once).
    TooDeep,
}

impl Planner<'_> {
    /// Enters the computation of `key` (see the module documentation); the caller leaves
    /// it with [`Planner::leave`] after computing.
    pub(super) fn enter(&self, key: &Memo) -> Entry {
        let depth = self.nesting.get();
        if depth >= MAX_REFERENCE_DEPTH {
            if !self.too_deep.replace(true) {
                self.error(PlanDiagnostic::sourceless(
                    REFERENCES_TOO_DEEP,
                    format!(
                        "Planning needed values that depend on one another more than \
                         {MAX_REFERENCE_DEPTH} levels deep through a reference cycle or \
                         references Strata could not order, so it stopped following them; \
                         those values are unknown in this plan. {}",
                        beyond_terraform()
                    ),
                ));
            }
            return Entry::TooDeep;
        }
        if depth >= SETTLE_DEPTH {
            self.settle(key);
        }
        self.nesting.set(depth + 1);
        Entry::Compute
    }

    /// Leaves a computation entered with [`Planner::enter`].
    pub(super) fn leave(&self) {
        self.nesting.set(self.nesting.get().saturating_sub(1));
    }

    /// Computes every value `key` depends on, deepest first, with an explicit stack.
    fn settle(&self, key: &Memo) {
        let mut seen: HashSet<Memo> = HashSet::from([key.clone()]);
        let mut stack = vec![(key.clone(), self.dependencies_of(key), 0)];
        while let Some((_, dependencies, next)) = stack.last_mut() {
            if let Some(dependency) = dependencies.get(*next).cloned() {
                *next += 1;
                let known = self.memo.borrow().contains_key(&dependency);
                if !known && seen.insert(dependency.clone()) {
                    let further = self.dependencies_of(&dependency);
                    stack.push((dependency, further, 0));
                }
                continue;
            }
            if let Some((done, _, _)) = stack.pop() {
                if !stack.is_empty() {
                    self.compute(&done);
                }
            }
        }
    }

    /// Computes (and memoizes) the value `key` names.
    fn compute(&self, key: &Memo) {
        let span = Span::default();
        match key {
            Memo::Var(node, name) => {
                let _ = self.variable(*node, name, span);
            }
            Memo::Local(node, name) => {
                let _ = self.local(*node, name, span);
            }
            Memo::Output(node, name) => {
                self.output_value(*node, name);
            }
            Memo::Call(node, name) => {
                let _ = self.call_value(*node, name, span);
            }
            Memo::Resource(node, key) => {
                self.resource_value(*node, key);
            }
        }
    }

    /// The memoized values the computation of `key` reads, as far as its references say.
    fn dependencies_of(&self, key: &Memo) -> Vec<Memo> {
        let mut out = Vec::new();
        match key {
            Memo::Local(node, name) => {
                let n = self.node(*node);
                if let Some(local) = n.merged.locals.get(name) {
                    self.referenced(*node, local.value.expr(), &mut out);
                }
            }
            Memo::Output(node, name) => {
                let n = self.node(*node);
                if let Some(value) = n.merged.outputs.get(name).and_then(|o| o.value.as_ref()) {
                    self.referenced(*node, value.expr(), &mut out);
                }
            }
            Memo::Var(node, name) => {
                let n = self.node(*node);
                if let Some((parent, call, _)) = &n.parent {
                    let p = self.node(*parent);
                    let given = p.merged.module_calls.get(call);
                    if let Some(a) = given.and_then(|c| c.arguments.attribute(name)) {
                        self.referenced(*parent, a.expr(), &mut out);
                    }
                }
            }
            Memo::Call(node, name) => {
                let calls = self.calls.borrow();
                for (_, child) in calls.get(&(*node, name.clone())).map_or(&[][..], |c| &c.1) {
                    let m = self.node(*child).merged.clone();
                    out.extend(m.outputs.keys().map(|o| Memo::Output(*child, o.clone())));
                }
            }
            Memo::Resource(node, key) => {
                let n = self.node(*node);
                if let Some(r) = n.merged.resources.get(key) {
                    let listed = depends_on_references(r);
                    let mut exprs = Vec::new();
                    body_exprs(&r.config, &mut exprs);
                    for a in [&r.count, &r.for_each].into_iter().flatten() {
                        exprs.push(a.expr());
                    }
                    exprs.extend(&listed);
                    for e in exprs {
                        self.referenced(*node, e, &mut out);
                    }
                }
            }
        }
        out
    }

    /// The memoized values the references of `expr`, in module instance `node`, name.
    fn referenced(&self, node: usize, expr: &Expr, out: &mut Vec<Memo>) {
        let has_parent = self.node(node).parent.is_some();
        for reference in references(expr) {
            let subject = strip_instance_keys(&reference.subject);
            let parts: Vec<&str> = subject.split('.').collect();
            let resource = |mode: Mode, t: &str, name: &str| {
                Memo::Resource(
                    node,
                    ResourceKey {
                        mode,
                        type_name: t.to_string(),
                        name: name.to_string(),
                    },
                )
            };
            out.push(match parts.as_slice() {
                ["var", name, ..] if has_parent => Memo::Var(node, name.to_string()),
                ["local", name, ..] => Memo::Local(node, name.to_string()),
                ["module", name, ..] => Memo::Call(node, name.to_string()),
                ["data", t, name, ..] => resource(Mode::Data, t, name),
                [t, name, ..]
                    if !matches!(
                        *t,
                        "var" | "path" | "count" | "each" | "self" | "terraform" | "tofu"
                    ) =>
                {
                    resource(Mode::Managed, t, name)
                }
                _ => continue,
            });
        }
    }
}
