//! Black-box LSP tests of the plan preview: the `strata.planPreview` command and the code
//! lens with each resource's planned action, which follows the user's edits, and the
//! refresh requests that tell a client to ask for lenses, tokens and inlay hints again.

mod support;

use std::time::Duration;

use serde_json::{json, Value};
use support::{Client, TempDir};

const MAIN: &str = r#"resource "terraform_data" "rep" {
  triggers_replace = "two"
}

resource "terraform_data" "same" {
  input = "x"
}
"#;

const STATE: &str = r#"{
  "version": 4, "serial": 1, "lineage": "l",
  "resources": [
    {"mode": "managed", "type": "terraform_data", "name": "rep", "provider": "provider[\"terraform.io/builtin/terraform\"]",
     "instances": [{"attributes": {"id": "r1", "input": null, "output": null, "triggers_replace": {"value": "one", "type": "string"}}}]},
    {"mode": "managed", "type": "terraform_data", "name": "same", "provider": "provider[\"terraform.io/builtin/terraform\"]",
     "instances": [{"attributes": {"id": "s1", "input": {"value": "x", "type": "string"}, "output": {"value": "x", "type": "string"}, "triggers_replace": null}}]}
  ]
}"#;

fn start(dir: &TempDir) -> Client {
    let (client, init) = Client::initialized(Some(dir.path()), json!({}));
    let commands = &init["capabilities"]["executeCommandProvider"]["commands"];
    assert!(commands
        .as_array()
        .unwrap()
        .contains(&json!("strata.planPreview")));
    client
}

fn lens_titles(client: &mut Client, u: &str) -> Vec<(u64, String)> {
    let lenses = client.request(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": u } }),
    );
    lenses
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["range"]["start"]["line"].as_u64().unwrap(),
                l["command"]["title"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn code_lens_shows_each_resources_planned_action_and_follows_edits() {
    let dir = TempDir::new("lsp-plan-lens");
    let main = dir.write("main.tf", MAIN);
    dir.write("terraform.tfstate", STATE);
    let mut client = start(&dir);
    let u = client.open(&main, MAIN, 1);
    assert_eq!(
        lens_titles(&mut client, &u),
        vec![
            (0, "will be replaced: triggers_replace changed".to_string()),
            (4, "no changes".to_string()),
        ]
    );
    // Typing the state's value back makes the replacement go away.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": u, "version": 2 },
                "contentChanges": [{ "text": MAIN.replace("\"two\"", "\"one\"").replace("\"x\"", "\"y\"") }] }),
    );
    assert_eq!(
        lens_titles(&mut client, &u),
        vec![
            (0, "no changes".to_string()),
            (4, "will be updated in-place".to_string()),
        ]
    );
}

#[test]
fn code_lens_follows_a_state_rewritten_without_any_notification() {
    let dir = TempDir::new("lsp-plan-lens-state");
    let main = dir.write("main.tf", MAIN);
    dir.write("terraform.tfstate", STATE);
    let mut client = start(&dir);
    let u = client.open(&main, MAIN, 1);
    let replaced = (0, "will be replaced: triggers_replace changed".to_string());
    assert_eq!(lens_titles(&mut client, &u)[0], replaced);
    // Asked again on the unchanged module: the kept plan.
    assert_eq!(lens_titles(&mut client, &u)[0], replaced);
    // `terraform apply` wrote the state; this client watches no files. (The space keeps
    // the new size apart from the old one, whatever the clock's resolution.)
    dir.write("terraform.tfstate", &STATE.replace("\"one\"", "\"two\" "));
    assert_eq!(
        lens_titles(&mut client, &u)[0],
        (0, "no changes".to_string())
    );
}

