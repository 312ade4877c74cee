//! Objects of the prior state that configuration no longer declares (spec §4.8):
//! orphans deleted with Terraform's reasons, or forgotten where a `removed` block (or the
//! resource's own `lifecycle { destroy = false }`) says so; deposed objects; and the
//! destroy mode, where every object goes (spec §4.12).

use super::address::{InstanceAddr, ModulePath, Target};
use super::moves::{covers, Object};
use super::planner::{declared_at, literal_bool, Planner, Repetition};
use super::state::{InstanceKey, ResourceMode};
use super::{Action, PlanMode, ResourceChange};
use crate::merge::{MergedModule, Mode, Resource, ResourceKey};
use crate::module::Dialect;

impl Planner<'_> {
    /// Plans every managed object not matched by a configured instance, and every
    /// deposed object.
    pub(super) fn plan_orphans(&self) {
        for o in &self.objects {
            if o.addr.resource.mode != ResourceMode::Managed {
                continue; // Data-source orphans are dropped silently.
            }
            if o.instance.deposed.is_none() && self.claimed.borrow().contains(&o.addr) {
                continue;
            }
            let reason = if o.instance.deposed.is_some() {
                None
            } else {
                match self.orphan_reason(o) {
                    Some(reason) => Some(reason),
                    None => continue,
                }
            };
            let config = self.configured(&o.addr);
            let forget =
                self.forgotten(&o.addr) || config.as_ref().is_some_and(|(_, r)| destroy_false(r));
            let action = if forget {
                Action::Forget
            } else {
                Action::Delete
            };
            if let Some((m, r)) = &config {
                if !forget
                    && o.instance.deposed.is_none()
                    && literal_bool(r.lifecycle.prevent_destroy.as_ref())
                {
                    self.prevent_destroy_error(m, r, &o.addr);
                }
            }
            self.push_removal(
                o,
                action,
                reason,
                config.as_ref().map(|(m, r)| (m.clone(), r.clone())),
            );
        }
    }

    /// `-destroy`: every managed object is deleted, without a reason or a previous
    /// address.
    pub(super) fn plan_destroy(&self) {
        debug_assert_eq!(self.options.mode, PlanMode::Destroy);
        for o in &self.objects {
            if o.addr.resource.mode != ResourceMode::Managed {
                continue;
            }
            let config = self.configured(&o.addr);
            if let Some((m, r)) = &config {
                if o.instance.deposed.is_none()
                    && literal_bool(r.lifecycle.prevent_destroy.as_ref())
                {
                    self.prevent_destroy_error(m, r, &o.addr);
                }
            }
            // Terraform plans the destroy from the state the moves left, and the JSON keeps
            // no record of where an object was before them.
            let unmoved = Object {
                previous: None,
                ..o.clone()
            };
            self.push_removal(&unmoved, Action::Delete, None, config);
        }
    }

    fn push_removal(
        &self,
        o: &Object,
        action: Action,
        reason: Option<&'static str>,
        config: Option<(std::sync::Arc<MergedModule>, Resource)>,
    ) {
        let schema = self.removal_schema(o, config.as_ref());
        self.changes.borrow_mut().push(ResourceChange {
            addr: o.addr.clone(),
            previous: o.previous.clone(),
            deposed: o.instance.deposed.clone(),
            action,
            reason,
            before: Some(
                o.instance
                    .prior(&o.addr.resource.type_name)
                    .mark_with_paths(&o.instance.sensitive_paths),
            ),
            after: None,
            replace_paths: Vec::new(),
            caveat: None,
            importing: None,
            declared_at: config.and_then(|(m, r)| declared_at(&m, &r)),
            blocks: schema
                .as_deref()
                .map(super::schema_objects::block_names)
                .unwrap_or_default(),
            schema,
        });
    }

    /// The schema of a removed object's type, for its text: its resource's provider
    /// when it is still configured, else the provider its type implies in its module.
    pub(super) fn removal_schema(
        &self,
        o: &Object,
        config: Option<&(std::sync::Arc<MergedModule>, Resource)>,
    ) -> Option<std::sync::Arc<crate::schema::BlockSchema>> {
        let type_name = &o.addr.resource.type_name;
        let provider = match config {
            Some((m, r)) => m.resource_provider(r),
            None => {
                let (_, m) = self.config_module(&o.addr.resource.module.calls())?;
                m.local_provider(crate::merge::implied_local_name(type_name))
            }
        };
        let body = crate::schema::ProviderBody::Resource;
        let found = self
            .config
            .schemas
            .lookup(&provider, body, type_name)
            .found()?;
        Some(found.block)
    }

    /// The resource block that declares `addr`'s resource, when there is one.
    fn configured(&self, addr: &InstanceAddr) -> Option<(std::sync::Arc<MergedModule>, Resource)> {
        let (_, m) = self.config_module(&addr.resource.module.calls())?;
        let key = ResourceKey {
            mode: Mode::Managed,
            type_name: addr.resource.type_name.clone(),
            name: addr.resource.name.clone(),
        };
        let r = m.resources.get(&key)?.clone();
        Some((m, r))
    }

    /// Why an orphan is deleted (spec §4.8); `None` when its resource could not be
    /// expanded (an error was reported) and nothing is planned for it.
    fn orphan_reason(&self, o: &Object) -> Option<&'static str> {
        let no_config = if o.previous.is_some() {
            "delete_because_no_move_target"
        } else {
            "delete_because_no_resource_config"
        };
        let Some((_, m)) = self.config_module(&o.addr.resource.module.calls()) else {
            return Some(no_config);
        };
        let key = ResourceKey {
            mode: Mode::Managed,
            type_name: o.addr.resource.type_name.clone(),
            name: o.addr.resource.name.clone(),
        };
        if !m.resources.contains_key(&key) {
            return Some(no_config);
        }
        let node = self
            .nodes
            .borrow()
            .iter()
            .position(|n| n.path == o.addr.resource.module);
        let Some(node) = node else {
            return Some("delete_because_no_module");
        };
        let expansions = self.expansions.borrow();
        let (repetition, _) = expansions.get(&(node, key))?;
        Some(match (repetition, &o.addr.key) {
            (Repetition::Single, InstanceKey::None) if self.dialect == Dialect::OpenTofu => {
                "delete_because_enabled_false"
            }
            (Repetition::Count, InstanceKey::Int(_)) => "delete_because_count_index",
            (Repetition::ForEach, InstanceKey::String(_)) => "delete_because_each_key",
            _ => "delete_because_wrong_repetition",
        })
    }

    /// Whether a `removed` block with `lifecycle { destroy = false }` (OpenTofu's default)
    /// covers `addr`, in its module or an enclosing one.
    fn forgotten(&self, addr: &InstanceAddr) -> bool {
        let calls = addr.resource.module.calls();
        for depth in 0..=calls.len() {
            let Some((_, m)) = self.config_module(&calls[..depth]) else {
                break;
            };
            let within = ModulePath(addr.resource.module.0[..depth].to_vec());
            for removed in &m.removed {
                let Some(from) = removed.block.body.attribute("from") else {
                    continue;
                };
                let text = &m.file(removed.file).text[from.expr.span.range()];
                let Ok(target) = Target::parse(text, &within) else {
                    continue;
                };
                let destroy = removed
                    .block
                    .body
                    .blocks_of("lifecycle")
                    .find_map(|l| l.body.attribute("destroy"))
                    .and_then(|d| crate::eval::constant(&d.expr))
                    .and_then(|v| v.as_bool())
                    .unwrap_or(m.dialect == Dialect::Terraform);
                if !destroy && covers(&target, addr) {
                    return true;
                }
            }
        }
        false
    }
}

/// `lifecycle { destroy = false }` on the resource itself (Terraform ≥ 1.16, OpenTofu).
fn destroy_false(r: &Resource) -> bool {
    r.lifecycle
        .destroy
        .as_ref()
        .and_then(|d| crate::eval::constant(d.expr()))
        .is_some_and(|v| v == serde_json::Value::Bool(false))
}
