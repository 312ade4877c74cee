//! Black-box tests of completion and signature help over stdio, with the fixture's
//! provider schemas loaded: block types, labels, arguments (required first, written ones
//! left out, in base and override files), references with their effective values,
//! attributes from the schema, finite values, functions, a local child module's inputs
//! and outputs, `.tfvars` variables; the signature of the call around the cursor.

mod support;

use serde_json::{json, Value};
use support::{Client, TempDir};

/// The server over `dir`, with the fixture's schemas loaded and snippets supported.
fn start(dir: &TempDir) -> (Client, Value) {
    let snippets = json!({
        "textDocument": { "completion": { "completionItem": { "snippetSupport": true } } }
    });
    Client::with_fixture_schemas(dir.path(), snippets)
}

/// The line and UTF-16 column of the `|` in `marked`, and the text without it.
fn cursor(marked: &str) -> (u32, u32, String) {
    let at = marked.find('|').expect("a cursor");
    let before = &marked[..at];
    let line = before.matches('\n').count() as u32;
    let column = before
        .rsplit('\n')
        .next()
        .unwrap_or("")
        .encode_utf16()
        .count() as u32;
    (line, column, marked.replacen('|', "", 1))
}

/// Opens `name` with `marked`'s text and asks `method` at its `|`.
fn ask(client: &mut Client, dir: &TempDir, name: &str, marked: &str, method: &str) -> Value {
    let (line, character, text) = cursor(marked);
    let path = dir.path().join(name);
    let u = client.open(&path, &text, 1);
    client.request(
        method,
        json!({ "textDocument": { "uri": u }, "position": { "line": line, "character": character } }),
    )
}

fn complete(client: &mut Client, dir: &TempDir, name: &str, marked: &str) -> Vec<Value> {
    let result = ask(client, dir, name, marked, "textDocument/completion");
    result.as_array().cloned().unwrap_or_default()
}

fn labels(items: &[Value]) -> Vec<&str> {
    items.iter().filter_map(|i| i["label"].as_str()).collect()
}

fn item<'a>(items: &'a [Value], label: &str) -> &'a Value {
    items
        .iter()
        .find(|i| i["label"] == label)
        .unwrap_or_else(|| panic!("{label} not offered: {:?}", labels(items)))
}

/// The labels in the order the client sorts them.
fn sorted(items: &[Value]) -> Vec<&str> {
    let mut items: Vec<&Value> = items.iter().collect();
    items.sort_by_key(|i| i["sortText"].as_str().unwrap_or_default().to_string());
    items.iter().filter_map(|i| i["label"].as_str()).collect()
}

const MAIN: &str = r#"variable "region" {
  type    = string
  default = "eu-west-1"
}

variable "replicas" {
  type = number
}

locals {
  name = "web-${var.region}"
}

provider "aws" {
  alias  = "west"
  region = var.region
}

resource "aws_instance" "web" {
  count         = var.replicas
  instance_type = "t3.micro"
}

module "net" {
  source = "./net"
}
"#;

const NET: &str = r#"variable "cidr" {
  type = string
}

variable "zones" {
  default = 2
}

output "vpc_id" {
  value       = "vpc-1"
  description = "The network's id."
}
"#;

const OVERRIDE: &str = r#"variable "region" {
  default = "us-east-1"
}
"#;

fn workspace(tag: &str) -> TempDir {
    let dir = TempDir::new(tag);
    dir.write("main.tf", MAIN);
    dir.write("override.tf", OVERRIDE);
    dir.write("net/main.tf", NET);
    dir
}

#[test]
fn completion_and_signature_help_are_advertised() {
    let dir = workspace("completion-caps");
    let (_, init) = start(&dir);
    let caps = &init["capabilities"];
    let triggers = caps["completionProvider"]["triggerCharacters"]
        .as_array()
        .unwrap();
    assert!(
        triggers.contains(&json!(".")) && triggers.contains(&json!("\"")),
        "{caps}"
    );
    assert_eq!(
        caps["signatureHelpProvider"]["triggerCharacters"],
        json!(["(", ","])
    );
}

