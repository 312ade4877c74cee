//! Strata's plan of a fixture in the layout of `fixtures/plan-recorded/` (README there)
//! against what `scripts/record-plan.py` recorded from real Terraform, aspect by aspect:
//! the errors and warnings (summary and detail), the exit status, which addresses are
//! planned, each change's actions, action reason, previous address and values (before,
//! after, after_unknown), and where recorded the `configuration` of `terraform show -json`
//! (against `strata merged --format json`) and the text of `terraform show` (against
//! `strata plan`). Used by `plan_recorded.rs` and `differential.rs`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use serde_json::{Map, Value};

use super::strata_bin;

/// One way in which Strata's plan can differ from Terraform's, as the differential test
/// counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Aspect {
    /// The errors and warnings, by summary and detail, as sets.
    Diagnostics,
    /// Exit status 1 exactly when Terraform's plan failed.
    ExitStatus,
    /// The same instance addresses planned.
    Addresses,
    /// Each change's `actions`.
    Actions,
    /// Each change's `action_reason`.
    ActionReasons,
    /// Each change's `previous_address`.
    PreviousAddresses,
    /// Each change's `before`, `after` and `after_unknown` (and `before_sensitive` and
    /// `after_sensitive` where the recording holds them).
    Values,
    /// The `output_changes`, where the recording holds them.
    Outputs,
    /// `strata merged --format json` against `show -json`'s `configuration`.
    Configuration,
    /// `strata plan` against `terraform show`.
    Text,
}

impl Aspect {
    /// Every aspect, in report order.
    pub const ALL: [Aspect; 10] = [
        Aspect::Diagnostics,
        Aspect::ExitStatus,
        Aspect::Addresses,
        Aspect::Actions,
        Aspect::ActionReasons,
        Aspect::PreviousAddresses,
        Aspect::Values,
        Aspect::Outputs,
        Aspect::Configuration,
        Aspect::Text,
    ];

    /// The aspect's name in reports and `PENDING` files.
    pub fn name(self) -> &'static str {
        match self {
            Aspect::Diagnostics => "diagnostics",
            Aspect::ExitStatus => "exit-status",
            Aspect::Addresses => "addresses",
            Aspect::Actions => "actions",
            Aspect::ActionReasons => "action-reasons",
            Aspect::PreviousAddresses => "previous-addresses",
            Aspect::Values => "values",
            Aspect::Outputs => "outputs",
            Aspect::Configuration => "configuration",
            Aspect::Text => "text",
        }
    }

    /// The aspect a name stands for.
    pub fn named(name: &str) -> Option<Aspect> {
        Aspect::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The aspect a compared field of a resource change belongs to.
    fn of_field(field: &str) -> Aspect {
        match field {
            "actions" => Aspect::Actions,
            "action_reason" => Aspect::ActionReasons,
            "previous_address" => Aspect::PreviousAddresses,
            _ => Aspect::Values,
        }
    }
}

/// The fields compared only where the recording holds them (recordings made before the
/// script kept them do not).
const RECORDED_ONLY: &[&str] = &["before_sensitive", "after_sensitive"];

/// One difference: its aspect and a description (values pretty-printed beneath it).
#[derive(Clone, Debug)]
pub struct Difference {
    pub aspect: Aspect,
    pub detail: String,
}

impl Difference {
    fn new(aspect: Aspect, detail: String) -> Self {
        Self { aspect, detail }
    }
}

/// The fields of one resource change that are compared, keyed by address.
type Changes = BTreeMap<String, Map<String, Value>>;

