//! Protocol 6 responses (nested attributes) read as a schema file with the same content
//! is read; protocol 5 is proven end to end against the AWS provider (`tests/providers.rs`).

use std::collections::HashMap;

use super::convert::provider_schema;
use super::messages::v6;
use crate::providers::read_schema_file;

fn attribute(name: &str, ty: &str, required: bool) -> v6::Attribute {
    v6::Attribute {
        name: name.into(),
        r#type: ty.as_bytes().to_vec(),
        required,
        optional: !required,
        ..Default::default()
    }
}

#[test]
fn protocol_6_nested_attributes_read_as_the_json_format_says_them() {
    let rules = v6::Attribute {
        name: "rules".into(),
        nested_type: Some(v6::Object {
            attributes: vec![
                attribute("port", r#""number""#, false),
                attribute("name", r#""string""#, true),
            ],
            nesting: 2,
        }),
        optional: true,
        write_only: true,
        ..Default::default()
    };
    let block = v6::Block {
        attributes: vec![rules, attribute("id", r#""string""#, false)],
        block_types: vec![v6::NestedBlock {
            type_name: "tags".into(),
            block: Some(v6::Block::default()),
            nesting: 4,
            min_items: 0,
            max_items: 0,
        }],
        ..Default::default()
    };
    let response = v6::GetProviderSchemaResponse {
        resource_schemas: HashMap::from([(
            "x_thing".to_string(),
            v6::Schema {
                version: 2,
                block: Some(block),
            },
        )]),
        ..Default::default()
    };
    let encoded = prost::Message::encode_to_vec(&response);
    let decoded: v6::GetProviderSchemaResponse = prost::Message::decode(&*encoded).unwrap();
    let from_protocol = provider_schema(&decoded).unwrap();
    let json = r#"{"format_version": "1.0", "provider_schemas": {"p": {
        "provider": {"version": 0},
        "resource_schemas": {"x_thing": {"version": 2, "block": {
            "attributes": {
                "id": {"type": "string", "optional": true},
                "rules": {"nested_type": {"nesting_mode": "list", "attributes": {
                    "name": {"type": "string", "required": true},
                    "port": {"type": "number", "optional": true}}},
                  "optional": true, "write_only": true}},
            "block_types": {"tags": {"nesting_mode": "map", "block": {}}}}}}}}}"#;
    let from_file = read_schema_file(json).unwrap().remove("p").unwrap();
    assert_eq!(from_protocol, from_file);
    let rules = &from_protocol.resources["x_thing"].block.attributes[1];
    assert_eq!(&*rules.ty, "list(object({name=string, port=number}))");
}
