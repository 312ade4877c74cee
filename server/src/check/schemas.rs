//! Resource types whose arguments Strata knows without a provider (DESIGN.md: built-in
//! knowledge): an argument they do not have is `Unsupported argument`, or, in a resource
//! an override file changes (Terraform then stops checking its arguments, spec §1.5), a
//! warning that it is silently ignored.

use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Mode, Origin};

/// Code of an argument a block's known schema does not have.
pub const BUILTIN_ARGUMENT: &str = "unsupported-argument";
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

/// An argument a block's known schema does not have: `Unsupported argument` (with a
/// suggestion among `known`), or, where an override file changes the block so that
/// Terraform stops checking its arguments, a warning that it is silently ignored.
pub(super) fn unknown_argument(
    m: &MergedModule,
    origin: Origin,
    name: &str,
    known: &[&str],
    ignored: Option<Ignored>,
) -> Diagnostic {
    match ignored {
        Some(i) => at(m, origin, Severity::Warning, OVERRIDE_UNKNOWN_ARGUMENT, i.summary.into(),
            format!("{} Terraform does not check the arguments of {} that an override file changes, so this one is silently ignored.", i.reason, i.what)),
        None => {
            let hint = super::references::suggestion_among(name, known)
                .map(|s| format!(" Did you mean {s:?}?"))
                .unwrap_or_default();
            at(m, origin, Severity::Error, BUILTIN_ARGUMENT, "Unsupported argument".into(),
                format!("An argument named \"{name}\" is not expected here.{hint}"))
        }
    }
}

/// The arguments of the resource types whose schema is fixed and known.
fn arguments(type_name: &str) -> Option<&'static [&'static str]> {
    match type_name {
        "terraform_data" => Some(&["input", "triggers_replace"]),
        "null_resource" => Some(&["triggers"]),
        _ => None,
    }
}

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for r in m.resources.values().filter(|r| r.key.mode == Mode::Managed) {
        let Some(known) = arguments(&r.key.type_name) else {
            continue;
        };
        let overridden = !r.provenance.overrides.is_empty();
        for a in &r.config.attributes {
            let name = &*a.attr.name.name;
            if known.contains(&name) {
                continue;
            }
            let origin = Origin {
                file: a.file,
                span: a.attr.name.span,
            };
            if overridden {
                out.push(at(m, origin, Severity::Warning, OVERRIDE_UNKNOWN_ARGUMENT,
                    "Argument ignored in an overridden resource".into(),
                    format!("{} has no argument \"{name}\". Terraform does not check the arguments of a resource that an override file changes, so this one is silently ignored.", r.key.type_name)));
            } else {
                let hint = super::references::suggestion_among(name, known)
                    .map(|s| format!(" Did you mean {s:?}?"))
                    .unwrap_or_default();
                out.push(at(
                    m,
                    origin,
                    Severity::Error,
                    BUILTIN_ARGUMENT,
                    "Unsupported argument".into(),
                    format!("An argument named \"{name}\" is not expected here.{hint}"),
                ));
            }
        }
    }
}
