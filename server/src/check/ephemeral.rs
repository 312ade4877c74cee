//! Ephemeral values where Terraform stores or exports values: an output not declared
//! `ephemeral = true` (`Ephemeral value not allowed`), a child module's output declared
//! so whose value is not ephemeral (`Value not allowed in ephemeral output`), and an argument of a resource type
//! whose schema Strata knows that is not write-only (`Invalid use of ephemeral value`).
//! Which values are ephemeral is `marks.rs`'s to say.

use super::marks::{is_true, Mark, Marks};
use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Mode};
use crate::syntax::Syntax;

/// Code of an ephemeral value where Terraform would persist it.
pub const EPHEMERAL_VALUE: &str = "ephemeral-value";

pub(super) fn check(m: &MergedModule, child: bool, out: &mut Vec<Diagnostic>) {
    let mut marks = Marks::default();
    for o in m.outputs.values() {
        let Some(value) = &o.value else { continue };
        let ephemeral = marks.carries(m, value.expr(), Mark::Ephemeral);
        // A child's ephemeral output must return an ephemeral value (a root module's
        // may not be ephemeral at all, `root_outputs.rs`). `carries` sees a mark
        // anywhere in the value, where Terraform wants it on the whole value: only
        // values free of any mark are reported.
        if child && is_true(&o.ephemeral) && !ephemeral {
            out.push(at(
                m,
                value.expr_origin(),
                Severity::Error,
                EPHEMERAL_VALUE,
                "Value not allowed in ephemeral output".into(),
                "This output value is declared as returning an ephemeral value, so it can only be set to an ephemeral value.".into(),
            ));
            continue;
        }
        if is_true(&o.ephemeral) || !ephemeral {
            continue;
        }
        out.push(at(
            m,
            value.expr_origin(),
            Severity::Error,
            EPHEMERAL_VALUE,
            "Ephemeral value not allowed".into(),
            "This output value is not declared as returning an ephemeral value, so it cannot be set to a result derived from an ephemeral value.".into(),
        ));
    }
    // The arguments in effect once override files are merged.
    for r in m.resources.values().filter(|r| r.key.mode == Mode::Managed) {
        let Some(known) = super::schemas::arguments(&r.key.type_name) else {
            continue;
        };
        for a in (r.config.attributes.iter()).filter(|a| known.contains(&&*a.attr.name.name)) {
            if m.file(a.file).syntax.syntax == Syntax::Json {
                continue;
            }
            if !marks.carries(m, a.expr(), Mark::Ephemeral) {
                continue;
            }
            out.push(at(
                m,
                a.expr_origin(),
                Severity::Error,
                EPHEMERAL_VALUE,
                "Invalid use of ephemeral value".into(),
                format!("Ephemeral values are not valid for {:?}, because it is not a write-only attribute and must be persisted to state.", a.attr.name.name),
            ));
        }
    }
}
