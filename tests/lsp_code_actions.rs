//! Black-box tests of code actions over stdio: each quick fix is asked for at its
//! diagnostic, its edit applied to the open documents, and the module checked again:
//! the problem it fixes is gone and nothing new is reported. Also `source.fixAll.strata`.

mod support;

use std::collections::BTreeMap;
use std::process::Command;

use serde_json::{json, Value};
use support::{Client, TempDir};

/// A server over a module whose files are all open, with their texts as the client has
/// them; the files on disk follow every edit, so that `strata check` re-checks them.
struct Session {
    client: Client,
    dir: TempDir,
    /// Each open document by file name: its URI, text and version.
    docs: BTreeMap<String, (String, String, i32)>,
}

impl Session {
    /// Writes `files` to a new module and opens every one.
    fn open(files: &[(&str, &str)]) -> Self {
        let dir = TempDir::new("code-actions");
        let (client, init) = Client::initialized(Some(dir.path()), json!({}));
        let kinds = &init["capabilities"]["codeActionProvider"]["codeActionKinds"];
        assert_eq!(kinds, &json!(["quickfix", "source.fixAll.strata"]));
        let mut s = Session {
            client,
            dir,
            docs: BTreeMap::new(),
        };
        for (name, text) in files {
            let path = s.dir.write(name, text);
            let u = s.client.open(&path, text, 1);
            s.docs.insert(name.to_string(), (u, text.to_string(), 1));
        }
        s
    }

    fn uri(&self, name: &str) -> String {
        self.docs[name].0.clone()
    }

    fn text(&self, name: &str) -> &str {
        &self.docs[name].1
    }

    /// The diagnostics `strata check --format json` reports for the files as they are.
    fn check(&self) -> Vec<Value> {
        let out = Command::new(support::strata_bin())
            .args(["check", "--format", "json"])
            .arg(self.dir.path())
            .output()
            .expect("strata check runs");
        let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
        report["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// Every diagnostic `strata check` reports, as `file: summary`.
    fn messages(&self) -> Vec<String> {
        self.check()
            .iter()
            .map(|d| {
                format!(
                    "{}: {}",
                    d["range"]["filename"].as_str().unwrap_or(""),
                    d["summary"].as_str().unwrap_or("")
                )
            })
            .collect()
    }

    /// The LSP range of the diagnostic of `name` whose summary or detail holds `needle`.
    fn diagnostic(&self, name: &str, needle: &str) -> Value {
        let found = self.check();
        let d = found
            .iter()
            .find(|d| {
                d["range"]["filename"]
                    .as_str()
                    .is_some_and(|f| f.ends_with(name))
                    && (d["summary"].as_str().unwrap_or("").contains(needle)
                        || d["detail"].as_str().unwrap_or("").contains(needle))
            })
            .unwrap_or_else(|| panic!("no {needle:?} in {name}: {found:#?}"));
        let position = |p: &Value| {
            json!({
                "line": p["line"].as_u64().unwrap() - 1,
                "character": p["column"].as_u64().unwrap() - 1,
            })
        };
        json!({ "start": position(&d["range"]["start"]), "end": position(&d["range"]["end"]) })
    }

    /// The code actions for `range` of `name`, of the kinds `only` (any when empty).
    fn actions(&mut self, name: &str, range: &Value, only: &[&str]) -> Vec<Value> {
        let mut context = json!({ "diagnostics": [] });
        if !only.is_empty() {
            context["only"] = json!(only);
        }
        let result = self.client.request(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": self.uri(name) }, "range": range, "context": context }),
        );
        result.as_array().cloned().unwrap_or_default()
    }

    /// The quick fix titled `title` among those for the diagnostic `needle` of `name`.
    fn fix(&mut self, name: &str, needle: &str, title: &str) -> Value {
        let range = self.diagnostic(name, needle);
        self.fix_at(name, &range, title)
    }

    /// The quick fix titled `title` among those for `range` of `name`.
    fn fix_at(&mut self, name: &str, range: &Value, title: &str) -> Value {
        let actions = self.actions(name, range, &["quickfix"]);
        actions
            .iter()
            .find(|a| a["title"] == title)
            .unwrap_or_else(|| panic!("no fix {title:?}: {actions:#?}"))
            .clone()
    }

    /// Applies the quick fix titled `title` for the diagnostic `needle` of `name`.
    fn apply_fix(&mut self, name: &str, needle: &str, title: &str) {
        let fix = self.fix(name, needle, title);
        self.apply(&fix);
    }

    /// Applies an action's workspace edit to the open documents and to the files.
    fn apply(&mut self, action: &Value) {
        let changes = action["edit"]["changes"].as_object().expect("changes");
        for (u, edits) in changes {
            let (name, (_, text, version)) = self
                .docs
                .iter_mut()
                .find(|(_, d)| &d.0 == u)
                .expect("an open document");
            *text = applied(text, edits.as_array().expect("edits"));
            *version += 1;
            self.dir.write(name, text);
            self.client.notify(
                "textDocument/didChange",
                json!({
                    "textDocument": { "uri": u, "version": *version },
                    "contentChanges": [{ "text": text.clone() }]
                }),
            );
        }
    }
}

/// `text` with LSP `edits` (ASCII texts: columns are bytes) applied.
fn applied(text: &str, edits: &[Value]) -> String {
    let offset = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        let column = p["character"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        (start + column).min(text.len())
    };
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            let r = &e["range"];
            (
                offset(&r["start"]),
                offset(&r["end"]),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (start, end, new) in spans {
        out.replace_range(start..end, new);
    }
    out
}

#[test]
fn did_you_mean_replaces_the_name_terraform_suggests() {
    let main = r#"variable "region" {
  type = string
}

resource "terraform_data" "a" {
  inputz = var.regon
}
"#;
    let mut s = Session::open(&[("main.tf", main)]);
    s.apply_fix(
        "main.tf",
        "Unsupported argument",
        "Change \"inputz\" to \"input\"",
    );
    s.apply_fix(
        "main.tf",
        "Reference to undeclared input variable",
        "Change \"regon\" to \"region\"",
    );
    assert!(s.text("main.tf").contains("  input = var.region\n"));
    assert_eq!(s.messages(), Vec::<String>::new());
}

#[test]
fn missing_required_arguments_are_added_with_placeholders_of_their_type() {
    let child = r#"variable "name" {
  type = string
}

variable "size" {
  type = number
}

variable "tags" {
  type = map(string)
}

variable "optional" {
  default = 1
}
"#;
    let main = r#"module "child" {
  source = "./child"
}

output "o" {}
"#;
    let mut s = Session::open(&[("main.tf", main), ("child/main.tf", child)]);
    // Terraform checks a module call's arguments once the configuration decodes.
    s.apply_fix(
        "main.tf",
        "The argument \"value\" is required",
        "Add the required argument \"value\"",
    );
    s.apply_fix(
        "main.tf",
        "The argument \"size\" is required",
        "Add the required arguments name, size, tags",
    );
    assert_eq!(
        s.text("main.tf"),
        r#"module "child" {
  source = "./child"
  name = ""
  size = 0
  tags = {}
}

output "o" {
  value = null
}
"#
    );
    assert_eq!(s.messages(), Vec::<String>::new());
}

