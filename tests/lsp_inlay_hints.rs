//! Black-box tests of inlay hints over stdio: the value an override puts in place of a
//! base argument, the values of variables (default, `.tfvars`, `TF_VAR_`), the number of
//! instances `count` and `for_each` make, the planned action beside a resource header
//! when a prior state exists, and each kind switched off in settings.

mod support;

use serde_json::{json, Value};
use support::{uri, Client, TempDir};

/// The state `terraform apply` (1.11.4) wrote for `terraform_data.old` (`input = 1`).
const OLD_STATE: &str = include_str!("../fixtures/states/terraform-data-old.tfstate");

/// A server started with `env` and `options` over `dir`, with `files` written and open.
fn start(dir: &TempDir, files: &[(&str, &str)], env: &[(&str, &str)], options: Value) -> Client {
    let mut client = Client::start_with_env(env);
    let init = client.request(
        "initialize",
        json!({
            "processId": null,
            "capabilities": {},
            "rootUri": uri(dir.path()),
            "initializationOptions": options,
        }),
    );
    assert_eq!(init["capabilities"]["inlayHintProvider"], json!(true));
    client.notify("initialized", json!({}));
    for (name, text) in files {
        let path = dir.write(name, text);
        if !name.ends_with(".tfvars") {
            client.open(&path, text, 1);
        }
    }
    client
}

/// The hints of the whole of `name`, as `line:character label`.
fn hints(client: &mut Client, dir: &TempDir, name: &str) -> Vec<String> {
    let result = client.request(
        "textDocument/inlayHint",
        json!({
            "textDocument": { "uri": uri(&dir.path().join(name)) },
            "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 100, "character": 0 } }
        }),
    );
    result
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|h| {
            format!(
                "{}:{} {}",
                h["position"]["line"],
                h["position"]["character"],
                h["label"].as_str().unwrap_or_default()
            )
        })
        .collect()
}

const BASE: &str = r#"resource "terraform_data" "a" {
  input            = "base"
  triggers_replace = 1
}
"#;

const OVERRIDE: &str = r#"resource "terraform_data" "a" {
  input = "foo"
}
"#;

#[test]
fn an_overridden_argument_shows_the_value_in_effect_and_its_file() {
    let dir = TempDir::new("hints-override");
    let files = [("main.tf", BASE), ("override.tf", OVERRIDE)];
    let mut client = start(&dir, &files, &[], json!({}));
    assert_eq!(
        hints(&mut client, &dir, "main.tf"),
        ["1:27 ← \"foo\" (override.tf)"]
    );
    assert!(hints(&mut client, &dir, "override.tf").is_empty());
}

const VARIABLES: &str = r#"variable "region" {
  default = "eu-west-1"
}

variable "replicas" {
  type = number
}

variable "enabled" {
  type = bool
}

locals {
  names = toset(["a", "b"])
}

resource "terraform_data" "a" {
  count = var.replicas
  input = "${var.region}-${var.enabled}"
}

resource "terraform_data" "b" {
  for_each = local.names
  input    = each.key
}

resource "terraform_data" "c" {
  for_each = { x = 1 }
}
"#;

#[test]
fn variables_show_their_values_and_count_and_for_each_their_instances() {
    let dir = TempDir::new("hints-values");
    let files = [
        ("main.tf", VARIABLES),
        ("terraform.tfvars", "replicas = 3\n"),
    ];
    let env = [("TF_VAR_enabled", "true")];
    let mut client = start(&dir, &files, &env, json!({}));
    assert_eq!(
        hints(&mut client, &dir, "main.tf"),
        [
            "17:22 = 3",
            "17:22 3 instances",
            "18:23 = \"eu-west-1\"",
            "18:38 = true",
            "22:24 2 instances",
            "27:22 1 instance",
        ]
    );
}

#[test]
fn a_resource_header_shows_its_planned_action_against_the_prior_state() {
    let dir = TempDir::new("hints-plan");
    dir.write("terraform.tfstate", OLD_STATE);
    let main = r#"resource "terraform_data" "old" {
  input = 1
}

resource "terraform_data" "new" {
  input = 2
}
"#;
    let mut client = start(&dir, &[("main.tf", main)], &[], json!({}));
    assert_eq!(
        hints(&mut client, &dir, "main.tf"),
        ["0:31 no changes", "4:31 will be created"]
    );
}

#[test]
fn each_kind_can_be_switched_off() {
    let dir = TempDir::new("hints-settings");
    dir.write("terraform.tfstate", OLD_STATE);
    let main = format!("{BASE}\nvariable \"n\" {{\n  default = 2\n}}\n\nresource \"terraform_data\" \"old\" {{\n  count = var.n\n}}\n");
    let files = [("main.tf", main.as_str()), ("override.tf", OVERRIDE)];
    let off =
        json!({ "strata": { "inlayHints": { "variables": false, "plannedActions": false } } });
    let mut client = start(&dir, &files, &[], off);
    assert_eq!(
        hints(&mut client, &dir, "main.tf"),
        ["1:27 ← \"foo\" (override.tf)", "10:15 2 instances"]
    );
    let settings =
        json!({ "strata": { "inlayHints": { "overrides": false, "instances": false } } });
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": settings }),
    );
    assert_eq!(
        hints(&mut client, &dir, "main.tf"),
        [
            "0:29 will be created",
            "9:31 1 to create, 1 to update",
            "10:15 = 2"
        ]
    );
}
