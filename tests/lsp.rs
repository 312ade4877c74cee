//! Black-box LSP tests: the real `strata serve` binary over stdio.

mod support;

use std::time::Duration;

use serde_json::{json, Value};
use support::{uri, Client, TempDir};

fn plain_caps() -> Value {
    json!({})
}

fn start_in(dir: &TempDir) -> Client {
    Client::initialized(Some(dir.path()), plain_caps()).0
}

fn change(uri: &str, version: i32, changes: Value) -> Value {
    json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": changes })
}

fn range(sl: u32, sc: u32, el: u32, ec: u32) -> Value {
    json!({ "start": { "line": sl, "character": sc }, "end": { "line": el, "character": ec } })
}

#[test]
fn initialize_advertises_only_what_works() {
    let (_client, result) = Client::initialized(None, plain_caps());
    let caps = &result["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16");
    assert_eq!(caps["textDocumentSync"]["change"], 2, "incremental sync");
    assert_eq!(caps["textDocumentSync"]["openClose"], true);
    assert_eq!(caps["hoverProvider"], true);
    assert_eq!(result["serverInfo"]["name"], "strata");
    let advertised: Vec<&String> = caps.as_object().unwrap().keys().collect();
    assert_eq!(
        advertised,
        vec![
            "codeActionProvider",
            "codeLensProvider",
            "completionProvider",
            "definitionProvider",
            "documentFormattingProvider",
            "documentHighlightProvider",
            "documentLinkProvider",
            "documentOnTypeFormattingProvider",
            "documentRangeFormattingProvider",
            "documentSymbolProvider",
            "executeCommandProvider",
            "foldingRangeProvider",
            "hoverProvider",
            "inlayHintProvider",
            "positionEncoding",
            "referencesProvider",
            "renameProvider",
            "selectionRangeProvider",
            "semanticTokensProvider",
            "signatureHelpProvider",
            "textDocumentSync",
            "workspaceSymbolProvider"
        ],
        "nothing unimplemented is advertised"
    );
    assert_eq!(
        caps["executeCommandProvider"]["commands"],
        json!([
            "strata.mergedBlock",
            "strata.showOverride",
            "strata.planPreview",
            "strata.showPlannedChange",
            "strata.providerSchemaStatus"
        ])
    );
}

#[test]
fn utf8_is_chosen_when_offered() {
    let caps = json!({ "general": { "positionEncodings": ["utf-16", "utf-8"] } });
    let (_client, result) = Client::initialized(None, caps);
    assert_eq!(result["capabilities"]["positionEncoding"], "utf-8");
}

