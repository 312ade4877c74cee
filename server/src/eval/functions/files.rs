//! Filesystem functions, confined to the root module's directory tree: `file`,
//! `fileexists`, `filebase64`, `templatefile`, and the pure path functions `basename` and
//! `dirname`. A path that leaves the directory is not read: its contents are unknown,
//! as they would be to anyone reviewing the module on its own.

use std::path::{Path, PathBuf};

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

use super::{arg, text, Function, Outcome};
use crate::eval::evaluate::Evaluator;
use crate::eval::value::Value;
use crate::syntax::parse_template;

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
        "fileexists" => |a, ev| {
            Ok(resolve(ev, &text(a, 0)?)?.map_or(Value::Unknown, |p| Value::Bool(p.is_file())))
        },
        "templatefile" => templatefile,
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
    Ok(normal.starts_with(normalize(base)).then_some(normal))
}

/// `..` and `.` removed lexically (the file need not exist).
fn normalize(path: &Path) -> PathBuf {
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

/// The file's bytes; `None` when it lies outside the module directory.
fn read(ev: &Evaluator, path: &str) -> Result<Option<Vec<u8>>, String> {
    let Some(full) = resolve(ev, path)? else {
        return Ok(None);
    };
    std::fs::read(&full)
        .map(Some)
        .map_err(|e| format!("no file exists at {path:?}; {e}"))
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
