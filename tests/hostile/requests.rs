//! One request cannot take the server down: a panic while computing a hover, a code
//! lens, a plan preview or one module's diagnostics fails that request or that module
//! alone; a long computation is cancellable and superseded by a newer edit.
//!
//! The failures are injected (`STRATA_INJECT_FAULT`, debug builds only), so these tests
//! keep proving the containment after every real panic is fixed.

#![cfg(debug_assertions)]

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::server::{assert_hover_works, demo, hover_params, start_demo_with_env};
use crate::support::{uri, Client, TempDir};

/// A `strata.planPreview` request for the module of `path`; returns its id.
fn send_plan_preview(client: &mut Client, path: &std::path::Path) -> i64 {
    client.send_request(
        "workspace/executeCommand",
        json!({ "command": "strata.planPreview", "arguments": [{ "uri": uri(path) }] }),
    )
}

/// A workspace of two modules: `boom/` and `fine/`, each with a syntax error.
fn two_modules() -> TempDir {
    let dir = TempDir::new("hostile-modules");
    dir.write("boom/main.tf", "locals {\n  a = = 1\n}\n");
    dir.write("fine/main.tf", "locals {\n  a = = 1\n}\n");
    dir
}

#[test]
fn a_panic_in_a_hover_fails_that_hover_only() {
    let mut client = start_demo_with_env(&[("STRATA_INJECT_FAULT", "panic:hover of *override.tf")]);
    let path = demo().join("override.tf");
    let id = client.send_request(
        "textDocument/hover",
        hover_params(&path, "variable \"replicas\""),
    );
    let response = client.response(id);
    assert_eq!(response["error"]["code"], -32603, "{response}");
    let message = response["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("hover of") && message.contains("injected panic"),
        "{message}"
    );
    assert_hover_works(&mut client);
}

#[test]
fn a_panic_in_a_code_lens_fails_that_code_lens_only() {
    let mut client =
        start_demo_with_env(&[("STRATA_INJECT_FAULT", "panic:code lens of *override.tf")]);
    let lens = |client: &mut Client, name: &str| {
        let id = client.send_request(
            "textDocument/codeLens",
            json!({ "textDocument": { "uri": uri(&demo().join(name)) } }),
        );
        client.response(id)
    };
    let failed = lens(&mut client, "override.tf");
    assert_eq!(failed["error"]["code"], -32603, "{failed}");
    let fine = lens(&mut client, "main.tf");
    assert!(
        fine["result"].as_array().is_some_and(|l| !l.is_empty()),
        "{fine}"
    );
    assert_hover_works(&mut client);
}

#[test]
fn a_panic_in_a_plan_fails_that_plan_preview_only() {
    let modules = two_modules();
    let mut client =
        start_demo_with_env(&[("STRATA_INJECT_FAULT", "panic:strata.planPreview of *boom")]);
    let id = send_plan_preview(&mut client, &modules.path().join("boom/main.tf"));
    let failed = client.response(id);
    assert_eq!(failed["error"]["code"], -32603, "{failed}");
    let id = send_plan_preview(&mut client, &demo().join("main.tf"));
    let planned = client.response(id);
    assert!(planned["result"]["rendered"].is_string(), "{planned}");
    assert_hover_works(&mut client);
}

#[test]
fn a_panic_in_the_diagnostics_of_one_module_is_a_diagnostic_of_that_module() {
    let modules = two_modules();
    let env = [("STRATA_INJECT_FAULT", "panic:diagnostics of *boom")];
    let (mut client, _) = Client::start_with_env(&env).initialize(Some(modules.path()), json!({}));
    let boom = uri(&modules.path().join("boom/main.tf"));
    let fine = uri(&modules.path().join("fine/main.tf"));
    let failed = client.diagnostics_for(&boom, |p| p["diagnostics"] != json!([]));
    let list = failed["diagnostics"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{failed}");
    assert_eq!(list[0]["code"], "internal-error");
    assert!(list[0]["message"]
        .as_str()
        .unwrap()
        .contains("injected panic"));
    let checked = client.diagnostics_for(&fine, |p| p["diagnostics"] != json!([]));
    assert_eq!(
        checked["diagnostics"][0]["code"], "syntax-error",
        "{checked}"
    );
    // Edits of the healthy module go on being checked.
    let path = modules.path().join("fine/main.tf");
    client.open(&path, "locals {\n  a = 1\n}\n", 2);
    client.diagnostics_for(&fine, |p| {
        p["version"] == 2 && p["diagnostics"] == json!([])
    });
    assert_hover_works(&mut client);
}

#[test]
fn a_long_plan_preview_is_cancelled_at_once() {
    let mut client = start_demo_with_env(&[("STRATA_INJECT_FAULT", "slow:strata.planPreview of")]);
    let started = Instant::now();
    let id = send_plan_preview(&mut client, &demo().join("main.tf"));
    std::thread::sleep(Duration::from_millis(200));
    client.notify("$/cancelRequest", json!({ "id": id }));
    let response = client.response(id);
    assert_eq!(response["error"]["code"], -32800, "{response}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "answered at once"
    );
    assert_hover_works(&mut client);
}

#[test]
fn a_long_plan_preview_is_superseded_by_an_edit_of_its_module() {
    let mut client = start_demo_with_env(&[("STRATA_INJECT_FAULT", "slow:strata.planPreview of")]);
    let main = demo().join("main.tf");
    let text = std::fs::read_to_string(&main).unwrap();
    let u = client.open(&main, &text, 1);
    client.diagnostics_for(&u, |p| p["version"] == 1);
    let started = Instant::now();
    let id = send_plan_preview(&mut client, &main);
    std::thread::sleep(Duration::from_millis(200));
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": u, "version": 2 },
            "contentChanges": [{ "text": format!("{text}\n# edited\n") }]
        }),
    );
    let response = client.response(id);
    assert_eq!(
        response["error"]["code"], -32801,
        "ContentModified: {response}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "answered at once"
    );
    let _: Value = client.diagnostics_for(&u, |p| p["version"] == 2);
    assert_hover_works(&mut client);
}
