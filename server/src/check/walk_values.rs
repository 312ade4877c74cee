//! References the validate walk can judge without any provider or input
//! (`internal/terraform/evaluate_valid.go`, `node_local.go`): references to a
//! resource's attributes without the instance key its `count`/`for_each` requires (or
//! with one it does not take), and a local value that refers to itself. The values of
//! `count` and `for_each` are judged in `repetition.rs`.

use super::evaluated::Walked;
use super::{at, Diagnostic, Severity};
use crate::eval::{references, Reference};
use crate::merge::{MergedModule, Mode, Origin, ResourceKey};
use crate::syntax::Span;

/// Code of a value the validate walk rejects.
pub const WALK_VALUE: &str = "invalid-value";

pub(super) fn check(m: &MergedModule, walked: &Walked<'_>, out: &mut Vec<Diagnostic>) {
    instance_keys(m, walked, out);
    self_referencing_locals(m, out);
}

fn error(m: &MergedModule, file: u32, span: Span, summary: &str, detail: String) -> Diagnostic {
    at(
        m,
        Origin { file, span },
        Severity::Error,
        WALK_VALUE,
        summary.into(),
        detail,
    )
}

/// `Missing resource instance key`, `Unexpected resource instance key` and the `count`
/// attribute Terraform 0.12 removed, where the validate walk checks references
/// statically: every expression it evaluates, output values included (recorded in
/// fixtures/validate/walk-values, refs-index-keys and walk-output-keys).
fn instance_keys(m: &MergedModule, walked: &Walked<'_>, out: &mut Vec<Diagnostic>) {
    for visit in walked.iter() {
        let place = visit.place();
        for r in visit.references() {
            let span = r.subject_span;
            for (summary, detail) in key_problems(m, r) {
                out.push(error(m, place.file, span, summary, detail));
            }
        }
    }
}

/// What static validation says of the instance key of a reference to a resource:
/// summary and detail.
pub(super) fn key_problems(m: &MergedModule, r: &Reference) -> Vec<(&'static str, String)> {
    let mut found = Vec::new();
    let (mode, rest) = match r.subject.strip_prefix("data.") {
        Some(rest) => (Mode::Data, rest),
        None => (Mode::Managed, r.subject.as_str()),
    };
    let rest = rest.split('[').next().unwrap_or(rest);
    let Some((type_name, name)) = rest.split_once('.') else {
        return found;
    };
    // The reference parser reads these roots as other objects, never as resources.
    let other = [
        "var",
        "local",
        "count",
        "each",
        "path",
        "terraform",
        "self",
        "module",
    ];
    if mode == Mode::Managed && other.contains(&type_name) {
        return found;
    }
    let key = ResourceKey {
        mode,
        type_name: type_name.to_string(),
        name: name.to_string(),
    };
    let Some(resource) = m.resources.get(&key) else {
        return found;
    };
    let address = key.to_string();
    let keyed = r.subject.contains('[');
    let repeated = if resource.count.is_some() {
        Some(("count", "count.index"))
    } else if resource.for_each.is_some() {
        Some(("for_each", "each.key"))
    } else {
        None
    };
    if r.remaining.first().is_some_and(|s| s == ".count") {
        found.push((
            "Invalid resource count attribute",
            format!("The special \"count\" attribute is no longer supported after Terraform v0.12. Instead, use length({address}) to count resource instances."),
        ));
    }
    match (repeated, keyed) {
        (Some((arg, example)), false)
            if r.remaining.first().is_some_and(|s| s.starts_with('.')) =>
        {
            found.push((
                "Missing resource instance key",
                format!("Because {address} has \"{arg}\" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    {address}[{example}]"),
            ));
        }
        (None, true) => found.push((
            "Unexpected resource instance key",
            format!("Because {address} does not have \"count\" or \"for_each\" set, references to it must not include an index key. Remove the bracketed index to refer to the single instance of this resource."),
        )),
        _ => {}
    }
    found
}

/// A local value whose expression refers to itself.
fn self_referencing_locals(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for local in m.locals.values() {
        let own = format!("local.{}", local.name);
        for r in references(local.value.expr()) {
            if r.subject == own {
                let start = r.span.start as usize;
                out.push(error(
                    m,
                    local.value.file,
                    Span::new(start, start + own.len()),
                    "Self-referencing local value",
                    format!(
                        "Local value {own} cannot use its own result as part of its expression."
                    ),
                ));
            }
        }
    }
}
