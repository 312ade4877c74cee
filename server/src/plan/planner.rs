//! The plan walk (spec §4.2, §4.4–§4.7, §4.13): the module instance tree, expansion of
//! `count`/`for_each`, and the planning of each managed and data resource instance.
//!
//! Evaluation is lazy and memoized: a reference to a local, a module output or a resource
//! evaluates (or plans) it on first use, which orders the walk as Terraform's graph would
//! without building the graph. A reference cycle yields an unknown value instead of
//! looping.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use super::address::{compare_instances, InstanceAddr, ModulePath, ResourceAddr, Target};
use super::moves::{self, Object};
use super::providers::{self, decode_prior, propose, propose_replacement};
use super::state::{InstanceKey, InstanceStatus, ResourceMode, State};
use super::variables::{root_values, variable_type};
use super::{Action, Configuration, Plan, PlanDiagnostic, PlanMode, PlanOptions, ResourceChange};
use crate::eval::{evaluate, references, Budget, EvalError, Scope, Value};
use crate::merge::{
    effective_block_type, literal_string, Attr, MergedBody, MergedModule, Mode, Nested, Origin,
    Resource, ResourceKey,
};
use crate::module::Dialect;
use crate::schema::BlockSchema;
use crate::syntax::{Body, Expr, ExprKind, Span, TraversalStep};
use crate::types::convert;

mod cancelled;
mod chains;
mod files;
mod instances;

pub use instances::{call_cycle_detail, MODULE_CALL_CYCLE};

/// One module instance.
pub(super) struct Node {
    /// Its address.
    pub path: ModulePath,
    /// Its configuration.
    pub merged: Arc<MergedModule>,
    /// Its directory.
    pub dir: PathBuf,
    /// The calling instance, the call's name and the call instance's `count`/`each`.
    parent: Option<(usize, String, Bindings)>,
}

/// What `count.index`, `each.*` and `self` mean where an expression is evaluated.
#[derive(Debug, Clone, Default)]
pub(super) struct Bindings {
    count_index: Option<Value>,
    each: Option<(Value, Value)>,
    self_value: Option<Value>,
}

/// How a resource or module call repeats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Repetition {
    /// Neither `count` nor `for_each`.
    Single,
    /// `count`
    Count,
    /// `for_each`
    ForEach,
}

/// The instances of a resource or call.
pub(super) type Expansion = (Repetition, Vec<(InstanceKey, Bindings)>);

/// How a module call repeats, and the node of each of its instances.
type CallInstances = (Repetition, Vec<(InstanceKey, usize)>);

/// The planned instances of one resource.
pub(super) type PlannedInstances = Vec<(InstanceKey, Planned)>;

/// A memoized evaluation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Memo {
    Var(usize, String),
    Local(usize, String),
    Output(usize, String),
    Call(usize, String),
    Resource(usize, ResourceKey),
}

/// One planned instance, as `replace_triggered_by` and data sources see it.
#[derive(Debug, Clone)]
pub(super) struct Planned {
    pub action: Action,
    pub before: Value,
    pub after: Value,
}

impl Planned {
    /// An instance that could not be planned (its configuration failed to evaluate, or a
    /// precondition failed): references to it read an unknown value.
    fn unknown() -> Self {
        Planned {
            action: Action::NoOp,
            before: Value::Null,
            after: Value::Unknown,
        }
    }
}

/// Where a resource's block is declared, as a change records it.
pub(super) fn declared_at(m: &MergedModule, r: &Resource) -> Option<(PathBuf, Span)> {
    Some((
        m.file(r.provenance.decl.file).path.clone(),
        r.provenance.decl.span,
    ))
}

/// The state of the walk.
pub(super) struct Planner<'a> {
    pub config: &'a Configuration<'a>,
    pub options: &'a PlanOptions,
    pub dialect: Dialect,
    pub nodes: RefCell<Vec<Rc<Node>>>,
    calls: RefCell<HashMap<(usize, String), CallInstances>>,
    root_vars: BTreeMap<String, Value>,
    pub objects: Vec<Object>,
    current: HashMap<InstanceAddr, usize>,
    memo: RefCell<HashMap<Memo, Option<(Value, bool)>>>,
    /// Set while evaluating when a value read so far depends on something Terraform
    /// knows at plan time and Strata does not (a data source Terraform reads while
    /// planning): an unknown it leads to is Strata's ignorance, not an apply-time value.
    unread: Cell<bool>,
    pub planned: RefCell<HashMap<(usize, ResourceKey), PlannedInstances>>,
    pub expansions: RefCell<HashMap<(usize, ResourceKey), Expansion>>,
    pub changes: RefCell<Vec<ResourceChange>>,
    pub errors: RefCell<Vec<PlanDiagnostic>>,
    pub warnings: RefCell<Vec<PlanDiagnostic>>,
    pub claimed: RefCell<HashSet<InstanceAddr>>,
    forced_cbd: RefCell<HashMap<usize, HashSet<ResourceKey>>>,
    imports: RefCell<HashMap<InstanceAddr, Value>>,
    /// The move statements applied, kept for their validation after planning.
    pub move_statements: Vec<moves::Statement>,
    /// The evaluation steps every expression of the plan shares.
    budget: Budget,
    /// How many memoized computations are in progress, one inside the other.
    nesting: Cell<usize>,
    /// Whether the nesting limit was reported.
    too_deep: Cell<bool>,
    /// How many resource and module instances the plan holds so far.
    instances: Cell<usize>,
    /// Whether the plan stopped because it was cancelled (see `cancelled`).
    stopped: Cell<bool>,
    /// The calls whose files outside the module were reported (see `files`).
    files_outside: RefCell<HashSet<(PathBuf, Span)>>,
}

