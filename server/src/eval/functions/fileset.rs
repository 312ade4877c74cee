//! `fileset(path, pattern)`: the regular files under `path` whose paths match `pattern`,
//! relative to `path`, as a set of strings. As Terraform does it: `path` is relative to
//! the module directory unless absolute; the pattern is joined to it and the result
//! cleaned lexically; the directories are walked as doublestar 1.1.5's `Glob` walks them
//! (`glob.rs` matches one component): plain components are looked up directly, `**`
//! descends into every directory, symlinks included, and matches zero or more levels;
//! each match that is not a regular file is left out, and one that cannot be stat'ed (a
//! dangling symlink) fails the call.
//!
//! Unlike Terraform, the walk stays inside the module directory: when it would read a
//! directory or a file that lies outside once symlinks are resolved, the result is
//! unknown, as the contents of `file("../x")` are. It is bounded too: at most
//! [`MAX_ENTRIES`] directory entries, [`MAX_DEPTH`] levels and
//! [`MAX_MATCH_STEPS`](super::glob::MAX_MATCH_STEPS) matching steps, past which the call
//! fails with a limit error instead of running on.
//!
//! Where doublestar finds a syntax error below a directory it keeps it only if no later
//! entry of that directory is examined, so whether Terraform reports it depends on the
//! directory's order; the walk reads directories in the same (operating system) order
//! and keeps errors the same way.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use super::glob::{components, is_pattern, GlobError, Matcher};
use super::{text, Outcome};
use crate::eval::evaluate::Evaluator;
use crate::eval::value::Value;

/// The most directory entries one call reads.
pub(super) const MAX_ENTRIES: usize = 100_000;

/// The deepest a walk descends below the module directory.
pub(super) const MAX_DEPTH: usize = 128;

/// The most symlinks a path may pass through, Linux's own limit: a symlink to `.` is
/// followed, as in Terraform, until the operating system would refuse the path.
const MAX_LINKS: usize = 40;

/// Why a walk stopped before its end.
enum Stop {
    /// It would have looked outside the module directory.
    Outside,
    /// It reached one of its limits (the reason, in words).
    Limit(String),
}

/// `fileset(path, pattern)`.
pub(super) fn fileset(a: &[Value], ev: &Evaluator) -> Outcome {
    let (path, pattern) = (text(a, 0)?, text(a, 1)?);
    // Where no directory is given, what it holds is unknown.
    let Some(Ok(base)) = ev.module_dir().map(std::path::absolute) else {
        return Ok(Value::Unknown);
    };
    let Some(base) = base.to_str() else {
        return Ok(Value::Unknown);
    };
    let absolute = path.starts_with('/');
    let dir = clean(&if absolute {
        path.clone()
    } else {
        format!("{base}/{path}")
    });
    let full = clean(&format!("{dir}/{pattern}"));
    // Messages name paths as Terraform, which runs in the module directory, names them.
    let shown = |p: &str| -> String {
        if absolute {
            return p.to_string();
        }
        Path::new(p).strip_prefix(base).map_or(p.to_string(), |r| {
            clean(&r.to_string_lossy())
                .trim_start_matches('/')
                .to_string()
        })
    };
    // The walk starts at the module directory: a pattern that starts above it lists
    // what lies outside.
    let (Ok(root), Some(remainder)) = (
        Path::new(base).canonicalize(),
        Path::new(&full)
            .strip_prefix(clean(base))
            .ok()
            .and_then(Path::to_str),
    ) else {
        return Ok(Value::Unknown);
    };
    let start = Place {
        written: PathBuf::from(clean(base)),
        real: root.clone(),
        links: 0,
    };
    let mut walk = Walk {
        root,
        matcher: Matcher::default(),
        matches: Vec::new(),
        entries: 0,
    };
    let walked = walk.glob(start, &components(remainder), 0);
    // One step per directory entry read, counted once the walk (at most MAX_ENTRIES) ends.
    ev.spend(walk.entries as u64)?;
    match walked {
        Ok(None) => {}
        Ok(Some(GlobError::BadPattern)) => {
            return Err(format!(
                "failed to glob pattern {:?}: syntax error in pattern",
                shown(&full)
            ))
        }
        Ok(Some(GlobError::TooComplex)) => return Err(too_complex()),
        Err(Stop::Outside) => return Ok(Value::Unknown),
        Err(Stop::Limit(reason)) => return Err(reason),
    }
    let mut files = Vec::new();
    for (written, real) in walk.matches {
        let metadata = real.and_then(std::fs::metadata);
        match metadata {
            Ok(meta) if meta.is_file() => files.push(Value::String(relative(&dir, &written))),
            Ok(_) => {}
            Err(e) => {
                let shown = shown(&written.to_string_lossy());
                return Err(format!(
                    "failed to stat {shown:?}: stat {shown}: {}",
                    os_error_text(&e)
                ));
            }
        }
    }
    Ok(Value::set(files))
}