#[test]
fn syntax_error_is_reported_where_it_is_then_cleared() {
    let dir = TempDir::new("lsp-syntax");
    let path = dir.path().join("main.tf");
    let mut client = start_in(&dir);
    let text =
        "variable \"a\" {\n  default = \"é\"\n}\n\nresource \"x\" \"y\" {\n  name = = 1\n}\n";
    let u = client.open(&path, text, 1);
    let diags = client.diagnostics_for(&u, |p| p["version"] == 1);
    let list = diags["diagnostics"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{diags}");
    let d = &list[0];
    assert_eq!(d["severity"], 1);
    assert_eq!(d["source"], "strata");
    assert_eq!(d["code"], "syntax-error");
    assert_eq!(d["range"]["start"]["line"], 5);
    // `  name = = 1`: the second `=` (column 9) is where the expression goes wrong.
    assert_eq!(d["range"]["start"]["character"], 9);

    // Fix it with an incremental edit that deletes the extra "= ".
    client.notify(
        "textDocument/didChange",
        change(&u, 2, json!([{ "range": range(5, 9, 5, 11), "text": "" }])),
    );
    let cleared = client.diagnostics_for(&u, |p| p["version"] == 2);
    assert_eq!(cleared["diagnostics"], json!([]), "{cleared}");
}

#[test]
fn positions_follow_the_negotiated_encoding() {
    // The error sits after an emoji: 2 UTF-16 units, 4 UTF-8 bytes.
    let text = "locals {\n  a = \"😀\" + = 1\n}\n";
    for (offered, column) in [(json!(["utf-16"]), 13), (json!(["utf-8"]), 15)] {
        let dir = TempDir::new("lsp-enc");
        let caps = json!({ "general": { "positionEncodings": offered } });
        let (mut client, _) = Client::initialized(Some(dir.path()), caps);
        let u = client.open(&dir.path().join("main.tf"), text, 1);
        let diags = client.diagnostics_for(&u, |p| p["version"] == 1);
        let start = &diags["diagnostics"][0]["range"]["start"];
        assert_eq!(start["line"], 1, "{diags}");
        assert_eq!(start["character"], column, "{offered}: {diags}");
    }
}

#[test]
fn pipelined_edits_apply_in_order() {
    let dir = TempDir::new("lsp-order");
    let path = dir.path().join("main.tf");
    let mut client = start_in(&dir);
    let u = client.open(&path, "locals {\n  value = 0\n}\n", 0);
    let mut hovers = Vec::new();
    // 300 edits, each followed at once by a hover, none waited for.
    for i in 1..=300 {
        let previous_len = (i - 1).to_string().len() as u32;
        client.notify(
            "textDocument/didChange",
            change(
                &u,
                i,
                json!([{ "range": range(1, 10, 1, 10 + previous_len), "text": i.to_string() }]),
            ),
        );
        let id = client.send_request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": u }, "position": { "line": 1, "character": 3 } }),
        );
        hovers.push((i, id));
    }
    for (i, id) in hovers {
        let response = client.response(id);
        let shown = response["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default();
        assert!(
            shown.contains(&format!("value = {i}\n")),
            "hover after edit {i} shows {shown:?}"
        );
    }
    // And the final text is the last one sent.
    let last = client.diagnostics_for(&u, |p| p["version"] == 300);
    assert_eq!(last["diagnostics"], json!([]));
}

#[test]
fn exit_ends_the_process_even_with_stdin_open() {
    let (mut client, _) = Client::initialized(None, plain_caps());
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    let status = client
        .wait_exit(Duration::from_secs(10))
        .expect("process exits on `exit` while stdin stays open");
    assert!(status.success(), "exit after shutdown is status 0");
}

#[test]
fn exit_without_shutdown_is_status_one() {
    let (mut client, _) = Client::initialized(None, plain_caps());
    client.notify("exit", Value::Null);
    let status = client.wait_exit(Duration::from_secs(10)).expect("exits");
    assert_eq!(status.code(), Some(1));
}

#[test]
fn malformed_messages_do_not_stop_the_server() {
    let dir = TempDir::new("lsp-bad");
    let mut client = start_in(&dir);
    // Not JSON at all, JSON that is not JSON-RPC, and a broken header: each gets an
    // error reply with a null id (JSON-RPC's Parse error or Invalid Request) and the
    // server reads on. tests/hostile.rs has every other case.
    client.send_raw(b"{ this is not json");
    let reply = client.wait_for(|m| m["error"]["code"] == -32700);
    assert_eq!(reply["id"], Value::Null);
    client.send_raw(b"[1, 2]");
    let reply = client.wait_for(|m| m["error"]["code"] == -32600);
    assert_eq!(reply["id"], Value::Null);
    client.send_raw_with_header(b"Content-Length: nope\r\n\r\n");
    client.wait_for(|m| m["error"]["code"] == -32700);
    // Wrong parameter types.
    let id = client.send_request("textDocument/hover", json!({ "textDocument": 42 }));
    let response = client.response(id);
    assert!(response.get("error").is_some(), "{response}");
    // A change for a document never opened, and a position far past the end.
    let ghost = uri(&dir.path().join("ghost.tf"));
    client.notify(
        "textDocument/didChange",
        change(
            &ghost,
            1,
            json!([{ "range": range(0, 0, 0, 1), "text": "x" }]),
        ),
    );
    let u = client.open(&dir.path().join("main.tf"), "locals {\n  a = 1\n}\n", 1);
    client.notify(
        "textDocument/didChange",
        change(
            &u,
            2,
            json!([{ "range": range(99, 99, 120, 0), "text": "\n# end" }]),
        ),
    );
    let diags = client.diagnostics_for(&u, |p| p["version"] == 2);
    assert_eq!(diags["diagnostics"], json!([]));
    // Still answering.
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": u }, "position": { "line": 500, "character": 3 } }),
    );
    assert!(hover.is_null() || hover.is_object());
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": u }, "position": { "line": 1, "character": 2 } }),
    );
    assert!(hover["contents"]["value"]
        .as_str()
        .unwrap()
        .contains("a = 1"));
}

