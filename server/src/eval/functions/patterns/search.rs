//! Searching with a compiled pattern, each byte a search reads charged as it is read.
//!
//! The regex crate's iterators cannot be charged this way: a search can read far beyond
//! the match it reports (its documentation's `.*[^A-Z]|[A-Z]` over `AAA…` reads to the
//! string's end for each one-byte match), so that iterating takes the pattern's size
//! times the string's length squared, and how far each search read is not known to its
//! caller. Here the forward scan is a loop over regex-automata's lazy DFA that counts
//! the bytes it reads and charges them every few thousand steps' worth, so such an
//! iteration ends in the budget's error as soon as its work passes the budget, and an
//! ordinary one (a million words of 1 MiB) is charged about one pass over the string.
//!
//! Where a match ends is found by that forward scan (leftmost-first, as the regex crate
//! and RE2 choose); where it starts, by the reverse lazy DFA reading back from the end, at
//! most as far as the search's start; its groups, only when they are asked for, by the
//! PikeVM anchored on the match alone. The iteration and the handling of empty matches
//! are the regex crate's (`regex_automata::util::iter`), which tests compare against.

use regex_automata::hybrid::dfa::{Cache as LazyCache, DFA};
use regex_automata::nfa::thompson::pikevm::{Cache as PikeCache, PikeVM};
use regex_automata::nfa::thompson::{self, WhichCaptures, NFA};
use regex_automata::{Anchored, Input, MatchKind, PatternID, Span};
use regex_syntax::hir::Hir;

use crate::eval::evaluate::Evaluator;

/// The regex crate's bound on a compiled pattern (its `size_limit`), kept so that the
/// patterns it refused are still refused with the same error.
const NFA_SIZE_LIMIT: usize = 10 * (1 << 20);

/// Bytes searched times positions of the pattern (`Size::positions`) per evaluation step.
/// Measured with regex-automata 0.4.19 in release builds: its PikeVM takes 7 to 18 ns per
/// position and byte for patterns of repeated classes (`[a-z]{128}Z`, `\w{128}Z`,
/// `.{128}Z` over ASCII or multibyte text), `(?:A+){4096}|` and literals; the lazy DFA
/// about 1 ns a byte once its states are built, and 6 to 19 ns per position and byte when
/// each byte builds a new state (`[ab]*a[ab]{n}c` over a random MiB of `a` and `b`, n
/// from 14 to 400, the cache cleared 25 to 142 times). At about 0.1 µs a step, 4 per step
/// (25 ns each) leaves room above the slowest measured: `regexall("[a-z]+", <1 MiB>)`
/// costs about a pass over the string, 262,144 steps.
const POSITION_BYTES_PER_STEP: u64 = 4;

/// How many capture groups add the work of one more position to each in the PikeVM,
/// which copies every group's slots along with each position it follows: measured at 0.6
/// ns per group, position and byte (`(a*)` repeated 1,024 times: 640 ns per position and
/// byte, against about 10 for one without groups).
const GROUPS_PER_POSITION: u64 = 16;

/// About how many steps a scan reads between two charges: small against the budget, so
/// that a runaway scan stops soon after the budget is gone.
const STEPS_PER_CHARGE: u64 = 4096;

/// The engines of one compiled pattern.
pub(super) struct Engines {
    /// The forward lazy DFA (leftmost-first) and the reverse one (every match, read from
    /// the end); `None` when they could not be built, and the PikeVM searches alone.
    lazy: Option<(DFA, DFA)>,
    /// The PikeVM: the groups of a match, and every search when there is no lazy DFA.
    pikevm: PikeVM,
    /// Positions of the pattern (`Size::positions`), at least 1.
    positions: u64,
    /// Capture groups of the pattern, the whole match not counted.
    groups: u64,
}

impl Engines {
    /// Builds the engines of `hir`, whose search is charged by `positions`.
    pub(super) fn build(hir: &Hir, positions: u64) -> Result<Engines, String> {
        let nfa = compile(hir, false)?;
        let lazy = compile(hir, true)
            .ok()
            .and_then(|reverse| lazy_dfas(nfa.clone(), reverse));
        let pikevm =
            PikeVM::new_from_nfa(nfa).map_err(|e| format!("invalid regular expression: {e}"))?;
        let groups = pikevm.get_nfa().group_info().group_len(PatternID::ZERO);
        Ok(Engines {
            lazy,
            pikevm,
            positions: positions.max(1),
            groups: groups.saturating_sub(1) as u64,
        })
    }

    /// The PikeVM, whose NFA knows the pattern's groups.
    pub(super) fn pikevm(&self) -> &PikeVM {
        &self.pikevm
    }
}

