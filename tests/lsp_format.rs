//! Black-box LSP tests of formatting: `textDocument/formatting`, `rangeFormatting` and
//! `onTypeFormatting` on the editor's text (an unsaved edit, a `.tfvars` file, UTF-16
//! positions after wide characters), and a document with a syntax error left alone with
//! a message.

mod support;

use serde_json::{json, Value};
use support::{Client, TempDir};

/// The text `edits` (LSP text edits, in order) make of `text`, with positions in UTF-16.
fn apply(text: &str, edits: &Value) -> String {
    let offset = |p: &Value| {
        let (line, character) = (
            p["line"].as_u64().unwrap() as usize,
            p["character"].as_u64().unwrap() as usize,
        );
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        let rest = &text[start..];
        let mut units = 0;
        for (i, c) in rest.char_indices() {
            if units >= character {
                return start + i;
            }
            units += c.len_utf16();
        }
        text.len()
    };
    let mut edits: Vec<&Value> = edits.as_array().unwrap().iter().collect();
    edits.sort_by_key(|e| std::cmp::Reverse(offset(&e["range"]["start"])));
    let mut out = text.to_string();
    for edit in edits {
        let (start, end) = (
            offset(&edit["range"]["start"]),
            offset(&edit["range"]["end"]),
        );
        out.replace_range(start..end, edit["newText"].as_str().unwrap());
    }
    out
}

/// Sends formatting request `method` for `uri` with `extra` parameters; returns its result.
fn format(client: &mut Client, method: &str, uri: &str, extra: Value) -> Value {
    let mut params = json!({
        "textDocument": { "uri": uri },
        "options": { "tabSize": 2, "insertSpaces": true },
    });
    if let (Some(params), Value::Object(extra)) = (params.as_object_mut(), extra) {
        params.extend(extra);
    }
    client.request(method, params)
}

fn start(dir: &TempDir) -> Client {
    let (client, init) = Client::initialized(Some(dir.path()), json!({}));
    let caps = &init["capabilities"];
    assert_eq!(caps["documentFormattingProvider"], json!(true));
    assert_eq!(caps["documentRangeFormattingProvider"], json!(true));
    assert_eq!(
        caps["documentOnTypeFormattingProvider"]["firstTriggerCharacter"],
        json!("}")
    );
    client
}

#[test]
fn formats_the_editors_text_as_terraform_fmt_does() {
    let dir = TempDir::new("lsp-format");
    let main = dir.write("main.tf", "a = 1\n");
    let mut client = start(&dir);
    let text = "resource aws_vpc main {\ncidr_block=\"${var.cidr}\" # é👍\n  tags = {\n  Name = \"x\"\n  }\n}\n";
    let u = client.open(&main, text, 1);
    let edits = format(&mut client, "textDocument/formatting", &u, json!({}));
    assert_eq!(
        apply(text, &edits),
        "resource \"aws_vpc\" \"main\" {\n  cidr_block = var.cidr # é👍\n  tags = {\n    Name = \"x\"\n  }\n}\n"
    );
    // Minimal edits: the unchanged comment and closing lines are not rewritten.
    assert!(edits
        .as_array()
        .unwrap()
        .iter()
        .all(|e| !e["newText"].as_str().unwrap().contains('#')));
}

#[test]
fn range_and_on_type_formatting_touch_only_their_lines() {
    let dir = TempDir::new("lsp-format-range");
    let vars = dir.write("prod.tfvars", "");
    let mut client = start(&dir);
    let text = "a  =  1\n\nb  =  2\nc {\nd=1\n}";
    let u = client.open(&vars, text, 1);
    let lines = json!({ "range": {
        "start": { "line": 2, "character": 0 }, "end": { "line": 2, "character": 3 }
    }});
    let range = format(&mut client, "textDocument/rangeFormatting", &u, lines);
    assert_eq!(apply(text, &range), "a  =  1\n\nb = 2\nc {\nd=1\n}");
    let brace = json!({ "position": { "line": 5, "character": 1 }, "ch": "}" });
    let typed = format(&mut client, "textDocument/onTypeFormatting", &u, brace);
    assert_eq!(apply(text, &typed), "a  =  1\n\nb  =  2\nc {\n  d = 1\n}");
}

#[test]
fn a_document_with_a_syntax_error_is_left_alone_with_a_message() {
    let dir = TempDir::new("lsp-format-broken");
    let main = dir.write("main.tf", "");
    let mut client = start(&dir);
    let u = client.open(&main, "a  = 1\nb = \n", 1);
    let edits = format(&mut client, "textDocument/formatting", &u, json!({}));
    assert_eq!(edits, Value::Null);
    let message = client.wait_for(|m| m["method"] == "window/showMessage");
    let text = message["params"]["message"].as_str().unwrap();
    assert!(text.contains("syntax error on line 2"), "{text}");
}
