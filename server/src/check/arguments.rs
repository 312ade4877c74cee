//! Arguments a block does not take, wherever Strata knows the block's schema (lifecycle,
//! local module calls, built-in resource types), and Terraform's "Did you mean" for them
//! and for undeclared names.

use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Origin};
use crate::text::names::distance;

/// Code of an argument a block's known schema does not have.
pub const UNSUPPORTED_ARGUMENT: &str = "unsupported-argument";
/// Code of an unknown argument Terraform ignores because its block is overridden.
pub const OVERRIDE_UNKNOWN_ARGUMENT: &str = "override-unknown-argument";

/// Why an unknown argument is only a warning: its block is overridden.
pub(super) struct Ignored {
    /// The warning's summary.
    pub summary: &'static str,
    /// Why the argument is unknown.
    pub reason: String,
    /// What kind of block, for the detail ("a resource", "a module call").
    pub what: &'static str,
}

/// The detail of `Unsupported argument`, with a suggestion among `known`.
pub(super) fn unsupported_detail(name: &str, known: &[&str]) -> String {
    let hint = suggestion_among(name, known)
        .map(|s| format!(" Did you mean {s:?}?"))
        .unwrap_or_default();
    format!("An argument named \"{name}\" is not expected here.{hint}")
}

/// An argument a block's known schema does not have: `Unsupported argument`, or, where
/// an override file changes the block so that Terraform stops checking its arguments
/// (spec §1.5), a warning that it is silently ignored.
pub(super) fn unknown_argument(
    m: &MergedModule,
    origin: Origin,
    name: &str,
    known: &[&str],
    ignored: Option<Ignored>,
) -> Diagnostic {
    match ignored {
        Some(i) => at(
            m,
            origin,
            Severity::Warning,
            OVERRIDE_UNKNOWN_ARGUMENT,
            i.summary.into(),
            format!(
                "{} Terraform does not check the arguments of {} that an override file changes, so this one is silently ignored.",
                i.reason, i.what
            ),
        ),
        None => at(
            m,
            origin,
            Severity::Error,
            UNSUPPORTED_ARGUMENT,
            "Unsupported argument".into(),
            unsupported_detail(name, known),
        ),
    }
}

/// `suggestion` over a fixed list of names.
pub(super) fn suggestion_among(name: &str, candidates: &[&str]) -> Option<String> {
    let owned: Vec<String> = candidates.iter().map(|c| c.to_string()).collect();
    suggestion(name, owned.iter()).cloned()
}

/// The closest name within an edit distance of less than three, as Terraform suggests.
pub(super) fn suggestion<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a String>,
) -> Option<&'a String> {
    let mut best: Option<(&String, usize)> = None;
    for c in candidates {
        let d = distance(name, c);
        if d < 3 && best.is_none_or(|(_, bd)| d < bd) {
            best = Some((c, d));
        }
    }
    best.map(|(c, _)| c)
}