#[test]
fn block_types_with_labels_as_placeholders() {
    let dir = workspace("completion-blocks");
    let (mut client, _) = start(&dir);
    let items = complete(&mut client, &dir, "new.tf", "res|");
    let resource = item(&items, "resource");
    assert_eq!(resource["insertTextFormat"], 2, "a snippet");
    assert_eq!(
        resource["textEdit"]["newText"],
        "resource \"${1:type}\" \"${2:name}\" {\n  $0\n}"
    );
    assert_eq!(
        resource["textEdit"]["range"],
        json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 3 } })
    );
    let items = complete(
        &mut client,
        &dir,
        "new.tf",
        "resource \"aws_instance\" \"x\" {\n  |\n}\n",
    );
    let lifecycle = item(&items, "lifecycle");
    assert_eq!(lifecycle["kind"], 7, "a block (class)");
    let ebs = item(&items, "ebs_block_device");
    assert_eq!(ebs["textEdit"]["newText"], "ebs_block_device {\n  $0\n}");
}

#[test]
fn resource_and_data_types_come_from_the_provider_schemas() {
    let dir = workspace("completion-types");
    let (mut client, _) = start(&dir);
    let items = complete(
        &mut client,
        &dir,
        "new.tf",
        "resource \"aws_s|\" \"x\" {}\n",
    );
    assert_eq!(
        labels(&items),
        [
            "aws_secretsmanager_secret_version",
            "aws_security_group",
            "aws_simpledb_domain"
        ]
    );
    let sg = item(&items, "aws_security_group");
    assert_eq!(sg["textEdit"]["newText"], "aws_security_group");
    assert_eq!(sg["detail"], "registry.terraform.io/hashicorp/aws");
    let items = complete(&mut client, &dir, "new.tf", "data |");
    let region = item(&items, "aws_region");
    assert_eq!(
        region["textEdit"]["newText"], "\"aws_region\"",
        "quoted when no quote is written"
    );
}

#[test]
fn arguments_required_first_set_ones_left_out_meta_arguments_included() {
    let dir = workspace("completion-arguments");
    let (mut client, _) = start(&dir);
    let marked = "resource \"aws_alb_listener\" \"l\" {\n  port = 80\n  |\n}\n";
    let items = complete(&mut client, &dir, "new.tf", marked);
    let order = sorted(&items);
    assert_eq!(order[0], "load_balancer_arn", "{order:?}");
    assert!(!order.contains(&"port"), "already set: {order:?}");
    for meta in ["count", "for_each", "provider", "depends_on", "lifecycle"] {
        assert!(order.contains(&meta), "{meta} missing: {order:?}");
    }
    assert!(!order.contains(&"arn"), "computed only: {order:?}");
    let listener = item(&items, "load_balancer_arn");
    assert_eq!(listener["detail"], "required string");
    assert_eq!(
        listener["textEdit"]["newText"],
        "load_balancer_arn = \"$1\""
    );
    assert!(listener["documentation"]["value"]
        .as_str()
        .unwrap()
        .contains("required"));
}

