//! The contents of collection values, shared between copies as cty shares them.
//!
//! Reading a value through a reference copies it (`Scope::lookup` returns it whole), and
//! a value may hold the same value many times (`[local.a, local.a]`). Were each copy
//! deep, such values would cost time and memory exponential in the configuration's size
//! even below the evaluation budget, which counts each element of a value read (issue 12:
//! `l_i = [l_(i-1), l_(i-1)]`). So a copy of a collection shares its elements, behind an
//! [`Arc`], and a change to one copy first makes its own (copy on write, `make_mut`).
//! Both types read as the `Vec` and `BTreeMap` they hold.
//!
//! Each also keeps what reading it costs (`budget::Weight`) once that is first asked,
//! so that the budget charges a shared value's full size without walking it again at
//! every read; a change forgets it.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, OnceLock};

use super::budget::Weight;
use super::value::Value;

/// The elements of a tuple, list or set.
#[derive(Clone, Default, PartialEq)]
pub struct Elements(Arc<Shared<Vec<Value>>>);

/// The attributes of an object or partial object, or the elements of a map, by name.
#[derive(Clone, Default, PartialEq)]
pub struct Attributes(Arc<Shared<BTreeMap<String, Value>>>);

/// Contents shared between copies, with their weight once known.
#[derive(Default)]
struct Shared<T> {
    contents: T,
    weight: OnceLock<Weight>,
}

impl<T: Clone> Clone for Shared<T> {
    /// A copy to change: its weight is computed again when asked.
    fn clone(&self) -> Self {
        Shared::new(self.contents.clone())
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        self.contents == other.contents
    }
}

impl<T> Shared<T> {
    fn new(contents: T) -> Self {
        Shared {
            contents,
            weight: OnceLock::new(),
        }
    }
}

/// The contents of `shared`, made its own (copied where still shared) to be changed.
fn own<T: Clone>(shared: &mut Arc<Shared<T>>) -> &mut T {
    let own = Arc::make_mut(shared);
    own.weight = OnceLock::new();
    &mut own.contents
}

/// The contents of `shared` as a value of their own (copied only where still shared).
fn unwrap<T: Clone>(shared: Arc<Shared<T>>) -> T {
    Arc::try_unwrap(shared)
        .map(|s| s.contents)
        .unwrap_or_else(|shared| shared.contents.clone())
}

impl Elements {
    /// The elements as a `Vec` of their own (a copy of each only where still shared).
    pub fn into_vec(self) -> Vec<Value> {
        unwrap(self.0)
    }

    /// The weight of these elements, where it was computed.
    pub(super) fn weight(&self) -> &OnceLock<Weight> {
        &self.0.weight
    }
}

impl Attributes {
    /// The attributes as a map of their own (a copy only where still shared).
    pub fn into_map(self) -> BTreeMap<String, Value> {
        unwrap(self.0)
    }

    /// The weight of these attributes, where it was computed.
    pub(super) fn weight(&self) -> &OnceLock<Weight> {
        &self.0.weight
    }
}

impl Deref for Elements {
    type Target = Vec<Value>;
    fn deref(&self) -> &Vec<Value> {
        &self.0.contents
    }
}

impl DerefMut for Elements {
    /// The elements to change, copied first if another value shares them.
    fn deref_mut(&mut self) -> &mut Vec<Value> {
        own(&mut self.0)
    }
}

impl Deref for Attributes {
    type Target = BTreeMap<String, Value>;
    fn deref(&self) -> &BTreeMap<String, Value> {
        &self.0.contents
    }
}

impl DerefMut for Attributes {
    /// The attributes to change, copied first if another value shares them.
    fn deref_mut(&mut self) -> &mut BTreeMap<String, Value> {
        own(&mut self.0)
    }
}

impl From<Vec<Value>> for Elements {
    fn from(items: Vec<Value>) -> Self {
        Elements(Arc::new(Shared::new(items)))
    }
}

impl From<BTreeMap<String, Value>> for Attributes {
    fn from(map: BTreeMap<String, Value>) -> Self {
        Attributes(Arc::new(Shared::new(map)))
    }
}

impl FromIterator<Value> for Elements {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Self {
        Elements::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl FromIterator<(String, Value)> for Attributes {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Self {
        Attributes::from(iter.into_iter().collect::<BTreeMap<_, _>>())
    }
}

impl IntoIterator for Elements {
    type Item = Value;
    type IntoIter = std::vec::IntoIter<Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<'a> IntoIterator for &'a Elements {
    type Item = &'a Value;
    type IntoIter = std::slice::Iter<'a, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.contents.iter()
    }
}

impl IntoIterator for Attributes {
    type Item = (String, Value);
    type IntoIter = std::collections::btree_map::IntoIter<String, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_map().into_iter()
    }
}

impl<'a> IntoIterator for &'a Attributes {
    type Item = (&'a String, &'a Value);
    type IntoIter = std::collections::btree_map::Iter<'a, String, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.contents.iter()
    }
}

impl fmt::Debug for Elements {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.contents.fmt(f)
    }
}

impl fmt::Debug for Attributes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.contents.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_share_until_one_changes() {
        let a: Elements = vec![Value::Number(1.0)].into();
        let mut b = a.clone();
        assert!(Arc::ptr_eq(&a.0, &b.0));
        a.weight().get_or_init(Weight::default);
        b.weight().get_or_init(Weight::default);
        b.push(Value::Number(2.0));
        assert!(b.weight().get().is_none(), "a change forgets the weight");
        assert!(a.weight().get().is_some());
        assert_eq!(a.len(), 1);
        assert_eq!(b.len(), 2);
    }

    #[test]
    fn a_value_doubled_many_times_is_cheap_to_copy() {
        // 2^40 elements as a tree, held in 40 shared nodes.
        let mut v = Value::Tuple(vec![Value::Number(1.0)].into());
        for _ in 0..40 {
            v = Value::Tuple(vec![v.clone(), v].into());
        }
        let copy = v.clone();
        assert_eq!(copy.elements().map(<[Value]>::len), Some(2));
    }
}
