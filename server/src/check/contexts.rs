//! The objects only some places may refer to, as Terraform's validate walk evaluates
//! them (`internal/terraform/evaluate.go`, `evaluate_valid.go`): `count.index` where
//! `count` is set, `each.key` and `each.value` where `for_each` is set, `self` in
//! provisioners, connections and postconditions, and the attributes `path` and
//! `terraform` have.

use super::evaluated::{Scope, Walked};
use super::{at, Diagnostic, Severity};
use crate::eval::Reference;
use crate::merge::{MergedModule, Origin};
use crate::syntax::Span;

/// Code of a reference to an object not available where it is made.
pub const CONTEXT: &str = "reference-out-of-context";

pub(super) fn check(m: &MergedModule, walked: &Walked<'_>, out: &mut Vec<Diagnostic>) {
    for visit in walked.iter() {
        let place = visit.place();
        for (span, summary, detail) in problems(visit.references(), place.scope) {
            let origin = Origin {
                file: place.file,
                span,
            };
            out.push(at(m, origin, Severity::Error, CONTEXT, summary, detail));
        }
    }
}

/// The references among `references` to objects `scope` does not offer: place,
/// summary, detail.
fn problems<'r>(
    references: impl Iterator<Item = &'r Reference>,
    scope: Scope,
) -> Vec<(Span, String, String)> {
    let mut found = Vec::new();
    for r in references {
        let at_subject = r.subject_span;
        let (root, name) = r.subject.split_once('.').unwrap_or((&r.subject, ""));
        if root == "self" && !scope.this {
            found.push((
                at_subject,
                "Invalid \"self\" reference".to_string(),
                "The \"self\" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.".to_string(),
            ));
        } else if let Some((summary, detail)) = attribute_problem(root, name, scope) {
            found.push((at_subject, summary, detail));
        }
    }
    found
}

/// What evaluation says of `root.name` for the objects `count`, `each`, `path` and
/// `terraform` (`GetCountAttr`, `GetForEachAttr`, `GetPathAttr`, `GetTerraformAttr`):
/// summary and detail, or nothing where the attribute exists and `scope` offers it.
pub(super) fn attribute_problem(root: &str, name: &str, scope: Scope) -> Option<(String, String)> {
    match (root, name) {
        ("count", "index") if !scope.count => Some((
            "Reference to \"count\" in non-counted context".into(),
            "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, and only when the \"count\" argument is set.".into(),
        )),
        ("count", "index") => None,
        ("count", other) => Some((
            "Invalid \"count\" attribute".into(),
            format!("The \"count\" object does not have an attribute named {other:?}. The only supported attribute is count.index, which is the index of each instance of a resource block that has the \"count\" argument set."),
        )),
        ("each", "key") if !scope.each => Some((
            "Reference to \"each\" in context without for_each".into(),
            "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only when the \"for_each\" argument is set.".into(),
        )),
        ("each", "value") if !scope.each => Some((
            "each.value cannot be used in this context".into(),
            "A reference to \"each.value\" has been used in a context in which it is unavailable, such as when the configuration no longer contains the value in its \"for_each\" expression. Remove this reference to each.value in your configuration to work around this error.".into(),
        )),
        ("each", "key" | "value") => None,
        ("each", other) => Some((
            "Invalid \"each\" attribute".into(),
            format!("The \"each\" object does not have an attribute named {other:?}. The supported attributes are each.key and each.value, the current key and value pair of the \"for_each\" attribute set."),
        )),
        ("path", "module" | "root" | "cwd") => None,
        ("path", other) => {
            let hint = super::arguments::suggestion_among(other, &["cwd", "module", "root"])
                .map(|s| format!(" Did you mean {s:?}?"))
                .unwrap_or_default();
            Some((
                "Invalid \"path\" attribute".into(),
                format!("The \"path\" object does not have an attribute named {other:?}.{hint}"),
            ))
        }
        ("terraform", "workspace" | "applying") => None,
        ("terraform", other) => Some((
            "Invalid \"terraform\" attribute".into(),
            format!("The \"terraform\" object does not have an attribute named {other:?}. The only supported attributes are terraform.workspace, the name of the currently-selected workspace, and terraform.applying, a boolean which is true only during apply."),
        )),
        _ => None,
    }
}