#[test]
fn workspace_is_indexed_in_the_background_with_progress() {
    let dir = TempDir::new("lsp-index");
    dir.write("ok/main.tf", "variable \"a\" {}\n");
    let broken = dir.write(
        "nested/deep/main.tf",
        "resource \"a\" \"b\" {\n  x = = 1\n}\n",
    );
    dir.write(".terraform/modules/m/main.tf", "this is { not parsed\n");
    let caps = json!({ "window": { "workDoneProgress": true } });
    let (mut client, _) = Client::initialized(Some(dir.path()), caps);
    client.wait_for(|m| m["method"] == "window/workDoneProgress/create");
    client.wait_for(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "begin");
    let diags = client.diagnostics_for(&uri(&broken), |_| true);
    assert_eq!(diags["diagnostics"][0]["range"]["start"]["line"], 1);
    client.wait_for(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end");
    // Nothing from the skipped .terraform directory.
    assert!(!client.backlog.iter().any(|m| m["params"]["uri"]
        .as_str()
        .is_some_and(|u| u.contains(".terraform"))));
}

#[test]
fn files_changed_on_disk_update_their_module() {
    let dir = TempDir::new("lsp-watch");
    dir.write("main.tf", "variable \"a\" {}\n");
    let caps = json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } });
    let (mut client, _) = Client::initialized(Some(dir.path()), caps);
    let registration = client.wait_for(|m| m["method"] == "client/registerCapability");
    let reg = &registration["params"]["registrations"][0];
    assert_eq!(reg["method"], "workspace/didChangeWatchedFiles");
    let globs: Vec<&str> = reg["registerOptions"]["watchers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["globPattern"].as_str().unwrap())
        .collect();
    assert_eq!(
        globs,
        vec![
            "**/*.{tf,tf.json,tofu,tofu.json,tfvars}",
            "**/terraform.tfstate",
            "**/.terraform.lock.hcl",
            "**/.terraform/providers/**",
            "**/terraform.d/plugins/**",
            "**/{.terraform-version,.opentofu-version,.tool-versions}"
        ]
    );

    // A broken file appears on disk: its diagnostics arrive.
    let added = dir.write("extra.tf", "output \"o\" {\n  value = (\n}\n");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri(&added), "type": 1 }] }),
    );
    let diags = client.diagnostics_for(&uri(&added), |p| {
        p["diagnostics"].as_array().is_some_and(|d| !d.is_empty())
    });
    assert!(diags["version"].is_null(), "a file on disk has no version");

    // It is deleted: its diagnostics are cleared.
    std::fs::remove_file(&added).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri(&added), "type": 3 }] }),
    );
    // The module no longer lists the file; a hover on it answers nothing.
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri(&added) }, "position": { "line": 0, "character": 1 } }),
    );
    assert!(hover.is_null());
}

#[test]
fn closing_a_document_returns_to_the_disk_text() {
    let dir = TempDir::new("lsp-close");
    let path = dir.write("main.tf", "variable \"disk\" {}\n");
    let mut client = start_in(&dir);
    let u = client.open(&path, "variable \"editor\" {\n", 1);
    let open = client.diagnostics_for(&u, |p| p["version"] == 1);
    assert_eq!(
        open["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .lines()
            .next(),
        Some("Unclosed configuration block")
    );
    client.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": u } }),
    );
    let closed = client.diagnostics_for(&u, |p| p["version"].is_null());
    assert_eq!(closed["diagnostics"], json!([]));
}

