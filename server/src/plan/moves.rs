//! Moves (spec §4.3): explicit `moved` blocks and the implied `count` ↔ no-key moves,
//! applied to the prior state before anything is planned. Chains collapse to the
//! original address; a move onto an occupied address is blocked and reported.

use std::collections::{HashMap, HashSet};

use super::address::{InstanceAddr, ModulePath, ResourceAddr, Target};
use super::state::{InstanceKey, State, StateInstance};
use crate::merge::MergedModule;

/// One object of the prior state, at its address after moves.
#[derive(Debug, Clone)]
pub(super) struct Object {
    /// Where it is now.
    pub addr: InstanceAddr,
    /// The stored object.
    pub instance: std::sync::Arc<StateInstance>,
    /// Where it was before the moves, when it moved.
    pub previous: Option<InstanceAddr>,
}

/// A move statement, made absolute for one module instance.
#[derive(Debug, Clone)]
pub(super) struct Statement {
    /// The source.
    pub from: Target,
    /// The destination.
    pub to: Target,
}

/// The prior state's objects with their addresses after moves.
pub(super) fn objects_of(state: &State) -> Vec<Object> {
    let mut out = Vec::new();
    for r in &state.resources {
        let Ok(module) = ModulePath::parse(&r.module) else {
            continue;
        };
        let resource = ResourceAddr {
            module,
            mode: r.mode,
            type_name: r.type_name.clone(),
            name: r.name.clone(),
        };
        for i in &r.instances {
            out.push(Object {
                addr: resource.instance(i.key.clone()),
                instance: i.clone(),
                previous: None,
            });
        }
    }
    out
}

/// The statements of the `moved` blocks of a module, for one of its instances.
pub(super) fn explicit_statements(
    m: &std::sync::Arc<MergedModule>,
    within: &ModulePath,
) -> Vec<Statement> {
    let mut out = Vec::new();
    for n in &m.moved {
        let endpoint = |name: &str| -> Option<Target> {
            let a = n.block.body.attribute(name)?;
            let text = &m.file(n.file).text[a.expr.span.range()];
            Target::parse(text, within).ok()
        };
        let (Some(from), Some(to)) = (endpoint("from"), endpoint("to")) else {
            continue; // Malformed blocks are reported by the checks.
        };
        let (from, to) = unify(from, to);
        if from == to {
            continue; // `Redundant move statement`, reported by the validation.
        }
        out.push(Statement { from, to });
    }
    out
}

/// Endpoint unification: when either side names an instance, both do (a resource then
/// means its no-key instance); likewise for module calls and module instances.
pub(super) fn unify(from: Target, to: Target) -> (Target, Target) {
    let as_instance = |t: Target| match t {
        Target::Resource(r) => Target::Instance(r.instance(InstanceKey::None)),
        other => other,
    };
    let as_module_instance = |t: Target| match t {
        Target::Module {
            parent,
            name,
            key: None,
        } => Target::Module {
            parent,
            name,
            key: Some(InstanceKey::None),
        },
        other => other,
    };
    match (&from, &to) {
        (Target::Instance(_), Target::Resource(_)) | (Target::Resource(_), Target::Instance(_)) => {
            (as_instance(from), as_instance(to))
        }
        (Target::Module { key: Some(_), .. }, Target::Module { key: None, .. })
        | (Target::Module { key: None, .. }, Target::Module { key: Some(_), .. }) => {
            (as_module_instance(from), as_module_instance(to))
        }
        _ => (from, to),
    }
}

/// The implied moves of a resource (spec §4.3): `count` added to a resource whose state
/// has the no-key instance, or removed from one whose state has `[0]`.
pub(super) fn implied_statement(
    resource: &ResourceAddr,
    keys: &[InstanceKey],
    has_count: bool,
    has_for_each: bool,
) -> Option<Statement> {
    let (from, to) = if has_count && keys.contains(&InstanceKey::None) {
        (InstanceKey::None, InstanceKey::Int(0))
    } else if !has_count && !has_for_each && keys.contains(&InstanceKey::Int(0)) {
        (InstanceKey::Int(0), InstanceKey::None)
    } else {
        return None;
    };
    Some(Statement {
        from: Target::Instance(resource.instance(from)),
        to: Target::Instance(resource.instance(to)),
    })
}

/// The resources statements name on either side: implied moves are only for others.
pub(super) fn mentioned(statements: &[Statement]) -> HashSet<ResourceAddr> {
    let mut out = HashSet::new();
    for s in statements {
        for t in [&s.from, &s.to] {
            match t {
                Target::Resource(r) => {
                    out.insert(r.clone());
                }
                Target::Instance(i) => {
                    out.insert(i.resource.clone());
                }
                Target::Module { .. } => {}
            }
        }
    }
    out
}

