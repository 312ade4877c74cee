//! Black-box LSP tests of the plan preview: the `strata.planPreview` command and the code
//! lens with each resource's planned action, which follows the user's edits.

mod support;

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
    let rendered = result["rendered"].as_str().unwrap();
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
