//! `strata plan --format json` over every fixture in `fixtures/plan/`: the output must
//! equal the fixture's `expected.json`. A fixture's `args` file holds extra command-line
//! arguments, one per line. The fixtures' README says what each one shows. A change whose
//! expected JSON leaves out `before_sensitive` and `after_sensitive` is compared without
//! them (`tests/plan_recorded.rs` compares them with Terraform's recordings), and an
//! expected JSON without `output_changes` is compared without them (the recorded fixtures
//! compare those too).

mod support;

use std::process::Command;

use serde_json::Value;
use support::{fixtures, strata_bin};

#[test]
fn every_plan_fixture_plans_its_expected_changes() {
    let mut dirs: Vec<_> = std::fs::read_dir(fixtures().join("plan"))
        .expect("fixtures/plan")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "fixtures/plan has its fixtures");
    for dir in dirs {
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("expected.json")).expect("expected.json"),
        )
        .expect("expected.json is JSON");
        let args: Vec<String> = std::fs::read_to_string(dir.join("args"))
            .map(|a| {
                a.lines()
                    .map(str::to_string)
                    .filter(|l| !l.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        let out = Command::new(strata_bin())
            .args(["plan", &dir.to_string_lossy(), "--format", "json"])
            .args(&args)
            .args(schema_args(&dir))
            .output()
            .expect("run strata plan");
        let mut actual: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{}: plan prints JSON ({e}); stderr: {}",
                dir.display(),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        drop_unexpected_sensitivity(&mut actual, &expected);
        assert_eq!(
            actual,
            expected,
            "{}: plan output differs:\n{}",
            dir.display(),
            serde_json::to_string_pretty(&actual).unwrap()
        );
        let failed = !expected["errors"].as_array().is_none_or(Vec::is_empty);
        assert_eq!(
            out.status.code(),
            Some(i32::from(failed)),
            "{}",
            dir.display()
        );
    }
}

/// Removes `before_sensitive` and `after_sensitive` from each change of `actual` whose
/// expected change (by address) does not hold them.
fn drop_unexpected_sensitivity(actual: &mut Value, expected: &Value) {
    if expected.get("output_changes").is_none() {
        if let Some(fields) = actual.as_object_mut() {
            fields.remove("output_changes");
        }
    }
    let expected_change = |address: &Value| {
        expected["resource_changes"]
            .as_array()
            .and_then(|list| list.iter().find(|c| &c["address"] == address))
            .map(|c| c["change"].clone())
    };
    let Some(changes) = actual["resource_changes"].as_array_mut() else {
        return;
    };
    for change in changes {
        let wanted = expected_change(&change["address"]).unwrap_or(Value::Null);
        let Some(fields) = change["change"].as_object_mut() else {
            continue;
        };
        for key in ["before_sensitive", "after_sensitive"] {
            if wanted.get(key).is_none() {
                fields.remove(key);
            }
        }
    }
}

/// Reads `../shared/corpus` (real public modules): planning every directory of it, with
/// no prior state, ends in a plan or in diagnostics (exit 0 or 1), never in a crash, and
/// the output is always the plan JSON. Skipped, visibly, where the corpus is absent.
#[test]
fn every_corpus_module_plans_or_reports_why_not() {
    let corpus = fixtures().join("../../shared/corpus");
    if !corpus.is_dir() {
        support::skip(
            "every_corpus_module_plans_or_reports_why_not",
            &format!("{} not found", corpus.display()),
        );
        return;
    }
    let mut dirs = std::collections::BTreeSet::new();
    let mut stack = vec![corpus];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read corpus").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "tf") {
                dirs.insert(dir.clone());
            }
        }
    }
    assert!(dirs.len() > 100, "the corpus has its modules");
    let mut planned = 0;
    for dir in &dirs {
        let out = Command::new(strata_bin())
            .args(["plan", &dir.to_string_lossy(), "--format", "json"])
            .output()
            .expect("run strata plan");
        let code = out.status.code();
        assert!(
            matches!(code, Some(0 | 1)),
            "{}: exit {code:?}\n{}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let json: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        assert!(json["resource_changes"].is_array() && json["errors"].is_array());
        if code == Some(0) {
            planned += 1;
        }
    }
    eprintln!(
        "{planned} of {} corpus modules planned without errors",
        dirs.len()
    );
}

