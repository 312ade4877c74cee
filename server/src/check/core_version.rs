//! `Unsupported Terraform Core version`: a `required_version` constraint that the
//! version in effect (`Module::core_version`) does not meet, checked as go-version checks
//! constraints. An override file's `required_version` replaces the primary files' ones.

use super::{at, Diagnostic, Severity};
use crate::eval::constant;
use crate::merge::{MergedModule, Origin};
use crate::module::Module;
use crate::schema::Dialect;
use crate::syntax::{Span, Syntax};

/// Code of a version constraint the version in effect does not meet.
pub const CORE_VERSION: &str = "unsupported-core-version";

pub(super) fn check(module: &Module, m: &MergedModule, out: &mut Vec<Diagnostic>) {
    let version = &module.core_version.version;
    prerelease(m, out);
    for (file, span) in unmet(m, version) {
        let tool = tool(m);
        out.push(at(
            m,
            Origin { file, span },
            Severity::Error,
            CORE_VERSION,
            format!("Unsupported {tool} Core version"),
            format!("This configuration does not support {tool} version {version}. {PROCEED}")
                .replace("{tool}", tool),
        ));
    }
}

/// What Terraform says after naming the module and the version.
const PROCEED: &str = "To proceed, either choose another supported {tool} version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior.";

/// The same check for a child module, as its caller (checked as the root) reports it:
/// the module's path and source are named.
pub(super) fn check_child(
    child: &MergedModule,
    version: &str,
    path: &str,
    source: &str,
    out: &mut Vec<Diagnostic>,
) {
    prerelease(child, out);
    for (file, span) in unmet(child, version) {
        let tool = tool(child);
        out.push(at(
            child,
            Origin { file, span },
            Severity::Error,
            CORE_VERSION,
            format!("Unsupported {tool} Core version"),
            format!("Module {path} (from {source}) does not support {tool} version {version}. {PROCEED}").replace("{tool}", tool),
        ));
    }
}

fn tool(m: &MergedModule) -> &'static str {
    match m.dialect {
        Dialect::Terraform => "Terraform",
        Dialect::OpenTofu => "OpenTofu",
    }
}

/// `Invalid required_version constraint` for each part of a constraint in force that
/// names a pre-release: Terraform refuses those, and checks nothing else of the
/// constraint (so `unmet` leaves it out).
fn prerelease(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for (file, span, text) in in_force(m) {
        for part in prerelease_parts(&text) {
            // Terraform names itself in lower case here, OpenTofu does not.
            let tool = match m.dialect {
                Dialect::Terraform => "terraform",
                Dialect::OpenTofu => "OpenTofu",
            };
            let detail = format!("Prerelease version constraints are not supported: {part}. Remove the prerelease information from the constraint. Prerelease versions of {tool} will match constraints using their version core only.");
            out.push(at(
                m,
                Origin { file, span },
                Severity::Error,
                CORE_VERSION,
                "Invalid required_version constraint".into(),
                detail,
            ));
        }
    }
}

/// The parts of a valid constraint that name a pre-release, as written (go-version
/// keeps the spaces around a part).
fn prerelease_parts(text: &str) -> Vec<&str> {
    if !super::versions::is_constraint(text) {
        return Vec::new();
    }
    text.split(',')
        .filter(|part| {
            let at = part.find(|c: char| c.is_ascii_digit() || c == 'v');
            at.and_then(|at| Version::parse(&part[at..]))
                .is_some_and(|v| !v.pre.is_empty())
        })
        .collect()
}

/// The `required_version` arguments in force that `version` does not meet.
fn unmet(m: &MergedModule, version: &str) -> Vec<(u32, Span)> {
    let Some(version) = Version::parse(version) else {
        return Vec::new();
    };
    in_force(m)
        .into_iter()
        .filter(|(_, _, text)| prerelease_parts(text).is_empty())
        .filter(|(_, _, text)| allows(text, &version) == Some(false))
        .map(|(file, span, _)| (file, span))
        .collect()
}

