//! Calls to local child modules (a `source` Strata has read): arguments the child does not
//! declare, and required variables left unset. In a call an override file changes,
//! Terraform decodes the arguments partially and silently ignores unknown ones (spec
//! §1.5), so those get a warning instead; and, as in Terraform, required arguments are
//! looked for in the primary block only (spec §5 notes).

use super::arguments::{unknown_argument, Ignored};
use super::{at, ChildModules, Diagnostic, Severity};
use crate::merge::{header_span, literal_string, MergedModule, ModuleCall, Origin};

/// Code of a required argument a module call leaves unset.
pub const MODULE_ARGUMENT: &str = "module-argument";

pub(super) fn check(m: &MergedModule, children: ChildModules<'_>, out: &mut Vec<Diagnostic>) {
    for call in m.module_calls.values() {
        let Some(source) = call.source.as_ref().and_then(|s| literal_string(s.expr())) else {
            continue;
        };
        let Some(child) = children(source) else {
            continue;
        };
        let overridden = !call.provenance.overrides.is_empty();
        for a in &call.arguments.attributes {
            let name = &*a.attr.name.name;
            if child.variables.contains_key(name) {
                continue;
            }
            let origin = Origin {
                file: a.file,
                span: a.attr.name.span,
            };
            let names: Vec<&str> = child.variables.keys().map(String::as_str).collect();
            let ignored = overridden.then(|| Ignored {
                summary: "Argument ignored in an overridden module call",
                reason: format!("The module at \"{source}\" declares no variable \"{name}\"."),
                what: "a module call",
            });
            out.push(unknown_argument(m, origin, name, &names, ignored));
        }
        missing_required(m, call, &child, out);
    }
}

/// Required variables of the child (no default) that the call's primary block leaves unset.
fn missing_required(
    m: &MergedModule,
    call: &ModuleCall,
    child: &MergedModule,
    out: &mut Vec<Diagnostic>,
) {
    let decl = call.provenance.decl;
    let primary = m
        .file(decl.file)
        .syntax
        .body
        .blocks
        .iter()
        .find(|b| header_span(b) == decl.span);
    let Some(primary) = primary else { return };
    for (name, variable) in &child.variables {
        if variable.default.is_some() || primary.body.attribute(name).is_some() {
            continue;
        }
        let place = Origin {
            file: decl.file,
            span: super::decode::missing_item(m, decl.file, primary),
        };
        out.push(at(
            m,
            place,
            Severity::Error,
            MODULE_ARGUMENT,
            "Missing required argument".into(),
            format!("The argument \"{name}\" is required, but no definition was found."),
        ));
    }
}
