//! Resource types whose arguments Strata knows without a provider (DESIGN.md: built-in
//! knowledge): an argument they do not have is `Unsupported argument`, or, in a resource
//! an override file changes (Terraform then stops checking its arguments, spec §1.5), a
//! warning that it is silently ignored (the rule is `arguments::unknown_argument`).

use super::arguments::{unknown_argument, Ignored};
use super::Diagnostic;
use crate::merge::{MergedModule, Mode, Origin};

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
            let ignored = overridden.then(|| Ignored {
                summary: "Argument ignored in an overridden resource",
                reason: format!("{} has no argument \"{name}\".", r.key.type_name),
                what: "a resource",
            });
            out.push(unknown_argument(m, origin, name, known, ignored));
        }
    }
}