#[test]
fn an_undeclared_variable_is_declared_with_the_type_its_use_implies() {
    let main = r#"resource "terraform_data" "a" {
  count = var.instances
}

output "name" {
  value = "${var.prefix}-a"
}

output "enabled" {
  value = var.on ? 1 : 0
}

output "any" {
  value = var.anything
}
"#;
    let mut s = Session::open(&[("main.tf", main), ("variables.tf", "")]);
    for (summary_name, declared) in [
        ("instances", "variable \"instances\" {\n  type = number\n}"),
        ("prefix", "variable \"prefix\" {\n  type = string\n}"),
        ("on", "variable \"on\" {\n  type = bool\n}"),
        ("anything", "variable \"anything\" {}"),
    ] {
        let title = format!("Declare the variable \"{summary_name}\" in variables.tf");
        let range = s.diagnostic(
            "main.tf",
            &format!("\"{summary_name}\" has not been declared"),
        );
        let fix = s.fix_at("main.tf", &range, &title);
        s.apply(&fix);
        assert!(
            s.text("variables.tf").contains(declared),
            "{}",
            s.text("variables.tf")
        );
    }
    assert_eq!(s.messages(), Vec::<String>::new());
}

#[test]
fn an_overrides_depends_on_moves_into_the_base_block() {
    let main = r#"resource "terraform_data" "a" {
  input = 1
}

resource "terraform_data" "b" {}

resource "terraform_data" "c" {
  depends_on = [terraform_data.b]
}
"#;
    let overriding = r#"resource "terraform_data" "a" {
  input      = 2
  depends_on = [terraform_data.b]
}

