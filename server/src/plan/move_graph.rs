//! The dependency graph of `moved` statements, as Terraform's `buildMoveStatementGraph`
//! builds it: a statement depends on another when its source can chain from the other's
//! destination, or when one's endpoints nest within the other's (a resource within a
//! module, an instance within a resource). Its cycles are what
//! `Cyclic dependency in move statements` reports.
//!
//! Endpoints here are relative to the module that declares the statement, which stands
//! for all of that module's instances (Terraform's `MoveEndpointInModule`).

use std::fmt;

use super::address::Target;
use super::state::InstanceKey;

/// One step of a module path; `None` as the key matches any instance.
type Step = (String, Option<InstanceKey>);

/// A statement's endpoint: the declaring module's call names and what it names there.
#[derive(Debug, Clone)]
pub(super) struct Endpoint {
    /// The call names from the root to the declaring module.
    module: Vec<String>,
    /// The endpoint, parsed relative to the declaring module.
    subject: Target,
}

/// A statement of the graph: its endpoints and which declared statement it is (its
/// place is worded only for the statements of a cycle found).
#[derive(Debug, Clone)]
pub(super) struct Statement {
    pub from: Endpoint,
    pub to: Endpoint,
    pub declared: usize,
}

impl Endpoint {
    /// An endpoint of a statement declared in the module at `module` (call names).
    pub fn new(module: Vec<String>, subject: Target) -> Self {
        Self { module, subject }
    }

    /// Whether the endpoint names a module call or a module instance.
    fn is_module(&self) -> bool {
        matches!(self.subject, Target::Module { .. })
    }

    /// The module instance path the endpoint stands in, any key for the declaring
    /// module's calls (and for a module call's own step), Terraform's
    /// `synthModuleInstance`.
    fn synthetic_module(&self) -> Vec<Step> {
        let mut out: Vec<Step> = self.module.iter().map(|m| (m.clone(), None)).collect();
        let known = |path: &super::address::ModulePath| -> Vec<Step> {
            path.0
                .iter()
                .map(|(n, k)| (n.clone(), Some(k.clone())))
                .collect()
        };
        match &self.subject {
            Target::Module { parent, name, key } => {
                out.extend(known(parent));
                out.push((name.clone(), key.clone()));
            }
            Target::Resource(r) => out.extend(known(&r.module)),
            Target::Instance(i) => out.extend(known(&i.resource.module)),
        }
        out
    }

    /// Whether the receiver, a statement's source, can select what `other`, another's
    /// destination, selects (`CanChainFrom`).
    fn can_chain_from(&self, other: &Endpoint) -> bool {
        let (mine, theirs) = (self.synthetic_module(), other.synthetic_module());
        if mine.len() != theirs.len() || !prefix_matches(&theirs, &mine) {
            return false;
        }
        match (&self.subject, &other.subject) {
            (Target::Module { .. }, Target::Module { .. }) => true,
            (Target::Resource(a), Target::Resource(b)) => same_resource(a, b),
            (Target::Instance(a), Target::Instance(b)) => {
                same_resource(&a.resource, &b.resource) && a.key == b.key
            }
            _ => false,
        }
    }

    /// Whether the receiver lies within what `other` names (`NestedWithin`).
    fn nested_within(&self, other: &Endpoint) -> bool {
        let (mine, theirs) = (self.synthetic_module(), other.synthetic_module());
        if theirs.len() > mine.len() || !prefix_matches(&theirs, &mine) {
            return false;
        }
        match &other.subject {
            Target::Module { .. } => !self.is_module() || mine.len() > theirs.len(),
            Target::Resource(r) => {
                mine.len() == theirs.len()
                    && matches!(&self.subject, Target::Instance(i) if same_resource(&i.resource, r))
            }
            Target::Instance(_) => false,
        }
    }

    /// Whether a move from the receiver to `to` only changes a module call's instance
    /// keys (`IsModuleReIndex`).
    fn is_module_reindex(&self, to: &Endpoint) -> bool {
        if !self.is_module() || !to.is_module() {
            return false;
        }
        let both_calls = matches!(
            (&self.subject, &to.subject),
            (
                Target::Module { key: None, .. },
                Target::Module { key: None, .. }
            )
        );
        let names = |e: &Endpoint| -> Vec<String> {
            e.synthetic_module().into_iter().map(|(n, _)| n).collect()
        };
        !both_calls && names(self) == names(to)
    }
}

/// Whether the steps of `prefix` match the first steps of `path`: the same names, and the
/// same keys where both are known (`moduleInstanceCanMatch`).
fn prefix_matches(prefix: &[Step], path: &[Step]) -> bool {
    prefix.iter().zip(path).all(|((n1, k1), (n2, k2))| {
        n1 == n2
            && match (k1, k2) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            }
    })
}

