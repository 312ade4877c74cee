//! The graph of the validate walk: every object of a module (resources, data sources,
//! locals, outputs, variables, provider configurations, checks, module calls and their
//! arguments), with the addresses it refers to once override files are merged, and
//! references to a module's outputs replaced by what they are computed from.

use std::collections::{HashMap, HashSet};

use super::super::provider_configs::configuration_address;
use super::super::walk_parts::{self, Role};
use super::super::ChildModules;
use super::failed_outputs;
use crate::eval::references;
use crate::merge::{literal_string, strip_instance_keys, MergedModule};
use crate::schema::ProviderSchemaSource;
use crate::syntax::{Attribute, Block, Body, Expr, ExprKind, Span};

/// One object of the graph: its address and where it is written.
pub(super) struct Object {
    pub(super) address: String,
    /// The places that are the object (a block, or one attribute, in a file); the
    /// innermost object around a diagnostic owns it.
    pub(super) spans: Vec<(u32, Span)>,
    /// The addresses it refers to.
    pub(super) refers: HashSet<String>,
}

/// The arguments of a module call that are not input variables of the child.
const CALL_SETTINGS: &[&str] = &[
    "source",
    "version",
    "providers",
    "count",
    "for_each",
    "depends_on",
];

/// Every object of the module, with what it refers to.
pub(super) fn graph(m: &MergedModule) -> Vec<Object> {
    let mut objects: Vec<Object> = Vec::new();
    // Each address's object, found by hashing (a scan for each made 20,000 locals slow).
    let mut known: HashMap<String, usize> = HashMap::new();
    let mut add = |address: String, file: u32, span: Span, refers: HashSet<String>| {
        // Override files add to the object their labels name.
        match known.get(&address).and_then(|&i| objects.get_mut(i)) {
            Some(o) => {
                o.spans.push((file, span));
                o.refers.extend(refers);
            }
            None => {
                known.insert(address.clone(), objects.len());
                objects.push(Object {
                    address,
                    spans: vec![(file, span)],
                    refers,
                });
            }
        }
    };
    for (fi, file) in m.files.iter().enumerate() {
        let fi = fi as u32;
        for block in &file.syntax.body.blocks {
            let label = |i| block.label(i).unwrap_or_default();
            let kind = &*block.kind.name;
            match kind {
                // Each depends on the provider configuration it uses too.
                "resource" | "data" | "ephemeral" => {
                    let address = match kind {
                        "resource" => format!("{}.{}", label(0), label(1)),
                        _ => format!("{kind}.{}.{}", label(0), label(1)),
                    };
                    let mut to = merged_refers(m, fi, block);
                    to.insert(configuration_address(&block.body, label(0)));
                    add(address, fi, block.span, to);
                }
                "locals" => {
                    for a in &block.body.attributes {
                        let to = addresses(&a.expr).collect();
                        add(format!("local.{}", a.name.name), fi, a.span, to);
                    }
                }
                "variable" => add(
                    format!("var.{}", label(0)),
                    fi,
                    block.span,
                    merged_refers(m, fi, block),
                ),
                "output" => add(
                    format!("output.{}", label(0)),
                    fi,
                    block.span,
                    merged_refers(m, fi, block),
                ),
                // A provider configuration: nothing refers to it by address here.
                "provider" => {
                    let alias = block
                        .body
                        .attribute("alias")
                        .and_then(|a| literal_string(&a.expr));
                    let address = match alias {
                        Some(alias) => format!("provider.{}.{alias}", label(0)),
                        None => format!("provider.{}", label(0)),
                    };
                    add(address, fi, block.span, refers(&block.body));
                }
                // Its data source is an object of its own.
                "check" => {
                    add(
                        format!("check.{}", label(0)),
                        fi,
                        block.span,
                        refers(&block.body),
                    );
                    for data in block.body.blocks_of("data") {
                        let (t, n) = (data.label(0), data.label(1));
                        let address =
                            format!("data.{}.{}", t.unwrap_or_default(), n.unwrap_or_default());
                        add(address, fi, data.span, refers(&data.body));
                    }
                }
                // The call (expanded by count/for_each, ordered by depends_on) and each
                // argument, evaluated as the child's input variable once the call is.
                "module" => {
                    let call = format!("module.{}", label(0));
                    let mut settings = HashSet::new();
                    for a in &block.body.attributes {
                        if CALL_SETTINGS.contains(&&*a.name.name) {
                            settings.extend(addresses(&a.expr));
                        } else {
                            let mut to: HashSet<String> = addresses(&a.expr).collect();
                            to.insert(call.clone());
                            add(format!("{call}.var.{}", a.name.name), fi, a.span, to);
                        }
                    }
                    add(call, fi, block.span, settings);
                }
                // Checked with the resource it imports into, which depends on its
                // references.
                "import" => {
                    let to = block
                        .body
                        .attribute("to")
                        .map(|a| addresses(&a.expr).collect::<Vec<_>>());
                    if let Some([resource]) = to.as_deref() {
                        add(resource.clone(), fi, block.span, refers(&block.body));
                    }
                }
                _ => {}
            }
        }
    }
    objects
}

