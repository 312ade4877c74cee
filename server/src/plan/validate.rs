//! Checks made once every instance is planned: `moved` statements whose source is still
//! declared (spec §4.3), and `-replace` addresses that lack the instance key their
//! resource needs (spec §4.10).

use super::address::{ModulePath, Target};
use super::planner::{Planner, Repetition};
use super::state::ResourceMode;
use super::PlanDiagnostic;
use crate::merge::{MergedModule, Mode, Origin, ResourceKey};

impl Planner<'_> {
    /// `Moved object still exists` for each explicit statement whose source is still in
    /// the configuration.
    pub(super) fn validate_moves(&self) {
        for s in &self.move_statements {
            let Some((origin, m)) = &s.declared else {
                continue;
            };
            let Some((noun, short, declared_at)) = self.still_declared(&s.from) else {
                continue;
            };
            self.error(PlanDiagnostic::at(
                m,
                *origin,
                "Moved object still exists",
                format!("This statement declares a move from {}, but that {noun} is still declared at {declared_at}.\n\nChange your configuration so that this {short} will be declared as {} instead.", s.from, s.to),
            ));
        }
    }

    /// What kind of object `from` is and where it is declared, when configuration still
    /// declares it.
    fn still_declared(&self, from: &Target) -> Option<(&'static str, &'static str, String)> {
        match from {
            Target::Resource(r)
            | Target::Instance(super::address::InstanceAddr { resource: r, .. }) => {
                let (_, m) = self.config_module(&r.module.calls())?;
                let key = ResourceKey {
                    mode: match r.mode {
                        ResourceMode::Data => Mode::Data,
                        ResourceMode::Managed => Mode::Managed,
                    },
                    type_name: r.type_name.clone(),
                    name: r.name.clone(),
                };
                let resource = m.resources.get(&key)?;
                let at = self.range_text(&m, resource.provenance.decl);
                match from {
                    Target::Instance(i) => self.claimed.borrow().contains(i).then_some((
                        "resource instance",
                        "instance",
                        at,
                    )),
                    _ => Some(("resource", "resource", at)),
                }
            }
            Target::Module { parent, name, key } => {
                let (_, m) = self.config_module(&parent.calls())?;
                let call = m.module_calls.get(name)?;
                let at = self.range_text(&m, call.provenance.decl);
                match key {
                    Some(key) => {
                        let path = parent.child(name, key.clone());
                        self.nodes
                            .borrow()
                            .iter()
                            .any(|n| n.path == path)
                            .then_some(("module instance", "instance", at))
                    }
                    None => Some(("module call", "call", at)),
                }
            }
        }
    }

    /// A place as HCL prints a range: `main.tf:5,1-27`.
    fn range_text(&self, m: &MergedModule, origin: Origin) -> String {
        let file = m.file(origin.file);
        let name = file
            .path
            .strip_prefix(&self.config.root_dir)
            .unwrap_or(&file.path)
            .display()
            .to_string();
        let pos = |offset: u32| {
            let before = &file.text[..(offset as usize).min(file.text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            (line, column)
        };
        let (l1, c1) = pos(origin.span.start);
        let (l2, c2) = pos(origin.span.end);
        if l1 == l2 {
            format!("{name}:{l1},{c1}-{c2}")
        } else {
            format!("{name}:{l1},{c1}-{l2},{c2}")
        }
    }

    /// `Incompletely-matched force-replace resource instance` for a `-replace` address
    /// without a key when its resource has keyed instances, or none.
    pub(super) fn replace_warnings(&self) {
        for text in &self.options.replace {
            let Ok(Target::Resource(r)) = Target::parse(text, &ModulePath::root()) else {
                continue;
            };
            let Some(node) = self.nodes.borrow().iter().position(|n| n.path == r.module) else {
                continue;
            };
            let key = ResourceKey {
                mode: Mode::Managed,
                type_name: r.type_name.clone(),
                name: r.name.clone(),
            };
            let expansions = self.expansions.borrow();
            let Some((repetition, instances)) = expansions.get(&(node, key)) else {
                continue;
            };
            if *repetition == Repetition::Single && !instances.is_empty() {
                continue;
            }
            let options: Vec<String> = instances
                .iter()
                .map(|(k, _)| {
                    let addr = r.instance(k.clone()).to_string();
                    format!("\n  -replace={}", serde_json::Value::String(addr))
                })
                .collect();
            let prefix = format!(
                "Your force-replace request for {r} doesn't match any resource instances because"
            );
            let detail = match options.len() {
                0 => format!("{prefix} this resource doesn't have any instances."),
                1 => format!("{prefix} it lacks an instance key.\n\nTo force replacement of the single declared instance, use the following option instead:{}", options[0]),
                _ => format!("{prefix} it lacks an instance key.\n\nTo force replacement of particular instances, use one or more of the following options instead:{}", options.concat()),
            };
            self.warnings.borrow_mut().push(PlanDiagnostic::sourceless(
                "Incompletely-matched force-replace resource instance",
                detail,
            ));
        }
    }
}
