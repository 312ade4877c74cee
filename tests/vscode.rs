//! The VS Code extension (`editors/vscode/`): its unit tests (settings mapping, command
//! arguments, grammar), its packaging into a `.vsix`, and the packaged extension in a real
//! VS Code (code-server driven by chromium). Skipped, visibly, where its `node_modules` or
//! the end-to-end tools are not installed; `.ci/run` installs both and sets
//! `STRATA_REQUIRE_VSCODE` and `STRATA_REQUIRE_VSCODE_E2E` so that there nothing skips.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::fixtures;

fn extension_dir() -> PathBuf {
    fixtures().join("../editors/vscode")
}

fn npm(test: &str, args: &[&str]) {
    let dir = extension_dir();
    if !dir.join("node_modules").is_dir() {
        assert!(
            std::env::var_os("STRATA_REQUIRE_VSCODE").is_none(),
            "STRATA_REQUIRE_VSCODE is set but editors/vscode/node_modules is missing"
        );
        support::skip(test, "editors/vscode/node_modules not installed (npm ci)");
        return;
    }
    let out = Command::new("npm")
        .args(args)
        .current_dir(&dir)
        .output()
        .expect("run npm");
    assert!(
        out.status.success(),
        "npm {args:?}: exit {:?}\n{}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn extension_unit_tests_pass() {
    npm("extension_unit_tests_pass", &["test"]);
}

/// Packages the `.vsix`, then (where its tools are installed) installs it into a real
/// VS Code and drives it: `test/e2e/run.sh`, one test so the two never package at once.
#[test]
fn extension_packages_into_a_vsix_that_works_in_vs_code() {
    let test = "extension_packages_into_a_vsix_that_works_in_vs_code";
    npm(test, &["run", "package"]);
    if !extension_dir().join("node_modules").is_dir() {
        return;
    }
    let vsix = extension_dir().join("strata.vsix");
    let size = std::fs::metadata(&vsix).map_or(0, |m| m.len());
    assert!(size > 10_000, "strata.vsix is {size} bytes");

    let code_server = extension_dir().join(".e2e/tools/node_modules/.bin/code-server");
    let chromium = Path::new("/usr/bin/chromium");
    if !code_server.exists() || !chromium.exists() {
        assert!(
            std::env::var_os("STRATA_REQUIRE_VSCODE_E2E").is_none(),
            "STRATA_REQUIRE_VSCODE_E2E is set but the e2e tools are not installed"
        );
        support::skip(
            &format!("{test} (VS Code part)"),
            "code-server or chromium missing (editors/vscode/test/e2e/install.sh)",
        );
        return;
    }
    let out = Command::new(extension_dir().join("test/e2e/run.sh"))
        .arg(support::strata_bin())
        .output()
        .expect("run the VS Code end-to-end test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "VS Code end-to-end: exit {:?} (screenshots in editors/vscode/.e2e/out)\n{stdout}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    // The measured activation time, for the test's output.
    if let Some(line) = stdout.lines().find(|l| l.starts_with("activation: ")) {
        eprintln!("VS Code {line}");
    }
    for step in [
        "ok: the server inside the package starts with no strata on PATH",
        "ok: setting strata.server.path switches the server without a restart",
        "ok: the Problems panel shows the override error; the status bar says ready",
        "ok: hover shows the effective block, highlighted",
        "ok: Plan Preview shows the plan, word-wrapped",
        "ok: the Plan view groups the changes by action with their reasons; a click reveals the block; the status bar counts them",
        "ok: the Outline view names the override blocks and marks them as overrides",
        "ok: Format Document makes what terraform fmt makes",
        "ok: Rename Symbol changes the base and the override and adds the moved block",
        // Code lens parts, a plan's errors, the activation time.
        "ok: the planned-action lens opens the plan at its resource",
        "ok: the override lens opens the override at its block",
        "ok: plan errors show their source lines in the Plan view and the plan text",
        "ok: the extension activates in under 300 ms",
        // Issue 16's everyday editing.
        "ok: an inlay hint shows the value override.tf gives var.replicas",
        "ok: completion after var. lists the variables, and the accepted one is written",
        "ok: a quick fix writes the argument Terraform suggests",
    ] {
        assert!(stdout.contains(step), "{step}\n{stdout}");
    }
}
