//! Black-box LSP tests of references, document highlights and rename across a module,
//! its override file and a local child module (`fixtures/references/`): a rename is
//! applied to the files' texts and the result compared whole.

mod support;

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::{json, Value};
use support::{fixtures, uri, Client};

/// The server with the three files of the fixture open, and their texts by URI.
fn start() -> (Client, BTreeMap<String, String>) {
    let root = fixture_root();
    let (mut client, _) = Client::initialized(Some(&root), json!({}));
    let mut texts = BTreeMap::new();
    for name in ["net/main.tf", "root/override.tf", "root/main.tf"] {
        let path = root.join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        texts.insert(client.open(&path, &text, 1), text);
    }
    (client, texts)
}

/// The fixture's folder, canonical as an editor names it.
fn fixture_root() -> PathBuf {
    let root = fixtures().join("references");
    root.canonicalize().unwrap_or(root)
}

fn file(name: &str) -> String {
    uri(&fixture_root().join(name))
}

/// The position of the `nth` occurrence of `needle` in the file, `plus` columns in.
fn at(
    texts: &BTreeMap<String, String>,
    name: &str,
    needle: &str,
    nth: usize,
    plus: usize,
) -> Value {
    let text = &texts[&file(name)];
    let offset = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("{needle:?} #{nth} not in {name}"))
        .0
        + plus;
    let line = text[..offset].matches('\n').count();
    let character = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1);
    json!({ "textDocument": { "uri": file(name) }, "position": { "line": line, "character": character } })
}

/// `file:line` of each location, sorted.
fn places(locations: &Value) -> Vec<String> {
    let mut out: Vec<String> = locations
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let u = l["uri"].as_str().unwrap();
            let name: PathBuf = u
                .rsplit('/')
                .take(2)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            format!(
                "{}:{}",
                name.display(),
                l["range"]["start"]["line"].as_u64().unwrap() + 1
            )
        })
        .collect();
    out.sort();
    out
}

/// The texts after applying a `WorkspaceEdit`'s changes (a file not open is read from
/// the fixture).
fn apply(texts: &BTreeMap<String, String>, edit: &Value) -> BTreeMap<String, String> {
    let mut out = texts.clone();
    for (u, edits) in edit["changes"].as_object().unwrap() {
        let text = out.entry(u.clone()).or_insert_with(|| {
            let name = u.rsplit('/').take(2).collect::<Vec<_>>();
            std::fs::read_to_string(fixture_root().join(name[1]).join(name[0])).unwrap()
        });
        let offset = |p: &Value| {
            let line = p["line"].as_u64().unwrap() as usize;
            let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
            start + p["character"].as_u64().unwrap() as usize
        };
        let mut spans: Vec<(usize, usize, String)> = edits
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    offset(&e["range"]["start"]),
                    offset(&e["range"]["end"]),
                    e["newText"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        spans.sort_by_key(|s| std::cmp::Reverse(s.0));
        for (start, end, new) in spans {
            text.replace_range(start..end, &new);
        }
    }
    out
}

#[test]
fn references_of_a_variable_reach_the_override_file() {
    let (mut client, texts) = start();
    let mut params = at(&texts, "root/main.tf", "variable \"region\"", 0, 11);
    params["context"] = json!({ "includeDeclaration": true });
    let found = client.request("textDocument/references", params);
    assert_eq!(
        places(&found),
        [
            "root/main.tf:23",
            "root/main.tf:3",
            "root/main.tf:9",
            "root/override.tf:2",
            "root/prod.auto.tfvars.json:1",
            "root/terraform.tfvars.json:2",
            "root/terraform.tfvars:1",
        ],
        "{found:#}"
    );
}

#[test]
fn a_childs_variable_is_referenced_by_the_callers_argument() {
    let (mut client, texts) = start();
    let mut params = at(&texts, "net/main.tf", "\"cidr\"", 0, 2);
    params["context"] = json!({ "includeDeclaration": false });
    let found = client.request("textDocument/references", params);
    assert_eq!(
        places(&found),
        ["net/main.tf:6", "root/main.tf:23"],
        "{found:#}"
    );
}

#[test]
fn highlights_are_the_uses_in_the_file() {
    let (mut client, texts) = start();
    let found = client.request(
        "textDocument/documentHighlight",
        at(&texts, "root/main.tf", "local.name", 0, 7),
    );
    let kinds: Vec<u64> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["kind"].as_u64().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [3, 2],
        "the definition is written, the use read: {found:#}"
    );
}

#[test]
fn renaming_a_resource_renames_base_override_references_and_adds_a_moved_block() {
    let (mut client, texts) = start();
    let params = at(&texts, "root/override.tf", "\"app\"", 0, 2);
    let prepared = client.request("textDocument/prepareRename", params.clone());
    assert_eq!(prepared["placeholder"], "app", "{prepared}");
    let mut params = params;
    params["newName"] = json!("api");
    let edit = client.request("textDocument/rename", params);
    let after = apply(&texts, &edit);
    let main = &after[&file("root/main.tf")];
    assert!(
        main.contains("resource \"terraform_data\" \"api\" {\n  input = local.name"),
        "{main}"
    );
    assert!(
        main.contains("input      = terraform_data.api.output"),
        "{main}"
    );
    assert!(main.contains("depends_on = [terraform_data.api]"), "{main}");
    assert!(
        main.ends_with("\nmoved {\n  from = terraform_data.app\n  to   = terraform_data.api\n}\n"),
        "{main}"
    );
    assert!(after[&file("root/override.tf")].contains("\"terraform_data\" \"api\""));
    assert_eq!(after[&file("net/main.tf")], texts[&file("net/main.tf")]);
}

