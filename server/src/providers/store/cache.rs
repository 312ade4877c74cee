//! The on-disk cache of provider schemas, in the user's cache directory
//! (`$STRATA_CACHE_DIR`, else `$XDG_CACHE_HOME/strata` or `~/.cache/strata` on Linux,
//! `~/Library/Caches/strata` on macOS, `%LOCALAPPDATA%\strata` on Windows).
//!
//! An entry is keyed by provider address, version and the SHA-256 of the binary it was
//! read from: `schemas-2/<host>/<namespace>/<type>/<version>/<sha256>.schema`. A schema
//! file imported with `strata schemas import` has no binary: `imported.schema`, under
//! its version or `unversioned`. Writes go to a temporary file renamed into place, so a
//! reader never sees half an entry; an entry that does not decode is deleted and read
//! again from its source, never reported to the user as an error.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::binaries::{hex, BinaryHashes};
use super::entry::LazySchema;
use crate::schema::ProviderAddress;

/// The directory of the entries, named after their format: a change to what an entry
/// holds (an empty provider block told apart from none, since `ResourceSchema::blockless`)
/// gets a new name, so that entries written before it are never read (they stay behind,
/// unread, in the older directory).
const SCHEMAS_DIR: &str = "schemas-2";
/// The directory name for a schema without a version.
const UNVERSIONED: &str = "unversioned";
/// The file name of an imported schema.
const IMPORTED: &str = "imported.schema";
/// The extension of entries read from a binary.
const EXTENSION: &str = "schema";

/// What identifies one cached schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheKey {
    /// The provider.
    pub address: ProviderAddress,
    /// Its version; `None` for an import that named none.
    pub version: Option<String>,
    /// The SHA-256 of its binary; `None` for an import.
    pub binary_sha256: Option<String>,
}

