//! A module call's `source`: a constant string, read as Terraform reads module source
//! addresses (`internal/getmodules/moduleaddrs`). With `version` it must be a registry
//! address; without, a string that is neither local, nor a registry address, nor one any
//! installer recognizes is taken for a relative path written without `./`.
//! Only the errors Terraform reports while loading are reported; installation errors
//! (a registry that cannot be reached) are not.

use super::literal::{decoded, not_constant};
use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Origin};
use crate::syntax::Block;

/// Code of a module source address Terraform cannot read.
pub const MODULE_SOURCE: &str = "invalid-module-source";

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for (fi, file) in m.files.iter().enumerate() {
        for block in file.syntax.body.blocks_of("module") {
            call(m, fi as u32, block, out);
        }
    }
}

fn call(m: &MergedModule, file: u32, block: &Block, out: &mut Vec<Diagnostic>) {
    let Some(source) = block.body.attribute("source") else {
        return;
    };
    let problems = not_constant(m, file, &source.expr);
    if !problems.is_empty() {
        out.extend(problems);
        return;
    }
    // gohcl decodes a string, so numbers and booleans convert; a JSON string is taken as
    // written, `${` and all.
    let raw = match decoded(&source.expr) {
        Some(serde_json::Value::String(s)) => s,
        Some(serde_json::Value::Number(n)) => n.to_string(),
        Some(serde_json::Value::Bool(b)) => b.to_string(),
        _ => return,
    };
    let origin = Origin {
        file,
        span: source.expr.span,
    };
    let error = |summary: &str, detail: String| {
        at(
            m,
            origin,
            Severity::Error,
            MODULE_SOURCE,
            summary.into(),
            detail,
        )
    };
    let tool = match m.dialect {
        crate::schema::Dialect::Terraform => "Terraform",
        crate::schema::Dialect::OpenTofu => "OpenTofu",
    };
    if block.body.attribute("version").is_some() {
        if let Registry::Invalid(why) = registry(&raw) {
            out.push(error(
                "Invalid registry module source address",
                format!("Failed to parse module registry address: {why}.\n\n{tool} assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules."),
            ));
        }
        return;
    }
    if is_local(&raw) || registry(&raw) == Registry::Valid || is_remote(&raw) {
        return;
    }
    out.push(error(
        "Invalid module source address",
        format!("{tool} failed to determine your intended installation method for remote module package {raw:?}.\n\nIf you intended this as a path relative to the current module, use \"./{raw}\" instead. The \"./\" prefix indicates that the address is a relative filesystem path."),
    ));
}

/// A local path: `./x`, `../x` (either slash).
fn is_local(raw: &str) -> bool {
    ["./", "../", ".\\", "..\\"]
        .iter()
        .any(|p| raw.starts_with(p))
}

/// Whether a module `source` is a registry address as Terraform reads one (not local, no
/// installer prefix, three or four parts): what the editor links to registry pages.
pub fn is_registry_source(raw: &str) -> bool {
    !is_local(raw) && !is_remote(raw) && registry(raw) == Registry::Valid
}

/// What Strata can tell of a string as a registry address.
#[derive(Debug, PartialEq, Eq)]
enum Registry {
    /// `namespace/name/system` or `host/namespace/name/system`, with a subdirectory.
    Valid,
    /// Not one, for the reason Terraform gives.
    Invalid(String),
    /// Not one, for a reason whose wording Strata does not know; nothing is reported.
    Unknown,
}

fn registry(raw: &str) -> Registry {
    if is_local(raw) {
        return Registry::Invalid(format!(
            "can't use local directory {raw:?} as a module registry address"
        ));
    }
    let package = package_part(raw);
    let parts: Vec<&str> = package.split('/').collect();
    let (host, rest) = match parts.len() {
        3 => (None, &parts[..]),
        4 => (Some(parts[0]), &parts[1..]),
        _ => {
            return Registry::Invalid(
                "a module registry source address must have either three or four slash-separated components".into(),
            )
        }
    };
    if let Some(host) = host {
        if !is_hostname(host) {
            return Registry::Invalid(format!("invalid module registry hostname {host:?}"));
        }
        if matches!(host, "github.com" | "bitbucket.org") {
            return Registry::Unknown;
        }
    }
    let name_ok = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    if rest.iter().all(|p| name_ok(p)) {
        Registry::Valid
    } else {
        Registry::Unknown
    }
}

/// The address without a `//subdirectory` (after any `scheme://`).
fn package_part(raw: &str) -> &str {
    let after_scheme = raw.find("://").map_or(0, |i| i + 3);
    match raw[after_scheme..].find("//") {
        Some(i) => &raw[..after_scheme + i],
        None => raw,
    }
}

/// A host name as a registry host may be written: labels of letters, digits and dashes,
/// with an optional port.
fn is_hostname(host: &str) -> bool {
    let (name, port) = match host.rsplit_once(':') {
        Some((name, port)) => (name, Some(port)),
        None => (host, None),
    };
    let labels_ok = !name.is_empty()
        && name
            .split('.')
            .all(|l| !l.is_empty() && l.chars().all(|c| c.is_alphanumeric() || c == '-'));
    labels_ok && port.is_none_or(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

/// An address one of Terraform's installers recognizes: a forced installer (`git::`), a
/// URL, or a shorthand for GitHub, Bitbucket, Git over SSH, S3 or GCS.
fn is_remote(raw: &str) -> bool {
    raw.contains("::")
        || raw.contains("://")
        || ["github.com/", "bitbucket.org/", "git@"]
            .iter()
            .any(|p| raw.starts_with(p))
        || raw.contains(".amazonaws.com/")
        || raw.contains("googleapis.com/")
        || raw.starts_with('/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_addresses_are_read_as_terraform_reads_them() {
        assert_eq!(registry("hashicorp/consul/aws"), Registry::Valid);
        assert_eq!(registry("app.terraform.io/a/b/c"), Registry::Valid);
        assert_eq!(registry("hashicorp/consul/aws//modules/x"), Registry::Valid);
        assert!(matches!(registry("./x"), Registry::Invalid(_)));
        assert!(matches!(registry("a/b"), Registry::Invalid(_)));
        assert_eq!(
            registry("git::https://example.com/x.git"),
            Registry::Invalid("invalid module registry hostname \"git::https:\"".into())
        );
        assert!(is_remote("git::https://example.com/x.git"));
        assert!(is_remote("github.com/hashicorp/example"));
        assert!(!is_remote("child"));
    }
}
