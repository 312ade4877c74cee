//! go-cty's refinements of unknown values (`cty/unknown_refinement.go`): what is known of
//! a value that will only be known after apply, beyond its type. Terraform's builtin
//! provider plans `terraform_data`'s new `id` as an unknown that is not null; HCL's
//! templates, operators and conditionals and cty's functions refine their unknown
//! results; and an operation on a refined unknown can then be known (`id == null` is
//! `false`).
//!
//! Only an unknown of a known type can be refined (`Value::UnknownOf`); an untyped unknown
//! (`cty.DynamicVal`) never is. Which facts apply depends on the type: a string has a
//! known prefix, a number bounds, a list, set or map bounds on its length, and every type
//! whether it may be null. Where cty panics at a refinement that contradicts the value
//! (a bug of the caller), the refinement is ignored here.

use std::cmp::Ordering;

use unicode_segmentation::UnicodeSegmentation;

use super::value::Value;
use crate::types::Type;

/// One end of a number's range: its value and whether the range includes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bound {
    /// The number at the end of the range.
    pub value: f64,
    /// Whether the range includes `value`.
    pub inclusive: bool,
}

/// What an unknown value is known to be beyond its type; nothing when unrefined.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Refinement(Option<Box<Facts>>);

/// The facts of a refinement, each meaningful for some types only (cty keeps one
/// refinement kind per type; those that do not apply stay at their defaults).
#[derive(Debug, Clone, PartialEq, Default)]
struct Facts {
    /// Definitely not null (cty's `tristateFalse`; a value refined as null is known).
    not_null: bool,
    /// A string's known prefix.
    prefix: String,
    /// A number's lower bound.
    lower: Option<Bound>,
    /// A number's upper bound.
    upper: Option<Bound>,
    /// A collection's least length.
    min_length: usize,
    /// A collection's greatest length, where bounded.
    max_length: Option<usize>,
}

impl Refinement {
    /// No refinement: any value of the type.
    pub const NONE: Refinement = Refinement(None);

    fn facts(&self) -> Facts {
        self.0.as_deref().cloned().unwrap_or_default()
    }

    fn of(facts: Facts) -> Refinement {
        match facts == Facts::default() {
            true => Refinement::NONE,
            false => Refinement(Some(Box::new(facts))),
        }
    }

    /// Whether the value is known not to be null.
    pub fn is_not_null(&self) -> bool {
        self.0.as_ref().is_some_and(|f| f.not_null)
    }
}

/// An unknown value of `ty` known not to be null (cty's `UnknownVal(ty).RefineNotNull()`);
/// untyped, and so unrefined, when `ty` is `any`.
pub fn not_null_unknown(ty: Type) -> Value {
    super::operations::unknown_of(ty)
        .refine()
        .not_null()
        .value()
}

impl Value {
    /// A builder of a more refined value (cty's `Value.Refine`): for a known value or an
    /// untyped unknown, every refinement leaves the value as it is.
    pub fn refine(self) -> Refine {
        let (value, marks) = self.unmark();
        let facts = match &value {
            Value::UnknownOf(_, refinement) => refinement.facts(),
            _ => Facts::default(),
        };
        Refine {
            value,
            marks,
            facts,
        }
    }

    /// What is known of the value's range (cty's `Value.Range`), through its marks: an
    /// unknown's refinement, or for a known value the narrow range of that value.
    pub fn range(&self) -> ValueRange {
        let value = self.unmarked();
        let ty = value.ty();
        let (null, facts) = match value {
            Value::Unknown => (None, Facts::default()),
            Value::UnknownOf(_, refinement) => {
                let facts = refinement.facts();
                (facts.not_null.then_some(false), facts)
            }
            Value::Null => (Some(true), Facts::default()),
            known => {
                let mut facts = Facts {
                    not_null: true,
                    ..Facts::default()
                };
                match known {
                    Value::String(s) => facts.prefix = s.clone(),
                    Value::Number(n) => {
                        let exactly = Some(Bound {
                            value: *n,
                            inclusive: true,
                        });
                        (facts.lower, facts.upper) = (exactly, exactly);
                    }
                    Value::List(_) | Value::Set(_) | Value::Map(_) => {
                        if let Some(length) = known_length(known) {
                            (facts.min_length, facts.max_length) = (length, Some(length));
                        }
                    }
                    _ => {}
                }
                (Some(false), facts)
            }
        };
        ValueRange { ty, null, facts }
    }
}

