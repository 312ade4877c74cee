//! `strata merged` over every fixture in `fixtures/merge/`: the output must equal the
//! fixture's `expected.json` (compared as JSON) and `expected.txt` (compared as text).
//! Each fixture's files say in comments which rule they exercise.

mod support;

use std::path::Path;

use std::process::Command;

use serde_json::Value;
use support::{fixtures, strata_bin};

fn merged(dir: &Path, format: &str) -> String {
    let out = Command::new(strata_bin())
        .args(["merged", &dir.to_string_lossy(), "--format", format])
        .output()
        .expect("run strata merged");
    assert!(out.status.success(), "{}: {out:?}", dir.display());
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn every_merge_fixture_matches_its_expected_output() {
    let mut dirs: Vec<_> = std::fs::read_dir(fixtures().join("merge"))
        .expect("fixtures/merge")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 10, "fixtures/merge has its fixtures");
    let mut checked = 0;
    for dir in &dirs {
        let json = dir.join("expected.json");
        if json.exists() {
            let expected: Value =
                serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
            let actual: Value = serde_json::from_str(&merged(dir, "json")).unwrap();
            assert_eq!(
                actual,
                expected,
                "{}: merged JSON differs\n{}",
                dir.display(),
                serde_json::to_string_pretty(&actual).unwrap()
            );
            checked += 1;
        }
        let text = dir.join("expected.txt");
        if text.exists() {
            let expected = std::fs::read_to_string(&text).unwrap();
            let actual = merged(dir, "text");
            assert_eq!(actual, expected, "{}: merged text differs", dir.display());
            checked += 1;
        }
    }
    assert!(checked >= dirs.len(), "every fixture has an expectation");
}

#[test]
fn merged_refuses_a_directory_without_configuration() {
    let dir = support::TempDir::new("merged-empty");
    let out = Command::new(strata_bin())
        .args(["merged", &dir.path().to_string_lossy()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no Terraform configuration files"));
}
