//! What the fuzz targets share: turning fuzzer bytes into the files of a module, and the
//! module snapshot the analysis layers read. Inputs are byte strings so that seeds can be
//! plain configuration files: one file's text, or several joined by a separator byte.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use strata::module::{CoreVersion, Dialect, FileSet, Module, SourceFile};

/// Separates the files of one input (a NUL byte: configuration text never holds one).
pub const FILE_SEPARATOR: u8 = 0;

/// Separates the parts of a plan input: root module, prior state, child module.
pub const PART_SEPARATOR: u8 = 1;

/// The names given to an input's files, in order: primary and override files of both
/// syntaxes, so that every merge path is reachable.
const FILE_NAMES: [&str; 6] = [
    "main.tf",
    "override.tf",
    "b.tf.json",
    "b_override.tf.json",
    "c.tf",
    "c_override.tf",
];

/// The text of `bytes` (invalid UTF-8 replaced, as an editor would show it).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The files `bytes` holds: its pieces between [`FILE_SEPARATOR`]s, named after
/// [`FILE_NAMES`] (pieces past the last name are dropped).
pub fn files(bytes: &[u8]) -> Vec<(&'static str, String)> {
    bytes
        .split(|&b| b == FILE_SEPARATOR)
        .zip(FILE_NAMES)
        .map(|(piece, name)| (name, text(piece)))
        .collect()
}

/// The module snapshot of `files` in `dir`, parsed as the workspace parses them.
pub fn module(dir: &Path, files: &[(&str, String)]) -> Module {
    let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    let set = FileSet::from_names(&names, Dialect::Terraform);
    let sources = set
        .in_load_order()
        .filter_map(|name| {
            let (_, text) = files.iter().find(|(n, _)| *n == name)?;
            Some(Arc::new(SourceFile::parse(
                dir.join(name),
                text.as_str().into(),
                None,
                None,
            )))
        })
        .collect();
    Module {
        dir: PathBuf::from(dir),
        dialect: Dialect::Terraform,
        files: set,
        sources,
        core_version: CoreVersion::target(Dialect::Terraform),
        revision: 1,
    }
}
