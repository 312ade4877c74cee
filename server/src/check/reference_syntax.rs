//! Traversals that name no object, as Terraform's reference parser (`addrs.ParseRef`)
//! rejects them wherever the validate walk evaluates an expression: `Invalid reference`
//! (`var` alone, an index where a name is required, `data.x`, a resource type without a
//! name), `Reserved symbol name` and `Invalid index key`.
//!
//! For `var`, `local`, `count`, `each`, `path` and `terraform` Terraform's parser still
//! hands back a reference with an empty name, which evaluation then looks up: the
//! lookup's error (`An input variable with the name "" ...`) follows, without a place in
//! any file (Terraform prints an empty file name at line 0). Strata reports it the same
//! way, with the reference as its related place.

use super::evaluated::{Scope, Walked};
use super::{at, Diagnostic, Severity};
use crate::eval::RefError;
use crate::merge::{MergedModule, Origin};

/// Code of a traversal Terraform's reference parser rejects.
pub const INVALID_REFERENCE: &str = "invalid-reference";
/// Code of the lookup of an object with an empty name that follows some of them.
pub const UNNAMED_OBJECT: &str = "unnamed-object";

pub(super) fn check(m: &MergedModule, walked: &Walked<'_>, out: &mut Vec<Diagnostic>) {
    for visit in walked.iter() {
        let place = visit.place();
        for e in visit.parsed_within().filter_map(|p| p.as_ref().err()) {
            let origin = Origin {
                file: place.file,
                span: e.span,
            };
            out.push(reference_error(m, origin, e));
            if let Some(follow) = unnamed_lookup(m, e, place.scope) {
                out.push(follow.with_related(m, origin, "the reference"));
            }
        }
    }
}

/// The parser's error as a diagnostic at `origin`.
pub(super) fn reference_error(m: &MergedModule, origin: Origin, e: &RefError) -> Diagnostic {
    at(
        m,
        origin,
        Severity::Error,
        INVALID_REFERENCE,
        e.summary.into(),
        e.detail.clone(),
    )
}

/// What evaluation reports when it looks up the object with an empty name that the
/// parser returned beside `e`, as a diagnostic without a file.
fn unnamed_lookup(m: &MergedModule, e: &RefError, scope: Scope) -> Option<Diagnostic> {
    let root = e.unnamed?;
    let (summary, detail) = match root {
        "var" | "local" => {
            let names = super::references::Names::of(m);
            super::references::undeclared_named_value(m, &names, root, "")?
        }
        _ => super::contexts::attribute_problem(root, "", scope)?,
    };
    Some(
        Diagnostic::without_range(Severity::Error, UNNAMED_OBJECT, summary, detail).at_zero_range(),
    )
}
