//! What a root module's outputs may not do (`internal/terraform/node_output.go`): be
//! ephemeral (`Ephemeral output not allowed`), or depend on a sensitive value without
//! being marked `sensitive = true` (`Output refers to sensitive values`; which values are
//! sensitive is `marks.rs`'s to say). A child module's sensitive output does not count:
//! `terraform validate` leaves module outputs unknown and unmarked (recorded in
//! fixtures/validate/outputs-sensitive). Each module is checked as the root module, as
//! `terraform validate` run in its directory does.

use super::marks::{is_true, Mark, Marks};
use super::{at, Diagnostic, Severity};
use crate::merge::MergedModule;

/// Code of a root output that is ephemeral or exposes sensitive values.
pub const SENSITIVE_OUTPUT: &str = "root-output";

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    let mut marks = Marks::default();
    for o in m.outputs.values() {
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
        if !marks.carries(m, value.expr(), Mark::Sensitive) {
            continue;
        }
        out.push(at(
            m,
            o.provenance.decl,
            Severity::Error,
            SENSITIVE_OUTPUT,
            "Output refers to sensitive values".into(),
            "To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, Terraform requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true".into(),
        ));
    }
}
