//! The VS Code extension (`editors/vscode/`): its unit tests (settings mapping, command
//! arguments, grammar) and its packaging into a `.vsix`, through npm. Skipped, visibly,
//! where its `node_modules` is not installed; `.ci/run` installs it (`npm ci`) and sets
//! `STRATA_REQUIRE_VSCODE` so that there it cannot skip.

mod support;

use std::path::PathBuf;
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

#[test]
fn extension_packages_into_a_vsix() {
    npm("extension_packages_into_a_vsix", &["run", "package"]);
    if !extension_dir().join("node_modules").is_dir() {
        return;
    }
    let vsix = extension_dir().join("strata.vsix");
    let size = std::fs::metadata(&vsix).map_or(0, |m| m.len());
    assert!(size > 10_000, "strata.vsix is {size} bytes");
}
