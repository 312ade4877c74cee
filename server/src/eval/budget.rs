//! The evaluation budget (see `crate::limits`): how many steps one expression, and all
//! the expressions of one plan, may take, how deeply a value read may nest, and how long
//! a template's string may grow. Exceeding any of them is an [`EvalError`] that names the
//! limit; `try` and `can` never swallow it. An evaluation of an analysis that was
//! cancelled (`crate::cancel`) stops at its next step, with an error that they do not
//! swallow either.

use std::cell::Cell;

use super::evaluate::{EvalError, Evaluator};
use super::value::Value;
use crate::cancel::{self, Cancel};
use crate::limits::{
    beyond_terraform, BYTES_PER_STEP, MAX_EVALUATION_STEPS, MAX_PLAN_STEPS, MAX_STRING_BYTES,
    MAX_VALUE_DEPTH,
};
use crate::syntax::Span;

/// The summary of every budget error.
pub const EVALUATION_LIMIT: &str = "Evaluation limit reached";

/// The summary of an evaluation stopped because its analysis was cancelled.
pub const EVALUATION_CANCELLED: &str = "Evaluation cancelled";

/// The steps several evaluations share (a whole plan), spent as each one ends.
#[derive(Debug)]
pub struct Budget {
    left: Cell<u64>,
}

impl Default for Budget {
    /// The budget of one plan: [`MAX_PLAN_STEPS`].
    fn default() -> Self {
        Self::new(MAX_PLAN_STEPS)
    }
}

impl Budget {
    /// A budget of `steps`.
    pub fn new(steps: u64) -> Self {
        Self {
            left: Cell::new(steps),
        }
    }

    /// Whether nothing is left.
    pub fn is_spent(&self) -> bool {
        self.left.get() == 0
    }

    /// Takes `steps` away (down to nothing).
    pub(super) fn spend(&self, steps: u64) {
        self.left.set(self.left.get().saturating_sub(steps));
    }

    /// The error of an evaluation started when nothing was left.
    pub(super) fn spent_error(span: Span) -> EvalError {
        EvalError::new(
            EVALUATION_LIMIT,
            format!(
                "The expressions evaluated so far took more than {MAX_PLAN_STEPS} steps in \
                 all, so Strata evaluates no more of them. {}",
                beyond_terraform()
            ),
            span,
        )
    }
}

impl EvalError {
    /// Whether this error is a limit of Strata's (or a cancellation) rather than a
    /// failure of the expression.
    pub fn is_limit(&self) -> bool {
        self.summary == EVALUATION_LIMIT || self.summary == EVALUATION_CANCELLED
    }
}

/// The steps of one evaluation, counted against [`MAX_EVALUATION_STEPS`], each one also
/// asking whether the analysis was cancelled. Counted through a shared reference, so
/// that a function being called can charge for its own work (`Evaluator::spend`).
pub(super) struct Steps {
    taken: Cell<u64>,
    /// The cancellation flag of the analysis this evaluation belongs to, read once.
    cancel: Option<Cancel>,
    /// The error that stopped a function's own work, which `functions::call` returns in
    /// place of the function's failure (a function fails with a reason string only).
    stopped: Cell<Option<EvalError>>,
}

impl Steps {
    /// No steps taken yet, in the analysis running on this thread.
    pub(super) fn new() -> Self {
        Self {
            taken: Cell::new(0),
            cancel: cancel::current(),
            stopped: Cell::new(None),
        }
    }

    /// The steps of an evaluation nested in this one (a template file's), which go on
    /// from those taken here; [`Steps::settle`] brings them back.
    pub(super) fn nested(&self) -> Self {
        Self {
            taken: Cell::new(self.taken.get()),
            cancel: self.cancel.clone(),
            stopped: Cell::new(None),
        }
    }

    /// Counts the steps a [`Steps::nested`] evaluation took as taken here.
    pub(super) fn settle(&self, nested: &Steps) {
        self.taken.set(self.taken.get().max(nested.taken.get()));
    }

    /// The error that ends the evaluation of a cancelled analysis, or `Ok`.
    pub(super) fn go_on(&self, span: Span) -> Result<(), EvalError> {
        match &self.cancel {
            Some(c) if c.is_cancelled() => Err(EvalError::new(
                EVALUATION_CANCELLED,
                "The analysis this evaluation belonged to was cancelled.",
                span,
            )),
            _ => Ok(()),
        }
    }

    /// How many were taken.
    pub(super) fn taken(&self) -> u64 {
        self.taken.get()
    }

