//! `moved` statements validated once every instance is planned, as Terraform's
//! `ValidateMoves` does (spec §4.3): per declared instance of the module that holds a
//! statement, `Redundant move statement`, `Moved object still exists` and both kinds of
//! `Ambiguous move statements`; when those find nothing, `Cyclic dependency in move
//! statements` for each cycle of the statements' dependency graph
//! (`move_graph.rs`). Every one of them is an error, and they take precedence over
//! everything else the plan found (the planner reports them alone).

use std::collections::HashMap;
use std::sync::Arc;

use super::address::{InstanceAddr, ModulePath, Target};
use super::move_graph::{cycles, Endpoint, Statement};
use super::moves::unify;
use super::planner::Planner;
use super::state::{InstanceKey, ResourceMode};
use super::PlanDiagnostic;
use crate::merge::{MergedModule, Mode, Nested, Origin, ResourceKey};

/// One explicit statement as its module declares it.
struct Declared {
    /// The names of the module calls from the root to the declaring module.
    module: Vec<String>,
    /// The declaring module.
    merged: Arc<MergedModule>,
    /// The `moved` block.
    block: Nested,
    /// `from` and `to` as written.
    from_text: String,
    to_text: String,
}

/// A source or destination already seen, with the other end and the declared statement
/// that names it (its place is worded only for an error: most plans have none).
struct Seen<'d> {
    other: Target,
    declared: &'d Declared,
}