/// Applies `statements` to `objects` in dependency order; returns the blocked moves as
/// `(from, to)` pairs.
pub(super) fn apply(objects: &mut [Object], statements: &[Statement]) -> Vec<(String, String)> {
    let mut blocked = Vec::new();
    // Objects by resource, so that a resource or instance move looks at its own objects
    // only (a module move still looks at all of them).
    let mut index: HashMap<ResourceAddr, Vec<usize>> = HashMap::new();
    for (i, o) in objects.iter().enumerate() {
        index.entry(o.addr.resource.clone()).or_default().push(i);
    }
    let candidates = |index: &HashMap<ResourceAddr, Vec<usize>>, target: &Target| -> Vec<usize> {
        match target {
            Target::Instance(i) => index.get(&i.resource).cloned().unwrap_or_default(),
            Target::Resource(r) => index.get(r).cloned().unwrap_or_default(),
            Target::Module { .. } => index.values().flatten().copied().collect(),
        }
    };
    for s in order(statements) {
        let matches: Vec<usize> = candidates(&index, &s.from)
            .into_iter()
            .filter(|&i| moved_addr(&objects[i].addr, &s.from, &s.to).is_some())
            .collect();
        if matches.is_empty() {
            continue;
        }
        let occupied = candidates(&index, &s.to).into_iter().any(|i| {
            let o = &objects[i];
            o.instance.deposed.is_none() && covers(&s.to, &o.addr)
        });
        if occupied {
            // The report names each object that stayed where it was.
            let mut seen = HashSet::new();
            for &i in &matches {
                let from = objects[i].addr.clone();
                if let Some(to) = moved_addr(&from, &s.from, &s.to) {
                    if seen.insert(from.to_string()) {
                        blocked.push((from.to_string(), to.to_string()));
                    }
                }
            }
            continue;
        }
        for i in matches {
            let o = &mut objects[i];
            let Some(to) = moved_addr(&o.addr, &s.from, &s.to) else {
                continue;
            };
            if o.previous.is_none() {
                o.previous = Some(o.addr.clone());
            }
            if let Some(list) = index.get_mut(&o.addr.resource) {
                list.retain(|&j| j != i);
            }
            index.entry(to.resource.clone()).or_default().push(i);
            o.addr = to;
        }
    }
    blocked
}

/// The statements in an order where a statement runs after any statement whose
/// destination it moves from (Kahn's algorithm). With a cycle, nothing moves.
fn order(statements: &[Statement]) -> Vec<&Statement> {
    let n = statements.len();
    let mut by_destination: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, s) in statements.iter().enumerate() {
        by_destination.entry(s.to.to_string()).or_default().push(i);
    }
    // after[a] lists the statements that must wait for a; waiting[b] counts b's wait.
    let mut after: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut waiting = vec![0usize; n];
    for (b, s) in statements.iter().enumerate() {
        for &a in by_destination
            .get(&s.from.to_string())
            .into_iter()
            .flatten()
        {
            if a != b {
                after[a].push(b);
                waiting[b] += 1;
            }
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&i| waiting[i] == 0).rev().collect();
    let mut out = Vec::with_capacity(n);
    while let Some(a) = ready.pop() {
        out.push(&statements[a]);
        for &b in after[a].iter().rev() {
            waiting[b] -= 1;
            if waiting[b] == 0 {
                ready.push(b);
            }
        }
    }
    if out.len() < n {
        return Vec::new();
    }
    out
}

/// Whether `addr` lies within what `target` names.
pub(super) fn covers(target: &Target, addr: &InstanceAddr) -> bool {
    match target {
        Target::Instance(i) => i == addr,
        Target::Resource(r) => &addr.resource == r,
        Target::Module { parent, name, key } => {
            let path = &addr.resource.module.0;
            let depth = parent.0.len();
            path.len() > depth
                && path[..depth] == parent.0[..]
                && path[depth].0 == *name
                && key.as_ref().is_none_or(|k| &path[depth].1 == k)
        }
    }
}

/// Where `addr` goes under the move `from` → `to`, when the move applies to it.
fn moved_addr(addr: &InstanceAddr, from: &Target, to: &Target) -> Option<InstanceAddr> {
    if !covers(from, addr) {
        return None;
    }
    match (from, to) {
        (Target::Instance(_), Target::Instance(t)) => Some(t.clone()),
        (Target::Resource(_), Target::Resource(t)) => Some(t.instance(addr.key.clone())),
        (
            Target::Module { parent, .. },
            Target::Module {
                parent: to_parent,
                name: to_name,
                key: to_key,
            },
        ) => {
            let depth = parent.0.len();
            let path = &addr.resource.module.0;
            let mut steps = to_parent.0.clone();
            let key = to_key.clone().unwrap_or_else(|| path[depth].1.clone());
            steps.push((to_name.clone(), key));
            steps.extend(path[depth + 1..].iter().cloned());
            let mut resource = addr.resource.clone();
            resource.module = ModulePath(steps);
            Some(resource.instance(addr.key.clone()))
        }
        _ => None,
    }
}
