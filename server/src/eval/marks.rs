//! Value marks as go-cty carries them for Terraform: a value may be marked sensitive or
//! ephemeral, and the mark travels with it. A mark sits on one value (`Value::Marked`),
//! not on the values around it: `[var.secret, "p"]` is an unmarked tuple whose first
//! element is marked. Operations take the marks off their operands and put them on their
//! result (`evaluate.rs`, `functions/marked.rs`); a set cannot hold marked elements, so
//! their marks move to the set, as cty's `SetVal` moves them.
//!
//! An unmarked value carries nothing: the common case costs one enum variant that is
//! never built.

use std::ops::{BitOr, BitOrAssign};

use serde_json::{Map, Value as Json};

use super::value::Value;
use crate::types::Type;

/// The marks one value carries: a small set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Marks(u8);

impl Marks {
    /// No mark.
    pub const NONE: Marks = Marks(0);
    /// `(sensitive value)`: Terraform hides it in its output.
    pub const SENSITIVE: Marks = Marks(1);
    /// Available only during one run, never stored.
    pub const EPHEMERAL: Marks = Marks(2);

    /// Whether there is no mark.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every mark of `other` is among these.
    pub fn contains(self, other: Marks) -> bool {
        self.0 & other.0 == other.0
    }

    /// These marks without those of `other`.
    pub fn without(self, other: Marks) -> Marks {
        Marks(self.0 & !other.0)
    }
}

impl BitOr for Marks {
    type Output = Marks;
    fn bitor(self, other: Marks) -> Marks {
        Marks(self.0 | other.0)
    }
}

impl BitOrAssign for Marks {
    fn bitor_assign(&mut self, other: Marks) {
        self.0 |= other.0;
    }
}

/// One step of a path into a value: an attribute or map key, or an element's index.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathStep {
    /// An object attribute or a map key.
    Key(String),
    /// A list or tuple element.
    Index(usize),
}

/// Where marks sit inside a value, as cty's `UnmarkDeepWithPaths` lists them: each
/// marked value's path from the top and its marks.
pub type MarkedPaths = Vec<(Vec<PathStep>, Marks)>;

impl Value {
    /// The value with `marks` added to its own (nothing changes for no marks).
    pub fn mark(self, marks: Marks) -> Value {
        if marks.is_empty() {
            return self;
        }
        match self {
            Value::Marked(inner, own) => Value::Marked(inner, own | marks),
            other => Value::Marked(Box::new(other), marks),
        }
    }

    /// The marks of the value itself (not of values inside it).
    pub fn marks(&self) -> Marks {
        match self {
            Value::Marked(_, marks) => *marks,
            _ => Marks::NONE,
        }
    }

    /// The value without its own marks, and those marks (`Unmark`).
    pub fn unmark(self) -> (Value, Marks) {
        match self {
            Value::Marked(inner, marks) => (*inner, marks),
            other => (other, Marks::NONE),
        }
    }

    /// The value under its own marks.
    pub fn unmarked(&self) -> &Value {
        match self {
            Value::Marked(inner, _) => inner,
            other => other,
        }
    }

    /// The value without `marks` on itself; marks inside it stay (`nonsensitive`).
    pub fn without_marks(self, marks: Marks) -> Value {
        let (inner, own) = self.unmark();
        inner.mark(own.without(marks))
    }

    /// Whether the value or anything in it is marked (`ContainsMarked`).
    pub fn contains_marks(&self) -> bool {
        match self {
            Value::Marked(..) => true,
            Value::Tuple(items) | Value::List(items) | Value::Set(items) => {
                items.iter().any(Value::contains_marks)
            }
            Value::Object(map) | Value::Map(map) | Value::PartialObject(map) => {
                map.values().any(Value::contains_marks)
            }
            _ => false,
        }
    }

    /// Every mark in the value, its own and those inside it.
    pub fn deep_marks(&self) -> Marks {
        let inside = match self.unmarked() {
            Value::Tuple(items) | Value::List(items) | Value::Set(items) => {
                items.iter().fold(Marks::NONE, |m, v| m | v.deep_marks())
            }
            Value::Object(map) | Value::Map(map) | Value::PartialObject(map) => {
                map.values().fold(Marks::NONE, |m, v| m | v.deep_marks())
            }
            _ => Marks::NONE,
        };
        self.marks() | inside
    }

    /// The value with every mark in it taken off, and all those marks (`UnmarkDeep`).
    pub fn unmark_deep(self) -> (Value, Marks) {
        if !self.contains_marks() {
            return (self, Marks::NONE);
        }
        let mut all = Marks::NONE;
        let value = self.map_marks(&mut |_, marks| all |= marks, &mut Vec::new());
        (value, all)
    }

    /// The value with every mark in it taken off, and where each was
    /// (`UnmarkDeepWithPaths`).
    pub fn unmark_deep_with_paths(self) -> (Value, MarkedPaths) {
        if !self.contains_marks() {
            return (self, Vec::new());
        }
        let mut paths = Vec::new();
        let value = self.map_marks(
            &mut |path, marks| paths.push((path.to_vec(), marks)),
            &mut Vec::new(),
        );
        (value, paths)
    }

