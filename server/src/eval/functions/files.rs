//! Filesystem functions, confined to the root module's directory tree: `file`,
//! `fileexists`, `filebase64`, `templatefile`, `fileset` (`fileset.rs`), the file hashes (`filemd5`, `filesha256`,
//! ...), and the pure path functions `basename` and `dirname`. A path that leaves the
//! directory, written so or through a symlink, is not read: its contents are unknown, as
//! they would be to anyone reviewing the module on its own, and the scope is told
//! (`Scope::file_outside`), so that a plan can say why. Files are read through
//! [`read_bounded`]: regular files only (a FIFO or a device is an error, not a hang), at
//! most [`MAX_STRING_BYTES`].

use std::path::PathBuf;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

use super::{arg, hash, text, Function, Outcome, MAX_STRING_BYTES};
use crate::eval::evaluate::Evaluator;
use crate::eval::value::Value;
use crate::syntax::parse_template;
use crate::text::read::{confined, normalize, read_bounded, regular_metadata, ReadError};

pub(super) fn lookup(name: &str) -> Option<Function> {
    Some(match name {
        "file" => |a, ev| {
            let Some(bytes) = read(ev, &text(a, 0)?)? else {
                return Ok(Value::Unknown);
            };
            String::from_utf8(bytes)
                .map(Value::String)
                .map_err(|_| "contents are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead".into())
        },
        "filebase64" => |a, ev| {
            Ok(read(ev, &text(a, 0)?)?
                .map_or(Value::Unknown, |b| Value::String(STANDARD.encode(b))))
        },
        "fileexists" => fileexists,
        "filemd5" => |a, ev| digest(a, ev, hash::md5),
        "filesha1" => |a, ev| digest(a, ev, hash::sha1),
        "filesha256" => |a, ev| digest(a, ev, hash::sha256),
        "filesha512" => |a, ev| digest(a, ev, hash::sha512),
        "filebase64sha256" => |a, ev| digest(a, ev, hash::base64sha256),
        "filebase64sha512" => |a, ev| digest(a, ev, hash::base64sha512),
        "templatefile" => templatefile,
        "fileset" => super::fileset::fileset,
        "basename" => |a, _| {
            let p = text(a, 0)?;
            Ok(Value::String(
                p.trim_end_matches('/')
                    .rsplit('/')
                    .next()
                    .unwrap_or("")
                    .to_string(),
            ))
        },
        "dirname" => |a, _| {
            let p = text(a, 0)?;
            Ok(Value::String(
                match p.trim_end_matches('/').rsplit_once('/') {
                    Some(("", _)) => "/".into(),
                    Some((dir, _)) => dir.to_string(),
                    None => ".".into(),
                },
            ))
        },
        _ => return None,
    })
}

/// `path` resolved against the module directory; `None` when it leads outside it or
/// there is no directory.
fn resolve(ev: &Evaluator, path: &str) -> Result<Option<PathBuf>, String> {
    // Where no directory is given, what a file holds is unknown.
    let Some(base) = ev.module_dir() else {
        return Ok(None);
    };
    let joined = base.join(path);
    let normal = normalize(&joined);
    if normal.starts_with(normalize(base)) {
        return Ok(Some(normal));
    }
    ev.file_outside(path, &normal);
    Ok(None)
}

/// The file's bytes; `None` when it lies outside the module directory.
fn read(ev: &Evaluator, path: &str) -> Result<Option<Vec<u8>>, String> {
    let Some(full) = resolve(ev, path)? else {
        return Ok(None);
    };
    let base = ev
        .module_dir()
        .ok_or("files cannot be read in this context")?;
    let failed = |e: ReadError| match e {
        ReadError::NotFound => format!("no file exists at {path:?}"),
        e => format!("cannot read {path:?}: {e}"),
    };
    let real = match confined(&full, base) {
        Ok(real) => real,
        Err(ReadError::Outside(real)) => {
            ev.file_outside(path, &real);
            return Ok(None);
        }
        Err(e) => return Err(failed(e)),
    };
    let bytes = read_bounded(&real, MAX_STRING_BYTES as u64).map_err(failed)?;
    // Reading, and then hashing, encoding or parsing what was read, is work per byte.
    ev.spend_bytes(bytes.len())?;
    Ok(Some(bytes))
}

/// `fileexists`: false when nothing is there, an error for anything but a regular file
/// (in Terraform's words), unknown outside the module.
fn fileexists(a: &[Value], ev: &Evaluator) -> Outcome {
    let path = text(a, 0)?;
    let Some(full) = resolve(ev, &path)? else {
        return Ok(Value::Unknown);
    };
    let base = ev
        .module_dir()
        .ok_or("files cannot be read in this context")?;
    let real = match confined(&full, base) {
        Ok(real) => real,
        Err(ReadError::NotFound) => return Ok(Value::Bool(false)),
        Err(ReadError::Outside(real)) => {
            ev.file_outside(&path, &real);
            return Ok(Value::Unknown);
        }
        Err(e) => return Err(format!("failed to stat {path:?}: {e}")),
    };
    match regular_metadata(&real) {
        Ok(found) => Ok(Value::Bool(found.is_some())),
        Err(ReadError::NotRegular("a directory")) => {
            Err(format!("{path:?} is a directory, not a file"))
        }
        Err(ReadError::NotRegular("a FIFO (named pipe)")) => {
            Err(format!("{path:?} is a named pipe, not a regular file"))
        }
        Err(ReadError::NotRegular(kind)) => Err(format!("{path:?} is {kind}, not a regular file")),
        Err(e) => Err(format!("failed to stat {path:?}: {e}")),
    }
}

/// A file hash: `hash` of the file's bytes.
fn digest(a: &[Value], ev: &Evaluator, hash: fn(&[u8]) -> String) -> Outcome {
    Ok(read(ev, &text(a, 0)?)?.map_or(Value::Unknown, |bytes| Value::String(hash(&bytes))))
}

fn templatefile(a: &[Value], ev: &Evaluator) -> Outcome {
    let path = text(a, 0)?;
    let Some(bytes) = read(ev, &path)? else {
        return Ok(Value::Unknown);
    };
    let source = String::from_utf8(bytes).map_err(|_| "template is not valid UTF-8".to_string())?;
    let parts =
        parse_template(&source).ok_or_else(|| format!("failed to parse {path:?} as a template"))?;
    let vars = match arg(a, 1)? {
        Value::Unknown => return Ok(Value::Unknown),
        v => v
            .attributes()
            .ok_or("the vars argument must be a map or object")?
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    };
    ev.template_with(&parts, vars)
        .map_err(|e| format!("{path}: {}", e.detail))
}
