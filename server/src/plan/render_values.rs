//! Collection and object values in the plan text, as `terraform plan` renders them
//! (`command/jsonformat/computed/renderers`): a list, set, map or object opens on its
//! attribute's line and holds one line per element, each with its own change symbol,
//! closed two columns right of the symbol that opened it. Nothing inside is shown
//! inline: `[]` and `{}` only when empty.
//!
//! - a map's keys are quoted and aligned over every key; an object's attributes are
//!   aligned over every attribute; elements and attributes that do not change are
//!   counted (`# (2 unchanged elements hidden)`), and attributes that are null on both
//!   sides count as unchanged;
//! - a list is compared as Terraform compares it (`collections.TransformSlice`: a longest
//!   common subsequence, objects out of it paired as updates) and shows the unchanged
//!   element before and after each change for context; a set's elements are added,
//!   removed or unchanged;
//! - `-> null` ends only the outermost value of a removal, `(known after apply)` stands
//!   for an unknown value, `old -> new` for a changed primitive;
//! - a value sensitive before or after is `(sensitive value)`, whatever it holds, and an
//!   update that makes it sensitive or no longer sensitive says so above its line
//!   (`sensitivity_warning`).

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::eval::{Marks, Value};
use crate::schema::{AttributeSchema, ValueType};

/// The change symbol of a value's line (`+`, `-`, `~`, or a space when unchanged).
pub(super) fn symbol(old: &Value, new: &Value) -> char {
    match (old.is_null(), new.is_null()) {
        (true, true) => ' ',
        (true, false) => '+',
        (false, true) => '-',
        (false, false) if old == new => ' ',
        (false, false) => '~',
    }
}

/// The text after `name = ` of a value of type `ty` (when the schema gives it) changing
/// from `old` to `new` (`Value::Null` for none), on a line whose symbol is at column
/// `at`.
pub(super) fn render(old: &Value, new: &Value, at: usize, ty: Option<&ValueType>) -> String {
    let mut out = String::new();
    Renderer { show_all: false }.value(&mut out, old, new, at, false, ty);
    out
}

/// Whether a value is marked sensitive.
fn sensitive(v: &Value) -> bool {
    v.marks().contains(Marks::SENSITIVE)
}

/// The comment Terraform writes above an updated value that becomes sensitive or stops
/// being sensitive (none for a value created or removed).
pub(super) fn sensitivity_warning(old: &Value, new: &Value) -> Option<[String; 2]> {
    if old.is_null() || new.is_null() || sensitive(old) == sensitive(new) {
        return None;
    }
    let (first, second) = match sensitive(new) {
        true => (
            "# Warning: this attribute value will be marked as sensitive and will not",
            "# display in UI output after applying this change.",
        ),
        false => (
            "# Warning: this attribute value will no longer be marked as sensitive",
            "# after applying this change.",
        ),
    };
    let same = match old.unmarked() == new.unmarked() {
        true => " The value is unchanged.",
        false => "",
    };
    Some([first.to_string(), format!("{second}{same}")])
}

/// The type of an attribute's value, nested attribute types included.
pub(super) fn attribute_type(a: &AttributeSchema) -> Option<ValueType> {
    match &a.nested {
        Some(nested) => Some(nested.value_type()),
        None => a.value_type.clone(),
    }
}

/// The type of an element of a collection of type `ty`.
fn element_type(ty: Option<&ValueType>) -> Option<&ValueType> {
    match ty? {
        ValueType::List(e) | ValueType::Set(e) | ValueType::Map(e) => Some(e),
        _ => None,
    }
}

/// The type of attribute `name` of an object of type `ty`.
fn attribute_of<'t>(ty: Option<&'t ValueType>, name: &str) -> Option<&'t ValueType> {
    match ty? {
        ValueType::Object { attributes, .. } => attributes.get(name),
        _ => None,
    }
}

/// Whether a value of type `ty` is shown as a set (by its type, else by its kind).
fn shown_as_set(v: &Value, ty: Option<&ValueType>) -> bool {
    match ty {
        Some(ValueType::Set(_)) => true,
        Some(ValueType::List(_) | ValueType::Tuple(_)) => false,
        _ => matches!(v, Value::Set(_)),
    }
}

