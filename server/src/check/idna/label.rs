//! `validateLabel` of x/net's `Lookup` profile, over a mapped (or decoded) label: the
//! hyphen rules (`--` in the third and fourth bytes, `-` first or last), no combining
//! mark first, and CONTEXTJ for ZWJ and ZWNJ as Go's state machine reads it.
//!
//! Go's machine is looser than RFC 5892 in places, and Strata keeps it: a ZWNJ followed
//! by a non-joining rune passes, and join-causing runes count as non-joining. Runes the
//! mapping keeps without a table entry of their own (the deviations) carry no joining
//! type and are no marks.

use idna_adapter::{Adapter, LEFT_OR_DUAL_JOINING_MASK, RIGHT_OR_DUAL_JOINING_MASK};
use unicode_normalization::char::{canonical_combining_class, is_combining_mark};

const ZWNJ: char = '\u{200C}';
const ZWJ: char = '\u{200D}';

/// Whether `label` passes; Go names the label itself when it does not.
pub(super) fn valid(label: &str) -> bool {
    let bytes = label.as_bytes();
    let Some(first) = label.chars().next() else {
        return true;
    };
    if bytes.len() > 4 && &bytes[2..4] == b"--" {
        return false;
    }
    if bytes.first() == Some(&b'-') || bytes.last() == Some(&b'-') {
        return false;
    }
    if is_mark(first) {
        return false;
    }
    if !label.contains([ZWJ, ZWNJ]) {
        return true;
    }
    let mut state = Join::Start;
    for c in label.chars() {
        state = state.after(joining(c));
        if is_virama(c) {
            state = state.after(Joining::Virama);
        }
    }
    !matches!(state, Join::Fail | Join::After)
}

/// What a rune is to the CONTEXTJ walk.
#[derive(Clone, Copy, PartialEq)]
enum Joining {
    /// No joining type Go reads (U, C, and runes without attributes).
    None,
    Left,
    Dual,
    Transparent,
    Right,
    Zwj,
    Zwnj,
    /// The second step of a virama (canonical combining class 9).
    Virama,
}

/// Where the CONTEXTJ walk stands.
#[derive(Clone, Copy, PartialEq)]
enum Join {
    Start,
    Virama,
    Before,
    BeforeVirama,
    After,
    Fail,
}

impl Join {
    /// x/net's `joinStates` table: where a rune of joining `j` leads; any rune the
    /// table leaves out leads back to the start.
    fn after(self, j: Joining) -> Join {
        use Joining as J;
        match (self, j) {
            (Join::Fail, _) => Join::Fail,
            (Join::Start, J::Left | J::Dual) => Join::Before,
            (Join::Start, J::Zwnj | J::Zwj) => Join::Fail,
            (Join::Start, J::Virama) => Join::Virama,
            (Join::Virama, J::Left | J::Dual) => Join::Before,
            (Join::Before, J::Left | J::Dual | J::Transparent) => Join::Before,
            (Join::Before, J::Zwnj) => Join::After,
            (Join::Before, J::Zwj) => Join::Fail,
            (Join::Before, J::Virama) => Join::BeforeVirama,
            (Join::BeforeVirama, J::Left | J::Dual | J::Transparent) => Join::Before,
            (Join::After, J::Left | J::Zwnj | J::Zwj) => Join::Fail,
            (Join::After, J::Dual) => Join::Before,
            (Join::After, J::Transparent | J::Virama) => Join::After,
            _ => Join::Start,
        }
    }
}

/// The joining of `c` as Go's table holds it.
fn joining(c: char) -> Joining {
    match c {
        ZWJ => return Joining::Zwj,
        ZWNJ => return Joining::Zwnj,
        'ß' | 'ς' => return Joining::None, // deviations: no attributes
        _ => {}
    }
    let joining = Adapter::new().joining_type(c);
    let mask = joining.to_mask();
    let left = mask.intersects(LEFT_OR_DUAL_JOINING_MASK);
    let right = mask.intersects(RIGHT_OR_DUAL_JOINING_MASK);
    match (left, right) {
        (true, true) => Joining::Dual,
        (true, false) => Joining::Left,
        (false, true) => Joining::Right,
        (false, false) if joining.is_transparent() => Joining::Transparent,
        (false, false) => Joining::None,
    }
}

/// A combining mark (general category M), which may not start a label.
fn is_mark(c: char) -> bool {
    !matches!(c, ZWJ | ZWNJ | 'ß' | 'ς') && is_combining_mark(c)
}

/// A virama: canonical combining class 9.
fn is_virama(c: char) -> bool {
    canonical_combining_class(c) == 9
}

#[cfg(test)]
mod tests {
    use super::valid;

    #[test]
    fn labels_follow_the_hyphen_mark_and_joiner_rules() {
        for label in [
            "",
            "abc",
            "a--b",
            "aü--b",
            "क्\u{200d}ष",
            "ب\u{200c}ب",
            "ب\u{200c}a",
            "·",
        ] {
            assert!(valid(label), "{label}");
        }
        for label in [
            "-a",
            "a-",
            "ab--c",
            "ü--xyz",
            "\u{301}a",
            "्a",
            "a\u{200d}b",
            "a\u{200c}b",
            "a\u{200d}",
            "\u{200c}ab",
            "ب\u{200c}",
        ] {
            assert!(!valid(label), "{label}");
        }
    }
}
