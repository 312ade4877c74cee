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

/// Every diagnostic of a `check --format json` output as (summary, start line), sorted.
fn summaries_and_lines(json: &Value) -> Vec<(String, u64)> {
    let mut found: Vec<(String, u64)> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["summary"].as_str().unwrap().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    found.sort();
    found
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
fn demo_workspace_reports_the_override_error_in_validate_json_shape() {
    let out = strata(&["check", &fixture("demo"), "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let json = json_of(&out);
    assert_eq!(json["format_version"], "1.0");
    assert_eq!(json["valid"], false);
    assert_eq!(json["error_count"], 1);
    assert_eq!(json["warning_count"], 0);
    let d = &json["diagnostics"][0];
    assert_eq!(d["summary"], "Unsupported override");
    assert_eq!(
        d["detail"],
        "The depends_on argument may not be overridden."
    );
    assert_eq!(d["range"]["filename"], "network/override.tf");
    // Subject: the first traversal of the list, as Terraform reports it.
    assert_eq!(d["range"]["start"]["line"], 7);
    assert_eq!(d["range"]["start"]["column"], 17);
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
    assert!(text.contains("\n   6:   input = = \"x\""), "{text}");
    assert!(!text.contains("Success!"));
}

#[test]
fn constructs_terraform_accepts_raise_no_error() {
    let out = strata(&["check", &fixture("hcl-quirks"), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(json_of(&out)["error_count"], 0);
    // Every expression is analysed, a repeated object key included.
    let out = strata(&["check", &fixture("hcl-quirks")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("Note: Expression not analysed"), "{text}");
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

/// Reads `../shared/corpus` (real public modules): Strata must raise no error Terraform
/// would not raise. Every error it finds there is real, and pinned here per directory:
/// - `mixins/` and its sub-folders are snippets meant to be copied into other modules,
///   not modules: the same provider and module call declared in several files, and
///   references to `module.this` and variables the host module provides;
/// - `deprecated/guardduty/common` is a folder of files shared into other modules (an
///   argument that refers to the undeclared `module.this` stops there, before its
///   variables are looked up, and what depends on a local or a module call that failed
///   so is never reached: 8, as Terraform 1.11.4 reports for the same shapes,
///   fixtures/validate/refs-upstream*);
/// - what depends on a failed object is skipped, as Terraform skips it (`mixins/
///   github-actions-iam-role`: a resource whose count refers to a failed local);
/// - `unit-test-fixture` (Azure) lost its symlinked files when the corpus was copied
///   (SOURCES.md), so it refers to locals and variables those declared;
/// - `deprecated/github-actions-runner` defines a local in two files;
/// - as `terraform validate` does, the errors of the validate walk (undeclared
///   references, instance keys) are left out where loading already failed (`mixins/`);
///   `modules/waf/variables.tf` declares five variables twice;
/// - defaults their types reject: objects in a `list(string)` (`deprecated/aws/
///   codefresh-onprem`), a list in a `map(string)` (`deprecated/aws/ses`);
/// - upstream bugs: `modules/aurora-mysql-resources` refers to a data source by a name it
///   does not have, `modules/memorydb` uses an undeclared `var.region`,
///   `modules/zscaler` refers to undeclared `module.vpc` and `module.eks`,
///   `deprecated/eks/eks-without-spotinst` to an undeclared variable.
///
/// Skipped, visibly, where the corpus is absent.
#[test]
fn corpus_raises_only_the_errors_terraform_raises() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    if !corpus.is_dir() {
        support::skip(
            "corpus_raises_only_the_errors_terraform_raises",
            &format!("{} not found", corpus.display()),
        );
        return;
    }
    let out = strata(&["check", &corpus.to_string_lossy(), "--format", "json"]);
    let json = json_of(&out);
    let mut per_dir: std::collections::BTreeMap<String, u64> = Default::default();
    for d in json["diagnostics"].as_array().unwrap() {
        if d["severity"] != "error" {
            continue;
        }
        let summary = d["summary"].as_str().unwrap();
        assert!(
            summary.starts_with("Duplicate ")
                || summary.starts_with("Reference to undeclared ")
                || summary == "Invalid default value for variable"
                || summary == "Invalid module source address"
                || summary == "Unsupported Terraform Core version"
                || summary == "Missing resource instance key"
                || summary == "Error in function call"
                // Blocks written where the builtin provider's schema has an argument
                // (`config {}` of `terraform_remote_state`, Terraform 0.11 syntax).
                || summary == "Unsupported block type",
            "unexpected kind of error on real code: {d}"
        );
        let file = d["range"]["filename"].as_str().unwrap();
        let dir = file.rsplit_once('/').map_or("", |(d, _)| d);
        *per_dir.entry(dir.to_string()).or_default() += 1;
    }
    let c = "cloudposse__terraform-aws-components";
    let expected: std::collections::BTreeMap<String, u64> = [
        (
            "Azure__terraform-azurerm-aks/unit-test-fixture".to_string(),
            9,
        ),
        // `required_version = "~> 0.12.0"` and the like, which Terraform 1.11.4 refuses.
        (format!("{c}/deprecated/aws/acm"), 1),
        (format!("{c}/deprecated/aws/aws-metrics-role"), 1),
        (format!("{c}/deprecated/aws/ecr"), 1),
        (format!("{c}/deprecated/aws/ecs"), 1),
        (format!("{c}/deprecated/aws/github-org-ecr"), 1),
        (format!("{c}/deprecated/aws/grafana-backing-services"), 1),
        (format!("{c}/deprecated/aws/keycloak-backing-services"), 1),
        (format!("{c}/deprecated/aws/sentry"), 1),
        (format!("{c}/deprecated/aws/sns-topic"), 1),
        (format!("{c}/deprecated/aws/vpc"), 1),
        (format!("{c}/deprecated/aws/vpc-peering-intra-account"), 1),
        // Module calls with a bare relative `source` ("stage", "ns"), which
        // `terraform init` rejects too (the same counts).
        (format!("{c}/deprecated/aws/accounts"), 9),
        (format!("{c}/deprecated/aws/kops"), 2),
        (format!("{c}/deprecated/aws/root-dns"), 11),
        (format!("{c}/deprecated/aws/codefresh-onprem"), 1),
        (format!("{c}/deprecated/aws/ses"), 1),
        (format!("{c}/deprecated/eks/eks-without-spotinst"), 1),
        // A duplicate local (its data sources read without an index wait for the walk).
        (format!("{c}/deprecated/github-actions-runner"), 1),
        // Two module arguments that refer to a resource whose body failed are skipped
        // (fixtures/validate/refs-upstream-modules).
        (format!("{c}/deprecated/aws/kops-aws-platform"), 3),
        // Calls of list() and map(), which Terraform 0.12 removed.
        (format!("{c}/deprecated/aws/backing-services"), 1),
        (format!("{c}/deprecated/aws/bootstrap"), 2),
        // (and a module argument that depends, through remote children Strata cannot
        // read, on the local whose map() failed: skipped, as everything downstream of a
        // failed object; fixtures/validate/refs-upstream)
        (format!("{c}/deprecated/aws/eks"), 1),
        (
            format!("{c}/deprecated/aws/eks-backing-services-peering"),
            1,
        ),
        (format!("{c}/deprecated/aws/security-baseline"), 2),
        (format!("{c}/deprecated/aws/spotinst-kops"), 1),
        (format!("{c}/deprecated/aws/users"), 3),
        // `config { ... }` in `terraform_remote_state` (Terraform 0.11 syntax), which the
        // builtin provider's schema has as an argument: Terraform 1.11.4 reports the same
        // `Unsupported block type` (checked in a scratch module).
        (format!("{c}/deprecated/aws/cis-instances"), 1),
        (format!("{c}/deprecated/aws/iam"), 1),
        (format!("{c}/deprecated/aws/kops-iam-users"), 1),
        (format!("{c}/deprecated/aws/root-dns/ns"), 1),
        (format!("{c}/deprecated/guardduty/common"), 8),
        (format!("{c}/mixins"), 6),
        (format!("{c}/mixins/github-actions-iam-policy"), 1),
        (format!("{c}/mixins/github-actions-iam-policy/ecr"), 3),
        (format!("{c}/mixins/github-actions-iam-policy/s3-bucket"), 2),
        (format!("{c}/mixins/github-actions-iam-role"), 2),
        (format!("{c}/modules/aurora-mysql-resources"), 1),
        (format!("{c}/modules/memorydb"), 1),
        (format!("{c}/modules/waf"), 5),
        (format!("{c}/modules/zscaler"), 3),
    ]
    .into_iter()
    .collect();
    assert_eq!(per_dir, expected);
    // The two files with a repeated object key are understood in full.
    let out = strata(&["check", &corpus.to_string_lossy()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("Note: Expression not analysed"), "{text}");
}

#[test]
fn override_and_duplicate_errors_have_terraforms_texts_and_places() {
    let out = strata(&[
        "check",
        &fixture("check/override-errors"),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let json = json_of(&out);
    let found: Vec<(String, String, String, u64)> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["severity"].as_str().unwrap().to_string(),
                d["summary"].as_str().unwrap().to_string(),
                d["range"]["filename"].as_str().unwrap().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected = [
        ("error", "Duplicate variable declaration", "main.tf", 9),
        (
            "error",
            "Missing base variable declaration to override",
            "override.tf",
            1,
        ),
        (
            "error",
            "Missing data resource to override",
            "override.tf",
            16,
        ),
        ("error", "Unsupported override", "override.tf", 4),
        (
            "error",
            "Can't override precondition blocks",
            "override.tf",
            9,
        ),
        ("warning", "Ignored in an override file", "override.tf", 7),
        ("error", "Cannot override 'moved' blocks", "override.tf", 18),
    ];
    for (severity, summary, file, line) in expected {
        assert!(
            found
                .iter()
                .any(|f| f.0 == severity && f.1 == summary && f.2 == file && f.3 == line),
            "missing {summary} at {file}:{line} in {found:?}"
        );
    }
    assert_eq!(found.len(), expected.len(), "nothing else: {found:?}");
    assert_eq!(json["error_count"], 6);
    assert_eq!(json["warning_count"], 1);
    let detail = |summary: &str| {
        json["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["summary"] == summary)
            .unwrap()["detail"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        detail("Duplicate variable declaration"),
        "A variable named \"region\" was already declared at main.tf:1,1-18. Variable names must be unique within a module."
    );
    assert_eq!(
        detail("Missing data resource to override"),
        "There is no http data resource named \"nothing\". An override file can only override a data block defined in a primary configuration file."
    );
}

#[test]
fn count_with_for_each_is_an_error_in_one_block_and_a_warning_across_blocks() {
    let dir = TempDir::new("cli-count");
    dir.write(
        "main.tf",
        "resource \"a\" \"both\" {\n  count    = 1\n  for_each = {}\n}\n\nresource \"a\" \"split\" {\n  count = 1\n}\n",
    );
    dir.write(
        "override.tf",
        "resource \"a\" \"split\" {\n  for_each = {}\n}\n",
    );
    let out = strata(&["check", &dir.path().to_string_lossy(), "--format", "json"]);
    let json = json_of(&out);
    let diags = json["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 2, "{diags:?}");
    let error = diags.iter().find(|d| d["severity"] == "error").unwrap();
    assert_eq!(
        error["summary"],
        "Invalid combination of \"count\" and \"for_each\""
    );
    assert_eq!(error["range"]["filename"], "main.tf");
    assert_eq!(
        error["range"]["start"]["line"], 3,
        "Terraform's subject is for_each"
    );
    let warning = diags.iter().find(|d| d["severity"] == "warning").unwrap();
    assert_eq!(
        warning["summary"],
        "Both \"count\" and \"for_each\" in effect"
    );
    assert_eq!(warning["range"]["filename"], "override.tf");
}

#[test]
fn lifecycle_and_condition_errors_are_reported_where_terraform_reports_them() {
    let out = strata(&[
        "check",
        &fixture("check/lifecycle-errors"),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let json = json_of(&out);
    let found = summaries_and_lines(&json);
    let mut expected: Vec<(String, u64)> = [
        ("Invalid variable validation condition", 3),
        ("Variables not allowed", 14),
        ("Unsuitable value type", 14),
        ("Unsuitable value type", 15),
        ("Invalid ignore_changes wildcard", 16),
        ("Invalid ignore_changes ruleset", 16),
        // As recorded from Terraform: nothing after the first bad element is looked at.
        ("Invalid reference in replace_triggered_by expression", 17),
        ("Invalid replace_triggered_by expression", 17),
        ("Invalid reference in precondition", 20),
        ("Missing required argument", 23),
        ("Invalid data resource lifecycle argument", 33),
        ("Invalid precondition expression", 40),
    ]
    .iter()
    .map(|(s, l)| (s.to_string(), *l))
    .collect();
    expected.sort();
    assert_eq!(found, expected);
}

#[test]
fn variable_errors_have_terraforms_texts_and_places() {
    let out = strata(&[
        "check",
        &fixture("check/variable-errors"),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let json = json_of(&out);
    let diags = json["diagnostics"].as_array().unwrap();
    let mut found: Vec<(String, String, u64)> = diags
        .iter()
        .map(|d| {
            (
                d["summary"].as_str().unwrap().to_string(),
                d["range"]["filename"].as_str().unwrap().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    found.sort();
    let mut expected: Vec<(String, String, u64)> = [
        ("Invalid quoted type constraints", "main.tf", 2),
        ("Invalid type specification", "main.tf", 6),
        ("Invalid default value for variable", "main.tf", 13),
        ("Invalid default value for variable", "main.tf", 21),
        ("Unsuitable value type", "main.tf", 25),
        ("Invalid variable name", "main.tf", 28),
        ("Variables not allowed", "main.tf", 31),
        ("Invalid default value for variable", "override.tf", 2),
        (
            "Override type keeps the base's optional defaults",
            "override.tf",
            7,
        ),
    ]
    .iter()
    .map(|(s, f, l)| (s.to_string(), f.to_string(), *l))
    .collect();
    expected.sort();
    assert_eq!(found, expected);
    let detail = |file: &str, line: u64| {
        diags
            .iter()
            .find(|d| d["range"]["filename"] == file && d["range"]["start"]["line"] == line)
            .unwrap()["detail"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        detail("main.tf", 13),
        "This default value is not compatible with the variable's type constraint: [\"first\"].enabled: a bool is required."
    );
    assert_eq!(
        detail("main.tf", 21),
        "A null default value is not valid when nullable=false."
    );
    assert_eq!(
        detail("override.tf", 2),
        "Overriding this variable's type constraint has made its default value invalid: string required."
    );
}

#[test]
fn moved_removed_and_lifecycle_schema_errors() {
    let out = strata(&[
        "check",
        &fixture("check/refactoring-errors"),
        "--format",
        "json",
    ]);
    let json = json_of(&out);
    let found = summaries_and_lines(&json);
    let mut expected: Vec<(String, u64)> = [
        ("Unsupported argument", 3),
        ("Unsupported argument", 4),
        ("Duplicate lifecycle block", 6),
        ("Invalid \"moved\" addresses", 15),
        ("Missing required argument", 20),
        ("Data source address not allowed", 25),
        ("Invalid provisioner block", 31),
    ]
    .iter()
    .map(|(s, l)| (s.to_string(), *l))
    .collect();
    expected.sort();
    assert_eq!(found, expected);
    let typo = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["range"]["start"]["line"] == 3)
        .unwrap();
    assert_eq!(
        typo["detail"],
        "An argument named \"create_before_destory\" is not expected here. Did you mean \"create_before_destroy\"?"
    );
}

#[test]
fn outputs_of_local_child_modules_are_checked() {
    let dir = TempDir::new("cli-child");
    dir.write(
        "main.tf",
        "module \"net\" {\n  source = \"./net\"\n}\n\noutput \"ok\" {\n  value = module.net.vpc_id\n}\n\noutput \"bad\" {\n  value = module.net.subnet_id\n}\n",
    );
    dir.write(
        "net/main.tf",
        "output \"vpc_id\" {\n  value = \"vpc-1\"\n}\n",
    );
    let out = strata(&["check", &dir.path().to_string_lossy(), "--format", "json"]);
    let json = json_of(&out);
    assert_eq!(
        summaries_and_lines(&json),
        vec![("Unsupported attribute".to_string(), 10)]
    );
    assert_eq!(
        json["diagnostics"][0]["detail"],
        "This object does not have an attribute named \"subnet_id\"."
    );
}

/// `required_version` is checked against the version in effect: a version manager's file
/// in the module or a parent, else `--terraform-version`, else the release Strata targets.
#[test]
fn required_version_is_checked_against_the_version_in_effect() {
    let dir = TempDir::new("core-version");
    let module = dir.path().join("m");
    let main = "terraform {\n  required_version = \">= 1.0, < 1.10\"\n}\n";
    dir.write("m/main.tf", main);
    let failing_lines = |args: &[&str]| {
        let mut all = vec!["check", module.to_str().unwrap(), "--format", "json"];
        all.extend_from_slice(args);
        let json = json_of(&strata(&all));
        summaries_and_lines(&json)
    };
    let unsupported = vec![("Unsupported Terraform Core version".to_string(), 2)];
    // Terraform 1.11.4, the release Strata targets, is not below 1.10.
    assert_eq!(failing_lines(&[]), unsupported);
    assert_eq!(failing_lines(&["--terraform-version", "1.9.8"]), vec![]);
    // A version file in a parent directory wins over the flag.
    dir.write(".terraform-version", "1.10.2\n");
    assert_eq!(
        failing_lines(&["--terraform-version", "1.9.8"]),
        unsupported
    );
    dir.write("m/.tool-versions", "terraform 1.9.0\n");
    assert_eq!(failing_lines(&[]), vec![]);
    let bad = strata(&[
        "check",
        module.to_str().unwrap(),
        "--terraform-version",
        "latest",
    ]);
    assert_eq!(bad.status.code(), Some(2));
}

/// `Removed resource still exists` is a plan-time error, as in Terraform: `check` (like
/// `terraform validate`) does not report it, `plan` does.
#[test]
fn a_removed_resource_still_declared_fails_the_plan_not_the_check() {
    let dir = TempDir::new("removed-still-declared");
    dir.write(
        "main.tf",
        "resource \"terraform_data\" \"kept\" {}\n\nremoved {\n  from = terraform_data.kept\n}\n",
    );
    let check = strata(&["check", dir.path().to_str().unwrap(), "--format", "json"]);
    assert_eq!(check.status.code(), Some(0), "{check:?}");
    let plan = json_of(&strata(&[
        "plan",
        dir.path().to_str().unwrap(),
        "--format",
        "json",
    ]));
    let errors: Vec<&str> = plan["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["summary"].as_str().unwrap())
        .collect();
    assert_eq!(errors, ["Removed resource still exists"]);
}

/// Strata never calls a provider: a provider-defined function's call plans as an unknown
/// value, with or without the provider's schema; with it, an argument its parameter
/// refuses is the plan's error, as HCL's conversion makes it before Terraform calls the
/// provider.
#[test]
fn provider_function_calls_plan_as_unknown_values() {
    let dir = TempDir::new("plan-provider-functions");
    let required =
        "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\n";
    let resource = "resource \"terraform_data\" \"a\" {\n  input = provider::aws::arn_parse(\"arn:aws:iam::123456789012:role/x\").region\n}\n";
    dir.write("main.tf", &format!("{required}{resource}"));
    let schemas = fixture("validate-providers/schemas.json");
    let path = dir.path().to_str().unwrap();
    for extra in [&[][..], &["--provider-schemas", &schemas][..]] {
        let mut args = vec!["plan", path, "--format", "json"];
        args.extend_from_slice(extra);
        let plan = json_of(&strata(&args));
        assert_eq!(plan["errors"], serde_json::json!([]), "{plan}");
        let change = &plan["resource_changes"][0]["change"];
        assert_eq!(change["after_unknown"]["input"], true, "{plan}");
    }
    let refused =
        "resource \"terraform_data\" \"b\" {\n  input = provider::aws::arn_parse({})\n}\n";
    dir.write("main.tf", &format!("{required}{refused}"));
    let plan = json_of(&strata(&[
        "plan",
        path,
        "--format",
        "json",
        "--provider-schemas",
        &schemas,
    ]));
    assert_eq!(
        plan["errors"][0]["detail"], "Invalid value for \"arn\" parameter: string required.",
        "{plan}"
    );
}
