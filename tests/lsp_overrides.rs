//! Black-box LSP tests of what Strata shows about override files: hover with the
//! effective block, the override code lens, go to definition and `strata.mergedBlock`.

mod support;

use std::path::Path;

use serde_json::{json, Value};
use support::{fixtures, Client, TempDir};

/// The zero-based line and column of the first occurrence of `needle` in `text`.
fn find(text: &str, needle: &str) -> (u32, u32) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not found"));
    let line = text[..at].matches('\n').count() as u32;
    let column = (at - text[..at].rfind('\n').map_or(0, |i| i + 1)) as u32;
    (line, column)
}

fn position(text: &str, needle: &str, plus: u32) -> Value {
    let (line, character) = find(text, needle);
    json!({ "line": line, "character": character + plus })
}

fn hover_text(client: &mut Client, u: &str, at: Value) -> String {
    let result = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": u }, "position": at }),
    );
    result["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn open_demo(client: &mut Client, name: &str) -> (String, String) {
    let path = fixtures().join("demo").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let u = client.open(&path, &text, 1);
    (u, text)
}

fn start(root: &Path) -> Client {
    Client::initialized(Some(root), json!({})).0
}

#[test]
fn hover_on_a_base_block_shows_the_effective_block_with_origins() {
    let mut client = start(&fixtures().join("demo"));
    let (u, text) = open_demo(&mut client, "main.tf");
    let shown = hover_text(
        &mut client,
        &u,
        position(&text, "resource \"null_resource\" \"web\"", 2),
    );
    assert!(shown.contains("# from override.tf:8"), "{shown}");
    assert!(
        shown.contains("version = \"2\""),
        "the overriding value wins: {shown}"
    );
    assert!(!shown.contains("version = \"1\""), "{shown}");
    assert!(shown.contains("Declared in `main.tf:"), "{shown}");
    assert!(shown.contains("overridden by `override.tf:7`"), "{shown}");
    // Where it comes from is said above the block, not below it.
    assert!(
        shown.starts_with("Declared in `main.tf:")
            && shown.find("```") > shown.find("overridden by"),
        "{shown}"
    );
}

#[test]
fn hover_on_an_override_block_shows_the_same_effective_block() {
    let mut client = start(&fixtures().join("demo"));
    let (u, text) = open_demo(&mut client, "override.tf");
    let shown = hover_text(&mut client, &u, position(&text, "variable \"replicas\"", 1));
    assert!(
        shown.contains("type    = number"),
        "the base's type shows: {shown}"
    );
    assert!(
        shown.contains("# from override.tf:4\n  default = 3"),
        "{shown}"
    );
}

#[test]
fn hover_on_an_overridden_attribute_says_what_wins_and_where() {
    let mut client = start(&fixtures().join("demo"));
    let (u, text) = open_demo(&mut client, "main.tf");
    let shown = hover_text(&mut client, &u, position(&text, "triggers = {", 1));
    assert!(shown.starts_with("**Overridden.**"), "{shown}");
    assert!(shown.contains("`override.tf:8`"), "{shown}");
    assert!(shown.contains("version = \"2\""), "{shown}");
    // An argument no override touches is in effect.
    let shown = hover_text(&mut client, &u, position(&text, "type    = number", 1));
    assert!(shown.contains("In effect."), "{shown}");
}

#[test]
fn hover_on_a_reference_shows_its_effective_definition() {
    let mut client = start(&fixtures().join("demo"));
    let (u, text) = open_demo(&mut client, "main.tf");
    let shown = hover_text(&mut client, &u, position(&text, "var.replicas", 5));
    assert!(shown.contains("variable \"replicas\""), "{shown}");
    assert!(shown.contains("default = 3"), "{shown}");
    let shown = hover_text(&mut client, &u, position(&text, "terraform_data.app]", 3));
    assert!(
        shown.contains("resource \"terraform_data\" \"app\""),
        "{shown}"
    );
}