    /// Counts `n` more steps taken at `span`.
    pub(super) fn take(&self, n: u64, span: Span) -> Result<(), EvalError> {
        self.go_on(span)?;
        let taken = self.taken.get().saturating_add(n);
        self.taken.set(taken);
        if taken > MAX_EVALUATION_STEPS {
            return Err(EvalError::new(
                EVALUATION_LIMIT,
                format!(
                    "Evaluating this expression took more than {MAX_EVALUATION_STEPS} steps \
                     (each operation, each element iterated and each element of a value read \
                     counts one, and every {BYTES_PER_STEP} bytes of strings read, built or \
                     processed count one), so Strata stopped. {}",
                    beyond_terraform()
                ),
                span,
            ));
        }
        Ok(())
    }

    /// Counts `n` steps of a function's own work at the call `span`; on the limit, the
    /// error is kept for [`Steps::stopped`] and its detail is the function's failure.
    pub(super) fn charge(&self, n: u64, span: Span) -> Result<(), String> {
        self.take(n, span).map_err(|error| {
            let reason = error.detail.clone();
            self.stop(error);
            reason
        })
    }

    /// Keeps `error`, a limit met by a function's own work or by an evaluation nested in
    /// it, for [`Steps::stopped`].
    pub(super) fn stop(&self, error: EvalError) {
        self.stopped.set(Some(error));
    }

    /// The error that stopped a function's own work, once.
    pub(super) fn stopped(&self) -> Option<EvalError> {
        self.stopped.take()
    }

    /// Counts reading `value` (a copy of it, which shares its collections): its nodes
    /// and its bytes, as if it were copied whole, since what is built from it may be.
    /// It must not nest deeper than [`MAX_VALUE_DEPTH`].
    pub(super) fn read(&self, value: &Value, span: Span) -> Result<(), EvalError> {
        let weight = weigh(value);
        if weight.depth as usize > MAX_VALUE_DEPTH {
            return Err(EvalError::new(
                EVALUATION_LIMIT,
                format!(
                    "This value nests collections more than {MAX_VALUE_DEPTH} levels deep, \
                     more than Strata evaluates. {}",
                    beyond_terraform()
                ),
                span,
            ));
        }
        self.take(weight.steps(), span)
    }
}

impl Evaluator<'_> {
    /// Counts `steps` of the work of the function being called that neither reading its
    /// arguments nor its result counts: copies it makes that its result does not hold,
    /// bytes of files it reads, directory entries it walks, states of the patterns it
    /// compiles. Charged in bulk, before the work where it can be measured first, so
    /// that an over-budget call stops before doing it; the call's error is then the
    /// budget's (see [`Evaluator::limit_reached`]).
    pub(super) fn spend(&self, steps: u64) -> Result<(), String> {
        self.work.charge(steps, self.call)
    }

    /// Counts [`Evaluator::spend`] for `bytes` bytes handled.
    pub(super) fn spend_bytes(&self, n: usize) -> Result<(), String> {
        self.spend(bytes(n))
    }

    /// Counts [`Evaluator::spend`] for `times` copies of `value`.
    pub(super) fn spend_copies(&self, value: &Value, times: u64) -> Result<(), String> {
        self.spend(copies(value, times))
    }

    /// Fails as [`Evaluator::spend`] fails when the budget left cannot hold `steps`, but
    /// counts nothing: for work that reading the function's result counts (its copies),
    /// checked before the result is built.
    pub(super) fn afford(&self, steps: u64) -> Result<(), String> {
        if self.work.taken().saturating_add(steps) > MAX_EVALUATION_STEPS {
            return self.spend(steps);
        }
        Ok(())
    }

    /// The budget's error, when a function's work was stopped by it (or by a
    /// cancellation): the call fails with it instead of the function's own failure.
    pub(super) fn limit_reached(&self) -> Option<EvalError> {
        self.work.stopped()
    }
}

/// The steps of `times` copies of `value`.
pub(super) fn copies(value: &Value, times: u64) -> u64 {
    weigh(value).steps().saturating_mul(times)
}

/// The steps of handling `bytes` bytes of strings.
pub(super) fn bytes(bytes: usize) -> u64 {
    bytes as u64 / BYTES_PER_STEP
}

/// The error for a template whose result grew past [`MAX_STRING_BYTES`].
pub(super) fn string_too_long(span: Span) -> EvalError {
    EvalError::new(
        EVALUATION_LIMIT,
        format!(
            "This template produces a string longer than {MAX_STRING_BYTES} bytes, so Strata \
             stopped. {}",
            beyond_terraform()
        ),
        span,
    )
}

