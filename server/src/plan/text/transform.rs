//! How Terraform's renderer pairs the elements of two lists and the keys of two maps
//! (`jsonformat/collections`): lists of the same length that are not a reordering are
//! compared index by index; otherwise along their longest common subsequence (as
//! Terraform's `objchange.LongestCommonSubsequence` finds it), an object out of it paired
//! with the next object of the new list, anything else removed or added.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value as Json;

use super::diff::{compare_actions, Diff};
use super::structured::Change;
use crate::plan::Action;

/// Calls `process(before_index, after_index)` for each pair, in order; an index equal to
/// its list's length stands for no element (`ProcessSlice`).
pub(super) fn process_slice<T: PartialEq>(
    before: &[T],
    after: &[T],
    is_object: impl Fn(&T) -> bool,
    mut process: impl FnMut(usize, usize),
) {
    if before.len() == after.len() && !is_reorder(before, after) {
        for i in 0..before.len() {
            process(i, i);
        }
        return;
    }
    let common = longest_common_subsequence(before, after);
    let (mut b, mut a, mut c) = (0, 0, 0);
    while b < before.len() || a < after.len() || c < common.len() {
        while b < before.len() && (c >= common.len() || before[b] != *common[c]) {
            let object_diff = is_object(&before[b])
                && a < after.len()
                && is_object(&after[a])
                && (c >= common.len() || after[a] != *common[c]);
            if object_diff {
                process(b, a);
                b += 1;
                a += 1;
                continue;
            }
            process(b, after.len());
            b += 1;
        }
        while a < after.len() && (c >= common.len() || after[a] != *common[c]) {
            process(before.len(), a);
            a += 1;
        }
        if c < common.len() {
            process(b, a);
            b += 1;
            a += 1;
            c += 1;
        }
    }
}

/// Whether every element of `before` is somewhere in `after` (of the same length).
fn is_reorder<T: PartialEq>(before: &[T], after: &[T]) -> bool {
    before.len() == after.len() && before.iter().all(|b| after.contains(b))
}

/// The longest common subsequence, walked back from the end as Terraform walks it (which
/// of several equally long ones it picks shows in the text).
fn longest_common_subsequence<'v, T: PartialEq>(xs: &'v [T], ys: &[T]) -> Vec<&'v T> {
    if xs.is_empty() || ys.is_empty() {
        return Vec::new();
    }
    let w = xs.len();
    let mut lengths = vec![0usize; xs.len() * ys.len()];
    let mut equal = vec![false; xs.len() * ys.len()];
    for y in 0..ys.len() {
        for x in 0..xs.len() {
            let at = w * y + x;
            if xs[x] == ys[y] {
                equal[at] = true;
                lengths[at] = match x == 0 || y == 0 {
                    true => 1,
                    false => lengths[w * (y - 1) + (x - 1)] + 1,
                };
            } else {
                let left = if x > 0 { lengths[at - 1] } else { 0 };
                let up = if y > 0 { lengths[at - w] } else { 0 };
                lengths[at] = left.max(up);
            }
        }
    }
    let mut sequence = Vec::with_capacity(lengths[lengths.len() - 1]);
    let (mut x, mut y) = (xs.len() as isize - 1, ys.len() as isize - 1);
    while x >= 0 && y >= 0 {
        let at = w * y as usize + x as usize;
        if equal[at] {
            sequence.push(&xs[x as usize]);
            x -= 1;
            y -= 1;
        } else {
            let left = if x > 0 { lengths[at - 1] } else { 0 };
            let up = if y > 0 { lengths[at - w] } else { 0 };
            if left > up {
                x -= 1;
            } else {
                y -= 1;
            }
        }
    }
    sequence.reverse();
    sequence
}

/// The diffs of two lists' paired elements and the list's action (`TransformSlice`).
pub(super) fn transform_slice(
    before: Option<&Vec<Json>>,
    after: Option<&Vec<Json>>,
    is_object: impl Fn(&Json) -> bool,
    mut process: impl FnMut(usize, usize) -> Diff,
) -> (Vec<Diff>, Action) {
    let mut current = starting_action(before.is_some(), after.is_some());
    let mut elements = Vec::new();
    let empty = Vec::new();
    process_slice(
        before.unwrap_or(&empty),
        after.unwrap_or(&empty),
        is_object,
        |b, a| {
            let element = process(b, a);
            current = compare_actions(current, element.action);
            elements.push(element);
        },
    );
    (elements, current)
}

/// The diffs of two maps' keys and the map's action (`TransformMap`).
pub(super) fn transform_map(
    sides: (bool, bool),
    keys: BTreeSet<String>,
    mut process: impl FnMut(&str) -> Diff,
) -> (BTreeMap<String, Diff>, Action) {
    let mut current = starting_action(sides.0, sides.1);
    let mut elements = BTreeMap::new();
    for key in keys {
        let element = process(&key);
        current = compare_actions(current, element.action);
        elements.insert(key, element);
    }
    (elements, current)
}

/// Calls `process` with each element's change of a set (`processSet`): an element equal
/// on both sides (and equally sensitive, and known) is unchanged, the others are removed,
/// then added.
pub(super) fn process_set(change: &Change, mut process: impl FnMut(Change)) {
    let (before, after) = change.slices();
    let (before, after) = (before.map_or(0, Vec::len), after.map_or(0, Vec::len));
    let mut found_in_before: Vec<Option<usize>> = vec![None; before];
    let mut found_in_after: Vec<Option<usize>> = vec![None; after];
    for (b, in_before) in found_in_before.iter_mut().enumerate() {
        // Terraform goes on looking after a match: a later equal element wins.
        for (a, in_after) in found_in_after.iter_mut().enumerate() {
            if in_after.is_some() {
                continue;
            }
            let child = change.element(b, a);
            if child.before == child.after
                && child.is_before_sensitive() == child.is_after_sensitive()
                && !child.is_unknown()
            {
                *in_before = Some(a);
                *in_after = Some(b);
            }
        }
    }
    for (b, found) in found_in_before.iter().enumerate() {
        process(change.element(b, found.unwrap_or(after)));
    }
    for (a, found) in found_in_after.iter().enumerate() {
        if found.is_none() {
            process(change.element(before, a));
        }
    }
}

/// A collection's action before its elements: removed when only before exists, added
/// when only after does.
fn starting_action(before: bool, after: bool) -> Action {
    match (before, after) {
        (true, false) => Action::Delete,
        (false, true) => Action::Create,
        _ => Action::NoOp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(before: &[&str], after: &[&str]) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        process_slice(before, after, |_| false, |b, a| found.push((b, a)));
        found
    }

    #[test]
    fn lists_of_one_length_pair_by_index_unless_reordered() {
        assert_eq!(pairs(&["a", "b"], &["a", "c"]), [(0, 0), (1, 1)]);
        assert_eq!(pairs(&["a", "b"], &["b", "a"]), [(0, 2), (1, 0), (2, 1)]);
    }

    #[test]
    fn other_lists_follow_the_common_subsequence() {
        assert_eq!(
            pairs(&["a", "b", "c"], &["a", "c"]),
            [(0, 0), (1, 2), (2, 1)]
        );
        assert_eq!(pairs(&[], &["x"]), [(0, 0)]);
    }
}
