//! Glob patterns as Terraform's `fileset` matches them: with the doublestar library at
//! version 1.1.5 (what Terraform 1.11 links), whose matching differs from shells and
//! from Rust's glob crates in ways a module can observe, so it is followed here rather
//! than approximated with `globset`:
//!
//! - a pattern is matched one path component at a time (components split at `/` not
//!   preceded by a backslash); `**` is special only as a whole component;
//! - `*` matches any run of characters in a component, dot files included, but never
//!   leaves the rest of the pattern to match an empty remainder (`*{x,}` matches only
//!   names ending in `x`), and it steps through the name by the width of the character it
//!   started on;
//! - `?` one character; `\c` the character `c`;
//! - `[...]` a class, negated by a leading `^` (a leading `!` is an ordinary character),
//!   with ranges `a-z`; an empty class, a `-` where a bound is due, or a missing `]` is a
//!   syntax error;
//! - `{a,b}` alternatives, up to the first unescaped `}` (no nesting);
//! - a syntax error is found only when matching reaches it, so a malformed pattern over
//!   a directory with nothing to match is no error.
//!
//! Every matching step is counted against a budget, since patterns such as
//! `*a*a*a*a*a*b` take time exponential in their length.

/// Why a match could not be decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum GlobError {
    /// The pattern is malformed where matching reached it.
    BadPattern,
    /// Matching took more steps than the budget allows.
    TooComplex,
}

/// The most matching steps one `fileset` call may take.
pub(super) const MAX_MATCH_STEPS: usize = 10_000_000;

/// The components of `pattern`: its pieces between `/`s that no backslash precedes.
pub(super) fn components(pattern: &str) -> Vec<&str> {
    split_unescaped(pattern, b'/')
}

/// Whether `component` holds any of the characters that make it a pattern rather than a
/// plain name (doublestar looks a plain name up directly instead of listing its
/// directory).
pub(super) fn is_pattern(component: &str) -> bool {
    component.contains(['*', '?', '[', '{', '\\'])
}

/// Matches single components, counting its steps.
#[derive(Debug, Default)]
pub(super) struct Matcher {
    steps: usize,
}

impl Matcher {
    /// Whether the name `name` (raw bytes: a file name need not be UTF-8) matches the
    /// pattern component `pattern`.
    pub(super) fn component(&mut self, pattern: &str, name: &[u8]) -> Result<bool, GlobError> {
        let p = pattern.as_bytes();
        if p.is_empty() {
            return Ok(name.is_empty());
        }
        if name.is_empty() && pattern != "*" {
            return Ok(false);
        }
        let (mut pi, mut ni) = (0, 0);
        while pi < p.len() && ni < name.len() {
            self.step()?;
            let (pc, pw) = decode(&p[pi..]);
            let (nc, nw) = decode(&name[ni..]);
            match pc {
                '\\' => {
                    pi += pw;
                    let (escaped, ew) = decode(&p[pi..]);
                    if escaped == char::REPLACEMENT_CHARACTER {
                        return Err(GlobError::BadPattern);
                    }
                    if escaped != nc {
                        return Ok(false);
                    }
                    pi += ew;
                    ni += nw;
                }
                '*' => {
                    pi += pw;
                    if pi >= p.len() {
                        return Ok(true);
                    }
                    // Errors of the attempts are not reported: doublestar ignores them.
                    let mut at = ni;
                    while at < name.len() {
                        match self.component(&pattern[pi..], &name[at..]) {
                            Ok(true) => return Ok(true),
                            Err(GlobError::TooComplex) => return Err(GlobError::TooComplex),
                            _ => {}
                        }
                        at += nw;
                    }
                    return Ok(false);
                }
                '[' => {
                    pi += pw;
                    let close = pi + find_unescaped(&p[pi..], b']').ok_or(GlobError::BadPattern)?;
                    if !in_class(&pattern[pi..close], nc)? {
                        return Ok(false);
                    }
                    pi = close + 1;
                    ni += nw;
                }
                '{' => {
                    pi += pw;
                    let close = pi + find_unescaped(&p[pi..], b'}').ok_or(GlobError::BadPattern)?;
                    let rest = &pattern[close + 1..];
                    for option in split_unescaped(&pattern[pi..close], b',') {
                        if self.component(&format!("{option}{rest}"), &name[ni..])? {
                            return Ok(true);
                        }
                    }
                    return Ok(false);
                }
                c if c == '?' || c == nc => {
                    pi += pw;
                    ni += nw;
                }
                _ => return Ok(false),
            }
        }
        let rest = &pattern[pi..];
        let name_done = ni >= name.len();
        Ok(name_done && (rest.is_empty() || rest == "*") || rest == "**")
    }

    fn step(&mut self) -> Result<(), GlobError> {
        self.steps += 1;
        if self.steps > MAX_MATCH_STEPS {
            return Err(GlobError::TooComplex);
        }
        Ok(())
    }
}

