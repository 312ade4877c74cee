//! Bounded work (issue 12, item 3): inputs that crashed, hung or exhausted memory end in a
//! clear diagnostic. Each test generates its module in a temporary directory, runs the
//! CLI on it and asserts that the command completes with the diagnostic that names the
//! limit (`server/src/limits.rs`). Sizes prove the mechanism, not the speed: a limit is
//! met at the limit plus one, a chain is made longer than the recursion a debug build's
//! stack holds. No test measures time.

mod support;

use std::process::{Command, Output};

use serde_json::Value;
use support::{strata_bin, TempDir};

/// `strata.limits::MAX_NESTING_DEPTH`.
const MAX_NESTING_DEPTH: usize = 64;

fn strata(args: &[&str], dir: &TempDir) -> Output {
    Command::new(strata_bin())
        .args(args)
        .arg(dir.path())
        .output()
        .expect("run strata")
}

/// A module of one `main.tf`.
fn module(tag: &str, text: &str) -> TempDir {
    let dir = TempDir::new(tag);
    dir.write("main.tf", text);
    dir
}

/// The summaries and details of the diagnostics of a `--format json` output (those of
/// `check`, or the errors of `plan`).
fn diagnostics(out: &Output) -> Vec<(String, String)> {
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let list = json
        .get("diagnostics")
        .or_else(|| json.get("errors"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    list.iter()
        .map(|d| {
            (
                d["summary"].as_str().unwrap_or_default().to_string(),
                d["detail"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// Runs `command --format json` and asserts it ended normally (no crash) with a
/// diagnostic `summary` whose detail contains `detail`.
fn reports(command: &str, dir: &TempDir, summary: &str, detail: &str) {
    let out = strata(&[command, "--format", "json"], dir);
    assert_eq!(out.status.code(), Some(1), "{command}: {out:?}");
    let found = diagnostics(&out);
    assert!(
        found
            .iter()
            .any(|(s, d)| s == summary && d.contains(detail)),
        "{command}: no {summary:?} with {detail:?} in {found:#?}"
    );
}

/// Runs `command --format json` and asserts it succeeded without any error.
fn succeeds(command: &str, dir: &TempDir) -> Output {
    let out = strata(&[command, "--format", "json"], dir);
    assert_eq!(out.status.code(), Some(0), "{command}: {out:?}");
    out
}

/// `levels` blocks, one inside the other, in a resource whose provider has no schema
/// (so that the nesting is all there is to report).
fn nested_blocks(levels: usize) -> String {
    format!(
        "resource \"unknown_thing\" \"a\" {{\n{}{}}}\n",
        "x {\n".repeat(levels - 1),
        "}\n".repeat(levels - 1)
    )
}

#[test]
fn blocks_nested_to_the_limit_are_read_and_one_more_level_is_reported() {
    let deepest = module("nest-ok", &nested_blocks(MAX_NESTING_DEPTH));
    for command in ["check", "plan", "merged"] {
        succeeds(command, &deepest);
    }
    let deeper = module("nest-over", &nested_blocks(MAX_NESTING_DEPTH + 1));
    for command in ["check", "plan"] {
        reports(
            command,
            &deeper,
            "Configuration nested too deeply",
            "more than 64 levels deep",
        );
    }
    let out = strata(&["merged"], &deeper);
    assert!(out.status.code().is_some(), "merged crashed: {out:?}");
}

#[test]
fn ten_thousand_nested_blocks_end_in_the_nesting_diagnostic() {
    let dir = module("nest-10000", &nested_blocks(10_000));
    for command in ["check", "plan"] {
        reports(
            command,
            &dir,
            "Configuration nested too deeply",
            "left out of analysis",
        );
    }
    // `merged` overflowed its stack at this depth (issue 12).
    let out = strata(&["merged"], &dir);
    assert!(out.status.code().is_some(), "merged crashed: {out:?}");
}

#[test]
fn every_form_of_deep_expression_ends_in_the_nesting_diagnostic() {
    let n = 10_000;
    let forms = [
        format!("{}1{}", "(".repeat(n), ")".repeat(n)),
        format!("{}1{}", "[".repeat(n), "]".repeat(n)),
        format!("{}1{}", "max(".repeat(n), ")".repeat(n)),
        format!("{}1{}", "{a = ".repeat(n), "}".repeat(n)),
        format!("{}true", "!".repeat(n)),
        format!("{}1{}", "\"${".repeat(n), "}\"".repeat(n)),
        format!(
            "{}[1]{}",
            "[for x in ".repeat(n / 10),
            " : x]".repeat(n / 10)
        ),
    ];
    for form in forms {
        let dir = module("expr-deep", &format!("locals {{\n  a = {form}\n}}\n"));
        for command in ["check", "plan"] {
            reports(command, &dir, "Configuration nested too deeply", "64");
        }
    }
}

#[test]
fn long_chains_of_locals_and_resources_are_planned() {
    // Far longer than the recursion one stack holds in a debug build (~700 locals).
    let n = 5_000;
    let mut locals = String::from("locals {\n  l0 = 1\n");
    for i in 1..n {
        locals.push_str(&format!("  l{i} = local.l{}\n", i - 1));
    }
    locals.push_str(&format!(
        "}}\noutput \"o\" {{\n  value = local.l{}\n}}\n",
        n - 1
    ));
    succeeds("plan", &module("chain-locals", &locals));

    let n = 2_000;
    let mut resources = String::from("resource \"terraform_data\" \"r0\" {}\n");
    for i in 1..n {
        let reference = if i % 2 == 0 { "[*].output" } else { ".output" };
        resources.push_str(&format!(
            "resource \"terraform_data\" \"r{i}\" {{\n  input = terraform_data.r{}{reference}\n}}\n",
            i - 1
        ));
    }
    let out = succeeds("plan", &module("chain-resources", &resources));
    let plan: Value = serde_json::from_slice(&out.stdout).expect("plan json");
    let changes = plan["resource_changes"].as_array().map_or(0, Vec::len);
    assert_eq!(changes, n);
}

#[test]
fn exponential_values_end_in_the_evaluation_limit() {
    let mut text = String::from("locals {\n  l0 = [1]\n");
    for i in 1..39 {
        text.push_str(&format!("  l{i} = [local.l{0}, local.l{0}]\n", i - 1));
    }
    text.push_str("}\noutput \"o\" {\n  value = local.l38\n}\n");
    reports(
        "plan",
        &module("exponential", &text),
        "Evaluation limit reached",
        "steps",
    );
}

#[test]
fn template_directives_over_huge_collections_end_in_the_evaluation_limit() {
    let text = "output \"o\" {\n  value = \"%{ for a in range(1000) }%{ for b in range(1000) }%{ for c in range(1000) }x%{ endfor }%{ endfor }%{ endfor }\"\n}\n";
    reports(
        "plan",
        &module("template-for", text),
        "Evaluation limit reached",
        "2000000 steps",
    );
}

#[test]
fn functions_handling_many_bytes_end_in_the_evaluation_limit() {
    for (name, files) in support::heavy::modules() {
        let dir = TempDir::new(name);
        for (file, text) in &files {
            dir.write(file, text);
        }
        reports("plan", &dir, "Evaluation limit reached", "every 64 bytes");
    }
}

#[test]
fn try_and_can_do_not_swallow_the_evaluation_limit() {
    let text = "output \"o\" {\n  value = can(\"%{ for a in range(1000) }%{ for b in range(1000) }%{ for c in range(1000) }x%{ endfor }%{ endfor }%{ endfor }\")\n}\n";
    reports(
        "plan",
        &module("can-limit", text),
        "Evaluation limit reached",
        "steps",
    );
}

#[test]
fn a_module_calling_itself_is_a_cycle() {
    let dir = module("self-call", "module \"m\" {\n  source = \"./\"\n}\n");
    for command in ["check", "plan"] {
        reports(
            command,
            &dir,
            "Module call cycle",
            "This call loads the module in ., which the root module already is: the calls \
             module.m form a cycle",
        );
    }
}

#[test]
fn modules_calling_each_other_are_a_cycle() {
    let dir = module("call-cycle", "module \"a\" {\n  source = \"./a\"\n}\n");
    dir.write("a/main.tf", "module \"b\" {\n  source = \"../b\"\n}\n");
    dir.write("b/main.tf", "module \"a\" {\n  source = \"../a\"\n}\n");
    for command in ["check", "plan"] {
        reports(
            command,
            &dir,
            "Module call cycle",
            "in ./a, which module.a already is: the calls module.a → module.b → module.a",
        );
    }
    // Reported once, where the cycle closes, though `check` checks all three modules.
    let out = strata(&["check", "--format", "json"], &dir);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let cycles: Vec<&Value> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["summary"] == "Module call cycle")
        .collect();
    assert_eq!(cycles.len(), 1, "{json:#}");
    assert_eq!(cycles[0]["range"]["filename"], "b/main.tf");
}

#[test]
fn modules_that_only_call_each_other_are_a_cycle_for_check() {
    let dir = TempDir::new("call-cycle-no-root");
    dir.write("a/main.tf", "module \"b\" {\n  source = \"../b\"\n}\n");
    dir.write("b/main.tf", "module \"a\" {\n  source = \"../a\"\n}\n");
    reports(
        "check",
        &dir,
        "Module call cycle",
        "the calls module.b → module.a form a cycle",
    );
}

fn counted(count: &str) -> TempDir {
    module(
        "count",
        &format!("resource \"terraform_data\" \"x\" {{\n  count = {count}\n}}\n"),
    )
}

#[test]
fn counts_past_the_limit_are_refused_with_the_count_named() {
    succeeds("plan", &counted("10000"));
    for (count, shown) in [
        ("10001", "10001"),
        ("1e6", "1000000"),
        ("1e9", "1000000000"),
    ] {
        reports(
            "plan",
            &counted(count),
            "Too many instances",
            &format!("gives {shown} instances"),
        );
    }
}

#[test]
fn a_count_past_int64_gets_terraforms_error() {
    reports(
        "plan",
        &counted("9223372036854775808"),
        "Invalid count argument",
        "between -9223372036854775808 and 9223372036854775807",
    );
}

#[test]
fn for_each_past_the_limit_is_refused_with_the_count_named() {
    let keys: Vec<String> = (0..10_001).map(|i| format!("k{i} = {i}")).collect();
    let text = format!(
        "variable \"keys\" {{\n  default = {{ {} }}\n}}\nresource \"terraform_data\" \"x\" {{\n  for_each = var.keys\n}}\n",
        keys.join(", ")
    );
    reports(
        "plan",
        &module("for-each", &text),
        "Too many instances",
        "gives 10001 instances",
    );
}

#[test]
fn module_fan_out_past_the_plan_limit_is_refused() {
    let dir = module(
        "fan-out",
        "module \"a\" {\n  source = \"./a\"\n  count  = 100\n}\n",
    );
    dir.write(
        "a/main.tf",
        "module \"b\" {\n  source = \"../b\"\n  count  = 1001\n}\n",
    );
    dir.write("b/main.tf", "locals {\n  x = 1\n}\n");
    reports(
        "plan",
        &dir,
        "Too many instances",
        "Strata plans at most 100000",
    );
}

/// The diagnostics of `check --format json` with `summary`.
fn count_of(out: &Output, summary: &str) -> usize {
    diagnostics(out)
        .iter()
        .filter(|(s, _)| s == summary)
        .count()
}

#[test]
fn many_duplicate_resources_are_each_reported() {
    let n = 4_000;
    let dir = module(
        "duplicates",
        &"resource \"terraform_data\" \"x\" {}\n".repeat(n),
    );
    let out = strata(&["check", "--format", "json"], &dir);
    assert_eq!(
        count_of(&out, "Duplicate resource \"terraform_data\" configuration"),
        n - 1
    );
}

#[test]
fn many_undeclared_locals_each_get_their_suggestion() {
    // Each diagnostic's object and evaluation was found by scanning them all: 20,000
    // took minutes (tests/hostile/workspace.rs holds the wait).
    let n = 20_000;
    let mut text = String::from("locals {\n");
    for i in 0..n {
        text.push_str(&format!("  value{i} = local.valuf{i}\n"));
    }
    text.push_str("}\n");
    let out = strata(&["check", "--format", "json"], &module("undeclared", &text));
    let found = diagnostics(&out);
    let suggested = found
        .iter()
        .filter(|(s, d)| s == "Reference to undeclared local value" && d.contains("Did you mean"))
        .count();
    assert_eq!(suggested, n, "{:?}", found.first());
}

#[test]
fn huge_variable_defaults_and_objects_are_read() {
    let objects: Vec<String> = (0..20_000)
        .map(|i| format!("{{ a = {i}, b = \"x\" }}"))
        .collect();
    let numbers: Vec<String> = (0..100_000).map(|i| i.to_string()).collect();
    // 40,000 keys took about 20 s to parse (vendor/hcl-edit/STRATA-PATCH.md).
    let keys: Vec<String> = (0..40_000).map(|i| format!("  k{i} = {i}")).collect();
    let text = format!(
        "variable \"objects\" {{\n  default = [{}]\n}}\nvariable \"numbers\" {{\n  default = [{}]\n}}\nlocals {{\n  o = {{\n{}\n  }}\n}}\noutput \"n\" {{\n  value = length(var.numbers)\n}}\n",
        objects.join(", "),
        numbers.join(", "),
        keys.join("\n")
    );
    let dir = module("defaults", &text);
    succeeds("check", &dir);
    succeeds("plan", &dir);
    let out = strata(&["merged"], &dir);
    assert!(out.status.success(), "{out:?}");
}
