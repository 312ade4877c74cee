//! Formatting byte-identical to `terraform fmt`: hclwrite's layout (indentation by
//! bracket nesting, spaces between tokens, `=` and comments aligned; heredocs and
//! template text left alone) after Terraform's own rewrites (quoted labels, lone
//! interpolations unwrapped, legacy variable types), as minimal text edits.
//!
//! A file with a syntax error is left alone, as Terraform leaves it: formatting a broken
//! file could move much more than the user meant.

mod edits;
mod labels;
mod layout;
mod rewrites;
mod spacing;
mod tokens;

#[cfg(test)]
mod tests;

use std::ops::Range;

pub use edits::{apply, TextEdit};

use crate::syntax::{self, Syntax};

/// The file name endings `terraform fmt` formats (its `fmtSupportedExts`), and OpenTofu's
/// `.tofu`. JSON files (`.tf.json`, `.tfvars.json`) are never formatted.
pub const FORMATTED_SUFFIXES: [&str; 5] = [".tf", ".tfvars", ".tftest.hcl", ".tfmock.hcl", ".tofu"];

/// Whether a file called `name` is one the formatter formats.
pub fn is_formatted_file(name: &str) -> bool {
    FORMATTED_SUFFIXES.iter().any(|s| name.ends_with(s))
}

/// Why a text was left as it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotFormatted {
    /// The text does not parse; Terraform formats only what parses.
    #[error("not formatted: syntax error on line {line}: {summary}")]
    SyntaxError {
        /// HCL's summary of the first error.
        summary: String,
        /// Its 1-based line.
        line: usize,
        /// Its byte range.
        span: Range<usize>,
    },
}

/// Whether a text still needs the syntax check that formatting begins with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyntaxCheck {
    /// Parse the text first: one with a syntax error is not formatted.
    Needed,
    /// The caller holds a native-syntax parse of exactly this text without errors (the
    /// workspace's tree of an open document): parsing it again would find none either.
    Passed,
}

/// The edits that format `text` (native syntax) as `terraform fmt` would, in order and
/// never overlapping; none when it is formatted already.
pub fn format(text: &str) -> Result<Vec<TextEdit>, NotFormatted> {
    format_checked(text, SyntaxCheck::Needed)
}

/// [`format`], parsing `text` first only when `check` says it is needed.
pub fn format_checked(text: &str, check: SyntaxCheck) -> Result<Vec<TextEdit>, NotFormatted> {
    let blanked = crate::text::without_bom(text);
    if check == SyntaxCheck::Needed {
        syntax_check(&blanked)?;
    }
    let tokens = tokens::writer_tokens(&blanked);
    let mut tokens = rewrites::rewrite(tokens, &blanked);
    layout::lay_out(&mut tokens, &blanked);
    Ok(edits::edits(&tokens, text))
}

/// The first syntax error of `blanked` (its BOM blanked), as the reason not to format it.
fn syntax_check(blanked: &str) -> Result<(), NotFormatted> {
    let parsed = syntax::parse(blanked, Syntax::Native, None);
    let Some(error) = parsed
        .diagnostics
        .iter()
        .find(|d| d.severity == syntax::SyntaxSeverity::Error)
    else {
        return Ok(());
    };
    let span = error.span.range();
    let line = 1 + blanked.as_bytes()[..span.start.min(blanked.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    Err(NotFormatted::SyntaxError {
        summary: error.summary.clone(),
        line,
        span,
    })
}

/// `text` formatted as `terraform fmt` would write it.
pub fn formatted(text: &str) -> Result<String, NotFormatted> {
    Ok(apply(text, &format(text)?))
}

/// The formatting edits that touch only the lines `range` (byte offsets) covers: the
/// whole file is laid out, as alignment and indentation depend on what is around, and
/// the edits outside those lines are dropped.
pub fn format_range(
    text: &str,
    range: Range<usize>,
    check: SyntaxCheck,
) -> Result<Vec<TextEdit>, NotFormatted> {
    let lines = whole_lines(text, range);
    Ok(format_checked(text, check)?
        .into_iter()
        .filter(|e| e.range.start >= lines.start && e.range.end <= lines.end)
        .collect())
}

/// The edits to make once the user typed `typed` ending at byte `offset`: after `}`, the
/// block or object it closes is formatted; after a line break, the line it ended (the
/// new line keeps the indentation the editor gave it).
pub fn format_on_type(
    text: &str,
    offset: usize,
    typed: char,
    check: SyntaxCheck,
) -> Result<Vec<TextEdit>, NotFormatted> {
    let before = text.get(..offset).unwrap_or(text);
    match typed {
        '}' => {
            let open = matching_open(before).unwrap_or(0);
            format_range(text, open..offset, check)
        }
        '\n' => {
            // The cursor may stand after the indentation the editor gave the new line.
            let line_break = before.trim_end_matches([' ', '\t']);
            let ended = line_break
                .strip_suffix('\n')
                .map_or(line_break, |t| t.strip_suffix('\r').unwrap_or(t))
                .len();
            format_range(text, ended..ended, check)
        }
        _ => Ok(Vec::new()),
    }
}

/// From the start of the line holding `range.start` to the end of the line holding
/// `range.end`, its line break included.
fn whole_lines(text: &str, range: Range<usize>) -> Range<usize> {
    let bytes = text.as_bytes();
    let start = range.start.min(bytes.len());
    let end = range.end.clamp(start, bytes.len());
    let line_start = memchr::memrchr(b'\n', &bytes[..start]).map_or(0, |i| i + 1);
    let line_end = memchr::memchr(b'\n', &bytes[end..]).map_or(bytes.len(), |i| end + i + 1);
    line_start..line_end
}

/// The offset of the `{` that the `}` ending `before` closes, counting the braces of the
/// file's tokens (strings and comments do not count).
fn matching_open(before: &str) -> Option<usize> {
    let tokens = syntax::all_tokens(before);
    let mut depth = 0usize;
    for token in tokens.iter().rev() {
        match token.kind {
            syntax::Tok::CBrace => depth += 1,
            syntax::Tok::OBrace if depth <= 1 => return Some(token.span.start),
            syntax::Tok::OBrace => depth -= 1,
            _ => {}
        }
    }
    None
}
