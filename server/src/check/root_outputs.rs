//! What a root module's outputs may not do (`internal/terraform/node_output.go`): be
//! ephemeral (`Ephemeral output not allowed`), or depend on a sensitive value without
//! being marked `sensitive = true` (`Output refers to sensitive values`): the value as
//! the validate walk evaluates it (`walk_scope.rs`: sensitive variables unknown and
//! marked) holds a sensitive mark anywhere; where Strata cannot evaluate it, where
//! `marks.rs` finds a sensitive reference. A child module's sensitive output does not
//! count: `terraform validate` leaves module outputs unknown and unmarked (recorded in
//! fixtures/validate/outputs-sensitive; what functions keep of the marks of unknown
//! values in fixtures/validate/outputs-sensitive-functions). Each module is checked as
//! the root module, as `terraform validate` run in its directory does.

use std::collections::BTreeSet;

use super::marks::{is_true, Mark, Marks};
use super::walk_scope::WalkScope;
use super::{at, Diagnostic, Severity};
use crate::eval::{evaluate, Marks as ValueMarks};
use crate::merge::MergedModule;

/// Code of a root output that is ephemeral or exposes sensitive values.
pub const SENSITIVE_OUTPUT: &str = "root-output";

/// The summary of a root output exposing sensitive values, also the plan walk's.
pub(crate) const SENSITIVE_OUTPUT_SUMMARY: &str = "Output refers to sensitive values";

/// Its detail.
pub(crate) const SENSITIVE_OUTPUT_DETAIL: &str = "To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, Terraform requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true";

pub(super) fn check(
    m: &MergedModule,
    scope: &WalkScope<'_>,
    stopped: &BTreeSet<String>,
    out: &mut Vec<Diagnostic>,
) {
    let mut marks = Marks::default();
    // An output whose preconditions failed is evaluated no further
    // (`output_conditions.rs`).
    for o in m.outputs.values().filter(|o| !stopped.contains(&o.name)) {
        if is_true(&o.ephemeral) {
            out.push(at(
                m,
                o.provenance.decl,
                Severity::Error,
                SENSITIVE_OUTPUT,
                "Ephemeral output not allowed".into(),
                "Ephemeral outputs are not allowed in context of a root module".into(),
            ));
            continue;
        }
        if is_true(&o.sensitive) {
            continue;
        }
        let Some(value) = &o.value else { continue };
        let sensitive = match evaluate(value.expr(), scope) {
            Ok(v) => v.deep_marks().contains(ValueMarks::SENSITIVE),
            Err(_) => marks.carries(m, value.expr(), Mark::Sensitive),
        };
        if !sensitive {
            continue;
        }
        out.push(at(
            m,
            o.provenance.decl,
            Severity::Error,
            SENSITIVE_OUTPUT,
            SENSITIVE_OUTPUT_SUMMARY.into(),
            SENSITIVE_OUTPUT_DETAIL.into(),
        ));
    }
}
