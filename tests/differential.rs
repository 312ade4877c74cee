//! The differential test against real Terraform (issue 14, item 6).
//! `scripts/differential.py SEED DIR` writes a random configuration on `terraform_data`
//! and a random second version of it, in the layout of `fixtures/plan-recorded/`; with
//! `--record` it has real Terraform apply the first and plan the second
//! (`scripts/record-plan.py`). Strata's plan of the same directory and state is then
//! compared with Terraform's, aspect by aspect (`support::recorded_plan`): errors and
//! warnings, exit status, planned addresses, actions, action reasons, previous addresses,
//! values, `merged` JSON against `show -json`'s `configuration`, and the plan text.
//!
//! - `saved_seeds_plan_as_terraform_recorded` compares the seeds that once failed, kept in
//!   `fixtures/differential/` with Terraform's recordings: it never runs Terraform.
//! - `random_configurations_plan_as_terraform_plans` records a fixed budget of seeds
//!   (`BUDGET`) with the Terraform on PATH and compares them; without `terraform` or
//!   `python3` it prints `SKIPPED`, unless `STRATA_REQUIRE_TERRAFORM=1` makes that a
//!   failure. `STRATA_DIFFERENTIAL_SEEDS=FIRST-LAST` runs another range, and
//!   `STRATA_DIFFERENTIAL_REPORT=FILE` writes every seed's differences there as JSON lines
//!   (for the pass rate over a large range); `STRATA_DIFFERENTIAL_RECORDINGS=DIR` keeps
//!   the recordings in DIR and compares those already there without recording them again.
//!
//! `fixtures/differential/PENDING` lists where Strata does not match Terraform yet, one
//! aspect of one seed a line (`diff-SEED ASPECT why`), for the saved fixtures and the seeds
//! of `BUDGET`. Differences it lists are printed, not failures; but a seed listed must
//! still differ in that aspect whenever it is compared, so the list never hides a fix.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use serde_json::{json, Value};
use support::recorded_plan::{all_differences, Aspect, Difference};
use support::{fixtures, TempDir};

/// The seeds CI records and compares when Terraform is there: about two seconds each.
const BUDGET: RangeInclusive<u64> = 1..=12;

/// What `fixtures/differential/PENDING` says is not matched yet: seeds' aspects that still
/// differ (`diff-SEED`), with why.
#[derive(Default)]
struct Pending {
    seeds: BTreeMap<(String, Aspect), String>,
}

impl Pending {
    fn read() -> Self {
        let text = std::fs::read_to_string(fixtures().join("differential").join("PENDING"))
            .unwrap_or_default();
        let mut pending = Pending::default();
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.splitn(3, char::is_whitespace);
            let name = words.next().unwrap_or_default();
            let aspect = words.next().and_then(Aspect::named).unwrap_or_else(|| {
                panic!("PENDING: `{line}` names no aspect ({:?})", aspect_names())
            });
            let why = words.next().unwrap_or_default().trim().to_string();
            pending.seeds.insert((name.to_string(), aspect), why);
        }
        pending
    }

    /// What is wrong with seed `name`'s comparison: the differences not listed, and the
    /// listed aspects in which it no longer differs. Listed differences are printed.
    fn failures(&self, name: &str, differences: &[Difference]) -> Vec<String> {
        let mut found: Vec<String> = differences
            .iter()
            .filter(|d| !self.seeds.contains_key(&(name.into(), d.aspect)))
            .map(|d| format!("  [{}] {}", d.aspect.name(), d.detail))
            .collect();
        let differing: BTreeSet<Aspect> = differences.iter().map(|d| d.aspect).collect();
        for ((seed, aspect), why) in &self.seeds {
            if seed != name {
                continue;
            }
            if differing.contains(aspect) {
                support::skip(
                    "differential",
                    &format!("PENDING {name} {}: {why}", aspect.name()),
                );
            } else {
                found.push(format!(
                    "  PENDING lists {} but it now matches Terraform; remove it",
                    aspect.name()
                ));
            }
        }
        found
    }
}

fn aspect_names() -> Vec<&'static str> {
    Aspect::ALL.iter().map(|a| a.name()).collect()
}

#[test]
fn saved_seeds_plan_as_terraform_recorded() {
    let pending = Pending::read();
    let recordings = support::recordings("differential", "terraform-plan.json");
    let mut failures = Vec::new();
    for (dir, recorded) in &recordings {
        let name = file_name(dir);
        let failed = pending.failures(&name, &all_differences(dir, recorded));
        if !failed.is_empty() {
            failures.push(format!("{name}:\n{}", failed.join("\n")));
        }
    }
    for (name, _) in pending.seeds.keys() {
        let budgeted = name
            .strip_prefix("diff-")
            .and_then(|seed| seed.parse().ok())
            .is_some_and(|seed| BUDGET.contains(&seed));
        assert!(
            budgeted || recordings.iter().any(|(d, _)| file_name(d) == *name),
            "PENDING names {name}, neither a fixture of fixtures/differential nor a seed of BUDGET"
        );
    }
    assert!(
        failures.is_empty(),
        "saved differential seeds differ from Terraform's recording:\n\n{}",
        failures.join("\n\n")
    );
}

