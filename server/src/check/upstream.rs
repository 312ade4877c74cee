//! Objects the validate walk never reaches: Terraform walks a graph of the module's
//! objects (resources and data sources, local values, outputs, input variables with
//! their validations, provider configurations, check blocks, module calls and each of
//! their arguments, which are the child's input variables), and once an object's
//! validation reports an error, every object that depends on it, through a reference or
//! `depends_on`, is skipped and reports nothing ("upstream dependencies failed").
//! Recorded in fixtures/validate/refs-upstream.
//!
//! A reference to a module's output depends on the call and on the arguments that
//! output is computed from, read from the child where Strata has it; for a child it
//! cannot read, on every argument (the error of an object skipped that way is hidden,
//! never one Terraform would not report). An output that fails in the child's own walk
//! (an error of its own or of anything it depends on there) fails every object of the
//! caller that refers to it; a reference to the whole module, or to an output the child
//! does not declare, refers to every output. Recorded in
//! fixtures/validate/refs-upstream-child-errors.
//!
//! Within one resource (`NodeValidatableResource.Execute`) the walk stops early too: a
//! type its provider lacks stops the validation before the body is decoded, and the
//! provisioners are validated in order only until the resource has an error.
//!
//! `graph.rs` builds the graph (what each object refers to, module outputs expanded to
//! the call and its arguments); `within_resources.rs` holds the skips inside one resource.

mod graph;
mod within_resources;

use std::collections::{HashMap, HashSet};

use self::graph::{expand_module_references, graph, Object};
use self::within_resources::skip_within_resources;
use super::places::Places;
use super::resource_types::Unsupported;
use super::{ChildModules, Diagnostic, Severity};
use crate::merge::{MergedModule, ResourceKey};
use crate::schema::ProviderSchemaSource;

/// Drops the diagnostics (of the validate walk) that Terraform never reaches: the body
/// of each resource whose type is `unsupported`, the provisioners after a resource's
/// first error, and every object a failed object is upstream of (an unsupported
/// resource has failed).
pub(super) fn skip_dependents(
    m: &MergedModule,
    children: ChildModules<'_>,
    schemas: &dyn ProviderSchemaSource,
    found: Vec<Diagnostic>,
    unsupported: &[Unsupported<'_>],
) -> Vec<Diagnostic> {
    let found = skip_within_resources(m, found, unsupported);
    // Nothing failed, so nothing is skipped: the graph is not needed (building it is the
    // larger part of checking a module that has no error).
    if unsupported.is_empty() && !found.iter().any(|d| d.severity == Severity::Error) {
        return found;
    }
    let mut objects = graph(m);
    let child_failures = expand_module_references(m, children, schemas, &mut objects);
    let places = object_places(m, &objects);
    let states = walk_states(&places, &objects, &found, unsupported, &child_failures);
    found
        .into_iter()
        .filter(|d| owner(&places, d).is_none_or(|o| states[o] != State::Skipped))
        .collect()
}

/// The places of `objects`, each tagged with its object's index.
fn object_places<'m>(m: &'m MergedModule, objects: &[Object]) -> Places<'m, usize> {
    let spans = objects.iter().enumerate();
    let places = spans.flat_map(|(i, o)| o.spans.iter().map(move |(file, s)| (*file, *s, i)));
    Places::new(m, places)
}

/// The object a diagnostic belongs to: the innermost one around it.
fn owner(places: &Places<'_, usize>, d: &Diagnostic) -> Option<usize> {
    // A lookup without a place belongs where the reference it follows is.
    let (path, span) = match d.related.first() {
        Some(r) if d.path.as_os_str().is_empty() => (r.path.as_path(), r.span),
        _ => (d.path.as_path(), d.span),
    };
    let found = places.innermost(path, span);
    // A place outside every object (a JSON resource's type, which the resources of that
    // type share) belongs where the first related place is.
    match (found, d.related.first()) {
        (None, Some(r)) => places.innermost(&r.path, r.span),
        _ => found,
    }
}

/// Each object's state once the walk is over: failed (an error of its own, an
/// unsupported resource type, or one of `failed` (addresses)), skipped (something it
/// depends on failed), or reached.
fn walk_states(
    places: &Places<'_, usize>,
    objects: &[Object],
    found: &[Diagnostic],
    unsupported: &[Unsupported<'_>],
    failed: &HashSet<String>,
) -> Vec<State> {
    let index: HashMap<&str, usize> = objects
        .iter()
        .enumerate()
        .map(|(i, o)| (o.address.as_str(), i))
        .collect();
    let mut erred: Vec<bool> = objects
        .iter()
        .map(|o| failed.contains(&o.address))
        .collect();
    for d in found.iter().filter(|d| d.severity == Severity::Error) {
        if let Some(o) = owner(places, d) {
            erred[o] = true;
        }
    }
    for u in unsupported {
        let key = match (u.block.label(0), u.block.label(1)) {
            (Some(type_name), Some(name)) => ResourceKey {
                mode: u.mode,
                type_name: type_name.to_string(),
                name: name.to_string(),
            },
            _ => continue,
        };
        if let Some(&o) = index.get(key.to_string().as_str()) {
            erred[o] = true;
        }
    }
    let mut states = vec![State::Unvisited; objects.len()];
    for o in 0..objects.len() {
        visit(o, objects, &index, &erred, &mut states);
    }
    states
}

/// The outputs of a child module that fail in its own validate walk (an error of their
/// own or of anything they depend on in the child): Terraform skips every object of the
/// caller that refers to one. The child's own children are not looked into.
fn failed_outputs(child: &MergedModule, schemas: &dyn ProviderSchemaSource) -> HashSet<String> {
    let found = super::walk(child, &|_| None, schemas, super::Role::Called(&[]));
    if !found.iter().any(|d| d.severity == Severity::Error) {
        return HashSet::new();
    }
    let unsupported = super::resource_types::unsupported(child, schemas);
    let mut objects = graph(child);
    let nested = expand_module_references(child, &|_| None, schemas, &mut objects);
    let places = object_places(child, &objects);
    let states = walk_states(&places, &objects, &found, &unsupported, &nested);
    objects
        .iter()
        .zip(states)
        .filter(|(o, s)| {
            o.address.starts_with("output.") && matches!(s, State::Failed | State::Skipped)
        })
        .map(|(o, _)| o.address.clone())
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Unvisited,
    /// Being visited: a reference cycle, which Terraform refuses on its own.
    Visiting,
    Reached,
    Failed,
    Skipped,
}

/// The state of object `o` once its dependencies have been walked.
fn visit(
    o: usize,
    objects: &[Object],
    index: &HashMap<&str, usize>,
    erred: &[bool],
    states: &mut [State],
) -> State {
    if states[o] != State::Unvisited {
        return states[o];
    }
    states[o] = State::Visiting;
    let mut upstream_failed = false;
    for address in &objects[o].refers {
        if let Some(&dep) = index.get(address.as_str()) {
            if dep != o {
                let s = visit(dep, objects, index, erred, states);
                upstream_failed |= matches!(s, State::Failed | State::Skipped);
            }
        }
    }
    states[o] = if upstream_failed {
        State::Skipped
    } else if erred[o] {
        State::Failed
    } else {
        State::Reached
    };
    states[o]
}