/// Whether a value of type `ty` is shown as a map, with quoted keys.
fn shown_as_map(v: &Value, ty: Option<&ValueType>) -> bool {
    match ty {
        Some(ValueType::Map(_)) => true,
        Some(ValueType::Object { .. }) => false,
        _ => matches!(v, Value::Map(_)),
    }
}

struct Renderer {
    /// Whether unchanged children are shown too (an unchanged list element shown for
    /// context).
    show_all: bool,
}

impl Renderer {
    /// Writes the change; `inner` when an enclosing value already says `-> null`.
    fn value(
        &self,
        out: &mut String,
        old: &Value,
        new: &Value,
        at: usize,
        inner: bool,
        ty: Option<&ValueType>,
    ) {
        let null_suffix = if new.is_null() && !old.is_null() && !inner {
            " -> null"
        } else {
            ""
        };
        if sensitive(old) || sensitive(new) {
            out.push_str("(sensitive value)");
            out.push_str(null_suffix);
            return;
        }
        let (old, new) = (old.unmarked(), new.unmarked());
        if is_unknown(new) {
            if !old.is_null() {
                self.value(out, old, &Value::Null, at, true, ty);
                out.push_str(" -> ");
            }
            out.push_str("(known after apply)");
            return;
        }
        let shown = if new.is_null() { old } else { new };
        let set = shown_as_set(shown, ty);
        let map = shown_as_map(shown, ty);
        let none = BTreeMap::new();
        let lists = match (items(old), items(new)) {
            (Some(b), Some(a)) => Some((b, a)),
            (Some(b), None) if new.is_null() => Some((b, Vec::new())),
            (None, Some(a)) if old.is_null() => Some((Vec::new(), a)),
            _ => None,
        };
        let maps = match (entries(old), entries(new)) {
            (Some(b), Some(a)) => Some((b, a)),
            (Some(b), None) if new.is_null() => Some((b, &none)),
            (None, Some(a)) if old.is_null() => Some((&none, a)),
            _ => None,
        };
        let element = element_type(ty);
        match (lists, maps) {
            (Some((before, after)), _) if before.is_empty() && after.is_empty() => {
                out.push_str("[]");
            }
            (Some((before, after)), _) if set => self.set(out, &before, &after, at, element),
            (Some((before, after)), _) => self.list(out, &before, &after, at, element),
            (_, Some((before, after))) => self.entries(out, before, after, at, map, ty),
            _ if old.is_null() || new.is_null() || old == new => {
                let _ = write!(out, "{shown}");
            }
            _ => {
                let _ = write!(out, "{old} -> {new}");
            }
        }
        out.push_str(null_suffix);
    }

    /// A list: elements matched as `TransformSlice` matches them, each change shown with
    /// the unchanged element before and after it.
    fn list(
        &self,
        out: &mut String,
        before: &[&Value],
        after: &[&Value],
        at: usize,
        ty: Option<&ValueType>,
    ) {
        let pairs = transform_slice(before, after);
        out.push_str("[\n");
        let child = at + 4;
        let context = Renderer { show_all: true };
        let mut unchanged: Vec<(&Value, &Value)> = Vec::new();
        let mut render_next = false;
        for (o, n) in pairs {
            let changed = symbol(o, n) != ' ';
            if !changed && !render_next && !self.show_all {
                unchanged.push((o, n));
                continue;
            }
            render_next = false;
            if unchanged.len() > 1 {
                let hidden = unchanged.len() - 1;
                let _ = writeln!(out, "{}{}", pad(child + 2), count("element", hidden));
            }
            if let Some((lo, ln)) = unchanged.last() {
                context.element(out, lo, ln, child, ty);
            }
            unchanged.clear();
            if changed {
                render_next = true;
                self.element(out, o, n, child, ty);
            } else {
                context.element(out, o, n, child, ty);
            }
        }
        if !unchanged.is_empty() {
            let _ = writeln!(
                out,
                "{}{}",
                pad(child + 2),
                count("element", unchanged.len())
            );
        }
        let _ = write!(out, "{}]", pad(at + 2));
    }