#[test]
fn random_configurations_plan_as_terraform_plans() {
    let test = "random_configurations_plan_as_terraform_plans";
    if let Some(missing) = ["terraform", "python3"].into_iter().find(|t| !on_path(t)) {
        assert!(
            std::env::var("STRATA_REQUIRE_TERRAFORM").as_deref() != Ok("1"),
            "STRATA_REQUIRE_TERRAFORM=1 but {missing} is not on PATH"
        );
        support::skip(test, &format!("{missing} is not on PATH"));
        return;
    }
    let seeds = seeds();
    let pending = Pending::read();
    let report = std::env::var_os("STRATA_DIFFERENTIAL_REPORT")
        .map(|path| Mutex::new(std::fs::File::create(path).expect("create the report")));
    let next = AtomicU64::new(*seeds.start());
    let failures = Mutex::new(Vec::new());
    let differed: Mutex<BTreeMap<Aspect, u64>> = Mutex::default();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let seed = next.fetch_add(1, Ordering::Relaxed);
                if seed > *seeds.end() {
                    break;
                }
                let differences = compare_seed(seed);
                let differing: BTreeSet<Aspect> = differences.iter().map(|d| d.aspect).collect();
                for aspect in differing {
                    *differed
                        .lock()
                        .expect("tally lock")
                        .entry(aspect)
                        .or_default() += 1;
                }
                if let Some(report) = &report {
                    let line = json!({
                        "seed": seed,
                        "differences": differences
                            .iter()
                            .map(|d| json!({"aspect": d.aspect.name(), "detail": d.detail}))
                            .collect::<Vec<_>>(),
                    });
                    let mut file = report.lock().expect("report lock");
                    writeln!(file, "{line}").expect("write the report");
                }
                let unexpected = pending.failures(&format!("diff-{seed}"), &differences);
                if !unexpected.is_empty() {
                    let mut failures = failures.lock().expect("failures lock");
                    failures.push(format!(
                        "seed {seed} (scripts/differential.py {seed} DIR):\n{}",
                        unexpected.join("\n")
                    ));
                }
            });
        }
    });
    let differed = differed.into_inner().expect("tally lock");
    let count = seeds.end() - seeds.start() + 1;
    let rates: Vec<String> = Aspect::ALL
        .iter()
        .map(|a| {
            let same = count - differed.get(a).copied().unwrap_or_default();
            format!("{} {same}/{count}", a.name())
        })
        .collect();
    let _ = writeln!(
        std::io::stderr(),
        "differential: seeds {}-{}, as Terraform in {}",
        seeds.start(),
        seeds.end(),
        rates.join(", ")
    );
    let failures = failures.into_inner().expect("failures lock");
    assert!(
        failures.is_empty(),
        "{} of {} seeds differ from Terraform:\n\n{}",
        failures.len(),
        count,
        failures.join("\n\n")
    );
}

/// Writes and records one seed in a scratch directory, and compares Strata's plan of it.
/// With `STRATA_DIFFERENTIAL_RECORDINGS=DIR` the seed is recorded into `DIR/diff-SEED`
/// and kept there: a seed already recorded there is compared again without Terraform
/// (the generator must not have changed since).
fn compare_seed(seed: u64) -> Vec<Difference> {
    let scratch = TempDir::new(&format!("differential-{seed}"));
    let kept = std::env::var_os("STRATA_DIFFERENTIAL_RECORDINGS").map(PathBuf::from);
    let dir = kept
        .as_deref()
        .unwrap_or(scratch.path())
        .join(format!("diff-{seed}"));
    if dir.join("terraform-plan.json").is_file() {
        return compare_recorded(&dir);
    }
    let out = Command::new("python3")
        .arg(repository().join("scripts/differential.py"))
        .args(["--record", &seed.to_string(), &dir.to_string_lossy()])
        .output()
        .expect("run scripts/differential.py");
    assert!(
        out.status.success(),
        "seed {seed}: recording failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    compare_recorded(&dir)
}

/// Strata's plan of a recorded seed's folder against the recording.
fn compare_recorded(dir: &Path) -> Vec<Difference> {
    let text = std::fs::read_to_string(dir.join("terraform-plan.json")).expect("a recording");
    let recorded: Value = serde_json::from_str(&text).expect("a recording is JSON");
    all_differences(dir, &recorded)
}

/// `BUDGET`, or the range `STRATA_DIFFERENTIAL_SEEDS` (`FIRST-LAST`) names.
fn seeds() -> RangeInclusive<u64> {
    let Ok(range) = std::env::var("STRATA_DIFFERENTIAL_SEEDS") else {
        return BUDGET;
    };
    let parsed = range
        .split_once('-')
        .and_then(|(a, b)| Some(a.parse().ok()?..=b.parse().ok()?));
    parsed.unwrap_or_else(|| panic!("STRATA_DIFFERENTIAL_SEEDS={range}: want FIRST-LAST"))
}

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|p| p.join(tool).is_file()))
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn file_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