resource "terraform_data" "c" {
  depends_on = [terraform_data.a, terraform_data.b]
}
"#;
    let mut s = Session::open(&[("main.tf", main), ("override.tf", overriding)]);
    s.apply_fix(
        "override.tf",
        "Unsupported override",
        "Move depends_on into the base block in main.tf",
    );
    s.apply_fix(
        "override.tf",
        "Unsupported override",
        "Move depends_on into the base block in main.tf",
    );
    assert_eq!(
        s.text("main.tf"),
        r#"resource "terraform_data" "a" {
  input = 1
  depends_on = [terraform_data.b]
}

resource "terraform_data" "b" {}

resource "terraform_data" "c" {
  depends_on = [terraform_data.b, terraform_data.a]
}
"#
    );
    assert_eq!(
        s.text("override.tf"),
        "resource \"terraform_data\" \"a\" {\n  input      = 2\n}\n\nresource \"terraform_data\" \"c\" {\n}\n"
    );
    assert_eq!(s.messages(), Vec::<String>::new());
}

#[test]
fn an_orphan_override_gets_its_base_declaration() {
    let overriding = r#"resource "terraform_data" "x" {
  input = 1
}

variable "v" {
  default = 2
}

output "o" {
  value = 3
}

locals {
  l = 4
}
"#;
    let mut s = Session::open(&[("main.tf", "terraform {}\n"), ("override.tf", overriding)]);
    for summary in [
        "Missing resource to override",
        "Missing base variable declaration to override",
        "Missing base output definition to override",
        "Missing base local value definition to override",
    ] {
        s.apply_fix(
            "override.tf",
            summary,
            "Create the base declaration in main.tf",
        );
    }
    assert_eq!(
        s.text("main.tf"),
        "terraform {}\n\nresource \"terraform_data\" \"x\" {}\n\nvariable \"v\" {}\n\noutput \"o\" {\n  value = 3\n}\n\nlocals {\n  l = 4\n}\n"
    );
    assert_eq!(s.messages(), Vec::<String>::new());
}

#[test]
fn quoted_references_lose_their_quotes_and_fix_all_applies_every_safe_fix() {
    let main = r#"resource "terraform_data" "a" {}

resource "terraform_data" "b" {
  depends_on = ["terraform_data.a"]

  lifecycle {
    ignore_changes = ["input"]
  }
}

resource "terraform_data" "c" {
  inputz     = 1
  depends_on = ["terraform_data.a", "terraform_data.b"]
}
"#;
    let mut s = Session::open(&[("main.tf", main)]);
    let fix = s.fix(
        "main.tf",
        "Quoted references are deprecated",
        "Remove the quotes",
    );
    assert_eq!(fix["kind"], "quickfix");
    let whole =
        json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 14, "character": 0 } });
    let all = s.actions("main.tf", &whole, &["source.fixAll"]);
    assert_eq!(all.len(), 1, "{all:#?}");
    assert_eq!(all[0]["kind"], "source.fixAll.strata");
    s.apply(&all[0]);
    assert_eq!(
        s.text("main.tf"),
        main.replace("\"terraform_data.a\"", "terraform_data.a")
            .replace("\"terraform_data.b\"", "terraform_data.b")
            .replace("[\"input\"]", "[input]")
    );
    // The guess ("Did you mean") is no safe fix: it is left for the author.
    assert_eq!(s.messages(), ["main.tf: Unsupported argument"]);
    assert!(s
        .actions("main.tf", &whole, &["source.fixAll.strata"])
        .is_empty());
}

/// The state `terraform apply` (1.11.4) wrote for `terraform_data.old` (`input = 1`).
const OLD_STATE: &str = include_str!("../fixtures/states/terraform-data-old.tfstate");

#[test]
fn a_resource_the_plan_would_destroy_and_create_renamed_gets_a_moved_block() {
    let main = r#"resource "terraform_data" "new" {
  input = 1
}
"#;
    let mut s = Session::open(&[("main.tf", main)]);
    s.dir.write("terraform.tfstate", OLD_STATE);
    let header =
        json!({ "start": { "line": 0, "character": 2 }, "end": { "line": 0, "character": 2 } });
    let title = "Add a moved block from terraform_data.old to terraform_data.new";
    let fix = s.fix_at("main.tf", &header, title);
    s.apply(&fix);
    assert_eq!(
        s.text("main.tf"),
        format!("{main}\nmoved {{\n  from = terraform_data.old\n  to   = terraform_data.new\n}}\n")
    );
    // The plan moves the object instead: nothing to destroy, nothing left to offer.
    let plan = Command::new(support::strata_bin())
        .arg("plan")
        .arg(s.dir.path())
        .output()
        .expect("strata plan runs");
    let text = String::from_utf8_lossy(&plan.stdout);
    assert!(
        text.contains("terraform_data.old has moved to terraform_data.new"),
        "{text}"
    );
    assert!(
        text.contains("Plan: 0 to add, 0 to change, 0 to destroy."),
        "{text}"
    );
    assert!(s.actions("main.tf", &header, &["quickfix"]).is_empty());
}

