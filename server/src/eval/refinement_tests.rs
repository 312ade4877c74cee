//! Refinements as go-cty documents them (`docs/refinements.md`) and tests them
//! (`unknown_refinement_test.go`, `value_ops_test.go`), and as HCL's operators,
//! templates and conditionals use them.

use super::*;
use crate::eval::operations::{binary, unknown_choice};
use crate::syntax::Span;

fn unknown(ty: Type) -> Value {
    Value::UnknownOf(ty, Refinement::NONE)
}

fn list_of_strings() -> Type {
    Type::List(Box::new(Type::String))
}

/// `a op b`, `None` where the result is unknown.
fn op(a: &Value, op: &str, b: &Value) -> Option<bool> {
    let spans = [Span::new(0, 0), Span::new(0, 0)];
    let result = binary(op, a.clone(), b.clone(), spans, Span::new(0, 0)).expect("no error");
    assert!(
        result.is_known() || result.range().definitely_not_null(),
        "an operator's unknown result is never null"
    );
    result.to_bool()
}

#[test]
fn an_untyped_unknown_is_never_refined() {
    let v = Value::Unknown.refine().not_null().value();
    assert_eq!(v, Value::Unknown);
    assert!(!v.range().definitely_not_null());
}

#[test]
fn a_known_value_is_left_as_it_is() {
    let v = Value::string("x")
        .refine()
        .not_null()
        .string_prefix("y")
        .value();
    assert_eq!(v, Value::string("x"));
    assert_eq!(Value::string("x").range().string_prefix(), "x");
    assert_eq!(Value::Null.range().includes(&Value::Null), Some(true));
}

#[test]
fn refinements_that_leave_one_value_make_it_known() {
    // A number between equal inclusive bounds, when not null.
    let n = unknown(Type::Number).refine().number_lower(0.0, true);
    let n = n.number_upper(0.0, true);
    let maybe_null = n.value();
    assert!(!maybe_null.is_known(), "it might be null");
    let zero = maybe_null.refine().not_null().value();
    assert_eq!(zero, Value::Number(0.0));
    // An empty collection, a list of known length, a set of one element.
    let empty = unknown(list_of_strings())
        .refine()
        .not_null()
        .length_upper(0);
    assert_eq!(empty.value(), Value::List(Vec::new().into()));
    let two = unknown(list_of_strings()).refine().not_null();
    let two = two.length_lower(2).length_upper(2).value();
    assert_eq!(two.elements().map(<[Value]>::len), Some(2));
    assert!(two.elements().unwrap().iter().all(|v| !v.is_known()));
    let set = unknown(Type::Set(Box::new(Type::String)))
        .refine()
        .not_null();
    assert_eq!(
        set.length_lower(1)
            .length_upper(1)
            .value()
            .elements()
            .map(<[Value]>::len),
        Some(1)
    );
    // A map of two elements stays unknown: its keys are not known.
    let map = unknown(Type::Map(Box::new(Type::String)))
        .refine()
        .not_null();
    assert!(!map.length_lower(2).length_upper(2).value().is_known());
}

#[test]
fn a_refinement_only_narrows() {
    let n = unknown(Type::Number).refine().number_lower(4.0, true);
    let n = n.value().refine().number_lower(0.0, true).value();
    assert_eq!(n.range().number_lower().map(|b| b.value), Some(4.0));
    let s = unknown(Type::String).refine().string_prefix_full("foo-bar");
    let s = s.value().refine().string_prefix_full("foo").value();
    assert_eq!(s.range().string_prefix(), "foo-bar");
    // Refinements that do not apply to the type are ignored.
    let b = unknown(Type::Bool)
        .refine()
        .string_prefix("x")
        .number_lower(1.0, true);
    assert_eq!(b.value(), unknown(Type::Bool));
}

#[test]
fn a_string_prefix_drops_what_may_combine_with_what_follows() {
    let prefix = |p: &str| {
        let v = unknown(Type::String).refine().string_prefix(p).value();
        v.range().string_prefix().to_string()
    };
    assert_eq!(prefix("foo-"), "foo-", "punctuation always ends a cluster");
    assert_eq!(prefix("foo"), "fo", "a letter may take a combining mark");
    assert_eq!(prefix("https://"), "https://");
}

