//! The SHA-256 of provider binaries, remembered by (path, size, modification time): the
//! AWS provider is 700 MB and hashing it takes seconds, so a binary already seen is not
//! read again. A binary replaced in place changes its size or time and is hashed anew.
//! The index is one small JSON file in the cache directory; a damaged one is an empty
//! index (it is only a shortcut).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::cache::write_atomic;

/// What identifies a file's content without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStamp {
    /// Its size in bytes.
    pub size: u64,
    /// Its modification time, in nanoseconds since the Unix epoch.
    pub modified_ns: u64,
}

impl FileStamp {
    /// The stamp of the file at `path` (symlinks followed).
    pub fn of(path: &Path) -> std::io::Result<Self> {
        let meta = std::fs::metadata(path)?;
        let modified_ns = meta
            .modified()?
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
        Ok(Self {
            size: meta.len(),
            modified_ns,
        })
    }
}

/// The largest binary Strata hashes: a provider is under 1 GB, and a file in the
/// workspace must not keep a thread reading for ever.
const MAX_BINARY_BYTES: u64 = 4 << 30;

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Known {
    stamp: FileStamp,
    sha256: String,
}

/// The index of binaries already hashed, kept in a file.
#[derive(Debug)]
pub struct BinaryHashes {
    file: PathBuf,
    known: Mutex<BTreeMap<PathBuf, Known>>,
}

impl BinaryHashes {
    /// The index stored in `file` (empty when the file is missing or damaged).
    pub fn open(file: PathBuf) -> Self {
        let known = std::fs::read(&file)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        Self {
            file,
            known: Mutex::new(known),
        }
    }

    /// The SHA-256 (hex) of the binary at `path`: from the index when its size and time
    /// are unchanged, else read, hashed and remembered.
    pub fn sha256(&self, path: &Path) -> std::io::Result<String> {
        let real = std::fs::canonicalize(path)?;
        let stamp = FileStamp::of(&real)?;
        if let Some(known) = self.lock().get(&real) {
            if known.stamp == stamp {
                return Ok(known.sha256.clone());
            }
        }
        if stamp.size > MAX_BINARY_BYTES {
            return Err(std::io::Error::other(format!(
                "it is {} bytes, more than the {MAX_BINARY_BYTES} Strata reads",
                stamp.size
            )));
        }
        let sha256 = hash_file(&real)?;
        let snapshot = {
            let mut known = self.lock();
            known.insert(
                real,
                Known {
                    stamp,
                    sha256: sha256.clone(),
                },
            );
            serde_json::to_vec(&*known)
        };
        // Best effort: without the index the next run hashes again.
        if let Ok(bytes) = snapshot {
            if let Err(e) = write_atomic(&self.file, &bytes) {
                tracing::warn!("cannot save {}: {e}", self.file.display());
            }
        }
        Ok(sha256)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<PathBuf, Known>> {
        self.known.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The SHA-256 of a file's content, hex.
pub fn hash_file(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

/// Bytes as lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
