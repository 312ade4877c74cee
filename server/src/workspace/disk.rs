//! Reading configuration files from disk.

use std::path::Path;

use crate::module::{version_file_names, version_from_file, CoreVersion, Dialect, SourceFile};
use crate::text::encoding::decode_lossless;
use crate::text::read::{read_bounded, ReadError};

pub use crate::text::read::MAX_FILE_BYTES;

/// Reads and parses a file. A file that cannot be read or is too large becomes an empty
/// file with one error saying so; bytes that are not UTF-8 are read as HCL reads them
/// (`text::encoding`).
pub fn read_source(path: &Path, previous: Option<&SourceFile>) -> SourceFile {
    match read_text(path) {
        Ok((text, invalid)) => {
            SourceFile::parse_invalid(path.to_path_buf(), text.into(), &invalid, None, previous)
        }
        Err(problem) => SourceFile::unreadable(path, problem),
    }
}

/// The text of a file, with the offsets of its bytes that are not UTF-8.
fn read_text(path: &Path) -> Result<(String, Vec<usize>), String> {
    let shown = path.display();
    let bytes = read_bounded(path, MAX_FILE_BYTES).map_err(|e| match e {
        ReadError::TooLarge { size, limit } => {
            format!("The file {shown} is {size} bytes, larger than the {limit} bytes Strata reads.")
        }
        // What the operating system refused, in Terraform's words (`LoadHCLFile`).
        ReadError::Io(_) | ReadError::NotFound => {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default();
            format!("The file {name:?} could not be read.")
        }
        e => format!("The file {shown} could not be read: {e}."),
    })?;
    Ok(decode_lossless(bytes))
}

/// The names of the files in `dir` that are configuration in some dialect.
pub(super) fn config_names(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file() || t.is_symlink()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| super::is_config_name(n))
        .collect();
    names.sort();
    names
}

/// The version a version manager's file sets for a module in `dir`: the nearest
/// `.terraform-version` / `.opentofu-version` / `.tool-versions` in `dir` or a parent
/// that names an exact version.
pub fn version_file(dir: &Path, dialect: Dialect) -> Option<CoreVersion> {
    for ancestor in dir.ancestors() {
        for name in version_file_names(dialect) {
            let path = ancestor.join(name);
            let Ok(bytes) = read_bounded(&path, 64 * 1024) else {
                continue;
            };
            let text = String::from_utf8(bytes).unwrap_or_default();
            if let Some(version) = version_from_file(name, &text, dialect) {
                return Some(CoreVersion {
                    version,
                    source: path.display().to_string(),
                });
            }
        }
    }
    None
}