#[test]
fn in_a_json_file_names_are_renamed_in_their_strings_and_arguments_added_as_properties() {
    let main = r#"{
  "variable": {
    "region": {"type": "string"}
  },
  "resource": {
    "terraform_data": {
      "a": {
        "inputz": "${var.regon}"
      }
    }
  },
  "output": {
    "o": {},
    "p": {"value": "${var.prefix}-p"}
  },
  "module": {
    "child": {"source": "./child"}
  }
}
"#;
    let child =
        "variable \"name\" {\n  type = string\n}\n\nvariable \"size\" {\n  type = number\n}\n";
    let mut s = Session::open(&[
        ("main.tf.json", main),
        ("variables.tf", ""),
        ("child/main.tf", child),
    ]);
    // Terraform decodes the configuration before it checks the rest: one at a time.
    s.apply_fix(
        "main.tf.json",
        "The argument \"value\" is required",
        "Add the required argument \"value\"",
    );
    s.apply_fix(
        "main.tf.json",
        "The argument \"name\" is required",
        "Add the required arguments name, size",
    );
    s.apply_fix(
        "main.tf.json",
        "\"prefix\" has not been declared",
        "Declare the variable \"prefix\" in variables.tf",
    );
    // JSON names the argument Terraform does not know an extraneous property.
    s.apply_fix(
        "main.tf.json",
        "named \"inputz\"",
        "Change \"inputz\" to \"input\"",
    );
    s.apply_fix(
        "main.tf.json",
        "\"regon\" has not been declared",
        "Change \"regon\" to \"region\"",
    );
    let fixed: Value = serde_json::from_str(s.text("main.tf.json")).expect("valid JSON");
    assert_eq!(fixed["output"]["o"], json!({ "value": null }));
    assert_eq!(
        fixed["resource"]["terraform_data"]["a"],
        json!({ "input": "${var.region}" })
    );
    assert_eq!(
        fixed["module"]["child"],
        json!({ "source": "./child", "name": "", "size": 0 })
    );
    // A JSON string's template is read for the type its use implies.
    assert_eq!(
        s.text("variables.tf"),
        "variable \"prefix\" {\n  type = string\n}\n"
    );
    assert_eq!(s.messages(), Vec::<String>::new());
}

#[test]
fn in_a_json_module_an_undeclared_variable_is_declared_in_json_with_its_type() {
    let main = r#"{
  "resource": {
    "terraform_data": {
      "a": {
        "count": "${var.instances}",
        "input": ["${var.anything}"]
      }
    }
  },
  "output": {
    "name": {"value": "${var.prefix}-a"},
    "enabled": {"value": "${var.on ? 1 : 0}"}
  }
}
"#;
    let mut s = Session::open(&[("main.tf.json", main)]);
    for name in ["instances", "prefix", "on", "anything"] {
        s.apply_fix(
            "main.tf.json",
            &format!("\"{name}\" has not been declared"),
            &format!("Declare the variable \"{name}\" in main.tf.json"),
        );
    }
    let fixed: Value = serde_json::from_str(s.text("main.tf.json")).expect("valid JSON");
    // Terraform reads a JSON `type` string as the type expression.
    assert_eq!(
        fixed["variable"],
        json!({
            "instances": { "type": "number" },
            "prefix": { "type": "string" },
            "on": { "type": "bool" },
            "anything": {}
        })
    );
    assert_eq!(s.messages(), Vec::<String>::new());
}

