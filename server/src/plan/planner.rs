//! The plan walk (spec §4.2, §4.4–§4.7, §4.13): the module instance tree, expansion of
//! `count`/`for_each`, and the planning of each managed and data resource instance.
//!
//! Evaluation is lazy and memoized: a reference to a local, a module output or a resource
//! evaluates (or plans) it on first use, which orders the walk as Terraform's graph would
//! without building the graph. A reference cycle yields an unknown value instead of
//! looping.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use super::address::{compare_instances, InstanceAddr, ModulePath, Target};
use super::apply_cycles::apply_graph_cycles;
use super::moves::{self, Object};
use super::state::{InstanceKey, ResourceMode, State};
use super::variables::root_values;
use super::{Action, Configuration, Plan, PlanDiagnostic, PlanMode, PlanOptions, ResourceChange};
use crate::eval::{evaluate, expression_values, Budget, Causes, EvalError, ExpressionValue, Value};
use crate::merge::{MergedModule, Mode, Origin, Resource, ResourceKey};
use crate::module::Dialect;
use crate::syntax::{Expr, Span};

mod cancelled;
mod cbd;
mod chains;
mod conditions;
mod data;
mod expansion;
mod files;
mod ignore_changes;
mod imports;
mod instances;
mod managed;
mod ordering;
mod outputs;
mod refactoring;
mod refresh_only;
mod remote_state;
mod scope;
mod values;

pub(super) use scope::{literal_bool, InstanceScope};

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

