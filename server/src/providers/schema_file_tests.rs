use super::*;
use crate::schema::ProviderBody;

const RECORDED: &str = include_str!("../../../fixtures/providers/schemas.json");
const AWS: &str = "registry.terraform.io/hashicorp/aws";

fn recorded() -> ProviderSchemas {
    read_schema_file(RECORDED).expect("the recorded file reads")
}

#[test]
fn attributes_keep_requirement_computed_and_type() {
    let schemas = recorded();
    let vpc = &schemas[AWS]
        .body(ProviderBody::Resource, "aws_vpc")
        .unwrap();
    assert_eq!(vpc.version, 1);
    let attr = |name: &str| {
        vpc.block
            .attributes
            .iter()
            .find(|a| &*a.name == name)
            .unwrap()
    };
    let cidr = attr("cidr_block");
    assert_eq!(
        (cidr.requirement, cidr.computed),
        (Requirement::Optional, true)
    );
    let arn = attr("arn");
    assert_eq!(
        (arn.requirement, arn.computed),
        (Requirement::Computed, true)
    );
    assert_eq!(&*attr("tags").ty, "map(string)");
    let sg = &schemas[AWS].resources["aws_security_group"].block;
    let ingress = sg
        .attributes
        .iter()
        .find(|a| &*a.name == "ingress")
        .unwrap();
    assert!(ingress
        .ty
        .starts_with("set(object({cidr_blocks=list(string), "));
}

#[test]
fn nested_blocks_keep_nesting_and_item_limits() {
    let schemas = recorded();
    let listener = &schemas[AWS].resources["aws_alb_listener"].block;
    let action = listener
        .blocks
        .iter()
        .find(|b| &*b.name == "default_action")
        .unwrap();
    assert_eq!(
        (action.nesting, action.min_items, action.max_items),
        (Nesting::List, 1, 0)
    );
    let forward = action
        .schema
        .blocks
        .iter()
        .find(|b| &*b.name == "forward")
        .unwrap();
    assert_eq!(forward.max_items, 1);
    let sg = &schemas[AWS].resources["aws_security_group"].block;
    assert_eq!(sg.blocks[0].nesting, Nesting::Single);
}

#[test]
fn deprecation_sensitivity_and_write_only_are_kept() {
    let schemas = recorded();
    let aws = &schemas[AWS];
    let cidr = &aws.resources["aws_route53_cidr_location"].block;
    assert!(cidr.attributes.iter().any(|a| a.deprecated.is_some()));
    assert!(aws.resources["aws_simpledb_domain"]
        .block
        .deprecated
        .is_some());
    let secret = &aws.resources["aws_secretsmanager_secret_version"].block;
    assert!(secret.attributes.iter().any(|a| a.write_only));
    let auth = &aws.ephemeral_resources["aws_eks_cluster_auth"].block;
    assert!(auth.attributes.iter().any(|a| a.sensitive));
    assert!(aws.data_sources.contains_key("aws_region"));
}

#[test]
fn the_builtin_provider_and_functions_are_read() {
    let schemas = recorded();
    let builtin = &schemas["terraform.io/builtin/terraform"];
    assert_eq!(*builtin.provider.block, BlockSchema::default());
    let data = &builtin.resources["terraform_data"].block;
    let names: Vec<&str> = data.attributes.iter().map(|a| &*a.name).collect();
    assert_eq!(names, ["id", "input", "output", "triggers_replace"]);
    assert_eq!(&*data.attributes[1].ty, "any");
    let remote = &builtin.data_sources["terraform_remote_state"].block;
    assert_eq!(remote.attributes[0].doc_kind, DescriptionKind::Markdown);
    let arn_build = schemas[AWS].functions["arn_build"].signature("provider::aws::arn_build");
    assert_eq!(arn_build.parameters.as_ref().map(Vec::len), Some(5));
    assert_eq!(arn_build.return_type, "string");
}

#[test]
fn writing_gives_back_the_recorded_file() {
    let original: Value = serde_json::from_str(RECORDED).unwrap();
    assert_eq!(write_schema_file(&recorded()), original);
}

#[test]
fn nested_attribute_types_imply_their_collection_type() {
    let text = r#"{"format_version": "1.2", "provider_schemas": {"example.com/a/b": {
        "provider": {"version": 0, "block": {"attributes": {"rules": {
            "nested_type": {"nesting_mode": "list", "attributes": {
                "name": {"type": "string", "required": true, "description_kind": "plain"},
                "port": {"type": "number", "optional": true, "description_kind": "plain"}}},
            "optional": true, "description_kind": "plain"}}, "description_kind": "plain"}}}}}"#;
    let schemas = read_schema_file(text).unwrap();
    let rules = &schemas["example.com/a/b"].provider.block.attributes[0];
    assert_eq!(&*rules.ty, "list(object({name=string, port=number}))");
    assert_eq!(rules.nested.as_ref().unwrap().attributes.len(), 2);
    let written = write_schema_file(&schemas);
    assert_eq!(read_schema_file(&written.to_string()).unwrap(), schemas);
}

#[test]
fn wrong_shapes_are_errors_with_their_path() {
    assert!(matches!(
        read_schema_file("{"),
        Err(SchemaFileError::Json(_))
    ));
    assert_eq!(
        read_schema_file(r#"{"format_version": "2.0"}"#),
        Err(SchemaFileError::FormatVersion("2.0".into()))
    );
    let bad_type = r#"{"format_version": "1.0", "provider_schemas": {"p": {"resource_schemas":
        {"t": {"version": 0, "block": {"attributes": {"a": {"type": ["list"]}}}}}}}}"#;
    assert_eq!(
        read_schema_file(bad_type).unwrap_err().to_string(),
        r#"provider_schemas["p"].resource_schemas["t"].block.attributes["a"].type: expected a type"#
    );
    let bad_nesting = r#"{"format_version": "1.0", "provider_schemas": {"p": {"provider":
        {"block": {"block_types": {"b": {"nesting_mode": "bag", "block": {}}}}}}}}"#;
    assert!(read_schema_file(bad_nesting)
        .unwrap_err()
        .to_string()
        .ends_with("nesting_mode: expected a nesting mode"));
}
