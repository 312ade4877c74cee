//! Planned objects from a provider schema, for resource types the hand knowledge of
//! `providers.rs` does not cover, and for data sources read during apply: what a
//! provider's PlanResourceChange (or Terraform's planned data object) gives that the
//! schema can say. On create, every attribute the schema declares is present: the
//! configured value, else unknown (`(known after apply)`) when the provider computes it,
//! else null; nested blocks are lists (list and set nesting, empty when none is written),
//! one object or null (single nesting), or one object always (group nesting). On update,
//! an attribute the configuration leaves null keeps its prior value (for optional and
//! computed ones the provider's rule; for the others the schema does not give the
//! provider's default, so the prior value stands as it does without a schema), and a
//! computed attribute of a nested block keeps the value of the prior block at its
//! position, unknown when there is none.
//!
//! What no schema says stays the provider's: defaults of optional arguments, values its
//! plan customisations set (AWS's `tags_all`), computed nested blocks, and which changes
//! force replacement.

use std::collections::BTreeMap;

use crate::eval::Value;
use crate::schema::{AttributeSchema, BlockSchema, Nesting, ValueType};

/// The object planned for a create, from the evaluated configuration `config`.
pub fn planned_create(schema: &BlockSchema, config: &Value) -> Value {
    planned(schema, config, None)
}

/// The object planned for an update of `prior` to `config`.
pub fn planned_update(schema: &BlockSchema, prior: &Value, config: &Value) -> Value {
    planned(schema, config, Some(prior))
}

/// The names of the schema's nested block types.
pub fn block_names(schema: &BlockSchema) -> Vec<String> {
    schema.blocks.iter().map(|b| b.name.to_string()).collect()
}

fn planned(schema: &BlockSchema, config: &Value, prior: Option<&Value>) -> Value {
    let empty = BTreeMap::new();
    let configured = config.attributes().unwrap_or(&empty);
    let prior_attrs = prior.and_then(Value::attributes);
    // Attributes of the prior object the schema does not declare stay as they are.
    let mut out = prior_attrs.cloned().unwrap_or_default();
    for a in &schema.attributes {
        let value = configured.get(&*a.name).cloned().unwrap_or(Value::Null);
        let value = match (value.is_null(), prior_attrs) {
            (true, Some(p)) => p.get(&*a.name).cloned().unwrap_or(Value::Null),
            (true, None) if a.computed => Value::Unknown,
            _ => with_object_attributes(a, value),
        };
        out.insert(a.name.to_string(), value);
    }
    for b in &schema.blocks {
        let written = configured.get(&*b.name);
        let before = prior_attrs.and_then(|p| p.get(&*b.name));
        let value = match written {
            Some(Value::Unknown | Value::UnknownOf(..)) => Value::Unknown,
            _ => {
                let items = block_items(written);
                let prior_items = block_items(before);
                let planned_items: Vec<Value> = items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| match prior {
                        Some(_) => planned(&b.schema, item, Some(prior_item(prior_items, i))),
                        None => planned(&b.schema, item, None),
                    })
                    .collect();
                match b.nesting {
                    Nesting::List | Nesting::Set | Nesting::Map => {
                        Value::List(planned_items.into())
                    }
                    Nesting::Single => planned_items.into_iter().next().unwrap_or(Value::Null),
                    Nesting::Group => planned_items.into_iter().next().unwrap_or_else(|| {
                        planned(&b.schema, &Value::Object(BTreeMap::new().into()), None)
                    }),
                }
            }
        };
        out.insert(b.name.to_string(), value);
    }
    Value::Object(out.into())
}

/// The blocks a value holds: a list's objects, or one object (a single block, or a block
/// written as a JSON object).
fn block_items(written: Option<&Value>) -> &[Value] {
    match written {
        Some(one @ (Value::Object(_) | Value::Map(_))) => std::slice::from_ref(one),
        Some(v) => v.elements().unwrap_or_default(),
        None => &[],
    }
}

/// The prior block at position `i`, or an object of unknowns' stand-in: a new block's
/// computed attributes are unknown.
fn prior_item(items: &[Value], i: usize) -> &Value {
    static NEW: Value = Value::Null;
    items.get(i).unwrap_or(&NEW)
}

