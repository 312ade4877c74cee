//! Hover with provider schemas, over stdio: the server reads the schema files of
//! `initializationOptions.providerSchemas.files` and documents provider-defined bodies
//! from them (the provider and its schema's origin on a header; type, requirement and
//! description of arguments and nested block types), in both syntaxes; and marks with
//! the `deprecated` semantic token modifier what the schemas deprecate.

mod support;

use serde_json::{json, Value};
use support::{fixtures, uri, Client, TempDir};

const MAIN: &str = r#"provider "aws" {
  region = "us-east-1"
}

resource "aws_instance" "web" {
  instance_type = "t3.micro"
  count         = 1
  root_block_device {
    volume_size = 10
  }
}

resource "aws_security_group" "sg" {
  ingress {
    from_port = 1
  }
}
"#;

/// The server with the fixture's schemas loaded, and its answer to `initialize`.
fn start_with_schemas(dir: &TempDir) -> (Client, Value) {
    Client::with_fixture_schemas(dir.path(), json!({}))
}

fn hover(client: &mut Client, u: &str, line: u32, character: u32) -> String {
    let result: Value = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": u }, "position": { "line": line, "character": character } }),
    );
    result["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn hover_documents_provider_defined_bodies_from_the_schema() {
    let dir = TempDir::new("hover-schemas");
    let path = dir.write("main.tf", MAIN);
    let (mut client, _) = start_with_schemas(&dir);
    let u = client.open(&path, MAIN, 1);

    let header = hover(&mut client, &u, 4, 3);
    assert!(
        header.starts_with("Provider `registry.terraform.io/hashicorp/aws`, schema from `"),
        "{header}"
    );
    assert!(header.contains("schemas.json`"), "{header}");
    assert!(
        header.contains("resource \"aws_instance\" \"web\""),
        "the merge hover follows: {header}"
    );

    let argument = hover(&mut client, &u, 5, 4);
    assert!(
        argument.starts_with("`instance_type`: `string` (optional, computed)"),
        "{argument}"
    );
    assert!(argument.contains("In effect."), "{argument}");

    let nested = hover(&mut client, &u, 7, 4);
    assert!(
        nested.starts_with("`root_block_device`: list of blocks (at most 1)"),
        "{nested}"
    );
    let inner = hover(&mut client, &u, 8, 6);
    assert!(
        inner.starts_with("`volume_size`: `number` (optional, computed)"),
        "{inner}"
    );

    let provider = hover(&mut client, &u, 1, 3);
    assert!(
        provider.starts_with("`region`: `string` (optional)\n\nThe region where AWS operations"),
        "plain descriptions shown as written: {provider}"
    );

    let as_blocks = hover(&mut client, &u, 13, 4);
    assert!(
        as_blocks.contains("May also be written as `ingress { ... }` blocks."),
        "{as_blocks}"
    );
    assert!(
        as_blocks.starts_with("`ingress`: `set(object({"),
        "{as_blocks}"
    );
    let field = hover(&mut client, &u, 14, 6);
    assert!(
        field.starts_with("`from_port`: `number`, an attribute of the objects of `ingress`"),
        "{field}"
    );

    // A meta-argument is the language's, not the provider's.
    let meta = hover(&mut client, &u, 6, 4);
    assert!(!meta.contains("optional"), "{meta}");
}

const MAIN_JSON: &str = r#"{
  "provider": {
    "aws": {
      "region": "us-east-1"
    }
  },
  "resource": {
    "aws_instance": {
      "web": {
        "instance_type": "t3.micro",
        "count": 1,
        "root_block_device": {
          "volume_size": 10
        },
        "ebs_block_device": [
          {"device_name": "a"}
        ]
      }
    }
  }
}
"#;

#[test]
fn hover_documents_json_properties_from_the_schema() {
    let dir = TempDir::new("hover-schemas-json");
    let path = dir.write("main.tf.json", MAIN_JSON);
    let (mut client, _) = start_with_schemas(&dir);
    let u = client.open(&path, MAIN_JSON, 1);

    let header = hover(&mut client, &u, 8, 8);
    assert!(
        header.starts_with("Provider `registry.terraform.io/hashicorp/aws`, schema from `"),
        "{header}"
    );
    assert!(
        header.contains("resource \"aws_instance\" \"web\""),
        "the merge hover follows: {header}"
    );

    let argument = hover(&mut client, &u, 9, 10);
    assert!(
        argument.starts_with("`instance_type`: `string` (optional, computed)"),
        "{argument}"
    );
    let on_value = hover(&mut client, &u, 9, 28);
    assert!(on_value.starts_with("`instance_type`"), "{on_value}");

    let nested = hover(&mut client, &u, 11, 10);
    assert!(
        nested.starts_with("`root_block_device`: list of blocks (at most 1)"),
        "{nested}"
    );
    let inner = hover(&mut client, &u, 12, 12);
    assert!(
        inner.starts_with("`volume_size`: `number` (optional, computed)"),
        "{inner}"
    );
    let in_array = hover(&mut client, &u, 15, 12);
    assert!(
        in_array.starts_with("`device_name`: `string`"),
        "{in_array}"
    );

    let provider = hover(&mut client, &u, 3, 8);
    assert!(
        provider.starts_with("`region`: `string` (optional)"),
        "{provider}"
    );

    // A meta-argument is the language's, not the provider's.
    let meta = hover(&mut client, &u, 10, 10);
    assert!(!meta.contains("optional"), "{meta}");
}

