//! The one way Strata reads a file a workspace names (configuration, variable files,
//! the prior state, files read by `file()` and its kin): regular files only, never more
//! than a limit, and optionally only inside a directory once symlinks are resolved. A
//! FIFO, a device such as `/dev/zero` or a symlink out of the module is refused instead
//! of hanging, exhausting memory or leaking what lies outside.

use std::fs::{File, Metadata, OpenOptions};
use std::io::Read;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// The largest configuration or variables file Strata reads (16 MiB): no real one comes
/// close, and a generated monster must not stall the server.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Why a file was not read.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum ReadError {
    /// Nothing exists at the path (or a symlink leads nowhere).
    #[error("no file exists at this path")]
    NotFound,
    /// Something other than a regular file: a directory, FIFO, device or socket.
    #[error("it is {0}, not a regular file")]
    NotRegular(&'static str),
    /// More bytes than the reader allows.
    #[error("it is {size} bytes, larger than the {limit} bytes Strata reads")]
    TooLarge {
        /// The file's size (at least; it may still grow).
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// Its real path, symlinks resolved, lies outside the directory it must stay in.
    #[error("it resolves to {0}, outside the module directory")]
    Outside(PathBuf),
    /// Any other failure of the operating system.
    #[error("{0}")]
    Io(String),
}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::NotFound {
            ReadError::NotFound
        } else {
            ReadError::Io(e.to_string())
        }
    }
}

/// What a non-regular file is, in words.
fn kind(meta: &Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

/// Opens `path` for reading without blocking (opening a FIFO blocks until a writer
/// comes), and checks what was opened, so that nothing can be swapped in between.
fn open_regular(path: &Path) -> Result<(File, Metadata), ReadError> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind(&meta)));
    }
    Ok((file, meta))
}

/// The bytes of the regular file at `path`, at most `limit` of them.
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    crate::reads::record(path);
    let (file, meta) = open_regular(path)?;
    if meta.len() > limit {
        return Err(ReadError::TooLarge {
            size: meta.len(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // One byte more than allowed tells a file that grew since it was measured.
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// The real path of `path`, symlinks resolved, when it lies inside `root`'s.
pub fn confined(path: &Path, root: &Path) -> Result<PathBuf, ReadError> {
    // A file that is not there yet is looked for, and its creation changes the result.
    crate::reads::record(path);
    let real = path.canonicalize()?;
    let root = root.canonicalize()?;
    if real.starts_with(&root) {
        Ok(real)
    } else {
        Err(ReadError::Outside(real))
    }
}

/// The metadata of the regular file at `path`, following symlinks: `Ok(None)` when
/// nothing is there, an error for anything but a regular file.
pub fn regular_metadata(path: &Path) -> Result<Option<Metadata>, ReadError> {
    crate::reads::record(path);
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => Ok(Some(meta)),
        Ok(meta) => Err(ReadError::NotRegular(kind(&meta))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// `..` and `.` removed lexically (the file need not exist).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("strata-read-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn reads_regular_files_within_the_limit() {
        let dir = scratch("regular");
        std::fs::write(dir.join("a"), "hello").unwrap();
        assert_eq!(read_bounded(&dir.join("a"), 5).unwrap(), b"hello");
        assert_eq!(
            read_bounded(&dir.join("a"), 4),
            Err(ReadError::TooLarge { size: 5, limit: 4 })
        );
        assert_eq!(read_bounded(&dir.join("b"), 5), Err(ReadError::NotFound));
        assert_eq!(
            read_bounded(&dir, 5),
            Err(ReadError::NotRegular("a directory"))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn refuses_fifos_devices_and_symlinks_out() {
        let dir = scratch("special");
        let fifo = dir.join("fifo");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        // Opening does not wait for a writer, and nothing is read.
        assert_eq!(
            read_bounded(&fifo, 1 << 20),
            Err(ReadError::NotRegular("a FIFO (named pipe)"))
        );
        std::os::unix::fs::symlink("/dev/zero", dir.join("zero")).unwrap();
        assert_eq!(
            read_bounded(&dir.join("zero"), 1 << 20),
            Err(ReadError::NotRegular("a device"))
        );
        std::os::unix::fs::symlink("/etc/passwd", dir.join("passwd")).unwrap();
        assert!(matches!(
            confined(&dir.join("passwd"), &dir),
            Err(ReadError::Outside(p)) if p == Path::new("/etc/passwd")
        ));
        std::fs::write(dir.join("in"), "x").unwrap();
        std::os::unix::fs::symlink(dir.join("in"), dir.join("link")).unwrap();
        assert!(confined(&dir.join("link"), &dir).is_ok());
        assert_eq!(
            regular_metadata(&fifo).map(|m| m.is_some()),
            Err(ReadError::NotRegular("a FIFO (named pipe)"))
        );
        assert_eq!(
            regular_metadata(&dir.join("nope")).map(|m| m.is_some()),
            Ok(false)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
