//! Emacs's eglot against the built server: `editors/emacs/test/eglot-test.el`, in batch
//! Emacs, tries the eglot configuration `editors/README.md` gives on a copy of
//! `fixtures/demo` (the override error as a diagnostic, hover on an overridden resource). Skipped, visibly,
//! where Emacs or its eglot is missing; `.ci/run` installs Debian's `emacs-nox` and
//! `elpa-eglot` and sets `STRATA_REQUIRE_EMACS` so that there it cannot skip.

mod support;

use std::process::Command;

use support::{fixtures, strata_bin, TempDir};

/// A copy of `fixtures/demo` with a `.git` folder, which makes it eglot's project (its
/// root the workspace folder the server indexes) instead of the repository around it.
fn scratch_demo() -> TempDir {
    let dir = TempDir::new("emacs");
    for name in [
        "main.tf",
        "override.tf",
        "terraform.tfstate",
        "network/main.tf",
        "network/override.tf",
    ] {
        let text =
            std::fs::read_to_string(fixtures().join("demo").join(name)).expect("read the demo");
        dir.write(name, &text);
    }
    std::fs::create_dir(dir.path().join(".git")).expect("mkdir .git");
    dir
}

/// Whether batch Emacs can load eglot (built in from Emacs 29, a package before).
fn emacs_with_eglot() -> bool {
    Command::new("emacs")
        .args([
            "--batch",
            "-q",
            "--eval",
            "(kill-emacs (if (require 'eglot nil t) 0 1))",
        ])
        .output()
        .is_ok_and(|out| out.status.success())
}

#[test]
fn eglot_configuration_serves_diagnostics_and_hover() {
    let test = "eglot_configuration_serves_diagnostics_and_hover";
    if !emacs_with_eglot() {
        // CI installs both and sets this, so that a broken install cannot pass as a skip.
        assert!(
            std::env::var_os("STRATA_REQUIRE_EMACS").is_none(),
            "STRATA_REQUIRE_EMACS is set but emacs with eglot is not installed"
        );
        support::skip(test, "emacs with eglot not found (emacs-nox, elpa-eglot)");
        return;
    }
    let script = fixtures().join("../editors/emacs/test/eglot-test.el");
    let demo = scratch_demo();
    let out = Command::new("emacs")
        .args(["--batch", "-q", "-l"])
        .arg(&script)
        .arg(strata_bin())
        .arg(demo.path())
        .output()
        .expect("run emacs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{test}: exit {:?}\n{stdout}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    for step in [
        "ok: diagnostic on line 7",
        "ok: hover shows the effective block",
    ] {
        assert!(stdout.contains(step), "{step}\n{stdout}");
    }
}
