//! Literal values of a provider-defined argument that cannot be its type: HCL's
//! `hcldec` converts each argument's value to the type the provider's schema gives it and
//! reports `Incorrect attribute value type` ("Inappropriate value for attribute "ami":
//! string required."). The validate walk knows only constant values (variables are
//! unknown there), so only constant expressions are checked.

use std::collections::BTreeMap;

use crate::schema::{AttributeSchema, NestedAttributes, Nesting, Requirement};
use crate::syntax::Expr;
use crate::types::{convert, Attribute, Type};

/// Code of a literal value that does not convert to its argument's type.
pub const VALUE_TYPE: &str = "incorrect-attribute-value-type";

/// The detail of `Incorrect attribute value type` when `expr` is a constant that does
/// not convert to `schema`'s type; `None` when it converts, or is not constant.
pub(super) fn mismatch(schema: &AttributeSchema, expr: &Expr) -> Option<String> {
    let ty = match &schema.nested {
        Some(nested) => nested_type(nested),
        None => Type::from(schema.value_type.as_ref()?),
    };
    let value = crate::eval::constant(expr)?;
    let error = convert(&value, &ty).err()?;
    // go-cty's path errors print without their path here (`PathError.Error`).
    Some(format!(
        "Inappropriate value for attribute {:?}: {}.",
        &*schema.name,
        error.bare()
    ))
}

/// The type an attribute of a nested type (protocol 6) is decoded with
/// (`configschema.NestedType.specType`): its objects' attributes that are not required
/// may be left out.
fn nested_type(nested: &NestedAttributes) -> Type {
    let attributes: BTreeMap<String, Attribute> = nested
        .attributes
        .iter()
        .map(|a| {
            let ty = match (&a.nested, &a.value_type) {
                (Some(inner), _) => nested_type(inner),
                (None, Some(t)) => Type::from(t),
                (None, None) => Type::Dynamic,
            };
            let attribute = Attribute {
                ty,
                optional: a.requirement != Requirement::Required,
                default: None,
            };
            (a.name.to_string(), attribute)
        })
        .collect();
    let object = Type::Object(attributes);
    match nested.nesting {
        Nesting::Single | Nesting::Group => object,
        Nesting::List => Type::List(Box::new(object)),
        Nesting::Set => Type::Set(Box::new(object)),
        Nesting::Map => Type::Map(Box::new(object)),
    }
}
