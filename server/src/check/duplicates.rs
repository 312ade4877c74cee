//! Objects declared twice among primary files (spec §1.3), reported on the later
//! declaration with the earlier one's range in the detail.

use super::{at, range_text, Diagnostic, Severity};
use crate::merge::{Duplicate, MergedModule};
use crate::module::Dialect;

/// Code of every duplicate-declaration error.
pub const DUPLICATE: &str = "duplicate-declaration";

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for d in &m.duplicates {
        if let Some((summary, detail)) = texts(m, d) {
            out.push(
                at(m, d.later, Severity::Error, DUPLICATE, summary, detail).with_related(
                    m,
                    d.first,
                    "first declared here",
                ),
            );
        }
    }
}

/// Terraform's summary and detail (OpenTofu's where the dialect's wording differs).
fn texts(m: &MergedModule, d: &Duplicate) -> Option<(String, String)> {
    let r = range_text(m, d.first);
    let n = &d.name;
    let tofu = m.dialect == Dialect::OpenTofu;
    let qualifier = d.qualifier.as_deref().unwrap_or_default();
    Some(match d.kind {
        "variable" => (
            "Duplicate variable declaration".into(),
            format!("A variable named \"{n}\" was already declared at {r}. Variable names must be unique within a module."),
        ),
        "locals" => (
            "Duplicate local value definition".into(),
            format!("A local value named \"{n}\" was already defined at {r}. Local value names must be unique within a module."),
        ),
        "output" => (
            "Duplicate output definition".into(),
            format!("An output named \"{n}\" was already defined at {r}. Output names must be unique within a module."),
        ),
        "module" => (
            "Duplicate module call".into(),
            format!("A module call named \"{n}\" was already defined at {r}. Module calls must have unique names within a module."),
        ),
        "resource" => (
            format!("Duplicate resource \"{qualifier}\" configuration"),
            format!("A {qualifier} resource named \"{n}\" was already declared at {r}. Resource names must be unique per type in each module."),
        ),
        "data" => (
            format!("Duplicate data \"{qualifier}\" configuration"),
            format!("A {qualifier} data resource named \"{n}\" was already declared at {r}. Resource names must be unique per type in each module."),
        ),
        "ephemeral" => (
            if tofu {
                format!("Duplicate ephemeral resource \"{qualifier}\" configuration")
            } else {
                format!("Duplicate ephemeral \"{qualifier}\" configuration")
            },
            format!("A {qualifier} ephemeral resource named \"{n}\" was already declared at {r}. Resource names must be unique per type in each module."),
        ),
        "provider" => match &d.qualifier {
            None => (
                "Duplicate provider configuration".into(),
                format!("A default (non-aliased) provider configuration for \"{n}\" was already given at {r}. If multiple configurations are required, set the \"alias\" argument for alternative configurations."),
            ),
            Some(alias) => (
                "Duplicate provider configuration".into(),
                format!("A provider configuration for \"{n}\" with alias \"{alias}\" was already given at {r}. Each configuration for the same provider must have a distinct alias."),
            ),
        },
        "required_providers" => (
            "Duplicate required providers configuration".into(),
            format!("A module may have only one required providers configuration. The required providers were previously configured at {r}."),
        ),
        "override backend" => (
            "Duplicate backend configuration".into(),
            format!("Each override file may have only one backend configuration. A backend was previously configured at {r}."),
        ),
        "override cloud" => (
            if tofu {
                "Duplicate cloud configurations".into()
            } else {
                "Duplicate HCP Terraform configurations".into()
            },
            format!("Each override file may have only one cloud configuration. A cloud configuration was previously declared at {r}."),
        ),
        // Primary files: Terraform 1.13+ and OpenTofu word these differently; OpenTofu's
        // detail is the spec's, Terraform's newer details are not (the same sentence is
        // used for both).
        "backend" if d.first_kind == Some("cloud") => (
            if tofu {
                "Both a backend and a cloud configuration are present".into()
            } else {
                "Conflicting 'cloud' and 'backend' configuration blocks are present".into()
            },
            format!("A module may have only one backend configuration. A cloud configuration was previously declared at {r}."),
        ),
        "cloud" if d.first_kind == Some("backend") => (
            if tofu {
                "Both a backend and a cloud configuration are present".into()
            } else {
                "Conflicting 'cloud' and 'backend' configuration blocks are present".into()
            },
            format!("A module may have only one backend configuration. The backend was previously configured at {r}."),
        ),
        "backend" => (
            if tofu {
                "Duplicate backend configuration".into()
            } else {
                "Duplicate 'backend' configuration block".into()
            },
            format!("A module may have only one backend configuration. The backend was previously configured at {r}."),
        ),
        "cloud" => (
            if tofu {
                "Duplicate cloud configurations".into()
            } else {
                "Duplicate HCP Terraform configurations".into()
            },
            format!("A module may have only one cloud configuration. The cloud configuration was previously declared at {r}."),
        ),
        _ => return None,
    })
}
