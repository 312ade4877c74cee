//! The plan behind the lenses, the inlay hints and the code actions is one plan per
//! change of the module: asked for by all three on an unchanged module, it is computed
//! once; an edit and a rewritten state each show in the lenses.

use std::path::Path;

use tower_lsp_server::ls_types::{Position, Range};

use super::code_lenses;
use crate::ide::inlay_hints::Kinds;
use crate::lsp::{code_actions, inlay_hints};
use crate::text::PositionEncoding;
use crate::workspace::tests::tempdir;
use crate::workspace::Workspace;

const MAIN: &str = r#"resource "terraform_data" "rep" {
  triggers_replace = "two"
}

resource "terraform_data" "added" {
  input = "x"
}
"#;

fn state(value: &str) -> String {
    format!(
        r#"{{"version": 4, "serial": 1, "lineage": "l", "resources": [
  {{"mode": "managed", "type": "terraform_data", "name": "rep", "provider": "provider[\"terraform.io/builtin/terraform\"]",
   "instances": [{{"attributes": {{"id": "r1", "input": null, "output": null, "triggers_replace": {{"value": "{value}", "type": "string"}}}}}}]}},
  {{"mode": "managed", "type": "terraform_data", "name": "gone", "provider": "provider[\"terraform.io/builtin/terraform\"]",
   "instances": [{{"attributes": {{"id": "g1", "input": {{"value": "x", "type": "string"}}, "output": {{"value": "x", "type": "string"}}, "triggers_replace": null}}}}]}}
]}}"#
    )
}

const ENCODING: PositionEncoding = PositionEncoding::Utf16;

fn titles(ws: &Workspace, main: &Path) -> Vec<String> {
    code_lenses(ws, main, None, ENCODING)
        .into_iter()
        .filter_map(|l| l.command.map(|c| c.title))
        .collect()
}

#[test]
fn lenses_hints_and_actions_share_one_plan_until_the_module_or_state_changes() {
    let dir = tempdir::TempDir::new("lsp-plan-shared");
    let main = dir.write("main.tf", MAIN);
    dir.write("terraform.tfstate", &state("one"));
    let ws = Workspace::new();
    ws.index_dir(dir.path());
    ws.open_document(&main, MAIN, 1);
    let whole = Range::new(Position::new(0, 0), Position::new(7, 0));

    let lenses = titles(&ws, &main);
    assert_eq!(
        lenses,
        vec![
            "will be replaced: triggers_replace changed",
            "will be created"
        ]
    );
    let hints = inlay_hints::hints(&ws, &main, whole, Kinds::default(), None, ENCODING);
    let labels: Vec<String> = hints
        .unwrap_or_default()
        .into_iter()
        .map(|h| match h.label {
            tower_lsp_server::ls_types::InlayHintLabel::String(s) => s,
            other => format!("{other:?}"),
        })
        .collect();
    assert!(
        labels.contains(&"will be created".to_string()),
        "{labels:?}"
    );
    // `terraform_data.gone` is destroyed and `added` created: a `moved` block is offered.
    let moves = code_actions::moves(&ws, &main, whole, None, ENCODING);
    assert!(!moves.is_empty());
    assert_eq!(titles(&ws, &main), lenses);
    assert_eq!(ws.plans_computed(), 1);

    // An edit: planned again, once.
    ws.open_document(&main, &MAIN.replace("\"two\"", "\"one\""), 2);
    assert_eq!(titles(&ws, &main), vec!["no changes", "will be created"]);
    inlay_hints::hints(&ws, &main, whole, Kinds::default(), None, ENCODING);
    assert_eq!(ws.plans_computed(), 2);

    // The state rewritten on disk, with nothing telling the server.
    dir.write("terraform.tfstate", &state("three"));
    assert_eq!(
        titles(&ws, &main),
        vec![
            "will be replaced: triggers_replace changed",
            "will be created"
        ]
    );
    assert_eq!(ws.plans_computed(), 3);
}