#[test]
fn code_lens_names_the_override_files_and_jumps_there() {
    let mut client = start(&fixtures().join("demo"));
    let (u, text) = open_demo(&mut client, "main.tf");
    let lenses = client.request(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": u } }),
    );
    // The demo has a prior state, so plan lenses stand beside the override lenses.
    let lenses: Vec<&Value> = lenses
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["command"]["command"] != "strata.showPlannedChange")
        .collect();
    let titles: Vec<&str> = lenses
        .iter()
        .map(|l| l["command"]["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        vec!["overridden by override.tf", "overridden by override.tf"]
    );
    let lines: Vec<u64> = lenses
        .iter()
        .map(|l| l["range"]["start"]["line"].as_u64().unwrap())
        .collect();
    let (replicas, _) = find(&text, "variable \"replicas\"");
    let (web, _) = find(&text, "resource \"null_resource\" \"web\"");
    assert_eq!(lines, vec![replicas as u64, web as u64]);
    // Running the lens command makes the client show the override.
    let command = &lenses[1]["command"];
    client.send_request(
        "workspace/executeCommand",
        json!({ "command": command["command"], "arguments": command["arguments"] }),
    );
    let show = client.wait_for(|m| m["method"] == "window/showDocument");
    assert!(show["params"]["uri"]
        .as_str()
        .unwrap()
        .ends_with("/demo/override.tf"));
    assert_eq!(show["params"]["selection"]["start"]["line"], 6);
}

#[test]
fn definition_goes_to_the_effective_definition_and_lists_overrides() {
    let dir = TempDir::new("lsp-def");
    let main = dir.write(
        "main.tf",
        "locals {\n  name = \"base\"\n}\n\noutput \"o\" {\n  value = local.name\n}\n",
    );
    dir.write("x_override.tf", "locals {\n  name = \"override\"\n}\n");
    dir.write("y_override.tf", "output \"o\" {\n  value = 1\n}\n");
    let mut client = start(dir.path());
    let text = std::fs::read_to_string(&main).unwrap();
    let u = client.open(&main, &text, 1);
    // From a reference to an overridden local: the override.
    let def = client.request(
        "textDocument/definition",
        json!({ "textDocument": { "uri": u }, "position": position(&text, "local.name", 7) }),
    );
    assert!(
        def["uri"].as_str().unwrap().ends_with("/x_override.tf"),
        "{def}"
    );
    assert_eq!(def["range"]["start"]["line"], 1);
    // From a block label: the declaration and every override.
    let defs = client.request(
        "textDocument/definition",
        json!({ "textDocument": { "uri": u }, "position": position(&text, "\"o\"", 1) }),
    );
    let files: Vec<&str> = defs
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["uri"].as_str().unwrap().rsplit('/').next().unwrap())
        .collect();
    assert_eq!(files, vec!["main.tf", "y_override.tf"]);
}

#[test]
fn merged_block_command_returns_the_effective_block() {
    let mut client = start(&fixtures().join("demo"));
    let (u, text) = open_demo(&mut client, "main.tf");
    let result = client.request(
        "workspace/executeCommand",
        json!({
            "command": "strata.mergedBlock",
            "arguments": [{ "uri": u, "position": position(&text, "triggers", 0) }]
        }),
    );
    assert_eq!(result["address"], "null_resource.web");
    assert!(result["text"].as_str().unwrap().contains("version = \"2\""));
    assert!(result["declaration"]["uri"]
        .as_str()
        .unwrap()
        .ends_with("/main.tf"));
    assert_eq!(result["overrides"].as_array().unwrap().len(), 1);
    // Malformed arguments are an error response, not a crash.
    let id = client.send_request(
        "workspace/executeCommand",
        json!({ "command": "strata.mergedBlock", "arguments": ["uri=x"] }),
    );
    assert_eq!(client.response(id)["error"]["code"], -32602);
}

#[test]
fn editing_an_override_updates_hover_on_the_base() {
    let dir = TempDir::new("lsp-edit");
    let main = dir.write(
        "main.tf",
        "resource \"null_resource\" \"a\" {\n  triggers = { v = \"1\" }\n}\n",
    );
    let over = dir.write(
        "override.tf",
        "resource \"null_resource\" \"a\" {\n  triggers = { v = \"2\" }\n}\n",
    );
    let mut client = start(dir.path());
    let main_text = std::fs::read_to_string(&main).unwrap();
    let u_main = client.open(&main, &main_text, 1);
    let header = position(&main_text, "resource", 1);
    assert!(hover_text(&mut client, &u_main, header.clone()).contains("v = \"2\""));

    let over_text = std::fs::read_to_string(&over).unwrap();
    let u_over = client.open(&over, &over_text, 1);
    let (line, col) = find(&over_text, "\"2\"");
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": u_over, "version": 2 },
            "contentChanges": [{
                "range": { "start": { "line": line, "character": col + 1 },
                           "end": { "line": line, "character": col + 2 } },
                "text": "3"
            }]
        }),
    );
    let shown = hover_text(&mut client, &u_main, header);
    assert!(
        shown.contains("v = \"3\""),
        "the edit shows at once: {shown}"
    );
    // And the code lens on the base still points at the override.
    let lenses = client.request(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": u_main } }),
    );
    assert_eq!(lenses[0]["command"]["title"], "overridden by override.tf");
}

