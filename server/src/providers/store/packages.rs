//! Packed provider packages (a mirror's `terraform-provider-<type>_<version>_<os>_<arch>.zip`)
//! unpacked into the cache, never into the workspace: once per archive content, in
//! `packages/<sha256 of the zip>/`, written to a temporary directory renamed into place
//! so that a reader never sees half a package. Unpacking is bounded: too many entries,
//! an entry or a whole package past its size limit, or a name that would leave the
//! directory (`../x`, `/x`) refuses the archive.

use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

use super::binaries::BinaryHashes;
use super::cache::{component, temporary_beside, Cache};
use crate::providers::locate::executable;

/// How much one archive may unpack to.
#[derive(Debug, Clone, Copy)]
pub struct UnpackLimits {
    /// Entries in the archive (a provider package holds a binary and a few texts).
    pub max_entries: usize,
    /// Bytes of one entry (the AWS provider's binary is about 700 MB).
    pub max_entry_bytes: u64,
    /// Bytes of all entries together.
    pub max_total_bytes: u64,
}

/// The limits Strata unpacks with.
pub const UNPACK_LIMITS: UnpackLimits = UnpackLimits {
    max_entries: 256,
    max_entry_bytes: 2 << 30,
    max_total_bytes: 3 << 30,
};

/// Why a packed package cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum UnpackError {
    /// Reading the archive or writing the cache failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The archive is not a zip file Strata can read.
    #[error("not a readable zip archive: {0}")]
    Zip(#[from] zip::result::ZipError),
    /// An entry's name leaves the directory it is unpacked into.
    #[error("the entry {0:?} would be written outside the package directory")]
    Escapes(String),
    /// Too many entries.
    #[error("it has {0} entries, more than the {max} Strata unpacks", max = UNPACK_LIMITS.max_entries)]
    TooManyEntries(usize),
    /// An entry, or the package, is larger than Strata unpacks.
    #[error("the entry {0:?} makes the package larger than Strata unpacks")]
    TooLarge(String),
    /// The package holds no `terraform-provider-<type>` executable.
    #[error("it holds no executable terraform-provider-{0}")]
    NoExecutable(String),
}

/// The executable of provider `type_name` in the packed package `archive`, unpacked into
/// `cache` unless it already is.
pub fn unpacked_executable(
    cache: &Cache,
    hashes: &BinaryHashes,
    archive: &Path,
    type_name: &str,
    limits: &UnpackLimits,
) -> Result<PathBuf, UnpackError> {
    let sha256 = hashes.sha256(archive)?;
    let dir = cache.dir().join("packages").join(component(&sha256));
    if !dir.is_dir() {
        unpack_atomically(archive, &dir, limits)?;
    }
    executable(&dir, type_name).ok_or_else(|| UnpackError::NoExecutable(type_name.into()))
}

/// Unpacks `archive` into a temporary directory beside `dir`, then renames it to `dir`;
/// another process that won the race leaves its (identical) directory in place.
fn unpack_atomically(archive: &Path, dir: &Path, limits: &UnpackLimits) -> Result<(), UnpackError> {
    let parent = dir
        .parent()
        .ok_or_else(|| std::io::Error::other("no parent directory"))?;
    std::fs::create_dir_all(parent)?;
    let temp = temporary_beside(dir, parent);
    let unpacked = unpack(archive, &temp, limits)
        .and_then(|()| std::fs::rename(&temp, dir).map_err(UnpackError::from));
    if unpacked.is_err() {
        let _ = std::fs::remove_dir_all(&temp);
        if dir.is_dir() {
            return Ok(());
        }
    }
    unpacked
}

/// Unpacks every entry of `archive` into `into`, within `limits`; files keep the
/// permissions the archive gives them (an executable stays one), and files without
/// Unix permissions (archives made on Windows) are executable, as a provider must be.
/// Symbolic links are not followed nor made.
pub fn unpack(archive: &Path, into: &Path, limits: &UnpackLimits) -> Result<(), UnpackError> {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(archive)?)?;
    if zip.len() > limits.max_entries {
        return Err(UnpackError::TooManyEntries(zip.len()));
    }
    std::fs::create_dir_all(into)?;
    let mut total: u64 = 0;
    for index in 0..zip.len() {
        let mut entry = zip.by_index(index)?;
        let name = entry.name().to_string();
        let target = into.join(relative_path(&name).ok_or(UnpackError::Escapes(name.clone()))?);
        if entry.is_dir() {
            std::fs::create_dir_all(&target)?;
            continue;
        }
        if entry.is_symlink() {
            continue;
        }
        let budget = limits
            .max_entry_bytes
            .min(limits.max_total_bytes.saturating_sub(total));
        if entry.size() > budget {
            return Err(UnpackError::TooLarge(name));
        }
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut out = std::fs::File::create(&target)?;
        // The declared size may lie: what is read is counted.
        let written = std::io::copy(&mut (&mut entry).take(budget + 1), &mut out)?;
        if written > budget {
            return Err(UnpackError::TooLarge(name));
        }
        out.flush()?;
        total += written;
        set_mode(&target, entry.unix_mode())?;
    }
    Ok(())
}

/// The relative path an entry name stands for, `None` when it would leave the directory
/// (absolute, a drive, `..`) or names nothing.
fn relative_path(name: &str) -> Option<PathBuf> {
    let path = Path::new(name);
    let mut relative = PathBuf::new();
    for part in path.components() {
        match part {
            Component::Normal(p) => relative.push(p),
            Component::CurDir => {}
            _ => return None,
        }
    }
    (!relative.as_os_str().is_empty()).then_some(relative)
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: Option<u32>) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = mode.map_or(0o755, |m| m & 0o777);
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_mode(_: &Path, _: Option<u32>) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
#[path = "packages_tests.rs"]
mod tests;