/// Fixtures holding Terraform's plan text (`terraform.txt`, recorded by
/// scripts/record-schema-fixtures.py): `strata plan`'s text from the actions to the
/// `Plan:` line is the same, but for the lines where Strata says what it cannot know
/// (`# (Strata: ...)`).
#[test]
fn plan_text_matches_terraform() {
    let mut checked = 0;
    for dir in std::fs::read_dir(fixtures().join("plan"))
        .unwrap()
        .flatten()
    {
        let dir = dir.path();
        let Ok(recorded) = std::fs::read_to_string(dir.join("terraform.txt")) else {
            continue;
        };
        let out = Command::new(strata_bin())
            .args(["plan", &dir.to_string_lossy()])
            .args(schema_args(&dir))
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let start = text.find("Terraform will perform").expect("actions");
        let end = text[start..]
            .find("\nPlan: ")
            .map(|i| start + i)
            .expect("a Plan: line");
        let end = end + 1 + text[end + 1..].find('\n').unwrap() + 1;
        let ours: String = text[start..end]
            .lines()
            .filter(|l| !l.trim_start().starts_with("# (Strata: "))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(ours, recorded, "{}", dir.display());
        checked += 1;
    }
    assert!(checked >= 1, "a fixture records Terraform's plan text");
}

/// `--provider-schemas FILE` for a fixture whose `provider-schemas` file names one.
fn schema_args(dir: &std::path::Path) -> Vec<String> {
    match std::fs::read_to_string(dir.join("provider-schemas")) {
        Ok(named) => vec![
            "--provider-schemas".into(),
            dir.join(named.trim()).to_string_lossy().into_owned(),
        ],
        Err(_) => Vec::new(),
    }
}

/// The names of `list` under `key` in a fixture's `differences.json` entry.
fn listed(entry: &Value, key: &str) -> std::collections::BTreeSet<String> {
    entry[key]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The top-level attributes a change marks unknown.
fn unknown_keys(after_unknown: &Value) -> std::collections::BTreeSet<String> {
    after_unknown
        .as_object()
        .map(|o| {
            o.iter()
                .filter(|(_, v)| v.as_bool() == Some(true))
                .map(|(k, _)| k.clone())
                .collect()
        })
        .unwrap_or_default()
}

/// Fixtures planned with a provider schema against Terraform's own plan (`terraform.json`,
/// recorded by scripts/record-schema-fixtures.py): the same actions, the same attributes
/// unknown, and every value Strata plans equal to Terraform's, except what the fixture's
/// `differences.json` lists as the provider's to decide.
#[test]
fn planning_with_provider_schemas_matches_terraform() {
    let mut checked = 0;
    for (dir, recorded) in support::recordings("plan", "terraform.json") {
        let differences: Value = std::fs::read_to_string(dir.join("differences.json"))
            .map(|t| serde_json::from_str(&t).unwrap())
            .unwrap_or(Value::Null);
        let out = Command::new(strata_bin())
            .args(["plan", &dir.to_string_lossy(), "--format", "json"])
            .args(schema_args(&dir))
            .output()
            .unwrap();
        let actual: Value = serde_json::from_slice(&out.stdout).unwrap();
        let changes = actual["resource_changes"].as_array().unwrap();
        let recorded = recorded.as_array().unwrap();
        assert_eq!(changes.len(), recorded.len(), "{}", dir.display());
        for theirs in recorded {
            let address = theirs["address"].as_str().unwrap();
            let ours = changes
                .iter()
                .find(|c| c["address"] == address)
                .unwrap_or_else(|| panic!("{address}: not planned"));
            let allowed = &differences[address];
            assert_eq!(ours["change"]["actions"], theirs["actions"], "{address}");
            let (mine, terraform) = (
                unknown_keys(&ours["change"]["after_unknown"]),
                unknown_keys(&theirs["after_unknown"]),
            );
            let only_terraform: std::collections::BTreeSet<String> =
                terraform.difference(&mine).cloned().collect();
            let only_strata: std::collections::BTreeSet<String> =
                mine.difference(&terraform).cloned().collect();
            assert_eq!(
                only_terraform,
                listed(allowed, "unknown_only_terraform"),
                "{address}"
            );
            assert_eq!(
                only_strata,
                listed(allowed, "unknown_only_strata"),
                "{address}"
            );
            let differs: std::collections::BTreeSet<String> = ours["change"]["after"]
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(k, v)| !v.is_null() && theirs["after"].get(k.as_str()) != Some(*v))
                .filter(|(k, _)| !terraform.contains(*k))
                .map(|(k, _)| k.clone())
                .collect();
            assert_eq!(
                differs,
                listed(allowed, "after_differs"),
                "{address}: values differ"
            );
        }
        checked += 1;
    }
    assert!(
        checked >= 1,
        "a fixture records Terraform's plan with a schema"
    );
}