/// The length of a known collection, where cty knows it: a set holding an unknown
/// element may yet have fewer elements.
fn known_length(v: &Value) -> Option<usize> {
    match v.unmarked() {
        Value::Set(items) if !items.iter().all(Value::is_wholly_known) => None,
        Value::List(items) | Value::Set(items) | Value::Tuple(items) => Some(items.len()),
        Value::Map(map) | Value::Object(map) => Some(map.len()),
        _ => None,
    }
}

/// A value being refined (cty's `RefinementBuilder`); `value` ends it.
#[derive(Debug)]
pub struct Refine {
    value: Value,
    marks: super::marks::Marks,
    facts: Facts,
}

impl Refine {
    /// The type being refined, where it can be: an unknown's known type.
    fn refinable(&self) -> Option<&Type> {
        match &self.value {
            Value::UnknownOf(ty, _) if *ty != Type::Dynamic => Some(ty),
            _ => None,
        }
    }

    fn collection(&self) -> bool {
        matches!(
            self.refinable(),
            Some(Type::List(_) | Type::Set(_) | Type::Map(_))
        )
    }

    /// Known not to be null.
    pub fn not_null(mut self) -> Self {
        if self.refinable().is_some() {
            self.facts.not_null = true;
        }
        self
    }

    /// A string known to start with `prefix`, less a last character that what follows
    /// might combine with (cty's `StringPrefix`, `ctystrings.SafeKnownPrefix`).
    pub fn string_prefix(self, prefix: &str) -> Self {
        let safe = safe_known_prefix(prefix);
        self.string_prefix_full(&safe)
    }

    /// A string known to start with all of `prefix` (cty's `StringPrefixFull`): kept
    /// where it is longer than the prefix already known and agrees with it.
    pub fn string_prefix_full(mut self, prefix: &str) -> Self {
        if self.refinable() != Some(&Type::String) {
            return self;
        }
        let prefix: String = unicode_normalization::UnicodeNormalization::nfc(prefix).collect();
        let agrees =
            prefix.starts_with(&self.facts.prefix) || self.facts.prefix.starts_with(&prefix);
        if agrees && prefix.len() > self.facts.prefix.len() {
            self.facts.prefix = prefix;
        }
        self
    }

    /// A number at least (or, not `inclusive`, more than) `min`; a bound that says less
    /// than the one already known is ignored.
    pub fn number_lower(mut self, min: f64, inclusive: bool) -> Self {
        if self.refinable() != Some(&Type::Number) || min.is_nan() {
            return self;
        }
        if !narrows(self.facts.lower, min, inclusive, Ordering::Greater) {
            return self;
        }
        if min != f64::NEG_INFINITY {
            self.facts.lower = Some(Bound {
                value: min,
                inclusive,
            });
        }
        self
    }

    /// A number at most (or, not `inclusive`, less than) `max`; a bound that says less
    /// than the one already known is ignored.
    pub fn number_upper(mut self, max: f64, inclusive: bool) -> Self {
        if self.refinable() != Some(&Type::Number) || max.is_nan() {
            return self;
        }
        if !narrows(self.facts.upper, max, inclusive, Ordering::Less) {
            return self;
        }
        if max != f64::INFINITY {
            self.facts.upper = Some(Bound {
                value: max,
                inclusive,
            });
        }
        self
    }

    /// A collection of at least `min` elements.
    pub fn length_lower(mut self, min: usize) -> Self {
        if self.collection() && min > self.facts.min_length {
            self.facts.min_length = min;
        }
        self
    }

    /// A collection of at most `max` elements.
    pub fn length_upper(mut self, max: usize) -> Self {
        if self.collection() && self.facts.max_length.is_none_or(|old| max < old) {
            self.facts.max_length = Some(max);
        }
        self
    }