    /// One element of a list or set, on its own line, followed by a comma.
    fn element(
        &self,
        out: &mut String,
        old: &Value,
        new: &Value,
        at: usize,
        ty: Option<&ValueType>,
    ) {
        let _ = write!(out, "{}{} ", pad(at), symbol(old, new));
        self.value(out, old, new, at, true, ty);
        out.push_str(",\n");
    }

    /// A set: elements in both are unchanged, the others removed or added.
    fn set(
        &self,
        out: &mut String,
        before: &[&Value],
        after: &[&Value],
        at: usize,
        ty: Option<&ValueType>,
    ) {
        out.push_str("[\n");
        let child = at + 4;
        let mut hidden = 0;
        let kept = |v: &Value, other: &[&Value]| other.contains(&v);
        for o in before {
            if kept(o, after) {
                if self.show_all {
                    self.element(out, o, o, child, ty);
                } else {
                    hidden += 1;
                }
            } else {
                self.element(out, o, &Value::Null, child, ty);
            }
        }
        for n in after.iter().filter(|n| !kept(n, before)) {
            self.element(out, &Value::Null, n, child, ty);
        }
        if hidden > 0 {
            let _ = writeln!(out, "{}{}", pad(child + 2), count("element", hidden));
        }
        let _ = write!(out, "{}]", pad(at + 2));
    }

    /// A map (`map`) or an object of type `ty`: one line per key, aligned over every key.
    fn entries(
        &self,
        out: &mut String,
        before: &BTreeMap<String, Value>,
        after: &BTreeMap<String, Value>,
        at: usize,
        map: bool,
        ty: Option<&ValueType>,
    ) {
        let mut keys: Vec<&String> = before.keys().chain(after.keys()).collect();
        keys.sort();
        keys.dedup();
        if keys.is_empty() {
            out.push_str("{}");
            return;
        }
        let name = |k: &str| match map {
            true => serde_json::Value::String(k.to_string()).to_string(),
            false => k.to_string(),
        };
        let width = keys.iter().map(|k| name(k).len()).max().unwrap_or(0);
        out.push_str("{\n");
        let child = at + 4;
        let mut hidden = 0;
        // Inside a removed map or object, nothing repeats `-> null`.
        let inner = after.is_empty() && !before.is_empty();
        for key in keys {
            let o = before.get(key).unwrap_or(&Value::Null);
            let n = after.get(key).unwrap_or(&Value::Null);
            let sym = symbol(o, n);
            if sym == ' ' && !self.show_all {
                hidden += 1;
                continue;
            }
            let inner_ty = match map {
                true => element_type(ty),
                false => attribute_of(ty, key),
            };
            let object = matches!(inner_ty, Some(ValueType::Object { .. }))
                || (inner_ty.is_none() && matches!(n, Value::Object(_)));
            let comma = if map && object { "," } else { "" };
            for line in sensitivity_warning(o, n).into_iter().flatten() {
                let _ = writeln!(out, "{}{line}", pad(child));
            }
            let _ = write!(out, "{}{sym} {:<width$} = ", pad(child), name(key));
            self.value(out, o, n, child, inner, inner_ty);
            let _ = writeln!(out, "{comma}");
        }
        if hidden > 0 {
            let what = if map { "element" } else { "attribute" };
            let _ = writeln!(out, "{}{}", pad(child + 2), count(what, hidden));
        }
        let _ = write!(out, "{}}}", pad(at + 2));
    }
}

/// `collections.TransformSlice`: the elements of `before` and `after` paired along
/// their longest common subsequence; out of it, an object of `before` is paired with the
/// next object of `after` (an update), other elements are removed or added.
fn transform_slice<'v>(before: &[&'v Value], after: &[&'v Value]) -> Vec<(&'v Value, &'v Value)> {
    let common = longest_common_subsequence(before, after);
    let null = &Value::Null;
    let (mut b, mut a, mut c) = (0, 0, 0);
    let mut pairs = Vec::new();
    let is_object = |v: &Value| matches!(v, Value::Object(_));
    while b < before.len() || a < after.len() || c < common.len() {
        while b < before.len() && (c >= common.len() || before[b] != common[c]) {
            let next_after_free = a < after.len() && (c >= common.len() || after[a] != common[c]);
            if is_object(before[b]) && next_after_free && is_object(after[a]) {
                pairs.push((before[b], after[a]));
                a += 1;
            } else {
                pairs.push((before[b], null));
            }
            b += 1;
        }
        while a < after.len() && (c >= common.len() || after[a] != common[c]) {
            pairs.push((null, after[a]));
            a += 1;
        }
        if c < common.len() {
            pairs.push((before[b], after[a]));
            b += 1;
            a += 1;
            c += 1;
        }
    }
    pairs
}

