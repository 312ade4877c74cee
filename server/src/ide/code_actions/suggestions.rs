//! Fixes that rewrite the text a diagnostic points at: the name Terraform suggests in its
//! "Did you mean" for the name it did not find, and a reference or keyword written in
//! quotes (deprecated since Terraform 0.12) without them.

use super::{one_edit, quoted, Fix, Place};
use crate::check::deprecations::{QUOTED_KEYWORD, QUOTED_REFERENCE};
use crate::check::Diagnostic;

/// What Terraform's suggestions start with.
const DID_YOU_MEAN: &str = "Did you mean \"";

/// The fixes for `d` that rewrite its own text.
pub(super) fn fixes(place: &Place, d: &Diagnostic) -> Vec<Fix> {
    let mut found = did_you_mean(place, d);
    if place.native() {
        // JSON has no quoted references: its strings are templates.
        found.extend(unquote(place, d));
    }
    found
}

/// One fix per suggestion in `d`'s detail: the name the detail says was not found,
/// written once in the diagnostic's text, replaced by the suggested one (in JSON, inside
/// its string: a name needs no escape there).
fn did_you_mean(place: &Place, d: &Diagnostic) -> Vec<Fix> {
    let Some(first) = d.detail.find(DID_YOU_MEAN) else {
        return Vec::new();
    };
    let Some(written) = place.text(d.span) else {
        return Vec::new();
    };
    // The name not found is quoted before the first suggestion; the last such name that
    // the diagnostic's text holds exactly once (a resource's detail quotes its type, then
    // its name).
    let Some((at, wrong)) = quoted(&d.detail[..first])
        .into_iter()
        .rev()
        .find_map(|w| only_occurrence(written, w).map(|at| (at, w)))
    else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut rest = &d.detail[first..];
    while let Some(i) = rest.find(DID_YOU_MEAN) {
        rest = &rest[i + DID_YOU_MEAN.len()..];
        let Some(close) = rest.find('"') else { break };
        let suggested = &rest[..close];
        rest = &rest[close + 1..];
        if suggested == wrong || suggested.is_empty() || suggested.contains('\\') {
            continue;
        }
        let start = d.span.start as usize + at;
        found.push(one_edit(
            place,
            format!("Change \"{wrong}\" to \"{suggested}\""),
            crate::syntax::Span::new(start, start + wrong.len()),
            suggested.to_string(),
            false,
        ));
    }
    found
}

/// Where `name` is written in `text` as a whole name, when it is written there once.
fn only_occurrence(text: &str, name: &str) -> Option<usize> {
    if name.is_empty() {
        return None;
    }
    let is_name = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let mut found = text.match_indices(name).filter(|(i, _)| {
        let before = text[..*i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(is_name) && !after.is_some_and(is_name)
    });
    let (at, _) = found.next()?;
    found.next().is_none().then_some(at)
}

/// A quoted reference or keyword without its quotes, when the string holds nothing
/// but the reference (no escape or template sequence).
fn unquote(place: &Place, d: &Diagnostic) -> Option<Fix> {
    if d.detail != QUOTED_REFERENCE && d.detail != QUOTED_KEYWORD {
        return None;
    }
    let written = place.text(d.span)?;
    let inner = written.strip_prefix('"')?.strip_suffix('"')?;
    if inner.is_empty() || inner.contains(['\\', '"', '$', '%', '\n']) {
        return None;
    }
    Some(one_edit(
        place,
        "Remove the quotes".into(),
        d.span,
        inner.to_string(),
        true,
    ))
}
