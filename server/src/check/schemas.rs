//! Resource types whose arguments Strata knows without a provider (DESIGN.md: built-in
//! knowledge): an argument they do not have is `Unsupported argument`, or, in a resource
//! an override file changes (Terraform then stops checking its arguments, spec §1.5), a
//! warning that it is silently ignored.

use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Mode, Origin};

/// Code of an argument a built-in resource type does not have.
pub const BUILTIN_ARGUMENT: &str = "resource-argument";
/// Code of an unknown argument Terraform ignores because the resource is overridden.
pub const OVERRIDE_UNKNOWN_ARGUMENT: &str = super::modules::OVERRIDE_UNKNOWN_ARGUMENT;

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
