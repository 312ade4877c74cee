//! Managed resource instances (spec §4.4–§4.6): the configuration evaluated per instance,
//! the proposed new state, `ignore_changes`, `replace_triggered_by` and `prevent_destroy`.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::expansion::assemble;
use super::scope::{block_values, literal_bool, InstanceScope};
use super::{declared_at, Bindings, Memo, Planned, Planner, Repetition};
use crate::eval::Value;
use crate::merge::{MergedBody, MergedModule, Mode, Resource, ResourceKey};
use crate::module::Dialect;
use crate::plan::address::{InstanceAddr, ResourceAddr};
use crate::plan::providers::{self, propose, propose_replacement};
use crate::plan::state::{InstanceKey, InstanceStatus, ResourceMode};
use crate::plan::{Action, PlanDiagnostic, PlanMode, ResourceChange};
use crate::schema::BlockSchema;
use crate::syntax::{json_string_native, ExprKind, TraversalStep};

impl Planner<'_> {
    /// The value a reference to a resource gives: its planned objects.
    pub(in crate::plan) fn resource_value(&self, node: usize, key: &ResourceKey) -> Value {
        self.memoized(Memo::Resource(node, key.clone()), || {
            self.plan_resource(node, key)
        })
    }

    /// Plans every instance of a resource; returns the resource's value.
    pub(super) fn plan_resource(&self, node: usize, key: &ResourceKey) -> Value {
        let n = self.node(node);
        let Some(r) = n.merged.resources.get(key) else {
            return Value::Unknown;
        };
        let Some((repetition, instances)) = self.expand(
            node,
            r.count.as_ref(),
            if r.count.is_some() {
                None
            } else {
                r.for_each.as_ref()
            },
            r.lifecycle
                .enabled
                .as_ref()
                .filter(|_| self.dialect == Dialect::OpenTofu),
        ) else {
            return Value::Unknown;
        };
        self.expansions
            .borrow_mut()
            .insert((node, key.clone()), (repetition, instances.clone()));
        let resource = ResourceAddr {
            module: n.path.clone(),
            mode: match key.mode {
                Mode::Data => ResourceMode::Data,
                _ => ResourceMode::Managed,
            },
            type_name: key.type_name.clone(),
            name: key.name.clone(),
        };
        let mut values = Vec::new();
        let mut planned = Vec::new();
        for (instance_key, bindings) in instances {
            let addr = resource.instance(instance_key.clone());
            self.claimed.borrow_mut().insert(addr.clone());
            let result = match key.mode {
                Mode::Data => self.plan_data(node, r, &addr, &bindings),
                _ => self.plan_managed(node, r, &addr, &bindings),
            };
            let schema = self.resource_schema(node, r);
            values.push((
                instance_key.clone(),
                providers::as_referenced(
                    &key.type_name,
                    result.after.clone(),
                    result.action == Action::Create || result.action.is_replace(),
                    schema.as_deref(),
                ),
            ));
            planned.push((instance_key, result));
        }
        self.planned
            .borrow_mut()
            .insert((node, key.clone()), planned);
        if values.is_empty() && repetition == Repetition::Single {
            return Value::Null;
        }
        assemble(repetition, values)
    }

    /// The schema of a resource type or data source from its provider, when the
    /// configured provider schemas know it.
    pub(super) fn resource_schema(&self, node: usize, r: &Resource) -> Option<Arc<BlockSchema>> {
        let m = &self.node(node).merged;
        let provider = m.resource_provider(r);
        self.config
            .schemas
            .lookup(&provider, r.key.mode.provider_body(), &r.key.type_name)
            .found()
            .map(|s| s.block)
    }

    /// Evaluates a resource's arguments and nested blocks (expanding `dynamic` blocks)
    /// into an object; also returns the names of the nested block types.
    pub(super) fn eval_config(
        &self,
        node: usize,
        body: &MergedBody,
        bindings: &Bindings,
    ) -> Option<(Value, Vec<String>)> {
        let mut attrs = BTreeMap::new();
        let mut ok = true;
        for a in &body.attributes {
            match self.eval(node, a.file, a.expr(), bindings) {
                Some(v) => {
                    attrs.insert(a.attr.name.name.to_string(), v);
                }
                None => ok = false,
            }
        }
        let mut block_types = Vec::new();
        for b in &body.blocks {
            let scope = InstanceScope {
                planner: self,
                node,
                file: b.file,
                bindings: bindings.clone(),
            };
            match block_values(&b.block, &scope) {
                Ok((kind, items)) => {
                    if !block_types.contains(&kind) {
                        block_types.push(kind.clone());
                    }
                    let entry = attrs
                        .entry(kind)
                        .or_insert_with(|| Value::List(Vec::new().into()));
                    match (entry, items) {
                        (Value::List(list), Some(items)) => list.extend(items),
                        (slot, _) => *slot = Value::Unknown,
                    }
                }
                Err(e) => {
                    self.eval_error(node, b.file, None, bindings, &e);
                    ok = false;
                }
            }
        }
        ok.then_some((Value::Object(attrs.into()), block_types))
    }

    pub(super) fn plan_managed(
        &self,
        node: usize,
        r: &Resource,
        addr: &InstanceAddr,
        bindings: &Bindings,
    ) -> Planned {
        if self.options.mode == PlanMode::RefreshOnly {
            return self.refresh_only(node, r, addr, bindings);
        }
        let n = self.node(node);
        let m = &n.merged;
        let Some((config, block_types)) = self.eval_config(node, &r.config, bindings) else {
            return Planned::unknown();
        };
        // As Terraform plans: the provider sees the configuration unmarked, and its marks
        // are put back on the planned object at the same paths.
        let (config, config_marks) = config.unmark_deep_with_paths();
        let prior = self.current.get(addr).map(|&i| &self.objects[i]);
        let by_request = self.options.replace.iter().any(|a| a == &addr.to_string());
        let by_triggers = self.triggers_fire(node, r, bindings);
        let cbd = literal_bool(r.lifecycle.create_before_destroy.as_ref())
            || self
                .forced_cbd
                .borrow()
                .get(&node)
                .is_some_and(|s| s.contains(&r.key));
        if self.conditions(
            node,
            &r.lifecycle.preconditions,
            bindings,
            "Resource precondition failed",
        ) && !self.conditions_only_warn()
        {
            return Planned::unknown();
        }
        let importing = if prior.is_none() {
            self.imports.borrow().get(addr).cloned()
        } else {
            None
        };
        // What the import yields is the prior object, where Strata knows it; otherwise
        // the provider reads it and Strata plans no change.
        let imported = importing
            .as_ref()
            .and_then(|id| providers::imported(&addr.resource.type_name, id));
        let unread_import = importing.is_some() && imported.is_none();
        let prior_value = prior
            .map(|o| o.instance.prior(&addr.resource.type_name))
            .or(imported);
        let tainted = prior.is_some_and(|o| o.instance.status == InstanceStatus::Tainted);
        let planning_prior = if tainted { None } else { prior_value.clone() };
        let prior_marks = prior.map_or(&[][..], |o| &o.instance.sensitive_paths);
        // `processIgnoreChanges` works on the marked values: an ignored attribute keeps
        // the prior value with the prior's marks, and those are the planned object's.
        let (ignored, marks) = match &planning_prior {
            Some(p) => {
                let (ignored, taken) = self.ignore_changes(node, r, &config, p);
                (ignored, taken.marks(&config_marks, prior_marks))
            }
            None => (config.clone(), config_marks.clone()),
        };
        let schema = self.resource_schema(node, r);
        let proposal = propose(
            &addr.resource.type_name,
            planning_prior.as_ref(),
            &ignored,
            &block_types,
            schema.as_deref(),
        );
        let replace = if cbd {
            Action::CreateThenDelete
        } else {
            Action::DeleteThenCreate
        };
        let (action, mut reason) = match &planning_prior {
            None if tainted => (replace, Some("replace_because_tainted")),
            None if unread_import => (Action::NoOp, None),
            None => (Action::Create, None),
            Some(_) if by_request || by_triggers => (replace, Some("replace_by_request")),
            Some(_) if !proposal.replace_paths.is_empty() => {
                (replace, Some("replace_because_cannot_update"))
            }
            Some(_) if proposal.changed => (Action::Update, None),
            Some(_) => (Action::NoOp, None),
        };
        if by_triggers {
            reason = Some("replace_by_triggers");
        }
        let after = if action.is_replace() {
            propose_replacement(&addr.resource.type_name, &config, schema.as_deref())
        } else {
            proposal.after.clone()
        }
        .mark_with_paths(&marks);
        let before = if unread_import {
            Some(after.clone())
        } else {
            prior_value.map(|p| p.mark_with_paths(prior_marks))
        };
        // Storing or dropping a sensitive mark is a change of its own (`marksEqual`).
        let action = match (&before, action) {
            (Some(b), Action::NoOp) if b.sensitive_json() != after.sensitive_json() => {
                Action::Update
            }
            _ => action,
        };
        self.changes.borrow_mut().push(ResourceChange {
            addr: addr.clone(),
            previous: prior.and_then(|o| o.previous.clone()),
            deposed: None,
            action,
            reason,
            before: before.clone(),
            after: Some(after.clone()),
            replace_paths: if action.is_replace() { proposal.replace_paths.clone() } else { Vec::new() },
            caveat: if unread_import {
                Some("the imported object is read by the provider; Strata cannot compare it with the configuration")
            } else {
                proposal.caveat
            },
            importing: importing.map(|id| Value::Object(BTreeMap::from([("id".to_string(), id)]).into())),
            declared_at: declared_at(m, r),
            blocks: schema.as_deref().map(crate::plan::schema_objects::block_names).unwrap_or_default(),
            schema: schema.clone(),
        });
        if action.is_replace() && literal_bool(r.lifecycle.prevent_destroy.as_ref()) {
            self.prevent_destroy_error(m, r, addr);
        }
        self.postconditions(
            node,
            r,
            bindings,
            providers::as_referenced(
                &addr.resource.type_name,
                after.clone(),
                action == Action::Create || action.is_replace(),
                schema.as_deref(),
            ),
        );
        Planned {
            action,
            before: before.unwrap_or(Value::Null),
            after,
        }
    }

    pub(in crate::plan) fn prevent_destroy_error(
        &self,
        m: &MergedModule,
        r: &Resource,
        addr: &InstanceAddr,
    ) {
        let tool = match self.dialect {
            Dialect::Terraform => "-target option",
            Dialect::OpenTofu => "-target flag",
        };
        self.error(PlanDiagnostic::at(
            m,
            r.provenance.decl,
            "Instance cannot be destroyed",
            format!("Resource {addr} has lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. To avoid this error and continue with the plan, either disable lifecycle.prevent_destroy or reduce the scope of the plan using the {tool}."),
        ));
    }

    /// Whether any `replace_triggered_by` reference of the instance fires (spec §4.6).
    pub(super) fn triggers_fire(&self, node: usize, r: &Resource, bindings: &Bindings) -> bool {
        let Some(list) = &r.lifecycle.replace_triggered_by else {
            return false;
        };
        // `hcl.ExprList`; a JSON string element is re-parsed as a native expression.
        let Some(items) = list.expr().static_list() else {
            return false;
        };
        let n = self.node(node);
        let mut fired = false;
        for item in items {
            let item = match &item.kind {
                ExprKind::Json(value) => match json_string_native(value) {
                    Some(Ok(parsed)) => parsed,
                    _ => continue,
                },
                _ => item,
            };
            let ExprKind::Traversal { root, steps } = &item.kind else {
                continue;
            };
            let ExprKind::Variable(type_name) = &root.kind else {
                continue;
            };
            let Some(TraversalStep::Attr(name)) = steps.first() else {
                continue;
            };
            let key = ResourceKey {
                mode: Mode::Managed,
                type_name: type_name.name.to_string(),
                name: name.name.to_string(),
            };
            if !n.merged.resources.contains_key(&key) {
                continue;
            }
            self.resource_value(node, &key);
            let mut rest = &steps[1..];
            let instance_key = match rest.first() {
                Some(TraversalStep::Index(e)) => {
                    rest = &rest[1..];
                    match self.eval(node, list.file, e, bindings) {
                        Some(Value::Number(i)) => Some(InstanceKey::Int(i as i64)),
                        Some(Value::String(s)) => Some(InstanceKey::String(s)),
                        _ => continue,
                    }
                }
                _ => None,
            };
            let path: Vec<String> = rest
                .iter()
                .filter_map(|s| match s {
                    TraversalStep::Attr(id) => Some(id.name.to_string()),
                    _ => None,
                })
                .collect();
            let planned = self.planned.borrow();
            let Some(instances) = planned.get(&(node, key)) else {
                continue;
            };
            let triggering = |a: Action| {
                matches!(
                    a,
                    Action::Update | Action::DeleteThenCreate | Action::CreateThenDelete
                ) || self.dialect == Dialect::OpenTofu && a == Action::Create
            };
            fired |= instances
                .iter()
                .filter(|(k, _)| instance_key.as_ref().is_none_or(|want| want == k))
                .any(|(_, p)| {
                    triggering(p.action)
                        && (path.is_empty() || {
                            let after = get_path(&p.after, &path);
                            !after.is_known() || after != get_path(&p.before, &path)
                        })
                });
        }
        fired
    }
}

/// The value at a path of names and indexes; null where it does not exist.
pub(in crate::plan) fn get_path(value: &Value, path: &[String]) -> Value {
    let mut v = value.clone();
    for step in path {
        v = match &v {
            v if !v.is_known() => return v.clone(),
            x if x.attributes().is_some() => x
                .attributes()
                .and_then(|m| m.get(step))
                .cloned()
                .unwrap_or(Value::Null),
            x if x.elements().is_some() => step
                .parse::<usize>()
                .ok()
                .and_then(|i| x.elements().and_then(|e| e.get(i)))
                .cloned()
                .unwrap_or(Value::Null),
            _ => return Value::Null,
        };
    }
    v
}
