//! The renderer on values of typed attributes and nested blocks, which the recorded
//! fixtures (all on `terraform_data`, whose arguments are of dynamic type) do not reach;
//! the expected texts follow Terraform's renderer (`computed/renderers`).

use serde_json::{json, Value as Json};

use super::diff::Opts;
use super::differ::{block, of_type, Shape};
use super::render::render;
use super::structured::{Change, ReplacePaths};
use crate::schema::ValueType;

fn change(before: Json, after: Json) -> Change {
    Change {
        before_explicit: true,
        after_explicit: true,
        before,
        after,
        unknown: json!(false),
        non_legacy: true,
        ..Change::default()
    }
}

fn typed(c: Change, ty: ValueType) -> String {
    render(&of_type(c, &ty), 0, Opts::default())
}

#[test]
fn a_map_quotes_and_aligns_its_keys_and_counts_the_unchanged_ones() {
    let c = change(
        json!({"a": "1", "bb": "2", "c": "3"}),
        json!({"a": "1", "bb": "x", "d": "4"}),
    );
    assert_eq!(
        typed(c, ValueType::Map(Box::new(ValueType::String))),
        "{\n      ~ \"bb\" = \"2\" -> \"x\"\n      - \"c\"  = \"3\" -> null\n      + \"d\"  = \"4\"\n        # (1 unchanged element hidden)\n    }"
    );
}

#[test]
fn a_set_removes_and_adds_elements_and_counts_the_kept_ones() {
    let c = change(json!(["a", "b"]), json!(["b", "c"]));
    assert_eq!(
        typed(c, ValueType::Set(Box::new(ValueType::String))),
        "[\n      - \"a\",\n      + \"c\",\n        # (1 unchanged element hidden)\n    ]"
    );
}

#[test]
fn a_replace_path_ending_at_a_value_forces_replacement() {
    let mut c = change(json!("a"), json!("b"));
    c.replace = ReplacePaths::parse(Some(&json!([[]])));
    assert_eq!(
        typed(c, ValueType::String),
        "\"a\" -> \"b\" # forces replacement"
    );
}

#[test]
fn a_legacy_schema_shows_an_empty_string_as_null() {
    // As a block's attribute: neither side explicit.
    let mut c = change(json!(""), json!("x"));
    (c.before_explicit, c.after_explicit, c.non_legacy) = (false, false, false);
    assert_eq!(typed(c, ValueType::String), "\"x\"");
}

#[test]
fn changed_blocks_follow_the_attributes_and_unchanged_ones_are_counted() {
    let c = change(
        json!({"id": "x", "rule": [{"port": 1}, {"port": 2}]}),
        json!({"id": "x", "rule": [{"port": 1}, {"port": 3}]}),
    );
    let blocks = ["rule".to_string()];
    assert_eq!(
        render(&block(c, Shape::Inferred(&blocks)), 0, Opts::default()),
        "{\n        id = \"x\"\n\n      ~ rule {\n          ~ port = 2 -> 3\n        }\n\n        # (1 unchanged block hidden)\n    }"
    );
}
