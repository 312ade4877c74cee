//! What override files may not do (spec §1.4): an override without a base, blocks that
//! cannot appear in overrides, a non-empty `depends_on`, precondition/postcondition/
//! validation blocks. And, beyond Terraform, warnings for what Terraform silently drops
//! from an override file, which is almost always a mistake.

use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, MissingBase, SetAside};

/// Code of an override block without a base in a primary file.
pub const MISSING_BASE: &str = "override-missing-base";
/// Code of something an override file may not contain.
pub const NOT_ALLOWED: &str = "override-not-allowed";
/// Code of something Terraform silently ignores in an override file.
pub const IGNORED: &str = "override-ignored";

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for b in &m.missing_bases {
        let (summary, detail) = missing_base(b);
        out.push(at(
            m,
            b.origin,
            Severity::Error,
            MISSING_BASE,
            summary,
            detail,
        ));
    }
    for s in &m.set_aside {
        if let Some((severity, code, summary, detail)) = set_aside(s) {
            let mut d = at(m, s.origin, severity, code, summary, detail);
            // Inside an override of an object: point at the block it overrides.
            if let Some(object) = m.object_at(s.origin.file, s.origin.span.start as usize) {
                let decl = object.provenance().decl;
                if decl.file != s.origin.file {
                    d = d.with_related(m, decl, "base declaration");
                }
            }
            out.push(d);
        }
    }
}

fn missing_base(b: &MissingBase) -> (String, String) {
    let n = &b.name;
    let q = b.qualifier.as_deref().unwrap_or_default();
    match b.kind {
        "variable" => (
            "Missing base variable declaration to override".into(),
            format!("There is no variable named \"{n}\". An override file can only override a variable that was already declared in a primary configuration file."),
        ),
        "locals" => (
            "Missing base local value definition to override".into(),
            format!("There is no local value named \"{n}\". An override file can only override a local value that was already defined in a primary configuration file."),
        ),
        "output" => (
            "Missing base output definition to override".into(),
            format!("There is no output named \"{n}\". An override file can only override an output that was already defined in a primary configuration file."),
        ),
        "module" => (
            "Missing module call to override".into(),
            format!("There is no module call named \"{n}\". An override file can only override a module call that was defined in a primary configuration file."),
        ),
        "data" => (
            "Missing data resource to override".into(),
            format!("There is no {q} data resource named \"{n}\". An override file can only override a data block defined in a primary configuration file."),
        ),
        "ephemeral" => (
            "Missing ephemeral resource to override".into(),
            format!("There is no {q} ephemeral resource named \"{n}\". An override file can only override an ephemeral block defined in a primary configuration file."),
        ),
        "provider" => (
            "Missing base provider configuration for override".into(),
            format!("There is no {n} provider configuration with the alias \"{q}\". An override file can only override an aliased provider configuration that was already defined in a primary configuration file."),
        ),
        _ => (
            "Missing resource to override".into(),
            format!("There is no {q} resource named \"{n}\". An override file can only override a resource block defined in a primary configuration file."),
        ),
    }
}

fn set_aside(s: &SetAside) -> Option<(Severity, &'static str, String, String)> {
    let error = |summary: &str, detail: &str| {
        Some((
            Severity::Error,
            NOT_ALLOWED,
            summary.to_string(),
            detail.to_string(),
        ))
    };
    let ignored = |what: &str| {
        Some((
            Severity::Warning,
            IGNORED,
            "Ignored in an override file".to_string(),
            format!("Terraform silently ignores {what} in an override file: it has no effect here. Move it to a primary configuration file."),
        ))
    };
    match (s.kind.as_str(), s.rejected) {
        ("moved", _) => error(
            "Cannot override 'moved' blocks",
            "Records of moved objects can appear only in normal files, not in override files.",
        ),
        ("import", _) => error(
            "Cannot override 'import' blocks",
            "Import blocks can appear only in normal files, not in override files.",
        ),
        ("check", _) => error("Can't override check blocks", "Override files cannot override check blocks."),
        ("removed", true) => error(
            "Cannot override 'Removed' blocks",
            "Removed blocks can appear only in normal files, not in override files.",
        ),
        ("language", true) => error(
            "Language selections in override file",
            "Language-related settings in \"language\" blocks are not allowed in override files. Place these settings in a normal configuration file.",
        ),
        ("depends_on", true) => error("Unsupported override", "The depends_on argument may not be overridden."),
        (kind @ ("precondition" | "postcondition" | "validation"), true) => error(
            &format!("Can't override {kind} blocks"),
            &format!("Override files cannot override \"{kind}\" blocks."),
        ),
        ("removed", false) => ignored("a \"removed\" block"),
        ("ephemeral", false) => ignored("an \"ephemeral\" block"),
        ("provider_meta", false) => ignored("a \"provider_meta\" block"),
        (arg @ ("replace_triggered_by" | "enabled" | "destroy"), false) => {
            ignored(&format!("the lifecycle argument \"{arg}\""))
        }
        _ => None,
    }
}
