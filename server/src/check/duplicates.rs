//! Objects declared twice among primary files (spec §1.3), reported on the later
//! declaration with the earlier one's range in the detail.

use super::{at, range_text, Diagnostic, Severity};
use crate::merge::{Duplicate, MergedModule};
use crate::module::Dialect;

/// Code of every duplicate-declaration error.
pub const DUPLICATE: &str = "duplicate-declaration";

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    checks(m, out);
    for d in &m.duplicates {
        if let Some(diagnostic) = backend_and_cloud(m, d) {
            out.push(diagnostic);
            continue;
        }
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

/// Two `check` blocks with one name (Terraform's module.go; not part of the merge's
/// duplicates, since check blocks are not merged).
fn checks(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for (i, later) in m.checks.iter().enumerate() {
        let Some(name) = later.block.label(0) else {
            continue;
        };
        let first = m.checks[..i]
            .iter()
            .find(|c| c.block.label(0) == Some(name));
        let Some(first) = first else { continue };
        let (first, later) = (first.header_origin(), later.header_origin());
        let r = range_text(m, first);
        out.push(
            at(
                m,
                later,
                Severity::Error,
                DUPLICATE,
                format!("Duplicate check \"{name}\" configuration"),
                format!("A check block named \"{name}\" was already declared at {r}. Check blocks must be unique within each module."),
            )
            .with_related(m, first, "first declared here"),
        );
    }
}

/// Terraform 1.11 reports a backend beside a `cloud` block on the backend, naming both.
fn backend_and_cloud(m: &MergedModule, d: &Duplicate) -> Option<Diagnostic> {
    if m.dialect != Dialect::Terraform {
        return None;
    }
    let (backend, cloud) = match (d.kind, d.first_kind) {
        ("backend", Some("cloud")) => (d.later, d.first),
        ("cloud", Some("backend")) => (d.first, d.later),
        _ => return None,
    };
    let detail = format!(
        "A module may declare either one 'cloud' block OR one 'backend' block configuring a state backend. The 'cloud' block is configured at {}; a backend is configured at {}. Remove the backend block to configure HCP Terraform or Terraform Enteprise.",
        range_text(m, cloud),
        range_text(m, backend)
    );
    let summary = "Both a backend and cloud configuration are present".to_string();
    Some(
        at(m, backend, Severity::Error, DUPLICATE, summary, detail).with_related(
            m,
            cloud,
            "the cloud block",
        ),
    )
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
            "Duplicate backend configuration".into(),
            format!("A module may have only one backend configuration. The backend was previously configured at {r}."),
        ),
        "cloud" if tofu => (
            "Duplicate cloud configurations".into(),
            format!("A module may have only one cloud configuration. The cloud configuration was previously declared at {r}."),
        ),
        "cloud" => (
            "Duplicate HCP Terraform configurations".into(),
            format!("A module may have only one 'cloud' block configuring HCP Terraform or Terraform Enterprise. The 'cloud' block was previously configured at {r}."),
        ),
        _ => return None,
    })
}
