//! The Terraform (or OpenTofu) version a module is checked against: the one the user's
//! version manager would pick (`.terraform-version`, `.opentofu-version` or
//! `.tool-versions` in the module's directory or a parent), else the version the user
//! set (`--terraform-version`, the `strata.terraformVersion` setting), else the release
//! Strata targets.

use std::fmt;

use crate::schema::Dialect;

/// The Terraform release Strata's rules follow (the one fixtures are recorded from).
pub const TARGET_TERRAFORM: &str = "1.11.4";
/// The OpenTofu release Strata's OpenTofu rules follow.
pub const TARGET_OPENTOFU: &str = "1.12.6";

/// A version in effect, and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoreVersion {
    /// The version, e.g. `1.11.4`.
    pub version: String,
    /// Where it came from, for hover: `.terraform-version in /x`, `the setting`, ...
    pub source: String,
}

impl CoreVersion {
    /// The release Strata targets in `dialect`.
    pub fn target(dialect: Dialect) -> Self {
        let version = match dialect {
            Dialect::Terraform => TARGET_TERRAFORM,
            Dialect::OpenTofu => TARGET_OPENTOFU,
        };
        Self {
            version: version.into(),
            source: "the release Strata targets".into(),
        }
    }
}

impl fmt::Display for CoreVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (from {})", self.version, self.source)
    }
}

/// The names of the version files that can set the version in `dialect`, most specific
/// first.
pub fn version_file_names(dialect: Dialect) -> [&'static str; 2] {
    match dialect {
        Dialect::Terraform => [".terraform-version", ".tool-versions"],
        Dialect::OpenTofu => [".opentofu-version", ".tool-versions"],
    }
}

/// The version a version file named `name` sets for `dialect`, if it sets an exact one
/// (`latest` and other keywords of version managers do not count).
pub fn version_from_file(name: &str, text: &str, dialect: Dialect) -> Option<String> {
    let candidate = if name == ".tool-versions" {
        let tool = match dialect {
            Dialect::Terraform => "terraform",
            Dialect::OpenTofu => "opentofu",
        };
        text.lines().find_map(|line| {
            let mut words = line.split_whitespace();
            (words.next() == Some(tool)).then(|| words.next()).flatten()
        })?
    } else {
        text.lines().map(str::trim).find(|l| !l.is_empty())?
    };
    let version = candidate.trim_start_matches('v');
    is_exact_version(version).then(|| version.to_string())
}

/// `1.2.3`, `1.2.3-beta1`: numbers separated by dots, with an optional pre-release.
pub fn is_exact_version(text: &str) -> bool {
    let core = text.split(['-', '+']).next().unwrap_or_default();
    let parts: Vec<&str> = core.split('.').collect();
    !parts.is_empty()
        && parts.len() <= 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_files_are_read_as_version_managers_write_them() {
        let tf = Dialect::Terraform;
        assert_eq!(
            version_from_file(".terraform-version", "1.5.7\n", tf).as_deref(),
            Some("1.5.7")
        );
        assert_eq!(
            version_from_file(".terraform-version", "latest\n", tf),
            None
        );
        let tools = "nodejs 20.1.0\nterraform 1.9.8\nopentofu 1.8.0\n";
        assert_eq!(
            version_from_file(".tool-versions", tools, tf).as_deref(),
            Some("1.9.8")
        );
        assert_eq!(
            version_from_file(".tool-versions", tools, Dialect::OpenTofu).as_deref(),
            Some("1.8.0")
        );
        assert_eq!(version_from_file(".tool-versions", "nodejs 20\n", tf), None);
    }
}