#[test]
fn an_overrides_depends_on_moves_into_the_base_block_across_syntaxes() {
    let main = "resource \"terraform_data\" \"a\" {}\n\nresource \"terraform_data\" \"b\" {}\n";
    let json_main = r#"{
  "resource": {
    "terraform_data": {
      "c": {},
      "d": {"depends_on": ["terraform_data.a"]}
    }
  }
}
"#;
    // A JSON override of a native block, and of JSON blocks (one with a list already).
    let json_override = r#"{
  "resource": {
    "terraform_data": {
      "a": {"input": 1, "depends_on": ["terraform_data.b"]},
      "c": {"depends_on": ["terraform_data.a", "terraform_data.b"]}
    }
  }
}
"#;
    // A native override of a JSON block.
    let native_override =
        "resource \"terraform_data\" \"d\" {\n  depends_on = [terraform_data.b]\n}\n";
    let mut s = Session::open(&[
        ("main.tf", main),
        ("other.tf.json", json_main),
        ("override.tf.json", json_override),
        ("d_override.tf", native_override),
    ]);
    s.apply_fix(
        "override.tf.json",
        "Unsupported override",
        "Move depends_on into the base block in main.tf",
    );
    s.apply_fix(
        "override.tf.json",
        "Unsupported override",
        "Move depends_on into the base block in other.tf.json",
    );
    s.apply_fix(
        "d_override.tf",
        "Unsupported override",
        "Move depends_on into the base block in other.tf.json",
    );
    assert_eq!(
        s.text("main.tf"),
        "resource \"terraform_data\" \"a\" {\n  depends_on = [terraform_data.b]\n}\n\nresource \"terraform_data\" \"b\" {}\n"
    );
    assert_eq!(
        s.text("override.tf.json"),
        "{\n  \"resource\": {\n    \"terraform_data\": {\n      \"a\": {\"input\": 1},\n      \"c\": {}\n    }\n  }\n}\n"
    );
    let other: Value = serde_json::from_str(s.text("other.tf.json")).expect("valid JSON");
    assert_eq!(
        other["resource"]["terraform_data"],
        json!({
            "c": { "depends_on": ["terraform_data.a", "terraform_data.b"] },
            "d": { "depends_on": ["terraform_data.a", "terraform_data.b"] }
        })
    );
    assert_eq!(
        s.text("d_override.tf"),
        "resource \"terraform_data\" \"d\" {\n}\n"
    );
    assert_eq!(s.messages(), Vec::<String>::new());
}

#[test]
fn a_json_orphan_override_gets_its_base_declaration_in_either_syntax() {
    let overriding = r#"{
  "resource": {"terraform_data": {"x": {"input": 1}}},
  "variable": {"v": {"default": 2}},
  "output": {"o": {"value": "${var.v + 1}"}},
  "locals": {"l": {"k": ["a\"b", "${var.v}"]}}
}
"#;
    // Into a native main file: values become native expressions.
    let mut s = Session::open(&[
        ("main.tf", "terraform {}\n"),
        ("override.tf.json", overriding),
    ]);
    for summary in [
        "Missing resource to override",
        "Missing base variable declaration to override",
        "Missing base output definition to override",
        "Missing base local value definition to override",
    ] {
        s.apply_fix(
            "override.tf.json",
            summary,
            "Create the base declaration in main.tf",
        );
    }
    assert_eq!(
        s.text("main.tf"),
        "terraform {}\n\nresource \"terraform_data\" \"x\" {}\n\nvariable \"v\" {}\n\noutput \"o\" {\n  value = \"${var.v + 1}\"\n}\n\nlocals {\n  l = { \"k\" = [\"a\\\"b\", \"${var.v}\"] }\n}\n"
    );
    assert_eq!(s.messages(), Vec::<String>::new());

    // Into a JSON main file, from a native override: values become JSON values.
    let native = "output \"o\" {\n  value = var.v + 1\n}\n\nvariable \"v\" {\n  default = 2\n}\n\nmodule \"m\" {\n  source = \"./child\"\n}\n\nlocals {\n  l = \"$${x}\"\n}\n";
    let mut s = Session::open(&[
        ("main.tf.json", "{\n  \"variable\": {\"w\": {}}\n}\n"),
        ("override.tf", native),
        ("child/main.tf", ""),
    ]);
    for summary in [
        "Missing base output definition to override",
        "Missing base variable declaration to override",
        "Missing module call to override",
        "Missing base local value definition to override",
    ] {
        s.apply_fix(
            "override.tf",
            summary,
            "Create the base declaration in main.tf.json",
        );
    }
    let fixed: Value = serde_json::from_str(s.text("main.tf.json")).expect("valid JSON");
    assert_eq!(fixed["variable"], json!({ "w": {}, "v": {} }));
    assert_eq!(fixed["output"], json!({ "o": { "value": "${var.v + 1}" } }));
    assert_eq!(fixed["module"], json!({ "m": { "source": "./child" } }));
    assert_eq!(fixed["locals"], json!({ "l": "$${x}" }));
    assert_eq!(s.messages(), Vec::<String>::new());
}