#[test]
fn an_override_block_completes_from_its_base_blocks_type() {
    let dir = workspace("completion-override");
    let (mut client, _) = start(&dir);
    // The override's own labels: the declarations it may override.
    let items = complete(
        &mut client,
        &dir,
        "web_override.tf",
        "resource \"aws_instance\" \"|\" {}\n",
    );
    assert_eq!(labels(&items), ["web"]);
    let items = complete(&mut client, &dir, "web_override.tf", "variable \"|\" {}\n");
    assert_eq!(labels(&items), ["region", "replicas"]);
    // Its arguments from the resource type's schema; nothing is required in an override.
    let marked = "resource \"aws_instance\" \"web\" {\n  instance_type = \"t3.large\"\n  |\n}\n";
    let items = complete(&mut client, &dir, "web_override.tf", marked);
    let ami = item(&items, "ami");
    assert_eq!(ami["detail"], "string");
    assert!(!labels(&items).contains(&"instance_type"));
    // `count` is set in the base block: `count.index` is there to refer to.
    let marked = "resource \"aws_instance\" \"web\" {\n  tags = { Name = \"n-${count.|}\" }\n}\n";
    let items = complete(&mut client, &dir, "web_override.tf", marked);
    assert_eq!(labels(&items), ["index"]);
}

#[test]
fn references_with_their_effective_values_and_types() {
    let dir = workspace("completion-references");
    let (mut client, _) = start(&dir);
    let items = complete(
        &mut client,
        &dir,
        "new.tf",
        "output \"o\" {\n  value = var.|\n}\n",
    );
    assert_eq!(labels(&items), ["region", "replicas"]);
    // The override's default is the effective one.
    assert_eq!(item(&items, "region")["detail"], "string = \"us-east-1\"");
    assert_eq!(item(&items, "replicas")["detail"], "number");
    let items = complete(
        &mut client,
        &dir,
        "new.tf",
        "output \"o\" {\n  value = local.|\n}\n",
    );
    assert_eq!(item(&items, "name")["detail"], "\"web-${var.region}\"");
    let items = complete(
        &mut client,
        &dir,
        "new.tf",
        "output \"o\" {\n  value = module.|\n}\n",
    );
    assert_eq!(item(&items, "net")["detail"], "\"./net\"");
    let items = complete(
        &mut client,
        &dir,
        "new.tf",
        "output \"o\" {\n  value = module.net.|\n}\n",
    );
    let vpc = item(&items, "vpc_id");
    assert_eq!(vpc["documentation"]["value"], "The network's id.");
    let items = complete(
        &mut client,
        &dir,
        "new.tf",
        "output \"o\" {\n  value = aws_instance.|\n}\n",
    );
    assert_eq!(
        item(&items, "web")["detail"],
        "aws_instance.web count = var.replicas"
    );
    let items = complete(
        &mut client,
        &dir,
        "new.tf",
        "output \"o\" {\n  value = aws_instance.web[0].pu|\n}\n",
    );
    assert!(
        labels(&items).contains(&"public_ip"),
        "{:?}",
        labels(&items)
    );
    assert_eq!(item(&items, "public_ip")["detail"], "string");
    let items = complete(
        &mut client,
        &dir,
        "new.tf",
        "output \"o\" {\n  value = \"${path.|}\"\n}\n",
    );
    assert_eq!(labels(&items), ["cwd", "module", "root"]);
    let items = complete(
        &mut client,
        &dir,
        "new.tf",
        "output \"o\" {\n  value = aws_|\n}\n",
    );
    assert_eq!(labels(&items), ["aws_instance"]);
}

#[test]
fn functions_with_signatures_and_signature_help() {
    let dir = workspace("completion-functions");
    let (mut client, _) = start(&dir);
    let items = complete(&mut client, &dir, "new.tf", "locals {\n  x = jo|\n}\n");
    let join = item(&items, "join");
    assert_eq!(
        join["detail"],
        "join(separator string, lists... list(string)) string"
    );
    assert_eq!(join["textEdit"]["newText"], "join($1)");
    let help = ask(
        &mut client,
        &dir,
        "new.tf",
        "locals {\n  x = join(\"-\", [var.region], |\n}\n",
        "textDocument/signatureHelp",
    );
    let signature = &help["signatures"][0];
    assert_eq!(
        signature["label"],
        "join(separator string, lists... list(string)) string"
    );
    assert_eq!(help["activeParameter"], 1);
    assert_eq!(signature["parameters"][0]["label"], json!([5, 21]));
    let help = ask(
        &mut client,
        &dir,
        "new.tf",
        "locals {\n  x = 1|\n}\n",
        "textDocument/signatureHelp",
    );
    assert!(help.is_null(), "{help}");
}