/// A path the walk reached: as the pattern writes it (what results and messages show),
/// where it really is (symlinks resolved, inside the module), and how many symlinks the
/// written path passes through.
struct Place {
    written: PathBuf,
    real: PathBuf,
    links: usize,
}

/// The walk: what it found and how much it read.
struct Walk {
    /// The module directory, symlinks resolved.
    root: PathBuf,
    matcher: Matcher,
    /// Each match as written, and where it really is or why that cannot be known.
    matches: Vec<(PathBuf, std::io::Result<PathBuf>)>,
    entries: usize,
}

/// One entry of a directory: its name, and whether it is a directory itself.
struct Entry {
    name: OsString,
    dir: bool,
}

impl Walk {
    /// Walks from the directory `place` for the pattern components `rest` (at least
    /// one). What it returns is doublestar's pending error: a syntax error found below
    /// the last entry examined.
    fn glob(
        &mut self,
        mut place: Place,
        rest: &[&str],
        depth: usize,
    ) -> Result<Option<GlobError>, Stop> {
        if depth > MAX_DEPTH {
            return Err(Stop::Limit(format!(
                "the pattern reaches more than {MAX_DEPTH} directory levels, the most Strata walks"
            )));
        }
        // Plain components are looked up, not listed; the last of the pattern without
        // following it, so that a symlink leading nowhere is still a match (which then
        // fails to stat).
        let plain = rest.iter().take_while(|c| !is_pattern(c)).count();
        for (i, name) in rest[..plain].iter().enumerate() {
            if i + 1 == rest.len() {
                crate::reads::record(&place.real.join(name));
                if std::fs::symlink_metadata(place.real.join(name)).is_err() {
                    return Ok(None);
                }
                let found = self.enter(&place, name.as_ref())?;
                let written = place.written.join(name);
                self.matches.push((written, found.map(|p| p.real)));
                return Ok(None);
            }
            match self.enter(&place, name.as_ref())? {
                Ok(next) => place = next,
                Err(_) => return Ok(None),
            }
        }
        let Some(entries) = self.list(&place.real)? else {
            return Ok(None);
        };
        let mut index = plain;
        let mut pending = None;
        if rest[index] == "**" {
            let last = index + 1 >= rest.len();
            for entry in &entries {
                let Ok(next) = self.enter(&place, &entry.name)? else {
                    continue;
                };
                // Only a symlink needs a second look at what it leads to.
                let is_dir = if next.links > place.links {
                    next.real.is_dir()
                } else {
                    entry.dir
                };
                if is_dir {
                    pending = self.glob(next, &rest[index..], depth + 1)?;
                } else if last {
                    self.matches.push((next.written, Ok(next.real)));
                }
            }
            if last {
                return Ok(pending);
            }
            index += 1;
        }
        let last = index + 1 >= rest.len();
        for entry in &entries {
            // A syntax error ends this directory's walk and is pending for the caller's.
            match self
                .matcher
                .component(rest[index], entry.name.as_encoded_bytes())
            {
                Ok(true) => pending = None,
                Ok(false) => {
                    pending = None;
                    continue;
                }
                Err(GlobError::BadPattern) => return Ok(Some(GlobError::BadPattern)),
                Err(GlobError::TooComplex) => return Err(Stop::Limit(too_complex())),
            }
            let found = self.enter(&place, &entry.name)?;
            if last {
                let written = place.written.join(&entry.name);
                self.matches.push((written, found.map(|p| p.real)));
            } else if let Ok(next) = found {
                pending = self.glob(next, &rest[index + 1..], depth + 1)?;
            }
        }
        Ok(pending)
    }

