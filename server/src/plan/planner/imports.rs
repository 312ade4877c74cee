//! `import` blocks of the root module (spec §4.15): each block's `for_each` expanded, its
//! `to` address resolved with `each` bound, its `id` evaluated; and the two errors
//! Terraform gives when a target has no configuration: for a resource no module declares,
//! while planning (`-generate-config-out` would write it); for an instance its resource's
//! `count`/`for_each` does not declare, once planning is done, reported alone.

use std::collections::BTreeMap;

use super::{Bindings, Planner};
use crate::eval::Value;
use crate::merge::{Mode, Nested, Origin, ResourceKey};
use crate::module::Dialect;
use crate::plan::address::{InstanceAddr, ModulePath, ResourceAddr};
use crate::plan::state::{InstanceKey, ResourceMode};
use crate::plan::PlanDiagnostic;
use crate::syntax::{json_string_native, Expr, ExprKind, TraversalStep};

impl Planner<'_> {
    /// Resolves every `import` block of the root module into the instances they target.
    pub(super) fn collect_imports(&self) {
        let m = self.config.root.clone();
        for block in &m.imports {
            for bindings in self.import_repetitions(block) {
                self.resolve_import(block, &bindings);
            }
        }
    }

    /// The bindings of `each` for every element of an import block's `for_each` (a map,
    /// an object, a set or a list; a list's keys are its indexes), or one empty binding
    /// without `for_each`.
    fn import_repetitions(&self, block: &Nested) -> Vec<Bindings> {
        let Some(for_each) = block.block.body.attribute("for_each") else {
            return vec![Bindings::default()];
        };
        let Some(value) = self.eval(0, block.file, &for_each.expr, &Bindings::default()) else {
            return Vec::new();
        };
        // Unsuitable values yield nothing: the validate walk reports them.
        let pairs = crate::check::for_each_elements(&value);
        pairs
            .into_iter()
            .map(|each| Bindings {
                each: Some(each),
                ..Bindings::default()
            })
            .collect()
    }

    /// Records one import target with its id; reports a target whose resource no
    /// configuration declares.
    fn resolve_import(&self, block: &Nested, bindings: &Bindings) {
        let Some(to) = block.block.body.attribute("to") else {
            return;
        };
        let Some(addr) = self.import_address(block.file, &to.expr, bindings) else {
            return;
        };
        let origin = Origin {
            file: block.file,
            span: to.expr.span,
        };
        let declared = self
            .config_module(&addr.resource.module.calls())
            .is_some_and(|(_, m)| {
                m.resources.contains_key(&ResourceKey {
                    mode: Mode::Managed,
                    type_name: addr.resource.type_name.clone(),
                    name: addr.resource.name.clone(),
                })
            });
        if !declared {
            let m = self.config.root.clone();
            self.error(PlanDiagnostic::at(
                &m,
                origin,
                "Configuration for import target does not exist",
                self.import_without_config(&addr),
            ));
            self.unconfigured_imports.borrow_mut().insert(addr);
            return;
        }
        let Some(id) = block.block.body.attribute("id") else {
            return;
        };
        if let Some(id) = self.eval(0, block.file, &id.expr, bindings) {
            self.imports.borrow_mut().insert(addr, id);
        }
    }

    /// The detail for an import into a resource without configuration, as each dialect
    /// words it.
    fn import_without_config(&self, addr: &InstanceAddr) -> String {
        match self.dialect {
            Dialect::Terraform => format!("The configuration for the given import target {addr} does not exist. If you wish to automatically generate config for this resource, use the -generate-config-out option within terraform plan. Otherwise, make sure the target resource exists within your configuration. For example:\n\n  terraform plan -generate-config-out=generated.tf"),
            Dialect::OpenTofu => format!("The configuration for the given import {addr} does not exist. All target instances must have an associated configuration to be imported."),
        }
    }

    /// The instance a `to` expression names, its instance keys evaluated with `each`
    /// bound (a JSON string is read as a native expression).
    fn import_address(&self, file: u32, to: &Expr, bindings: &Bindings) -> Option<InstanceAddr> {
        let parsed;
        let to = match &to.kind {
            ExprKind::Json(value) => {
                parsed = json_string_native(value)?.ok()?;
                &parsed
            }
            _ => to,
        };
        let (root, steps): (&str, &[TraversalStep]) = match &to.kind {
            ExprKind::Traversal { root, steps } => match &root.kind {
                ExprKind::Variable(id) => (&id.name, steps),
                _ => return None,
            },
            _ => return None,
        };
        let mut names = vec![root.to_string()];
        let mut keys: Vec<InstanceKey> = vec![InstanceKey::None];
        for step in steps {
            match step {
                TraversalStep::Attr(id) => {
                    names.push(id.name.to_string());
                    keys.push(InstanceKey::None);
                }
                TraversalStep::Index(e) => {
                    let key = match self.eval(0, file, e, bindings)? {
                        Value::Number(n) => InstanceKey::Int(n as i64),
                        Value::String(s) => InstanceKey::String(s),
                        _ => return None,
                    };
                    *keys.last_mut()? = key;
                }
                TraversalStep::LegacyIndex(n, _) => {
                    *keys.last_mut()? = InstanceKey::Int(i64::try_from(*n).ok()?);
                }
                _ => return None,
            }
        }
        // `module.NAME[KEY]` steps, then `TYPE.NAME[KEY]`.
        let mut module = ModulePath::root();
        let mut i = 0;
        while names.get(i).map(String::as_str) == Some("module") && names.len() > i + 3 {
            module = module.child(names.get(i + 1)?, keys.get(i + 1)?.clone());
            i += 2;
        }
        if names.len() != i + 2 || keys.get(i) != Some(&InstanceKey::None) {
            return None;
        }
        let resource = ResourceAddr {
            module,
            mode: ResourceMode::Managed,
            type_name: names.get(i)?.clone(),
            name: names.get(i + 1)?.clone(),
        };
        Some(resource.instance(keys.get(i + 1)?.clone()))
    }

    /// `Configuration for import target does not exist` for each target the plan has no
    /// instance for, without a place (Terraform has lost the block by then).
    pub(super) fn validate_imports(&self) -> Vec<PlanDiagnostic> {
        let imports = self.imports.borrow();
        let claimed = self.claimed.borrow();
        let missing: BTreeMap<String, ()> = imports
            .keys()
            .filter(|addr| !claimed.contains(*addr))
            .map(|addr| (addr.to_string(), ()))
            .collect();
        missing
            .into_keys()
            .map(|addr| {
                PlanDiagnostic::sourceless(
                    "Configuration for import target does not exist",
                    format!("The configuration for the given import {addr} does not exist. All target instances must have an associated configuration to be imported."),
                )
            })
            .collect()
    }
}
