//! Black-box tests of `.tfvars` files in the editor: the problems `terraform plan`
//! reports in them (a value for an undeclared variable, a value that does not convert to
//! the variable's type, a reference), published on the open file; hover on a variable's
//! name; go to its declaration.

mod support;

use serde_json::{json, Value};
use support::{Client, TempDir};

const MAIN: &str = r#"variable "replicas" {
  type        = number
  description = "How many."
}

variable "names" {
  type = list(string)
}
"#;

/// `terraform plan -json` (1.11.4) on this module reports, for this `terraform.tfvars`:
/// `Invalid value for input variable` on `"abc"`, `Variables not allowed` on `var` (the
/// root name alone), and `Value for undeclared variable` as a warning without a place
/// (shown at the name).
const TFVARS: &str = "replicas = \"abc\"\nnames = [\"a\", var.x]\nundeclared = 1\n";

fn open(dir: &TempDir) -> (Client, String) {
    dir.write("main.tf", MAIN);
    let tfvars = dir.write("terraform.tfvars", TFVARS);
    let (mut client, _) = Client::initialized(Some(dir.path()), json!({}));
    let u = client.open(&tfvars, TFVARS, 1);
    (client, u)
}

fn position(line: u32, character: u32) -> Value {
    json!({ "line": line, "character": character })
}

#[test]
fn a_tfvars_file_gets_the_problems_a_plan_reports() {
    let dir = TempDir::new("tfvars-diagnostics");
    let (mut client, u) = open(&dir);
    let params = client.diagnostics_for(&u, |p| {
        p["diagnostics"].as_array().is_some_and(|d| !d.is_empty())
    });
    let found: Vec<(String, u64, Value, Value)> = params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["message"].as_str().unwrap().to_string(),
                d["severity"].as_u64().unwrap(),
                d["range"]["start"].clone(),
                d["range"]["end"].clone(),
            )
        })
        .collect();
    assert_eq!(found.len(), 3, "{found:#?}");
    assert_eq!(
        found[0],
        (
            "Invalid value for input variable\n\nThe given value is not suitable for var.replicas declared at main.tf:1,1-20: a number is required.".into(),
            1,
            position(0, 11),
            position(0, 16)
        )
    );
    assert_eq!(
        found[1],
        (
            "Variables not allowed\n\nVariables may not be used here.".into(),
            1,
            position(1, 14),
            position(1, 17)
        )
    );
    assert_eq!(
        found[2],
        (
            "Value for undeclared variable\n\nThe root module does not declare a variable named \"undeclared\" but a value was found in file \"terraform.tfvars\". If you meant to use this value, add a \"variable\" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option.".into(),
            2,
            position(2, 0),
            position(2, 10)
        )
    );
}

#[test]
fn hover_and_definition_lead_to_the_variable() {
    let dir = TempDir::new("tfvars-navigation");
    let (mut client, u) = open(&dir);
    let at = json!({ "textDocument": { "uri": u }, "position": position(0, 3) });
    let hover = client.request("textDocument/hover", at.clone());
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("variable \"replicas\""), "{text}");
    assert!(text.contains("How many."), "{text}");
    assert_eq!(hover["range"]["start"], position(0, 0));
    let definition = client.request("textDocument/definition", at);
    assert!(
        definition["uri"].as_str().unwrap().ends_with("/main.tf"),
        "{definition}"
    );
    assert_eq!(definition["range"]["start"], position(0, 0));
    let nowhere = json!({ "textDocument": { "uri": u }, "position": position(2, 3) });
    assert_eq!(
        client.request("textDocument/definition", nowhere),
        Value::Null
    );
}

/// The problems published for the open `terraform.tfvars` once its text is `text`, as
/// (message, severity, start, end).
fn published(
    client: &mut Client,
    u: &str,
    version: i32,
    text: &str,
) -> Vec<(String, u64, Value, Value)> {
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": u, "version": version },
            "contentChanges": [{ "text": text }]
        }),
    );
    let params = client.diagnostics_for(u, |p| p["version"] == version);
    params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["message"].as_str().unwrap().to_string(),
                d["severity"].as_u64().unwrap(),
                d["range"]["start"].clone(),
                d["range"]["end"].clone(),
            )
        })
        .collect()
}

#[test]
fn function_calls_and_blocks_are_reported_as_terraform_plan_reports_them() {
    let dir = TempDir::new("tfvars-calls-blocks");
    let (mut client, u) = open(&dir);
    // `terraform plan -json` (1.11.4): the whole call, its arguments unread; a `for`
    // expression is no call; only the branch a condition takes is evaluated.
    let calls = "replicas = true ? 1 : floor(1.5)\nnames = [for n in [\"a\"]: n]\n";
    assert_eq!(published(&mut client, &u, 2, calls), []);
    let calls = "replicas = max(1, 2)\nnames = [for n in [\"a\"]: n]\n";
    let error = |line, start, end| {
        (
            "Function calls not allowed\n\nFunctions may not be called here.".to_string(),
            1,
            position(line, start),
            position(line, end),
        )
    };
    assert_eq!(published(&mut client, &u, 3, calls), [error(0, 11, 20)]);
    let calls = "names = [upper(\"a\")]\nreplicas = 1\n";
    assert_eq!(published(&mut client, &u, 4, calls), [error(0, 9, 19)]);
    // Every error of a value: each element is evaluated, and a failed condition takes
    // neither result (fixtures/plan-recorded/variable-file-every-error).
    let calls = "names = [upper(\"a\"), lower(\"b\")]\nreplicas = var.c ? max(1, 2) : 0\n";
    let variables = (
        "Variables not allowed\n\nVariables may not be used here.".to_string(),
        1,
        position(1, 11),
        position(1, 14),
    );
    assert_eq!(
        published(&mut client, &u, 5, calls),
        [error(0, 9, 19), error(0, 21, 31), variables]
    );
    // Every `variable "NAME"` block, at its type; no value of the file is read.
    let blocks = "replicas = \"x\"\n\nvariable \"names\" {\n  default = []\n}\n\nlocals {}\n";
    let found = published(&mut client, &u, 6, blocks);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        found[0],
        (
            "Variable declaration in .tfvars file\n\nA .tfvars file is used to assign values to variables that have already been declared in .tf files, not to declare new variables. To declare variable \"names\", place this block in one of your .tf files, such as variables.tf.\n\nTo set a value for this variable in terraform.tfvars, use the definition syntax instead:\n    names = <value>".into(),
            1,
            position(2, 0),
            position(2, 8)
        )
    );
    // Otherwise HCL's reading of the file as arguments names its first block only.
    let blocks = "replicas = 1\nother {\n}\nvariable {}\n";
    assert_eq!(
        published(&mut client, &u, 7, blocks),
        [(
            "Unexpected \"other\" block\n\nBlocks are not allowed here.".to_string(),
            1,
            position(1, 0),
            position(1, 5)
        )]
    );
}
