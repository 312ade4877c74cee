//! Types a schema states (a provider attribute's `ValueType`, in go-cty's encoding) as
//! the type constraints conversion works with.

use std::collections::BTreeMap;

use super::{Attribute, Type};
use crate::schema::ValueType;

impl From<&ValueType> for Type {
    fn from(t: &ValueType) -> Self {
        match t {
            ValueType::String => Type::String,
            ValueType::Number => Type::Number,
            ValueType::Bool => Type::Bool,
            ValueType::Dynamic => Type::Dynamic,
            ValueType::List(e) => Type::List(Box::new(Type::from(&**e))),
            ValueType::Set(e) => Type::Set(Box::new(Type::from(&**e))),
            ValueType::Map(e) => Type::Map(Box::new(Type::from(&**e))),
            ValueType::Tuple(es) => Type::Tuple(es.iter().map(Type::from).collect()),
            ValueType::Object {
                attributes,
                optional,
            } => Type::Object(
                attributes
                    .iter()
                    .map(|(name, t)| {
                        let attribute = Attribute {
                            ty: Type::from(t),
                            optional: optional.contains(name),
                            default: None,
                        };
                        (name.to_string(), attribute)
                    })
                    .collect::<BTreeMap<_, _>>(),
            ),
        }
    }
}