#[test]
fn finite_values() {
    let dir = workspace("completion-values");
    let (mut client, _) = start(&dir);
    let marked =
        "resource \"aws_vpc\" \"v\" {\n  provisioner \"local-exec\" {\n    when = |\n  }\n}\n";
    let items = complete(&mut client, &dir, "new.tf", marked);
    assert_eq!(&sorted(&items)[..2], ["create", "destroy"]);
    let items = complete(
        &mut client,
        &dir,
        "new.tf",
        "variable \"v\" {\n  type = |\n}\n",
    );
    assert_eq!(
        item(&items, "list")["textEdit"]["newText"],
        "list(${1:string})"
    );
    let items = complete(
        &mut client,
        &dir,
        "new.tf",
        "resource \"aws_vpc\" \"v\" {\n  provider = |\n}\n",
    );
    assert_eq!(&sorted(&items)[..2], ["aws", "aws.west"]);
    let marked = "resource \"aws_vpc\" \"v\" {\n  enable_dns_support = |\n}\n";
    let items = complete(&mut client, &dir, "new.tf", marked);
    assert_eq!(&sorted(&items)[..2], ["false", "true"]);
    let marked =
        "resource \"aws_vpc\" \"v\" {\n  lifecycle {\n    ignore_changes = [ta|]\n  }\n}\n";
    let items = complete(&mut client, &dir, "new.tf", marked);
    assert!(labels(&items).contains(&"tags"), "{:?}", labels(&items));
}

#[test]
fn a_module_block_offers_its_childs_inputs_required_first() {
    let dir = workspace("completion-module-inputs");
    let (mut client, _) = start(&dir);
    let marked = "module \"net\" {\n  source = \"./net\"\n  |\n}\n";
    let items = complete(
        &mut client,
        &dir,
        "main.tf",
        &MAIN.replace("module \"net\" {\n  source = \"./net\"\n}\n", marked),
    );
    let order = sorted(&items);
    assert_eq!(order[0], "cidr", "{order:?}");
    assert!(
        order.contains(&"zones") && order.contains(&"count"),
        "{order:?}"
    );
    assert_eq!(item(&items, "cidr")["detail"], "required string");
}

#[test]
fn tfvars_offers_the_modules_variables() {
    let dir = workspace("completion-tfvars");
    let (mut client, _) = start(&dir);
    let items = complete(&mut client, &dir, "terraform.tfvars", "replicas = 2\n|");
    assert_eq!(labels(&items), ["region"]);
    assert_eq!(item(&items, "region")["textEdit"]["newText"], "region = $0");
}

#[test]
fn json_property_names_in_an_override_file() {
    let dir = workspace("completion-json");
    let (mut client, _) = start(&dir);
    let marked =
        "{\"resource\": {\"aws_instance\": {\"web\": {\"instance_type\": \"t3.large\", \"am|\"}}}}";
    let items = complete(&mut client, &dir, "web_override.tf.json", marked);
    let ami = item(&items, "ami");
    assert_eq!(ami["textEdit"]["newText"], "ami", "inside the key's quotes");
    assert_eq!(ami["insertTextFormat"], 1, "plain text");
    let marked = "{\"resource\": {\"aws_instance\": {\"|\": {}}}}";
    let items = complete(&mut client, &dir, "web_override.tf.json", marked);
    assert_eq!(labels(&items), ["web"]);
}

