//! `strata check --format sarif`: the diagnostics as a SARIF 2.1.0 log, the format code
//! scanning services read. One rule per diagnostic code and summary (`code/summary-slug`,
//! SARIF's hierarchical rule ids), so that a service groups results as Terraform names
//! them; files are named relative to the current directory, the checkout's root in CI.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};

use super::check::{Finding, Location};
use crate::check::Severity;

/// The published schema of SARIF 2.1.0, which the log names as its `$schema`.
const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The base of relative file names: SARIF's conventional name for the source root.
const SOURCE_ROOT: &str = "%SRCROOT%";

/// The SARIF log of `findings`, files named relative to `cwd` where they lie inside it.
pub fn log(findings: &[Finding], cwd: &Path) -> Value {
    // Rules in id order, each result pointing at its rule by index.
    let mut rules: BTreeMap<String, &str> = BTreeMap::new();
    for f in findings {
        rules.entry(rule_id(f)).or_insert(&f.summary);
    }
    let index: BTreeMap<&str, usize> = rules
        .keys()
        .enumerate()
        .map(|(i, id)| (id.as_str(), i))
        .collect();
    let results: Vec<Value> = findings
        .iter()
        .map(|f| {
            let id = rule_id(f);
            let mut result = json!({
                "ruleId": id,
                "ruleIndex": index.get(id.as_str()).copied().unwrap_or_default(),
                "level": level(f.severity),
                "message": { "text": message(f) },
            });
            if let Some(location) = &f.location {
                result["locations"] = json!([physical(location, cwd, None)]);
            }
            if !f.related.is_empty() {
                let related: Vec<Value> = f
                    .related
                    .iter()
                    .enumerate()
                    .map(|(i, (location, what))| physical(location, cwd, Some((i, what))))
                    .collect();
                result["relatedLocations"] = json!(related);
            }
            result
        })
        .collect();
    let rules: Vec<Value> = rules
        .iter()
        .map(|(id, summary)| {
            json!({
                "id": id,
                "shortDescription": { "text": summary },
            })
        })
        .collect();
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "strata",
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "rules": rules,
                }
            },
            "originalUriBaseIds": {
                SOURCE_ROOT: { "uri": directory_uri(cwd) }
            },
            "columnKind": "utf16CodeUnits",
            "results": results,
        }]
    })
}

/// `code/summary-slug`: the code names the rule family, the summary the rule Terraform
/// reports (one code covers every summary of a family, such as duplicate declarations).
fn rule_id(f: &Finding) -> String {
    let mut slug = String::new();
    for c in f.summary.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-');
    match (f.code.is_empty(), slug.is_empty()) {
        (true, _) => slug.to_string(),
        (false, true) => f.code.to_string(),
        (false, false) => format!("{}/{slug}", f.code),
    }
}

/// SARIF's level for a severity.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Information => "note",
    }
}

/// The result's message: the summary, then the detail as Terraform prints it below.
fn message(f: &Finding) -> String {
    if f.detail.is_empty() {
        f.summary.clone()
    } else {
        format!("{}\n\n{}", f.summary, f.detail)
    }
}

/// A location object; `related` gives a related location its id and message.
fn physical(location: &Location, cwd: &Path, related: Option<(usize, &String)>) -> Value {
    let artifact = match location.path.strip_prefix(cwd) {
        Ok(relative) if !cwd.as_os_str().is_empty() => {
            json!({ "uri": path_uri(relative), "uriBaseId": SOURCE_ROOT })
        }
        _ => json!({ "uri": file_uri(&location.path) }),
    };
    let mut value = json!({
        "physicalLocation": {
            "artifactLocation": artifact,
            "region": {
                "startLine": location.start.line,
                "startColumn": location.utf16_columns.0,
                "endLine": location.end.line,
                "endColumn": location.utf16_columns.1,
            }
        }
    });
    if let Some((id, what)) = related {
        value["id"] = json!(id);
        value["message"] = json!({ "text": what });
    }
    value
}

/// An absolute path as a `file://` URI (`file:///C:/x` for a Windows drive path).
fn file_uri(path: &Path) -> String {
    let path = path_uri(path);
    let slash = if path.starts_with('/') { "" } else { "/" };
    format!("file://{slash}{path}")
}

/// `dir` as a `file://` URI ending in a slash, as SARIF requires of a base.
fn directory_uri(dir: &Path) -> String {
    let mut uri = file_uri(dir);
    if !uri.ends_with('/') {
        uri.push('/');
    }
    uri
}

/// A path as the path part of a URI: `/` between components, every byte outside RFC
/// 3986's unreserved characters percent-encoded.
fn path_uri(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            // A drive's colon stays (`C:`), as file URIs write it.
            b':' if cfg!(windows) => out.push(':'),
            b'\\' if cfg!(windows) => out.push('/'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_percent_encoded() {
        assert_eq!(path_uri(Path::new("a b/ü.tf")), "a%20b/%C3%BC.tf");
        assert_eq!(directory_uri(Path::new("/w/x")), "file:///w/x/");
    }
}