    /// The entry `name` of the directory `from`, followed when it is a symlink: where it
    /// leads, or why it leads nowhere (as stat would fail: missing, or more than
    /// [`MAX_LINKS`] symlinks on the way). Leading outside the module stops the walk.
    fn enter(&self, from: &Place, name: &OsStr) -> Result<std::io::Result<Place>, Stop> {
        let path = from.real.join(name);
        crate::reads::record(&path);
        let meta = match std::fs::symlink_metadata(&path) {
            Ok(meta) => meta,
            Err(e) => return Ok(Err(e)),
        };
        let written = from.written.join(name);
        if !meta.is_symlink() {
            return Ok(Ok(Place {
                written,
                real: path,
                links: from.links,
            }));
        }
        let links = from.links + 1;
        if links > MAX_LINKS {
            return Ok(Err(std::io::Error::other(
                "too many levels of symbolic links",
            )));
        }
        match path.canonicalize() {
            Err(e) => Ok(Err(e)),
            Ok(real) if real.starts_with(&self.root) => Ok(Ok(Place {
                written,
                real,
                links,
            })),
            Ok(_) => Err(Stop::Outside),
        }
    }

    /// The entries of the directory `dir` (a real path); `None` when it is not a
    /// directory or cannot be read, as doublestar skips it.
    fn list(&mut self, dir: &Path) -> Result<Option<Vec<Entry>>, Stop> {
        // An entry added, removed or renamed changes the directory's stamp.
        crate::reads::record(dir);
        let Ok(read) = std::fs::read_dir(dir) else {
            return Ok(None);
        };
        let mut entries = Vec::new();
        for entry in read.flatten() {
            self.entries += 1;
            if self.entries > MAX_ENTRIES {
                return Err(Stop::Limit(format!(
                    "the pattern reaches more than {MAX_ENTRIES} directory entries, the most Strata reads"
                )));
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            entries.push(Entry {
                name: entry.file_name(),
                dir: kind.is_dir(),
            });
        }
        Ok(Some(entries))
    }
}

fn too_complex() -> String {
    format!(
        "the pattern takes more than {} matching steps, the most Strata takes",
        super::glob::MAX_MATCH_STEPS
    )
}

/// `path` cleaned lexically as Go's `filepath.Clean` cleans it: repeated separators,
/// `.` and `..` (with what it cancels) removed; `..` kept at the start of a relative
/// path, dropped at the root.
pub(super) fn clean(path: &str) -> String {
    let rooted = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            ".." if rooted => {}
            part => parts.push(part),
        }
    }
    match (rooted, parts.is_empty()) {
        (true, _) => format!("/{}", parts.join("/")),
        (false, true) => ".".into(),
        (false, false) => parts.join("/"),
    }
}

/// `found` relative to `dir` (both cleaned, absolute), with `..` where `found` lies
/// beside or above it, as Go's `filepath.Rel` gives it.
fn relative(dir: &str, found: &Path) -> String {
    let found = clean(&found.to_string_lossy());
    let from: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    let to: Vec<&str> = found.split('/').filter(|p| !p.is_empty()).collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut out: Vec<&str> = vec![".."; from.len() - common];
    out.extend(&to[common..]);
    if out.is_empty() {
        ".".into()
    } else {
        out.join("/")
    }
}

/// An operating-system error as Go prints it (`no such file or directory`).
fn os_error_text(e: &std::io::Error) -> String {
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text);
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |first| {
        first.to_lowercase().chain(chars).collect()
    })
}

#[cfg(test)]
#[path = "fileset_tests.rs"]
mod tests;
