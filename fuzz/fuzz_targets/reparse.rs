//! Incremental parsing equals full parsing: after one edit of any text, `reparse` gives
//! exactly the tree and diagnostics `parse` gives, with the same last good tree.
//!
//! Input: two bytes of edit offset (little-endian) and one byte of deleted length, then
//! the text before the edit, then a NUL byte and the inserted text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::syntax::{parse, reparse, Syntax};

fuzz_target!(|data: &[u8]| {
    let [lo, hi, deleted, rest @ ..] = data else {
        return;
    };
    let (before, inserted) = match rest.iter().position(|&b| b == 0) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let before = strata_fuzz::text(before);
    let inserted = strata_fuzz::text(inserted);
    // The edit, moved onto character boundaries as an editor's edits always are.
    let floor = |mut i: usize| {
        i = i.min(before.len());
        while !before.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = floor(u16::from_le_bytes([*lo, *hi]) as usize);
    let end = floor(start + *deleted as usize);
    let after = format!("{}{}{}", &before[..start], inserted, &before[end..]);

    let previous = parse(&before, Syntax::Native, None);
    let last_good = (!previous.has_errors()).then_some(&previous);
    let incremental = reparse(&after, Syntax::Native, &before, &previous, last_good);
    let full = parse(&after, Syntax::Native, last_good);
    assert_eq!(incremental, full, "edit of {before:?} into {after:?}");
});
