//! Literal values of a provider-defined argument that cannot be its type: HCL's
//! `hcldec` converts each argument's value to the type the provider's schema gives it and
//! reports `Incorrect attribute value type` ("Inappropriate value for attribute "ami":
//! string required."). The validate walk knows only constant values (variables are
//! unknown there), so only constant expressions are checked.

use crate::schema::AttributeSchema;
use crate::syntax::Expr;
use crate::types::{convert, Type};

/// Code of a literal value that does not convert to its argument's type.
pub const VALUE_TYPE: &str = "incorrect-attribute-value-type";

/// The detail of `Incorrect attribute value type` when `expr` is a constant that does
/// not convert to `schema`'s type; `None` when it converts, or is not constant.
pub(super) fn mismatch(schema: &AttributeSchema, expr: &Expr) -> Option<String> {
    let ty = Type::from(schema.value_type.as_ref()?);
    let value = crate::eval::constant(expr)?;
    let error = convert(&value, &ty).err()?;
    // go-cty's path errors print without their path here (`PathError.Error`).
    Some(format!(
        "Inappropriate value for attribute {:?}: {}.",
        &*schema.name,
        error.bare()
    ))
}
