//! `strata`'s formatter against `terraform fmt` itself: every `.tf` and `.tfvars` file of
//! `../shared/corpus`, as written and mangled (indentation removed or made of tabs,
//! alignment broken, spacing collapsed and expanded, trailing blanks, lone interpolations,
//! legacy variable types, unquoted labels), formatted by both; the bytes must be
//! identical. A file either side refuses for a syntax error must be left as it is by both.
//!
//! Skipped, visibly, without the corpus or `terraform` on PATH; `STRATA_REQUIRE_TERRAFORM=1`
//! (CI) makes a missing `terraform` a failure.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use regex::Regex;
use strata::ide::format::formatted;

/// A mangled copy of a file's text, named.
struct Mangle {
    name: &'static str,
    apply: fn(&str) -> String,
}

fn lines_mapped(text: &str, f: impl Fn(&str) -> String) -> String {
    text.split_inclusive('\n')
        .map(|line| {
            let (body, end) = match line.strip_suffix('\n') {
                Some(body) => (body, "\n"),
                None => (line, ""),
            };
            f(body) + end
        })
        .collect()
}

/// A pattern compiled once.
macro_rules! pattern {
    ($re:literal) => {{
        static RE: std::sync::LazyLock<Regex> =
            std::sync::LazyLock::new(|| Regex::new($re).expect("valid pattern"));
        &*RE
    }};
}

fn unindented(t: &str) -> String {
    lines_mapped(t, |l| l.trim_start_matches([' ', '\t']).to_string())
}

fn tabs(t: &str) -> String {
    lines_mapped(t, |l| {
        let spaces = l.len() - l.trim_start_matches(' ').len();
        format!("{}{}", "\t".repeat(spaces / 2), &l[spaces - spaces % 2..])
    })
}

fn collapsed(t: &str) -> String {
    pattern!(" {2,}").replace_all(t, " ").into_owned()
}

fn expanded(t: &str) -> String {
    t.replace(" = ", "   =    ")
        .replace(", ", " ,  ")
        .replace('(', "( ")
}

fn trailing(t: &str) -> String {
    lines_mapped(t, |l| format!("{l} \t "))
}

fn interpolated(t: &str) -> String {
    pattern!(r"(?m)^(\s*[\w-]+\s*=\s*)((?:var|local|module|data)\.[\w.\-]+)[ \t]*$")
        .replace_all(t, "$1\"$${$2}\"")
        .into_owned()
}

fn legacy_types(t: &str) -> String {
    let t = pattern!(r"(?m)^(\s*type\s*=\s*)string[ \t]*$").replace_all(t, "$1\"string\"");
    let t = pattern!(r"(?m)^(\s*type\s*=\s*)list\((?:string|any)\)[ \t]*$")
        .replace_all(&t, "$1\"list\"");
    let t = pattern!(r"(?m)^(\s*type\s*=\s*)map\(any\)[ \t]*$").replace_all(&t, "${1}map");
    pattern!(r"(?m)^(\s*type\s*=\s*)map\(string\)[ \t]*$")
        .replace_all(&t, "$1\"map\"")
        .into_owned()
}

fn bare_labels(t: &str) -> String {
    pattern!(r#"(?m)^([ \t]*\w+)[ \t]+"([A-Za-z_][\w-]*)"(?:[ \t]+"([A-Za-z_][\w-]*)")?[ \t]*\{"#)
        .replace_all(t, "$1 /* x */ $2 $3 /* y */{")
        .into_owned()
}

/// The mangled copies, several mangles to a copy (so that `terraform fmt` runs over fewer
/// files): Terraform's rewrites with indentation and spacing broken, then tabs and wide
/// spacing.
const MANGLES: [Mangle; 2] = [
    Mangle {
        name: "rewrites-unindented-collapsed-trailing",
        apply: |t| {
            trailing(&collapsed(&unindented(&bare_labels(&legacy_types(
                &interpolated(t),
            )))))
        },
    },
    Mangle {
        name: "tabs-expanded",
        apply: |t| expanded(&tabs(t)),
    },
];

fn corpus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_symlink() {
            continue;
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if path.is_dir() {
            if name != ".terraform" && name != ".git" {
                corpus_files(&path, out);
            }
        } else if name.ends_with(".tf") || name.ends_with(".tfvars") {
            out.push(path);
        }
    }
}

fn terraform_available() -> bool {
    Command::new("terraform")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn formats_the_corpus_as_terraform_fmt_does() {
    let test = "formats_the_corpus_as_terraform_fmt_does";
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    if !terraform_available() {
        assert!(
            std::env::var_os("STRATA_REQUIRE_TERRAFORM").is_none(),
            "STRATA_REQUIRE_TERRAFORM is set but terraform is not on PATH"
        );
        support::skip(test, "terraform not found on PATH");
        return;
    }
    if !corpus.is_dir() {
        support::skip(test, &format!("{} not found", corpus.display()));
        return;
    }
    let mut files = Vec::new();
    corpus_files(&corpus, &mut files);
    let scratch = support::TempDir::new("fmt-differential");
    let mut cases = Vec::new();
    for (i, path) in files.iter().enumerate() {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut variants = vec![("as-written", text.clone())];
        variants.extend(MANGLES.iter().map(|m| (m.name, (m.apply)(&text))));
        for (variant, input) in variants {
            let copy = scratch.write(&format!("{variant}/{i}/{name}"), &input);
            cases.push((path.clone(), variant, copy, input));
        }
    }
    let started = std::time::Instant::now();
    let config = scratch.write("cli.tfrc", "");
    let out = Command::new("terraform")
        .args(["fmt", "-recursive", "-list=false"])
        .arg(scratch.path())
        .env("TF_CLI_CONFIG_FILE", &config)
        .env("CHECKPOINT_DISABLE", "1")
        .output()
        .expect("run terraform fmt");
    assert!(
        matches!(out.status.code(), Some(0 | 2)),
        "terraform fmt: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let terraform_took = started.elapsed();
    let mut mismatches = Vec::new();
    for (original, variant, copy, input) in &cases {
        let expected = std::fs::read_to_string(copy).expect("read terraform's output");
        let ours = formatted(input).unwrap_or_else(|_| input.clone());
        if ours != expected {
            let line = ours
                .lines()
                .zip(expected.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| ours.lines().count().min(expected.lines().count()));
            mismatches.push(format!(
                "{} ({variant}), line {}:\n  strata:    {:?}\n  terraform: {:?}",
                original.display(),
                line + 1,
                ours.lines().nth(line).unwrap_or("<end>"),
                expected.lines().nth(line).unwrap_or("<end>"),
            ));
        }
    }
    eprintln!(
        "{} files formatted by both ({terraform_took:?} terraform fmt, {:?} strata), {} differ",
        cases.len(),
        started.elapsed() - terraform_took,
        mismatches.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} of {} files differ from terraform fmt:\n{}",
        mismatches.len(),
        cases.len(),
        mismatches
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
