//! The evaluation budget (see `crate::limits`): how many steps one expression, and all
//! the expressions of one plan, may take, how deeply a value read may nest, and how long
//! a template's string may grow. Exceeding any of them is an [`EvalError`] that names the
//! limit; `try` and `can` never swallow it. An evaluation of an analysis that was
//! cancelled (`crate::cancel`) stops at its next step, with an error that they do not
//! swallow either.

use std::cell::Cell;

use super::evaluate::EvalError;
use super::value::Value;
use crate::cancel::{self, Cancel};
use crate::limits::{
    beyond_terraform, MAX_EVALUATION_STEPS, MAX_PLAN_STEPS, MAX_STRING_BYTES, MAX_VALUE_DEPTH,
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
/// asking whether the analysis was cancelled.
#[derive(Debug)]
pub(super) struct Steps {
    taken: u64,
    /// The cancellation flag of the analysis this evaluation belongs to, read once.
    cancel: Option<Cancel>,
}

impl Steps {
    /// No steps taken yet, in the analysis running on this thread.
    pub(super) fn new() -> Self {
        Self {
            taken: 0,
            cancel: cancel::current(),
        }
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
        self.taken
    }

    /// Counts `n` more steps taken at `span`.
    pub(super) fn take(&mut self, n: u64, span: Span) -> Result<(), EvalError> {
        self.go_on(span)?;
        self.taken += n;
        if self.taken > MAX_EVALUATION_STEPS {
            return Err(EvalError::new(
                EVALUATION_LIMIT,
                format!(
                    "Evaluating this expression took more than {MAX_EVALUATION_STEPS} steps \
                     (each operation, each element iterated and each element of a value read \
                     counts one), so Strata stopped. {}",
                    beyond_terraform()
                ),
                span,
            ));
        }
        Ok(())
    }

    /// Counts reading `value` (a copy is made of it), which must not nest deeper than
    /// [`MAX_VALUE_DEPTH`].
    pub(super) fn read(&mut self, value: &Value, span: Span) -> Result<(), EvalError> {
        let cap = MAX_EVALUATION_STEPS.saturating_sub(self.taken) + 1;
        match weigh(value, cap) {
            Some(nodes) => self.take(nodes, span),
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

/// How many nodes `value` has, counting stops past `cap`; `None` when it nests deeper
/// than [`MAX_VALUE_DEPTH`]. Iterative, so that a deep value cannot overflow the stack.
fn weigh(value: &Value, cap: u64) -> Option<u64> {
    let collection = matches!(
        value,
        Value::Tuple(_)
            | Value::List(_)
            | Value::Set(_)
            | Value::Object(_)
            | Value::Map(_)
            | Value::PartialObject(_)
    );
    if !collection {
        return Some(1);
    }
    let mut nodes = 0;
    let mut pending = vec![(value, 0)];
    while let Some((value, depth)) = pending.pop() {
        nodes += 1;
        if nodes > cap {
            break;
        }
        if depth > MAX_VALUE_DEPTH {
            return None;
        }
        match value {
            Value::Tuple(items) | Value::List(items) | Value::Set(items) => {
                pending.extend(items.iter().map(|v| (v, depth + 1)));
            }
            Value::Object(map) | Value::Map(map) | Value::PartialObject(map) => {
                pending.extend(map.values().map(|v| (v, depth + 1)));
            }
            _ => {}
        }
    }
    Some(nodes)
}
