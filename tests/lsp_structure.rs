//! Black-box LSP tests of a document's structure: the outline (with override blocks
//! marked), folding ranges and selection ranges, on the demo workspace with its override
//! file.

mod support;

use serde_json::{json, Value};
use support::{fixtures, Client};

fn open(client: &mut Client, name: &str) -> (String, String) {
    let path = fixtures().join("demo").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let u = client.open(&path, &text, 1);
    (u, text)
}

fn start() -> Client {
    Client::initialized(Some(&fixtures().join("demo")), json!({})).0
}

/// The outline of a demo file.
fn outline(client: &mut Client, name: &str) -> Value {
    let (u, _) = open(client, name);
    client.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": u } }),
    )
}

fn names(symbols: &Value) -> Vec<String> {
    symbols
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| s["name"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn the_outline_names_blocks_as_terraform_does_with_their_contents() {
    let symbols = outline(&mut start(), "main.tf");
    assert_eq!(
        names(&symbols),
        [
            "terraform",
            "var.environment",
            "var.replicas",
            "locals",
            "terraform_data.app",
            "null_resource.web",
            "output.name"
        ],
        "{symbols:#}"
    );
    let locals = &symbols[3];
    assert_eq!(names(&locals["children"]), ["local.name"]);
    let web = &symbols[5];
    assert_eq!(names(&web["children"]), ["triggers", "depends_on"]);
    // The selection range (the labels) lies inside the range (the block).
    assert_eq!(
        web["selectionRange"]["start"]["line"],
        web["range"]["start"]["line"]
    );
    assert!(web["range"]["end"]["line"].as_u64() > web["range"]["start"]["line"].as_u64());
    assert!(
        web["detail"].is_null(),
        "a primary block is no override: {web}"
    );
}

#[test]
fn override_blocks_say_what_they_override() {
    let symbols = outline(&mut start(), "override.tf");
    assert_eq!(names(&symbols), ["var.replicas", "null_resource.web"]);
    for symbol in symbols.as_array().unwrap() {
        assert_eq!(symbol["detail"], "override of main.tf", "{symbol}");
    }
}

#[test]
fn folding_ranges_cover_blocks_and_comment_runs() {
    let mut client = start();
    let (u, text) = open(&mut client, "main.tf");
    let folds = client.request(
        "textDocument/foldingRange",
        json!({ "textDocument": { "uri": u } }),
    );
    let lines: Vec<(u64, u64)> = folds
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["startLine"].as_u64().unwrap(),
                f["endLine"].as_u64().unwrap(),
            )
        })
        .collect();
    let line_of = |needle: &str| text[..text.find(needle).unwrap()].matches('\n').count() as u64;
    let web = line_of("resource \"null_resource\"");
    let triggers = line_of("  triggers = {");
    // The block folds up to the line before its closing brace; so does the object.
    assert!(lines.contains(&(web, web + 5)), "{lines:?}");
    assert!(lines.contains(&(triggers, triggers + 1)), "{lines:?}");
}

#[test]
fn selection_ranges_grow_from_the_expression_to_the_file() {
    let mut client = start();
    let (u, text) = open(&mut client, "main.tf");
    let at = text.find("local.name\n").unwrap() + 2;
    let line = text[..at].matches('\n').count();
    let character = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    let result = client.request(
        "textDocument/selectionRange",
        json!({
            "textDocument": { "uri": u },
            "positions": [{ "line": line, "character": character }]
        }),
    );
    let mut chain = Vec::new();
    let mut node = &result[0];
    while node.is_object() {
        chain.push(node["range"].clone());
        node = &node["parent"];
    }
    // local.name -> name = local.name -> { ... } -> input = {...} -> resource -> file
    assert!(chain.len() >= 5, "{chain:#?}");
    assert_eq!(chain[0]["start"]["line"].as_u64(), Some(line as u64));
    let last = chain.last().unwrap();
    assert_eq!(last["start"], json!({ "line": 0, "character": 0 }));
}

