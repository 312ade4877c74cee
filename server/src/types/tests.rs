//! The verified examples of spec §2.5.3, in the wording of go-cty 1.16.3 and later.

use super::*;
use crate::eval::constant;
use crate::module::Dialect;
use crate::syntax::{parse, Syntax};
use crate::types::parse_type;
use serde_json::json;

fn expr(src: &str) -> crate::syntax::Expr {
    let file = parse(&format!("x = {src}\n"), Syntax::Native, None);
    assert!(file.diagnostics.is_empty(), "{src}: {:?}", file.diagnostics);
    file.body.attributes[0].expr.clone()
}

fn check(ty: &str, default: &str) -> Result<Value, String> {
    let ty = parse_type(&expr(ty), Dialect::Terraform, true).map_err(|e| e.detail)?;
    let value = constant(&expr(default)).expect("constant default");
    convert(&apply_defaults(&value, &ty), &ty).map_err(|e| e.with_path())
}

#[test]
fn verified_examples_convert_or_fail_as_terraform_says() {
    let fails = [
        ("list(string)", "\"hello\"", "list of string required"),
        ("bool", "1", "bool required"),
        ("bool", "\"yes\"", "a bool is required"),
        (
            "bool",
            "\"True\"",
            "a bool is required; to convert from string, use lowercase \"true\"",
        ),
        ("number", "true", "number required"),
        ("list(number)", "[1, true]", "element 1: number required"),
        (
            "object({a=string,b=number})",
            "{a=\"x\"}",
            "attribute \"b\" is required",
        ),
        (
            "map(string)",
            "{a=\"x\", b=[1]}",
            "element \"b\": string required",
        ),
        (
            "list(any)",
            "[1,true]",
            "all list elements must have the same type",
        ),
        (
            "tuple([string,number])",
            "[\"a\",\"b\"]",
            "[1]: a number is required",
        ),
        ("string", "{a=1}", "string required"),
        (
            "list(object({a=number}))",
            "[{a=\"nope\"}]",
            "[0].a: a number is required",
        ),
        (
            "map(number)",
            "{a=\"1\", b=\"z\"}",
            "[\"b\"]: a number is required",
        ),
        (
            "map(object({field = bool}))",
            "{\"mykey\" = {field = \"not a bool\"}}",
            "[\"mykey\"].field: a bool is required",
        ),
    ];
    for (ty, default, message) in fails {
        assert_eq!(
            check(ty, default),
            Err(message.to_string()),
            "{ty} <- {default}"
        );
    }
    let passes = [
        (
            "object({a=string,b=optional(number,5)})",
            "{a=\"x\"}",
            json!({"a": "x", "b": 5}),
        ),
        ("set(string)", "[\"a\",\"a\"]", json!(["a"])),
        ("list", "[1,\"a\"]", json!(["1", "a"])),
        ("map(any)", "{a=1,b=\"x\"}", json!({"a": "1", "b": "x"})),
        (
            "object({a=string})",
            "{a=\"x\", extra=1}",
            json!({"a": "x"}),
        ),
        ("any", "[1,\"a\"]", json!([1, "a"])),
        ("number", "\"1e3\"", json!(1000)),
        ("string", "2", json!("2")),
        ("list(string)", "null", Value::Null),
    ];
    for (ty, default, value) in passes {
        assert_eq!(check(ty, default), Ok(value), "{ty} <- {default}");
    }
}

#[test]
fn type_expression_errors_have_terraforms_details() {
    let err = |src: &str| parse_type(&expr(src), Dialect::Terraform, true).unwrap_err();
    assert_eq!(
        err("notatype").detail,
        "The keyword \"notatype\" is not a valid type specification."
    );
    assert_eq!(
        err("set").detail,
        "The set type constructor requires one argument specifying the element type."
    );
    assert_eq!(
        err("string(1)").detail,
        "Primitive type keyword \"string\" does not expect arguments."
    );
    assert_eq!(
        err("optional(string)").detail,
        "Keyword \"optional\" is valid only as a modifier for object type attributes."
    );
    assert_eq!(
        err("frob(string)").detail,
        "Keyword \"frob\" is not a valid type constructor."
    );
    let quoted = err("\"string\"");
    assert_eq!(quoted.summary, "Invalid quoted type constraints");
    assert!(quoted
        .detail
        .ends_with("Remove the quotes around \"string\"."));
    assert!(err("\"list\"").detail.ends_with(
        "write list(string) instead to explicitly indicate that the list elements are strings."
    ));
    assert_eq!(
        err("\"list(string)\"").summary,
        "Invalid legacy variable type hint"
    );
    let bad_default = err("object({a = optional(number, \"x\")})");
    assert_eq!(
        bad_default.summary,
        "Invalid default value for optional attribute"
    );
    assert_eq!(
        bad_default.detail,
        "This default value is not compatible with the attribute's type constraint: a number is required."
    );
}