/// Whether `c` is in the class written `class` (the text between `[` and `]`).
fn in_class(class: &str, c: char) -> Result<bool, GlobError> {
    let chars: Vec<char> = class.chars().collect();
    let Some(&first) = chars.first() else {
        return Err(GlobError::BadPattern);
    };
    let negated = first == '^';
    let mut i = usize::from(negated);
    // A bound: a character, or a backslash and the character it escapes.
    let bound = |i: &mut usize| -> Result<char, GlobError> {
        let mut b = *chars.get(*i).ok_or(GlobError::BadPattern)?;
        if b == '-' {
            return Err(GlobError::BadPattern);
        }
        *i += 1;
        if b == '\\' {
            b = *chars.get(*i).ok_or(GlobError::BadPattern)?;
            *i += 1;
        }
        Ok(b)
    };
    let mut found = false;
    while i < chars.len() {
        let low = bound(&mut i)?;
        let mut high = low;
        if chars.get(i) == Some(&'-') {
            i += 1;
            high = bound(&mut i)?;
        }
        found |= low <= c && c <= high;
    }
    Ok(found != negated)
}

/// The first `b` in `s` that no backslash precedes.
fn find_unescaped(s: &[u8], b: u8) -> Option<usize> {
    (0..s.len()).find(|&i| s[i] == b && (i == 0 || s[i - 1] != b'\\'))
}

/// `s` split at each `b` that no backslash precedes (empty pieces kept).
fn split_unescaped(s: &str, b: u8) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    while let Some(i) = find_unescaped(&s.as_bytes()[start..], b) {
        pieces.push(&s[start..start + i]);
        start += i + 1;
    }
    pieces.push(&s[start..]);
    pieces
}

/// The character at the start of `bytes` and its width, as Go decodes it: an invalid
/// byte is U+FFFD of width 1, nothing at all U+FFFD of width 0.
fn decode(bytes: &[u8]) -> (char, usize) {
    let Some(&first) = bytes.first() else {
        return (char::REPLACEMENT_CHARACTER, 0);
    };
    let width = match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => return (char::REPLACEMENT_CHARACTER, 1),
    };
    bytes
        .get(..width)
        .and_then(|b| std::str::from_utf8(b).ok())
        .and_then(|s| s.chars().next())
        .map_or((char::REPLACEMENT_CHARACTER, 1), |c| (c, width))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, name: &str) -> Result<bool, GlobError> {
        Matcher::default().component(pattern, name.as_bytes())
    }

    #[test]
    fn components_split_at_unescaped_slashes() {
        assert_eq!(components("/a/*/b"), ["", "a", "*", "b"]);
        assert_eq!(components("a\\/b/c"), ["a\\/b", "c"]);
        assert_eq!(split_unescaped("a,,b\\,c,", b','), ["a", "", "b\\,c", ""]);
        assert!(is_pattern("a\\b") && is_pattern("{a}") && !is_pattern("a.txt"));
    }

    #[test]
    fn stars_questions_and_escapes() {
        assert_eq!(m("*", ".hidden"), Ok(true));
        assert_eq!(m("*.txt", "a.txt"), Ok(true));
        assert_eq!(m("a*", "a"), Ok(true));
        assert_eq!(m("a**", "a-b"), Ok(true));
        assert_eq!(m("?.txt", "a.txt"), Ok(true));
        assert_eq!(m("?.txt", "ab.txt"), Ok(false));
        assert_eq!(m("\\*", "*"), Ok(true));
        assert_eq!(m("\\*", "a"), Ok(false));
        assert_eq!(m("a\\", "ab"), Err(GlobError::BadPattern));
        // The star never leaves an empty remainder to the rest of the pattern.
        assert_eq!(m("*{x,}", "!x"), Ok(true));
        assert_eq!(m("*{x,}", "a.txt"), Ok(false));
        // Errors past a star are not reported.
        assert_eq!(m("*.{md", "b.md"), Ok(false));
    }

    #[test]
    fn classes_as_doublestar_reads_them() {
        assert_eq!(m("[^a]*", "b.md"), Ok(true));
        assert_eq!(m("[^a]*", "a.txt"), Ok(false));
        // `!` is no negation.
        assert_eq!(m("[!a]*", "a.txt"), Ok(true));
        assert_eq!(m("[!a]*", "!x"), Ok(true));
        assert_eq!(m("[!a]*", "b.md"), Ok(false));
        assert_eq!(m("[a-c]", "b"), Ok(true));
        assert_eq!(m("[\\]]", "]"), Ok(true));
        assert_eq!(m("[^]", "x"), Ok(true));
        for bad in ["[", "[a", "[]", "[a-]*", "[-a]"] {
            assert_eq!(m(bad, "a-b"), Err(GlobError::BadPattern), "{bad}");
        }
    }

    #[test]
    fn alternatives() {
        assert_eq!(m("{a,b}.*", "b.md"), Ok(true));
        assert_eq!(m("{a,b}.*", "c.md"), Ok(false));
        assert_eq!(m("{a", "a"), Err(GlobError::BadPattern));
        assert_eq!(m("x{,y}", "x"), Ok(false));
    }

    #[test]
    fn names_that_are_not_utf8() {
        assert_eq!(Matcher::default().component("?", b"\xff"), Ok(true));
        assert_eq!(Matcher::default().component("a*", b"a\xff\xfe"), Ok(true));
    }

    #[test]
    fn exponential_patterns_stop_at_the_budget() {
        let pattern = "*a".repeat(30) + "b";
        assert_eq!(m(&pattern, &"a".repeat(200)), Err(GlobError::TooComplex));
    }
}
