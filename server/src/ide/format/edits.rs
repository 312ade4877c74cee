//! The formatted tokens as minimal text edits on the source: one edit for each gap whose
//! spaces changed, and one for each run of tokens a rewrite replaced; nothing else of the
//! file is touched.

use std::ops::Range;

use super::tokens::{Text, WriterToken};

/// Replace the bytes `range` of the text with `new_text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    /// Byte range in the text as given.
    pub range: Range<usize>,
    /// What replaces it.
    pub new_text: String,
}

/// The edits that turn `original` into the text `tokens` spell, in order and never
/// overlapping (adjacent ones merged). The tokens point into `original` or into a copy of
/// it with the same offsets.
pub(super) fn edits(tokens: &[WriterToken], original: &str) -> Vec<TextEdit> {
    let mut out: Vec<TextEdit> = Vec::new();
    let mut consumed = 0;
    let mut pending = String::new();
    for token in tokens {
        pending.extend(std::iter::repeat_n(' ', token.spaces));
        match &token.text {
            Text::New(text) => pending.push_str(text),
            Text::Source(span) => {
                let gap = consumed..span.start;
                if original.get(gap.clone()) != Some(pending.as_str()) {
                    push(&mut out, gap, std::mem::take(&mut pending));
                }
                pending.clear();
                consumed = span.end;
            }
        }
    }
    if !pending.is_empty() || consumed < original.len() {
        let rest = consumed..original.len();
        if original.get(rest.clone()) != Some(pending.as_str()) {
            push(&mut out, rest, pending);
        }
    }
    out
}

/// Adds an edit, merged into the previous one when they touch.
fn push(out: &mut Vec<TextEdit>, range: Range<usize>, new_text: String) {
    if let Some(last) = out.last_mut() {
        if last.range.end == range.start {
            last.range.end = range.end;
            last.new_text.push_str(&new_text);
            return;
        }
    }
    out.push(TextEdit { range, new_text });
}

/// `text` with `edits` (in order, not overlapping) applied.
pub fn apply(text: &str, edits: &[TextEdit]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in edits {
        out.push_str(text.get(at..edit.range.start).unwrap_or(""));
        out.push_str(&edit.new_text);
        at = edit.range.end.max(at);
    }
    out.push_str(text.get(at..).unwrap_or(""));
    out
}
