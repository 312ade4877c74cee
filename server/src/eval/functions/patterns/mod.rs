//! The regular expressions of `regex`, `regexall` and `replace`: compiled with RE2's
//! meanings (`re2.rs`), and searched (`search.rs`), with the work of both charged to the
//! evaluation budget (`Evaluator::spend`).
//!
//! Compiling is not proportional to the pattern's length: a class is compiled into one
//! automaton per UTF-8 byte sequence of its ranges (`\pL` has hundreds), and a counted
//! repetition into as many copies as its count, so that `\pL{100}` takes a tenth of a
//! second. Its sizes (`size.rs`) are read from the parsed pattern before anything is
//! built, so that a pattern too big for the budget, or a `for` over thousands of
//! patterns, ends in the budget's diagnostic before it is compiled. Searching is charged
//! as it reads (`search.rs`).

mod errors;
mod re2;
mod search;
#[cfg(test)]
mod search_tests;
mod size;

use regex_automata::util::interpolate;
use regex_automata::{PatternID, Span};
use regex_syntax::ast::parse::Parser;
use regex_syntax::hir::translate::Translator;

use crate::eval::evaluate::Evaluator;
pub(super) use errors::PatternError;
use search::Engines;
pub(super) use search::Search;
use size::{measure, Size};

/// Evaluation steps per automaton state compiling builds: measured at 0.1 to 2 µs per
/// state in a release build (classes are the slow ones), against about 0.1 µs for a step
/// of plain evaluation, so that the budget's two million steps stay within a second.
const STEPS_PER_STATE: u64 = 8;

/// A regular expression compiled for `regex`, `regexall` or `replace`.
pub(super) struct Pattern {
    engines: Engines,
}

impl Pattern {
    /// The searches of this pattern over `haystack`, charged to `ev`.
    pub(super) fn search<'a>(&'a self, haystack: &'a str, ev: &'a Evaluator<'a>) -> Search<'a> {
        Search::new(&self.engines, haystack, ev)
    }

    /// How many groups the pattern has, the whole match (group 0) counted.
    pub(super) fn group_len(&self) -> usize {
        self.group_info().group_len(PatternID::ZERO)
    }

    /// The name of each group, group 0 first (never named).
    pub(super) fn group_names(&self) -> impl Iterator<Item = Option<&str>> {
        self.group_info().pattern_names(PatternID::ZERO)
    }

    /// Appends `replacement` to `out` with its `$1`, `${1}` and `$name` references replaced
    /// by the groups of a match in `haystack` (`groups`, from [`Search::groups`]), as the
    /// regex crate's `Captures::expand` does; `$$` is a dollar sign.
    pub(super) fn expand(
        &self,
        haystack: &str,
        groups: &[Option<Span>],
        replacement: &str,
        out: &mut String,
    ) {
        interpolate::string(
            replacement,
            |group, out| {
                if let Some(Some(span)) = groups.get(group) {
                    out.push_str(&haystack[span.range()]);
                }
            },
            |name| self.group_info().to_index(PatternID::ZERO, name),
            out,
        );
    }

    fn group_info(&self) -> &regex_automata::util::captures::GroupInfo {
        self.engines.pikevm().get_nfa().group_info()
    }
}

/// `pattern` compiled, as Terraform's functions read it (RE2 syntax), once its size is
/// charged; an invalid pattern is Go's error.
pub(super) fn compile(pattern: &str, ev: &Evaluator) -> Result<Pattern, PatternError> {
    // Parsing takes time and memory in proportion to the pattern's length: counted first
    // as one state a byte (which most bytes of a pattern are), so that a pattern of
    // megabytes is refused before it is parsed; what the parsed pattern compiles into
    // beyond that is counted once it is known.
    let parsed_states = pattern.len() as u64;
    ev.spend(parsed_states.saturating_mul(STEPS_PER_STATE))?;
    // The parser and translator `Regex::new` runs, with their defaults.
    let mut ast = Parser::new()
        .parse(pattern)
        .map_err(|e| errors::from_parse(pattern, &e))?;
    re2::check(pattern, &ast)?;
    re2::to_ascii(&mut ast);
    let hir = Translator::new()
        .translate(pattern, &ast)
        .map_err(|e| errors::from_translate(pattern, &e))?;
    let Size { states, positions } = measure(&hir);
    let more_states = states.saturating_sub(parsed_states);
    ev.spend(more_states.saturating_mul(STEPS_PER_STATE))?;
    Ok(Pattern {
        engines: Engines::build(&hir, positions)?,
    })
}