/// The non-empty lines of a fixture's `args` or `env` file.
fn lines(dir: &Path, name: &str) -> Vec<String> {
    std::fs::read_to_string(dir.join(name))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// Runs `strata plan` on a fixture in `format`: with the fixture's `args` (one a line) and
/// its `env` (`NAME=VALUE` a line), as the recording script gives them to Terraform, and
/// the schema file its `provider-schemas` names (Terraform had the provider itself).
fn run_plan(dir: &Path, format: &str) -> std::process::Output {
    let env = lines(dir, "env");
    Command::new(strata_bin())
        .args(["plan", &dir.to_string_lossy(), "--format", format])
        .args(lines(dir, "args"))
        .args(super::provider_schema_args(dir))
        .envs(env.iter().filter_map(|v| v.split_once('=')))
        .output()
        .expect("run strata plan")
}

/// Strata's plan of a fixture, as JSON, and its exit status.
pub fn strata_plan(dir: &Path) -> (Value, Option<i32>) {
    let out = run_plan(dir, "json");
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: plan prints JSON ({e}); stderr: {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (json, out.status.code())
}

/// Whether Terraform's plan of the recording failed.
pub fn plan_failed(recorded: &Value) -> bool {
    recorded["errors"].as_array().is_some_and(|e| !e.is_empty())
}

/// Every difference between Terraform's recorded plan (`terraform-plan.json`) and Strata's
/// JSON plan with its exit status, in the diagnostics, the exit status and the resource
/// changes. Where Terraform's plan failed it wrote no plan, so only the diagnostics and
/// the exit status are compared.
pub fn plan_differences(recorded: &Value, actual: &Value, code: Option<i32>) -> Vec<Difference> {
    let mut found = Vec::new();
    for key in ["errors", "warnings"] {
        let (theirs, ours) = (diagnostics(&recorded[key]), diagnostics(&actual[key]));
        if theirs != ours {
            found.push(Difference::new(
                Aspect::Diagnostics,
                format!(
                    "{key}: Terraform {}\n  Strata    {}",
                    Value::from(theirs),
                    Value::from(ours)
                ),
            ));
        }
    }
    let failed = plan_failed(recorded);
    if code != Some(i32::from(failed)) {
        found.push(Difference::new(
            Aspect::ExitStatus,
            format!("exit status {code:?}, the plan failed: {failed}"),
        ));
    }
    if failed {
        return found;
    }
    let theirs = recorded_changes(recorded);
    let ours = strata_changes(actual);
    for (address, their) in &theirs {
        let Some(our) = ours.get(address) else {
            found.push(Difference::new(
                Aspect::Addresses,
                format!("{address}: planned by Terraform, not by Strata"),
            ));
            continue;
        };
        let fields: BTreeSet<&String> = their.keys().chain(our.keys()).collect();
        for field in fields {
            if RECORDED_ONLY.contains(&field.as_str()) && !their.contains_key(field) {
                continue;
            }
            let (t, o) = (
                their.get(field).unwrap_or(&Value::Null),
                our.get(field).unwrap_or(&Value::Null),
            );
            if t != o {
                found.push(Difference::new(
                    Aspect::of_field(field),
                    format!(
                        "{address} {field}:\n    Terraform {}\n    Strata    {}",
                        compact(t),
                        compact(o)
                    ),
                ));
            }
        }
    }
    for address in ours.keys().filter(|a| !theirs.contains_key(*a)) {
        found.push(Difference::new(
            Aspect::Addresses,
            format!("{address}: planned by Strata, not by Terraform"),
        ));
    }
    if let Some(theirs) = recorded.get("output_changes") {
        let ours = &actual["output_changes"];
        let mut paths = Vec::new();
        json_differences("", theirs, ours, &mut paths);
        if !paths.is_empty() {
            found.push(Difference::new(Aspect::Outputs, paths.join("\n  ")));
        }
    }
    found
}

/// `strata plan`'s text against `terraform-plan.txt`, the text of `terraform show`. A
/// failed plan's recording is `terraform plan`'s text instead, with progress lines
/// Strata does not print: there only the diagnostics' source snippets are compared.
pub fn text_difference(dir: &Path, recorded: &Value) -> Option<Difference> {
    let theirs = std::fs::read_to_string(dir.join("terraform-plan.txt")).ok()?;
    let ours = String::from_utf8_lossy(&run_plan(dir, "text").stdout).into_owned();
    if plan_failed(recorded) {
        let detail = different_lines(&snippet_lines(&theirs), &snippet_lines(&ours))?;
        return Some(Difference::new(Aspect::Text, detail));
    }
    let (plan, diagnostics) = split_diagnostics(&ours);
    let mut detail = different_lines(&theirs, plan);
    // `terraform show` prints no warnings; `strata plan` prints them after the plan, as
    // `terraform plan` does: they must be exactly the warnings Terraform's plan reported.
    let mut printed = diagnostics;
    printed.sort();
    let mut warned: Vec<String> = recorded["warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|w| Some(format!("Warning: {}", w["summary"].as_str()?)))
        .collect();
    warned.sort();
    if printed != warned {
        let warnings = format!("warnings printed: {printed:?}, Terraform's: {warned:?}");
        detail = Some(match detail {
            Some(d) => format!("{d}\n    {warnings}"),
            None => warnings,
        });
    }
    Some(Difference::new(Aspect::Text, detail?))
}

/// The lines of the diagnostics' source snippets, sorted: each `  with ADDRESS,`, each
/// `  on FILE line N, in CONTEXT:`, each numbered source line (`  12: input = var.x`)
/// and the notes of the expression's values (`    │ var.x is "a"` under `├────`).
fn snippet_lines(text: &str) -> String {
    let numbered = |l: &str| {
        let t = l.trim_start();
        let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        digits > 0 && t[digits..].starts_with(':')
    };
    let mut lines: Vec<&str> = text
        .lines()
        .filter(|l| {
            (l.starts_with("  on ") && l.ends_with(':'))
                || (l.starts_with("  with ") && l.ends_with(','))
                || l.starts_with("    ├─")
                || l.starts_with("    │ ")
                || numbered(l)
        })
        .collect();
    lines.sort_unstable();
    lines.join("\n")
}

/// Strata's plan text and the headings (`Warning: SUMMARY`, `Error: SUMMARY`) of the
/// diagnostics it prints after the plan: from the first heading on, after a blank line
/// (a plan's own lines are indented or prose that never starts so).
fn split_diagnostics(text: &str) -> (&str, Vec<String>) {
    let heading = |l: &str| l.starts_with("Warning: ") || l.starts_with("Error: ");
    let start = text
        .match_indices("\n\n")
        .map(|(i, _)| i + 1)
        .find(|&i| heading(&text[i + 1..]));
    let Some(start) = start else {
        return (text, Vec::new());
    };
    let headings = text[start..]
        .lines()
        .filter(|l| heading(l))
        .map(str::to_string)
        .collect();
    (&text[..start], headings)
}

/// `strata merged --format json` against `terraform-configuration.json`, the
/// `configuration` of `terraform show -json`, where the fixture records it.
pub fn configuration_difference(dir: &Path) -> Option<Difference> {
    let text = std::fs::read_to_string(dir.join("terraform-configuration.json")).ok()?;
    let theirs: Value = serde_json::from_str(&text).expect("a recording is JSON");
    let out = Command::new(strata_bin())
        .args(["merged", &dir.to_string_lossy(), "--format", "json"])
        .output()
        .expect("run strata merged");
    let ours: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let mut paths = Vec::new();
    json_differences("", &theirs, &ours, &mut paths);
    if paths.is_empty() {
        return None;
    }
    Some(Difference::new(Aspect::Configuration, paths.join("\n  ")))
}

/// Every difference of a fixture, in all aspects its recordings allow.
pub fn all_differences(dir: &Path, recorded: &Value) -> Vec<Difference> {
    let (actual, code) = strata_plan(dir);
    let mut found = plan_differences(recorded, &actual, code);
    found.extend(configuration_difference(dir));
    found.extend(text_difference(dir, recorded));
    found
}

/// What two texts do not share, line by line: the lines only Terraform's text has and
/// those only Strata's has (each as often as it is missing from the other), in order, so
/// that one systematic difference does not hide the others.
fn different_lines(theirs: &str, ours: &str) -> Option<String> {
    if theirs == ours {
        return None;
    }
    let only = |a: &str, b: &str| -> Vec<String> {
        let mut spare: BTreeMap<&str, usize> = BTreeMap::new();
        for line in b.split('\n') {
            *spare.entry(line).or_default() += 1;
        }
        a.split('\n')
            .filter(|line| match spare.get_mut(line) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    false
                }
                _ => true,
            })
            .map(str::to_string)
            .collect()
    };
    let (theirs_only, ours_only) = (only(theirs, ours), only(ours, theirs));
    if theirs_only.is_empty() && ours_only.is_empty() {
        return Some("the same lines in another order".into());
    }
    Some(format!(
        "lines only in Terraform's: {theirs_only:?}\n    lines only in Strata's:    {ours_only:?}"
    ))
}

/// The JSON paths where two values differ, each with both values (at most 20).
fn json_differences(path: &str, theirs: &Value, ours: &Value, found: &mut Vec<String>) {
    if found.len() >= 20 || theirs == ours {
        return;
    }
    match (theirs, ours) {
        (Value::Object(t), Value::Object(o)) => {
            let keys: BTreeSet<&String> = t.keys().chain(o.keys()).collect();
            for key in keys {
                let (a, b) = (
                    t.get(key).unwrap_or(&Value::Null),
                    o.get(key).unwrap_or(&Value::Null),
                );
                json_differences(&format!("{path}/{key}"), a, b, found);
            }
        }
        (Value::Array(t), Value::Array(o)) if t.len() == o.len() => {
            for (i, (a, b)) in t.iter().zip(o).enumerate() {
                json_differences(&format!("{path}/{i}"), a, b, found);
            }
        }
        _ => found.push(format!(
            "{path}: Terraform {} Strata {}",
            compact(theirs),
            compact(ours)
        )),
    }
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
            let summary = d["summary"].as_str().unwrap_or_default();
            let detail = d["detail"].as_str().unwrap_or_default();
            format!(
                "{}: {}",
                comparable_summary(summary),
                comparable_detail(summary, detail)
            )
        })
        .collect();
    found.sort();
    found
}

