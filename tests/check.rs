//! `strata check --format json` over every fixture in `fixtures/check/`: the output must
//! equal the fixture's `expected.json`. The fixtures' README says which diagnostics each
//! one holds; `tests/cli.rs` asserts several of them rule by rule.

mod support;

use std::process::Command;

use serde_json::Value;
use support::{fixtures, strata_bin};

#[test]
fn every_check_fixture_reports_its_expected_diagnostics() {
    let mut dirs: Vec<_> = std::fs::read_dir(fixtures().join("check"))
        .expect("fixtures/check")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 10, "fixtures/check has its fixtures");
    for dir in dirs {
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("expected.json")).expect("expected.json"),
        )
        .expect("expected.json is JSON");
        // A fixture that needs provider schemas names the schema file in `provider-schemas`.
        let schemas = support::provider_schema_args(&dir);
        let out = Command::new(strata_bin())
            .args(["check", &dir.to_string_lossy(), "--format", "json"])
            .args(&schemas)
            .output()
            .expect("run strata check");
        let actual: Value = serde_json::from_slice(&out.stdout).expect("check prints JSON");
        assert_eq!(
            actual,
            expected,
            "{}: check output differs:\n{}",
            dir.display(),
            serde_json::to_string_pretty(&actual).unwrap()
        );
        let errors = expected["error_count"].as_u64().unwrap_or(0);
        assert_eq!(out.status.code(), Some(if errors > 0 { 1 } else { 0 }));
    }
}
