//! Object constructors that repeat a key.
//!
//! HCL accepts `{ a = 1, a = 2 }`: evaluation keeps the last value, and Terraform's
//! decoders that read an object's items one by one (a module call's `providers`, for one)
//! see every item. hcl-edit refuses the repeat. So an object it refuses for a repeated key
//! is blanked out (its braces kept, every other byte a space, so that all offsets stay in
//! place), the rest is parsed, and the object is rebuilt from the original text item by
//! item, each item parsed on its own with the same treatment; the rebuilt object keeps
//! every item, repeats included, in source order.

use std::ops::Range;

use super::lexer::{Lexer, Tok};
use super::native::Converter;
use super::{Body, Expr, ExprKind, Span};

/// hcl-edit's message for a repeated key in an object constructor.
const REPEATED_OBJECT_KEY: &str = "unique object key";

/// Whether hcl-edit refused a text only for repeating an object key somewhere in it.
pub(super) fn is_repeated_key(error: &hcl_edit::parser::Error) -> bool {
    error.message().contains(REPEATED_OBJECT_KEY)
}

/// Parses `text`, a piece of a file starting at `base`, as a body whose expressions may
/// repeat object keys; `None` when it fails for another reason.
pub(super) fn parse_body(text: &str, base: usize) -> Option<Body> {
    let (body, objects) = parse_blanking(text, hcl_edit::parser::parse_body)?;
    let rebuilt = rebuild(text, &objects, base)?;
    Some(Converter::with_grafts(base, rebuilt).body(body))
}

/// Parses `text`, blanking each object that repeats a key until the rest parses; returns
/// the result and the blanked objects (ranges in `text`, braces included).
fn parse_blanking<T>(
    text: &str,
    parse: impl Fn(&str) -> Result<T, hcl_edit::parser::Error>,
) -> Option<(T, Vec<Range<usize>>)> {
    let mut work = text.to_string();
    let mut objects = Vec::new();
    loop {
        match parse(&work) {
            Ok(parsed) => return Some((parsed, objects)),
            Err(e) if is_repeated_key(&e) => {
                let object = enclosing_object(&work, e.location().offset())?;
                if objects.contains(&object) {
                    return None; // blanking did not help: give up rather than loop
                }
                let inner = object.start + 1..object.end - 1;
                let blank: String = work[inner.clone()]
                    .bytes()
                    .map(|b| if b == b'\n' { '\n' } else { ' ' })
                    .collect();
                work.replace_range(inner, &blank);
                objects.push(object);
            }
            Err(_) => return None,
        }
    }
}

/// The objects blanked in `text` (at `base` in the file), rebuilt with all their items.
fn rebuild(text: &str, objects: &[Range<usize>], base: usize) -> Option<Vec<Expr>> {
    objects
        .iter()
        .map(|object| {
            let mut items = Vec::new();
            for item in object_items(text, object.start + 1..object.end - 1) {
                items.extend(parse_item(text, item, base)?);
            }
            Some(Expr {
                span: Span::new(base + object.start, base + object.end),
                kind: ExprKind::Object(items),
            })
        })
        .collect()
}

/// One `key = value` item of an object, parsed as the only item of an object of its own
/// (whose `{` stands just before the item, so that spans stay in place).
fn parse_item(text: &str, item: Range<usize>, base: usize) -> Option<Vec<(Expr, Expr)>> {
    let piece = format!("{{{}\n}}", &text[item.clone()]);
    let piece_base = base + item.start - 1;
    let (expr, objects) = parse_blanking(&piece, hcl_edit::parser::parse_expr)?;
    let rebuilt = rebuild(&piece, &objects, piece_base)?;
    match Converter::with_grafts(piece_base, rebuilt).expr(expr).kind {
        ExprKind::Object(items) => Some(items),
        _ => None,
    }
}