/// The cache directory.
#[derive(Debug, Clone)]
pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    /// The user's cache (`None` when the system names no cache directory).
    pub fn user() -> Option<Self> {
        let dir = match std::env::var_os("STRATA_CACHE_DIR").filter(|d| !d.is_empty()) {
            Some(dir) => PathBuf::from(dir),
            None => dirs::cache_dir()?.join("strata"),
        };
        Some(Self { dir })
    }

    /// A cache in `dir`.
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// Its directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The index of binary hashes kept in this cache.
    pub fn binary_hashes(&self) -> BinaryHashes {
        BinaryHashes::open(self.dir.join("binaries.json"))
    }

    /// The directory of one provider version's entries.
    fn version_dir(&self, address: &ProviderAddress, version: Option<&str>) -> PathBuf {
        let mut dir = self.dir.join(SCHEMAS_DIR);
        for part in [&address.hostname, &address.namespace, &address.type_name] {
            dir.push(component(part));
        }
        dir.join(version.map_or_else(|| UNVERSIONED.to_string(), component))
    }

    /// Where the entry of `key` lives.
    pub fn entry_path(&self, key: &CacheKey) -> PathBuf {
        let dir = self.version_dir(&key.address, key.version.as_deref());
        match &key.binary_sha256 {
            Some(sha) => dir.join(format!("{}.{EXTENSION}", component(sha))),
            None => dir.join(IMPORTED),
        }
    }

    /// The entry of `key`, if cached and intact; a damaged one is removed.
    pub fn get(&self, key: &CacheKey) -> Option<LazySchema> {
        read_entry(&self.entry_path(key))
    }

    /// Any intact entry of `address` at `version` (`None`: the unversioned import), the
    /// import first: a schema for the version when its binary cannot be run.
    pub fn any_of_version(
        &self,
        address: &ProviderAddress,
        version: Option<&str>,
    ) -> Option<LazySchema> {
        let dir = self.version_dir(address, version);
        if let Some(imported) = read_entry(&dir.join(IMPORTED)) {
            return Some(imported);
        }
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == EXTENSION))
            .collect();
        files.sort();
        files.iter().find_map(|f| read_entry(f))
    }

    /// Stores an entry's bytes under `key`, atomically.
    pub fn put(&self, key: &CacheKey, bytes: &[u8]) -> std::io::Result<PathBuf> {
        let path = self.entry_path(key);
        write_atomic(&path, bytes)?;
        Ok(path)
    }

    /// Takes the machine-wide right to start the binary of `key`, so that two Strata
    /// processes do not both start a 700 MB provider for the same schema: `Started` when
    /// this process should start it (the guard releases the right when dropped),
    /// `Cached` when another process filled the entry meanwhile. A right older than
    /// `STALE` is taken over (its holder died).
    pub fn start_right(&self, key: &CacheKey, wait: Duration) -> StartRight {
        let entry = self.entry_path(key);
        let lock = entry.with_extension("starting");
        let deadline = SystemTime::now() + wait;
        loop {
            if let Some(parent) = lock.parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            let taken = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&lock);
            let guard = match taken {
                Ok(_) => Some(StartGuard(lock.clone())),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => None,
                // Cannot lock (a read-only cache): start it anyway.
                Err(_) => Some(StartGuard(PathBuf::new())),
            };
            // Checked with the right held too: its last holder may have just written it.
            if let Some(schema) = self.get(key) {
                return StartRight::Cached(Box::new(schema));
            }
            if let Some(guard) = guard {
                return StartRight::Started(guard);
            }
            let age = std::fs::metadata(&lock)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| SystemTime::now().duration_since(t).ok());
            if age.is_some_and(|a| a > STALE) || SystemTime::now() > deadline {
                let _ = std::fs::remove_file(&lock);
                continue;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

/// How old a start right may get before another process takes it over.
const STALE: Duration = Duration::from_secs(300);

/// The outcome of `Cache::start_right`.
#[derive(Debug)]
pub enum StartRight {
    /// Start the binary; the right is held until the guard is dropped.
    Started(StartGuard),
    /// Another process cached the schema meanwhile.
    Cached(Box<LazySchema>),
}

/// Holds the right to start one binary; releases it when dropped.
#[derive(Debug)]
pub struct StartGuard(PathBuf);

impl Drop for StartGuard {
    fn drop(&mut self) {
        if !self.0.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

/// Reads an entry file; a damaged one is deleted so that it is written again.
fn read_entry(path: &Path) -> Option<LazySchema> {
    let bytes = std::fs::read(path).ok()?;
    match LazySchema::decode(bytes) {
        Ok(schema) => Some(schema),
        Err(why) => {
            tracing::warn!("ignoring the damaged cache entry {}: {why}", path.display());
            let _ = std::fs::remove_file(path);
            None
        }
    }
}

/// A path component for a name from the workspace (a lock file's version, a provider
/// address): kept when it is a plain name, else replaced by its hash, so that no name
/// can leave the cache directory (`..`, `/`) or collide with the reserved ones.
pub(super) fn component(name: &str) -> String {
    let plain = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '+'))
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name != UNVERSIONED
        && name.len() <= 100;
    if plain {
        name.to_string()
    } else {
        use sha2::{Digest, Sha256};
        format!("x-{}", &hex(&Sha256::digest(name.as_bytes()))[..32])
    }
}

/// A temporary name in `dir` for what becomes `path` once renamed: hidden, and unique
/// to this process and moment.
pub(super) fn temporary_beside(path: &Path, dir: &Path) -> PathBuf {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    dir.join(format!(
        ".{}.{}.{nanos}.tmp",
        name.unwrap_or_default(),
        std::process::id()
    ))
}

/// Writes `bytes` to `path` through a temporary file in the same directory renamed into
/// place, creating the directory.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .ok_or_else(|| std::io::Error::other("no parent directory"))?;
    std::fs::create_dir_all(dir)?;
    let temp = temporary_beside(path, dir);
    let written = std::fs::File::create(&temp).and_then(|mut f| {
        f.write_all(bytes)?;
        f.sync_all()
    });
    match written.and_then(|()| std::fs::rename(&temp, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&temp);
            Err(e)
        }
    }
}
