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