#[test]
fn hover_says_which_blocks_the_schema_leaves_unread() {
    let dir = TempDir::new("hover-schema-merge");
    let main = dir.write("main.tf", MAIN);
    let over = "resource \"aws_security_group\" \"sg\" {\n  ingress = []\n}\n";
    dir.write("override.tf", over);
    let (mut client, _) = start_with_schemas(&dir);
    let u = client.open(&main, MAIN, 1);
    let unread = hover(&mut client, &u, 13, 4);
    assert!(
        unread.contains(
            "**Not in effect.** The argument `ingress` from `override.tf:2` is in effect"
        ),
        "{unread}"
    );
}

#[test]
fn hover_without_schemas_shows_only_the_merge() {
    let dir = TempDir::new("hover-no-schemas");
    let path = dir.write("main.tf", MAIN);
    let mut client = Client::initialized(Some(dir.path()), json!({})).0;
    let u = client.open(&path, MAIN, 1);
    let argument = hover(&mut client, &u, 5, 4);
    assert!(argument.starts_with("```hcl\ninstance_type"), "{argument}");
}

#[test]
fn hover_documents_provider_defined_functions_from_the_schema() {
    let dir = TempDir::new("hover-functions");
    let text = r#"terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

locals {
  region  = provider::aws::arn_parse("arn:aws:iam::123456789012:role/x").region
  unknown = provider::aws::nope(1)
  other   = provider::awscc::arn_parse("x")
}
"#;
    let path = dir.write("main.tf", text);
    let (mut client, _) = start_with_schemas(&dir);
    let u = client.open(&path, text, 1);

    let function = hover(&mut client, &u, 9, 24);
    assert!(
        function.starts_with("```hcl\nprovider::aws::arn_parse(arn string) object({"),
        "{function}"
    );
    assert!(
        function.contains("\n\nParameters:\n- `arn`: `string`"),
        "{function}"
    );
    assert!(
        function.contains("Provider `registry.terraform.io/hashicorp/aws`, schema from `"),
        "{function}"
    );
    // A function the provider lacks, and a provider the module does not require.
    for line in [10, 11] {
        let other = hover(&mut client, &u, line, 24);
        assert!(!other.contains("Parameters:"), "{other}");
    }
}

/// The recorded AWS schema as a schema file in `dir` for version `version`: 5.2.0's
/// `aws_instance` has no `ami` and requires `instance_type`, with a description.
fn aws_version_file(dir: &TempDir, version: &str) -> std::path::PathBuf {
    let text = std::fs::read_to_string(fixtures().join("providers/schemas.json")).unwrap();
    let mut file: Value = serde_json::from_str(&text).unwrap();
    if version == "5.2.0" {
        let aws = "registry.terraform.io/hashicorp/aws";
        let instance = &mut file["provider_schemas"][aws]["resource_schemas"]["aws_instance"];
        let attributes = instance["block"]["attributes"].as_object_mut().unwrap();
        attributes.remove("ami");
        attributes["instance_type"] = json!({
            "type": "string",
            "required": true,
            "description": "The instance type.",
            "description_kind": "plain"
        });
    }
    dir.write(&format!("aws-{version}.json"), &file.to_string())
}