#[test]
fn plan_preview_returns_the_plan_and_its_text() {
    let dir = TempDir::new("lsp-plan-command");
    let main = dir.write("main.tf", MAIN);
    dir.write("terraform.tfstate", STATE);
    let mut client = start(&dir);
    let u = client.open(&main, MAIN, 1);
    let result = client.request(
        "workspace/executeCommand",
        json!({ "command": "strata.planPreview", "arguments": [{ "uri": u }] }),
    );
    let actions: Vec<(String, Value)> = result["resource_changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["address"].as_str().unwrap().to_string(),
                c["change"]["actions"].clone(),
            )
        })
        .collect();
    assert_eq!(
        actions,
        vec![
            (
                "terraform_data.rep".to_string(),
                json!(["delete", "create"])
            ),
            ("terraform_data.same".to_string(), json!(["no-op"])),
        ]
    );
    // Where each change is declared (its block's header), its words and the line of the
    // text that opens it (an unchanged object's is not shown), for plan views.
    let rendered = result["rendered"].as_str().unwrap();
    let opening = rendered
        .lines()
        .position(|l| l == "  # terraform_data.rep must be replaced")
        .unwrap();
    assert_eq!(
        result["places"],
        json!([
            { "description": "will be replaced: triggers_replace changed", "uri": u,
              "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 31 } },
              "rendered_line": opening },
            { "description": "no changes", "uri": u,
              "range": { "start": { "line": 4, "character": 0 }, "end": { "line": 4, "character": 32 } } },
        ])
    );
    assert!(
        rendered.contains("-/+ resource \"terraform_data\" \"rep\""),
        "{rendered}"
    );
    assert!(
        rendered.contains("Plan: 1 to add, 0 to change, 1 to destroy."),
        "{rendered}"
    );

    // Destroy mode and a forced replacement, through the argument object.
    let destroy = client.request(
        "workspace/executeCommand",
        json!({ "command": "strata.planPreview", "arguments": [{ "uri": u, "mode": "destroy" }] }),
    );
    assert!(destroy["rendered"]
        .as_str()
        .unwrap()
        .contains("0 to add, 0 to change, 2 to destroy"));
    let forced = client.request(
        "workspace/executeCommand",
        json!({ "command": "strata.planPreview", "arguments": [{ "uri": u, "replace": ["terraform_data.same"] }] }),
    );
    assert_eq!(
        forced["resource_changes"][1]["action_reason"],
        "replace_by_request"
    );

    // Bad arguments and a broken state are errors, and the server keeps serving.
    let id = client.send_request(
        "workspace/executeCommand",
        json!({ "command": "strata.planPreview", "arguments": [{ "uri": u, "mode": "sideways" }] }),
    );
    assert!(client.response(id)["error"]["message"]
        .as_str()
        .unwrap()
        .contains("sideways"));
    dir.write("broken.tfstate", "{ not json");
    let id = client.send_request(
        "workspace/executeCommand",
        json!({ "command": "strata.planPreview", "arguments": [{ "uri": u, "state": "broken.tfstate" }] }),
    );
    let error = client.response(id)["error"]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        error.contains("broken.tfstate") && error.contains("not valid JSON"),
        "{error}"
    );
    let again = client.request(
        "workspace/executeCommand",
        json!({ "command": "strata.planPreview", "arguments": [{ "uri": u }] }),
    );
    assert_eq!(again["errors"], json!([]));
}

/// The capabilities of a client that accepts the refresh requests.
fn refreshing() -> Value {
    json!({ "workspace": {
        "codeLens": { "refreshSupport": true },
        "semanticTokens": { "refreshSupport": true },
        "inlayHint": { "refreshSupport": true },
        "didChangeWatchedFiles": { "dynamicRegistration": true }
    }})
}

fn is_refresh(m: &Value, method: &str) -> bool {
    m["method"] == method && m.get("id").is_some()
}

/// Waits until the refreshes the server's work so far asked for are sent, then forgets
/// them.
fn settle(client: &mut Client, u: &str) {
    std::thread::sleep(Duration::from_millis(600));
    // A request's answer comes after every message sent before it.
    lens_titles(client, u);
    client.backlog.retain(|m| {
        !is_refresh(m, "workspace/codeLens/refresh")
            && !is_refresh(m, "workspace/semanticTokens/refresh")
            && !is_refresh(m, "workspace/inlayHint/refresh")
    });
}

#[test]
fn the_server_asks_for_lenses_and_tokens_again_when_a_plan_input_changes() {
    let dir = TempDir::new("lsp-plan-refresh");
    let main = dir.write("main.tf", MAIN);
    dir.write("terraform.tfstate", STATE);
    let (mut client, _) = Client::initialized(Some(dir.path()), refreshing());
    let u = client.open(&main, MAIN, 1);
    // Start-up: indexing, then the provider schema load, each followed by a refresh.
    client.wait_for(|m| m["method"] == "strata/providerSchemaStatus");
    settle(&mut client, &u);

    // A new state path: every plan changes, and the document's text did not.
    dir.write(
        "empty.tfstate",
        r#"{"version": 4, "serial": 1, "lineage": "l", "resources": []}"#,
    );
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "strata": { "plan": { "statePath": "empty.tfstate" } } } }),
    );
    client.wait_for(|m| is_refresh(m, "workspace/codeLens/refresh"));
    client.wait_for(|m| is_refresh(m, "workspace/semanticTokens/refresh"));
    client.wait_for(|m| is_refresh(m, "workspace/inlayHint/refresh"));
    assert_eq!(
        lens_titles(&mut client, &u),
        vec![
            (0, "will be created".to_string()),
            (4, "will be created".to_string()),
        ]
    );
    settle(&mut client, &u);

    // The state file changes on disk (`terraform apply`), which the client watches.
    dir.write("empty.tfstate", STATE);
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": support::uri(&dir.path().join("empty.tfstate")), "type": 2 }] }),
    );
    client.wait_for(|m| is_refresh(m, "workspace/codeLens/refresh"));
    assert_eq!(
        lens_titles(&mut client, &u)[0],
        (0, "will be replaced: triggers_replace changed".to_string())
    );
}

