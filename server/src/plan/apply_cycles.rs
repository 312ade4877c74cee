//! The cycles Terraform finds when it builds the apply graph of a plan that succeeded
//! (`checkApplyGraph`): one `Cycle: …` error per strongly connected set of nodes. Only
//! the edges between resource instances' create and destroy nodes are drawn, as
//! Terraform's `DestroyEdgeTransformer` and `CBDEdgeTransformer` draw them:
//!
//! - an instance's create node depends on its own destroy node, and on the destroy
//!   nodes of what its prior object depends on;
//! - a destroyed object's stored dependencies are destroyed after it, and are created
//!   (or updated) after it too;
//! - an edge from a create node to a destroy node that is `create_before_destroy` is
//!   reversed. A destroy node is so when the object's state says so, and the state of a
//!   configured instance says what its plan decided; an orphan's keeps what it had
//!   (`NodeDestroyResourceInstance.CreateBeforeDestroy`). Forgetting an object (a
//!   `removed` block's) is a destroy node that is never `create_before_destroy`.
//!
//! So an orphan created with `create_before_destroy` whose dependency is replaced
//! destroy-then-create closes a cycle. The reference edges between create nodes are
//! not drawn, nor the dependency edges between resources of different providers
//! (Terraform drops those that would close a cycle): with fewer edges a cycle may be
//! missed, not invented. Terraform names
//! the nodes of a cycle in an order that changes from run to run (its graph is walked
//! from a map); Strata lists them sorted.

use std::collections::HashMap;

use super::address::InstanceAddr;
use super::move_graph::strongly_connected;
use super::moves::Object;
use super::state::ResourceMode;
use super::{Action, PlanDiagnostic, ResourceChange};

/// One node of the apply graph: an instance's create or destroy.
struct Node {
    addr: InstanceAddr,
    destroy: bool,
    /// What the node is called after the address (`dag.VertexName`): ` (destroy)`; a
    /// `create_before_destroy` replacement destroys the object it deposed, under a key
    /// Terraform draws at random (` (destroy deposed 1a2b3c4d)`, left out here); a
    /// `removed` block's object is forgotten (` (forget)`).
    suffix: &'static str,
}

impl Node {
    /// The node's name in Terraform's graph (`dag.VertexName`).
    fn name(&self) -> String {
        format!("{}{}", self.addr, self.suffix)
    }
}

/// The `Cycle: …` errors of the apply graph of `changes`, read with the prior state's
/// `objects`.
pub(super) fn apply_graph_cycles(
    changes: &[ResourceChange],
    objects: &[Object],
) -> Vec<PlanDiagnostic> {
    let mut nodes: Vec<Node> = Vec::new();
    // Whether each destroy node is `create_before_destroy`, and what its object depends
    // on (configuration addresses of resources).
    let mut destroyers: HashMap<usize, (bool, &[String])> = HashMap::new();
    // What each create node's prior object depends on (`StateDependencies`).
    let mut creators: HashMap<usize, &[String]> = HashMap::new();
    for c in changes {
        if c.deposed.is_some() || c.addr.resource.mode != ResourceMode::Managed {
            continue;
        }
        let stored = objects
            .iter()
            .find(|o| o.instance.deposed.is_none() && o.addr == c.addr);
        let dependencies = stored.map_or(&[][..], |o| &o.instance.dependencies[..]);
        let (creates, destroys) = match c.action {
            Action::Create | Action::Update => (true, false),
            Action::DeleteThenCreate | Action::CreateThenDelete => (true, true),
            Action::Delete | Action::Forget => (false, true),
            _ => (false, false),
        };
        if creates {
            creators.insert(nodes.len(), dependencies);
            nodes.push(Node {
                addr: c.addr.clone(),
                destroy: false,
                suffix: "",
            });
        }
        if destroys {
            // Forgetting is never reordered (`create_before_destroy` is a destroy's).
            let cbd = match c.action {
                Action::Delete => stored.is_some_and(|o| o.instance.create_before_destroy),
                action => action == Action::CreateThenDelete,
            };
            let suffix = match c.action {
                Action::CreateThenDelete => " (destroy deposed)",
                Action::Forget => " (forget)",
                _ => " (destroy)",
            };
            destroyers.insert(nodes.len(), (cbd, dependencies));
            nodes.push(Node {
                addr: c.addr.clone(),
                destroy: true,
                suffix,
            });
        }
    }
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    // `from` depends on `to`; an edge from a create node to a `create_before_destroy`
    // destroy node is drawn the other way.
    let mut connect = |from: usize, to: usize| {
        let reversed = !nodes[from].destroy && destroyers.get(&to).is_some_and(|d| d.0);
        let (from, to) = if reversed { (to, from) } else { (from, to) };
        if !edges[from].contains(&to) {
            edges[from].push(to);
        }
    };
    for (d, node) in nodes.iter().enumerate().filter(|(_, n)| n.destroy) {
        for (c, create) in nodes.iter().enumerate().filter(|(_, n)| !n.destroy) {
            if create.addr == node.addr {
                connect(c, d);
            }
            // A creator waits for the destroyers of what its prior object depends on,
            // whatever their provider.
            let depends = creators
                .get(&c)
                .is_some_and(|deps| deps.iter().any(|dep| *dep == config_address(&node.addr)));
            if depends && !other_module_instance(create, node) {
                connect(c, d);
            }
        }
        let Some((_, dependencies)) = destroyers.get(&d) else {
            continue;
        };
        for dependency in *dependencies {
            for (other, n) in nodes.iter().enumerate() {
                if config_address(&n.addr) == *dependency
                    && !other_module_instance(n, node)
                    && provider_name(&n.addr) == provider_name(&node.addr)
                {
                    connect(other, d);
                }
            }
        }
    }
    strongly_connected(&edges)
        .into_iter()
        .map(|cycle| {
            let mut names: Vec<String> = cycle.iter().map(|&i| nodes[i].name()).collect();
            names.sort();
            PlanDiagnostic::sourceless(&format!("Cycle: {}", names.join(", ")), "")
        })
        .collect()
}

/// The resource's address without instance keys, as state stores dependencies.
fn config_address(addr: &InstanceAddr) -> String {
    let r = &addr.resource;
    let modules: String = r
        .module
        .calls()
        .iter()
        .map(|c| format!("module.{c}."))
        .collect();
    let data = match r.mode {
        ResourceMode::Data => "data.",
        ResourceMode::Managed => "",
    };
    format!("{modules}{data}{}.{}", r.type_name, r.name)
}

/// The provider a resource type implies (`terraform_data`: `terraform`).
fn provider_name(addr: &InstanceAddr) -> &str {
    let t = &addr.resource.type_name;
    t.split('_').next().unwrap_or(t)
}

/// Whether two nodes are in different instances of the same module, which Terraform
/// does not connect (`graphNodesAreResourceInstancesInDifferentInstancesOfSameModule`).
fn other_module_instance(a: &Node, b: &Node) -> bool {
    let (a, b) = (&a.addr.resource.module, &b.addr.resource.module);
    a != b && a.calls() == b.calls()
}
