//! The cursor contexts of texts being typed, `|` marking the cursor.

use super::*;
use crate::syntax::{parse, Syntax};

fn at(marked: &str) -> (Context, String) {
    let cursor = marked.find('|').unwrap();
    let text = marked.replacen('|', "", 1);
    let file = parse(&text, Syntax::Native, None);
    (context_at(&text, &file, cursor), text)
}

fn kinds(c: &Context) -> Vec<&str> {
    c.blocks.iter().map(|b| &*b.kind).collect()
}

fn value(c: &Context) -> (&str, &ValuePlace) {
    match &c.position {
        Position::Value { attribute, place } => (attribute, place),
        other => panic!("not a value: {other:?}"),
    }
}

#[test]
fn the_top_level_and_a_name_being_typed() {
    let (c, _) = at("|");
    assert_eq!(c.position, Position::Body);
    assert!(c.blocks.is_empty());
    let (c, text) = at("variable \"a\" {}\nres|ource");
    assert_eq!(c.position, Position::Body);
    assert_eq!(&text[c.prefix.clone()], "resource");
    assert_eq!(c.typed(&text, 19), "res");
}

#[test]
fn nested_bodies_are_followed() {
    let (c, _) =
        at("resource \"aws_instance\" \"web\" {\n  ami = \"x\"\n  lifecycle {\n    cr|\n  }\n}\n");
    assert_eq!(c.position, Position::Body);
    assert_eq!(kinds(&c), ["resource", "lifecycle"]);
    assert_eq!(c.blocks[0].labels, ["aws_instance", "web"]);
    let (c, _) = at("resource \"a\" \"b\" {\n  x = {\n    k = 1\n  }\n  lifecycle {}\n  |\n}\n");
    assert_eq!(c.position, Position::Body);
    assert_eq!(kinds(&c), ["resource"]);
}

#[test]
fn labels_quoted_and_not() {
    let (c, text) = at("resource \"aws_in|\" \"x\" {}");
    assert_eq!(
        c.position,
        Position::Label {
            kind: "resource".into(),
            index: 0,
            before: vec![],
            quoted: true
        }
    );
    assert_eq!(&text[c.prefix.clone()], "aws_in");
    let (c, _) = at("resource \"aws_instance\" |");
    assert_eq!(
        c.position,
        Position::Label {
            kind: "resource".into(),
            index: 1,
            before: vec!["aws_instance".into()],
            quoted: false
        }
    );
}

#[test]
fn values_with_references_calls_and_templates() {
    let (c, text) = at("locals {\n  a = var.na|\n}\n");
    let (attribute, place) = value(&c);
    assert_eq!(attribute, "a");
    assert_eq!(place.path, ["var"]);
    assert!(!place.whole);
    assert_eq!(&text[c.prefix.clone()], "na");
    let (c, _) = at("locals {\n  a = aws_instance.web[0].|\n}\n");
    assert_eq!(value(&c).1.path, ["aws_instance", "web"]);
    let (c, _) = at("locals {\n  a = \"x-${module.m.|}\"\n}\n");
    let place = value(&c).1;
    assert_eq!(place.path, ["module", "m"]);
    assert!(place.in_template);
    let (c, _) = at("locals {\n  a = join(\",\", [x, y], upper(|\n");
    let call = value(&c).1.call.clone().unwrap();
    assert_eq!((call.name.as_str(), call.argument), ("upper", 0));
    let (c, _) = at("locals {\n  a = join(\",\", |\n");
    let call = value(&c).1.call.clone().unwrap();
    assert_eq!((call.name.as_str(), call.argument), ("join", 1));
    let (c, _) = at("locals {\n  a = provider::aws::arn_parse(|)\n}");
    assert_eq!(
        value(&c).1.call.clone().unwrap().name,
        "provider::aws::arn_parse"
    );
    let (c, _) = at("provisioner \"x\" {\n  when = des|\n}");
    assert!(value(&c).1.whole);
}

#[test]
fn the_end_of_a_value_returns_to_the_body() {
    let (c, _) = at("resource \"a\" \"b\" {\n  count = 1\n  |\n}");
    assert_eq!(c.position, Position::Body);
    let (c, _) = at("resource \"a\" \"b\" {\n  tags = [\n    1,\n    |");
    assert!(matches!(c.position, Position::Value { .. }));
    let (c, _) = at("resource \"a\" \"b\" {\n  x = <<EOT\n  ${|\nEOT\n}");
    assert!(value(&c).1.in_template);
}

#[test]
fn nothing_in_comments_and_string_text() {
    assert_eq!(at("# var.|").0.position, Position::Nothing);
    assert_eq!(at("a = \"var.|\"").0.position, Position::Nothing);
}