/// The Thompson NFA of `hir` as the regex crate compiles it: forward with every group,
/// or `reverse` with none (the reverse DFA only finds where a match starts).
fn compile(hir: &Hir, reverse: bool) -> Result<NFA, String> {
    let which = if reverse {
        WhichCaptures::None
    } else {
        WhichCaptures::All
    };
    thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                .utf8(true)
                .reverse(reverse)
                .which_captures(which)
                .nfa_size_limit(Some(NFA_SIZE_LIMIT)),
        )
        .build_from_hir(hir)
        .map_err(|e| format!("invalid regular expression: {e}"))
}

/// The forward and reverse lazy DFAs, configured as regex-automata's own lazy DFA regex
/// configures them, except that they never give up (so a search never falls back on a
/// slower engine) and their cache grows to what the NFA needs.
fn lazy_dfas(forward: NFA, reverse: NFA) -> Option<(DFA, DFA)> {
    let config = DFA::config()
        .skip_cache_capacity_check(true)
        .minimum_cache_clear_count(None);
    let forward = DFA::builder()
        .configure(config.clone().match_kind(MatchKind::LeftmostFirst))
        .build_from_nfa(forward)
        .ok()?;
    let reverse = DFA::builder()
        .configure(
            config
                .specialize_start_states(false)
                .match_kind(MatchKind::All),
        )
        .build_from_nfa(reverse)
        .ok()?;
    Some((forward, reverse))
}

/// The searches of one call over one string: the matches one after another, each
/// search's work charged to `ev`.
pub(in crate::eval::functions) struct Search<'a> {
    engines: &'a Engines,
    haystack: &'a str,
    meter: Meter<'a>,
    /// The lazy DFAs' caches (forward, reverse), made at the first search.
    lazy_caches: Option<(LazyCache, LazyCache)>,
    pike_cache: Option<PikeCache>,
    /// Where the next search starts; `None` once the matches are all found.
    at: Option<usize>,
    /// Where the last match ended: an empty match there is skipped, as the regex crate
    /// skips it.
    last_end: Option<usize>,
}

impl<'a> Search<'a> {
    /// The searches of `engines` over `haystack`, charged to `ev`.
    pub(super) fn new(engines: &'a Engines, haystack: &'a str, ev: &'a Evaluator<'a>) -> Self {
        Search {
            engines,
            haystack,
            meter: Meter {
                ev,
                positions: engines.positions,
                groups: engines.groups,
                owed: 0,
            },
            lazy_caches: None,
            pike_cache: None,
            at: Some(0),
            last_end: None,
        }
    }

    /// The next match, as the regex crate's `find_iter` gives it.
    pub(in crate::eval::functions) fn next_match(&mut self) -> Result<Option<Span>, String> {
        while let Some(at) = self.at {
            let Some(found) = self.find(at)? else {
                self.at = None;
                break;
            };
            if found.is_empty() && Some(found.end) == self.last_end {
                // An empty match where the last one ended: search again a byte on.
                self.at = Some(found.end + 1);
                continue;
            }
            self.at = Some(found.end);
            self.last_end = Some(found.end);
            return Ok(Some(found));
        }
        Ok(None)
    }

    /// The spans of the groups of the match `found` (group 0 the whole match).
    pub(in crate::eval::functions) fn groups(
        &mut self,
        found: Span,
    ) -> Result<Vec<Option<Span>>, String> {
        self.meter.pikevm(found.len())?;
        let pikevm = &self.engines.pikevm;
        let cache = self.pike_cache.get_or_insert_with(|| pikevm.create_cache());
        let mut captures = pikevm.create_captures();
        let input = Input::new(self.haystack)
            .span(found)
            .anchored(Anchored::Yes);
        pikevm.search(cache, &input, &mut captures);
        if captures.get_match().map(|m| m.span()) != Some(found) {
            return Err("the regular expression's groups could not be found".into());
        }
        Ok((0..captures.group_len())
            .map(|group| captures.get_group(group))
            .collect())
    }

    /// The leftmost-first match at or after `at`, never an empty one inside a character
    /// (the regex crate's rule for strings).
    fn find(&mut self, mut at: usize) -> Result<Option<Span>, String> {
        let engines = self.engines;
        while at <= self.haystack.len() {
            let found = match &engines.lazy {
                Some((forward, reverse)) => self.find_lazy(forward, reverse, at)?,
                None => self.find_pikevm(at)?,
            };
            match found {
                Some(span) if span.is_empty() && !self.haystack.is_char_boundary(span.start) => {
                    at = span.start + 1;
                }
                found => return Ok(found),
            }
        }
        Ok(None)
    }

