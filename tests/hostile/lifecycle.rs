//! Lifecycle: `exit` and the end of the input end the process even while the server
//! waits for the client, and documents closed give their memory back.

use std::process::ExitStatus;
use std::sync::LazyLock;
use std::time::Duration;

use serde_json::{json, Value};

use crate::server::{assert_hover_works, demo, resident_kib, start_demo};
use crate::support::{uri, Client, TempDir};

/// A server on `fixtures/demo` whose `client/registerCapability` is never answered.
fn waiting_for_registration() -> Client {
    let mut client = Client::start();
    client.answers_server_requests = false;
    let caps = json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } });
    let (mut client, _) = client.initialize(Some(&demo()), caps);
    client.wait_for(|m| m["method"] == "client/registerCapability");
    client
}

/// How the process ended, which it must within five seconds.
fn ended(client: &mut Client) -> ExitStatus {
    client
        .wait_exit(Duration::from_secs(5))
        .expect("the process ends")
}

#[test]
fn exit_ends_the_process_while_a_server_request_is_unanswered() {
    let mut client = waiting_for_registration();
    assert_hover_works(&mut client);
    client.notify("exit", Value::Null);
    assert_eq!(ended(&mut client).code(), Some(1), "exit without shutdown");
}

#[test]
fn shutdown_and_exit_end_the_process_while_a_server_request_is_unanswered() {
    let mut client = waiting_for_registration();
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert!(ended(&mut client).success());
}

#[test]
fn the_end_of_input_ends_the_process_while_a_server_request_is_unanswered() {
    let mut client = waiting_for_registration();
    client.close_stdin();
    assert_eq!(ended(&mut client).code(), Some(1), "no shutdown came");
}

#[test]
fn the_end_of_input_inside_a_message_ends_the_process() {
    let mut client = start_demo();
    client.send_raw_with_header(b"Content-Length: 100\r\n\r\n{\"jsonrpc\"");
    client.close_stdin();
    ended(&mut client);
}

/// Opens and closes a document with a syntax error in a module of its own outside the
/// workspace (with another file of some size on disk), and waits until its diagnostics
/// are cleared.
fn open_and_close(client: &mut Client, scratch: &TempDir, i: usize) {
    scratch.write(&format!("d{i}/variables.tf"), &VARIABLES);
    let path = scratch.path().join(format!("d{i}/main.tf"));
    let u = client.open(&path, "resource \"x\" \"y\" {\n  a = = 1\n}\n", 1);
    client.diagnostics_for(&u, |p| p["version"] == 1 && p["diagnostics"] != json!([]));
    client.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": u } }),
    );
    client.diagnostics_for(&uri(&path), |p| {
        p["diagnostics"] == json!([]) && p["version"].is_null()
    });
}

/// A file of 100 variables, read from disk with each module.
static VARIABLES: LazyLock<String> = LazyLock::new(|| {
    (0..100)
        .map(|i| format!("variable \"v{i}\" {{\n  type    = string\n  default = \"{i}\"\n}}\n"))
        .collect()
});

#[test]
fn documents_closed_outside_the_workspace_are_forgotten_with_their_diagnostics() {
    let scratch = TempDir::new("hostile-close");
    let mut client = start_demo();
    for i in 0..200 {
        open_and_close(&mut client, &scratch, i);
    }
    client.backlog.clear();
    let before = resident_kib(client.pid());
    for i in 200..2200 {
        open_and_close(&mut client, &scratch, i);
        client.backlog.clear();
    }
    if let (Some(before), Some(after)) = (before, resident_kib(client.pid())) {
        assert!(
            after < before + 8 * 1024,
            "2,000 open/close pairs grew the server from {before} KiB to {after} KiB"
        );
    }
    assert_hover_works(&mut client);
}