/// The `required_version` constraints in force: an override file's replace the primary
/// files' ones.
fn in_force(m: &MergedModule) -> Vec<(u32, Span, String)> {
    let mut constraints = Vec::new();
    let mut from_overrides = Vec::new();
    for (fi, file) in m.files.iter().enumerate() {
        if file.syntax.syntax == Syntax::Json {
            continue;
        }
        let mut found = Vec::new();
        for t in file.syntax.body.blocks_of("terraform") {
            if let Some(a) = t.body.attribute("required_version") {
                if let Some(serde_json::Value::String(s)) = constant(&a.expr) {
                    found.push((fi as u32, a.span, s));
                }
            }
        }
        if m.is_override_file(fi as u32) {
            if !found.is_empty() {
                from_overrides = found;
            }
        } else {
            constraints.extend(found);
        }
    }
    if !from_overrides.is_empty() {
        constraints = from_overrides;
    }
    constraints
}

/// A version as go-version reads it: numeric segments (at least three, zero-padded), how
/// many were written, and a pre-release.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Version {
    segments: Vec<u64>,
    written: usize,
    pre: String,
}

impl Version {
    fn parse(text: &str) -> Option<Self> {
        let text = text.trim().trim_start_matches('v');
        let text = text.split('+').next()?;
        let (core, pre) = match text.split_once('-') {
            Some((c, p)) => (c, p.to_string()),
            None => (text, String::new()),
        };
        let mut segments: Vec<u64> = core
            .split('.')
            .map(|s| s.parse().ok())
            .collect::<Option<_>>()?;
        let written = segments.len();
        while segments.len() < 3 {
            segments.push(0);
        }
        Some(Self {
            segments,
            written,
            pre,
        })
    }

    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let n = self.segments.len().max(other.segments.len());
        for i in 0..n {
            let a = self.segments.get(i).copied().unwrap_or(0);
            let b = other.segments.get(i).copied().unwrap_or(0);
            if a != b {
                return a.cmp(&b);
            }
        }
        match (self.pre.is_empty(), other.pre.is_empty()) {
            (true, true) => std::cmp::Ordering::Equal,
            (true, false) => std::cmp::Ordering::Greater,
            (false, true) => std::cmp::Ordering::Less,
            (false, false) => self.pre.cmp(&other.pre),
        }
    }
}

/// Whether `version` meets every constraint of `text`; `None` when `text` is not a
/// constraint (reported elsewhere).
fn allows(text: &str, version: &Version) -> Option<bool> {
    if !super::versions::is_constraint(text) {
        return None;
    }
    for part in text.split(',') {
        let part = part.trim();
        let split = part
            .find(|c: char| c.is_ascii_digit() || c == 'v')
            .unwrap_or(part.len());
        let (op, rest) = part.split_at(split);
        let c = Version::parse(rest)?;
        // A pre-release version meets only constraints on the same pre-release line.
        let pre_ok =
            version.pre.is_empty() || (!c.pre.is_empty() && c.segments == version.segments);
        let order = version.cmp(&c);
        let ok = match op.trim() {
            "" | "=" => order.is_eq(),
            "!=" => !order.is_eq(),
            ">" => pre_ok && order.is_gt(),
            "<" => pre_ok && order.is_lt(),
            ">=" => pre_ok && order.is_ge(),
            "<=" => pre_ok && order.is_le(),
            "~>" => {
                let prefix = c.written.saturating_sub(1);
                pre_ok && order.is_ge() && version.segments[..prefix] == c.segments[..prefix]
            }
            _ => return None,
        };
        if !ok {
            return Some(false);
        }
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(constraint: &str, version: &str) -> bool {
        allows(constraint, &Version::parse(version).unwrap()).unwrap()
    }

    #[test]
    fn constraints_are_checked_as_go_version_checks_them() {
        assert!(ok(">= 1.0", "1.11.4"));
        assert!(!ok("< 1.0", "1.11.4"));
        assert!(ok(">= 1.0, < 2.0", "1.11.4"));
        assert!(!ok(">= 1.0, < 1.11", "1.11.4"));
        assert!(ok("~> 1.11.0", "1.11.4"));
        assert!(!ok("~> 1.10.0", "1.11.4"));
        assert!(ok("~> 1.5", "1.11.4"));
        assert!(!ok("~> 0.15", "1.11.4"));
        assert!(ok("1.11.4", "1.11.4"));
        assert!(!ok("!= 1.11.4", "1.11.4"));
        assert!(!ok(">= 1.0", "1.12.0-beta1"));
        assert!(ok(">= 1.12.0-alpha1", "1.12.0-beta1"));
    }
}