    /// The value with every mark removed, `found` told each one with its path.
    fn map_marks(
        self,
        found: &mut dyn FnMut(&[PathStep], Marks),
        path: &mut Vec<PathStep>,
    ) -> Value {
        let (value, marks) = self.unmark();
        if !marks.is_empty() {
            found(path, marks);
        }
        let mut step = |step: PathStep, v: Value, path: &mut Vec<PathStep>| {
            path.push(step);
            let v = v.map_marks(found, path);
            path.pop();
            v
        };
        match value {
            Value::Tuple(items) => Value::Tuple(
                (items.into_iter().enumerate())
                    .map(|(i, v)| step(PathStep::Index(i), v, path))
                    .collect(),
            ),
            Value::List(items) => Value::List(
                (items.into_iter().enumerate())
                    .map(|(i, v)| step(PathStep::Index(i), v, path))
                    .collect(),
            ),
            // A set's elements are never marked (`Value::set` moves their marks to it).
            Value::Set(items) => Value::Set(items),
            Value::Object(map) => Value::Object(
                map.into_iter()
                    .map(|(k, v)| (k.clone(), step(PathStep::Key(k), v, path)))
                    .collect(),
            ),
            Value::Map(map) => Value::Map(
                map.into_iter()
                    .map(|(k, v)| (k.clone(), step(PathStep::Key(k), v, path)))
                    .collect(),
            ),
            Value::PartialObject(map) => Value::PartialObject(
                map.into_iter()
                    .map(|(k, v)| (k.clone(), step(PathStep::Key(k), v, path)))
                    .collect(),
            ),
            other => other,
        }
    }

    /// The value with marks put back where `paths` says (`MarkWithPaths`); a path the
    /// value does not have marks nothing.
    pub fn mark_with_paths(self, paths: &[(Vec<PathStep>, Marks)]) -> Value {
        paths
            .iter()
            .fold(self, |v, (path, marks)| v.mark_at(path, *marks))
    }

    fn mark_at(self, path: &[PathStep], marks: Marks) -> Value {
        let Some((first, rest)) = path.split_first() else {
            return self.mark(marks);
        };
        let (value, own) = self.unmark();
        let value = match (value, first) {
            (Value::Tuple(mut items), PathStep::Index(i)) => {
                mark_element(&mut items, *i, rest, marks);
                Value::Tuple(items)
            }
            (Value::List(mut items), PathStep::Index(i)) => {
                mark_element(&mut items, *i, rest, marks);
                Value::List(items)
            }
            // Marks inside a set mark the set.
            (Value::Set(items), _) => Value::Set(items).mark(marks),
            (Value::Object(mut map), PathStep::Key(k)) => {
                mark_entry(&mut map, k, rest, marks);
                Value::Object(map)
            }
            (Value::Map(mut map), PathStep::Key(k)) => {
                mark_entry(&mut map, k, rest, marks);
                Value::Map(map)
            }
            (Value::PartialObject(mut map), PathStep::Key(k)) => {
                mark_entry(&mut map, k, rest, marks);
                Value::PartialObject(map)
            }
            (other, _) => other,
        };
        value.mark(own)
    }

    /// Where the value is sensitive, as `terraform show -json` writes `before_sensitive`
    /// and `after_sensitive` (Terraform's `SensitiveAsBool`): `true` for a sensitive
    /// value; `false` for any other primitive, null or untyped value; for a collection
    /// its mirror (an array for a list, tuple or set, an object without the `false`
    /// entries for a map or object), empty when it is unknown.
    pub fn sensitive_json(&self) -> Json {
        if self.marks().contains(Marks::SENSITIVE) {
            return Json::Bool(true);
        }
        let value = self.unmarked();
        match value {
            Value::Tuple(items) | Value::List(items) | Value::Set(items) => {
                Json::Array(items.iter().map(Value::sensitive_json).collect())
            }
            Value::Object(map) | Value::Map(map) | Value::PartialObject(map) => Json::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), v.sensitive_json()))
                    .filter(|(_, s)| *s != Json::Bool(false))
                    .collect(),
            ),
            Value::UnknownOf(Type::Object(_) | Type::Map(_), _) => Json::Object(Map::new()),
            Value::UnknownOf(Type::List(_) | Type::Set(_) | Type::Tuple(_), _) => {
                Json::Array(Vec::new())
            }
            _ => Json::Bool(false),
        }
    }
}

fn mark_element(items: &mut [Value], i: usize, rest: &[PathStep], marks: Marks) {
    if let Some(slot) = items.get_mut(i) {
        *slot = std::mem::replace(slot, Value::Null).mark_at(rest, marks);
    }
}

fn mark_entry(
    map: &mut std::collections::BTreeMap<String, Value>,
    key: &str,
    rest: &[PathStep],
    marks: Marks,
) {
    if let Some(slot) = map.get_mut(key) {
        *slot = std::mem::replace(slot, Value::Null).mark_at(rest, marks);
    }
}