    /// The refined value (cty's `NewValue`): known where the refinements leave one value
    /// (a number between equal inclusive bounds, an empty collection), a list of unknown
    /// elements where its length is known, else the unknown with its refinements.
    pub fn value(self) -> Value {
        let marks = self.marks;
        let Value::UnknownOf(ty, _) = self.value else {
            return self.value.mark(marks);
        };
        let facts = self.facts;
        if facts.not_null {
            if let (Some(lower), Some(upper)) = (facts.lower, facts.upper) {
                if lower.inclusive && upper.inclusive && lower.value == upper.value {
                    return Value::Number(lower.value).mark(marks);
                }
            }
            if facts.max_length == Some(facts.min_length) {
                let length = facts.min_length;
                let unknown = |t: &Type| super::operations::unknown_of(t.clone());
                let known = match &ty {
                    Type::List(_) if length == 0 => Some(Value::List(Vec::new().into())),
                    Type::Set(_) if length == 0 => Some(Value::Set(Vec::new().into())),
                    Type::Map(_) if length == 0 => Some(Value::Map(Default::default())),
                    Type::List(element) => Some(Value::List(vec![unknown(element); length].into())),
                    Type::Set(element) if length == 1 => {
                        Some(Value::Set(vec![unknown(element)].into()))
                    }
                    _ => None,
                };
                if let Some(known) = known {
                    return known.mark(marks);
                }
            }
        }
        Value::UnknownOf(ty, Refinement::of(facts)).mark(marks)
    }
}

/// Whether a bound at `value` says more than the bound `old` at the same end of a range,
/// `inward` the direction that narrows it (greater for a lower bound): as cty keeps the
/// more constrained one, an inclusive bound replaces an exclusive one only beyond it.
fn narrows(old: Option<Bound>, value: f64, inclusive: bool, inward: Ordering) -> bool {
    let Some(old) = old else {
        return true;
    };
    match value.total_cmp(&old.value) {
        Ordering::Equal => !inclusive || old.inclusive,
        order => order == inward,
    }
}

/// `prefix` less its last grapheme cluster, which characters that follow might extend,
/// unless that cluster is one of the punctuation characters cty knows always ends one
/// (`ctystrings.SafeKnownPrefix`).
fn safe_known_prefix(prefix: &str) -> String {
    let prefix: String = unicode_normalization::UnicodeNormalization::nfc(prefix).collect();
    let Some((start, last)) = prefix.grapheme_indices(true).next_back() else {
        return prefix;
    };
    let ends_cluster = last.chars().count() == 1
        && last.chars().all(|c| {
            matches!(
                c,
                '-' | '_'
                    | ':'
                    | ';'
                    | '/'
                    | '\\'
                    | ','
                    | '.'
                    | '('
                    | ')'
                    | '{'
                    | '}'
                    | '['
                    | ']'
                    | '|'
                    | '?'
                    | '!'
                    | '~'
                    | ' '
                    | '\t'
                    | '@'
                    | '#'
                    | '$'
                    | '%'
                    | '^'
                    | '&'
                    | '*'
                    | '+'
                    | '"'
                    | '\''
            )
        });
    match ends_cluster {
        true => prefix,
        false => prefix[..start].to_string(),
    }
}

/// What is known of a value's range (cty's `ValueRange`), known or unknown.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueRange {
    ty: Type,
    /// `Some(true)` null, `Some(false)` not null, `None` either.
    null: Option<bool>,
    facts: Facts,
}

impl ValueRange {
    /// The value's type, as far as it is known.
    pub fn ty(&self) -> &Type {
        &self.ty
    }

    /// Whether the value is certainly not null.
    pub fn definitely_not_null(&self) -> bool {
        self.null == Some(false)
    }

    /// A number's lower bound, `None` where it has none (or is not known to be a number).
    pub fn number_lower(&self) -> Option<Bound> {
        self.facts.lower
    }

    /// A number's upper bound, `None` where it has none.
    pub fn number_upper(&self) -> Option<Bound> {
        self.facts.upper
    }

