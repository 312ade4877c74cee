//! Provider-defined functions in the validate walk, with the AWS provider's recorded
//! functions (`fixtures/validate-providers/schemas.json`) and without any schema; what
//! Terraform reports for each is recorded in `fixtures/validate-providers/aws-function*`.

use super::*;
use crate::check::functions::call_problem;
use crate::check::test_support::merged;
use crate::check::walk_scope::WalkScope;
use crate::eval::{evaluate, Value};
use crate::schema::{LoadedProviderSchemas, NoProviderSchemas};
use crate::types::Type;

const REQUIRED: &str = r#"
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
"#;

fn aws() -> LoadedProviderSchemas {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/validate-providers/schemas.json"
    );
    crate::providers::load_schema_files(&[path.into()]).expect("schema file")
}

/// The problem `call_problem` finds in the value of `local.x`, written `expr`.
fn problem(
    expr: &str,
    schemas: &dyn ProviderSchemaSource,
    dialect: Dialect,
) -> Option<(&'static str, String)> {
    let m = merged(
        &format!("{REQUIRED}\nlocals {{\n  x = {expr}\n}}\n"),
        dialect,
    );
    let mut found = None;
    m.locals["x"].value.expr().walk(&mut |e| {
        if found.is_none() {
            found = call_problem(&m, schemas, e).map(|(_, summary, detail)| (summary, detail));
        }
    });
    found
}

#[test]
fn names_are_checked_against_the_required_providers_functions() {
    let aws = aws();
    let unknown = |expr: &str| problem(expr, &aws, Dialect::Terraform);
    assert_eq!(unknown(r#"provider::aws::arn_parse("x")"#), None);
    assert_eq!(
        unknown("provider::aws::nope()"),
        Some((
            "Unknown provider function",
            "The function \"nope\" is not available from the provider \"aws\".".into()
        ))
    );
    let (_, detail) = unknown("provider::awscc::arn_parse()").unwrap();
    assert!(detail.contains("Ensure that provider name \"awscc\" is declared"));
    assert_eq!(
        unknown(r#"arn_parse("x")"#).map(|(_, d)| d),
        Some(
            "There is no function named \"arn_parse\". Did you mean \"provider::aws::arn_parse\"?"
                .into()
        )
    );
    assert_eq!(
        unknown(r#"provider::aws::arn_parse("a", "b")"#).map(|(s, _)| s),
        Some("Too many function arguments")
    );
    assert_eq!(
        unknown("provider::aws::arn_build()").map(|(_, d)| d),
        Some("Function \"provider::aws::arn_build\" expects 5 argument(s). Missing value for \"partition\".".into())
    );
}

#[test]
fn without_the_providers_schema_only_what_needs_none_is_reported() {
    let none = |expr: &str| problem(expr, &NoProviderSchemas, Dialect::Terraform);
    assert_eq!(none("provider::aws::nope()"), None);
    assert_eq!(none(r#"provider::aws::arn_parse("a", "b")"#), None);
    // A provider the module does not require offers nothing, whatever its schema.
    let (summary, _) = none("provider::awscc::arn_parse()").unwrap();
    assert_eq!(summary, "Unknown provider function");
    assert_eq!(
        none("core::nope()").map(|(_, d)| d),
        Some("The function namespace \"core\" is not valid. Provider function calls must use the \"provider::\" namespace prefix.".into())
    );
    assert_eq!(none("core::upper(\"x\")"), None);
}

#[test]
fn opentofu_namespaced_names_are_left_alone() {
    let aws = aws();
    assert_eq!(
        problem("provider::aws::nope()", &aws, Dialect::OpenTofu),
        None
    );
}

/// The value of `local.x`, written `expr`, in the validate walk.
fn value(expr: &str, schemas: &dyn ProviderSchemaSource) -> Result<Value, String> {
    let m = merged(
        &format!("{REQUIRED}\nlocals {{\n  x = {expr}\n}}\n"),
        Dialect::Terraform,
    );
    let scope = WalkScope::new(&m, schemas);
    evaluate(m.locals["x"].value.expr(), &scope).map_err(|e| format!("{}: {}", e.summary, e.detail))
}

#[test]
fn a_call_is_an_unknown_value_of_the_return_type() {
    let aws = aws();
    let Ok(Value::UnknownOf(Type::Object(_), _)) = value(r#"provider::aws::arn_parse("x")"#, &aws)
    else {
        panic!("an unknown object");
    };
    assert_eq!(
        value(r#"provider::aws::arn_build(1, 2, 3, 4, 5)"#, &aws),
        Ok(Value::UnknownOf(
            Type::String,
            crate::eval::Refinement::NONE
        ))
    );
    assert_eq!(
        value(r#"provider::aws::arn_parse("x").nope"#, &aws),
        Err("Unsupported attribute: This object does not have an attribute named \"nope\".".into())
    );
    assert_eq!(
        value("provider::aws::arn_parse({})", &aws),
        Err(
            "Invalid function argument: Invalid value for \"arn\" parameter: string required."
                .into()
        )
    );
    assert_eq!(
        value("provider::aws::arn_parse(null)", &aws),
        Err("Invalid function argument: Invalid value for \"arn\" parameter: argument must not be null.".into())
    );
    assert_eq!(
        value(r#"provider::aws::arn_build(["a", "b"]...)"#, &aws),
        Err("Not enough function arguments: Function \"provider::aws::arn_build\" expects 5 argument(s). Missing value for \"region\".".into())
    );
    // Without a signature, nothing is known of the call.
    assert_eq!(
        value("provider::aws::arn_parse({})", &NoProviderSchemas),
        Ok(Value::Unknown)
    );
    assert_eq!(value("provider::aws::nope()", &aws), Ok(Value::Unknown));
}
