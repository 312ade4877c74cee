//! Whether one space separates two neighbouring tokens of a line: hclwrite's rules
//! (`spaceAfterToken`), in its order, the first that applies deciding.

use super::tokens::{bracket_change, WriterToken};
use crate::syntax::Tok;

/// Whether `subject` is followed by a space when `after` comes next; `before` is the token
/// before `subject` on its line (`None` at the line's start).
pub(super) fn space_after(
    subject: &WriterToken,
    before: Option<&WriterToken>,
    after: &WriterToken,
    source: &str,
) -> bool {
    use Tok::*;
    let (s, a) = (subject.kind, after.kind);
    let before_kind = before.map(|b| b.kind);
    match () {
        // Never a space before a line break.
        _ if a == Newline => false,
        // A function's name and its `(`, and `provider::name::function`.
        _ if s == Ident && a == OParen => false,
        _ if (s == Ident && a == DoubleColon) || (s == DoubleColon && a == Ident) => false,
        // Attribute access.
        _ if s == Dot || a == Dot => false,
        _ if a == Comma || a == Ellipsis => false,
        _ if s == Comma => true,
        // Nothing is added inside a template's literal text.
        _ if matches!(s, QuotedLit | OQuote | OHeredoc)
            || matches!(a, QuotedLit | CQuote | CHeredoc) =>
        {
            false
        }
        // `for x in [foo]`: `in` is the keyword here, not a reference being indexed.
        _ if s == Ident && subject.text(source) == "in" && before_kind == Some(Ident) => true,
        _ if a == OBrack && (s == Ident || s == Number || bracket_change(s) < 0) => false,
        _ if s == Bang => false,
        _ if s == Minus => !negation_follows(before_kind),
        // Braces have spaces inside, except an empty pair.
        _ if s == OBrace || a == CBrace => !(s == OBrace && a == CBrace),
        // `${ {` and `} }`, to tell an object constructor from the sequence's own braces.
        _ if matches!(s, TemplateInterp | TemplateControl) && a == OBrace => true,
        _ if s == CBrace && a == TemplateSeqEnd => true,
        _ if s == TemplateSeqEnd && matches!(a, TemplateInterp | TemplateControl) => false,
        _ if bracket_change(s) > 0 => false,
        _ if bracket_change(a) < 0 => false,
        _ => true,
    }
}

/// Whether a `-` after a token of kind `before` is a negation rather than a subtraction:
/// it is when nothing before it could end an operand.
fn negation_follows(before: Option<Tok>) -> bool {
    use Tok::*;
    match before {
        None => true,
        Some(kind) => matches!(
            kind,
            OParen
                | OBrace
                | OBrack
                | Equal
                | Colon
                | Comma
                | Question
                | Plus
                | Star
                | Slash
                | Percent
                | Minus
                | EqualOp
                | NotEqual
                | Gt
                | Ge
                | Lt
                | Le
                | And
                | Or
                | Bang
        ),
    }
}
