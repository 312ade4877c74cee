//! A native-syntax file with bytes that are not UTF-8 (`text::encoding`): HCL's scanner
//! reports the first of them outside comments (`Invalid character encoding`, once per
//! file) and its parser meets each as a token of its own, so the items holding them are
//! read as HCL reads them while the rest of the file is parsed as usual.

use super::lexer::{Lexer, Tok};
use super::recover::{file, recover_range};
use super::scanner_errors::count_per_file;
use super::File;

/// Parses a native-syntax file whose bytes at `invalid` (in order) were not UTF-8, the
/// text holding a placeholder for each; the scanner's errors are counted over the whole
/// file as HCL counts them (`scanner_errors`).
pub(super) fn parse_native_invalid(text: &str, invalid: &[usize], previous: Option<&File>) -> File {
    let invalid = outside_comments(text, invalid);
    let mut parsed = if invalid.is_empty() {
        super::recover::parse_native(text, previous)
    } else {
        file(recover_range(text, 0..text.len(), previous, &invalid))
    };
    count_per_file(text, &invalid, &mut parsed.diagnostics);
    parsed
}

/// The offsets among `invalid` that HCL's scanner meets as tokens: those outside
/// comments (a comment takes any byte).
fn outside_comments(text: &str, invalid: &[usize]) -> Vec<usize> {
    if invalid.is_empty() {
        return Vec::new();
    }
    let mut lexer = Lexer::new(text, 0..text.len()).with_invalid(invalid);
    let mut found = Vec::new();
    loop {
        let token = lexer.next_token();
        match token.kind {
            Tok::Eof => return found,
            Tok::BadUtf8 => found.push(token.span.start),
            _ => {}
        }
    }
}