/// The longest common subsequence of two lists of values.
fn longest_common_subsequence<'v>(xs: &[&'v Value], ys: &[&'v Value]) -> Vec<&'v Value> {
    let (n, m) = (xs.len(), ys.len());
    let mut table = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[i][j] = match xs[i] == ys[j] {
                true => table[i + 1][j + 1] + 1,
                false => table[i + 1][j].max(table[i][j + 1]),
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < n && j < m {
        if xs[i] == ys[j] {
            out.push(xs[i]);
            i += 1;
            j += 1;
        } else if table[i + 1][j] >= table[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

fn is_unknown(v: &Value) -> bool {
    matches!(v, Value::Unknown | Value::UnknownOf(_))
}

/// The elements of a list, tuple or set.
fn items(v: &Value) -> Option<Vec<&Value>> {
    match v {
        Value::List(items) | Value::Tuple(items) | Value::Set(items) => {
            Some(items.iter().collect())
        }
        _ => None,
    }
}

/// The entries of a map or object.
fn entries(v: &Value) -> Option<&BTreeMap<String, Value>> {
    match v {
        Value::Map(m) | Value::Object(m) | Value::PartialObject(m) => Some(m),
        _ => None,
    }
}

fn pad(n: usize) -> String {
    " ".repeat(n)
}

/// `# (N unchanged elements hidden)`.
fn count(what: &str, n: usize) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("# ({n} unchanged {what}{s} hidden)")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<Value> {
        items.iter().map(|s| Value::string(*s)).collect()
    }

    fn map(pairs: &[(&str, &str)]) -> Value {
        Value::Map(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), Value::string(*v)))
                .collect(),
        )
    }

    #[test]
    fn a_removed_map_says_null_once() {
        let old = map(&[("a", "1"), ("bb", "2")]);
        assert_eq!(
            render(&old, &Value::Null, 6, None),
            "{\n          - \"a\"  = \"1\"\n          - \"bb\" = \"2\"\n        } -> null"
        );
    }

    #[test]
    fn a_list_change_shows_its_neighbours_and_counts_the_rest() {
        let old = Value::List(strings(&["a", "b", "c", "d"]));
        let new = Value::List(strings(&["a", "b", "c", "e"]));
        assert_eq!(
            render(&old, &new, 6, None),
            "[\n            # (2 unchanged elements hidden)\n            \"c\",\n          - \"d\",\n          + \"e\",\n        ]"
        );
    }

    #[test]
    fn a_value_known_only_after_apply_follows_the_old_one() {
        let old = Value::List(strings(&["a"]));
        assert_eq!(
            render(&old, &Value::Unknown, 6, None),
            "[\n          - \"a\",\n        ] -> (known after apply)"
        );
        assert_eq!(
            render(&Value::Null, &Value::Unknown, 6, None),
            "(known after apply)"
        );
    }

    #[test]
    fn the_schema_type_decides_map_keys_and_sets() {
        let object = Value::Object(BTreeMap::from([("k".to_string(), Value::string("v"))]));
        let ty = ValueType::Map(Box::new(ValueType::String));
        assert_eq!(
            render(&Value::Null, &object, 6, Some(&ty)),
            "{\n          + \"k\" = \"v\"\n        }"
        );
        let list = Value::List(strings(&["x", "y"]));
        let kept = Value::List(strings(&["y", "z"]));
        let set = ValueType::Set(Box::new(ValueType::String));
        assert_eq!(
            render(&list, &kept, 6, Some(&set)),
            "[\n          - \"x\",\n          + \"z\",\n            # (1 unchanged element hidden)\n        ]"
        );
    }
}
