//! Conversion to a type constraint of a value that still holds unknowns, such as a module
//! argument built from resource attributes. `types::convert` works on known (JSON) values
//! only; this gives such a value the shape its type promises, so that an omitted
//! `optional(...)` attribute reads as its default or null rather than as missing, and
//! collections take the kinds (list, set, map) the type names.

use crate::types::Type;

use super::refinement::converted_unknown;
use super::value::{format_number, Value};

/// `value` shaped as `ty` wherever it is known; unknown parts stay unknown.
pub fn conform(value: Value, ty: &Type) -> Value {
    match (value, ty) {
        (v @ (Value::Unknown | Value::Null), _) | (v, Type::Dynamic) => v,
        // A typed unknown takes the type, with what cty's conversion keeps of its range.
        (v @ Value::UnknownOf(..), ty) if v.ty() != *ty && kinds_convert(&v.ty(), ty) => {
            converted_unknown(&v.range(), ty)
        }
        (Value::Number(n), Type::String) => Value::String(format_number(n)),
        (Value::Bool(b), Type::String) => Value::String(b.to_string()),
        (v, Type::Object(attrs)) => {
            let Some(given) = v.attributes() else {
                return v;
            };
            let mut given = given.clone();
            Value::Object(
                attrs
                    .iter()
                    .map(|(name, attr)| {
                        let value = match given.remove(name) {
                            Some(v) => conform(v, &attr.ty),
                            None => attr
                                .default
                                .as_ref()
                                .map_or(Value::Null, |d| Value::from_typed_json(d, &attr.ty)),
                        };
                        (name.clone(), value)
                    })
                    .collect(),
            )
        }
        (v, Type::Map(element)) => match v.attributes() {
            Some(map) => Value::Map(
                map.iter()
                    .map(|(k, v)| (k.clone(), conform(v.clone(), element)))
                    .collect(),
            ),
            None => v,
        },
        (v, Type::List(element) | Type::Set(element)) => match v.elements() {
            Some(items) => {
                let items = items.iter().map(|i| conform(i.clone(), element)).collect();
                if matches!(ty, Type::Set(_)) {
                    Value::set(items)
                } else {
                    Value::List(items.into())
                }
            }
            None => v,
        },
        (v, Type::Tuple(types)) => match v.elements() {
            Some(items) if items.len() == types.len() => Value::Tuple(
                items
                    .iter()
                    .zip(types)
                    .map(|(i, t)| conform(i.clone(), t))
                    .collect(),
            ),
            _ => v,
        },
        (v, _) => v,
    }
}

/// Whether a value of type `from` converts to `to` by its kind: primitives to
/// primitives, objects to maps and objects, sequences to sequences. Conversions that
/// fail were reported before a value is conformed; others are left as they are.
fn kinds_convert(from: &Type, to: &Type) -> bool {
    let sequence = |t: &Type| matches!(t, Type::List(_) | Type::Set(_) | Type::Tuple(_));
    let mapping = |t: &Type| matches!(t, Type::Map(_) | Type::Object(_));
    from.is_primitive() && to.is_primitive()
        || sequence(from) && sequence(to)
        || mapping(from) && mapping(to)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::types::Attribute;

    fn optional(ty: Type, default: Option<serde_json::Value>) -> Attribute {
        Attribute {
            ty,
            optional: true,
            default,
        }
    }

    #[test]
    fn optional_attributes_appear_beside_unknowns() {
        let ty = Type::Map(Box::new(Type::Object(BTreeMap::from([
            (
                "name".to_string(),
                Attribute {
                    ty: Type::String,
                    optional: false,
                    default: None,
                },
            ),
            (
                "zones".to_string(),
                optional(Type::Set(Box::new(Type::String)), None),
            ),
            ("size".to_string(), optional(Type::Number, Some(3.into()))),
        ]))));
        let given = Value::Object(
            BTreeMap::from([(
                "a".to_string(),
                Value::Object(
                    BTreeMap::from([
                        ("name".to_string(), Value::Unknown),
                        ("extra".to_string(), Value::Bool(true)),
                    ])
                    .into(),
                ),
            )])
            .into(),
        );
        let conformed = conform(given, &ty);
        assert_eq!(
            conformed,
            Value::Map(
                BTreeMap::from([(
                    "a".to_string(),
                    Value::Object(
                        BTreeMap::from([
                            ("name".to_string(), Value::Unknown),
                            ("size".to_string(), Value::Number(3.0)),
                            ("zones".to_string(), Value::Null),
                        ])
                        .into()
                    ),
                )])
                .into()
            )
        );
    }

    #[test]
    fn collections_take_the_kind_their_type_names() {
        let list = Type::List(Box::new(Type::String));
        let given = Value::Tuple(vec![Value::Number(1.0), Value::Unknown].into());
        assert_eq!(
            conform(given, &list),
            Value::List(vec![Value::string("1"), Value::Unknown].into())
        );
        assert_eq!(conform(Value::Unknown, &list), Value::Unknown);
    }
}
