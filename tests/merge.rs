//! `strata merged` over every fixture in `fixtures/merge/`: the output must equal the
//! fixture's `expected.json` (compared as JSON) and `expected.txt` (compared as text).
//! Each fixture's files say in comments which rule they exercise.

mod support;

use std::path::Path;

use std::process::Command;

use serde_json::Value;
use support::{fixtures, strata_bin};

fn merged(dir: &Path, format: &str) -> String {
    let mut command = Command::new(strata_bin());
    command.args(["merged", &dir.to_string_lossy(), "--format", format]);
    if let Some(schemas) = provider_schemas(dir) {
        command.arg("--provider-schemas").arg(schemas);
    }
    let out = command.output().expect("run strata merged");
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

/// The schema file a fixture merges with: its `provider-schemas` file names it.
fn provider_schemas(dir: &Path) -> Option<std::path::PathBuf> {
    let named = std::fs::read_to_string(dir.join("provider-schemas")).ok()?;
    Some(dir.join(named.trim()))
}

/// An expression or body of the `configuration` JSON reduced to what both Terraform and
/// Strata say of it: constant values without nulls (Terraform fills an attribute written
/// as blocks with the schema's null attributes, and shows it as one constant), bodies as
/// objects of those, and references.
fn reduced(value: &Value) -> Value {
    match value {
        Value::Object(map) if map.contains_key("constant_value") => {
            without_nulls(&map["constant_value"])
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| k.as_str() != "dynamic")
                .map(|(k, v)| (k.clone(), reduced(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(reduced).collect()),
        other => other.clone(),
    }
}

fn without_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}

#[test]
fn merging_with_provider_schemas_matches_terraform() {
    let mut checked = 0;
    for (dir, recorded) in support::recordings("merge", "terraform.json") {
        let actual: Value = serde_json::from_str(&merged(&dir, "json")).unwrap();
        let actual = &actual["root_module"]["resources"];
        let by_address = |resources: &Value| -> std::collections::BTreeMap<String, Value> {
            resources
                .as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    (
                        r["address"].as_str().unwrap().to_string(),
                        reduced(&r["expressions"]),
                    )
                })
                .collect()
        };
        assert_eq!(
            by_address(actual),
            by_address(&recorded),
            "{}: merged expressions differ from Terraform's",
            dir.display()
        );
        checked += 1;
    }
    assert!(
        checked >= 1,
        "a fixture records Terraform's merge with schemas"
    );
}

/// Provider configurations merged with their provider's schema against Terraform's own
/// merge (`terraform-providers.json`): Strata's JSON has no provider expressions, so this
/// reads the merged model through the library.
#[test]
fn provider_configurations_merge_as_terraform_merges_them() {
    let mut checked = 0;
    for (dir, recorded) in support::recordings("merge", "terraform-providers.json") {
        let ws = strata::workspace::Workspace::new();
        let schemas = provider_schemas(&dir).expect("a provider-schemas file");
        let loaded = strata::providers::load_schema_files(&[schemas]).unwrap();
        ws.set_provider_schemas(std::sync::Arc::new(loaded));
        let module = ws.index_dir(&dir);
        let merged = ws.merged_of(&module);
        for (name, expressions) in recorded.as_object().unwrap() {
            let provider = &merged.providers[&(name.clone(), None)];
            let ours = Value::Object(strata::jsonconfig::merged_body(&provider.config));
            assert_eq!(
                reduced(&ours),
                reduced(expressions),
                "{}: provider {name}",
                dir.display()
            );
        }
        checked += 1;
    }
    assert!(checked >= 1, "a fixture records Terraform's provider merge");
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