#[test]
fn references_functions_and_signature_help_in_a_json_strings_interpolation() {
    let dir = workspace("completion-json-templates");
    let (mut client, _) = start(&dir);
    let marked = "{\"locals\": {\"zone\": \"${var.re|}-a\"}}";
    let items = complete(&mut client, &dir, "zones.tf.json", marked);
    let region = item(&items, "region");
    assert_eq!(region["detail"], "string = \"us-east-1\"");
    assert_eq!(region["textEdit"]["newText"], "region", "unquoted");
    assert_eq!(
        region["textEdit"]["range"],
        json!({ "start": { "line": 0, "character": 27 }, "end": { "line": 0, "character": 29 } })
    );
    let marked = "{\"locals\": {\"zone\": \"${jo|\"}}";
    let items = complete(&mut client, &dir, "zones.tf.json", marked);
    assert_eq!(labels(&items), ["join"]);
    let help = ask(
        &mut client,
        &dir,
        "zones.tf.json",
        "{\"locals\": {\"zone\": \"${join(\\\"-\\\", [var.region], |\"}}",
        "textDocument/signatureHelp",
    );
    assert_eq!(help["activeParameter"], 1, "{help}");
    // The string's text is no expression.
    let marked = "{\"locals\": {\"zone\": \"var.re|\"}}";
    assert!(complete(&mut client, &dir, "zones.tf.json", marked).is_empty());
}

#[test]
fn depends_on_and_replace_triggered_by_offer_only_what_they_take() {
    let dir = workspace("completion-restricted");
    let (mut client, _) = start(&dir);
    let marked = format!("{MAIN}\nresource \"aws_instance\" \"db\" {{\n  depends_on = [|]\n}}\n");
    let items = complete(&mut client, &dir, "main.tf", &marked);
    let offered = labels(&items);
    for taken in ["var", "local", "module", "data", "aws_instance"] {
        assert!(offered.contains(&taken), "{taken}: {offered:?}");
    }
    for refused in ["path", "terraform", "count", "upper", "self"] {
        assert!(!offered.contains(&refused), "{refused}: {offered:?}");
    }
    // Past the object: depends_on takes no attribute.
    let marked = format!(
        "{MAIN}\nresource \"aws_instance\" \"db\" {{\n  depends_on = [aws_instance.web.|]\n}}\n"
    );
    assert!(complete(&mut client, &dir, "main.tf", &marked).is_empty());
    let marked = format!("{MAIN}\nresource \"aws_instance\" \"db\" {{\n  lifecycle {{\n    replace_triggered_by = [|]\n  }}\n}}\n");
    let offered: Vec<String> = labels(&complete(&mut client, &dir, "main.tf", &marked))
        .into_iter()
        .map(str::to_string)
        .collect();
    assert!(offered.contains(&"aws_instance".to_string()), "{offered:?}");
    for refused in ["var", "local", "module", "data", "upper"] {
        assert!(
            !offered.contains(&refused.to_string()),
            "{refused}: {offered:?}"
        );
    }
    let marked = format!("{MAIN}\nresource \"aws_instance\" \"db\" {{\n  lifecycle {{\n    replace_triggered_by = [var.|]\n  }}\n}}\n");
    assert!(complete(&mut client, &dir, "main.tf", &marked).is_empty());
}

#[test]
fn moved_from_offers_the_prior_states_undeclared_resources() {
    let dir = workspace("completion-moved");
    dir.write(
        "terraform.tfstate",
        include_str!("../fixtures/states/terraform-data-old.tfstate"),
    );
    let (mut client, _) = start(&dir);
    let marked = format!("{MAIN}\nmoved {{\n  from = |\n}}\n");
    let items = complete(&mut client, &dir, "main.tf", &marked);
    let old = item(&items, "terraform_data.old");
    assert_eq!(old["detail"], "in the prior state, no longer declared");
    assert!(
        !labels(&items).contains(&"upper"),
        "no functions in an address"
    );
}

