//! The sizes of a parsed pattern that compiling and searching it are charged by.

use regex_syntax::hir::{Class, Hir, HirKind};
use regex_syntax::utf8::Utf8Sequences;

/// The sizes of a parsed pattern that its work is charged by.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub(super) struct Size {
    /// About how many automaton states compiling builds (a class one per UTF-8 sequence).
    pub(super) states: u64,
    /// About how many automaton states a search may follow at one byte: one per literal
    /// byte, class (two for one with non-ASCII members, whose characters take several
    /// bytes to cross) and assertion, two per capture group, each repeated copy counted.
    pub(super) positions: u64,
}

impl Size {
    /// `self` and `other`, one after the other or as alternatives.
    fn plus(self, other: Size) -> Size {
        Size {
            states: self.states.saturating_add(other.states),
            positions: self.positions.saturating_add(other.positions),
        }
    }

    /// `self`, `copies` times.
    fn times(self, copies: u64) -> Size {
        Size {
            states: self.states.saturating_mul(copies),
            positions: self.positions.saturating_mul(copies),
        }
    }
}

/// The [`Size`] of `hir`. Recursive: the parser refuses patterns nested more than 250
/// levels deep.
pub(super) fn measure(hir: &Hir) -> Size {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => Size {
            states: 1,
            positions: 1,
        },
        HirKind::Literal(literal) => Size {
            states: literal.0.len() as u64,
            positions: literal.0.len() as u64,
        },
        HirKind::Class(Class::Unicode(class)) => Size {
            states: class
                .ranges()
                .iter()
                .map(|r| Utf8Sequences::new(r.start(), r.end()).count() as u64)
                .fold(0, u64::saturating_add),
            positions: if class.is_ascii() { 1 } else { 2 },
        },
        HirKind::Class(Class::Bytes(class)) => Size {
            states: class.ranges().len() as u64,
            positions: 1,
        },
        HirKind::Repetition(repetition) => {
            let copies = repetition
                .max
                .unwrap_or(repetition.min)
                .max(repetition.min)
                .max(1);
            measure(&repetition.sub).times(u64::from(copies))
        }
        HirKind::Capture(capture) => measure(&capture.sub).plus(Size {
            states: 0,
            positions: 2,
        }),
        HirKind::Concat(parts) | HirKind::Alternation(parts) => {
            parts.iter().map(measure).fold(Size::default(), Size::plus)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(pattern: &str) -> Size {
        measure(&regex_syntax::Parser::new().parse(pattern).unwrap())
    }

    #[test]
    fn a_search_is_measured_by_positions_and_compiling_by_states() {
        // A class is one position to search however many sequences it compiles into.
        let word = size("\\w");
        assert!(word.states > 500, "{word:?}");
        assert_eq!(word.positions, 2);
        assert_eq!(size("[a-z]+").positions, 1);
        assert_eq!(size("(?:A+){4096}|").positions, 4097);
        // Literal bytes, assertions and the two slots of a group.
        assert_eq!(
            size("^é(x)$"),
            Size {
                states: 5,
                positions: 7
            }
        );
    }
}
