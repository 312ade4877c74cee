//! Tests of what Strata knows of provider schemas (`providers.rs`): prior objects, proposals, replacement.

use super::*;

fn obj(pairs: &[(&str, Value)]) -> Value {
    Value::Object(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

#[test]
fn terraform_data_input_updates_and_triggers_replace() {
    let prior = obj(&[
        ("id", Value::string("x")),
        ("input", Value::string("a")),
        ("output", Value::string("a")),
        ("triggers_replace", Value::Null),
    ]);
    let same = propose(
        "terraform_data",
        Some(&prior),
        &obj(&[("input", Value::string("a"))]),
        &[],
        None,
    );
    assert!(!same.changed);
    let update = propose(
        "terraform_data",
        Some(&prior),
        &obj(&[("input", Value::string("b"))]),
        &[],
        None,
    );
    assert!(update.changed && update.replace_paths.is_empty());
    assert_eq!(update.after.attributes().unwrap()["output"], Value::Unknown);
    let replace = propose(
        "terraform_data",
        Some(&prior),
        &obj(&[
            ("input", Value::string("a")),
            ("triggers_replace", Value::string("t")),
        ]),
        &[],
        None,
    );
    assert_eq!(replace.replace_paths, ["triggers_replace"]);
    let create = propose(
        "terraform_data",
        None,
        &obj(&[("input", Value::string("a"))]),
        &[],
        None,
    );
    assert_eq!(
        create.after.attributes().unwrap()["id"],
        not_null_unknown(Type::String)
    );
}

#[test]
fn terraform_data_compares_arguments_exactly_and_a_deleted_one_is_null() {
    let prior = |input: Value| {
        obj(&[
            ("id", Value::string("x")),
            ("input", input.clone()),
            ("output", input),
            ("triggers_replace", Value::string("t")),
        ])
    };
    let plan = |before: Value, config: &[(&str, Value)]| {
        propose(
            "terraform_data",
            Some(&prior(before)),
            &obj(config),
            &[],
            None,
        )
    };
    let kept = ("triggers_replace", Value::string("t"));
    let deleted = plan(Value::string("a"), std::slice::from_ref(&kept));
    assert!(deleted.changed && deleted.replace_paths.is_empty());
    assert_eq!(deleted.after.attributes().unwrap()["input"], Value::Null);
    assert_eq!(
        deleted.after.attributes().unwrap()["output"],
        Value::Unknown
    );
    let retyped = plan(
        Value::string("1"),
        &[kept.clone(), ("input", Value::Number(1.0))],
    );
    assert!(retyped.changed);
    let emptied = plan(Value::Tuple(Vec::new().into()), std::slice::from_ref(&kept));
    assert!(emptied.changed);
    let same = plan(
        Value::Tuple(Vec::new().into()),
        &[kept, ("input", Value::Tuple(Vec::new().into()))],
    );
    assert!(!same.changed);
    let unreplaced = plan(Value::Null, &[]);
    assert_eq!(unreplaced.replace_paths, ["triggers_replace"]);
}

#[test]
fn a_dynamic_attribute_in_state_keeps_its_type() {
    let stored = serde_json::json!({
        "id": "x",
        "input": {"value": ["a"], "type": ["list", "string"]},
        "output": {"value": {"a": "x"}, "type": ["map", "string"]},
    });
    let decoded = decode_prior("terraform_data", &stored);
    let attrs = decoded.attributes().unwrap();
    assert_eq!(attrs["input"], Value::List(vec![Value::string("a")].into()));
    assert!(matches!(attrs["output"], Value::Map(_)));
}

#[test]
fn unknown_types_update_with_a_caveat_and_keep_computed_values() {
    let prior = obj(&[
        ("id", Value::string("i-1")),
        ("ami", Value::string("a")),
        ("port", Value::Number(80.0)),
    ]);
    let same = propose(
        "aws_instance",
        Some(&prior),
        &obj(&[("ami", Value::string("a")), ("port", Value::string("80"))]),
        &[],
        None,
    );
    assert!(!same.changed && same.caveat.is_none());
    let changed = propose(
        "aws_instance",
        Some(&prior),
        &obj(&[("ami", Value::string("b"))]),
        &[],
        None,
    );
    assert!(changed.changed);
    assert_eq!(changed.caveat, Some(UNKNOWN_PROVIDER_CAVEAT));
    assert_eq!(
        changed.after.attributes().unwrap()["id"],
        Value::string("i-1")
    );
}

#[test]
fn every_random_argument_forces_replacement() {
    let prior = obj(&[
        ("id", Value::string("x")),
        ("length", Value::Number(8.0)),
        ("result", Value::string("abcdefgh")),
    ]);
    let p = propose(
        "random_string",
        Some(&prior),
        &obj(&[("length", Value::Number(9.0))]),
        &[],
        None,
    );
    assert_eq!(p.replace_paths, ["length"]);
}