/// The same resource, its module aside (the caller compared module paths).
fn same_resource(a: &super::address::ResourceAddr, b: &super::address::ResourceAddr) -> bool {
    a.mode == b.mode && a.type_name == b.type_name && a.name == b.name
}

impl fmt::Display for Endpoint {
    /// `module.child[*].terraform_data.a[*]`: the declaring module's calls and a whole
    /// resource or call with the splat-like wildcard.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in &self.module {
            write!(f, "module.{m}[*].")?;
        }
        write!(f, "{}", self.subject)?;
        if matches!(
            self.subject,
            Target::Resource(_) | Target::Module { key: None, .. }
        ) {
            write!(f, "[*]")?;
        }
        Ok(())
    }
}

/// Whether statement `a` must run after statement `b` (`statementDependsOn`).
pub(super) fn depends_on(a: &Statement, b: &Statement) -> bool {
    if a.from.can_chain_from(&b.to) {
        return true;
    }
    if !a.from.nested_within(&b.to)
        && !a.to.nested_within(&b.to)
        && !b.from.nested_within(&a.from)
        && !b.to.nested_within(&a.from)
    {
        return false;
    }
    // A statement in an enclosing module that only re-indexes a module call matches
    // both ends of the statements nested in it; only those depend on it.
    if a.to.module.len() >= b.to.module.len() {
        return true;
    }
    !a.from.is_module_reindex(&a.to)
}

/// The cycles of the statements' graph: each strongly connected set of more than one
/// statement, as indexes into `statements`.
pub(super) fn cycles(statements: &[Statement]) -> Vec<Vec<usize>> {
    let n = statements.len();
    let edges: Vec<Vec<usize>> = (0..n)
        .map(|a| {
            (0..n)
                .filter(|&b| a != b && depends_on(&statements[a], &statements[b]))
                .collect()
        })
        .collect();
    strongly_connected(&edges)
}

/// Each strongly connected set of more than one vertex of a graph given as every
/// vertex's edges (Tarjan's algorithm, iterative), as Terraform's `dag` finds cycles.
pub(super) fn strongly_connected(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = edges.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut out = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // Each frame is a vertex and how many of its edges were followed.
        let mut frames = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut followed)) = frames.last_mut() {
            if let Some(&w) = edges[v].get(*followed) {
                *followed += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    frames.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    out.push(component);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::address::ModulePath;

    /// A statement of the root module (or of module `child`), written as in a `moved`
    /// block.
    fn statement(module: &[&str], from: &str, to: &str) -> Statement {
        let module: Vec<String> = module.iter().map(|m| m.to_string()).collect();
        let parse = |t: &str| Target::parse(t, &ModulePath::root()).expect("an address");
        Statement {
            from: Endpoint::new(module.clone(), parse(from)),
            to: Endpoint::new(module, parse(to)),
            declared: 0,
        }
    }

    #[test]
    fn a_chain_back_to_its_start_is_one_cycle() {
        let s = [
            statement(&[], "terraform_data.a", "terraform_data.b"),
            statement(&[], "terraform_data.b", "terraform_data.c"),
            statement(&[], "terraform_data.c", "terraform_data.a"),
            statement(&[], "terraform_data.x", "terraform_data.y"),
        ];
        let mut found = cycles(&s);
        found.iter_mut().for_each(|c| c.sort_unstable());
        assert_eq!(found, vec![vec![0, 1, 2]]);
    }

    #[test]
    fn a_chain_that_ends_has_no_cycle() {
        let s = [
            statement(&[], "terraform_data.a", "terraform_data.b"),
            statement(&[], "terraform_data.b", "terraform_data.c"),
        ];
        assert!(cycles(&s).is_empty());
        assert!(depends_on(&s[1], &s[0]));
        assert!(!depends_on(&s[0], &s[1]));
    }

    #[test]
    fn instances_chain_by_key_and_nest_in_their_resource() {
        let s = [
            statement(&[], "terraform_data.a[0]", "terraform_data.b[0]"),
            statement(&[], "terraform_data.b[1]", "terraform_data.a[1]"),
            statement(&[], "terraform_data.b", "terraform_data.c"),
        ];
        assert!(cycles(&s[..2]).is_empty());
        // `b[0]`, the first's destination, lies within the third's source `b`.
        assert!(depends_on(&s[2], &s[0]));
    }

    #[test]
    fn statements_in_a_module_display_with_its_wildcard() {
        let s = statement(&["m"], "terraform_data.a", "module.k[1]");
        assert_eq!(s.from.to_string(), "module.m[*].terraform_data.a[*]");
        assert_eq!(s.to.to_string(), "module.m[*].module.k[1]");
    }
}