/// The range of the innermost `{ ... }` of `text` around offset `at`.
fn enclosing_object(text: &str, at: usize) -> Option<Range<usize>> {
    let mut open: Vec<(Tok, usize)> = Vec::new();
    let mut best: Option<Range<usize>> = None;
    let mut lexer = Lexer::new(text, 0..text.len());
    loop {
        let token = lexer.next_token();
        match token.kind {
            Tok::Eof => return best,
            Tok::OBrace
            | Tok::OBrack
            | Tok::OParen
            | Tok::TemplateInterp
            | Tok::TemplateControl => open.push((token.kind, token.span.start)),
            Tok::CBrace | Tok::CBrack | Tok::CParen | Tok::TemplateSeqEnd => {
                if let Some((Tok::OBrace, start)) = open.pop() {
                    let inside = start < at && at < token.span.end;
                    if inside && best.as_ref().is_none_or(|b| b.start < start) {
                        best = Some(start..token.span.end);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The items of the object whose contents are `inner`: runs of tokens separated by
/// newlines, commas or comments outside any brackets.
fn object_items(text: &str, inner: Range<usize>) -> Vec<Range<usize>> {
    let mut items = Vec::new();
    let mut current: Option<Range<usize>> = None;
    let mut depth = 0usize;
    let mut lexer = Lexer::new(text, inner);
    loop {
        let token = lexer.next_token();
        // The end ends the last item even inside brackets the piece leaves open: the
        // lexer returns `Eof` for ever once there.
        if token.kind == Tok::Eof {
            items.extend(current.take());
            return items;
        }
        let separates =
            depth == 0 && matches!(token.kind, Tok::Newline | Tok::Comma | Tok::LineComment);
        if separates {
            items.extend(current.take());
            continue;
        }
        match token.kind {
            Tok::OBrace
            | Tok::OBrack
            | Tok::OParen
            | Tok::TemplateInterp
            | Tok::TemplateControl
            | Tok::OQuote
            | Tok::OHeredoc => depth += 1,
            Tok::CBrace
            | Tok::CBrack
            | Tok::CParen
            | Tok::TemplateSeqEnd
            | Tok::CQuote
            | Tok::CHeredoc => depth = depth.saturating_sub(1),
            _ => {}
        }
        current = Some(match current {
            Some(c) => c.start..token.span.end,
            None => token.span.clone(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(e: &Expr) -> Vec<(String, usize)> {
        let ExprKind::Object(items) = &e.kind else {
            panic!("not an object: {e:?}");
        };
        items
            .iter()
            .map(|(k, _)| (format!("{:?}", k.kind), k.span.start as usize))
            .collect()
    }

    #[test]
    fn every_item_is_kept_in_place() {
        let text = "p = {\n  aws.a = aws.x\n  aws.a = aws.y, b = { c = 1, c = 2 }\n}\n";
        let body = parse_body(text, 10).expect("parses");
        let attr = &body.attributes[0];
        assert_eq!(attr.expr.span, Span::new(14, 10 + text.len() - 1));
        let found = keys(&attr.expr);
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].1, 10 + text.find("aws.a").unwrap());
        assert_eq!(found[1].1, 10 + text.rfind("aws.a").unwrap());
        let ExprKind::Object(items) = &attr.expr.kind else {
            unreachable!()
        };
        let inner = &items[2].1;
        assert_eq!(keys(inner).len(), 2);
        assert_eq!(
            inner.span.start as usize,
            10 + text.find("{ c").unwrap(),
            "nested spans stay in place"
        );
    }

    #[test]
    fn an_item_leaving_a_bracket_open_ends_at_the_end() {
        // Found by fuzzing (eval target): the object's contents, lexed on their own, open
        // a template sequence they never close; reading items looped at the end.
        let text = "{ a = 1\n b = \"%{ if\" }";
        let items = object_items(text, 1..text.len() - 1);
        assert_eq!(items.len(), 2, "{items:?}");
    }

    #[test]
    fn other_errors_still_fail() {
        assert!(parse_body("p = { a = 1, a = }\n", 0).is_none());
    }
}