#[test]
fn moved_from_reads_the_state_the_plan_setting_names() {
    let dir = workspace("completion-moved-setting");
    dir.write(
        "states/old.tfstate",
        include_str!("../fixtures/states/terraform-data-old.tfstate"),
    );
    let (mut client, _) = start(&dir);
    let marked = format!("{MAIN}\nmoved {{\n  from = |\n}}\n");
    // No terraform.tfstate: nothing from a state until the setting names one.
    let items = complete(&mut client, &dir, "main.tf", &marked);
    assert!(!labels(&items).contains(&"terraform_data.old"));
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "strata": { "plan": { "statePath": "states/old.tfstate" } } } }),
    );
    let items = complete(&mut client, &dir, "main.tf", &marked);
    let old = item(&items, "terraform_data.old");
    assert_eq!(old["detail"], "in the prior state, no longer declared");
}

#[test]
fn json_keys_of_every_kind_in_a_primary_file() {
    let dir = workspace("completion-json-kinds");
    let (mut client, _) = start(&dir);
    let name = "extra.tf.json";
    // Block types at the top level and inside a block, as plain property names.
    let items = complete(&mut client, &dir, name, "{\"|\"}");
    for kind in ["resource", "data", "variable", "module", "moved", "import"] {
        assert!(
            labels(&items).contains(&kind),
            "{kind}: {:?}",
            labels(&items)
        );
    }
    assert_eq!(
        item(&items, "resource")["insertTextFormat"],
        1,
        "plain text"
    );
    let marked = "{\"resource\": {\"aws_instance\": {\"x\": {\"lifecycle\": {\"|\"}}}}}";
    let items = complete(&mut client, &dir, name, marked);
    for argument in ["create_before_destroy", "ignore_changes", "precondition"] {
        assert!(
            labels(&items).contains(&argument),
            "{argument}: {:?}",
            labels(&items)
        );
    }
    // Resource and data types from the provider schemas.
    let items = complete(&mut client, &dir, name, "{\"resource\": {\"aws_s|\": {}}}");
    assert_eq!(
        labels(&items),
        [
            "aws_secretsmanager_secret_version",
            "aws_security_group",
            "aws_simpledb_domain"
        ]
    );
    let items = complete(&mut client, &dir, name, "{\"data\": {|}}");
    assert_eq!(
        item(&items, "aws_region")["textEdit"]["newText"],
        "\"aws_region\""
    );
    // Arguments: required first, written ones left out, meta-arguments included.
    let marked = "{\"resource\": {\"aws_alb_listener\": {\"l\": {\"port\": 80, \"|\"}}}}";
    let items = complete(&mut client, &dir, name, marked);
    let order = sorted(&items);
    assert_eq!(order[0], "load_balancer_arn", "{order:?}");
    assert!(!order.contains(&"port"), "already set: {order:?}");
    for meta in ["count", "for_each", "provider", "depends_on", "lifecycle"] {
        assert!(order.contains(&meta), "{meta} missing: {order:?}");
    }
    assert_eq!(
        item(&items, "load_balancer_arn")["detail"],
        "required string"
    );
    // A local child module's inputs inside its module block, required first.
    // (A whole property, for the module call to be read from the text: `"": null`.)
    let marked = "{\"module\": {\"net2\": {\"source\": \"./net\", \"|\": null}}}";
    let order: Vec<String> = sorted(&complete(&mut client, &dir, name, marked))
        .into_iter()
        .map(str::to_string)
        .collect();
    let at = |n: &str| order.iter().position(|l| l == n);
    assert!(
        at("cidr") < at("zones") && at("zones").is_some(),
        "{order:?}"
    );
    assert!(!order.contains(&"source".to_string()), "{order:?}");
}

