//! Provider configurations an override changes: what validate skips and what planning
//! reports, with a schema holding what the AWS provider's configuration lacks (a required
//! argument, a block type with `max_items`). What Terraform reports with the AWS provider
//! is recorded in fixtures/validate-providers/aws-provider-config-overrides* and
//! fixtures/plan-recorded/provider-config-overrides*.

use super::*;
use crate::check::test_support::merged_files;
use crate::module::Dialect;
use crate::schema::LoadedProviderSchemas;

const SCHEMA: &str = r#"{
  "format_version": "1.0",
  "provider_schemas": {
    "registry.terraform.io/hashicorp/demo": {
      "provider": {
        "version": 0,
        "block": {
          "attributes": {
            "token": {"type": "string", "required": true},
            "retries": {"type": "number", "optional": true}
          },
          "block_types": {
            "endpoint": {
              "nesting_mode": "list",
              "max_items": 1,
              "block": {"attributes": {"url": {"type": "string", "required": true}}}
            }
          }
        }
      },
      "resource_schemas": {
        "demo_thing": {"version": 0, "block": {}}
      }
    }
  }
}"#;

const RESOURCES: &str = r#"
resource "demo_thing" "a" {}
resource "demo_thing" "b" {
  provider = demo.used
}
"#;

fn demo() -> LoadedProviderSchemas {
    let mut loaded = LoadedProviderSchemas::default();
    let schemas = crate::providers::read_schema_file(SCHEMA).expect("schema");
    for (address, schema) in schemas {
        let parsed =
            crate::schema::ProviderAddress::parse(&address, Dialect::Terraform).expect("address");
        loaded.schemas.insert(parsed, (schema, Default::default()));
    }
    loaded
}

/// What validate's and planning's decoding report for the module of `files`, each as
/// `summary file:line`.
fn reported(files: &[(&str, &str)]) -> (Vec<String>, Vec<String>) {
    let schemas = demo();
    let m = merged_files(files, &schemas);
    let shown = |found: Vec<Diagnostic>| {
        found
            .iter()
            .map(|d| {
                let file = m
                    .files
                    .iter()
                    .find(|f| f.path == d.path)
                    .expect("a file of the module");
                let line = file.text[..d.span.start as usize].matches('\n').count() + 1;
                format!("{} {}:{line}", d.summary, file.name())
            })
            .collect::<Vec<_>>()
    };
    let mut validated = Vec::new();
    check(&m, &schemas, &mut validated);
    let mut planned = Vec::new();
    plan_time(&m, &schemas, &mut planned);
    (shown(validated), shown(planned))
}

#[test]
fn an_overridden_configuration_is_decoded_merged_only_when_planning() {
    let main = format!("{RESOURCES}\nprovider \"demo\" {{\n  retries = 1\n}}\n");
    let over = r#"provider "demo" {
  retries = "many"
  other   = 1
  endpoint {
    url = "a"
  }
  endpoint {
    url  = "b"
    nope = 1
  }
}
"#;
    let (validated, planned) = reported(&[("main.tf", &main), ("override.tf", over)]);
    assert_eq!(validated, Vec::<String>::new());
    assert_eq!(
        planned,
        [
            // The declaration alone answers for required arguments, at its brace.
            "Missing required argument main.tf:7",
            "Incorrect attribute value type override.tf:2",
            // The override's blocks are decoded in full; `other` is left unread.
            "Unsupported argument override.tf:9",
            "Too many endpoint blocks override.tf:7",
        ]
    );
}

#[test]
fn an_aliased_configuration_is_merged_with_its_own_override() {
    let main = format!(
        "{RESOURCES}\nprovider \"demo\" {{\n  token = \"t\"\n}}\nprovider \"demo\" {{\n  alias = \"used\"\n  token = []\n  endpoint {{}}\n}}\n"
    );
    let over = "provider \"demo\" {\n  alias = \"used\"\n  retries = true\n}\n";
    let (validated, planned) = reported(&[("main.tf", &main), ("override.tf", over)]);
    // The default configuration is not overridden: validate decodes it.
    assert_eq!(validated, Vec::<String>::new());
    assert_eq!(
        planned,
        [
            "Incorrect attribute value type main.tf:12",
            "Incorrect attribute value type override.tf:3",
            "Missing required argument main.tf:13",
        ]
    );
}

#[test]
fn a_configuration_nothing_uses_is_never_configured() {
    let main = "provider \"demo\" {\n  retries = 1\n}\n";
    let over = "provider \"demo\" {\n  retries = \"many\"\n}\n";
    let (validated, planned) = reported(&[("main.tf", main), ("override.tf", over)]);
    assert!(validated.is_empty() && planned.is_empty(), "{planned:?}");
}

#[test]
fn a_configuration_no_override_changes_is_validated_not_planned_again() {
    let main = format!("{RESOURCES}\nprovider \"demo\" {{\n  retries = \"many\"\n}}\n");
    let (validated, planned) = reported(&[("main.tf", &main)]);
    assert_eq!(
        validated,
        [
            "Incorrect attribute value type main.tf:8",
            "Missing required argument main.tf:7",
        ]
    );
    assert!(planned.is_empty(), "{planned:?}");
}
