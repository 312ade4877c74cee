//! RFC 5893's bidi rule as x/text's `secure/bidirule` checks a label: a walk over the
//! runes' bidi classes that ends in a final state, and never meets both European and
//! Arabic digits. A label that starts with a digit, mixes directions, or ends in a
//! separator fails; the empty label passes.

use unicode_bidi::{bidi_class, BidiClass};

/// Whether `c` is right-to-left as the rule counts it: bidi class R, AL or AN.
pub(super) fn is_right_to_left(c: char) -> bool {
    matches!(bidi_class(c), BidiClass::R | BidiClass::AL | BidiClass::AN)
}

/// `bidirule.DirectionString` is right-to-left: a rune of `label` is.
pub(super) fn has_right_to_left(label: &str) -> bool {
    label.chars().any(is_right_to_left)
}

/// Where the walk stands: in a left-to-right or right-to-left label, after a rune that
/// may end it (final) or one that may not.
#[derive(Clone, Copy, PartialEq)]
enum State {
    Initial,
    LeftToRight,
    LeftToRightFinal,
    RightToLeft,
    RightToLeftFinal,
}

/// `bidirule.ValidString`: whether `label` satisfies the bidi rule.
pub(super) fn valid(label: &str) -> bool {
    let (mut european, mut arabic) = (false, false);
    let mut state = State::Initial;
    for c in label.chars() {
        let class = bidi_class(c);
        european |= class == BidiClass::EN;
        arabic |= class == BidiClass::AN;
        if european && arabic {
            return false;
        }
        match next(state, class) {
            Some(next) => state = next,
            None => return false,
        }
    }
    matches!(
        state,
        State::Initial | State::LeftToRightFinal | State::RightToLeftFinal
    )
}

/// The state after a rune of `class`, `None` where the rule fails.
fn next(state: State, class: BidiClass) -> Option<State> {
    use BidiClass::{AL, AN, BN, CS, EN, ES, ET, L, NSM, ON, R};
    let separator = matches!(class, ES | CS | ET | ON | BN);
    match state {
        State::Initial => match class {
            L => Some(State::LeftToRightFinal),
            R | AL => Some(State::RightToLeftFinal),
            _ => None,
        },
        State::RightToLeft | State::RightToLeftFinal => match class {
            R | AL | EN | AN => Some(State::RightToLeftFinal),
            NSM if state == State::RightToLeftFinal => Some(State::RightToLeftFinal),
            NSM => Some(State::RightToLeft),
            _ if separator => Some(State::RightToLeft),
            _ => None,
        },
        State::LeftToRight | State::LeftToRightFinal => match class {
            L | EN => Some(State::LeftToRightFinal),
            NSM if state == State::LeftToRightFinal => Some(State::LeftToRightFinal),
            NSM => Some(State::LeftToRight),
            _ if separator => Some(State::LeftToRight),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::valid;

    #[test]
    fn labels_follow_the_bidi_rule() {
        for label in ["", "com", "שלום", "שלום1", "ب\u{200c}ب", "a1", "a-b", "שׁ"] {
            assert!(valid(label), "{label}");
        }
        for label in ["١ab", "a١", "1שלום", "١2", "1com", "aש", "a-", "ש-"] {
            assert!(!valid(label), "{label}");
        }
    }
}