#[test]
fn null_compared_with_a_value_that_cannot_be_null_is_known() {
    let not_null = unknown(Type::String).refine().not_null().value();
    assert_eq!(op(&Value::Null, "==", &not_null), Some(false));
    assert_eq!(op(&not_null, "==", &Value::Null), Some(false));
    assert_eq!(op(&not_null, "!=", &Value::Null), Some(true));
    // Unrefined, it may be null.
    assert_eq!(op(&unknown(Type::String), "==", &Value::Null), None);
    assert_eq!(op(&Value::Unknown, "==", &Value::Null), None);
}

#[test]
fn a_known_value_outside_an_unknowns_range_is_unequal() {
    let foo = unknown(Type::String).refine().string_prefix("foo-").value();
    assert_eq!(op(&foo, "==", &Value::string("notfoo-bar")), Some(false));
    assert_eq!(op(&Value::string(""), "==", &foo), Some(false));
    assert_eq!(op(&foo, "==", &Value::string("foo-bar")), None);
    let at_least_4 = unknown(Type::Number)
        .refine()
        .number_lower(4.0, true)
        .value();
    assert_eq!(op(&Value::Number(2.0), "==", &at_least_4), Some(false));
    let at_least_0 = unknown(Type::Number)
        .refine()
        .number_lower(0.0, true)
        .value();
    assert_eq!(op(&Value::Number(2.0), "==", &at_least_0), None);
    let some = unknown(list_of_strings()).refine().length_lower(1).value();
    assert_eq!(
        op(&some, "==", &Value::List(Vec::new().into())),
        Some(false)
    );
    // A primitive of another type can never be equal.
    assert_eq!(
        op(&unknown(Type::Number), "==", &Value::string("5")),
        Some(false)
    );
}

#[test]
fn comparisons_follow_number_bounds() {
    let big = unknown(Type::Number)
        .refine()
        .number_lower(10.0, true)
        .value();
    assert_eq!(op(&big, ">", &Value::Number(5.0)), Some(true));
    assert_eq!(op(&big, "<", &Value::Number(5.0)), Some(false));
    assert_eq!(op(&Value::Number(5.0), "<=", &big), Some(true));
    assert_eq!(op(&big, "<=", &Value::Number(5.0)), Some(false));
    // Every bound is taken as exclusive: 10 < [10, ...) is not known.
    assert_eq!(op(&big, ">", &Value::Number(10.0)), None);
    assert_eq!(op(&unknown(Type::Number), "<", &Value::Number(1.0)), None);
}

#[test]
fn a_conditional_on_an_unknown_refines_by_both_results() {
    let (a, b) = (Value::Number(1.0), Value::Number(5.0));
    let n = unknown_choice(a, b);
    let range = n.range();
    assert!(range.definitely_not_null());
    assert_eq!(range.number_lower().map(|b| b.value), Some(1.0));
    assert_eq!(range.number_upper().map(|b| b.value), Some(5.0));
    let s = unknown_choice(Value::string("a"), Value::string("b"));
    assert!(s.range().definitely_not_null());
    assert_eq!(s.range().string_prefix(), "", "strings keep no prefix");
    let maybe = unknown_choice(Value::string("a"), Value::Null);
    assert!(!maybe.range().definitely_not_null());
    assert!(!maybe.is_known());
    assert_eq!(unknown_choice(Value::Null, Value::Null), Value::Null);
    let list = |n: usize| Value::List(vec![Value::string("x"); n].into());
    let l = unknown_choice(list(1), list(3));
    assert_eq!(
        (l.range().length_lower(), l.range().length_upper()),
        (1, Some(3))
    );
}

#[test]
fn not_null_unknowns_of_any_type_are_untyped_and_unrefined() {
    assert_eq!(not_null_unknown(Type::Dynamic), Value::Unknown);
    assert!(not_null_unknown(Type::String).range().definitely_not_null());
}
