//! The order of a set's elements as cty keeps it (go-cty 1.16 `set_internals.go` and
//! `set.Values`), which plans, `show -json` and every function that walks a set print.
//!
//! cty walks a set's hash buckets in order, then sorts the elements stably by its
//! `Less` rule: known values first, then unknown ones, then nulls; strings bytewise,
//! numbers by value, `false` before `true`; elements of any other type (objects,
//! tuples, lists, maps, sets) by the bytes cty hashes them from, compared bytewise, so
//! that `[10]` comes before `[1]` and `{a = "a b"}` before `{a = "a"}`. Elements `Less`
//! cannot tell apart keep the order they were given in.

use std::cmp::Ordering;

use super::functions::big_float_string;
use super::value::{compare, Value};
use crate::text::go_quote::go_quote;

/// `items` without duplicates (the first of equal elements kept), in cty's order.
pub(super) fn in_set_order(items: Vec<Value>) -> Vec<Value> {
    let mut unique = without_duplicates(items);
    let kind = ElementKind::of(&unique);
    let keys: Vec<Option<Vec<u8>>> = unique
        .iter()
        .map(|item| (kind == ElementKind::Other).then(|| hash_bytes(item)))
        .collect();
    let mut order: Vec<usize> = (0..unique.len()).collect();
    order.sort_by(|&i, &j| less(kind, (&unique[i], &keys[i]), (&unique[j], &keys[j])));
    let mut slots: Vec<Option<Value>> = unique.drain(..).map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}

/// `items` with each element equal to an earlier one left out, in their order. As cty's
/// set rules judge it (`Equivalent`: `Equals` known to be true), an element holding an
/// unknown value equals no other: each stays.
fn without_duplicates(items: Vec<Value>) -> Vec<Value> {
    let mut by_value: Vec<usize> = (0..items.len()).collect();
    by_value.sort_by(|&i, &j| compare(&items[i], &items[j]).then(i.cmp(&j)));
    let mut keep = vec![true; items.len()];
    for pair in by_value.windows(2) {
        let (x, y) = (&items[pair[0]], &items[pair[1]]);
        if x.is_wholly_known() && y.is_wholly_known() && compare(x, y) == Ordering::Equal {
            keep[pair[1]] = false;
        }
    }
    items
        .into_iter()
        .zip(keep)
        .filter_map(|(item, keep)| keep.then_some(item))
        .collect()
}

/// The element type as `Less` switches on it.
#[derive(Clone, Copy, PartialEq)]
enum ElementKind {
    String,
    Number,
    Bool,
    /// Any other type: ordered by hash bytes.
    Other,
}

impl ElementKind {
    /// The kind of a set's known, non-null elements (all of one type in cty).
    fn of(items: &[Value]) -> Self {
        let mut kinds = items.iter().filter_map(|item| match item {
            Value::Null | Value::Unknown | Value::UnknownOf(..) => None,
            Value::String(_) => Some(ElementKind::String),
            Value::Number(_) => Some(ElementKind::Number),
            Value::Bool(_) => Some(ElementKind::Bool),
            _ => Some(ElementKind::Other),
        });
        let first = kinds.next().unwrap_or(ElementKind::Other);
        match kinds.all(|kind| kind == first) {
            true => first,
            false => ElementKind::Other,
        }
    }
}

