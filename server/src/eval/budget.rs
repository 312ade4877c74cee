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

    /// Counts reading `value` (a copy is made of it): its nodes and its bytes. It must not
    /// nest deeper than [`MAX_VALUE_DEPTH`].
    pub(super) fn read(&self, value: &Value, span: Span) -> Result<(), EvalError> {
        let cap = MAX_EVALUATION_STEPS.saturating_sub(self.taken.get()) + 1;
        match weigh(value, cap) {
            Some(steps) => self.take(steps, span),
            None => Err(EvalError::new(
                EVALUATION_LIMIT,
                format!(
                    "This value nests collections more than {MAX_VALUE_DEPTH} levels deep, \
                     more than Strata evaluates. {}",
                    beyond_terraform()
                ),
                span,
            )),
        }
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
    weight(value, MAX_EVALUATION_STEPS.saturating_add(1)).saturating_mul(times)
}

/// The steps of handling `bytes` bytes of strings.
pub(super) fn bytes(bytes: usize) -> u64 {
    bytes as u64 / BYTES_PER_STEP
}

/// The steps a copy of `value` takes: one per node and one per [`BYTES_PER_STEP`] bytes
/// of its strings and keys, counting no further than `cap`.
fn weight(value: &Value, cap: u64) -> u64 {
    weigh(value, cap).unwrap_or(cap)
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

/// The steps of a copy of `value` (one per node, one per [`BYTES_PER_STEP`] bytes of its
/// strings and keys), counting stops past `cap`; `None` when it nests deeper than
/// [`MAX_VALUE_DEPTH`]. Iterative, so that a deep value cannot overflow the stack.
fn weigh(value: &Value, cap: u64) -> Option<u64> {
    let collection = match value {
        Value::String(s) => return Some(1 + bytes(s.len())),
        Value::Tuple(_)
        | Value::List(_)
        | Value::Set(_)
        | Value::Object(_)
        | Value::Map(_)
        | Value::PartialObject(_) => true,
        _ => false,
    };
    if !collection {
        return Some(1);
    }
    let mut nodes = 0u64;
    let mut text = 0usize;
    let mut pending = vec![(value, 0)];
    while let Some((value, depth)) = pending.pop() {
        nodes += 1;
        if nodes.saturating_add(bytes(text)) > cap {
            break;
        }
        if depth > MAX_VALUE_DEPTH {
            return None;
        }
        match value {
            Value::String(s) => text = text.saturating_add(s.len()),
            Value::Tuple(items) | Value::List(items) | Value::Set(items) => {
                pending.extend(items.iter().map(|v| (v, depth + 1)));
            }
            Value::Object(map) | Value::Map(map) | Value::PartialObject(map) => {
                for (k, v) in map {
                    text = text.saturating_add(k.len());
                    pending.push((v, depth + 1));
                }
            }
            _ => {}
        }
    }
    Some(nodes.saturating_add(bytes(text)))
}