#[test]
fn workspace_symbols_are_fuzzy_matched_and_ranked() {
    let mut client = start();
    open(&mut client, "main.tf");
    let found = client.request("workspace/symbol", json!({ "query": "nullweb" }));
    assert_eq!(
        names(&found).first().map(String::as_str),
        Some("null_resource.web"),
        "{found:#}"
    );
    let found = client.request("workspace/symbol", json!({ "query": "var.rep" }));
    let first = &found[0];
    assert_eq!(first["name"], "var.replicas", "{found:#}");
    // Declared in main.tf and overridden in override.tf: both declarations are listed.
    let files: Vec<&str> = found
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["name"] == "var.replicas")
        .filter_map(|s| s["location"]["uri"].as_str()?.rsplit('/').next())
        .collect();
    assert_eq!(files, ["main.tf", "override.tf"], "{found:#}");
    let found = client.request("workspace/symbol", json!({ "query": "local.nam" }));
    assert_eq!(
        names(&found).first().map(String::as_str),
        Some("local.name")
    );
}

#[test]
fn semantic_tokens_mark_what_an_override_replaced_and_follow_edits_by_delta() {
    let (mut client, result) = Client::initialized(Some(&fixtures().join("demo")), json!({}));
    let legend = &result["capabilities"]["semanticTokensProvider"]["legend"];
    let types: Vec<&str> = legend["tokenTypes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    let modifiers: Vec<&str> = legend["tokenModifiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    let overridden = 1 << modifiers.iter().position(|m| *m == "overridden").unwrap();
    let (u, text) = open(&mut client, "main.tf");
    let full = client.request(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": u } }),
    );
    let tokens = support::decode_semantic_tokens(&full["data"]);
    let word = |t: &[u64; 5]| {
        let line = text.lines().nth(t[0] as usize).unwrap();
        line[t[1] as usize..(t[1] + t[2]) as usize].to_string()
    };
    let named = |w: &str| -> Vec<(String, &str, u64)> {
        tokens
            .iter()
            .filter(|t| word(t) == w)
            .map(|t| (word(t), types[t[3] as usize], t[4]))
            .collect()
    };
    // `triggers` of null_resource.web and `default` of var.replicas are replaced by
    // override.tf; var.environment's default is in effect.
    let triggers = named("triggers");
    assert_eq!(triggers.len(), 1);
    assert_eq!(triggers[0].1, "property");
    assert_eq!(triggers[0].2 & overridden, overridden, "{triggers:?}");
    let defaults = named("default");
    assert_eq!(
        defaults.iter().filter(|d| d.2 & overridden != 0).count(),
        1,
        "{defaults:?}"
    );
    assert!(named("resource").iter().all(|t| t.1 == "keyword"));
    assert!(named("\"terraform_data\"").iter().all(|t| t.1 == "type"));

    // An edit, then a delta against the first result gives the same tokens as a full one.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": u, "version": 2 },
                "contentChanges": [{ "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 0 } }, "text": "# new\n" }] }),
    );
    let delta = client.request(
        "textDocument/semanticTokens/full/delta",
        json!({ "textDocument": { "uri": u }, "previousResultId": full["resultId"] }),
    );
    let mut data: Vec<Value> = full["data"].as_array().unwrap().clone();
    let edits = delta["edits"]
        .as_array()
        .expect("a delta, not a full result");
    assert!(!edits.is_empty());
    for e in edits.iter().rev() {
        let start = e["start"].as_u64().unwrap() as usize;
        let count = e["deleteCount"].as_u64().unwrap() as usize;
        let new: Vec<Value> = e["data"].as_array().cloned().unwrap_or_default();
        data.splice(start..start + count, new);
    }
    let again = client.request(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": u } }),
    );
    assert_eq!(Value::Array(data), again["data"]);
}