/// cty's `Less` as an ordering; `Equal` where it holds neither way.
fn less(
    kind: ElementKind,
    a: (&Value, &Option<Vec<u8>>),
    b: (&Value, &Option<Vec<u8>>),
) -> Ordering {
    let rank = |v: &Value| match v {
        Value::Null => 2,
        Value::Unknown | Value::UnknownOf(..) => 1,
        _ => 0,
    };
    let (ra, rb) = (rank(a.0), rank(b.0));
    if ra != 0 || rb != 0 {
        return match ra.cmp(&rb) {
            Ordering::Equal => Ordering::Equal, // two unknowns or two nulls
            other => other,
        };
    }
    match (kind, a.0, b.0) {
        (ElementKind::String, Value::String(x), Value::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (ElementKind::Number, Value::Number(x), Value::Number(y)) => {
            x.partial_cmp(y).unwrap_or(Ordering::Equal)
        }
        (ElementKind::Bool, Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        _ => a.1.cmp(b.1),
    }
}

/// The bytes cty hashes a value from (`appendSetHashBytes`).
fn hash_bytes(value: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    append_hash_bytes(value, &mut out);
    out
}

fn append_hash_bytes(value: &Value, out: &mut Vec<u8>) {
    match value {
        // Marks are not part of a value's identity (a set holds unmarked elements).
        Value::Marked(inner, _) => append_hash_bytes(inner, out),
        Value::Unknown | Value::UnknownOf(..) => out.push(b'?'),
        Value::Null => out.push(b'~'),
        Value::Number(n) => out.extend_from_slice(big_float_string(*n).as_bytes()),
        Value::Bool(true) => out.push(b'T'),
        Value::Bool(false) => out.push(b'F'),
        Value::String(s) => out.extend_from_slice(go_quote(s).as_bytes()),
        Value::Map(entries) => {
            out.push(b'{');
            for (key, item) in entries {
                out.extend_from_slice(go_quote(key).as_bytes());
                out.push(b':');
                append_hash_bytes(item, out);
                out.push(b';');
            }
            out.push(b'}');
        }
        Value::List(items) | Value::Set(items) => {
            out.push(b'[');
            for item in items {
                append_hash_bytes(item, out);
                out.push(b';');
            }
            out.push(b']');
        }
        // Attributes by name, as the object type lists them: a BTreeMap's order.
        Value::Object(attributes) | Value::PartialObject(attributes) => {
            out.push(b'<');
            for item in attributes.values() {
                append_hash_bytes(item, out);
                out.push(b';');
            }
            out.push(b'>');
        }
        Value::Tuple(items) => {
            out.push(b'<');
            for item in items {
                append_hash_bytes(item, out);
                out.push(b';');
            }
            out.push(b'>');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::in_set_order;
    use crate::eval::Value;
    use std::collections::BTreeMap;

    fn n(x: f64) -> Value {
        Value::Number(x)
    }

    fn s(x: &str) -> Value {
        Value::string(x)
    }

    fn object(a: Value) -> Value {
        Value::Object(BTreeMap::from([("a".to_string(), a)]).into())
    }

    /// Orders recorded with `terraform console` (Terraform 1.11.4).
    #[test]
    fn sets_are_ordered_as_cty_orders_them() {
        let strings = ["b", "a", "a b", "B", "é", "a\"", "10", "9"]
            .map(s)
            .to_vec();
        let want = ["10", "9", "B", "a", "a b", "a\"", "b", "é"]
            .map(s)
            .to_vec();
        assert_eq!(in_set_order(strings), want);
        let numbers = [10.0, 9.0, 1.5, -2.0, 100.0, 0.001, 1e20].map(n).to_vec();
        let want = [-2.0, 0.001, 1.5, 9.0, 10.0, 100.0, 1e20].map(n).to_vec();
        assert_eq!(in_set_order(numbers), want);
        let lists = [
            vec![n(10.0)],
            vec![n(1.0)],
            vec![n(2.0)],
            vec![n(1.0), n(2.0)],
        ];
        let want = [
            vec![n(10.0)],
            vec![n(1.0), n(2.0)],
            vec![n(1.0)],
            vec![n(2.0)],
        ];
        assert_eq!(
            in_set_order(lists.map(|l| Value::List(l.into())).to_vec()),
            want.map(|l| Value::List(l.into())).to_vec()
        );
        let objects = [s("a b"), s("a"), s("b"), Value::Null].map(object).to_vec();
        let want = [s("a b"), s("a"), s("b"), Value::Null].map(object).to_vec();
        assert_eq!(in_set_order(objects), want);
        let numbers = [10.0, 9.0, 100.0, 1.5, 12345678902.0, 12345678901.0];
        let want = [12345678902.0, 12345678901.0, 1.5, 100.0, 10.0, 9.0];
        assert_eq!(
            in_set_order(numbers.map(|x| object(n(x))).to_vec()),
            want.map(|x| object(n(x))).to_vec()
        );
        let escapes = ["~", "é", "\t", "\n", "~"].map(|x| object(s(x))).to_vec();
        let want = ["\n", "\t", "~", "é"].map(|x| object(s(x))).to_vec();
        assert_eq!(in_set_order(escapes), want);
        assert_eq!(
            in_set_order(vec![Value::Null, s("a")]),
            vec![s("a"), Value::Null]
        );
        assert_eq!(
            in_set_order(vec![Value::Bool(true), Value::Bool(false)]),
            vec![Value::Bool(false), Value::Bool(true)]
        );
    }
}