/// A diagnostic's summary as compared. Terraform names the nodes of a `Cycle: A, B, C`
/// in an order that differs from run to run (its graph is walked from a map: one plan
/// recorded twice gave two orders), so they are compared sorted; and the key of a
/// deposed object it will destroy (`a (destroy deposed 1a2b3c4d)`) is drawn at random,
/// which Strata leaves out, so it is compared without.
fn comparable_summary(summary: &str) -> String {
    let Some(nodes) = summary.strip_prefix("Cycle: ") else {
        return summary.to_string();
    };
    let without_key = |node: &str| match node.split_once(" (destroy deposed ") {
        Some((addr, _)) => format!("{addr} (destroy deposed)"),
        None => node.to_string(),
    };
    let mut nodes: Vec<String> = nodes.split(", ").map(without_key).collect();
    nodes.sort_unstable();
    format!("Cycle: {}", nodes.join(", "))
}

/// A diagnostic's detail as compared. Terraform lists the objects of `Some objects will no
/// longer be managed by Terraform` in an order that differs from run to run (the same plan
/// recorded four times gave two orders), so their ` - ADDRESS` lines are compared sorted.
fn comparable_detail(summary: &str, detail: &str) -> String {
    if summary != "Some objects will no longer be managed by Terraform" {
        return detail.to_string();
    }
    let mut lines: Vec<&str> = detail.split('\n').collect();
    let listed = |l: &&str| l.starts_with(" - ");
    if let (Some(first), Some(last)) = (
        lines.iter().position(listed),
        lines.iter().rposition(listed),
    ) {
        lines[first..=last].sort_unstable();
    }
    lines.join("\n")
}

/// One value on one line.
fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}