/// What a value costs to read: its nodes and the bytes of its strings and keys, as if
/// every shared collection in it were copied, and how deeply it nests. Kept in each
/// shared collection (`shared.rs`) once computed.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Weight {
    nodes: u64,
    text: u64,
    /// How many collections nest down to its deepest element (0 for a primitive or an
    /// empty collection).
    depth: u32,
}

impl Weight {
    /// The evaluation steps: one per node, one per [`BYTES_PER_STEP`] bytes of text.
    fn steps(self) -> u64 {
        self.nodes.saturating_add(self.text / BYTES_PER_STEP)
    }

    /// The weight of a value that is not a collection.
    fn of_primitive(value: &Value) -> Self {
        let text = match value {
            Value::String(s) => s.len() as u64,
            _ => 0,
        };
        Weight {
            nodes: 1,
            text,
            depth: 0,
        }
    }
}

/// The weight cache of `value`'s collection (through its marks), `None` for a primitive.
fn cache(value: &Value) -> Option<&std::sync::OnceLock<Weight>> {
    match value.unmarked() {
        Value::Tuple(items) | Value::List(items) | Value::Set(items) => Some(items.weight()),
        Value::Object(map) | Value::Map(map) | Value::PartialObject(map) => Some(map.weight()),
        _ => None,
    }
}

/// The weight of `value` where it is known without walking it.
fn known(value: &Value) -> Option<Weight> {
    match cache(value) {
        Some(cache) => cache.get().copied(),
        None => Some(Weight::of_primitive(value.unmarked())),
    }
}

/// The weight of `value`. Each collection's is computed once, from its elements', and
/// kept: a value that holds one collection many times costs its full size to read but
/// is walked only once. Iterative, so that a deep value cannot overflow the stack.
fn weigh(value: &Value) -> Weight {
    let mut pending = vec![(value, false)];
    while let Some((value, elements_done)) = pending.pop() {
        let Some(cache) = cache(value) else {
            continue;
        };
        if cache.get().is_some() {
            continue;
        }
        if !elements_done {
            pending.push((value, true));
            pending.extend(
                children(value)
                    .filter(|v| known(v).is_none())
                    .map(|v| (v, false)),
            );
            continue;
        }
        let mut sum = Weight {
            nodes: 1,
            ..Weight::default()
        };
        for element in children(value) {
            let w = known(element).unwrap_or_default();
            sum.nodes = sum.nodes.saturating_add(w.nodes);
            sum.text = sum.text.saturating_add(w.text);
            sum.depth = sum.depth.max(w.depth.saturating_add(1));
        }
        if let Some(map) = value.attributes() {
            let keys = map.keys().map(|k| k.len() as u64);
            sum.text = keys.fold(sum.text, u64::saturating_add);
        }
        let _ = cache.set(sum);
    }
    known(value).unwrap_or_default()
}

/// The elements or attribute values of a collection (through its marks).
fn children(value: &Value) -> Box<dyn Iterator<Item = &Value> + '_> {
    match value.unmarked() {
        Value::Tuple(items) | Value::List(items) | Value::Set(items) => Box::new(items.iter()),
        Value::Object(map) | Value::Map(map) | Value::PartialObject(map) => Box::new(map.values()),
        _ => Box::new(std::iter::empty()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_value_weighs_its_full_size_and_is_walked_once() {
        let mut v = Value::Tuple(vec![Value::string("x".repeat(64))].into());
        for _ in 0..40 {
            v = Value::Tuple(vec![v.clone(), v].into());
        }
        let w = weigh(&v);
        // 2^40 strings of one step each, 2^41 - 1 tuples, 41 levels.
        assert_eq!(w.nodes, (1 << 41) - 1 + (1 << 40));
        assert_eq!(w.steps(), w.nodes + (1 << 40));
        assert_eq!(w.depth, 41);
    }

    #[test]
    fn a_value_too_deep_is_refused_and_a_deep_one_does_not_overflow() {
        let mut v = Value::Number(1.0);
        for _ in 0..100_000 {
            v = Value::List(vec![v].into());
        }
        assert_eq!(weigh(&v).depth, 100_000);
        let steps = Steps::new();
        let error = steps.read(&v, Span::new(0, 0)).unwrap_err();
        assert!(error.detail.contains("levels deep"), "{error:?}");
        // Dropping a value this deep recurses: take it apart level by level.
        while let Value::List(items) = v {
            v = items.into_vec().pop().unwrap_or(Value::Null);
        }
    }
}