#[test]
fn renaming_a_childs_output_from_the_caller_changes_both_modules() {
    let (mut client, texts) = start();
    let mut params = at(&texts, "root/main.tf", "module.net.id", 0, 11);
    params["newName"] = json!("network_id");
    let edit = client.request("textDocument/rename", params);
    let after = apply(&texts, &edit);
    assert!(after[&file("net/main.tf")].contains("output \"network_id\" {"));
    assert!(after[&file("root/main.tf")].contains("value = module.net.network_id"));
}

#[test]
fn a_rename_to_a_taken_or_invalid_name_is_refused_with_a_reason() {
    let (mut client, texts) = start();
    for (name, reason) in [
        ("web", "terraform_data.web is already declared"),
        ("9x", "is not a valid name"),
    ] {
        let mut params = at(&texts, "root/main.tf", "\"app\"", 0, 2);
        params["newName"] = json!(name);
        let id = client.send_request("textDocument/rename", params);
        let response = client.response(id);
        let message = response["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(reason), "{response}");
    }
}

#[test]
fn links_open_local_modules_registry_pages_and_files() {
    let (mut client, _) = start();
    let root = fixture_root().join("root");
    for name in ["main.tf", "links.tf"] {
        let path = root.join(name);
        client.open(&path, &std::fs::read_to_string(&path).unwrap(), 1);
    }
    let targets = |client: &mut Client, name: &str| -> Vec<String> {
        let found = client.request(
            "textDocument/documentLink",
            json!({ "textDocument": { "uri": file(name) } }),
        );
        found
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["target"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    assert_eq!(targets(&mut client, "root/main.tf"), [file("net/main.tf")]);
    assert_eq!(
        targets(&mut client, "root/links.tf"),
        [
            "https://registry.terraform.io/providers/hashicorp/aws/latest/docs".to_string(),
            "https://registry.terraform.io/modules/terraform-aws-modules/vpc/aws".to_string(),
            file("root/notes.txt"),
        ]
    );
}

#[test]
fn renaming_a_variable_from_a_tfvars_file_renames_its_declaration_and_uses() {
    let (mut client, texts) = start();
    let tfvars = fixture_root().join("root/terraform.tfvars");
    let text = std::fs::read_to_string(&tfvars).unwrap();
    let mut texts = texts;
    texts.insert(client.open(&tfvars, &text, 1), text);
    let mut params = at(&texts, "root/terraform.tfvars", "region", 0, 1);
    params["newName"] = json!("location");
    let edit = client.request("textDocument/rename", params);
    let after = apply(&texts, &edit);
    assert!(after[&file("root/terraform.tfvars")].starts_with("location = "));
    // The JSON variables files, which are not open, are renamed on disk.
    assert_eq!(
        after[&file("root/terraform.tfvars.json")],
        "{\n  \"location\": \"us-east-2\"\n}\n"
    );
    let main = &after[&file("root/main.tf")];
    assert!(main.contains("variable \"location\" {"), "{main}");
    assert!(main.contains("cidr   = var.location"), "{main}");
    assert!(after[&file("root/override.tf")].contains("${var.location}"));
}

#[test]
fn json_variables_files_are_renamed_highlighted_and_outlined_like_tfvars() {
    let (mut client, texts) = start();
    let json = fixture_root().join("root/prod.auto.tfvars.json");
    let text = std::fs::read_to_string(&json).unwrap();
    let mut texts = texts;
    let u = client.open(&json, &text, 1);
    texts.insert(u.clone(), text);
    // The argument, not the key of the same name inside the value of `tags`.
    let mut params = at(
        &texts,
        "root/prod.auto.tfvars.json",
        "\"region\": \"eu",
        0,
        2,
    );
    let highlights = client.request("textDocument/documentHighlight", params.clone());
    assert_eq!(
        highlights.as_array().map(Vec::len),
        Some(1),
        "{highlights:#}"
    );
    assert_eq!(
        highlights[0]["range"],
        json!({ "start": { "line": 0, "character": 27 }, "end": { "line": 0, "character": 33 } })
    );
    params["newName"] = json!("location");
    let edit = client.request("textDocument/rename", params);
    let after = apply(&texts, &edit);
    assert_eq!(
        after[&u],
        "{\"tags\": {\"region\": \"x\"}, \"location\": \"eu-west-1\"}\n"
    );
    assert!(after[&file("root/main.tf")].contains("variable \"location\" {"));
    assert!(after[&file("root/terraform.tfvars")].starts_with("location = "));
    assert!(after[&file("root/terraform.tfvars.json")].contains("\"location\""));
    let outline = client.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": u } }),
    );
    let names: Vec<&str> = outline
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["tags", "region"], "{outline:#}");
}
