//! The built-in functions of the language: every signature of Terraform 1.11
//! (`functions.json`, recorded from `terraform metadata functions -json` by
//! `scripts/record-functions.py`: names, parameters, the variadic parameter, return types;
//! the `core::` forms included), and the few functions only OpenTofu 1.12 has (its
//! `internal/lang/functions.go`), whose signatures Strata does not record.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde_json::Value;

use super::{Dialect, Dialects, ValueType};

/// One parameter of a function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parameter {
    /// Its name, as signatures show it.
    pub name: String,
    /// Its type as Terraform writes types: `string`, `list(bool)`, `any`.
    pub ty: String,
    /// Whether null is accepted.
    pub nullable: bool,
}

/// A built-in function's signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// Its name (`upper`, `core::upper`).
    pub name: String,
    /// Its fixed parameters, in order; `None` where Strata does not know them.
    pub parameters: Option<Vec<Parameter>>,
    /// The parameter that takes any number of further arguments.
    pub variadic: Option<Parameter>,
    /// Its result type.
    pub return_type: String,
    /// Which dialects have it.
    pub dialects: Dialects,
}

/// Functions only OpenTofu has.
const OPENTOFU_ONLY: &[&str] = &["base64gunzip", "cidrcontains", "urldecode"];

/// The function called `name` in `dialect`, if there is one.
pub fn function(name: &str, dialect: Dialect) -> Option<&'static Function> {
    LIBRARY.get(name).filter(|f| f.dialects.includes(dialect))
}

/// Every function of `dialect`, by name.
pub fn functions(dialect: Dialect) -> impl Iterator<Item = &'static Function> {
    LIBRARY
        .values()
        .filter(move |f| f.dialects.includes(dialect))
}

static LIBRARY: LazyLock<BTreeMap<String, Function>> = LazyLock::new(|| {
    let recorded: Value =
        serde_json::from_str(include_str!("functions.json")).unwrap_or(Value::Null);
    let mut all = BTreeMap::new();
    if let Some(signatures) = recorded["function_signatures"].as_object() {
        for (name, s) in signatures {
            let parameters = s["parameters"]
                .as_array()
                .map(|ps| ps.iter().map(parameter).collect())
                .unwrap_or_default();
            let f = Function {
                name: name.clone(),
                parameters: Some(parameters),
                variadic: s.get("variadic_parameter").map(parameter),
                return_type: type_name(&s["return_type"]),
                dialects: Dialects::Both,
            };
            all.insert(name.clone(), f);
        }
    }
    for name in OPENTOFU_ONLY {
        for full in [name.to_string(), format!("core::{name}")] {
            all.insert(
                full.clone(),
                Function {
                    name: full,
                    parameters: None,
                    variadic: None,
                    return_type: "any".into(),
                    dialects: Dialects::OpenTofu,
                },
            );
        }
    }
    all
});

fn parameter(p: &Value) -> Parameter {
    Parameter {
        name: p["name"].as_str().unwrap_or_default().to_string(),
        ty: type_name(&p["type"]),
        nullable: p["is_nullable"].as_bool().unwrap_or(false),
    }
}

/// A cty JSON type (`"string"`, `["list", "bool"]`) written as Terraform writes types;
/// `any` for what is not a type.
fn type_name(t: &Value) -> String {
    ValueType::from_json(t).map_or_else(|| "any".into(), |t| t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorded_library_is_read() {
        let upper = function("upper", Dialect::Terraform).unwrap();
        let params = upper.parameters.as_ref().unwrap();
        assert_eq!(params.len(), 1);
        assert_eq!(params[0].ty, "string");
        assert!(function("core::upper", Dialect::Terraform).is_some());
        let concat = function("concat", Dialect::Terraform).unwrap();
        assert!(concat.variadic.is_some());
        assert_eq!(
            function("alltrue", Dialect::Terraform)
                .unwrap()
                .parameters
                .as_ref()
                .unwrap()[0]
                .ty,
            "list(bool)"
        );
        assert!(function("urldecode", Dialect::Terraform).is_none());
        assert!(function("urldecode", Dialect::OpenTofu).is_some());
        assert!(functions(Dialect::Terraform).count() > 200);
    }
}
