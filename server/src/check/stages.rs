//! The order in which one evaluation of the validate walk reports its problems
//! (`internal/lang/eval.go`): Terraform parses every reference of the expressions it
//! evaluates together, validates the references statically (declared resources and
//! module calls, instance keys, `self`, attributes of known schemas), and stops there if
//! that found an error; otherwise it looks each object up (input variables, local
//! values, `count`, `each`, `path`, `terraform`), and evaluates the expressions only if
//! no reference had an error. The families report what they find; this pass keeps what
//! Terraform would get to, evaluation by evaluation (`evaluated::Place::unit`).
//!
//! A resource's preconditions and postconditions are the exception
//! (`NodeValidatableResource.evaluateExpr`): Terraform evaluates them whatever their
//! references gave, and when static validation failed it evaluates them with no
//! variables at all, so that every reference's root name is an `Unknown variable`.

use std::collections::HashSet;

use super::evaluated::Walked;
use super::places::Places;
use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Origin};
use crate::syntax::Span;

/// Code of a name that is not a variable where Terraform evaluated without variables.
pub const UNKNOWN_VARIABLE: &str = "unknown-variable";

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
        | "Invalid resource type"
        // Checked before the local value's expression is evaluated (`node_local.go`).
        | "Self-referencing local value" => Stage::Static,
        // A resource type's attributes are checked against its schema statically; a
        // module's outputs only when the expression is evaluated.
        _ if d.code == super::schema_traversal::SCHEMA_TRAVERSAL => Stage::Static,
        _ if d.code == super::schema_traversal::DEPRECATED_ATTRIBUTE => Stage::Static,
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
pub(super) fn apply(
    m: &MergedModule,
    walked: &Walked<'_>,
    found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let mut places: Vec<(u32, Span, u32)> = Vec::new();
    // A variable's validation rules stop at an invalid reference, before any lookup
    // (`evalVariableValidations`).
    let mut validations = HashSet::new();
    // Each resource condition's unit, with the root names of its references.
    let mut conditions: Vec<(u32, Vec<Origin>)> = Vec::new();
    for visit in walked.iter() {
        let place = visit.place();
        places.push((place.file, visit.expr.span, place.unit));
        if place.block == "variable" {
            validations.insert(place.unit);
        }
        if place.resource_condition {
            let roots = visit
                .references()
                .map(|r| {
                    let root = r.subject.find(['.', '[']).unwrap_or(r.subject.len());
                    let start = r.span.start as usize;
                    Origin {
                        file: place.file,
                        span: Span::new(start, start + root),
                    }
                })
                .collect();
            conditions.push((place.unit, roots));
        }
    }
    let places = Places::new(m, places.into_iter());
    let is_condition = |unit: u32| conditions.iter().any(|(u, _)| *u == unit);
    let unit_of = |d: &Diagnostic| -> Option<u32> {
        // A lookup without a place is located by the reference it follows.
        let (path, span) = match d.related.first() {
            Some(r) if d.path.as_os_str().is_empty() => (&r.path, r.span),
            _ => (&d.path, d.span),
        };
        places.first(path, span)
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
    let unknown: Vec<Diagnostic> = conditions
        .iter()
        .filter(|(unit, _)| failed_static.contains(unit))
        .flat_map(|(_, roots)| roots)
        .map(|&root| {
            let text = &m.file(root.file).text;
            let name = text
                .get(root.span.start as usize..root.span.end as usize)
                .unwrap_or_default();
            at(
                m,
                root,
                Severity::Error,
                UNKNOWN_VARIABLE,
                "Unknown variable".into(),
                format!("There is no variable named {name:?}."),
            )
        })
        .collect();
    let mut kept: Vec<Diagnostic> = found
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
                Stage::Evaluation => !failed_references.contains(&unit) || is_condition(unit),
            }
        })
        .collect();
    kept.extend(unknown);
    kept
}
