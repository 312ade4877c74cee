//! Black-box tests of what the command line gives CI systems and shells: `check --format
//! sarif` (checked against the SARIF 2.1.0 JSON schema where it is installed), `check
//! --format github` (line by line), `completions` and `man`, `--help`, and the text format
//! byte for byte against `terraform validate`, plain and coloured.

mod support;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;
use support::{fixtures, strata_bin, TempDir};

/// A module with one warning and one error, both recorded from `terraform validate -json`
/// (Terraform 1.11.4): the error's line has an emoji before it, which is one column as
/// Terraform counts and two UTF-16 code units as SARIF counts.
const MODULE: &str = r#"resource "terraform_data" "a" {
  depends_on = ["terraform_data.b"]
}

resource "terraform_data" "b" {}

output "o" {
  value = { "😀" = 1, k = var.nope }
}
"#;

const QUOTED_DETAIL: &str = "In this context, references are expected literally rather than in quotes. Terraform 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of Terraform. Remove the quotes surrounding this reference to silence this warning.";

/// `strata` with `args`, run in `cwd`.
fn strata_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(strata_bin())
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run strata")
}

/// A directory holding `infra/main.tf`, the module above.
fn workspace() -> TempDir {
    let dir = TempDir::new("cli-ci");
    dir.write("infra/main.tf", MODULE);
    dir
}

#[test]
fn github_format_writes_one_workflow_command_a_diagnostic() {
    let dir = workspace();
    let out = strata_in(dir.path(), &["check", "infra", "--format", "github"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            format!(
                "::warning file=infra/main.tf,line=2,endLine=2,col=17,endColumn=35,\
                 title=Quoted references are deprecated::{QUOTED_DETAIL}"
            )
            .as_str(),
            "::error file=infra/main.tf,line=8,endLine=8,col=26,endColumn=34,\
             title=Reference to undeclared input variable::An input variable with the name \
             \"nope\" has not been declared. This variable can be declared with a variable \
             \"nope\" {} block.",
        ]
    );
}

