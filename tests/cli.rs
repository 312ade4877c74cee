//! Black-box tests of the `strata` command line.

mod support;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;
use support::{fixtures, strata_bin, TempDir};

fn strata(args: &[&str]) -> Output {
    Command::new(strata_bin())
        .args(args)
        .output()
        .expect("run strata")
}

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&out.stdout));
    })
}

fn fixture(name: &str) -> String {
    fixtures().join(name).to_string_lossy().into_owned()
}

#[test]
fn version_is_printed() {
    let out = strata(&["--version"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("strata {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn demo_workspace_checks_clean_in_validate_json_shape() {
    let out = strata(&["check", &fixture("demo"), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let json = json_of(&out);
    assert_eq!(json["format_version"], "1.0");
    assert_eq!(json["valid"], true);
    assert_eq!(json["error_count"], 0);
    assert_eq!(json["warning_count"], 0);
    assert_eq!(json["diagnostics"], serde_json::json!([]));
}

#[test]
fn syntax_errors_are_reported_with_file_line_column_and_byte() {
    let out = strata(&["check", &fixture("syntax-error"), "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "errors exit 1");
    let json = json_of(&out);
    assert_eq!(json["valid"], false);
    assert_eq!(json["error_count"], 2);
    let diags = json["diagnostics"].as_array().unwrap();
    let broken = diags
        .iter()
        .find(|d| d["range"]["filename"] == "main.tf")
        .expect("main.tf error");
    assert_eq!(broken["severity"], "error");
    assert_eq!(broken["range"]["start"]["line"], 6);
    assert_eq!(broken["range"]["start"]["column"], 11);
    let text = std::fs::read_to_string(fixtures().join("syntax-error/main.tf")).unwrap();
    let byte = broken["range"]["start"]["byte"].as_u64().unwrap() as usize;
    assert_eq!(
        &text[byte..byte + 1],
        "=",
        "byte offset points at the error"
    );

    let unclosed = diags
        .iter()
        .find(|d| d["range"]["filename"] == "unclosed.tf")
        .expect("unclosed.tf error");
    assert_eq!(unclosed["summary"], "Unclosed configuration block");
    assert_eq!(unclosed["range"]["start"]["line"], 1);
    assert_eq!(unclosed["range"]["start"]["column"], 34);
}

#[test]
fn text_format_reads_like_terraform() {
    let out = strata(&["check", &fixture("syntax-error")]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Error: Unclosed configuration block"),
        "{text}"
    );
    assert!(
        text.contains("  on unclosed.tf line 1, in resource \"terraform_data\" \"open\":"),
        "{text}"
    );
    assert!(text.contains("    6:   input = = \"x\""), "{text}");
    assert!(!text.contains("Success!"));
}

#[test]
fn constructs_terraform_accepts_raise_no_error() {
    let out = strata(&["check", &fixture("hcl-quirks"), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(json_of(&out)["error_count"], 0);
    // The text format says which expression was not analysed.
    let out = strata(&["check", &fixture("hcl-quirks")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.matches("Note: Expression not analysed").count(),
        1,
        "{text}"
    );
    assert!(text.contains("line 17"), "{text}");
    assert!(text.contains("Success! The configuration is valid."));
}

#[test]
fn unreadable_paths_are_one_line_on_stderr_and_exit_2() {
    let out = strata(&["check", "/no/such/dir", "--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("strata: cannot read directory /no/such/dir"),
        "{err}"
    );
    assert!(out.stdout.is_empty());

    let dir = TempDir::new("cli-file");
    let file = dir.write("main.tf", "");
    let out = strata(&["check", &file.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a directory"));
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(strata(&["check", "--format", "xml"]).status.code(), Some(2));
    assert_eq!(strata(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn dialect_flag_decides_which_files_count() {
    let dir = TempDir::new("cli-dialect");
    dir.write("main.tf", "variable \"a\" {}\n");
    dir.write("main.tofu", "variable \"a\" {\n");
    let path = dir.path().to_string_lossy().into_owned();
    // Detected OpenTofu: the broken .tofu twin hides main.tf.
    let out = strata(&["check", &path, "--format", "json"]);
    assert_eq!(json_of(&out)["error_count"], 1);
    // Terraform reads main.tf only.
    let out = strata(&["check", &path, "--format", "json", "--dialect", "terraform"]);
    assert_eq!(json_of(&out)["error_count"], 0);
}

/// Reads `../shared/corpus` (real public modules): every file Terraform accepts must
/// check without a syntax error. Skipped, visibly, where the corpus is absent.
#[test]
fn corpus_has_no_false_syntax_errors() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    if !corpus.is_dir() {
        support::skip(
            "corpus_has_no_false_syntax_errors",
            &format!("{} not found", corpus.display()),
        );
        return;
    }
    let out = strata(&["check", &corpus.to_string_lossy(), "--format", "json"]);
    let json = json_of(&out);
    assert_eq!(json["error_count"], 0, "{:#}", json["diagnostics"]);
    assert_eq!(out.status.code(), Some(0));
    // The two files with a repeated object key are understood but for that expression.
    let out = strata(&["check", &corpus.to_string_lossy()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.matches("Note: Expression not analysed").count(),
        2,
        "{text}"
    );
}