/// Whether a diagnostics notification holds `Unsupported Terraform Core version`.
fn unsupported(p: &Value) -> bool {
    p["diagnostics"].as_array().is_some_and(|d| {
        d.iter().any(|d| {
            d["message"]
                .as_str()
                .unwrap_or("")
                .contains("Unsupported Terraform Core version")
        })
    })
}

/// The hover on `required_version` (line 2 of the document `u`), as markdown.
fn required_version_hover(client: &mut Client, u: &str) -> String {
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": u }, "position": { "line": 1, "character": 5 } }),
    );
    hover["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// `required_version` is checked against the `strata.terraformVersion` setting (else the
/// release Strata targets), and the hover on it says which version that is.
#[test]
fn required_version_follows_the_terraform_version_setting() {
    let dir = TempDir::new("lsp-core-version");
    let text = "terraform {\n  required_version = \">= 1.0, < 1.10\"\n}\n";
    let path = dir.write("main.tf", text);
    let mut client = start_in(&dir);
    let u = client.open(&path, text, 1);
    client.diagnostics_for(&u, unsupported);
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "strata": { "terraformVersion": "1.9.8" } } }),
    );
    client.diagnostics_for(&u, |p| !unsupported(p));
    let shown = required_version_hover(&mut client, &u);
    assert!(
        shown.contains("**1.9.8**") && shown.contains("setting"),
        "{shown}"
    );
}

/// A version file written or changed on disk sets the version `required_version` is
/// checked against, for the module in its directory and those below, and the hover says
/// where that version came from.
#[test]
fn required_version_follows_version_files_changed_on_disk() {
    let dir = TempDir::new("lsp-version-file");
    let text = "terraform {\n  required_version = \">= 1.0, < 1.10\"\n}\n";
    let path = dir.write("m/main.tf", text);
    let mut client = start_in(&dir);
    let u = client.open(&path, text, 1);
    client.diagnostics_for(&u, unsupported);
    let written = dir.write(".tool-versions", "nodejs 20.1.0\nterraform 1.9.8\n");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri(&written), "type": 1 }] }),
    );
    client.diagnostics_for(&u, |p| !unsupported(p));
    let shown = required_version_hover(&mut client, &u);
    assert!(
        shown.contains("**1.9.8**") && shown.contains(".tool-versions"),
        "{shown}"
    );
    // A closer file wins: this one names a version the constraint refuses.
    let closer = dir.write("m/.terraform-version", "1.10.2\n");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri(&closer), "type": 2 }] }),
    );
    client.diagnostics_for(&u, unsupported);
}

#[test]
fn a_called_module_is_checked_as_the_child_strata_check_sees() {
    let dir = TempDir::new("lsp-module-role");
    dir.write("main.tf", "module \"c\" {\n  source = \"./child\"\n}\n");
    let text = "output \"o\" {\n  value = terraform_data.missing.id\n}\n";
    let child = dir.write("child/main.tf", text);
    let mut client = start_in(&dir);
    let u = client.open(&child, text, 1);
    let messages = |p: &Value| -> Vec<String> {
        p["diagnostics"]
            .as_array()
            .map(|d| {
                d.iter()
                    .filter_map(|d| d["message"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    // Until the workspace is indexed, nothing calls the module yet.
    let in_child = |p: &Value| {
        messages(p)
            .iter()
            .any(|m| m.contains("has not been declared in module.c."))
    };
    let all = messages(&client.diagnostics_for(&u, in_child));
    assert!(
        !all.iter().any(|m| m.contains("in the root module")),
        "{all:?}"
    );
    // Renaming the call in the root module changes the child's words.
    let root_text = "module \"c\" {\n  source = \"./child\"\n}\n";
    let root = client.open(&dir.path().join("main.tf"), root_text, 1);
    client.notify(
        "textDocument/didChange",
        change(
            &root,
            2,
            json!([{ "range": range(0, 8, 0, 9), "text": "d" }]),
        ),
    );
    client.diagnostics_for(&u, |p| {
        messages(p)
            .iter()
            .any(|m| m.contains("has not been declared in module.d."))
    });
}
