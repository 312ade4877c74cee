//! Arguments a block does not take, wherever Strata knows the block's schema (lifecycle,
//! local module calls, built-in resource types), and Terraform's "Did you mean" for them
//! and for undeclared names.

use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Nested, Origin};
use crate::schema::{BlockSchema, Requirement};
use crate::syntax::Syntax;
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

/// The arguments a body of `schema` may set: every attribute but the computed-only ones.
pub(super) fn settable(schema: &BlockSchema) -> Vec<&str> {
    let attributes = schema.attributes.iter();
    let settable = attributes.filter(|a| a.requirement != Requirement::Computed);
    settable.map(|a| &*a.name).collect()
}

/// The arguments of an object an override file changes that its schema lacks, in each of
/// its written layers `bodies` (the merge with a schema leaves them out, spec §1.5),
/// leaving out the block's own arguments `meta` and JSON properties standing for nested
/// blocks: a warning each, `ignored(name)` saying why.
pub(super) fn ignored_in_layers(
    m: &MergedModule,
    bodies: &[Nested],
    meta: &[&str],
    schema: &BlockSchema,
    ignored: &dyn Fn(&str) -> Ignored,
    out: &mut Vec<Diagnostic>,
) {
    let known = settable(schema);
    let json = |file: u32| m.file(file).syntax.syntax == Syntax::Json;
    let blocks = |file: u32, name: &str| json(file) && schema.block(name, m.dialect).is_some();
    for layer in bodies {
        for a in &layer.block.body.attributes {
            let name = &*a.name.name;
            if meta.contains(&name) || blocks(layer.file, name) || known.contains(&name) {
                continue;
            }
            let origin = Origin {
                file: layer.file,
                span: a.name.span,
            };
            out.push(unknown_argument(
                m,
                origin,
                name,
                &known,
                Some(ignored(name)),
            ));
        }
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