#[test]
fn an_edit_of_an_override_asks_for_the_base_files_lenses_again() {
    let dir = TempDir::new("lsp-plan-refresh-override");
    let main = dir.write("main.tf", MAIN);
    let over = "resource \"terraform_data\" \"same\" {\n  input = \"y\"\n}\n";
    let override_tf = dir.write("override.tf", over);
    let (mut client, _) = Client::initialized(Some(dir.path()), refreshing());
    let u = client.open(&main, MAIN, 1);
    let o = client.open(&override_tf, over, 1);
    client.wait_for(|m| m["method"] == "strata/providerSchemaStatus");
    settle(&mut client, &u);
    assert!(lens_titles(&mut client, &u)
        .iter()
        .any(|(line, title)| *line == 4 && title.contains("override.tf")));

    // Typing in the override, not yet saved: main.tf is open beside it.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": o, "version": 2 },
                "contentChanges": [{ "text": "# nothing overridden\n" }] }),
    );
    client.wait_for(|m| is_refresh(m, "workspace/codeLens/refresh"));
    // Its `←` value hints in main.tf are gone too.
    client.wait_for(|m| is_refresh(m, "workspace/inlayHint/refresh"));
    assert!(!lens_titles(&mut client, &u)
        .iter()
        .any(|(_, title)| title.contains("override.tf")));
}

#[test]
fn a_client_without_refresh_support_is_never_asked() {
    let dir = TempDir::new("lsp-plan-no-refresh");
    let main = dir.write("main.tf", MAIN);
    let (mut client, _) = Client::initialized(Some(dir.path()), json!({}));
    let u = client.open(&main, MAIN, 1);
    client.wait_for(|m| m["method"] == "strata/providerSchemaStatus");
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "strata": { "plan": { "statePath": "other.tfstate" } } } }),
    );
    std::thread::sleep(Duration::from_millis(600));
    lens_titles(&mut client, &u);
    assert!(
        !client.backlog.iter().any(|m| m["method"]
            .as_str()
            .is_some_and(|m| m.ends_with("/refresh"))),
        "{:#?}",
        client.backlog
    );
}

#[test]
fn the_planned_action_lens_shows_its_change() {
    let dir = TempDir::new("lsp-plan-lens-command");
    let main = dir.write("main.tf", MAIN);
    dir.write("terraform.tfstate", STATE);
    let mut client = start(&dir);
    let u = client.open(&main, MAIN, 1);
    let lenses = client.request(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": u } }),
    );
    let command = &lenses[0]["command"];
    assert_eq!(command["command"], "strata.showPlannedChange");
    assert_eq!(
        command["arguments"],
        json!([{ "uri": u, "address": "terraform_data.rep" }])
    );
    // A client that does not run it itself has the server run it: the change's lines,
    // as the plan's text shows them, in a message.
    client.request(
        "workspace/executeCommand",
        json!({ "command": "strata.showPlannedChange", "arguments": command["arguments"] }),
    );
    let shown = client.wait_for(|m| m["method"] == "window/showMessage");
    let text = shown["params"]["message"].as_str().unwrap();
    assert!(
        text.starts_with("  # terraform_data.rep must be replaced\n-/+ resource"),
        "{text}"
    );
    assert!(text.ends_with("    }"), "{text}");
    client.request(
        "workspace/executeCommand",
        json!({ "command": "strata.showPlannedChange", "arguments": [{ "uri": u, "address": "terraform_data.same" }] }),
    );
    let shown = client.wait_for(|m| {
        m["method"] == "window/showMessage" && m["params"]["message"] != shown["params"]["message"]
    });
    assert_eq!(
        shown["params"]["message"],
        "terraform_data.same: no changes"
    );
}

#[test]
fn plan_errors_carry_their_source_lines_and_place() {
    let dir = TempDir::new("lsp-plan-errors");
    let text = "resource \"terraform_data\" \"a\" {\n  input = var.missing\n}\n";
    let main = dir.write("main.tf", text);
    let mut client = start(&dir);
    let u = client.open(&main, text, 1);
    let result = client.request(
        "workspace/executeCommand",
        json!({ "command": "strata.planPreview", "arguments": [{ "uri": u }] }),
    );
    let error = &result["errors"][0];
    assert_eq!(error["summary"], "Reference to undeclared input variable");
    // The error as `strata check` prints it, source lines included.
    let check = std::process::Command::new(support::strata_bin())
        .args(["check", "--no-color"])
        .arg(dir.path())
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&check.stdout);
    let text = error["text"].as_str().unwrap();
    assert!(text.contains("  on main.tf line 2, in resource \"terraform_data\" \"a\":\n   2:   input = var.missing\n"), "{text}");
    assert!(printed.contains(text.trim_end()), "{printed}\n---\n{text}");
    assert_eq!(error["uri"], json!(u));
    assert_eq!(
        error["location_range"],
        json!({ "start": { "line": 1, "character": 10 }, "end": { "line": 1, "character": 21 } })
    );
}
