//! Compiling the regular expressions of `regex`, `regexall` and `replace`, and searching
//! with them, with the work of both counted first.
//!
//! Compiling is not proportional to the pattern's length: a class is compiled into one
//! automaton per UTF-8 byte sequence of its ranges (`\w` has about a thousand), and a
//! counted repetition into as many copies as its count, so that `\w{100}` takes a tenth
//! of a second. Searching is not proportional to the string's length either: the regex
//! crate's engines search in time proportional to the pattern's size times the string's
//! (its lazy DFA is usually faster, but gives up on large patterns and falls back on its
//! PikeVM, which follows every position of the pattern at every byte), so that a 64 KiB
//! pattern against a 64 KiB string runs for seconds in a release build. Both sizes are
//! read from the parsed pattern before anything is built or searched, and charged to the
//! evaluation budget (`Evaluator::spend`), so that such a call, or a `for` over thousands
//! of patterns, ends in the budget's diagnostic.

use regex::Regex;
use regex_syntax::hir::{Class, Hir, HirKind};
use regex_syntax::utf8::Utf8Sequences;

use crate::eval::evaluate::Evaluator;

/// Evaluation steps per automaton state compiling builds: measured at 0.1 to 2 µs per
/// state in a release build (classes are the slow ones), against about 0.1 µs for a step
/// of plain evaluation, so that the budget's two million steps stay within a second.
const STEPS_PER_STATE: u64 = 8;

/// Bytes searched times positions of the pattern (see [`Size::positions`]) per evaluation
/// step. Measured with regex 1.13.2 in a release build (a scratch crate timing the PikeVM
/// of regex-automata 0.4.19, the engine a search falls back on, over 64 KiB strings the
/// pattern does not match): 7 to 18 ns per position and byte for patterns of repeated
/// classes (`[a-z]{128}Z`, `\w{128}Z`, `.{128}Z` over ASCII or multibyte text),
/// `(?:A+){4096}|` and literals, and 10 to 15 ns for `(?:A+){16}|`; the meta engine's own
/// searches took at most 11.6 ns per position and byte (`(?:A+){4096}|` over 16 KiB of
/// `A`), usually far less. At about 0.1 µs a step, 4 per step (25 ns each) leaves room
/// above the slowest measured: `regexall("[a-z]+", <1 MiB>)` costs 262,144 steps, a 64
/// KiB pattern against a 64 KiB string 2^30.
const POSITION_BYTES_PER_STEP: u64 = 4;

/// How many capture groups add the work of one more position to each: the PikeVM copies
/// every group's slots along with each position it follows, measured at 0.6 ns per group,
/// position and byte (`(a*)` repeated 1,024 times: 640 ns per position and byte, against
/// about 10 for one without groups).
const GROUPS_PER_POSITION: u64 = 16;

/// A regular expression compiled for `regex`, `regexall` or `replace`, with the size a
/// search of it is charged by.
pub(super) struct Pattern {
    /// The compiled expression.
    pub(super) regex: Regex,
    /// Positions of the pattern ([`Size::positions`]); 0 when the parser refused it
    /// (compiling did not, so it never comes to a search).
    positions: u64,
}

impl Pattern {
    /// Charges a search over `haystack` (or, for `regexall` and `replace`, all the searches
    /// over it, taken as one pass over the string) before it is made.
    ///
    /// One pass is what the searches of most patterns come to, but not a bound: each
    /// search of an iteration may scan to the string's end before it reports a short match
    /// (the regex crate's documentation: `.*[^A-Z]|[A-Z]` over `AAA…`), so iterating can
    /// take the pattern's size times the string's squared: 6.1 s in a release build for
    /// that pattern over 64 KiB of `A`, charged 81,920 steps. Charging every search the
    /// rest of the string would refuse ordinary iterations (a million words of 1 MiB), and
    /// how far a search scanned is not known to its caller; left open (issue 12).
    pub(super) fn charge_search(&self, haystack: &str, ev: &Evaluator) -> Result<(), String> {
        let groups = self.regex.captures_len().saturating_sub(1) as u64;
        let position_bytes = self
            .positions
            .saturating_mul(haystack.len() as u64)
            .saturating_mul(GROUPS_PER_POSITION.saturating_add(groups));
        ev.spend(position_bytes / (GROUPS_PER_POSITION * POSITION_BYTES_PER_STEP))
    }
}

/// `pattern` compiled, as Terraform's functions read it (RE2 syntax), once its size is
/// charged; an invalid pattern is the regex crate's error.
pub(super) fn compile(pattern: &str, ev: &Evaluator) -> Result<Pattern, String> {
    // Parsing takes time and memory in proportion to the pattern's length: counted first
    // as one state a byte (which most bytes of a pattern are), so that a pattern of
    // megabytes is refused before it is parsed; what the parsed pattern compiles into
    // beyond that is counted once it is known.
    let parsed_states = pattern.len() as u64;
    ev.spend(parsed_states.saturating_mul(STEPS_PER_STATE))?;
    // The same parser, with the same defaults, that `Regex::new` runs; its errors are left
    // for `Regex::new` to report in its own words.
    let size = match regex_syntax::Parser::new().parse(pattern) {
        Ok(parsed) => measure(&parsed),
        Err(_) => Size::default(),
    };
    let more_states = size.states.saturating_sub(parsed_states);
    ev.spend(more_states.saturating_mul(STEPS_PER_STATE))?;
    let regex = Regex::new(pattern).map_err(|e| format!("invalid regular expression: {e}"))?;
    Ok(Pattern {
        regex,
        positions: size.positions,
    })
}

/// The sizes of a parsed pattern that its work is charged by.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Size {
    /// About how many automaton states compiling builds (a class one per UTF-8 sequence).
    states: u64,
    /// About how many automaton states a search may follow at one byte: one per literal
    /// byte, class (two for one with non-ASCII members, whose characters take several
    /// bytes to cross) and assertion, two per capture group, each repeated copy counted.
    positions: u64,
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
fn measure(hir: &Hir) -> Size {
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
