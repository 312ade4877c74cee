//! A cancelled plan (`crate::cancel`) stops between module instances and between
//! resources: the evaluation under way stops at its next step, and the walk then plans
//! nothing more. The plan it returns says so, so that no partial plan passes for a whole
//! one (its caller discards it anyway).

use super::Planner;
use crate::cancel;
use crate::plan::PlanDiagnostic;

impl Planner<'_> {
    /// Whether the analysis this plan belongs to was cancelled; the first time, with the
    /// plan's error saying so.
    pub(super) fn cancelled(&self) -> bool {
        if !cancel::requested() {
            return false;
        }
        if !self.stopped.replace(true) {
            self.error(PlanDiagnostic::sourceless(
                "Plan cancelled",
                "Planning stopped before the end: its result was no longer wanted.",
            ));
        }
        true
    }
}
