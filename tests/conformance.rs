//! Runs `../shared/conformance/run.py`, OpenTofu's own configuration-loading fixtures,
//! against the built binary: every fixture must pass, `check` and `merged` alike, in
//! both the automatic dialect mode and with `--dialect opentofu`. Reads `../shared`;
//! skipped, visibly, where it is absent.

mod support;

use std::path::Path;
use std::process::Command;

use support::strata_bin;

#[test]
fn every_conformance_fixture_passes() {
    let runner = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/run.py");
    if !runner.exists() {
        support::skip(
            "every_conformance_fixture_passes",
            &format!("{} not found", runner.display()),
        );
        return;
    }
    for dialect in ["auto", "opentofu"] {
        let out = Command::new("python3")
            .arg(&runner)
            .arg(strata_bin())
            .args(["--dialect", dialect])
            .output()
            .expect("run python3 run.py");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let failures: Vec<&str> = stdout.lines().filter(|l| l.starts_with("FAIL")).collect();
        assert!(
            failures.is_empty(),
            "conformance ({dialect}):\n{}",
            failures.join("\n")
        );
        assert!(out.status.success(), "{stdout}");
        let last = stdout.lines().last().unwrap_or_default();
        assert!(last.ends_with(" 0 failed"), "{last}");
    }
}
