//! The line breaks HCL's scanner ignores (inside parentheses, brackets and `for`
//! expressions), blanked so that hcl-edit reads the text as HCL does, except where HCL
//! reads a line break itself: inside a full splat's brackets.

use std::collections::HashMap;
use std::ops::Range;

use super::{Frame, Scanner, Step};

/// `text` with the line breaks HCL ignores (inside parentheses, brackets and `for`
/// expressions) blanked, together with line comments there, which would otherwise run on.
/// Byte offsets are unchanged. `None` when there was nothing to blank.
pub(in crate::syntax) fn blank_ignored_newlines(text: &str) -> Option<String> {
    let mut sc = Scanner::new(text, 0..text.len());
    let mut blanks: Vec<Range<usize>> = Vec::new();
    // The full splats' brackets met so far, by the offset of their `[` (`splat_brackets`).
    let mut splats: HashMap<usize, Option<Range<usize>>> = HashMap::new();
    while let Some(step) = sc.step() {
        let blank = match step {
            Step::Newline(at) => at..sc.pos,
            Step::LineComment(r) => r,
            Step::Other(_) => continue,
        };
        if !sc.top().is_some_and(Frame::ignores_newlines) {
            continue;
        }
        if let Some(open) = sc.bracket_reading_newlines() {
            let splat = splats
                .entry(open)
                .or_insert_with(|| splat_brackets(text, open, sc.end));
            if splat.as_ref().is_some_and(|s| s.contains(&blank.start)) {
                continue;
            }
        }
        blanks.push(blank);
    }
    if blanks.is_empty() {
        return None;
    }
    let mut bytes = text.as_bytes().to_vec();
    for r in blanks {
        for b in &mut bytes[r] {
            // Blank whole characters only: continuation bytes of a comment's UTF-8
            // characters become spaces along with their lead byte.
            *b = b' ';
        }
    }
    String::from_utf8(bytes).ok()
}

/// Where a full splat's brackets opening at `open` hold only blanks, line breaks and
/// comments around the `*` (`[` to the end of those after the star), or `None` when no `*`
/// follows the `[` first. Where their context includes newlines, HCL reads a line break
/// there itself, before it knows whether an index or a splat follows the `[`: `x[` +
/// newline + `*]` is an index whose expression starts at `*` (`Invalid expression`), and
/// `x[*` + newline + `]` a splat missing its `]`; no line break there may be blanked.
fn splat_brackets(text: &str, open: usize, end: usize) -> Option<Range<usize>> {
    let inner = text.get(open + 1..end)?;
    let star = trivia_len(inner);
    let after = inner[star..].strip_prefix('*')?;
    Some(open + 1..open + 1 + star + 1 + trivia_len(after))
}

/// The length of the blanks, line breaks and comments at the start of `code`.
fn trivia_len(code: &str) -> usize {
    let mut at = 0;
    loop {
        let rest = &code[at..];
        let skipped = if rest.starts_with('#') || rest.starts_with("//") {
            rest.find('\n').unwrap_or(rest.len())
        } else if let Some(comment) = rest.strip_prefix("/*") {
            comment.find("*/").map_or(rest.len(), |end| end + 4)
        } else {
            rest.len() - rest.trim_start_matches([' ', '\t', '\r', '\n']).len()
        };
        if skipped == 0 {
            return at;
        }
        at += skipped;
    }
}