/// Runs a whole plan.
pub(super) fn run(config: &Configuration, state: &State, options: &PlanOptions) -> Plan {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    if options.mode != PlanMode::Normal && !options.replace.is_empty() {
        errors.push(PlanDiagnostic::sourceless(
            "Unsupported plan mode",
            "Forcing resource instance replacement (with -replace=...) is allowed only in normal planning mode.",
        ));
    }
    for r in &options.replace {
        match Target::parse(r, &ModulePath::root()) {
            Ok(Target::Instance(i)) if i.resource.mode == ResourceMode::Managed => {}
            Ok(Target::Resource(res)) if res.mode == ResourceMode::Managed => {}
            Ok(_) => errors.push(PlanDiagnostic::sourceless(
                &format!("Invalid force-replace address {r:?}"),
                "Only managed resources can be used with the -replace=... option.",
            )),
            Err(e) => errors.push(PlanDiagnostic::sourceless(
                &format!("Invalid force-replace address {r:?}"),
                e,
            )),
        }
    }
    let root_vars = root_values(
        &config.root,
        &config.root_dir,
        &options.inputs,
        &mut errors,
        &mut warnings,
    );
    if !errors.is_empty() {
        // Invalid options and variable values stop Terraform before it plans anything.
        return Plan {
            changes: Vec::new(),
            errors,
            warnings,
        };
    }
    let planner = Planner {
        config,
        options,
        dialect: config.root.dialect,
        nodes: RefCell::new(vec![Rc::new(Node {
            path: ModulePath::root(),
            merged: config.root.clone(),
            dir: config.root_dir.clone(),
            parent: None,
        })]),
        calls: RefCell::default(),
        root_vars,
        objects: moves::objects_of(state),
        current: HashMap::new(),
        memo: RefCell::default(),
        unread: Cell::new(false),
        planned: RefCell::default(),
        expansions: RefCell::default(),
        changes: RefCell::default(),
        errors: RefCell::new(errors),
        warnings: RefCell::new(warnings),
        claimed: RefCell::default(),
        forced_cbd: RefCell::default(),
        imports: RefCell::default(),
        move_statements: Vec::new(),
        budget: Budget::default(),
        nesting: Cell::new(0),
        too_deep: Cell::new(false),
        instances: Cell::new(0),
        stopped: Cell::new(false),
        files_outside: RefCell::default(),
    };
    planner.walk(state)
}

