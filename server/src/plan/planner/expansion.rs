//! Expansion (spec §4.2): the module instance tree that local module calls build, and the
//! instances `count`, `for_each` or OpenTofu's `enabled` give a resource or a call.

use std::rc::Rc;

use super::{Bindings, Expansion, Node, Planner, Repetition};
use crate::check::SENSITIVE_FOR_EACH;
use crate::eval::{Causes, Marks, Value};
use crate::merge::{literal_string, Attr, MergedModule};
use crate::module::Dialect;
use crate::plan::state::InstanceKey;
use crate::plan::PlanDiagnostic;

impl Planner<'_> {
    /// Adds every module instance reachable through local module calls.
    pub(super) fn build_tree(&self) {
        let mut i = 0;
        while i < self.nodes.borrow().len() && !self.cancelled() {
            let node = self.node(i);
            for (name, call) in &node.merged.module_calls {
                let Some(source) = call.source.as_ref().and_then(|s| literal_string(s.expr()))
                else {
                    continue;
                };
                let Some((dir, merged)) = (self.config.child)(&node.dir, source) else {
                    continue;
                };
                if self.call_cycle(i, name, &dir) {
                    continue;
                }
                let Some((repetition, instances)) =
                    self.expand(i, call.count.as_ref(), call.for_each.as_ref(), None)
                else {
                    continue;
                };
                let mut children = Vec::new();
                for (key, bindings) in instances {
                    let child = Node {
                        path: node.path.child(name, key.clone()),
                        merged: merged.clone(),
                        dir: dir.clone(),
                        parent: Some((i, name.clone(), bindings)),
                    };
                    let mut nodes = self.nodes.borrow_mut();
                    children.push((key, nodes.len()));
                    nodes.push(Rc::new(child));
                }
                self.calls
                    .borrow_mut()
                    .insert((i, name.clone()), (repetition, children));
            }
            i += 1;
        }
    }

    /// The instances `count`, `for_each` or OpenTofu's `enabled` give, or `None` (with an
    /// error) when they cannot be known.
    pub(in crate::plan) fn expand(
        &self,
        node: usize,
        count: Option<&Attr>,
        for_each: Option<&Attr>,
        enabled: Option<&Attr>,
    ) -> Option<Expansion> {
        let expansion = self.expansion(node, count, for_each, enabled)?;
        let m = self.node(node).merged.clone();
        self.admit(&m, count.or(for_each), expansion)
    }

    /// The instances of [`Planner::expand`], before the plan's own limit.
    pub(super) fn expansion(
        &self,
        node: usize,
        count: Option<&Attr>,
        for_each: Option<&Attr>,
        enabled: Option<&Attr>,
    ) -> Option<Expansion> {
        let m = self.node(node).merged.clone();
        let none = Bindings::default();
        // Terraform's count errors carry no expression (`evaluateCountExpressionValue`
        // keeps its evaluation context to itself), its for_each errors carry the
        // expression and its scope.
        let fail = |attr: &Attr, summary: &str, detail: String| {
            self.error(PlanDiagnostic::at(&m, attr.origin(), summary, detail));
            None
        };
        if let Some(count) = count {
            let (value, unread) =
                self.noting_unread(|| self.eval(node, count.file, count.expr(), &none));
            // A sensitive count is allowed: only the number matters.
            let (value, _) = value?.unmark_deep();
            let invalid = "Invalid count argument";
            let n = match value {
                Value::Unknown | Value::UnknownOf(..) if unread => {
                    return self.unread_expansion(&m, count)
                }
                Value::Unknown | Value::UnknownOf(..) => return fail(count, invalid, "The \"count\" value depends on resource attributes that cannot be determined until apply, so Terraform cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the count depends on.".into()),
                Value::Null => return fail(count, invalid, "The given \"count\" argument value is null. An integer is required.".into()),
                v => match v.to_number() {
                    Some(n) if n < 0.0 => return fail(count, invalid, "The given \"count\" argument value is unsuitable: must be greater than or equal to zero.".into()),
                    Some(n) if n.fract() != 0.0 => return fail(count, invalid, "The given \"count\" argument value is unsuitable: value must be a whole number.".into()),
                    Some(n) if self.too_many(&m, count, n) => return None,
                    Some(n) => n as i64,
                    None => return fail(count, invalid, format!("The given \"count\" argument value is unsuitable: number required, but have {}.", v.type_name())),
                },
            };
            let instances = (0..n)
                .map(|i| {
                    let bindings = Bindings {
                        count_index: Some(Value::Number(i as f64)),
                        ..Bindings::default()
                    };
                    (InstanceKey::Int(i), bindings)
                })
                .collect();
            return Some((Repetition::Count, instances));
        }
        if let Some(for_each) = for_each {
            let (value, unread) =
                self.noting_unread(|| self.eval(node, for_each.file, for_each.expr(), &none));
            // The keys would show a sensitive value (`eval_for_each.go`); elements keep
            // their marks for `each.value`.
            let (value, marks) = value?.unmark();
            if marks.contains(Marks::SENSITIVE) {
                let sensitive = Causes {
                    sensitive: true,
                    ..Causes::default()
                };
                let values =
                    self.expression_values(node, for_each.file, for_each.expr(), &none, sensitive);
                let d = PlanDiagnostic::at(
                    &m,
                    for_each.origin(),
                    "Invalid for_each argument",
                    SENSITIVE_FOR_EACH,
                )
                .with_values(values);
                self.error(d);
                return None;
            }
            let unknown_keys = match &value {
                Value::Unknown | Value::UnknownOf(..) => true,
                Value::Set(items) => items.iter().any(|i| !i.is_known()),
                _ => false,
            };
            if unread && unknown_keys {
                return self.unread_expansion(&m, for_each);
            }
            return self.for_each_instances(node, &m, for_each, value);
        }
        if let Some(enabled) = enabled {
            let (value, _) = self
                .eval(node, enabled.file, enabled.expr(), &none)?
                .unmark_deep();
            return match value.to_bool() {
                Some(true) => Some((Repetition::Single, vec![(InstanceKey::None, none)])),
                Some(false) => Some((Repetition::Single, Vec::new())),
                None => fail(
                    enabled,
                    "Invalid enabled argument",
                    "The enabled argument must be a known boolean value.".into(),
                ),
            };
        }
        Some((Repetition::Single, vec![(InstanceKey::None, none)]))
    }

    /// An expansion Terraform would know and Strata cannot: a warning, and no instances
    /// planned (nor prior ones removed).
    pub(super) fn unread_expansion(&self, m: &MergedModule, attr: &Attr) -> Option<Expansion> {
        self.warnings.borrow_mut().push(PlanDiagnostic::at(
            m,
            attr.origin(),
            "Instances not known to Strata",
            format!(
                "The \"{}\" value depends on data that Terraform reads from providers while planning (such as a data source), which Strata cannot read; the instances here are left out of this plan.",
                attr.attr.name.name
            ),
        ));
        None
    }

    pub(super) fn for_each_instances(
        &self,
        node: usize,
        m: &MergedModule,
        attr: &Attr,
        value: Value,
    ) -> Option<Expansion> {
        let fail = |summary: &str, detail: String, causes: Causes| {
            let none = Bindings::default();
            let values = self.expression_values(node, attr.file, attr.expr(), &none, causes);
            self.error(PlanDiagnostic::at(m, attr.origin(), summary, detail).with_values(values));
            None
        };
        let unknown = Causes {
            unknown: true,
            ..Causes::default()
        };
        let plain = Causes::default();
        let invalid = "Invalid for_each argument";
        let tool = match self.dialect {
            Dialect::Terraform => "Terraform",
            Dialect::OpenTofu => "OpenTofu",
        };
        let size = match &value {
            Value::Map(map) | Value::Object(map) => map.len(),
            Value::Set(items) => items.len(),
            _ => 0,
        };
        if self.too_many(m, attr, size as f64) {
            return None;
        }
        let instances: Vec<(InstanceKey, Bindings)> = match &value {
            Value::Unknown | Value::UnknownOf(..) => return fail(invalid, format!("The \"for_each\" map includes keys derived from resource attributes that cannot be determined until apply, and so {tool} cannot determine the full set of keys that will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it's better to define the map keys statically in your configuration and place apply-time results only in the map values.\n\nAlternatively, you could use the -target planning option to first apply only the resources that the for_each value depends on, and then apply a second time to fully converge."), unknown),
            Value::Null => return fail(invalid, "The given \"for_each\" argument value is unsuitable: the given \"for_each\" argument value is null. A map, or set of strings is allowed.".into(), plain),
            Value::Map(map) | Value::Object(map) => map
                .iter()
                .map(|(k, v)| {
                    let bindings = Bindings {
                        each: Some((Value::string(k.clone()), v.clone())),
                        ..Bindings::default()
                    };
                    (InstanceKey::String(k.clone()), bindings)
                })
                .collect(),
            Value::Set(items) => {
                if items.iter().any(|v| !v.is_known()) {
                    return fail(invalid, format!("The \"for_each\" set includes values derived from resource attributes that cannot be determined until apply, and so {tool} cannot determine the full set of keys that will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it's better to use a map value where the keys are defined statically in your configuration and where only the values contain apply-time results.\n\nAlternatively, you could use the -target planning option to first apply only the resources that the for_each value depends on, and then apply a second time to fully converge."), unknown);
                }
                let mut out = Vec::new();
                for item in items {
                    let Some(s) = item.as_str() else {
                        return fail("Invalid for_each set argument", format!("The given \"for_each\" argument value is unsuitable: \"for_each\" supports sets of strings, but you have provided a set containing type {}.", item.type_name()), plain);
                    };
                    let bindings = Bindings {
                        each: Some((Value::string(s), Value::string(s))),
                        ..Bindings::default()
                    };
                    out.push((InstanceKey::String(s.to_string()), bindings));
                }
                out
            }
            other => return fail(invalid, format!("The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type {}.", other.type_name()), plain),
        };
        Some((Repetition::ForEach, instances))
    }
}

/// Assembles the value of a repeated object from its instances' values.
pub(super) fn assemble(repetition: Repetition, values: Vec<(InstanceKey, Value)>) -> Value {
    match repetition {
        Repetition::Single => values.into_iter().next().map_or(Value::Null, |(_, v)| v),
        Repetition::Count => Value::Tuple(values.into_iter().map(|(_, v)| v).collect()),
        Repetition::ForEach => Value::Object(
            values
                .into_iter()
                .filter_map(|(k, v)| match k {
                    InstanceKey::String(s) => Some((s, v)),
                    _ => None,
                })
                .collect(),
        ),
    }
}
