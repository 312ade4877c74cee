//! Block labels as `terraform fmt` rewrites them: each label's value read as HCL reads a
//! quoted literal, then written back quoted and escaped as hclwrite writes a string
//! (`resource aws_vpc main` becomes `resource "aws_vpc" "main"`, `"\u0041"` becomes `"A"`).

use super::tokens::WriterToken;
use crate::syntax::Tok;

/// The value of a quoted label's literal text (`\n`, `\"`, `\\`, `\uXXXX`, `$${`...),
/// or `None` when an escape is not one HCL knows (then hclwrite drops the label).
pub(super) fn unescape(literal: &str) -> Option<String> {
    let mut out = String::with_capacity(literal.len());
    let mut rest = literal;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest
            .strip_prefix("$${")
            .or_else(|| rest.strip_prefix("%%{"))
        {
            out.push(c);
            out.push('{');
            rest = after;
            continue;
        }
        rest = &rest[c.len_utf8()..];
        if c != '\\' {
            out.push(c);
            continue;
        }
        let escape = rest.chars().next()?;
        rest = &rest[escape.len_utf8()..];
        match escape {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '"' => out.push('"'),
            '\\' => out.push('\\'),
            'u' | 'U' => {
                let digits = if escape == 'u' { 4 } else { 8 };
                let hex = rest.get(..digits)?;
                let code = u32::from_str_radix(hex, 16).ok()?;
                out.push(char::from_u32(code)?);
                rest = &rest[digits..];
            }
            _ => return None,
        }
    }
    Some(out)
}

/// Whether HCL's scanner splits a quoted literal into several tokens: it hands out each
/// escaped template introducer (`$${`, `%%{`) as a literal token of its own, where this
/// crate's scanner keeps one literal.
pub(super) fn scanned_as_several(literal: &str) -> bool {
    let introducers = literal.matches("$${").count() + literal.matches("%%{").count();
    introducers > 0 && literal != "$${" && literal != "%%{"
}

/// The tokens of `value` written as a quoted string.
pub(super) fn quoted(value: &str) -> [WriterToken; 3] {
    [
        WriterToken::new(Tok::OQuote, "\""),
        WriterToken::new(Tok::QuotedLit, &escape(value)),
        WriterToken::new(Tok::CQuote, "\""),
    ]
}

/// `value` escaped for a quoted string: the characters that must be, template
/// introducers doubled, and what Go does not count as printable as `\u`/`\U` escapes.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    for (i, c) in value.char_indices() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '$' | '%' => {
                out.push(c);
                if value[i + 1..].starts_with('{') {
                    out.push(c);
                }
            }
            c if !is_printable(c) => {
                let code = u32::from(c);
                if code < 0x10000 {
                    out.push_str(&format!("\\u{code:04x}"));
                } else {
                    out.push_str(&format!("\\U{code:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// Go's `unicode.IsPrint`, close enough for labels: graphic characters and the ASCII
/// space, not controls, other spaces, format characters, surrogates or private use.
/// (Rust's standard library has no general-category table; unassigned code points are
/// the one class this treats as printable where Go does not.)
fn is_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    let code = u32::from(c);
    let format = matches!(code,
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x890..=0x891 | 0x8E2 | 0x180E
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F | 0xFEFF
        | 0xFFF9..=0xFFFB | 0x110BD | 0x110CD | 0x13430..=0x1343F | 0x1BCA0..=0x1BCA3
        | 0x1D173..=0x1D17A | 0xE0001 | 0xE0020..=0xE007F);
    let private = matches!(code, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD);
    let noncharacter = (0xFDD0..=0xFDEF).contains(&code) || code & 0xFFFE == 0xFFFE;
    !(c.is_control() || c.is_whitespace() || format || private || noncharacter)
}