/// A value computed once, with what its computation read.
struct Memoized {
    value: Value,
    /// Whether it depends on something Strata could not read (see `Planner::unread`).
    unread: bool,
    /// Whether its evaluation failed (see `Planner::failed`).
    failed: bool,
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
    /// Each value computed (none while it is being computed).
    memo: RefCell<HashMap<Memo, Option<Memoized>>>,
    /// Set while evaluating when a value read so far depends on something Terraform
    /// knows at plan time and Strata does not (a data source Terraform reads while
    /// planning): an unknown it leads to is Strata's ignorance, not an apply-time value.
    unread: Cell<bool>,
    /// Set while evaluating when a value read so far failed: its expression had an error,
    /// or so did one it depends on. Terraform does not evaluate what depends on a node
    /// whose evaluation failed (its graph walk skips it): such a value is no value.
    failed: Cell<bool>,
    pub planned: RefCell<HashMap<(usize, ResourceKey), PlannedInstances>>,
    pub expansions: RefCell<HashMap<(usize, ResourceKey), Expansion>>,
    pub changes: RefCell<Vec<ResourceChange>>,
    pub errors: RefCell<Vec<PlanDiagnostic>>,
    pub warnings: RefCell<Vec<PlanDiagnostic>>,
    pub claimed: RefCell<HashSet<InstanceAddr>>,
    forced_cbd: RefCell<HashMap<usize, HashSet<ResourceKey>>>,
    imports: RefCell<HashMap<InstanceAddr, Value>>,
    /// The import targets whose resource no configuration declares: Terraform still
    /// expands each as a resource of one instance (config generation would write it).
    pub unconfigured_imports: RefCell<HashSet<InstanceAddr>>,
    /// What the data sources of `check` blocks read, by module instance: their own
    /// check's assertions refer to them.
    scoped: RefCell<HashMap<(usize, ResourceKey), Value>>,
    /// The moves an object at the destination blocked, as `(from, to)`.
    blocked_moves: Vec<(String, String)>,
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
        config.schemas,
        &mut errors,
        &mut warnings,
    );
    if !errors.is_empty() {
        // Invalid options and variable values stop Terraform before it plans anything.
        return Plan {
            mode: options.mode,
            planned: true,
            errors,
            warnings,
            ..Plan::default()
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
        failed: Cell::new(false),
        planned: RefCell::default(),
        expansions: RefCell::default(),
        changes: RefCell::default(),
        errors: RefCell::new(errors),
        warnings: RefCell::new(warnings),
        claimed: RefCell::default(),
        forced_cbd: RefCell::default(),
        imports: RefCell::default(),
        unconfigured_imports: RefCell::default(),
        scoped: RefCell::default(),
        blocked_moves: Vec::new(),
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
            PlanMode::RefreshOnly => {
                // Conditions are evaluated against the refreshed objects; nothing changes.
                self.walk_nodes();
                self.changes.borrow_mut().clear();
            }
            PlanMode::Destroy => {
                // Terraform refreshes before a destroy with a normal plan of the
                // configuration (`PreDestroyRefresh`, resources' and outputs' conditions
                // only warning): when it has errors they fail the destroy, with every
                // warning it gave (`Context.destroyPlan` returns all its diagnostics);
                // otherwise its warnings and changes are dropped, and the values it
                // evaluated (the outputs the refresh stores) stay.
                if let Some(failed) = self.plan_normal() {
                    return failed;
                }
                let errors = self.errors.take();
                if !errors.is_empty() {
                    return Plan {
                        mode: self.options.mode,
                        planned: true,
                        errors,
                        warnings: self.warnings.take(),
                        ..Plan::default()
                    };
                }
                self.changes.borrow_mut().clear();
                self.warnings.borrow_mut().clear();
                self.plan_destroy();
            }
            PlanMode::Normal => {
                if let Some(failed) = self.plan_normal() {
                    return failed;
                }
                self.replace_warnings();
            }
        }
        if self.errors.borrow().is_empty() {
            if let Some(w) = self.blocked_moves_warning() {
                self.warnings.borrow_mut().push(w);
            }
        }
        let order = |a: &ResourceChange, b: &ResourceChange| {
            compare_instances(&a.addr, &b.addr).then_with(|| {
                a.deposed
                    .as_deref()
                    .unwrap_or("")
                    .cmp(b.deposed.as_deref().unwrap_or(""))
            })
        };
        let mut changes = self.changes.take();
        changes.sort_by(order);
        if self.errors.borrow().is_empty() {
            // Terraform builds the apply graph of a plan that succeeded, for its cycles.
            let cycles = apply_graph_cycles(&changes, &self.objects);
            self.errors.borrow_mut().extend(cycles);
        }
        let mut drift = match self.options.mode {
            PlanMode::RefreshOnly => self.moved_drift(),
            _ => Vec::new(),
        };
        drift.sort_by(order);
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
            mode: self.options.mode,
            planned: true,
            changes,
            drift,
            outputs: self.output_changes(state),
            errors,
            warnings,
        }
    }

    /// A normal plan's walk: imports, every module instance, the objects no longer
    /// configured. Import targets without configuration, then invalid move statements,
    /// are the likely cause of anything else the plan found: Terraform reports them
    /// alone, as the plan this returns.
    fn plan_normal(&self) -> Option<Plan> {
        self.collect_imports();
        self.walk_nodes();
        self.plan_orphans();
        for invalid in [self.validate_imports(), self.validate_moves()] {
            if !invalid.is_empty() {
                return Some(Plan {
                    mode: self.options.mode,
                    planned: true,
                    errors: invalid,
                    ..Plan::default()
                });
            }
        }
        None
    }

    /// Plans every resource, check block and output of every module instance.
    fn walk_nodes(&self) {
        let count = self.nodes.borrow().len();
        // Every module instance's first, as planning one may plan another's.
        let create_before_destroy = self.create_before_destroy();
        for node in 0..count {
            self.compute_forced_cbd(node, &create_before_destroy);
        }
        for node in 0..count {
            let merged = self.node(node).merged.clone();
            for key in merged.resources.keys() {
                if self.cancelled() {
                    return;
                }
                if key.mode != Mode::Ephemeral {
                    self.resource_value(node, key);
                }
            }
            self.plan_checks(node);
            for name in merged.outputs.keys() {
                if self.cancelled() {
                    return;
                }
                self.output_value(node, name);
            }
        }
    }

    pub(super) fn node(&self, i: usize) -> Rc<Node> {
        self.nodes.borrow()[i].clone()
    }

    pub(super) fn error(&self, d: PlanDiagnostic) {
        self.errors.borrow_mut().push(d);
    }

    /// An error of evaluating `expr` (`None`: a nested block), with the values of the
    /// references of the expression that failed: HCL gives a diagnostic the innermost
    /// expression whose evaluation produced it, here the smallest part of `expr` that
    /// holds its range.
    fn eval_error(
        &self,
        node: usize,
        file: u32,
        expr: Option<&Expr>,
        bindings: &Bindings,
        e: &EvalError,
    ) {
        let m = self.node(node).merged.clone();
        let values = expr.map_or_else(Vec::new, |expr| {
            let mut failed = expr;
            expr.walk(&mut |part| {
                let holds = part.span.start <= e.span.start && e.span.end <= part.span.end;
                let width = |x: &Expr| x.span.end - x.span.start;
                if holds && width(part) <= width(failed) {
                    failed = part;
                }
            });
            self.expression_values(node, file, failed, bindings, Causes::default())
        });
        self.error(
            PlanDiagnostic::at(
                &m,
                Origin { file, span: e.span },
                &e.summary,
                e.detail.clone(),
            )
            .with_values(values)
            .with_function_call(e.function.as_deref().and_then(|f| self.call_text(f))),
        );
    }

    /// A built-in function's call as Terraform's `while calling` line writes it: its
    /// parameters' names, the variadic one with `...` (`join(separator, lists...)`).
    fn call_text(&self, name: &str) -> Option<String> {
        let f = crate::schema::function(name, self.dialect)?;
        let fixed = f.parameters.iter().flatten().map(|p| p.name.to_string());
        let variadic = f.variadic.iter().map(|p| format!("{}...", p.name));
        let names: Vec<String> = fixed.chain(variadic).collect();
        Some(format!("{name}({})", names.join(", ")))
    }

    /// The values of `expr`'s references where it is evaluated, as a diagnostic about
    /// it states them.
    pub(super) fn expression_values(
        &self,
        node: usize,
        file: u32,
        expr: &Expr,
        bindings: &Bindings,
        causes: Causes,
    ) -> Vec<ExpressionValue> {
        let scope = InstanceScope {
            planner: self,
            node,
            file,
            bindings: bindings.clone(),
        };
        expression_values(expr, &scope, causes)
    }

    /// Evaluates `expr` of file `file` in module instance `node`.
    fn eval(&self, node: usize, file: u32, expr: &Expr, bindings: &Bindings) -> Option<Value> {
        let scope = InstanceScope {
            planner: self,
            node,
            file,
            bindings: bindings.clone(),
        };
        let (result, upstream_failed) = self.noting_failed(|| evaluate(expr, &scope));
        match result {
            // Something it reads failed: not evaluated, and nothing more to report.
            _ if upstream_failed => None,
            Ok(v) => Some(v),
            Err(e) => {
                self.eval_error(node, file, Some(expr), bindings, &e);
                self.failed.set(true);
                None
            }
        }
    }

    /// A value memoized under `key`, computed by `f` the first time; unknown while it is
    /// being computed (a reference cycle).
    /// Whether the value depends on something Strata could not read is remembered with it.
    fn memoized(&self, key: Memo, f: impl FnOnce() -> Value) -> Value {
        if let Some(slot) = self.memo.borrow().get(&key) {
            return match slot {
                Some(m) => {
                    if m.unread {
                        self.unread.set(true);
                    }
                    if m.failed {
                        self.failed.set(true);
                    }
                    m.value.clone()
                }
                None => Value::Unknown,
            };
        }
        if let chains::Entry::TooDeep = self.enter(&key) {
            return Value::Unknown;
        }
        self.memo.borrow_mut().insert(key.clone(), None);
        let ((value, unread), failed) = self.noting_failed(|| self.noting_unread(f));
        self.leave();
        self.memo.borrow_mut().insert(
            key,
            Some(Memoized {
                value: value.clone(),
                unread,
                failed,
            }),
        );
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

    /// Runs `f`, and says whether what it read failed (see `failed`).
    pub(super) fn noting_failed<T>(&self, f: impl FnOnce() -> T) -> (T, bool) {
        let outer = self.failed.replace(false);
        let result = f();
        let failed = self.failed.get();
        self.failed.set(outer || failed);
        (result, failed)
    }
}
