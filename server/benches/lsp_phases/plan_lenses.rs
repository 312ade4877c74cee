//! The LSP benchmark's plan phase (issues 14 and 16): a module with a prior state, edited
//! as a user types, each edit followed by what an editor asks for then: the code lenses
//! of the edited file (each resource's planned action), its inlay hints (the same words
//! beside each header), the diagnostics, and the inlay hints of the module's largest
//! file. Every edit changes the module, so each one is planned again once, and the
//! requests after the first read the kept plan.
//!
//! Two modules, each copied into a scratch directory: `fixtures/plan/scenario` (a
//! fixture of 18 resource blocks with a state of 20 resources) and the corpus's largest module, which has no
//! state: it gets an empty one (every resource is planned for creation) and a
//! `terraform.tfvars` (`BENCH_VARIABLES`), so that the plan has no errors and the lenses show. The edited file is the module's largest
//! file holding a resource block. With `STRATA_BENCH_PHASE=plan` only this phase runs.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::json;

use super::support::{self, TempDir};
use super::{index_once, report, timed, EDITS};

/// Values for the largest module's (`Azure__terraform-azurerm-aks`) required variables,
/// and for those whose default fails a validation or precondition in Terraform too (HCL's
/// `||` evaluates both sides), so that it plans without errors.
const BENCH_VARIABLES: &str = r#"resource_group_name = "bench"
location = "bench"
prefix = "bench"
agents_pool_undrainable_node_behavior = "Cordon"
net_profile_pod_cidrs = ["10.244.0.0/16"]
net_profile_service_cidrs = ["10.0.0.0/16"]
bootstrap_profile = {}
"#;

/// An empty prior state.
const EMPTY_STATE: &str = r#"{"version": 4, "serial": 1, "lineage": "bench", "resources": []}"#;

/// Runs the phase on the fixture and on the corpus's largest module; whether it was
/// asked to run alone.
pub fn run(corpus: &Path) -> bool {
    let fixture = support::fixtures().join("plan/scenario");
    if fixture.is_dir() {
        bench_module("fixture plan/scenario", &fixture, None);
    } else {
        eprintln!(
            "SKIPPED plan lenses on the fixture: {} not found",
            fixture.display()
        );
    }
    if let Some((dir, _)) = super::largest_module(corpus) {
        let name = dir
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        bench_module(&format!("corpus {name}"), &dir, Some(EMPTY_STATE));
    }
    std::env::var("STRATA_BENCH_PHASE").is_ok_and(|p| p == "plan")
}

/// Copies the module in `source` (its `.tf` files and state, or `state` when given, with
/// the bench's variables), then edits it `EDITS` times as an editor does.
fn bench_module(label: &str, source: &Path, state: Option<&str>) {
    let copy = TempDir::new("bench-plan-lenses");
    for entry in std::fs::read_dir(source).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".tf") || name == "terraform.tfstate" {
            std::fs::copy(entry.path(), copy.path().join(&name)).expect("copy");
        }
    }
    if let Some(state) = state {
        copy.write("terraform.tfstate", state);
        copy.write("terraform.tfvars", BENCH_VARIABLES);
    }
    let Some((edited, largest)) = files(copy.path()) else {
        eprintln!("SKIPPED plan lenses on {label}: no resource block");
        return;
    };
    let (mut client, _) = index_once(copy.path());
    let text = std::fs::read_to_string(&edited).expect("read");
    let u = client.open(&edited, &text, 0);
    client.diagnostics_for(&u, |p| p["version"] == 0);
    let lenses = client.request(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": u } }),
    );
    let planned = lenses.as_array().map_or(0, |l| {
        l.iter()
            .filter(|l| l["command"]["command"] == "strata.showPlannedChange")
            .count()
    });
    // Without the plan's lenses the figures would measure something else.
    assert!(planned > 0, "{label}: no plan lens in {}", edited.display());
    let largest_text = std::fs::read_to_string(&largest).expect("read");
    let whole = |u: &str, text: &str| {
        json!({ "textDocument": { "uri": u },
                "range": { "start": { "line": 0, "character": 0 },
                           "end": { "line": text.lines().count() + 1, "character": 0 } } })
    };
    let largest_u = support::uri(&largest);
    let hints_largest = whole(&largest_u, &largest_text);

    let mut lens = Vec::new();
    let mut hints = Vec::new();
    let mut diagnostics = Vec::new();
    let mut largest_hints = Vec::new();
    let mut kept = Vec::new();
    for version in 1..=EDITS as i32 {
        let (range, insert) = if version % 2 == 1 {
            (
                json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}),
                "# edit\n",
            )
        } else {
            (
                json!({"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}),
                "",
            )
        };
        let current = if version % 2 == 1 {
            format!("# edit\n{text}")
        } else {
            text.clone()
        };
        client.backlog.clear();
        let start = Instant::now();
        client.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": u, "version": version },
                    "contentChanges": [{ "range": range, "text": insert }] }),
        );
        // As an editor does: the lenses at once, then the hints of what it shows.
        let document = json!({ "textDocument": { "uri": u } });
        let (answered, parsed) = timed(&mut client, "textDocument/codeLens", document.clone()).0;
        lens.push((answered, parsed));
        hints.push(timed(&mut client, "textDocument/inlayHint", whole(&u, &current)).0);
        client.diagnostics_for(&u, |p| p["version"] == version);
        let published = start.elapsed().as_secs_f64();
        diagnostics.push((published, published));
        largest_hints.push(timed(&mut client, "textDocument/inlayHint", hints_largest.clone()).0);
        kept.push(timed(&mut client, "textDocument/codeLens", document).0);
    }
    let label = format!(
        "{label}; edited {} ({} bytes), {planned} plan lenses",
        name(&edited),
        text.len()
    );
    report(&format!("[{label}] edit -> codeLens answered"), lens);
    report(
        &format!("[{label}] inlayHint of the edited file right after"),
        hints,
    );
    report(
        // Looked for once the lenses and hints are answered: an upper bound.
        &format!("[{label}] edit -> diagnostics, read after the lens and hints"),
        diagnostics,
    );
    report(
        &format!(
            "[{label}] inlayHint of the largest file {} ({} bytes)",
            name(&largest),
            largest_text.len()
        ),
        largest_hints,
    );
    report(&format!("[{label}] codeLens again, nothing changed"), kept);
}

/// The largest `.tf` file of `dir` holding a resource block, and its largest `.tf` file.
fn files(dir: &Path) -> Option<(PathBuf, PathBuf)> {
    let mut tf: Vec<(u64, PathBuf)> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "tf"))
        .map(|e| (e.metadata().map_or(0, |m| m.len()), e.path()))
        .collect();
    tf.sort();
    let largest = tf.last()?.1.clone();
    let edited = tf.iter().rev().find(|(_, p)| {
        std::fs::read_to_string(p).is_ok_and(|t| t.lines().any(|l| l.starts_with("resource ")))
    })?;
    Some((edited.1.clone(), largest))
}

fn name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}
