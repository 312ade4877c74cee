//! `strata plan --format json` over every fixture in `fixtures/plan-recorded/` against
//! Terraform's own plan of it, `terraform-plan.json`, recorded by `scripts/record-plan.py`
//! (the fixture's `prior/` applied by real Terraform gives `terraform.tfstate`; the
//! top-level configuration is planned against it). Each resource change must match in
//! address, previous address, action reason, actions, before, after and after_unknown
//! (and before_sensitive and after_sensitive, in the recordings that keep them), and
//! the errors and warnings in summary and detail. Where Terraform's plan failed it wrote
//! no plan, so only the diagnostics are compared, and Strata must exit with 1. The test
//! never runs Terraform. A fixture's `args` and `env` files are the plan's arguments and
//! environment variables, for Terraform and Strata alike.

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde_json::{Map, Value};
use support::strata_bin;

/// The fields of one resource change that are compared, keyed by address.
type Changes = BTreeMap<String, Map<String, Value>>;

/// The fields compared only where the recording holds them (recordings made before the
/// script kept them do not).
const RECORDED_ONLY: &[&str] = &["before_sensitive", "after_sensitive"];

#[test]
fn every_recorded_plan_fixture_plans_as_terraform_planned() {
    let recordings = support::recordings("plan-recorded", "terraform-plan.json");
    assert!(
        !recordings.is_empty(),
        "fixtures/plan-recorded has fixtures"
    );
    let mut failures = Vec::new();
    for (dir, recorded) in recordings {
        let (actual, code) = strata_plan(&dir);
        let mut differences = differences(&recorded, &actual);
        let failed = recorded["errors"].as_array().is_some_and(|e| !e.is_empty());
        if code != Some(i32::from(failed)) {
            differences.push(format!("  exit status {code:?}, the plan failed: {failed}"));
        }
        if !differences.is_empty() {
            failures.push(format!("{}:\n{}", dir.display(), differences.join("\n")));
        }
    }
    assert!(
        failures.is_empty(),
        "Strata's plan differs from Terraform's recording:\n\n{}",
        failures.join("\n\n")
    );
}

/// Strata's plan of a fixture, as JSON, and its exit status: with the fixture's `args`
/// (one a line) and its `env` (`NAME=VALUE` a line), as the recording script gives them to
/// Terraform.
fn strata_plan(dir: &Path) -> (Value, Option<i32>) {
    let lines = |name: &str| -> Vec<String> {
        std::fs::read_to_string(dir.join(name))
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect()
    };
    let env = lines("env");
    let out = Command::new(strata_bin())
        .args(["plan", &dir.to_string_lossy(), "--format", "json"])
        .args(lines("args"))
        .envs(env.iter().filter_map(|v| v.split_once('=')))
        .output()
        .expect("run strata plan");
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: plan prints JSON ({e}); stderr: {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (json, out.status.code())
}

/// Every difference between Terraform's recording and Strata's plan, one line each
/// (values pretty-printed beneath it).
fn differences(recorded: &Value, actual: &Value) -> Vec<String> {
    let mut found = Vec::new();
    for key in ["errors", "warnings"] {
        let (theirs, ours) = (diagnostics(&recorded[key]), diagnostics(&actual[key]));
        if theirs != ours {
            found.push(format!(
                "  {key}: Terraform {}\n  Strata    {}",
                Value::from(theirs),
                Value::from(ours)
            ));
        }
    }
    if !recorded["errors"].as_array().is_none_or(Vec::is_empty) {
        return found;
    }
    let theirs = recorded_changes(recorded);
    let ours = strata_changes(actual);
    for (address, their) in &theirs {
        let Some(our) = ours.get(address) else {
            found.push(format!("  {address}: planned by Terraform, not by Strata"));
            continue;
        };
        let fields: std::collections::BTreeSet<&String> = their.keys().chain(our.keys()).collect();
        for field in fields {
            if RECORDED_ONLY.contains(&field.as_str()) && !their.contains_key(field) {
                continue;
            }
            let (t, o) = (
                their.get(field).unwrap_or(&Value::Null),
                our.get(field).unwrap_or(&Value::Null),
            );
            if t != o {
                found.push(format!(
                    "  {address} {field}:\n    Terraform {}\n    Strata    {}",
                    compact(t),
                    compact(o)
                ));
            }
        }
    }
    for address in ours.keys().filter(|a| !theirs.contains_key(*a)) {
        found.push(format!("  {address}: planned by Strata, not by Terraform"));
    }
    found
}

/// A recording's changes, keyed by address.
fn recorded_changes(recorded: &Value) -> Changes {
    recorded["resource_changes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| {
            let mut fields = c.as_object()?.clone();
            let address = fields.remove("address")?.as_str()?.to_string();
            Some((address, fields))
        })
        .collect()
}

/// Strata's changes, trimmed to the fields the recording keeps.
fn strata_changes(actual: &Value) -> Changes {
    actual["resource_changes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| {
            let address = c["address"].as_str()?.to_string();
            let mut fields = Map::new();
            for key in ["previous_address", "action_reason"] {
                if let Some(v) = c.get(key) {
                    fields.insert(key.into(), v.clone());
                }
            }
            for key in ["actions", "before", "after", "after_unknown"]
                .iter()
                .chain(RECORDED_ONLY)
            {
                fields.insert(key.to_string(), c["change"][key].clone());
            }
            Some((address, fields))
        })
        .collect()
}

/// Diagnostics as (summary, detail) strings, sorted: compared as a set.
fn diagnostics(list: &Value) -> Vec<String> {
    let mut found: Vec<String> = list
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            format!(
                "{}: {}",
                d["summary"].as_str().unwrap_or_default(),
                d["detail"].as_str().unwrap_or_default()
            )
        })
        .collect();
    found.sort();
    found
}

/// One value on one line.
fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}
