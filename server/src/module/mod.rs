//! Which files make a module, and in what order Terraform reads them (spec §1.1).
//!
//! A module is one directory (never its sub-directories). Its configuration files are
//! primary files in byte order of their names, then override files in byte order. OpenTofu
//! also reads `.tofu` files, and a `.tofu` twin hides the `.tf` file of the same stem.

mod core_version;
mod source;

use std::path::PathBuf;
use std::sync::Arc;

use crate::syntax::Syntax;

pub use core_version::{
    is_exact_version, version_file_names, version_from_file, CoreVersion, TARGET_OPENTOFU,
    TARGET_TERRAFORM,
};
pub use source::SourceFile;

pub use crate::schema::Dialect;

/// The dialect of a directory: OpenTofu when any of its files is a `.tofu` file, else
/// Terraform.
pub fn detect_dialect<'a>(names: impl IntoIterator<Item = &'a str>) -> Dialect {
    let tofu = names
        .into_iter()
        .any(|n| !is_ignored(n) && (n.ends_with(".tofu") || n.ends_with(".tofu.json")));
    if tofu {
        Dialect::OpenTofu
    } else {
        Dialect::Terraform
    }
}

/// Whether a configuration file is a primary file or an override file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileRole {
    /// Declares objects; duplicates among primary files are errors.
    Primary,
    /// `override.tf`, `*_override.tf`: merged into what the primary files declare.
    Override,
}

/// What a file name says about a file, for one dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConfigFileKind {
    /// Primary or override.
    pub role: FileRole,
    /// Native or JSON syntax.
    pub syntax: Syntax,
}

/// Editors' temporary and hidden files, which Terraform skips: a leading `.`, a trailing
/// `~`, or `#...#`.
pub fn is_ignored(name: &str) -> bool {
    name.starts_with('.')
        || name.ends_with('~')
        || (name.len() >= 2 && name.starts_with('#') && name.ends_with('#'))
}

/// The extensions of configuration files, longest first within each pair so that
/// `x.tf.json` is not mistaken for something ending in `.json` alone.
const EXTENSIONS: &[(&str, Syntax, bool)] = &[
    (".tf.json", Syntax::Json, false),
    (".tf", Syntax::Native, false),
    (".tofu.json", Syntax::Json, true),
    (".tofu", Syntax::Native, true),
];

/// Classifies a file name; `None` for anything that is not module configuration in
/// `dialect` (ignored names, `.tfvars`, test files, `.tofu` files under Terraform, ...).
pub fn classify(name: &str, dialect: Dialect) -> Option<ConfigFileKind> {
    if is_ignored(name) {
        return None;
    }
    let (stem, syntax) = split_extension(name, dialect)?;
    let role = if stem == "override" || stem.ends_with("_override") {
        FileRole::Override
    } else {
        FileRole::Primary
    };
    Some(ConfigFileKind { role, syntax })
}

/// The stem and syntax of a configuration file name.
fn split_extension(name: &str, dialect: Dialect) -> Option<(&str, Syntax)> {
    EXTENSIONS.iter().find_map(|(ext, syntax, tofu_only)| {
        if *tofu_only && dialect != Dialect::OpenTofu {
            return None;
        }
        name.strip_suffix(ext).map(|stem| (stem, *syntax))
    })
}

/// The `.tofu` twin that would hide this `.tf` file: `a.tf` → `a.tofu`,
/// `a.tf.json` → `a.tofu.json`.
fn tofu_twin(name: &str) -> Option<String> {
    if let Some(stem) = name.strip_suffix(".tf.json") {
        Some(format!("{stem}.tofu.json"))
    } else {
        name.strip_suffix(".tf").map(|stem| format!("{stem}.tofu"))
    }
}

/// The configuration files of one directory, in the order Terraform loads them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileSet {
    /// Primary files, byte-sorted.
    pub primary: Vec<String>,
    /// Override files, byte-sorted.
    pub overrides: Vec<String>,
}

impl FileSet {
    /// Sorts and classifies the names of the files in a directory.
    pub fn from_names<S: AsRef<str>>(names: &[S], dialect: Dialect) -> Self {
        let mut names: Vec<&str> = names.iter().map(AsRef::as_ref).collect();
        names.sort_unstable(); // `str` ordering is byte order, as Go's.
        names.dedup();
        let mut set = FileSet::default();
        for name in &names {
            let Some(kind) = classify(name, dialect) else {
                continue;
            };
            let hidden = dialect == Dialect::OpenTofu
                && tofu_twin(name).is_some_and(|twin| names.binary_search(&twin.as_str()).is_ok());
            if hidden {
                continue;
            }
            match kind.role {
                FileRole::Primary => set.primary.push(name.to_string()),
                FileRole::Override => set.overrides.push(name.to_string()),
            }
        }
        set
    }

    /// Every file, primary files first.
    pub fn in_load_order(&self) -> impl Iterator<Item = &str> {
        self.primary
            .iter()
            .chain(self.overrides.iter())
            .map(String::as_str)
    }

    /// Whether the directory holds any configuration file.
    pub fn is_empty(&self) -> bool {
        self.primary.is_empty() && self.overrides.is_empty()
    }
}

/// The configuration files of one directory, parsed, in load order.
#[derive(Debug)]
pub struct Module {
    /// The directory.
    pub dir: PathBuf,
    /// The dialect its files are read in.
    pub dialect: Dialect,
    /// Primary and override file names, in load order.
    pub files: FileSet,
    /// The parsed files, primary files first, in load order.
    pub sources: Vec<Arc<SourceFile>>,
    /// The Terraform or OpenTofu version the module is checked against.
    pub core_version: CoreVersion,
    /// Increases every time any module of the workspace is rebuilt.
    pub revision: u64,
}

impl Module {
    /// The parsed file called `name`, if it belongs to the module.
    pub fn source(&self, name: &str) -> Option<&Arc<SourceFile>> {
        self.sources.iter().find(|s| s.name() == name)
    }

    /// The module as Terraform reads it, when a file's parse skipped items (see
    /// `SourceFile::read_by_terraform`); `None` when Terraform reads every item.
    pub fn read_by_terraform(&self) -> Option<Module> {
        let read: Vec<Option<SourceFile>> =
            self.sources.iter().map(|s| s.read_by_terraform()).collect();
        if read.iter().all(Option::is_none) {
            return None;
        }
        let sources = self
            .sources
            .iter()
            .zip(read)
            .map(|(source, read)| read.map_or_else(|| source.clone(), Arc::new))
            .collect();
        Some(Module {
            dir: self.dir.clone(),
            dialect: self.dialect,
            files: self.files.clone(),
            sources,
            core_version: self.core_version.clone(),
            revision: self.revision,
        })
    }

    /// Total bytes of source text.
    pub fn source_bytes(&self) -> usize {
        self.sources.iter().map(|s| s.text.len()).sum()
    }
}

#[cfg(test)]
mod tests;
