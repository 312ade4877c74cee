//! A cancelled or superseded computation stops (issue 12, item 6): not only is the
//! request answered at once, the work behind it ends too, so that abandoned plans cannot
//! hold the server's planning slots and an old module snapshot's check cannot delay the
//! diagnostics of the newer one.
//!
//! The work here is real, not injected: a module whose plan hashes a 1 MiB string 65,536
//! times (minutes, whatever the build), while its check is quick (the number of rounds
//! is a variable, unknown when checking), and a module whose check does the same. The
//! server plans at most one module per core at a time, so the tests occupy every slot
//! with such plans, give them up, and then expect another plan to be answered: it could
//! not be if the abandoned plans ran on.

use std::path::Path;

use serde_json::json;

use crate::server::{assert_hover_works, demo, error_with, start_demo};
use crate::support::{uri, Client, TempDir};

/// A module whose plan takes minutes and whose check is quick.
const SLOW_PLAN: &str = r#"variable "rounds" {
  default = 1024
}

locals {
  chunk  = join("", [for i in range(1024) : "0123456789abcdef"])
  big    = join("", [for i in range(64) : local.chunk])
  hashes = [for i in range(var.rounds) : [for j in range(64) : sha512(local.big)]]
}

output "hashes" {
  value = length(local.hashes)
}
"#;

/// A module whose check takes minutes.
const SLOW_CHECK: &str = r#"locals {
  chunk  = join("", [for i in range(1024) : "0123456789abcdef"])
  big    = join("", [for i in range(64) : local.chunk])
  hashes = [for i in range(1024) : [for j in range(64) : sha512(local.big)]]
}
"#;

/// An empty prior state, which makes the plan code lens plan.
const EMPTY_STATE: &str = r#"{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"l","outputs":{},"resources":[]}"#;

/// How many plans the server runs at once (one per core, as it counts them).
fn planning_slots() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Sends a `strata.planPreview` request for the module of `path`; returns its id.
fn send_plan_preview(client: &mut Client, path: &Path) -> i64 {
    client.send_request(
        "workspace/executeCommand",
        json!({ "command": "strata.planPreview", "arguments": [{ "uri": uri(path) }] }),
    )
}

/// Asserts that a plan of `fixtures/demo` is still answered: a planning slot is free.
fn assert_plan_answers(client: &mut Client) {
    let id = send_plan_preview(client, &demo().join("main.tf"));
    let planned = client.response(id);
    assert!(planned["result"]["rendered"].is_string(), "{planned}");
}

/// Lets the requests `ids` start computing, cancels them (each is answered
/// RequestCancelled), and asserts that a plan is answered afterwards, and a hover.
fn cancel_then_plan(client: &mut Client, ids: Vec<i64>) {
    let_them_start();
    for &id in &ids {
        client.notify("$/cancelRequest", json!({ "id": id }));
    }
    for id in ids {
        error_with(client, -32800, json!(id));
    }
    assert_plan_answers(client);
    assert_hover_works(client);
}

/// Lets the requests just sent start computing.
fn let_them_start() {
    std::thread::sleep(std::time::Duration::from_millis(500));
}

#[test]
fn cancelled_plan_previews_stop_computing() {
    let module = TempDir::new("hostile-cancel-plan");
    let main = module.write("main.tf", SLOW_PLAN);
    let mut client = start_demo();
    let ids: Vec<i64> = (0..planning_slots())
        .map(|_| send_plan_preview(&mut client, &main))
        .collect();
    cancel_then_plan(&mut client, ids);
}

#[test]
fn cancelled_plan_code_lenses_stop_computing() {
    let module = TempDir::new("hostile-cancel-lens");
    let main = module.write("main.tf", SLOW_PLAN);
    module.write("terraform.tfstate", EMPTY_STATE);
    let mut client = start_demo();
    let ids: Vec<i64> = (0..planning_slots())
        .map(|_| {
            client.send_request(
                "textDocument/codeLens",
                json!({ "textDocument": { "uri": uri(&main) } }),
            )
        })
        .collect();
    cancel_then_plan(&mut client, ids);
}

#[test]
fn plan_previews_superseded_by_an_edit_stop_computing() {
    let module = TempDir::new("hostile-supersede-plan");
    let main = module.write("main.tf", SLOW_PLAN);
    let mut client = start_demo();
    let u = client.open(&main, SLOW_PLAN, 1);
    client.diagnostics_for(&u, |p| p["version"] == 1);
    let ids: Vec<i64> = (0..planning_slots())
        .map(|_| send_plan_preview(&mut client, &main))
        .collect();
    let_them_start();
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": u, "version": 2 },
            "contentChanges": [{ "text": format!("{SLOW_PLAN}\n# edited\n") }]
        }),
    );
    for id in ids {
        error_with(&mut client, -32801, json!(id));
    }
    assert_plan_answers(&mut client);
    assert_hover_works(&mut client);
}

#[test]
fn a_check_superseded_by_an_edit_stops_and_the_newer_one_is_published() {
    let module = TempDir::new("hostile-supersede-check");
    let main = module.write("main.tf", SLOW_CHECK);
    let mut client = start_demo();
    let u = client.open(&main, SLOW_CHECK, 1);
    let_them_start();
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": u, "version": 2 },
            "contentChanges": [{ "text": "locals {\n  a = = 1\n}\n" }]
        }),
    );
    // Diagnostics are published one module after the other: these come only once the
    // check of version 1 has stopped.
    let checked = client.diagnostics_for(&u, |p| p["version"] == 2);
    assert_eq!(
        checked["diagnostics"][0]["code"], "syntax-error",
        "{checked}"
    );
    assert_hover_works(&mut client);
}