/// A module the roots `old` and `also-old` (locking aws 5.1.0) and `new` (5.2.0) call:
/// hover on its arguments says what each version's schema says where they differ.
#[test]
fn hover_in_a_module_two_roots_call_shows_each_locked_version() {
    let cache = TempDir::new("hover-versions-cache");
    let files = TempDir::new("hover-versions-files");
    for version in ["5.1.0", "5.2.0"] {
        let file = aws_version_file(&files, version);
        let imported = std::process::Command::new(support::strata_bin())
            .args(["schemas", "import", &file.to_string_lossy(), "--version"])
            .arg(version)
            .env("STRATA_CACHE_DIR", cache.path())
            .output()
            .unwrap();
        assert!(imported.status.success(), "{imported:?}");
    }
    let workspace = TempDir::new("hover-versions");
    let required =
        "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\n";
    let call = "module \"shared\" {\n  source = \"../shared\"\n}\n";
    for (root, version) in [("old", "5.1.0"), ("also-old", "5.1.0"), ("new", "5.2.0")] {
        workspace.write(&format!("{root}/main.tf"), &format!("{required}{call}"));
        let lock = format!(
            "provider \"registry.terraform.io/hashicorp/aws\" {{\n  version = \"{version}\"\n}}\n"
        );
        workspace.write(&format!("{root}/.terraform.lock.hcl"), &lock);
    }
    let shared = format!(
        "{required}resource \"aws_instance\" \"a\" {{\n  ami           = \"ami-1\"\n  instance_type = \"t3.micro\"\n  tags          = {{}}\n}}\n"
    );
    let path = workspace.write("shared/main.tf", &shared);
    let mut client = Client::start_with_cache(&cache);
    client.request(
        "initialize",
        json!({ "processId": null, "capabilities": {}, "rootUri": uri(workspace.path()) }),
    );
    client.notify("initialized", json!({}));
    client.wait_for(|m| m["method"] == "strata/providerSchemaStatus");
    let u = client.open(&path, &shared, 1);

    let instance_type = hover(&mut client, &u, 7, 4);
    let expected = "**`hashicorp/aws` 5.1.0 (roots `also-old`, `old`)**\n\n`instance_type`: `string` (optional, computed)\n\n**`hashicorp/aws` 5.2.0 (root `new`)**\n\n`instance_type`: `string` (required)\n\nThe instance type.\n\n---\n\n";
    assert!(instance_type.starts_with(expected), "{instance_type}");

    let ami = hover(&mut client, &u, 6, 4);
    let expected = "**`hashicorp/aws` 5.1.0 (roots `also-old`, `old`)**\n\n`ami`: `string` (optional, computed)\n\n**`hashicorp/aws` 5.2.0 (root `new`)**\n\n*Not in this version's schema.*\n\n---\n\n";
    assert!(ami.starts_with(expected), "{ami}");

    // Where every version says the same, one text, as in a module one root calls.
    let tags = hover(&mut client, &u, 8, 4);
    assert!(
        tags.starts_with("`tags`: `map(string)` (optional)\n\n---\n\n"),
        "{tags}"
    );

    // On the header, each version names itself and where its schema came from.
    let header = hover(&mut client, &u, 5, 3);
    assert!(
        header.starts_with("**`hashicorp/aws` 5.1.0 (roots `also-old`, `old`)**\n\nProvider `registry.terraform.io/hashicorp/aws` 5.1.0, schema from `"),
        "{header}"
    );
    assert!(header.contains("**`hashicorp/aws` 5.2.0 (root `new`)**\n\nProvider `registry.terraform.io/hashicorp/aws` 5.2.0"), "{header}");
}

#[test]
fn semantic_tokens_mark_what_the_schemas_deprecate() {
    let main = r#"provider "aws" {
  region  = "us-east-1"
  version = "~> 5.0"
}

resource "aws_instance" "web" {
  instance_type  = "t3.micro"
  cpu_core_count = 2
}

output "threads" {
  value = aws_instance.web.cpu_threads_per_core
}

output "type" {
  value = aws_instance.web.instance_type
}
"#;
    let dir = TempDir::new("deprecated-tokens");
    let path = dir.write("main.tf", main);
    let (mut client, init) = start_with_schemas(&dir);
    let u = client.open(&path, main, 1);
    let modifiers: Vec<String> = init["capabilities"]["semanticTokensProvider"]["legend"]
        ["tokenModifiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let deprecated = 1 << modifiers.iter().position(|m| m == "deprecated").unwrap();
    let full = client.request(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": u } }),
    );
    let marked = |word: &str| -> Vec<bool> {
        support::decode_semantic_tokens(&full["data"])
            .iter()
            .filter(|t| {
                let line = main.lines().nth(t[0] as usize).unwrap();
                &line[t[1] as usize..(t[1] + t[2]) as usize] == word
            })
            .map(|t| t[4] & deprecated != 0)
            .collect()
    };
    // The provider's schema marks these two attributes; the language, a provider
    // block's `version`.
    assert_eq!(marked("cpu_core_count"), [true]);
    assert_eq!(marked("cpu_threads_per_core"), [true]);
    assert_eq!(marked("version"), [true]);
    assert_eq!(marked("instance_type"), [false, false]);
    assert_eq!(marked("region"), [false]);
}