impl Planner<'_> {
    /// Every error of the explicit move statements (none when they are valid).
    pub(super) fn validate_moves(&self) -> Vec<PlanDiagnostic> {
        let declared = self.declared_moves();
        let mut errors = Vec::new();
        let mut sources: HashMap<String, Seen> = HashMap::new();
        let mut destinations: HashMap<String, Seen> = HashMap::new();
        let paths: Vec<ModulePath> = self.nodes.borrow().iter().map(|n| n.path.clone()).collect();
        for d in &declared {
            let origin = d.block.header_origin();
            let instances = paths.iter().filter(|p| {
                p.calls()
                    .iter()
                    .copied()
                    .eq(d.module.iter().map(String::as_str))
            });
            for path in instances {
                let (Ok(from), Ok(to)) = (
                    Target::parse(&d.from_text, path),
                    Target::parse(&d.to_text, path),
                ) else {
                    continue; // Malformed blocks are reported by the checks.
                };
                let (from, to) = unify(from, to);
                let error = |summary: &str, detail: String| {
                    PlanDiagnostic::at(&d.merged, origin, summary, detail)
                };
                if from == to {
                    errors.push(error(
                        "Redundant move statement",
                        format!("This statement declares a move from {from} to the same address, which is the same as not declaring this move at all."),
                    ));
                    continue;
                }
                let (noun, short) = nouns(&from);
                if let Some(declared_at) = self.still_declared(&from) {
                    errors.push(error(
                        "Moved object still exists",
                        format!("This statement declares a move from {from}, but that {noun} is still declared{declared_at}.\n\nChange your configuration so that this {short} will be declared as {to} instead."),
                    ));
                }
                match sources.get(&from.to_string()) {
                    Some(seen) if seen.other != to => errors.push(error(
                        "Ambiguous move statements",
                        format!("A statement at {} declared that {from} moved to {}, but this statement instead declares that it moved to {to}.\n\nEach {noun} can move to only one destination {short}.", self.declared_at(seen.declared), seen.other),
                    )),
                    Some(_) => {}
                    None => {
                        sources.insert(from.to_string(), Seen { other: to.clone(), declared: d });
                    }
                }
                match destinations.get(&to.to_string()) {
                    Some(seen) if seen.other != from => errors.push(error(
                        "Ambiguous move statements",
                        format!("A statement at {} declared that {} moved to {to}, but this statement instead declares that {from} moved there.\n\nEach {noun} can have moved from only one source {short}.", self.declared_at(seen.declared), seen.other),
                    )),
                    Some(_) => {}
                    None => {
                        destinations.insert(to.to_string(), Seen { other: from.clone(), declared: d });
                    }
                }
            }
        }
        if errors.is_empty() {
            errors.extend(self.move_cycles(&declared));
        }
        errors
    }

    /// The `moved` blocks of every module the plan instantiates, root first, each module
    /// once.
    fn declared_moves(&self) -> Vec<Declared> {
        let mut modules: Vec<(Vec<String>, Arc<MergedModule>)> = Vec::new();
        for n in self.nodes.borrow().iter() {
            let calls: Vec<String> = n.path.calls().iter().map(|c| c.to_string()).collect();
            if !modules.iter().any(|(c, _)| *c == calls) {
                modules.push((calls, n.merged.clone()));
            }
        }
        let mut out = Vec::new();
        for (module, m) in modules {
            for n in &m.moved {
                let text = |name: &str| {
                    let a = n.block.body.attribute(name)?;
                    Some(m.file(n.file).text[a.expr.span.range()].to_string())
                };
                let (Some(from_text), Some(to_text)) = (text("from"), text("to")) else {
                    continue;
                };
                out.push(Declared {
                    module: module.clone(),
                    merged: m.clone(),
                    block: n.clone(),
                    from_text,
                    to_text,
                });
            }
        }
        out
    }

    /// `Cyclic dependency in move statements`, one error per cycle.
    fn move_cycles(&self, declared: &[Declared]) -> Vec<PlanDiagnostic> {
        let statements: Vec<Statement> = declared
            .iter()
            .enumerate()
            .filter_map(|(i, d)| {
                let from = Target::parse(&d.from_text, &ModulePath::root()).ok()?;
                let to = Target::parse(&d.to_text, &ModulePath::root()).ok()?;
                let (from, to) = unify(from, to);
                Some(Statement {
                    from: Endpoint::new(d.module.clone(), from),
                    to: Endpoint::new(d.module.clone(), to),
                    declared: i,
                })
            })
            .collect();
        cycles(&statements)
            .into_iter()
            .map(|cycle| {
                let mut lines: Vec<String> = cycle
                    .iter()
                    .map(|&i| {
                        let s = &statements[i];
                        let at = self.declared_at(&declared[s.declared]);
                        format!("\n  - {at}: {} → {}", s.from, s.to)
                    })
                    .collect();
                lines.sort();
                PlanDiagnostic::sourceless(
                    "Cyclic dependency in move statements",
                    format!("The following chained move statements form a cycle, and so there is no final location to move objects to:{}\n\nA chain of move statements must end with an address that doesn't appear in any other statements, and which typically also refers to an object still declared in the configuration.", lines.concat()),
                )
            })
            .collect()
    }

    /// Where configuration still declares the object `from` names, as Terraform words it
    /// (` at main.tf:5,1`; the `count` or `for_each` expression for an instance), when
    /// the plan has it.
    fn still_declared(&self, from: &Target) -> Option<String> {
        let nodes = self.nodes.borrow();
        let instantiated = |path: &ModulePath| nodes.iter().any(|n| &n.path == path);
        let at = |m: &MergedModule, origin: Origin| format!(" at {}", self.start_text(m, origin));
        match from {
            Target::Resource(r) | Target::Instance(InstanceAddr { resource: r, .. }) => {
                if !instantiated(&r.module) {
                    return None;
                }
                let (_, m) = self.config_module(&r.module.calls())?;
                let key = ResourceKey {
                    mode: match r.mode {
                        ResourceMode::Data => Mode::Data,
                        ResourceMode::Managed => Mode::Managed,
                    },
                    type_name: r.type_name.clone(),
                    name: r.name.clone(),
                };
                let Some(resource) = m.resources.get(&key) else {
                    return self.imported_unconfigured(from).then(String::new);
                };
                match from {
                    Target::Instance(i) => {
                        if !self.claimed.borrow().contains(i) {
                            return None;
                        }
                        let blamed = resource.for_each.as_ref().or(resource.count.as_ref());
                        Some(at(
                            &m,
                            blamed.map_or(resource.provenance.decl, |a| a.expr_origin()),
                        ))
                    }
                    _ => Some(at(&m, resource.provenance.decl)),
                }
            }
            Target::Module { parent, name, key } => {
                if !instantiated(parent) {
                    return None;
                }
                let (_, m) = self.config_module(&parent.calls())?;
                let call = m.module_calls.get(name)?;
                match key {
                    Some(key) => {
                        if !instantiated(&parent.child(name, key.clone())) {
                            return None;
                        }
                        let blamed = call.for_each.as_ref().or(call.count.as_ref());
                        Some(at(
                            &m,
                            blamed.map_or(call.provenance.decl, |a| a.expr_origin()),
                        ))
                    }
                    None => Some(at(&m, call.provenance.decl)),
                }
            }
        }
    }

    /// Whether `from` names the resource of an import target no configuration declares,
    /// or its one instance: Terraform expands that resource as if declared without
    /// `count` or `for_each`, with no place to say where.
    fn imported_unconfigured(&self, from: &Target) -> bool {
        self.unconfigured_imports
            .borrow()
            .iter()
            .any(|target| match from {
                Target::Resource(r) => target.resource == *r,
                Target::Instance(i) => i.resource == target.resource && i.key == InstanceKey::None,
                Target::Module { .. } => false,
            })
    }

    /// Where a declared statement is, as `start_text` words it.
    fn declared_at(&self, d: &Declared) -> String {
        self.start_text(&d.merged, d.block.header_origin())
    }

    /// Where a place starts, as HCL's `StartString` prints it: `main.tf:5,1`, the file
    /// relative to the root module's directory.
    fn start_text(&self, m: &MergedModule, origin: Origin) -> String {
        let file = m.file(origin.file);
        let name = file
            .path
            .strip_prefix(&self.config.root_dir)
            .unwrap_or(&file.path)
            .display()
            .to_string();
        let offset = (origin.span.start as usize).min(file.text.len());
        let before = file.text.get(..offset).unwrap_or_default();
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("{name}:{line},{column}")
    }
}

/// The noun and short noun Terraform uses for what an endpoint names.
fn nouns(t: &Target) -> (&'static str, &'static str) {
    match t {
        Target::Resource(_) => ("resource", "resource"),
        Target::Instance(_) => ("resource instance", "instance"),
        Target::Module { key: None, .. } => ("module call", "call"),
        Target::Module { key: Some(_), .. } => ("module instance", "instance"),
    }
}
