//! Go's `%q` of a string (`strconv.Quote`), as Terraform's messages print names it did
//! not accept and cty's set hashes write strings: printable runes as they are, the rest escaped (`\n`, `\x1f`, `\u200d`,
//! `\U0010ffff`).
//!
//! Go's `strconv.IsPrint` says which runes are printable: Unicode's letters, marks,
//! numbers, punctuation and symbols, and the ASCII space. The general categories come
//! from regex-syntax's Unicode tables, the ones the regular expressions here use.

use regex_syntax::hir::{Class, HirKind};
use std::sync::LazyLock;

/// `s` between double quotes as Go's `%q` writes it.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if is_print(c) => out.push(c),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if c < ' ' || c == '\u{7f}' => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// `strconv.IsPrint`: Latin-1 by Go's own rule, the rest by general category.
fn is_print(c: char) -> bool {
    match c as u32 {
        0x20..=0x7e => true,
        0..=0xff => (0xa1..=0xff).contains(&(c as u32)) && c != '\u{ad}',
        _ => {
            let ranges = &*PRINTABLE;
            let at = ranges.partition_point(|&(_, end)| end < c);
            ranges.get(at).is_some_and(|&(start, _)| start <= c)
        }
    }
}

/// The runes of the general categories L, M, N, P and S, as sorted ranges.
static PRINTABLE: LazyLock<Vec<(char, char)>> = LazyLock::new(|| {
    let Ok(hir) = regex_syntax::Parser::new().parse(r"[\p{L}\p{M}\p{N}\p{P}\p{S}]") else {
        return Vec::new(); // a fixed pattern: not reached
    };
    match hir.kind() {
        HirKind::Class(Class::Unicode(class)) => class
            .ranges()
            .iter()
            .map(|range| (range.start(), range.end()))
            .collect(),
        _ => Vec::new(),
    }
});

#[cfg(test)]
mod tests {
    use super::go_quote;

    #[test]
    fn strings_are_quoted_as_go_quotes_them() {
        assert_eq!(go_quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(go_quote("\u{1}\n\u{7f}"), r#""\x01\n\x7f""#);
        assert_eq!(go_quote("\u{82}\u{81}\u{80}"), r#""\u0082\u0081\u0080""#);
        assert_eq!(go_quote("a\u{a0}b\u{ad}"), r#""a\u00a0b\u00ad""#);
        assert_eq!(go_quote("a\u{200d}b"), r#""a\u200db""#);
        assert_eq!(go_quote("a\u{10ffff}"), r#""a\U0010ffff""#);
        assert_eq!(
            go_quote("\u{301}a\u{94d}١ü😀\u{fffd}"),
            "\"\u{301}a\u{94d}١ü😀\u{fffd}\""
        );
        assert_eq!(go_quote("a\u{2028}b\u{3000}"), r#""a\u2028b\u3000""#);
    }
}
