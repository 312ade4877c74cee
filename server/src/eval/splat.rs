//! A splat expression over an unknown value (HCL 2.23's `SplatExpr.Value`): HCL still
//! evaluates the rest of the traversal on an unknown element of the source's type, for
//! its errors and for the result's type. An unknown list or set gives an unknown list of
//! the elements' result type, not null, as long as the source is known to be (go-cty's
//! length refinements); an unknown tuple an unknown tuple of the elements' result types,
//! not null; any other typed unknown is taken as a one-element tuple when it is known
//! not to be null (HCL's "auto-upgrade"), and is unknown altogether when it may be null
//! (the result would be an empty tuple then). An untyped unknown gives an untyped
//! unknown. Recorded in fixtures/plan-recorded/refinements-splat-for.

use super::evaluate::EvalError;
use super::operations::unknown_of;
use super::refinement::Refinement;
use super::value::Value;
use crate::types::Type;

/// The splat of the unknown `source` (unmarked), `each` evaluating the rest of the
/// traversal on one element.
pub(super) fn over_unknown(
    source: &Value,
    mut each: impl FnMut(Value) -> Result<Value, EvalError>,
) -> Result<Value, EvalError> {
    let refined = |ty: Type| Value::UnknownOf(ty, Refinement::NONE).refine().not_null();
    Ok(match source {
        Value::UnknownOf(Type::List(element) | Type::Set(element), _) => {
            let item = each(unknown_of((**element).clone()))?;
            let range = source.range();
            let list = refined(Type::List(Box::new(item.ty()))).length_lower(range.length_lower());
            match range.length_upper() {
                Some(max) => list.length_upper(max),
                None => list,
            }
            .value()
        }
        Value::UnknownOf(Type::Tuple(elements), _) => {
            let types = elements
                .iter()
                .map(|e| each(unknown_of(e.clone())).map(|v| v.ty()))
                .collect::<Result<Vec<_>, _>>()?;
            refined(Type::Tuple(types)).value()
        }
        Value::UnknownOf(ty, refinement) if *ty != Type::Dynamic => {
            let item = each(source.clone())?;
            match refinement.is_not_null() {
                true => Value::Tuple(vec![item].into()),
                false => Value::Unknown,
            }
        }
        _ => Value::Unknown,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unknown(ty: Type) -> Value {
        Value::UnknownOf(ty, Refinement::NONE)
    }

    #[test]
    fn an_unknown_list_splats_to_a_list_as_long_and_not_null() {
        let strings = Type::List(Box::new(Type::String));
        let two = unknown(strings.clone())
            .refine()
            .length_lower(2)
            .length_upper(2)
            .value();
        let splat = over_unknown(&two, Ok).unwrap();
        let range = splat.range();
        assert_eq!(range.ty(), &strings);
        assert!(range.definitely_not_null());
        assert_eq!((range.length_lower(), range.length_upper()), (2, Some(2)));
        // A set gives a list; the rest of the traversal gives the element type.
        let set = unknown(Type::Set(Box::new(Type::String)));
        let numbers = over_unknown(&set, |_| Ok(unknown(Type::Number))).unwrap();
        assert_eq!(numbers.ty(), Type::List(Box::new(Type::Number)));
        assert_eq!(numbers.range().length_upper(), None);
    }

    #[test]
    fn a_tuple_keeps_its_length_and_other_values_are_upgraded_when_not_null() {
        let tuple = unknown(Type::Tuple(vec![Type::String, Type::Number]));
        let splat = over_unknown(&tuple, Ok).unwrap();
        assert_eq!(splat.ty(), Type::Tuple(vec![Type::String, Type::Number]));
        assert!(splat.range().definitely_not_null());
        let maybe_null = unknown(Type::String);
        assert_eq!(over_unknown(&maybe_null, Ok).unwrap(), Value::Unknown);
        let not_null = maybe_null.refine().not_null().value();
        let one = over_unknown(&not_null, Ok).unwrap();
        assert_eq!(one, Value::Tuple(vec![not_null].into()));
        assert_eq!(over_unknown(&Value::Unknown, Ok).unwrap(), Value::Unknown);
        // The rest of the traversal's errors are the splat's.
        let failing = over_unknown(&tuple, |_| {
            Err(EvalError::new(
                "Unsupported attribute",
                "",
                Default::default(),
            ))
        });
        assert!(failing.is_err());
    }
}