#[test]
fn json_keys_in_an_override_file_come_from_the_base_declaration() {
    let dir = workspace("completion-json-override");
    let (mut client, _) = start(&dir);
    let name = "main_override.tf.json";
    let items = complete(&mut client, &dir, name, "{\"variable\": {\"|\"}}");
    assert_eq!(labels(&items), ["region", "replicas"]);
    let items = complete(&mut client, &dir, name, "{\"module\": {\"net\": {\"|\"}}}");
    for input in ["cidr", "zones", "source"] {
        assert!(
            labels(&items).contains(&input),
            "{input}: {:?}",
            labels(&items)
        );
    }
    let marked = "{\"variable\": {\"region\": {\"default\": \"x\", \"|\"}}}";
    let items = complete(&mut client, &dir, name, marked);
    assert!(labels(&items).contains(&"type"), "{:?}", labels(&items));
    assert!(!labels(&items).contains(&"default"), "{:?}", labels(&items));
}

#[test]
fn tfvars_offers_boolean_values_and_json_tfvars_the_variables() {
    let dir = workspace("completion-tfvars-kinds");
    dir.write("flags.tf", "variable \"enabled\" {\n  type = bool\n}\n");
    let (mut client, _) = start(&dir);
    let items = complete(&mut client, &dir, "terraform.tfvars", "enabled = |");
    assert_eq!(labels(&items), ["false", "true"]);
    let items = complete(&mut client, &dir, "terraform.tfvars", "region = |");
    assert!(
        items.is_empty(),
        "a string has no finite values: {:?}",
        labels(&items)
    );
    // Required ones (no default) first; one already given is left out.
    let items = complete(&mut client, &dir, "prod.auto.tfvars", "region = \"x\"\n|");
    assert_eq!(sorted(&items), ["enabled", "replicas"]);
    let items = complete(
        &mut client,
        &dir,
        "terraform.tfvars.json",
        "{\"replicas\": 2, \"|\"}",
    );
    let region = item(&items, "region");
    assert_eq!(
        region["textEdit"]["newText"], "region",
        "inside the key's quotes"
    );
    assert!(!labels(&items).contains(&"replicas"));
}

#[test]
fn each_self_heredocs_and_the_addresses_of_removed_and_import() {
    let dir = workspace("completion-more-references");
    let (mut client, _) = start(&dir);
    let with = |block: &str| format!("{MAIN}\n{block}\n");
    // `each.` in a resource with for_each.
    let marked = with(
        "resource \"aws_vpc\" \"e\" {\n  for_each = toset([\"a\"])\n  tags = { Name = each.| }\n}",
    );
    assert_eq!(
        sorted(&complete(&mut client, &dir, "main.tf", &marked)),
        ["key", "value"]
    );
    // `self.` in a provisioner: the resource's own attributes.
    let marked = with("resource \"aws_vpc\" \"s\" {\n  provisioner \"local-exec\" {\n    command = \"echo ${self.|}\"\n  }\n}");
    let items = complete(&mut client, &dir, "main.tf", &marked);
    assert!(
        labels(&items).contains(&"cidr_block"),
        "{:?}",
        labels(&items)
    );
    // Inside a heredoc template.
    let marked = with("output \"h\" {\n  value = <<EOT\n  ${var.re|}\n  EOT\n}");
    let items = complete(&mut client, &dir, "main.tf", &marked);
    assert_eq!(labels(&items), ["region", "replicas"]);
    // `ignore_changes = all`, a lifecycle keyword.
    let marked =
        with("resource \"aws_vpc\" \"k\" {\n  lifecycle {\n    ignore_changes = |\n  }\n}");
    let items = complete(&mut client, &dir, "main.tf", &marked);
    assert!(labels(&items).contains(&"all"), "{:?}", labels(&items));
    // A `removed` block's `from` and an `import` block's `to` name resources.
    let marked = with("removed {\n  from = aws_instance.|\n}");
    assert_eq!(
        labels(&complete(&mut client, &dir, "main.tf", &marked)),
        ["web"]
    );
    let marked = with("import {\n  id = \"i-1\"\n  to = aws_instance.|\n}");
    assert_eq!(
        labels(&complete(&mut client, &dir, "main.tf", &marked)),
        ["web"]
    );
}