    /// [`Search::find`] with the lazy DFAs: the forward scan counted byte by byte.
    fn find_lazy(
        &mut self,
        forward: &DFA,
        reverse: &DFA,
        at: usize,
    ) -> Result<Option<Span>, String> {
        let Search {
            meter,
            lazy_caches,
            haystack,
            ..
        } = self;
        let (forward_cache, reverse_cache) =
            lazy_caches.get_or_insert_with(|| (forward.create_cache(), reverse.create_cache()));
        let bytes = haystack.as_bytes();
        let failed =
            |e: &dyn std::fmt::Display| format!("the regular expression's search failed: {e}");
        let input = Input::new(bytes).span(at..bytes.len());
        let mut state = forward
            .start_state_forward(forward_cache, &input)
            .map_err(|e| failed(&e))?;
        let chunk = meter.chunk();
        let mut end = None;
        let mut charged_to = at;
        let mut read_to = bytes.len();
        let mut dead = false;
        for (position, &byte) in bytes.iter().enumerate().skip(at) {
            if position - charged_to >= chunk {
                meter.scan(position - charged_to)?;
                charged_to = position;
            }
            state = forward
                .next_state(forward_cache, state, byte)
                .map_err(|e| failed(&e))?;
            if state.is_tagged() {
                // (A match state is entered one byte after the match ends.)
                if state.is_match() {
                    end = Some(position);
                } else if state.is_dead() {
                    read_to = position + 1;
                    dead = true;
                    break;
                } else if state.is_quit() {
                    return Err(failed(&format!("unsupported byte {byte:#04x}")));
                }
            }
        }
        if !dead {
            state = forward
                .next_eoi_state(forward_cache, state)
                .map_err(|e| failed(&e))?;
            if state.is_match() {
                end = Some(bytes.len());
            }
        }
        meter.scan(read_to - charged_to)?;
        let Some(end) = end else { return Ok(None) };
        if end == at {
            return Ok(Some(Span { start: at, end }));
        }
        // The reverse scan reads back from the end, at most to the search's start.
        meter.scan(end - at)?;
        let input = Input::new(bytes).span(at..end).anchored(Anchored::Yes);
        let start = reverse
            .try_search_rev(reverse_cache, &input)
            .map_err(|e| failed(&e))?
            .ok_or_else(|| failed(&"no start for the match"))?;
        Ok(Some(Span {
            start: start.offset(),
            end,
        }))
    }

    /// [`Search::find`] with the PikeVM, charged the rest of the string first: how far it
    /// reads is not known.
    fn find_pikevm(&mut self, at: usize) -> Result<Option<Span>, String> {
        self.meter.pikevm(self.haystack.len() - at)?;
        let pikevm = &self.engines.pikevm;
        let cache = self.pike_cache.get_or_insert_with(|| pikevm.create_cache());
        let input = Input::new(self.haystack).span(at..self.haystack.len());
        Ok(pikevm.find(cache, input).map(|m| m.span()))
    }
}

/// What a search's work is charged by, and where.
struct Meter<'a> {
    ev: &'a Evaluator<'a>,
    /// Positions of the pattern, at least 1.
    positions: u64,
    /// Capture groups of the pattern.
    groups: u64,
    /// Positions times bytes read but not charged yet (less than a step's worth), so that
    /// a million searches of a byte each cost what one search of a million bytes does.
    owed: u64,
}

impl Meter<'_> {
    /// How many bytes a lazy DFA reads between two charges.
    fn chunk(&self) -> usize {
        usize::try_from(STEPS_PER_CHARGE * POSITION_BYTES_PER_STEP / self.positions)
            .unwrap_or(usize::MAX)
            .max(1)
    }

    /// Charges a lazy DFA's reading of `bytes` bytes.
    fn scan(&mut self, bytes: usize) -> Result<(), String> {
        self.charge((bytes as u64).saturating_mul(self.positions))
    }

    /// Charges the PikeVM's reading of `bytes` bytes, its groups' slots included.
    fn pikevm(&mut self, bytes: usize) -> Result<(), String> {
        let position_bytes = (bytes as u64)
            .saturating_mul(self.positions)
            .saturating_mul(GROUPS_PER_POSITION.saturating_add(self.groups));
        self.charge(position_bytes / GROUPS_PER_POSITION)
    }

    fn charge(&mut self, position_bytes: u64) -> Result<(), String> {
        let owed = self.owed.saturating_add(position_bytes);
        self.owed = owed % POSITION_BYTES_PER_STEP;
        self.ev.spend(owed / POSITION_BYTES_PER_STEP)
    }
}
