//! The order in which one evaluation of the validate walk reports its problems
//! (`internal/lang/eval.go`): Terraform parses every reference of the expressions it
//! evaluates together, validates the references statically (declared resources and
//! module calls, instance keys, `self`, attributes of known schemas), and stops there if
//! that found an error; otherwise it looks each object up (input variables, local
//! values, `count`, `each`, `path`, `terraform`), and evaluates the expressions only if
//! no reference had an error. The families report what they find; this pass keeps what
//! Terraform would get to, evaluation by evaluation (`evaluated::Place::unit`).

use std::collections::HashSet;

use super::evaluated::walk;
use super::Diagnostic;
use crate::merge::MergedModule;
use crate::syntax::Span;

/// The step of an evaluation a diagnostic comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    /// `addrs.ParseRef`.
    Parse,
    /// `StaticValidateReferences`.
    Static,
    /// Looking each referenced object up.
    Lookup,
    /// Evaluating the expressions.
    Evaluation,
}

fn stage(d: &Diagnostic) -> Stage {
    match d.summary.as_str() {
        "Invalid reference" | "Reserved symbol name" | "Invalid index key" => Stage::Parse,
        "Invalid \"self\" reference"
        | "Reference to undeclared resource"
        | "Reference to undeclared module"
        | "Reference to scoped resource"
        | "Missing resource instance key"
        | "Unexpected resource instance key"
        | "Invalid resource count attribute"
        // Checked before the local value's expression is evaluated (`node_local.go`).
        | "Self-referencing local value" => Stage::Static,
        // A resource type's attributes are checked against its schema statically; a
        // module's outputs only when the expression is evaluated.
        "Unsupported attribute" if d.code == super::arguments::UNSUPPORTED_ARGUMENT => {
            Stage::Static
        }
        "Reference to undeclared input variable"
        | "Reference to undeclared local value"
        | "Reference to \"count\" in non-counted context"
        | "Reference to \"each\" in context without for_each"
        | "each.value cannot be used in this context"
        | "Invalid \"count\" attribute"
        | "Invalid \"each\" attribute"
        | "Invalid \"path\" attribute"
        | "Invalid \"terraform\" attribute" => Stage::Lookup,
        _ => Stage::Evaluation,
    }
}

/// Drops from `found` (the validate walk's diagnostics) what Terraform never reaches:
/// lookups in an evaluation whose references failed static validation, and evaluation
/// errors in one whose references had any error.
pub(super) fn apply(m: &MergedModule, found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut places: Vec<(u32, Span, u32)> = Vec::new();
    // A variable's validation rules stop at an invalid reference, before any lookup
    // (`evalVariableValidations`).
    let mut validations = HashSet::new();
    walk(m, |expr, place| {
        places.push((place.file, expr.span, place.unit));
        if place.block == "variable" {
            validations.insert(place.unit);
        }
    });
    let unit_of = |d: &Diagnostic| -> Option<u32> {
        // A lookup without a place is located by the reference it follows.
        let (path, span) = match d.related.first() {
            Some(r) if d.path.as_os_str().is_empty() => (&r.path, r.span),
            _ => (&d.path, d.span),
        };
        places
            .iter()
            .find(|(file, s, _)| {
                &m.file(*file).path == path && s.start <= span.start && span.end <= s.end
            })
            .map(|(_, _, unit)| *unit)
    };
    let errors_at = |wanted: &[Stage]| -> HashSet<u32> {
        found
            .iter()
            .filter(|d| d.severity == super::Severity::Error && wanted.contains(&stage(d)))
            .filter_map(unit_of)
            .collect()
    };
    let failed_parse = errors_at(&[Stage::Parse]);
    let failed_static = errors_at(&[Stage::Static]);
    let failed_references = errors_at(&[Stage::Parse, Stage::Static, Stage::Lookup]);
    found
        .into_iter()
        .filter(|d| {
            let Some(unit) = unit_of(d) else {
                return true;
            };
            if validations.contains(&unit) && failed_parse.contains(&unit) {
                return stage(d) == Stage::Parse;
            }
            match stage(d) {
                Stage::Parse | Stage::Static => true,
                Stage::Lookup => !failed_static.contains(&unit),
                Stage::Evaluation => !failed_references.contains(&unit),
            }
        })
        .collect()
}
