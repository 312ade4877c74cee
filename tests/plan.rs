//! `strata plan --format json` over every fixture in `fixtures/plan/`: the output must
//! equal the fixture's `expected.json`. A fixture's `args` file holds extra command-line
//! arguments, one per line. The fixtures' README says what each one shows.

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
            .output()
            .expect("run strata plan");
        let actual: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{}: plan prints JSON ({e}); stderr: {}",
                dir.display(),
                String::from_utf8_lossy(&out.stderr)
            )
        });
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
