//! `strata check --format json` against what real Terraform said: every folder of
//! `fixtures/validate/` holds a module and the `expected.json` that
//! `scripts/record-validate.py` recorded from `terraform validate -json` (Terraform 1.11.4).
//!
//! `fixtures/validate-providers/` holds modules using the AWS provider, recorded by the same
//! script with the provider from the filesystem mirror; Strata checks them with the trimmed
//! schema file `fixtures/validate-providers/schemas.json` (`--provider-schemas`), so this
//! test needs neither Terraform nor the provider.
//!
//! Diagnostics are compared as a set: severity, summary, detail and range must match, in
//! any order (Terraform's order follows its decoder, Strata's its families). Folders listed
//! in `fixtures/validate/PENDING` are rules Strata does not yet report as Terraform does;
//! they are printed, and must still differ, so the list never hides a fixed rule.

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde_json::Value;
use support::{fixtures, strata_bin};

/// One diagnostic, reduced to what must match, as a sortable key.
fn key(d: &Value) -> String {
    let r = &d["range"];
    format!(
        "{}:{}:{}-{}:{} (byte {}) {} {:?}: {}",
        r["filename"].as_str().unwrap_or("-"),
        r["start"]["line"],
        r["start"]["column"],
        r["end"]["line"],
        r["end"]["column"],
        r["start"]["byte"],
        d["severity"].as_str().unwrap_or("?"),
        d["summary"].as_str().unwrap_or("?"),
        d["detail"].as_str().unwrap_or(""),
    )
}

fn keys(json: &Value) -> Vec<String> {
    let mut all: Vec<String> = json["diagnostics"]
        .as_array()
        .map(|a| a.iter().map(key).collect())
        .unwrap_or_default();
    all.sort();
    all
}

/// Fixture name -> why it is pending, from `folder/PENDING`.
fn pending_in(folder: &str) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(fixtures().join(folder).join("PENDING")).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| match l.split_once(char::is_whitespace) {
            Some((name, why)) => (name.to_string(), why.trim().to_string()),
            None => (l.to_string(), String::new()),
        })
        .collect()
}

fn strata_check(dir: &Path, extra: &[String]) -> (Value, Option<i32>) {
    let out = Command::new(strata_bin())
        .args(["check", &dir.to_string_lossy(), "--format", "json"])
        .args(extra)
        .output()
        .expect("run strata check");
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: check printed no JSON ({e}): {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (json, out.status.code())
}

#[test]
fn strata_reports_what_terraform_validate_recorded() {
    compare_with_recordings("validate", &[]);
}

/// The same with provider schemas: every fixture of `fixtures/validate-providers/`.
#[test]
fn strata_reports_what_terraform_validate_recorded_with_provider_schemas() {
    let schemas = fixtures().join("validate-providers/schemas.json");
    let extra = [
        "--provider-schemas".to_string(),
        schemas.to_string_lossy().into_owned(),
    ];
    compare_with_recordings("validate-providers", &extra);
}

/// Checks each fixture folder of `fixtures/<folder>/` with `extra` arguments and compares
/// the diagnostics with its `expected.json`.
fn compare_with_recordings(folder: &str, extra: &[String]) {
    let root = fixtures().join(folder);
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("fixtures folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let pending = pending_in(folder);
    let mut failures = Vec::new();
    let mut still_pending = Vec::new();
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("expected.json"))
                .unwrap_or_else(|e| panic!("{name}/expected.json: {e}")),
        )
        .expect("expected.json is JSON");
        let (actual, status) = strata_check(dir, extra);
        let (want, got) = (keys(&expected), keys(&actual));
        let matches = want == got;
        if let Some(why) = pending.get(&name) {
            if matches {
                failures.push(format!(
                    "{name}: listed in PENDING but now matches Terraform; remove it"
                ));
            } else {
                still_pending.push(format!("{name}: {why}"));
            }
            continue;
        }
        if !matches {
            let missing: Vec<_> = want.iter().filter(|k| !got.contains(k)).collect();
            let extra: Vec<_> = got.iter().filter(|k| !want.contains(k)).collect();
            failures.push(format!(
                "{name}:\n  Terraform only: {missing:#?}\n  Strata only: {extra:#?}"
            ));
            continue;
        }
        let errors = expected["error_count"].as_u64().unwrap_or(0);
        if status != Some(if errors > 0 { 1 } else { 0 }) {
            failures.push(format!("{name}: exit status {status:?}"));
        }
    }
    for p in &still_pending {
        support::skip("validate fixture", &format!("PENDING {p}"));
    }
    for name in pending.keys() {
        assert!(
            dirs.iter().any(|d| d.ends_with(name)),
            "PENDING names {name}, which is not a fixture"
        );
    }
    assert!(
        failures.is_empty(),
        "{} of {} fixtures differ from Terraform:\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n")
    );
}

/// `docs/diagnostics.md` is current: every summary a recorded fixture proves is listed
/// there as recorded with that fixture (run `scripts/diagnostics-table.py` after adding
/// fixtures).
#[test]
fn the_coverage_table_lists_every_recorded_summary() {
    let table = std::fs::read_to_string(fixtures().join("../docs/diagnostics.md"))
        .expect("docs/diagnostics.md");
    let rows: Vec<(&str, &str)> = table
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("| `")?;
            let (summary, status) = rest.split_once("` | ")?;
            Some((summary, status))
        })
        .collect();
    let matches = |pattern: &str, summary: &str| {
        let parts: Vec<&str> = pattern.split('*').collect();
        let mut rest = summary;
        for (i, part) in parts.iter().enumerate() {
            match rest.find(part) {
                Some(at) if i > 0 || at == 0 => rest = &rest[at + part.len()..],
                _ => return false,
            }
        }
        rest.is_empty() || pattern.ends_with('*')
    };
    let mut missing = Vec::new();
    let folders = ["validate", "validate-providers"];
    let dirs = folders.iter().flat_map(|f| {
        let pending = pending_in(f);
        std::fs::read_dir(fixtures().join(f))
            .unwrap()
            .flatten()
            .filter(move |d| !pending.contains_key(&*d.file_name().to_string_lossy()))
    });
    for dir in dirs {
        let name = dir.file_name().to_string_lossy().into_owned();
        if !dir.path().is_dir() {
            continue;
        }
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join("expected.json")).unwrap(),
        )
        .unwrap();
        for d in expected["diagnostics"].as_array().into_iter().flatten() {
            let summary = d["summary"].as_str().unwrap_or_default();
            let listed = rows.iter().any(|(pattern, status)| {
                matches(pattern, summary) && status.contains(&format!("`{name}`"))
            });
            if !listed {
                missing.push(format!("{summary} ({name})"));
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "docs/diagnostics.md does not list these recorded summaries; add them to docs/diagnostics-inventory.tsv and run scripts/diagnostics-table.py:\n{}",
        missing.join("\n")
    );
}
