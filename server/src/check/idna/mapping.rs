//! UTS-46's mapping step as x/net's `Lookup` profile takes it: each rune valid, mapped,
//! ignored or disallowed, with STD3 rules and without transitional processing (the
//! deviations ß, ς, ZWJ and ZWNJ stay), then NFC.
//!
//! The statuses come from the UTS-46 table of the `idna` crate's back end. Go's table is
//! Unicode 15.0's, which still had the STD3 statuses that Unicode 16.0 folded into
//! `valid` and `mapped`: `disallowed_STD3_valid` were the ASCII runes outside letters,
//! digits, `-` and `.`, and the runes whose decomposition holds one (≠ ≮ ≯);
//! `disallowed_STD3_mapped` were the runes mapped to a string holding one (⑴, U+00A0).
//! Both are disallowed with STD3 rules, and are derived here as Unicode 15.0 listed them.

use idna_adapter::Adapter;
use std::iter::once;
use unicode_normalization::UnicodeNormalization;

/// A rune's UTS-46 status under the `Lookup` profile.
pub(super) enum Status {
    /// Kept as it is (the deviations too).
    Valid,
    /// Replaced by this string.
    Mapped(String),
    /// Dropped.
    Ignored,
    /// Refused: `idna: disallowed rune`.
    Disallowed,
}

/// The UTS-46 status of `c` with STD3 rules, non-transitional.
pub(super) fn status(c: char) -> Status {
    if c.is_ascii() {
        return match c {
            'a'..='z' | '0'..='9' | '-' | '.' => Status::Valid,
            'A'..='Z' => Status::Mapped(c.to_ascii_lowercase().to_string()),
            _ => Status::Disallowed,
        };
    }
    let mapped: String = Adapter::new().map_normalize(once(c)).collect();
    let mut runes = mapped.chars();
    match (runes.next(), runes.next()) {
        (None, _) => Status::Ignored,
        (Some('\u{FFFD}'), None) => Status::Disallowed, // the back end's mark, U+FFFD's too
        (Some(only), None) if only == c => match c.nfd().any(std3_disallowed) {
            true => Status::Disallowed, // disallowed_STD3_valid
            false => Status::Valid,
        },
        _ => match mapped.chars().any(std3_disallowed) {
            true => Status::Disallowed, // disallowed_STD3_mapped
            false => Status::Mapped(mapped),
        },
    }
}

/// An ASCII rune STD3 rules refuse in a hostname.
fn std3_disallowed(c: char) -> bool {
    c.is_ascii() && !(c.is_ascii_alphanumeric() || c == '-' || c == '.')
}

/// What `validateAndMap` makes of a name: the mapped name in NFC, the first disallowed
/// rune if any (Go keeps mapping past it), and whether a rune of the name is
/// right-to-left (bidi class R, AL or AN), which makes the bidi rule apply.
pub(super) struct Mapped {
    pub(super) name: String,
    pub(super) disallowed: Option<char>,
    pub(super) bidi: bool,
}

/// UTS-46's mapping of `given`, then NFC.
pub(super) fn map_for_lookup(given: &str) -> Mapped {
    let mut name = String::with_capacity(given.len());
    let mut disallowed = None;
    let mut bidi = false;
    for c in given.chars() {
        bidi = bidi || super::bidi_rule::is_right_to_left(c);
        match status(c) {
            Status::Valid => name.push(c),
            Status::Mapped(to) => name.push_str(&to),
            Status::Ignored => {}
            Status::Disallowed => {
                disallowed = disallowed.or(Some(c));
                name.push(c);
            }
        }
    }
    Mapped {
        name: name.nfc().collect(),
        disallowed,
        bidi,
    }
}

/// `validateFromPunycode`: a label decoded from punycode must be in NFC and hold only
/// valid runes (mapped, ignored and disallowed ones are refused alike).
pub(super) fn valid_from_punycode(label: &str) -> bool {
    unicode_normalization::is_nfc(label)
        && label.chars().all(|c| matches!(status(c), Status::Valid))
}

#[cfg(test)]
mod tests {
    use super::{map_for_lookup, status, Status};

    fn kind(c: char) -> &'static str {
        match status(c) {
            Status::Valid => "valid",
            Status::Mapped(_) => "mapped",
            Status::Ignored => "ignored",
            Status::Disallowed => "disallowed",
        }
    }

    #[test]
    fn runes_have_unicode_15_statuses_with_std3_rules() {
        for (c, want) in [
            ('a', "valid"),
            ('_', "disallowed"),
            ('Q', "mapped"),
            ('ß', "valid"),
            ('ς', "valid"),
            ('\u{200d}', "valid"),
            ('\u{ad}', "ignored"),
            ('™', "mapped"),
            ('。', "mapped"),
            ('≠', "disallowed"),
            ('≯', "disallowed"),
            ('⑴', "disallowed"),
            ('\u{a0}', "disallowed"),
            ('＿', "disallowed"),
            ('⒈', "disallowed"),
            ('\u{80}', "disallowed"),
            ('\u{e000}', "disallowed"),
            ('\u{fffd}', "disallowed"),
            ('😀', "valid"),
            ('·', "valid"),
        ] {
            assert_eq!(kind(c), want, "{c:?}");
        }
    }

    #[test]
    fn names_are_mapped_then_normalized() {
        let mapped = map_for_lookup("ＥＸ™。Ü\u{ad}a\u{308}");
        assert_eq!(mapped.name, "extm.üä");
        assert_eq!(mapped.disallowed, None);
        assert!(!mapped.bidi);
        let mapped = map_for_lookup("a⑴b_١");
        assert_eq!(mapped.disallowed, Some('⑴'));
        assert!(mapped.bidi);
    }
}
