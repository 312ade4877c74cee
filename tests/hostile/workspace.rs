//! A hostile workspace in the server (issue 12, items 3, 4 and 8): the inputs that crashed
//! or hung `check` and `plan` on the command line, held by a workspace the server indexes
//! and plans. Each ends in the clear diagnostic or error reply, and the server goes on
//! answering a normal hover.

use serde_json::{json, Value};

use crate::server::{assert_hover_works, error_with};
use crate::support::{uri, Client, TempDir};

/// An empty prior state, which makes the plan code lens plan.
const EMPTY_STATE: &str = r#"{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"l","outputs":{},"resources":[]}"#;

/// A workspace of five modules: `nested/` (10,000 nested blocks), `self/` (a module that
/// calls itself, with a prior state), `fifo/` (a FIFO as its state), `exponential/`
/// (locals that double 38 times) and `undeclared/` (10,000 locals, each referring to a
/// different undeclared one).
fn hostile_workspace() -> TempDir {
    let dir = TempDir::new("hostile-workspace");
    let levels = 10_000;
    dir.write(
        "nested/main.tf",
        &format!(
            "resource \"terraform_data\" \"a\" {{\n{}{}}}\n",
            "x {\n".repeat(levels - 1),
            "}\n".repeat(levels - 1)
        ),
    );
    dir.write(
        "self/main.tf",
        "module \"m\" {\n  source = \"./\"\n}\n\nresource \"terraform_data\" \"r\" {}\n",
    );
    dir.write("self/terraform.tfstate", EMPTY_STATE);
    dir.write("fifo/main.tf", "resource \"terraform_data\" \"r\" {}\n");
    let fifo = dir.path().join("fifo/terraform.tfstate");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", fifo.display());
    let mut exponential = String::from("locals {\n  l0 = [1]\n");
    for i in 1..39 {
        exponential.push_str(&format!("  l{i} = [local.l{0}, local.l{0}]\n", i - 1));
    }
    exponential.push_str("}\n\noutput \"o\" {\n  value = local.l38\n}\n");
    dir.write("exponential/main.tf", &exponential);
    let mut undeclared = String::from("locals {\n");
    for i in 0..UNDECLARED {
        undeclared.push_str(&format!("  a{i} = local.nope{i}\n"));
    }
    undeclared.push_str("}\n");
    dir.write("undeclared/main.tf", &undeclared);
    dir
}

/// The locals of `undeclared/`: checking them took minutes while each diagnostic's
/// object was found by scanning every object (the wait for diagnostics is 20 s).
const UNDECLARED: usize = 10_000;

/// The messages of the diagnostics published for `path` once they include `summary`.
fn diagnostics_with(client: &mut Client, path: &std::path::Path, summary: &str) -> Vec<String> {
    let found = client.diagnostics_for(&uri(path), |p| {
        p["diagnostics"]
            .as_array()
            .is_some_and(|l| l.iter().any(|d| message(d).starts_with(summary)))
    });
    found["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| message(d).to_string())
        .collect()
}

fn message(d: &Value) -> &str {
    d["message"].as_str().unwrap_or_default()
}

/// The response to `strata.planPreview` for the module of `path`.
fn plan_preview(client: &mut Client, path: &std::path::Path) -> (i64, Value) {
    let id = client.send_request(
        "workspace/executeCommand",
        json!({ "command": "strata.planPreview", "arguments": [{ "uri": uri(path) }] }),
    );
    (id, client.response(id))
}

/// The summaries of the errors of a plan preview's result.
fn plan_errors(response: &Value) -> Vec<String> {
    response["result"]["errors"]
        .as_array()
        .unwrap_or_else(|| panic!("a plan: {response}"))
        .iter()
        .map(|e| e["summary"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// The titles of the code lenses of `path`.
fn code_lens_titles(client: &mut Client, path: &std::path::Path) -> Vec<String> {
    let id = client.send_request(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": uri(path) } }),
    );
    let response = client.response(id);
    response["result"]
        .as_array()
        .unwrap_or_else(|| panic!("code lenses: {response}"))
        .iter()
        .map(|l| {
            l["command"]["title"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

#[test]
fn the_server_indexes_plans_and_keeps_answering_on_a_hostile_workspace() {
    let dir = hostile_workspace();
    let (mut client, _) = Client::start().initialize(Some(dir.path()), json!({}));

    // (a) Indexing a file of 10,000 nested blocks: the nesting diagnostic, no overflow.
    let nested = dir.path().join("nested/main.tf");
    let found = diagnostics_with(&mut client, &nested, "Configuration nested too deeply");
    assert!(found[0].contains("more than 64 levels deep"), "{found:?}");

    // (b) A module that calls itself, with a prior state: the cycle is a diagnostic, the
    // plan code lens answers (without a planned action) and the plan names the cycle.
    let own = dir.path().join("self/main.tf");
    let found = diagnostics_with(&mut client, &own, "Module call cycle");
    assert!(
        found
            .iter()
            .any(|m| m.contains("the calls module.m form a cycle")),
        "{found:?}"
    );
    let titles = code_lens_titles(&mut client, &own);
    assert!(!titles.iter().any(|t| t.starts_with("will ")), "{titles:?}");
    let (_, planned) = plan_preview(&mut client, &own);
    assert!(
        plan_errors(&planned).contains(&"Module call cycle".to_string()),
        "{planned}"
    );

    // (c) A FIFO as the state: the code lens does not read it, the plan preview is an
    // error reply naming it; neither hangs.
    let fifo = dir.path().join("fifo/main.tf");
    code_lens_titles(&mut client, &fifo);
    let (id, refused) = plan_preview(&mut client, &fifo);
    let refused = if refused.get("error").is_some() {
        refused
    } else {
        error_with(&mut client, -32602, json!(id))
    };
    let text = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(
        text.contains("terraform.tfstate") && text.contains("FIFO"),
        "{refused}"
    );

    // (d) Locals that double 38 times: the plan ends in the evaluation limit.
    let exponential = dir.path().join("exponential/main.tf");
    let (_, planned) = plan_preview(&mut client, &exponential);
    assert!(
        plan_errors(&planned).contains(&"Evaluation limit reached".to_string()),
        "{planned}"
    );

    // (e) 10,000 errors, one per object: the diagnostics within the wait.
    let undeclared = dir.path().join("undeclared/main.tf");
    let found = diagnostics_with(&mut client, &undeclared, "Reference to undeclared local");
    assert_eq!(found.len(), UNDECLARED, "{:?}", found.first());

    assert_hover_works(&mut client);
}
