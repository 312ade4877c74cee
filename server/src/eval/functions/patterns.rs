//! Compiling the regular expressions of `regex`, `regexall` and `replace`, with the work
//! counted first.
//!
//! Compiling is not proportional to the pattern's length: a class is compiled into one
//! automaton per UTF-8 byte sequence of its ranges (`\w` has about a thousand), and a
//! counted repetition into as many copies as its count, so that `\w{100}` takes a tenth
//! of a second. The size of what compiling builds is read from the parsed pattern before
//! it is built, and charged to the evaluation budget (`Evaluator::spend`), so that a
//! `for` over thousands of patterns ends in the budget's diagnostic.

use regex::Regex;
use regex_syntax::hir::{Class, Hir, HirKind};
use regex_syntax::utf8::Utf8Sequences;

use crate::eval::evaluate::Evaluator;

/// Evaluation steps per automaton state compiling builds: measured at 0.1 to 2 µs per
/// state in a release build (classes are the slow ones), against about 0.1 µs for a step
/// of plain evaluation, so that the budget's two million steps stay within a second.
const STEPS_PER_STATE: u64 = 8;

/// `pattern` compiled, as Terraform's functions read it (RE2 syntax), once its size is
/// charged; an invalid pattern is the regex crate's error.
pub(super) fn compile(pattern: &str, ev: &Evaluator) -> Result<Regex, String> {
    // The same parser, with the same defaults, that `Regex::new` runs; its errors are left
    // for `Regex::new` to report in its own words.
    if let Ok(parsed) = regex_syntax::Parser::new().parse(pattern) {
        ev.spend(states(&parsed).saturating_mul(STEPS_PER_STATE))?;
    }
    Regex::new(pattern).map_err(|e| format!("invalid regular expression: {e}"))
}

/// About how many automaton states compiling `hir` builds. Recursive: the parser refuses
/// patterns nested more than 250 levels deep.
fn states(hir: &Hir) -> u64 {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => 1,
        HirKind::Literal(literal) => literal.0.len() as u64,
        HirKind::Class(Class::Unicode(class)) => class
            .ranges()
            .iter()
            .map(|r| Utf8Sequences::new(r.start(), r.end()).count() as u64)
            .fold(0, u64::saturating_add),
        HirKind::Class(Class::Bytes(class)) => class.ranges().len() as u64,
        HirKind::Repetition(repetition) => {
            let copies = repetition
                .max
                .unwrap_or(repetition.min)
                .max(repetition.min)
                .max(1);
            states(&repetition.sub).saturating_mul(u64::from(copies))
        }
        HirKind::Capture(capture) => states(&capture.sub),
        HirKind::Concat(parts) | HirKind::Alternation(parts) => {
            parts.iter().map(states).fold(0, u64::saturating_add)
        }
    }
}
