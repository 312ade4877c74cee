//! What Strata keeps of an argument whose value HCL's parser refused: the name, and the
//! value left unanalysed, or HCL's placeholder where no value even starts.

use std::ops::Range;

use super::lexer::{Lexer, Tok};
use super::{Attribute, Expr, ExprKind, Ident, Span};

/// `name = <anything>` at `range` of `text`, with the value left unanalysed.
pub(super) fn unanalysed_attribute(text: &str, range: Range<usize>) -> Option<Attribute> {
    let (slice, base) = (&text[range.clone()], range.start);
    let eq = slice.find('=')?;
    let name = slice[..eq].trim();
    let valid = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if name.is_empty() || !valid {
        return None;
    }
    let name_start = base + slice.find(name)?;
    let value_start = base + eq + 1 + (slice[eq + 1..].len() - slice[eq + 1..].trim_start().len());
    let (span, kind) = match missing_value(text, base + eq + 1) {
        Some(placeholder) => (placeholder, ExprKind::Missing),
        None => (
            Span::new(value_start, base + slice.len()),
            ExprKind::Unanalysed,
        ),
    };
    Some(Attribute {
        name: Ident {
            name: name.into(),
            span: Span::new(name_start, name_start + name.len()),
        },
        expr: Expr { span, kind },
        span: Span::new(name_start, base + slice.len()),
    })
}

/// Where HCL's placeholder for a value that is missing lies, when the first token after
/// the `=` at `after_equals` cannot start an expression: HCL's parser then gives the
/// argument a value of unknown type at that token (the newline or line comment ending
/// the line, a `}`, the end of the file), which Terraform decodes (`Invalid type
/// specification` there). A `.` is left out: HCL reads a traversal of the placeholder.
fn missing_value(text: &str, after_equals: usize) -> Option<Span> {
    let token = Lexer::new(text, after_equals..text.len()).next_token();
    let starts_term = matches!(
        token.kind,
        Tok::OParen
            | Tok::Number
            | Tok::Ident
            | Tok::OQuote
            | Tok::OHeredoc
            | Tok::Minus
            | Tok::Bang
            | Tok::OBrack
            | Tok::OBrace
            | Tok::Dot
    );
    (!starts_term).then(|| Span::new(token.span.start, token.span.end))
}
