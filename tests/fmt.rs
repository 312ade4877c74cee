//! `strata fmt` on the cases of `fixtures/fmt/`, each recorded from `terraform fmt` by
//! `scripts/record-fmt.py` (one rule or a few per case: indentation, spacing, alignment,
//! comments, heredocs, lone interpolations, legacy types, labels, line endings, blanks,
//! `.tfvars` and `.tftest.hcl` files, a syntax error left alone), and its command line:
//! listing, `--check`, `--diff`, directories and which files it takes.

mod support;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn strata(args: &[&str], cwd: &Path, stdin: &[u8]) -> Output {
    let mut child = Command::new(support::strata_bin())
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start strata");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().expect("run strata")
}

#[test]
fn formats_every_fixture_as_terraform_fmt_did() {
    let root = support::fixtures().join("fmt");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    dirs.sort();
    let mut failures = Vec::new();
    for dir in &dirs {
        let files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        let find = |prefix: &str| {
            files
                .iter()
                .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
                .cloned()
                .unwrap_or_else(|| panic!("{}: no {prefix}* file", dir.display()))
        };
        let input_path = find("input.");
        let input = std::fs::read(&input_path).unwrap();
        let expected = std::fs::read(find("expected.")).unwrap();
        // On a copy of the file, as the recording ran `terraform fmt` on one.
        let scratch = support::TempDir::new("fmt-fixture");
        let file_name = input_path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let copy = scratch.path().join(&file_name);
        std::fs::write(&copy, &input).unwrap();
        let out = strata(&["fmt", &file_name], scratch.path(), b"");
        let result = std::fs::read(&copy).unwrap();
        let name = dir.file_name().unwrap().to_string_lossy();
        if dir.join("refused").exists() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            if out.status.code() != Some(2) || result != input || !stderr.contains("syntax error") {
                failures.push(format!(
                    "{name}: must be refused, got {:?} {stderr}",
                    out.status
                ));
            }
        } else if result != expected || !out.status.success() {
            failures.push(format!(
                "{name}: {:?}\n--- strata\n{}\n--- terraform\n{}",
                out.status,
                String::from_utf8_lossy(&result),
                String::from_utf8_lossy(&expected)
            ));
        }
    }
    assert!(dirs.len() >= 10, "fixtures/fmt holds {} cases", dirs.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn lists_and_rewrites_changed_files_and_check_only_lists() {
    let dir = support::TempDir::new("fmt-cli");
    dir.write("a.tf", "a  = 1\n");
    dir.write("b.tf", "b = 1\n");
    dir.write("c.tfvars", "c=1\n");
    dir.write("d.tf.json", "{}");
    dir.write(".hidden.tf", "h  = 1\n");
    dir.write("sub/e.tf", "e  = 1\n");

    let check = strata(&["fmt", "--check"], dir.path(), b"");
    assert_eq!(check.status.code(), Some(3));
    assert_eq!(String::from_utf8_lossy(&check.stdout), "a.tf\nc.tfvars\n");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.tf")).unwrap(),
        "a  = 1\n"
    );

    let write = strata(&["fmt", "--recursive"], dir.path(), b"");
    assert!(write.status.success(), "{write:?}");
    assert_eq!(
        String::from_utf8_lossy(&write.stdout),
        "a.tf\nc.tfvars\nsub/e.tf\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.tf")).unwrap(),
        "a = 1\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".hidden.tf")).unwrap(),
        "h  = 1\n"
    );

    let again = strata(&["fmt", "--check", "--recursive"], dir.path(), b"");
    assert_eq!(again.status.code(), Some(0));
    assert!(again.stdout.is_empty());
}

#[test]
fn standard_input_is_printed_as_terraform_prints_it() {
    let dir = support::TempDir::new("fmt-stdin");
    // Terraform prints the result as a line of its UI: ending in one line break.
    let out = strata(&["fmt", "-"], dir.path(), b"a  = 1");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "a = 1\n");
    let check = strata(&["fmt", "--check", "-"], dir.path(), b"a  = 1\n");
    assert_eq!(check.status.code(), Some(3));
    assert!(check.stdout.is_empty());
}

#[test]
fn diff_prints_a_unified_diff() {
    let dir = support::TempDir::new("fmt-diff");
    dir.write("main.tf", "x = 1\na  = 1\nb = 2\n");
    let out = strata(&["fmt", "--check", "--diff", "main.tf"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "main.tf\n--- old/main.tf\n+++ new/main.tf\n@@ -1,3 +1,3 @@\n x = 1\n-a  = 1\n+a = 1\n b = 2\n"
    );
}

#[test]
fn refuses_other_files_and_reports_syntax_errors() {
    let dir = support::TempDir::new("fmt-refused");
    dir.write("x.tf.json", "{}");
    dir.write("broken.tf", "a = \n");
    let json = strata(&["fmt", "x.tf.json"], dir.path(), b"");
    assert_eq!(json.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&json.stderr).contains("only .tf"));
    let broken = strata(&["fmt", "broken.tf"], dir.path(), b"");
    assert_eq!(broken.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&broken.stderr).contains("broken.tf:1"),
        "{broken:?}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("broken.tf")).unwrap(),
        "a = \n"
    );
}