impl<'a> Planner<'a> {
    fn walk(mut self, state: &State) -> Plan {
        self.build_tree();
        self.apply_moves();
        self.current = self
            .objects
            .iter()
            .enumerate()
            .filter(|(_, o)| o.instance.deposed.is_none())
            .map(|(i, o)| (o.addr.clone(), i))
            .collect();
        let _ = state;
        match self.options.mode {
            PlanMode::RefreshOnly => {}
            PlanMode::Destroy => self.plan_destroy(),
            PlanMode::Normal => {
                self.collect_imports();
                let count = self.nodes.borrow().len();
                'nodes: for node in 0..count {
                    self.compute_forced_cbd(node);
                    let merged = self.node(node).merged.clone();
                    for key in merged.resources.keys() {
                        if self.cancelled() {
                            break 'nodes;
                        }
                        if key.mode != Mode::Ephemeral {
                            self.resource_value(node, key);
                        }
                    }
                    self.plan_checks(node);
                    for name in merged.outputs.keys() {
                        if self.cancelled() {
                            break 'nodes;
                        }
                        self.output_value(node, name);
                    }
                }
                self.plan_orphans();
                self.validate_moves();
                self.replace_warnings();
            }
        }
        let mut changes = self.changes.take();
        changes.sort_by(|a, b| {
            compare_instances(&a.addr, &b.addr).then_with(|| {
                a.deposed
                    .as_deref()
                    .unwrap_or("")
                    .cmp(b.deposed.as_deref().unwrap_or(""))
            })
        });
        let errors = self.errors.take();
        let mut warnings = self.warnings.take();
        let forgotten: Vec<String> = changes
            .iter()
            .filter(|c| c.action == Action::Forget)
            .map(|c| format!("\n - {}", c.addr))
            .collect();
        if !forgotten.is_empty() {
            warnings.push(PlanDiagnostic::sourceless(
                "Some objects will no longer be managed by Terraform",
                format!("If you apply this plan, Terraform will discard its tracking information for the following objects, but it will not delete them:{}\n\nAfter applying this plan, Terraform will no longer manage these objects. You will need to import them into Terraform to manage them again.", forgotten.concat()),
            ));
        }
        Plan {
            changes,
            errors,
            warnings,
        }
    }

    pub(super) fn node(&self, i: usize) -> Rc<Node> {
        self.nodes.borrow()[i].clone()
    }

    pub(super) fn error(&self, d: PlanDiagnostic) {
        self.errors.borrow_mut().push(d);
    }

    fn eval_error(&self, node: usize, file: u32, e: &EvalError) {
        let m = self.node(node).merged.clone();
        self.error(PlanDiagnostic::at(
            &m,
            Origin { file, span: e.span },
            &e.summary,
            e.detail.clone(),
        ));
    }

    /// Evaluates `expr` of file `file` in module instance `node`.
    fn eval(&self, node: usize, file: u32, expr: &Expr, bindings: &Bindings) -> Option<Value> {
        let scope = InstanceScope {
            planner: self,
            node,
            file,
            bindings: bindings.clone(),
        };
        match evaluate(expr, &scope) {
            Ok(v) => Some(v),
            Err(e) => {
                self.eval_error(node, file, &e);
                None
            }
        }
    }

    /// Adds every module instance reachable through local module calls.
    fn build_tree(&self) {
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
    pub(super) fn expand(
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
    fn expansion(
        &self,
        node: usize,
        count: Option<&Attr>,
        for_each: Option<&Attr>,
        enabled: Option<&Attr>,
    ) -> Option<Expansion> {
        let m = self.node(node).merged.clone();
        let fail = |attr: &Attr, summary: &str, detail: String| {
            self.error(PlanDiagnostic::at(&m, attr.origin(), summary, detail));
            None
        };
        let none = Bindings::default();
        if let Some(count) = count {
            let (value, unread) =
                self.noting_unread(|| self.eval(node, count.file, count.expr(), &none));
            let value = value?;
            let invalid = "Invalid count argument";
            let n = match value {
                Value::Unknown if unread => return self.unread_expansion(&m, count),
                Value::Unknown => return fail(count, invalid, "The \"count\" value depends on resource attributes that cannot be determined until apply, so Terraform cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the count depends on.".into()),
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
            let value = value?;
            let unknown_keys = match &value {
                Value::Unknown => true,
                Value::Set(items) => items.iter().any(|i| !i.is_known()),
                _ => false,
            };
            if unread && unknown_keys {
                return self.unread_expansion(&m, for_each);
            }
            return self.for_each_instances(&m, for_each, value);
        }
        if let Some(enabled) = enabled {
            let value = self.eval(node, enabled.file, enabled.expr(), &none)?;
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
    fn unread_expansion(&self, m: &MergedModule, attr: &Attr) -> Option<Expansion> {
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

    fn for_each_instances(&self, m: &MergedModule, attr: &Attr, value: Value) -> Option<Expansion> {
        let fail = |summary: &str, detail: String| {
            self.error(PlanDiagnostic::at(m, attr.origin(), summary, detail));
            None
        };
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
            Value::Unknown => return fail(invalid, format!("The \"for_each\" map includes keys derived from resource attributes that cannot be determined until apply, and so {tool} cannot determine the full set of keys that will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it's better to define the map keys statically in your configuration and place apply-time results only in the map values.\n\nAlternatively, you could use the -target planning option to first apply only the resources that the for_each value depends on, and then apply a second time to fully converge.")),
            Value::Null => return fail(invalid, "The given \"for_each\" argument value is unsuitable: the given \"for_each\" argument value is null. A map, or set of strings is allowed.".into()),
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
                    return fail(invalid, format!("The \"for_each\" set includes values derived from resource attributes that cannot be determined until apply, and so {tool} cannot determine the full set of keys that will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it's better to use a map value where the keys are defined statically in your configuration and where only the values contain apply-time results.\n\nAlternatively, you could use the -target planning option to first apply only the resources that the for_each value depends on, and then apply a second time to fully converge."));
                }
                let mut out = Vec::new();
                for item in items {
                    let Some(s) = item.as_str() else {
                        return fail("Invalid for_each set argument", format!("The given \"for_each\" argument value is unsuitable: \"for_each\" supports sets of strings, but you have provided a set containing type {}.", item.type_name()));
                    };
                    let bindings = Bindings {
                        each: Some((Value::string(s), Value::string(s))),
                        ..Bindings::default()
                    };
                    out.push((InstanceKey::String(s.to_string()), bindings));
                }
                out
            }
            other => return fail(invalid, format!("The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type {}.", other.type_name())),
        };
        Some((Repetition::ForEach, instances))
    }

    /// A value memoized under `key`, computed by `f` the first time; unknown while it is
    /// being computed (a reference cycle).
    /// Whether the value depends on something Strata could not read is remembered with it.
    fn memoized(&self, key: Memo, f: impl FnOnce() -> Value) -> Value {
        if let Some(slot) = self.memo.borrow().get(&key) {
            return match slot {
                Some((value, unread)) => {
                    if *unread {
                        self.unread.set(true);
                    }
                    value.clone()
                }
                None => Value::Unknown,
            };
        }
        if let chains::Entry::TooDeep = self.enter(&key) {
            return Value::Unknown;
        }
        self.memo.borrow_mut().insert(key.clone(), None);
        let (value, unread) = self.noting_unread(f);
        self.leave();
        self.memo
            .borrow_mut()
            .insert(key, Some((value.clone(), unread)));
        value
    }

    /// Runs `f`, and says whether what it read depends on something Strata could not
    /// read (see `unread`).
    fn noting_unread<T>(&self, f: impl FnOnce() -> T) -> (T, bool) {
        let outer = self.unread.replace(false);
        let result = f();
        let unread = self.unread.get();
        self.unread.set(outer || unread);
        (result, unread)
    }

    fn variable(&self, node: usize, name: &str, span: Span) -> Result<Value, EvalError> {
        let n = self.node(node);
        let Some(declared) = n.merged.variables.get(name) else {
            return Err(EvalError::new(
                "Reference to undeclared input variable",
                format!("An input variable with the name \"{name}\" has not been declared."),
                span,
            ));
        };
        let Some((parent, call, bindings)) = &n.parent else {
            return Ok(self.root_vars.get(name).cloned().unwrap_or(Value::Unknown));
        };
        Ok(self.memoized(Memo::Var(node, name.to_string()), || {
            let ty = variable_type(&n.merged, declared);
            let p = self.node(*parent);
            let given = p
                .merged
                .module_calls
                .get(call)
                .and_then(|c| c.arguments.attribute(name));
            let default = || {
                declared
                    .default
                    .as_ref()
                    .and_then(|d| crate::eval::constant(d.expr()))
                    .map(|j| Value::from_json(&j))
            };
            // `nullable = false`: a null argument means the default, as if omitted.
            let not_nullable = declared
                .nullable
                .as_ref()
                .and_then(|a| crate::eval::constant(a.expr()))
                == Some(serde_json::Value::Bool(false));
            let value = match given {
                Some(a) => match self.eval(*parent, a.file, a.expr(), bindings) {
                    Some(Value::Null) if not_nullable => default(),
                    other => other,
                },
                None => default(),
            };
            match value {
                Some(v) if v.is_wholly_known() => match convert(&v.to_json(), &ty) {
                    Ok(json) => {
                        Value::from_typed_json(&crate::types::apply_defaults(&json, &ty), &ty)
                    }
                    Err(_) => v,
                },
                Some(v) => crate::eval::conform(v, &ty),
                None => Value::Null,
            }
        }))
    }

    fn local(&self, node: usize, name: &str, span: Span) -> Result<Value, EvalError> {
        let n = self.node(node);
        let Some(local) = n.merged.locals.get(name) else {
            return Err(EvalError::new(
                "Reference to undeclared local value",
                format!("A local value with the name \"{name}\" has not been declared."),
                span,
            ));
        };
        Ok(self.memoized(Memo::Local(node, name.to_string()), || {
            self.eval(
                node,
                local.value.file,
                local.value.expr(),
                &Bindings::default(),
            )
            .unwrap_or(Value::Unknown)
        }))
    }

    fn output_value(&self, node: usize, name: &str) -> Value {
        let n = self.node(node);
        let Some(output) = n.merged.outputs.get(name) else {
            return Value::Unknown;
        };
        self.memoized(Memo::Output(node, name.to_string()), || {
            let none = Bindings::default();
            if self.conditions(
                node,
                &output.preconditions,
                &none,
                "Module output value precondition failed",
            ) {
                return Value::Unknown;
            }
            match &output.value {
                Some(v) => self
                    .eval(node, v.file, v.expr(), &none)
                    .unwrap_or(Value::Unknown),
                None => Value::Null,
            }
        })
    }

    fn call_value(&self, node: usize, name: &str, span: Span) -> Result<Value, EvalError> {
        let n = self.node(node);
        if !n.merged.module_calls.contains_key(name) {
            return Err(EvalError::new(
                "Reference to undeclared module",
                format!("No module call named \"{name}\" is declared in this module."),
                span,
            ));
        }
        Ok(self.memoized(Memo::Call(node, name.to_string()), || {
            let Some((repetition, children)) =
                self.calls.borrow().get(&(node, name.to_string())).cloned()
            else {
                // A module Strata cannot read (a registry or remote source, or instances it
                // could not expand): Terraform knows its outputs, Strata does not.
                self.unread.set(true);
                return Value::Unknown;
            };
            let outputs = |child: usize| {
                let m = self.node(child).merged.clone();
                Value::Object(
                    m.outputs
                        .keys()
                        .map(|o| (o.clone(), self.output_value(child, o)))
                        .collect(),
                )
            };
            assemble(
                repetition,
                children
                    .iter()
                    .map(|(k, c)| (k.clone(), outputs(*c)))
                    .collect(),
            )
        }))
    }

    /// The value a reference to a resource gives: its planned objects.
    pub(super) fn resource_value(&self, node: usize, key: &ResourceKey) -> Value {
        self.memoized(Memo::Resource(node, key.clone()), || {
            self.plan_resource(node, key)
        })
    }

    /// Plans every instance of a resource; returns the resource's value.
    fn plan_resource(&self, node: usize, key: &ResourceKey) -> Value {
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
    fn resource_schema(&self, node: usize, r: &Resource) -> Option<Arc<BlockSchema>> {
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
    fn eval_config(
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
                    let entry = attrs.entry(kind).or_insert_with(|| Value::List(Vec::new()));
                    match (entry, items) {
                        (Value::List(list), Some(items)) => list.extend(items),
                        (slot, _) => *slot = Value::Unknown,
                    }
                }
                Err(e) => {
                    self.eval_error(node, b.file, &e);
                    ok = false;
                }
            }
        }
        ok.then_some((Value::Object(attrs), block_types))
    }

    /// Evaluates `precondition`/`postcondition` blocks; each false condition is an error
    /// with `summary` (a warning for check assertions). Returns whether any failed.
    fn conditions(
        &self,
        node: usize,
        blocks: &[Nested],
        bindings: &Bindings,
        summary: &str,
    ) -> bool {
        let mut failed = false;
        for c in blocks {
            let Some(condition) = c.block.body.attribute("condition") else {
                continue;
            };
            let Some(value) = self.eval(node, c.file, &condition.expr, bindings) else {
                continue;
            };
            if value.to_bool() != Some(false) {
                continue;
            }
            failed = true;
            let message = c
                .block
                .body
                .attribute("error_message")
                .and_then(|m| self.eval(node, c.file, &m.expr, bindings))
                .and_then(|m| m.to_text())
                .unwrap_or_default();
            let m = self.node(node).merged.clone();
            let d = PlanDiagnostic::at(
                &m,
                Origin {
                    file: c.file,
                    span: condition.expr.span,
                },
                summary,
                message,
            );
            if summary.starts_with("Check block") {
                self.warnings.borrow_mut().push(d);
            } else {
                self.error(d);
            }
        }
        failed
    }

    fn plan_managed(
        &self,
        node: usize,
        r: &Resource,
        addr: &InstanceAddr,
        bindings: &Bindings,
    ) -> Planned {
        let n = self.node(node);
        let m = &n.merged;
        let Some((config, block_types)) = self.eval_config(node, &r.config, bindings) else {
            return Planned::unknown();
        };
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
        ) {
            return Planned::unknown();
        }
        let prior_value =
            prior.map(|o| decode_prior(&addr.resource.type_name, &o.instance.attributes));
        let tainted = prior.is_some_and(|o| o.instance.status == InstanceStatus::Tainted);
        let planning_prior = if tainted { None } else { prior_value.clone() };
        let importing = if prior.is_none() {
            self.imports.borrow().get(addr).cloned()
        } else {
            None
        };
        let ignored = match &planning_prior {
            Some(p) => self.ignore_changes(node, r, &config, p),
            None => config.clone(),
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
            None if importing.is_some() => (Action::NoOp, None),
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
        };
        let before = if importing.is_some() {
            Some(after.clone())
        } else {
            prior_value.clone()
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
            caveat: if importing.is_some() {
                Some("the imported object is read by the provider; Strata cannot compare it with the configuration")
            } else {
                proposal.caveat
            },
            importing: importing.map(|id| Value::Object(BTreeMap::from([("id".to_string(), id)]))),
            declared_at: declared_at(m, r),
            blocks: schema.as_deref().map(super::schema_objects::block_names).unwrap_or_default(),
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

    /// Evaluates a resource's postconditions with `self` bound to its planned object.
    fn postconditions(&self, node: usize, r: &Resource, bindings: &Bindings, self_value: Value) {
        let with_self = Bindings {
            self_value: Some(self_value),
            ..bindings.clone()
        };
        let _ = self.conditions(
            node,
            &r.lifecycle.postconditions,
            &with_self,
            "Resource postcondition failed",
        );
    }

    pub(super) fn prevent_destroy_error(
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

    /// `ignore_changes` (spec §4.5 step 6): the prior value put back into the
    /// configuration for every listed path; `all` uses the prior object whole.
    fn ignore_changes(&self, node: usize, r: &Resource, config: &Value, prior: &Value) -> Value {
        if r.lifecycle.ignore_all_changes.is_some() {
            return prior.clone();
        }
        let Some(list) = &r.lifecycle.ignore_changes else {
            return config.clone();
        };
        let ExprKind::Tuple(items) = &list.expr().kind else {
            return config.clone();
        };
        let mut out = config.clone();
        for item in items {
            if let Some(path) = static_path(item, self, node) {
                let prior_at = get_path(prior, &path);
                set_path(&mut out, &path, prior_at);
            }
        }
        out
    }

    /// Whether any `replace_triggered_by` reference of the instance fires (spec §4.6).
    fn triggers_fire(&self, node: usize, r: &Resource, bindings: &Bindings) -> bool {
        let Some(list) = &r.lifecycle.replace_triggered_by else {
            return false;
        };
        let ExprKind::Tuple(items) = &list.expr().kind else {
            return false;
        };
        let n = self.node(node);
        let mut fired = false;
        for item in items {
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

    fn plan_data(
        &self,
        node: usize,
        r: &Resource,
        addr: &InstanceAddr,
        bindings: &Bindings,
    ) -> Planned {
        let n = self.node(node);
        let m = &n.merged;
        let Some((config, _)) = self.eval_config(node, &r.config, bindings) else {
            return Planned::unknown();
        };
        if self.conditions(
            node,
            &r.lifecycle.preconditions,
            bindings,
            "Resource precondition failed",
        ) {
            return Planned::unknown();
        }
        let reason = if !config.is_wholly_known() {
            Some("read_because_config_unknown")
        } else if self.dependencies(node, r).iter().any(|dep| {
            self.resource_value(node, dep);
            self.planned
                .borrow()
                .get(&(node, dep.clone()))
                .is_some_and(|list| list.iter().any(|(_, p)| p.action != Action::NoOp))
        }) {
            Some("read_because_dependency_pending")
        } else {
            None
        };
        let schema = self.resource_schema(node, r);
        // With a schema the object to read is whole: what the configuration sets, and the
        // attributes the provider computes unknown (Terraform's planned data object).
        let to_read = |config: Value| match schema.as_deref() {
            Some(s) => super::schema_objects::planned_create(s, &config),
            None => providers::to_be_computed(config),
        };
        if let Some(reason) = reason {
            let planned = schema
                .as_deref()
                .map(|s| super::schema_objects::planned_create(s, &config));
            self.changes.borrow_mut().push(ResourceChange {
                addr: addr.clone(),
                previous: None,
                deposed: None,
                action: Action::Read,
                reason: Some(reason),
                before: None,
                after: Some(planned.clone().unwrap_or(config)),
                replace_paths: Vec::new(),
                caveat: None,
                importing: None,
                declared_at: declared_at(m, r),
                blocks: schema
                    .as_deref()
                    .map(super::schema_objects::block_names)
                    .unwrap_or_default(),
                schema: schema.clone(),
            });
            return Planned {
                action: Action::Read,
                before: Value::Null,
                after: planned.unwrap_or(Value::Unknown),
            };
        }
        // Read now: Strata cannot read, so it reuses the last result when the arguments are
        // the ones it was read with.
        let prior = self
            .current
            .get(addr)
            .map(|&i| {
                decode_prior(
                    &addr.resource.type_name,
                    &self.objects[i].instance.attributes,
                )
            })
            .filter(|p| !super::providers::differs(&config, p, true));
        let after = prior.unwrap_or_else(|| {
            // Terraform would read it now; Strata knows only the arguments.
            self.unread.set(true);
            to_read(config)
        });
        self.postconditions(
            node,
            r,
            bindings,
            providers::as_referenced(
                &addr.resource.type_name,
                after.clone(),
                false,
                schema.as_deref(),
            ),
        );
        Planned {
            action: Action::NoOp,
            before: Value::Null,
            after,
        }
    }

    /// The managed resources a resource depends on in its module: those its arguments,
    /// `count`/`for_each` and `depends_on` refer to, directly or through local values.
    pub(super) fn dependencies(&self, node: usize, r: &Resource) -> Vec<ResourceKey> {
        let m = self.node(node).merged.clone();
        let mut exprs: Vec<&Expr> = Vec::new();
        body_exprs(&r.config, &mut exprs);
        for a in [&r.count, &r.for_each, &r.depends_on].into_iter().flatten() {
            exprs.push(a.expr());
        }
        let mut out = Vec::new();
        let mut seen_locals = HashSet::new();
        while let Some(e) = exprs.pop() {
            for reference in references(e) {
                let subject = crate::merge::strip_instance_keys(&reference.subject);
                let parts: Vec<&str> = subject.split('.').collect();
                match parts.as_slice() {
                    ["local", name, ..] if seen_locals.insert(name.to_string()) => {
                        if let Some(l) = m.locals.get(*name) {
                            exprs.push(l.value.expr());
                        }
                    }
                    [t, name, ..]
                        if !matches!(
                            *t,
                            "var"
                                | "module"
                                | "data"
                                | "path"
                                | "count"
                                | "each"
                                | "self"
                                | "terraform"
                        ) =>
                    {
                        let key = ResourceKey {
                            mode: Mode::Managed,
                            type_name: t.to_string(),
                            name: name.to_string(),
                        };
                        if m.resources.contains_key(&key) && !out.contains(&key) {
                            out.push(key);
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// Spec §4.7: a resource some create_before_destroy resource depends on, directly or
    /// not, is replaced create-before-destroy too.
    fn compute_forced_cbd(&self, node: usize) {
        let m = self.node(node).merged.clone();
        let mut forced = HashSet::new();
        let mut stack: Vec<ResourceKey> = m
            .resources
            .values()
            .filter(|r| literal_bool(r.lifecycle.create_before_destroy.as_ref()))
            .flat_map(|r| self.dependencies(node, r))
            .collect();
        // Orphaned create_before_destroy objects force their recorded dependencies too.
        let path = self.node(node).path.clone();
        for o in &self.objects {
            if o.addr.resource.module == path && o.instance.create_before_destroy {
                for dep in &o.instance.dependencies {
                    if let Ok(Target::Resource(res)) = Target::parse(dep, &ModulePath::root()) {
                        stack.push(ResourceKey {
                            mode: Mode::Managed,
                            type_name: res.type_name,
                            name: res.name,
                        });
                    }
                }
            }
        }
        while let Some(key) = stack.pop() {
            if forced.insert(key.clone()) {
                if let Some(r) = m.resources.get(&key) {
                    stack.extend(self.dependencies(node, r));
                }
            }
        }
        self.forced_cbd.borrow_mut().insert(node, forced);
    }

    /// `check` blocks: nested data sources are always read at apply; failed assertions
    /// are warnings.
    fn plan_checks(&self, node: usize) {
        let n = self.node(node);
        let m = &n.merged;
        let none = Bindings::default();
        for check in &m.checks {
            for data in check.block.body.blocks_of("data") {
                let (Some(t), Some(name)) = (data.label(0), data.label(1)) else {
                    continue;
                };
                let resource = ResourceAddr {
                    module: n.path.clone(),
                    mode: ResourceMode::Data,
                    type_name: t.to_string(),
                    name: name.to_string(),
                };
                let config = MergedBody::base(
                    &data.body,
                    check.file,
                    &["depends_on", "provider", "lifecycle"],
                );
                let after = self.eval_config(node, &config, &none).map(|(v, _)| v);
                self.changes.borrow_mut().push(ResourceChange {
                    addr: resource.instance(InstanceKey::None),
                    previous: None,
                    deposed: None,
                    action: Action::Read,
                    reason: Some("read_because_check_nested"),
                    before: None,
                    after,
                    replace_paths: Vec::new(),
                    caveat: None,
                    importing: None,
                    declared_at: Some((
                        m.file(check.file).path.clone(),
                        crate::merge::header_span(data),
                    )),
                    blocks: Vec::new(),
                    schema: None,
                });
            }
            let asserts: Vec<Nested> = check
                .block
                .body
                .blocks_of("assert")
                .map(|b| Nested {
                    block: b.clone(),
                    file: check.file,
                })
                .collect();
            let _ = self.conditions(node, &asserts, &none, "Check block assertion failed");
        }
    }

    /// `import` blocks of the root module: the instance each targets and the id.
    fn collect_imports(&self) {
        let m = self.config.root.clone();
        for i in &m.imports {
            let Some(to) = i.block.body.attribute("to") else {
                continue;
            };
            let text = &m.file(i.file).text[to.expr.span.range()];
            let addr = match Target::parse(text, &ModulePath::root()) {
                Ok(Target::Instance(a)) => a,
                Ok(Target::Resource(r)) => r.instance(InstanceKey::None),
                _ => continue,
            };
            let Some(id) = i.block.body.attribute("id") else {
                continue;
            };
            if let Some(id) = self.eval(0, i.file, &id.expr, &Bindings::default()) {
                self.imports.borrow_mut().insert(addr, id);
            }
        }
    }

    /// The configuration module at a path of call names from the root.
    pub(super) fn config_module(&self, calls: &[&str]) -> Option<(PathBuf, Arc<MergedModule>)> {
        let mut dir = self.config.root_dir.clone();
        let mut m = self.config.root.clone();
        for call in calls {
            let source = m.module_calls.get(*call)?.source.as_ref()?;
            let (d, child) = (self.config.child)(&dir, literal_string(source.expr())?)?;
            dir = d;
            m = child;
        }
        Some((dir, m))
    }

    /// Applies explicit and implied moves to the prior state's objects.
    fn apply_moves(&mut self) {
        let mut statements = Vec::new();
        let mut errors = Vec::new();
        let mut module_paths: Vec<ModulePath> = self
            .objects
            .iter()
            .map(|o| o.addr.resource.module.clone())
            .collect();
        module_paths.sort_by_key(ToString::to_string);
        module_paths.dedup();
        for path in &module_paths {
            if let Some((_, m)) = self.config_module(&path.calls()) {
                statements.extend(moves::explicit_statements(&m, path, &mut errors));
            }
        }
        let mut by_resource: BTreeMap<String, (ResourceAddr, Vec<InstanceKey>)> = BTreeMap::new();
        for o in &self.objects {
            if o.instance.deposed.is_none() && o.addr.resource.mode == ResourceMode::Managed {
                by_resource
                    .entry(o.addr.resource.to_string())
                    .or_insert_with(|| (o.addr.resource.clone(), Vec::new()))
                    .1
                    .push(o.addr.key.clone());
            }
        }
        let mentioned = moves::mentioned(&statements);
        for (resource, keys) in by_resource.values() {
            if mentioned.contains(resource) {
                continue;
            }
            let Some((_, m)) = self.config_module(&resource.module.calls()) else {
                continue;
            };
            let key = ResourceKey {
                mode: Mode::Managed,
                type_name: resource.type_name.clone(),
                name: resource.name.clone(),
            };
            if let Some(r) = m.resources.get(&key) {
                statements.extend(moves::implied_statement(
                    resource,
                    keys,
                    r.count.is_some(),
                    r.for_each.is_some(),
                ));
            }
        }
        let blocked = moves::apply(&mut self.objects, &statements);
        self.errors.borrow_mut().extend(errors);
        if !blocked.is_empty() {
            let tool = match self.dialect {
                Dialect::Terraform => ("Terraform", "terraform"),
                Dialect::OpenTofu => ("OpenTofu", "tofu"),
            };
            let items: String = blocked
                .iter()
                .map(|(from, to)| format!("\n  - {from} could not move to {to}"))
                .collect();
            self.warnings.borrow_mut().push(PlanDiagnostic::sourceless(
                "Unresolved resource instance address changes",
                format!("{0} tried to adjust resource instance addresses in the prior state based on change information recorded in the configuration, but some adjustments did not succeed due to existing objects already at the intended addresses:{items}\n\n{0} has planned to destroy these objects. If {0}'s proposed changes aren't appropriate, you must first resolve the conflicts using the \"{1} state\" subcommands and then create a new plan.", tool.0, tool.1),
            ));
        }
        self.move_statements = statements;
    }
}

/// Assembles the value of a repeated object from its instances' values.
fn assemble(repetition: Repetition, values: Vec<(InstanceKey, Value)>) -> Value {
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

/// A literal `true` (lifecycle flags are literal-only; the checks reject anything else).
pub(super) fn literal_bool(attr: Option<&Attr>) -> bool {
    attr.and_then(|a| crate::eval::constant(a.expr()))
        .is_some_and(|v| {
            v == serde_json::Value::Bool(true) || v == serde_json::Value::String("true".into())
        })
}

/// Every expression of a body, nested blocks included.
fn body_exprs<'b>(body: &'b MergedBody, out: &mut Vec<&'b Expr>) {
    out.extend(body.attributes.iter().map(Attr::expr));
    for b in &body.blocks {
        syntax_body_exprs(&b.block.body, out);
    }
}

fn syntax_body_exprs<'b>(body: &'b Body, out: &mut Vec<&'b Expr>) {
    out.extend(body.attributes.iter().map(|a| &a.expr));
    for b in &body.blocks {
        syntax_body_exprs(&b.body, out);
    }
}

/// A nested block's evaluated objects: its effective type, and the objects (`None` when
/// a `dynamic` block's `for_each` is unknown).
fn block_values(
    block: &crate::syntax::Block,
    scope: &dyn Scope,
) -> Result<(String, Option<Vec<Value>>), EvalError> {
    let kind = effective_block_type(block).to_string();
    if &*block.kind.name != "dynamic" {
        return Ok((kind, Some(vec![body_value(&block.body, scope)?])));
    }
    let Some(for_each) = block.body.attribute("for_each") else {
        return Ok((kind, Some(Vec::new())));
    };
    let collection = evaluate(&for_each.expr, scope)?;
    let iterator = block
        .body
        .attribute("iterator")
        .and_then(|i| match &i.expr.kind {
            ExprKind::Variable(id) => Some(id.name.to_string()),
            _ => None,
        })
        .unwrap_or_else(|| kind.clone());
    let pairs: Vec<(Value, Value)> = match &collection {
        Value::Unknown => return Ok((kind, None)),
        v if v.attributes().is_some() => v
            .attributes()
            .into_iter()
            .flatten()
            .map(|(k, v)| (Value::string(k.clone()), v.clone()))
            .collect(),
        Value::Set(items) => items.iter().map(|v| (v.clone(), v.clone())).collect(),
        v => v
            .elements()
            .unwrap_or(&[])
            .iter()
            .enumerate()
            .map(|(i, v)| (Value::Number(i as f64), v.clone()))
            .collect(),
    };
    let mut out = Vec::new();
    for (key, value) in pairs {
        let bound = Bound {
            inner: scope,
            name: &iterator,
            value: Value::Object(BTreeMap::from([
                ("key".to_string(), key),
                ("value".to_string(), value),
            ])),
        };
        for content in block.body.blocks_of("content") {
            out.push(body_value(&content.body, &bound)?);
        }
    }
    Ok((kind, Some(out)))
}

/// A syntax body evaluated to an object (nested blocks as lists of objects).
fn body_value(body: &Body, scope: &dyn Scope) -> Result<Value, EvalError> {
    let mut map = BTreeMap::new();
    for a in &body.attributes {
        map.insert(a.name.name.to_string(), evaluate(&a.expr, scope)?);
    }
    for b in &body.blocks {
        let (kind, items) = block_values(b, scope)?;
        let entry = map.entry(kind).or_insert_with(|| Value::List(Vec::new()));
        match (entry, items) {
            (Value::List(list), Some(items)) => list.extend(items),
            (slot, _) => *slot = Value::Unknown,
        }
    }
    Ok(Value::Object(map))
}

/// A scope with one more name: a `dynamic` block's iterator.
struct Bound<'s> {
    inner: &'s dyn Scope,
    name: &'s str,
    value: Value,
}

impl Scope for Bound<'_> {
    fn lookup(&self, root: &str, attrs: &[&str], span: Span) -> Result<(Value, usize), EvalError> {
        if root == self.name {
            return Ok((self.value.clone(), 0));
        }
        self.inner.lookup(root, attrs, span)
    }

    fn module_dir(&self) -> Option<&Path> {
        self.inner.module_dir()
    }

    fn budget(&self) -> Option<&Budget> {
        self.inner.budget()
    }

    fn file_outside(&self, path: &str, real: &Path, span: Span) {
        self.inner.file_outside(path, real, span);
    }
}

/// An `ignore_changes` element as a path of attribute names and keys.
fn static_path(expr: &Expr, planner: &Planner, node: usize) -> Option<Vec<String>> {
    let (root, steps) = match &expr.kind {
        ExprKind::Variable(id) => (id.name.to_string(), &[][..]),
        ExprKind::Traversal { root, steps } => match &root.kind {
            ExprKind::Variable(id) => (id.name.to_string(), &steps[..]),
            _ => return None,
        },
        ExprKind::String(s) => return Some(vec![s.to_string()]),
        _ => return None,
    };
    let mut path = vec![root];
    for step in steps {
        match step {
            TraversalStep::Attr(id) => path.push(id.name.to_string()),
            TraversalStep::Index(e) => {
                let v = planner.eval(node, 0, e, &Bindings::default())?;
                path.push(v.to_text()?);
            }
            TraversalStep::LegacyIndex(i, _) => path.push(i.to_string()),
            _ => return None,
        }
    }
    Some(path)
}

/// The value at a path of names and indexes; null where it does not exist.
pub(super) fn get_path(value: &Value, path: &[String]) -> Value {
    let mut v = value.clone();
    for step in path {
        v = match &v {
            Value::Unknown => return Value::Unknown,
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

/// Sets the value at a path (removing a map key when `new` is null).
fn set_path(value: &mut Value, path: &[String], new: Value) {
    let Some((first, rest)) = path.split_first() else {
        *value = new;
        return;
    };
    match value {
        Value::Object(map) | Value::Map(map) => {
            if rest.is_empty() && new.is_null() {
                map.remove(first);
                return;
            }
            let slot = map.entry(first.clone()).or_insert(Value::Null);
            if slot.is_null() && !rest.is_empty() {
                *slot = Value::Object(BTreeMap::new());
            }
            set_path(slot, rest, new);
        }
        Value::List(items) | Value::Tuple(items) => {
            if let Some(slot) = first.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                set_path(slot, rest, new);
            }
        }
        _ => {}
    }
}

/// The scope of one module instance, with the bindings of one resource instance.
pub(super) struct InstanceScope<'p> {
    pub planner: &'p Planner<'p>,
    pub node: usize,
    /// The file of the expressions evaluated.
    pub file: u32,
    pub bindings: Bindings,
}

impl Scope for InstanceScope<'_> {
    fn lookup(&self, root: &str, attrs: &[&str], span: Span) -> Result<(Value, usize), EvalError> {
        let p = self.planner;
        let first = attrs.first().copied();
        let missing = |what: &str| {
            EvalError::new(
                "Invalid reference",
                format!("A reference to {what} must be followed by an attribute name."),
                span,
            )
        };
        match root {
            "var" => Ok((p.variable(self.node, first.ok_or_else(|| missing("var"))?, span)?, 1)),
            "local" => Ok((p.local(self.node, first.ok_or_else(|| missing("local"))?, span)?, 1)),
            "module" => Ok((p.call_value(self.node, first.ok_or_else(|| missing("module"))?, span)?, 1)),
            "data" => {
                let (Some(t), Some(n)) = (first, attrs.get(1)) else {
                    return Err(missing("a data source"));
                };
                let key = ResourceKey {
                    mode: Mode::Data,
                    type_name: t.to_string(),
                    name: n.to_string(),
                };
                if !p.node(self.node).merged.resources.contains_key(&key) {
                    return Err(EvalError::new("Reference to undeclared resource", format!("A data resource \"{t}\" \"{n}\" has not been declared in this module."), span));
                }
                Ok((p.resource_value(self.node, &key), 2))
            }
            "count" => match (&self.bindings.count_index, first) {
                (Some(i), Some("index")) => Ok((i.clone(), 1)),
                _ => Err(EvalError::new("Reference to \"count\" in non-counted context", "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, and only when the \"count\" argument is set.", span)),
            },
            "each" => match (&self.bindings.each, first) {
                (Some((k, _)), Some("key")) => Ok((k.clone(), 1)),
                (Some((_, v)), Some("value")) => Ok((v.clone(), 1)),
                _ => Err(EvalError::new("Reference to \"each\" in context without for_each", "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only when the \"for_each\" argument is set.", span)),
            },
            "self" => match &self.bindings.self_value {
                Some(v) => Ok((v.clone(), 0)),
                None => Err(EvalError::new("Invalid \"self\" reference", "The \"self\" object is not available in this context.", span)),
            },
            "path" => {
                let n = p.node(self.node);
                let relative = |dir: &Path| {
                    dir.strip_prefix(&p.config.root_dir)
                        .ok()
                        .map(|d| d.to_string_lossy().into_owned())
                        .filter(|d| !d.is_empty())
                        .unwrap_or_else(|| ".".into())
                };
                match first {
                    Some("module") => Ok((Value::String(relative(&n.dir)), 1)),
                    Some("root") => Ok((Value::string("."), 1)),
                    Some("cwd") => Ok((Value::String(p.config.root_dir.to_string_lossy().into_owned()), 1)),
                    _ => Err(EvalError::new("Invalid \"path\" attribute", "The \"path\" object does not have an attribute with that name.", span)),
                }
            }
            "terraform" | "tofu" => match first {
                Some("workspace") => Ok((Value::string("default"), 1)),
                _ => Ok((Value::Unknown, attrs.len().min(1))),
            },
            type_name => {
                let Some(name) = first else {
                    return Err(EvalError::new("Invalid reference", format!("A reference to a resource type must be followed by at least one attribute access, specifying the resource name (\"{type_name}\")."), span));
                };
                let key = ResourceKey {
                    mode: Mode::Managed,
                    type_name: type_name.to_string(),
                    name: name.to_string(),
                };
                if !p.node(self.node).merged.resources.contains_key(&key) {
                    return Err(EvalError::new("Reference to undeclared resource", format!("A managed resource \"{type_name}\" \"{name}\" has not been declared in the root module."), span));
                }
                Ok((p.resource_value(self.node, &key), 1))
            }
        }
    }

    fn module_dir(&self) -> Option<&Path> {
        Some(&self.planner.config.root_dir)
    }

    fn budget(&self) -> Option<&Budget> {
        Some(&self.planner.budget)
    }

    fn file_outside(&self, path: &str, real: &Path, span: Span) {
        self.planner
            .file_outside(self.node, self.file, path, real, span);
    }
}
