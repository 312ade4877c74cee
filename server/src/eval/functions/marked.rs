//! What a function call does with its arguments' marks (`eval/marks.rs`), as go-cty's
//! `function.Call` and Terraform's functions do it (recorded with `terraform console`
//! 1.11.4): by default every mark anywhere in the arguments is taken off before the call
//! and put on the whole result (`upper(var.secret)`, `jsonencode([var.secret])`,
//! `contains(list, x)` are sensitive). The functions whose parameters take marked values
//! (`AllowMarked`) move elements as they are: each keeps its marks, and only an
//! argument's own marks go on the result (`concat([var.secret], ["p"])` is a tuple whose
//! first element is sensitive). `sensitive`, `nonsensitive`, `issensitive` and
//! `ephemeralasnull` read and write the marks themselves.

use crate::eval::marks::Marks;
use crate::eval::refinement::Refinement;
use crate::eval::shared::Elements;
use crate::eval::value::Value;
use crate::types::Type;

/// The functions that move elements with their marks.
const ELEMENT_WISE: &[&str] = &[
    "chunklist",
    "concat",
    "element",
    "flatten",
    "keys",
    "length",
    "lookup",
    "merge",
    "reverse",
    "setproduct",
    "slice",
    "tolist",
    "tomap",
    "toset",
    "values",
    "zipmap",
];

/// The functions whose parameters take no unknown value (go-cty's `AllowUnknown`
/// unset): an unknown argument makes the result an unknown value without any mark
/// (recorded with `terraform validate`, `fixtures/validate/outputs-sensitive-functions`).
/// Every other function keeps the marks on an unknown result.
const UNMARKED_WHEN_UNKNOWN: &[&str] = &[
    "abs",
    "chunklist",
    "concat",
    "element",
    "merge",
    "reverse",
    "slice",
    "templatestring",
    "values",
    "zipmap",
];

/// The functions that read or write marks.
const MARK_FUNCTIONS: &[&str] = &[
    "sensitive",
    "nonsensitive",
    "issensitive",
    "ephemeralasnull",
];

/// What a call's result is to carry of its arguments' marks.
pub(super) struct Marking {
    /// The marks taken off the arguments.
    marks: Marks,
    /// Every mark anywhere in the arguments: what an unknown result carries, since
    /// nothing of the arguments survives in it.
    deep: Marks,
    /// The arguments as given, for the functions that read marks.
    original: Option<Vec<Value>>,
}

/// Takes the marks the implementation of the function `name` may not see off its
/// arguments `values`.
pub(super) fn strip(name: &str, values: Vec<Value>) -> (Vec<Value>, Marking) {
    if !values.iter().any(Value::contains_marks) {
        let marking = Marking {
            marks: Marks::NONE,
            deep: Marks::NONE,
            original: None,
        };
        return (values, marking);
    }
    let original = MARK_FUNCTIONS.contains(&name).then(|| values.clone());
    let mut marks = Marks::NONE;
    let deep = values.iter().fold(Marks::NONE, |m, v| m | v.deep_marks());
    let element_wise = ELEMENT_WISE.contains(&name);
    let values = values
        .into_iter()
        .map(|v| {
            let (v, m) = if element_wise {
                let (v, m) = v.unmark();
                let (v, nested) = hoist_nested(v, name == "flatten");
                (v, m | nested)
            } else {
                v.unmark_deep()
            };
            marks |= m;
            v
        })
        .collect();
    let marking = Marking {
        marks,
        deep,
        original,
    };
    (values, marking)
}

/// `flatten` descends into nested collections: a marked one's marks go on the result
/// (`flatten([var.secret_list, ["p"]])` is sensitive as a whole).
fn hoist_nested(value: Value, flatten: bool) -> (Value, Marks) {
    if !flatten {
        return (value, Marks::NONE);
    }
    let mut marks = Marks::NONE;
    let mut strip = |items: Elements| -> Elements {
        items
            .into_iter()
            .map(|item| {
                if item.elements().is_none() {
                    return item;
                }
                let (item, own) = item.unmark();
                let (item, nested) = hoist_nested(item, true);
                marks |= own | nested;
                item
            })
            .collect()
    };
    let value = match value {
        Value::Tuple(items) => Value::Tuple(strip(items)),
        Value::List(items) => Value::List(strip(items)),
        other => other,
    };
    (value, marks)
}

impl Marking {
    /// The result `result` of the call of `name` when an argument is unknown.
    pub(super) fn unknown(self, name: &str, result: Value) -> Value {
        match UNMARKED_WHEN_UNKNOWN.contains(&name) {
            true => result,
            false => self.finish(name, result),
        }
    }

    /// The result of the call of `name` with the marks it carries: those taken off, or
    /// for the functions that read marks, what they make of the arguments as given.
    pub(super) fn finish(self, name: &str, result: Value) -> Value {
        let Some(arg) = self.original.and_then(|args| args.into_iter().next()) else {
            let marks = if result.is_known() {
                self.marks
            } else {
                self.deep
            };
            return match name {
                "sensitive" => result.mark(marks | Marks::SENSITIVE),
                // `false`, or unknown for an unknown value, which may yet be sensitive.
                "issensitive" => result,
                _ => result.mark(marks),
            };
        };
        match name {
            "sensitive" => arg.mark(Marks::SENSITIVE),
            "nonsensitive" => arg.without_marks(Marks::SENSITIVE),
            "issensitive" => match arg.marks().contains(Marks::SENSITIVE) {
                true => Value::Bool(true),
                false if !arg.is_known() => Value::UnknownOf(Type::Bool, Refinement::NONE),
                false => Value::Bool(false),
            },
            _ => ephemeral_as_null(arg),
        }
    }
}

/// `ephemeralasnull`: every ephemeral value in `value` null; other marks stay.
fn ephemeral_as_null(value: Value) -> Value {
    let (value, marks) = value.unmark();
    if marks.contains(Marks::EPHEMERAL) {
        return Value::Null.mark(marks.without(Marks::EPHEMERAL));
    }
    let value = match value {
        Value::Tuple(items) => Value::Tuple(items.into_iter().map(ephemeral_as_null).collect()),
        Value::List(items) => Value::List(items.into_iter().map(ephemeral_as_null).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, ephemeral_as_null(v)))
                .collect(),
        ),
        Value::Map(map) => Value::Map(
            map.into_iter()
                .map(|(k, v)| (k, ephemeral_as_null(v)))
                .collect(),
        ),
        other => other,
    };
    value.mark(marks)
}