#[test]
fn an_edit_in_one_file_raises_and_clears_errors_in_another() {
    let dir = TempDir::new("lsp-cross");
    let main = dir.write("main.tf", "variable \"a\" {}\n");
    let early = dir.write("0.tf", "\n");
    let mut client = start(dir.path());
    let u_main = client.open(&main, "variable \"a\" {}\n", 1);
    client.diagnostics_for(&u_main, |p| p["version"] == 1);
    let u_early = client.open(&early, "\n", 1);
    // `0.tf` sorts before `main.tf`: declaring the variable there makes main.tf's the
    // duplicate, and Terraform reports the later declaration.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": u_early, "version": 2 },
                "contentChanges": [{ "text": "variable \"a\" {}\n" }] }),
    );
    let raised = client.diagnostics_for(&u_main, |p| {
        p["diagnostics"].as_array().is_some_and(|d| !d.is_empty())
    });
    assert_eq!(raised["version"], 1, "tagged with main.tf's own version");
    let d = &raised["diagnostics"][0];
    assert_eq!(d["code"], "duplicate-declaration");
    assert!(d["message"]
        .as_str()
        .unwrap()
        .starts_with("Duplicate variable declaration"));
    let related = &d["relatedInformation"][0];
    assert!(
        related["location"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("/0.tf"),
        "{d}"
    );
    assert_eq!(related["message"], "first declared here");
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": u_early, "version": 3 },
                "contentChanges": [{ "text": "\n" }] }),
    );
    let cleared = client.diagnostics_for(&u_main, |p| {
        p["diagnostics"].as_array().is_some_and(|d| d.is_empty())
    });
    assert_eq!(cleared["version"], 1);
}

#[test]
fn override_errors_link_to_the_base_block() {
    let mut client = start(&fixtures().join("demo"));
    let (u, text) = open_demo(&mut client, "network/override.tf");
    let diags = client.diagnostics_for(&u, |p| p["version"] == 1);
    let d = &diags["diagnostics"][0];
    assert_eq!(d["code"], "override-not-allowed");
    assert_eq!(d["source"], "strata");
    let (line, _) = find(&text, "depends_on =");
    assert_eq!(d["range"]["start"]["line"], line);
    let related = &d["relatedInformation"][0];
    assert!(related["location"]["uri"]
        .as_str()
        .unwrap()
        .ends_with("/demo/network/main.tf"));
    assert_eq!(related["message"], "base declaration");
}

#[test]
fn typing_depends_on_into_an_override_raises_the_error_and_deleting_it_clears_it() {
    let dir = TempDir::new("lsp-dependson");
    dir.write(
        "main.tf",
        "resource \"null_resource\" \"a\" {}\n\nresource \"null_resource\" \"b\" {}\n",
    );
    let over = dir.write("override.tf", "resource \"null_resource\" \"a\" {\n}\n");
    let mut client = start(dir.path());
    let u = client.open(&over, "resource \"null_resource\" \"a\" {\n}\n", 1);
    client.diagnostics_for(&u, |p| p["version"] == 1);
    // Type the line, as an editor sends it: one insertion at the start of line 1.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": u, "version": 2 },
                "contentChanges": [{
                    "range": { "start": { "line": 1, "character": 0 }, "end": { "line": 1, "character": 0 } },
                    "text": "  depends_on = [null_resource.b]\n"
                }] }),
    );
    let raised = client.diagnostics_for(&u, |p| p["version"] == 2);
    let d = &raised["diagnostics"][0];
    assert_eq!(
        d["message"].as_str().unwrap().lines().next(),
        Some("Unsupported override")
    );
    assert_eq!(d["range"]["start"]["line"], 1);
    assert_eq!(
        d["range"]["start"]["character"], 16,
        "at the first traversal, as Terraform"
    );
    // Delete it again.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": u, "version": 3 },
                "contentChanges": [{
                    "range": { "start": { "line": 1, "character": 0 }, "end": { "line": 2, "character": 0 } },
                    "text": ""
                }] }),
    );
    let cleared = client.diagnostics_for(&u, |p| p["version"] == 3);
    assert_eq!(cleared["diagnostics"], json!([]));
}