    /// A string's known prefix (empty where none is known).
    pub fn string_prefix(&self) -> &str {
        &self.facts.prefix
    }

    /// A collection's least length.
    pub fn length_lower(&self) -> usize {
        self.facts.min_length
    }

    /// A collection's greatest length, `None` where unbounded.
    pub fn length_upper(&self) -> Option<usize> {
        self.facts.max_length
    }

    /// Whether `v`, a known value, is in the range (cty's `ValueRange.Includes`):
    /// `Some(false)` where it definitely is not, `Some(true)` where it definitely is,
    /// `None` where that is not known. Like cty's, it mainly disproves.
    pub fn includes(&self, v: &Value) -> Option<bool> {
        match self.null {
            Some(true) => return Some(v.is_null()),
            Some(false) if v.is_null() => return Some(false),
            _ if v.is_null() => return Some(true),
            _ => {}
        }
        let v_ty = v.ty();
        // Strata's types of known values are exact for primitives only: a primitive of
        // another type, or a primitive against a structure, can never conform.
        let primitive_mismatch = (v_ty.is_primitive() || self.ty.is_primitive())
            && v_ty != Type::Dynamic
            && self.ty != Type::Dynamic
            && v_ty != self.ty;
        if primitive_mismatch {
            return Some(false);
        }
        if v_ty == Type::Dynamic || !v.is_known() {
            return None;
        }
        let outside = match &self.ty {
            Type::String => v
                .as_str()
                .is_some_and(|s| !s.starts_with(&self.facts.prefix)),
            Type::List(_) | Type::Set(_) | Type::Map(_) => known_length(v).is_some_and(|n| {
                n < self.facts.min_length || self.facts.max_length.is_some_and(|max| n > max)
            }),
            Type::Number => v.to_number().is_some_and(|n| {
                let below = self.facts.lower.is_some_and(|b| match b.inclusive {
                    true => n < b.value,
                    false => n <= b.value,
                });
                let above = self.facts.upper.is_some_and(|b| match b.inclusive {
                    true => n > b.value,
                    false => n >= b.value,
                });
                below || above
            }),
            _ => false,
        };
        outside.then_some(false)
    }
}

/// An unknown value of the range `source` converted to `target` (cty's
/// `prepareUnknownResult`): not null where it was not, and with the length a
/// conversion keeps (an object's attributes as a map's elements, a tuple's elements as
/// a list's, at most as many in a set, and a collection's own bounds).
pub fn converted_unknown(source: &ValueRange, target: &Type) -> Value {
    let mut refine = Value::UnknownOf(target.clone(), Refinement::NONE).refine();
    if source.definitely_not_null() {
        refine = refine.not_null();
    }
    let collection = |t: &Type| matches!(t, Type::List(_) | Type::Set(_) | Type::Map(_));
    let exactly = |refine: Refine, n: usize| refine.length_lower(n).length_upper(n);
    match (source.ty(), target) {
        (Type::Object(attrs), Type::Map(_)) => exactly(refine, attrs.len()),
        (Type::Tuple(items), Type::List(_)) => exactly(refine, items.len()),
        (Type::Tuple(items), Type::Set(_)) if items.len() <= 1 => exactly(refine, items.len()),
        (Type::Tuple(items), Type::Set(_)) => refine.length_lower(1).length_upper(items.len()),
        (from, to) if collection(from) && collection(to) => {
            let refine = match to {
                // Elements may coalesce, but never to none.
                Type::Set(_) if source.length_lower() > 0 => refine.length_lower(1),
                Type::Set(_) => refine,
                _ => refine.length_lower(source.length_lower()),
            };
            match source.length_upper() {
                Some(max) => refine.length_upper(max),
                None => refine,
            }
        }
        _ => refine,
    }
    .value()
}

/// Whether `v` is certainly not null: known and not null, or refined so (cty's
/// `definitelyNotNull`).
pub fn definitely_not_null(v: &Value) -> bool {
    v.range().definitely_not_null()
}

#[cfg(test)]
#[path = "refinement_tests.rs"]
mod tests;