/// An attribute that accepts blocks (`ingress`) written as blocks holds objects with only
/// the arguments written; Terraform gives each object every attribute of its type, null
/// when not written.
fn with_object_attributes(a: &AttributeSchema, value: Value) -> Value {
    let Some(ValueType::List(element) | ValueType::Set(element)) = &a.value_type else {
        return value;
    };
    let ValueType::Object { attributes, .. } = &**element else {
        return value;
    };
    let fill = |item: Value| match item {
        Value::Object(mut map) => {
            for name in attributes.keys() {
                map.entry(name.to_string()).or_insert(Value::Null);
            }
            Value::Object(map)
        }
        other => other,
    };
    match value {
        Value::List(items) => Value::List(items.into_iter().map(fill).collect()),
        Value::Tuple(items) => Value::Tuple(items.into_iter().map(fill).collect()),
        Value::Set(items) => Value::Set(items.into_iter().map(fill).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{NestedBlock, Requirement};
    use std::sync::Arc;

    fn attribute(name: &str, requirement: Requirement, computed: bool) -> AttributeSchema {
        AttributeSchema {
            name: name.into(),
            requirement,
            form: Default::default(),
            ty: "string".into(),
            doc: "".into(),
            dialects: Default::default(),
            deprecated: None,
            doc_kind: Default::default(),
            computed,
            sensitive: false,
            write_only: false,
            value_type: Some(ValueType::String),
            nested: None,
        }
    }

    fn schema() -> BlockSchema {
        let device = BlockSchema {
            attributes: vec![
                attribute("size", Requirement::Optional, false),
                attribute("volume_id", Requirement::Computed, true),
            ],
            ..Default::default()
        };
        BlockSchema {
            attributes: vec![
                attribute("id", Requirement::Computed, true),
                attribute("name", Requirement::Required, false),
                attribute("zone", Requirement::Optional, true),
                attribute("note", Requirement::Optional, false),
            ],
            blocks: vec![
                NestedBlock {
                    name: "device".into(),
                    schema: Arc::new(device),
                    nesting: Nesting::List,
                    role: Default::default(),
                    dialects: Default::default(),
                    duplicate: None,
                    min_items: 0,
                    max_items: 0,
                },
                NestedBlock {
                    name: "timeouts".into(),
                    schema: Arc::new(BlockSchema::default()),
                    nesting: Nesting::Single,
                    role: Default::default(),
                    dialects: Default::default(),
                    duplicate: None,
                    min_items: 0,
                    max_items: 0,
                },
            ],
            ..Default::default()
        }
    }

    fn object(pairs: &[(&str, Value)]) -> Value {
        Value::Object(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }

    #[test]
    fn a_create_has_every_attribute_computed_ones_unknown() {
        let config = object(&[("name", Value::string("a"))]);
        let planned = planned_create(&schema(), &config);
        assert_eq!(
            planned,
            object(&[
                ("device", Value::List(Vec::new().into())),
                ("id", Value::Unknown),
                ("name", Value::string("a")),
                ("note", Value::Null),
                ("timeouts", Value::Null),
                ("zone", Value::Unknown),
            ])
        );
    }

    #[test]
    fn a_block_written_as_one_json_object_is_one_block() {
        let config = object(&[
            ("name", Value::string("a")),
            ("device", object(&[("size", Value::string("8"))])),
        ]);
        let planned = planned_create(&schema(), &config);
        assert_eq!(
            planned.attributes().unwrap()["device"],
            Value::List(
                vec![object(&[
                    ("size", Value::string("8")),
                    ("volume_id", Value::Unknown),
                ])]
                .into()
            )
        );
    }

    #[test]
    fn an_update_keeps_prior_values_of_attributes_left_out() {
        let prior = object(&[
            ("id", Value::string("i-1")),
            ("name", Value::string("a")),
            ("zone", Value::string("z1")),
            (
                "device",
                Value::List(
                    vec![object(&[
                        ("size", Value::string("8")),
                        ("volume_id", Value::string("v-1")),
                    ])]
                    .into(),
                ),
            ),
        ]);
        let config = object(&[
            ("name", Value::string("b")),
            (
                "device",
                Value::List(
                    vec![
                        object(&[("size", Value::string("9"))]),
                        object(&[("size", Value::string("1"))]),
                    ]
                    .into(),
                ),
            ),
        ]);
        let planned = planned_update(&schema(), &prior, &config);
        let attrs = planned.attributes().unwrap();
        assert_eq!(attrs["id"], Value::string("i-1"));
        assert_eq!(attrs["zone"], Value::string("z1"));
        assert_eq!(attrs["name"], Value::string("b"));
        assert_eq!(
            attrs["device"],
            Value::List(
                vec![
                    object(&[
                        ("size", Value::string("9")),
                        ("volume_id", Value::string("v-1"))
                    ]),
                    object(&[("size", Value::string("1")), ("volume_id", Value::Unknown)]),
                ]
                .into()
            )
        );
    }
}