/// Replaces each reference to a module's output (or to the whole module) by the call and
/// the arguments the output is computed from, and by the child's failure when the output
/// failed in the child: the addresses of those failures, objects added to `objects`, are
/// returned.
pub(super) fn expand_module_references(
    m: &MergedModule,
    children: ChildModules<'_>,
    schemas: &dyn ProviderSchemaSource,
    objects: &mut Vec<Object>,
) -> HashSet<String> {
    let mut feeds: HashMap<String, Vec<String>> = HashMap::new();
    // Each child's graph and failed outputs, found once.
    let mut child_graphs: HashMap<String, (Vec<Object>, HashSet<String>)> = HashMap::new();
    for o in objects.iter() {
        let outputs = o.refers.iter().filter(|r| r.matches('.').count() == 2);
        for r in outputs.filter(|r| r.starts_with("module.")) {
            if !feeds.contains_key(r) {
                let inputs = module_inputs(m, children, schemas, &mut child_graphs, r);
                feeds.insert(r.clone(), inputs);
            }
        }
    }
    let failures: HashSet<String> = feeds
        .values()
        .flatten()
        .filter(|a| a.ends_with(CHILD_FAILED))
        .cloned()
        .collect();
    objects.extend(failures.iter().map(|address| Object {
        address: address.clone(),
        spans: Vec::new(),
        refers: HashSet::new(),
    }));
    for o in objects.iter_mut() {
        let expanded: Vec<String> = o
            .refers
            .iter()
            .filter_map(|r| feeds.get(r))
            .flatten()
            .cloned()
            .collect();
        o.refers.extend(expanded);
    }
    failures
}

/// The suffix of the address standing for a child's failed outputs (`module.c#failed`),
/// which no reference can name.
const CHILD_FAILED: &str = "#failed";

/// For `module.NAME.OUTPUT` or `module.NAME.*`: the call's node and its argument nodes
/// that the output (every output) is computed from.
fn module_inputs(
    m: &MergedModule,
    children: ChildModules<'_>,
    schemas: &dyn ProviderSchemaSource,
    child_graphs: &mut HashMap<String, (Vec<Object>, HashSet<String>)>,
    reference: &str,
) -> Vec<String> {
    let mut parts = reference.splitn(3, '.');
    let (Some(_), Some(name)) = (parts.next(), parts.next()) else {
        return Vec::new();
    };
    let output = parts.next();
    let call_address = format!("module.{name}");
    let Some(call) = m.module_calls.get(name) else {
        return Vec::new();
    };
    let arguments: Vec<&str> = call
        .arguments
        .attributes
        .iter()
        .map(|a| &*a.attr.name.name)
        .filter(|a| !CALL_SETTINGS.contains(a))
        .collect();
    let mut child_failed = false;
    let child = call
        .source
        .as_ref()
        .and_then(|s| literal_string(s.expr()))
        .and_then(children);
    let used: Vec<&str> = match child {
        Some(child) => {
            // A reference to an output the child does not declare falls back to the
            // call, which every output is referenceable as (`referenceMapKey`).
            let outputs: Vec<String> = match output {
                Some(o) if child.outputs.contains_key(o) => vec![format!("output.{o}")],
                _ => child
                    .outputs
                    .keys()
                    .map(|o| format!("output.{o}"))
                    .collect(),
            };
            let (child_graph, failed) = child_graphs
                .entry(name.to_string())
                .or_insert_with(|| (graph(&child), failed_outputs(&child, schemas)));
            child_failed = outputs.iter().any(|o| failed.contains(o));
            let vars = reachable(child_graph, &outputs);
            arguments
                .into_iter()
                .filter(|a| vars.contains(&format!("var.{a}")))
                .collect()
        }
        None => arguments,
    };
    let mut inputs = vec![call_address.clone()];
    if child_failed {
        inputs.push(format!("{call_address}{CHILD_FAILED}"));
    }
    inputs.extend(used.iter().map(|a| format!("{call_address}.var.{a}")));
    inputs
}