#[test]
fn github_format_escapes_properties_and_names_files_outside_the_current_directory_absolutely() {
    let dir = workspace();
    // A file name holding a comma, which ends a property unless escaped; Terraform reports
    // the precondition's missing error_message and its condition that refers to nothing.
    dir.write(
        "infra/more,1.tf",
        "resource \"terraform_data\" \"c\" {\n  lifecycle {\n    precondition {\n      condition = true\n    }\n  }\n}\n",
    );
    let elsewhere = TempDir::new("cli-ci-cwd");
    let infra = dir.path().join("infra");
    let out = strata_in(
        elsewhere.path(),
        &["check", &infra.to_string_lossy(), "--format", "github"],
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let file = format!("{}/more%2C1.tf", infra.display());
    let lines: Vec<&str> = stdout.lines().filter(|l| l.contains("more")).collect();
    assert_eq!(
        lines,
        [
            format!(
                "::error file={file},line=3,endLine=3,col=18,endColumn=19,title=Missing required \
                 argument::The argument \"error_message\" is required, but no definition was found."
            ),
            format!(
                "::error file={file},line=4,endLine=4,col=19,endColumn=23,title=Invalid \
                 precondition expression::The condition expression must refer to at least one \
                 object from elsewhere in the configuration, or else its result would not be \
                 checking anything."
            ),
        ],
        "{stdout}"
    );
}

/// The `check --format sarif` log of the workspace, run from its root.
fn sarif_log() -> Value {
    let dir = workspace();
    let out = strata_in(dir.path(), &["check", "infra", "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&out.stdout));
    })
}

#[test]
fn sarif_names_rules_by_code_and_summary_and_places_results() {
    let log = sarif_log();
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "strata");
    assert_eq!(run["columnKind"], "utf16CodeUnits");
    let base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap();
    assert!(
        base.starts_with("file:///") && base.ends_with('/'),
        "{base}"
    );

    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 2, "{results:#?}");
    let summaries = [
        ("warning", "Quoted references are deprecated", 2, (17, 35)),
        // The emoji before `var.nope` is two UTF-16 code units: Terraform's column 26.
        (
            "error",
            "Reference to undeclared input variable",
            8,
            (27, 35),
        ),
    ];
    for (result, (level, summary, line, (start, end))) in results.iter().zip(summaries) {
        assert_eq!(result["level"], level);
        let id = result["ruleId"].as_str().unwrap();
        let rule = &rules[result["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], id);
        assert_eq!(rule["shortDescription"]["text"], summary);
        let slug = summary.to_lowercase().replace(' ', "-");
        assert!(id.ends_with(&format!("/{slug}")), "{id}");
        assert!(
            result["message"]["text"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{summary}\n\n")),
            "{result:#?}"
        );
        let place = &result["locations"][0]["physicalLocation"];
        assert_eq!(place["artifactLocation"]["uri"], "infra/main.tf");
        assert_eq!(place["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        let region = &place["region"];
        assert_eq!(
            [
                &region["startLine"],
                &region["endLine"],
                &region["startColumn"],
                &region["endColumn"]
            ],
            [line, line, start, end]
        );
    }
}

/// Validates the log against the SARIF 2.1.0 JSON schema (`sarif-2.1.0-rtm.5.json`, which
/// the npm package @microsoft/jest-sarif ships; `.ci/run` unpacks it and sets
/// `STRATA_SARIF_SCHEMA`) with Python's `jsonschema`.
#[test]
fn sarif_log_is_valid_against_the_sarif_2_1_0_schema() {
    let test = "sarif_log_is_valid_against_the_sarif_2_1_0_schema";
    let Some(schema) = std::env::var_os("STRATA_SARIF_SCHEMA") else {
        assert!(
            std::env::var_os("STRATA_REQUIRE_SARIF_SCHEMA").is_none(),
            "STRATA_REQUIRE_SARIF_SCHEMA is set but STRATA_SARIF_SCHEMA is not"
        );
        support::skip(test, "STRATA_SARIF_SCHEMA not set (.ci/run sets it)");
        return;
    };
    let dir = TempDir::new("cli-ci-sarif");
    let log = dir.path().join("log.sarif");
    std::fs::write(&log, serde_json::to_vec(&sarif_log()).unwrap()).unwrap();
    // The demo's diagnostic has a related location, which the module above has not.
    let demo = strata_in(
        &support::fixtures().join("demo"),
        &["check", "--format", "sarif"],
    );
    let demo_log = dir.path().join("demo.sarif");
    std::fs::write(&demo_log, &demo.stdout).unwrap();
    let out = Command::new("python3")
        .args([
            "-c",
            "import json, sys, jsonschema\n\
             schema = json.load(open(sys.argv[1]))\n\
             for path in sys.argv[2:]:\n    \
                 jsonschema.validate(json.load(open(path)), schema)\n",
        ])
        .arg(&schema)
        .arg(&log)
        .arg(&demo_log)
        .output()
        .expect("run python3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let demo: Value = serde_json::from_slice(&demo.stdout).unwrap();
    assert!(
        demo["runs"][0]["results"][0]["relatedLocations"][0]["message"]["text"].is_string(),
        "{demo:#?}"
    );
}

#[test]
fn completions_are_generated_for_each_shell() {
    let cwd = std::env::temp_dir();
    // Elvish's and PowerShell's scripts complete subcommands and options, not values.
    for (shell, marker, values) in [
        ("bash", "_strata()", true),
        ("zsh", "#compdef strata", true),
        ("fish", "complete -c strata", true),
        ("elvish", "edit:completion:arg-completer[strata]", false),
        ("powershell", "Register-ArgumentCompleter", false),
    ] {
        let out = strata_in(&cwd, &["completions", shell]);
        assert!(out.status.success(), "{shell}: {out:?}");
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(script.contains(marker), "{shell}:\n{script}");
        for word in ["check", "plan", "fmt", "merged", "completions", "format"] {
            assert!(script.contains(word), "{shell} lacks {word}");
        }
        if values {
            for word in ["sarif", "github"] {
                assert!(script.contains(word), "{shell} lacks {word}");
            }
        }
    }
    assert_eq!(
        strata_in(&cwd, &["completions", "tcsh"]).status.code(),
        Some(2)
    );
}

/// `strata check DIR` of a fixtures/check-text module with `args` and `env`, standard
/// output and error together as a terminal shows them.
fn check_text(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> String {
    let out = Command::new(strata_bin())
        .arg("check")
        .arg(dir)
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .envs(env.iter().copied())
        .output()
        .expect("run strata");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    text
}

#[test]
fn text_format_is_byte_for_byte_what_terraform_validate_prints() {
    // Recorded by scripts/record-check-text.py from Terraform 1.11.4: errors sorted by
    // place, warnings first and folded by summary, details wrapped, and the verdict.
    let root = fixtures().join("check-text");
    let mut seen = 0;
    for entry in std::fs::read_dir(&root).expect("fixtures/check-text") {
        let dir = entry.expect("entry").path();
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).expect("recording");
        assert_eq!(
            check_text(&dir, &["--no-color"], &[]),
            read("terraform-validate.txt"),
            "{}, --no-color",
            dir.display()
        );
        // Colour only on a terminal (or when CLICOLOR_FORCE asks for it) ...
        assert_eq!(
            check_text(&dir, &[], &[("CLICOLOR_FORCE", "1")]),
            read("terraform-validate-color.txt"),
            "{}, coloured",
            dir.display()
        );
        // ... which neither --no-color nor NO_COLOR leave on, nor a pipe.
        assert!(!check_text(&dir, &["--no-color"], &[("CLICOLOR_FORCE", "1")]).contains('\x1b'));
        assert!(
            !check_text(&dir, &[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains('\x1b')
        );
        assert!(!check_text(&dir, &[], &[]).contains('\x1b'));
        seen += 1;
    }
    assert!(seen >= 4, "{seen} recordings");
}

#[test]
fn man_page_documents_every_subcommand() {
    let out = Command::new(strata_bin())
        .arg("man")
        .output()
        .expect("run strata");
    assert!(out.status.success());
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(page.contains(".TH strata 1"), "{page}");
    for sub in [
        "serve",
        "check",
        "schemas",
        "plan",
        "fmt",
        "merged",
        "completions",
        "man",
    ] {
        assert!(
            page.contains(&format!("strata\\-{sub}(1)")),
            "{sub} in {page}"
        );
    }
    // The pages it names are written with --out-dir, nested subcommands' too.
    let dir = TempDir::new("man");
    let out = strata_in(dir.path(), &["man", "--out-dir", "."]);
    assert!(out.status.success(), "{out:?}");
    let top = std::fs::read_to_string(dir.path().join("strata.1")).expect("strata.1");
    assert!(top.contains(".TH strata 1"), "{top}");
    for page in ["strata-check.1", "strata-schemas-import.1", "strata-man.1"] {
        let text = std::fs::read_to_string(dir.path().join(page)).expect(page);
        assert!(text.contains("Example"), "{page}: {text}");
    }
}

#[test]
fn help_of_every_subcommand_gives_an_example() {
    let subcommands: &[&[&str]] = &[
        &["serve"],
        &["check"],
        &["schemas"],
        &["schemas", "import"],
        &["schemas", "export"],
        &["schemas", "status"],
        &["plan"],
        &["fmt"],
        &["merged"],
        &["completions"],
        &["man"],
    ];
    for sub in subcommands {
        let out = Command::new(strata_bin())
            .args(*sub)
            .arg("--help")
            .output()
            .expect("run strata");
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{sub:?}");
        assert!(help.contains("Example"), "{sub:?}: {help}");
        assert!(
            help.contains(&format!("strata {}", sub.join(" "))),
            "{sub:?}: {help}"
        );
    }
}

/// The `entry` command of the hook `id` in .pre-commit-hooks.yaml, split into words.
fn hook_entry(hooks: &str, id: &str) -> Vec<String> {
    let start = hooks
        .find(&format!("- id: {id}\n"))
        .unwrap_or_else(|| panic!("hook {id}"));
    let entry = hooks[start..]
        .lines()
        .find_map(|l| l.trim().strip_prefix("entry: "))
        .unwrap_or_else(|| panic!("entry of {id}"));
    entry.split_whitespace().map(str::to_string).collect()
}

#[test]
fn pre_commit_hooks_run_strata_as_pre_commit_calls_them() {
    let hooks = std::fs::read_to_string(fixtures().join("../.pre-commit-hooks.yaml"))
        .expect(".pre-commit-hooks.yaml");
    let dir = TempDir::new("pre-commit");
    dir.write(
        "main.tf",
        "resource \"terraform_data\" \"a\" {\ninput=1\n}\n",
    );
    // strata-fmt: pre-commit appends the staged file names; the file is rewritten.
    let fmt = hook_entry(&hooks, "strata-fmt");
    assert_eq!(fmt[0], "strata");
    let mut args: Vec<&str> = fmt[1..].iter().map(String::as_str).collect();
    args.push("main.tf");
    let out = strata_in(dir.path(), &args);
    assert!(out.status.success(), "{out:?}");
    let formatted = std::fs::read_to_string(dir.path().join("main.tf")).expect("main.tf");
    assert!(formatted.contains("  input = 1\n"), "{formatted}");
    // strata-check: no file names, the repository's root as the current directory.
    let check = hook_entry(&hooks, "strata-check");
    assert_eq!(check[0], "strata");
    let args: Vec<&str> = check[1..].iter().map(String::as_str).collect();
    let out = strata_in(dir.path(), &args);
    assert!(out.status.success(), "{out:?}");
    dir.write(
        "bad.tf",
        "resource \"terraform_data\" \"b\" {\n  nope = 1\n}\n",
    );
    let out = strata_in(dir.path(), &args);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
}

#[test]
fn merged_of_a_module_with_errors_prints_it_says_so_and_exits_1() {
    let bad = fixtures().join("check-text/check-blocks");
    let out = strata_in(&bad, &["merged", "."]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(!out.stdout.is_empty());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("has 9 errors"), "{said}");
    let good = fixtures().join("check-text/warnings-only");
    let out = strata_in(&good, &["merged", "."]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
}

#[test]
fn plan_state_and_var_file_paths_are_resolved_against_the_module_directory() {
    let ws = TempDir::new("plan-paths");
    let module = ws.path().join("infra");
    std::fs::create_dir_all(&module).expect("infra");
    std::fs::write(
        module.join("main.tf"),
        "variable \"v\" {}\n\nresource \"terraform_data\" \"a\" {\n  input = var.v\n}\n",
    )
    .expect("main.tf");
    std::fs::write(module.join("prod.tfvars"), "v = \"x\"\n").expect("prod.tfvars");
    // Run from the parent: both names are found in infra/.
    let out = strata_in(
        ws.path(),
        &[
            "plan",
            "infra",
            "--var-file",
            "prod.tfvars",
            "--state",
            "none.tfstate",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("warning: the state file"), "{said}");
    assert!(said.contains("none.tfstate does not exist"), "{said}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 to add"));
    // The default state, terraform.tfstate in DIR, may be missing without a word.
    let out = strata_in(ws.path(), &["plan", "infra", "--var", "v=x"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
}