/// The addresses reachable from `from` through what objects refer to.
fn reachable(objects: &[Object], from: &[String]) -> HashSet<String> {
    let by_address: HashMap<&str, &Object> =
        objects.iter().map(|o| (o.address.as_str(), o)).collect();
    let mut seen: HashSet<String> = HashSet::new();
    let mut stack: Vec<String> = from.to_vec();
    while let Some(a) = stack.pop() {
        if !seen.insert(a.clone()) {
            continue;
        }
        if let Some(o) = by_address.get(a.as_str()) {
            stack.extend(o.refers.iter().cloned());
        }
    }
    seen
}

/// The addresses of the objects a top-level block refers to once override files are
/// merged (recorded in fixtures/validate/walk-overrides-upstream): the merged object's
/// pieces for the block that declares it, nothing of its own for an override merged into it, and a block
/// that merged into nothing as written.
fn merged_refers(m: &MergedModule, file: u32, block: &Block) -> HashSet<String> {
    let parts = match walk_parts::role(m, file, block) {
        Role::Declares(parts) => parts,
        Role::Merged => return HashSet::new(),
        Role::Alone => return refers(&block.body),
    };
    let mut to = HashSet::new();
    // `depends_on` and the lifecycle's `replace_triggered_by` come from primary files.
    let lifecycle = block.body.blocks_of("lifecycle");
    let attributes = (parts.count.iter().chain(&parts.for_each))
        .chain(&parts.attributes)
        .map(|(_, a)| *a)
        .chain(block.body.attribute("depends_on").map(|a| &**a))
        .chain(lifecycle.flat_map(|l| l.body.attributes.iter().map(|a| &**a)));
    for a in attributes {
        to.extend(addresses(&a.expr));
        to.extend(quoted_dependencies(a));
        to.extend(json_triggers(a));
    }
    let blocks = (parts.blocks.iter().chain(&parts.conditions))
        .chain(&parts.provisioners)
        .chain(&parts.connections);
    for (_, b) in blocks {
        to.extend(refers(&b.body));
    }
    to
}

/// The addresses of the objects a body refers to, nested blocks included but for the
/// data sources of a `check` block, which are objects of their own.
fn refers(body: &Body) -> HashSet<String> {
    let mut to = HashSet::new();
    for a in &body.attributes {
        to.extend(addresses(&a.expr));
        to.extend(quoted_dependencies(a));
        to.extend(json_triggers(a));
    }
    for b in body.blocks.iter().filter(|b| &*b.kind.name != "data") {
        to.extend(refers(&b.body));
    }
    to
}

/// The addresses a `replace_triggered_by` written in JSON refers to: its strings are
/// references Terraform parses itself (`json_strings.rs`), not templates.
fn json_triggers(a: &Attribute) -> Vec<String> {
    if &*a.name.name != "replace_triggered_by" || !a.expr.is_json() {
        return Vec::new();
    }
    let items = a.expr.static_list().unwrap_or_default();
    let parsed = items.iter().filter_map(|item| match &item.kind {
        ExprKind::Json(value) => crate::syntax::json_string_native(value)?.ok(),
        _ => None,
    });
    parsed
        .flat_map(|e| addresses(&e).collect::<Vec<_>>())
        .collect()
}

/// The addresses of the objects `expr` refers to (`var.x`, `local.x`, `data.t.n`, `t.n`,
/// and `module.m.out` or `module.m.*` for a module's outputs, which are not objects of
/// the graph: `expand_module_references` resolves them); `count`, `each`, `path`,
/// `terraform` and `self` are none.
fn addresses(expr: &Expr) -> impl Iterator<Item = String> {
    references(expr)
        .into_iter()
        .filter_map(|r| object_address(&r.subject))
}

/// The object a reference's subject (`terraform_data.a[0]`, `module.m.out`) names.
fn object_address(subject: &str) -> Option<String> {
    let keyless = strip_instance_keys(subject);
    let parts: Vec<&str> = keyless.split('.').collect();
    let take = match parts[0] {
        "count" | "each" | "path" | "terraform" | "self" => return None,
        // The whole module is every output of it.
        "module" if parts.len() == 2 => return Some(format!("{keyless}.*")),
        "data" | "ephemeral" | "module" => 3,
        _ => 2,
    };
    (parts.len() >= take).then(|| parts[..take].join("."))
}

/// The objects the deprecated quoted entries of a `depends_on`
/// (`"terraform_data.a"`) name, as the unquoted ones do.
fn quoted_dependencies(a: &Attribute) -> Vec<String> {
    match &a.expr.kind {
        ExprKind::Tuple(items) if &*a.name.name == "depends_on" => items
            .iter()
            .filter_map(|item| match &item.kind {
                ExprKind::String(s) => object_address(s),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}
