//! What `terraform fmt` rewrites before laying a file out (its `formatBody`): every
//! block's labels written quoted (comments before and between them dropped), every
//! attribute value that is a lone interpolation (`"${var.x}"`) unwrapped, and in a
//! top-level `variable` block the legacy type keywords (`"string"`, `"list"`, `"map"`,
//! bare `list`, `map`, `set`) written as type constraints.
//!
//! The bodies are found on the tokens of a file that parsed: an item is an identifier at
//! the start of a body line, an attribute when `=` follows it, a block otherwise. An
//! attribute's value runs to the end of its line outside brackets, less the comments
//! around it, as HCL's expression ranges do.

use std::ops::Range;

use super::labels;
use super::tokens::{bracket_change, WriterToken};
use crate::syntax::Tok;

/// `tokens` with Terraform's rewrites applied.
pub(super) fn rewrite(tokens: Vec<WriterToken>, source: &str) -> Vec<WriterToken> {
    let mut walk = Walk {
        tokens: &tokens,
        source,
        pos: 0,
        blocks: Vec::new(),
        replacements: Vec::new(),
    };
    walk.body();
    let replacements = walk.replacements;
    splice(tokens, replacements)
}

/// Tokens `range` replaced by `with`.
struct Replacement {
    range: Range<usize>,
    with: Vec<WriterToken>,
}

/// A walk over the bodies of a file's tokens, collecting replacements in token order.
struct Walk<'a> {
    tokens: &'a [WriterToken],
    source: &'a str,
    pos: usize,
    /// The types of the blocks the walk is in.
    blocks: Vec<&'a str>,
    replacements: Vec<Replacement>,
}

impl<'a> Walk<'a> {
    fn kind(&self, at: usize) -> Tok {
        self.tokens.get(at).map_or(Tok::Eof, |t| t.kind)
    }

    /// The first token from `at` that is not a comment.
    fn skip_comments(&self, mut at: usize) -> usize {
        while self.tokens.get(at).is_some_and(WriterToken::is_comment) {
            at += 1;
        }
        at
    }

    /// The items of a body, up to its closing brace or the end of the file.
    fn body(&mut self) {
        loop {
            match self.kind(self.pos) {
                Tok::Eof | Tok::CBrace => return,
                Tok::Ident => self.item(),
                // Line breaks and comments between items, or what a valid file never
                // holds here.
                _ => self.pos += 1,
            }
        }
    }

    fn item(&mut self) {
        let name = self.pos;
        let next = self.skip_comments(name + 1);
        if self.kind(next) == Tok::Equal {
            self.attribute(name, next + 1);
        } else {
            self.block(name);
        }
    }

    fn attribute(&mut self, name: usize, value_start: usize) {
        let mut depth = 0;
        let mut end = value_start;
        loop {
            let kind = self.kind(end);
            let ends_line = self
                .tokens
                .get(end)
                .is_some_and(|t| t.ends_line(self.source));
            let change = bracket_change(kind);
            if kind == Tok::Eof || (depth == 0 && ends_line) || depth + change < 0 {
                break;
            }
            depth += change;
            end += 1;
        }
        self.pos = end;
        let mut value = value_start..end;
        while value.start < value.end && self.tokens[value.start].is_comment() {
            value.start += 1;
        }
        while value.end > value.start && self.tokens[value.end - 1].is_comment() {
            value.end -= 1;
        }
        let name = self.tokens[name].text(self.source);
        let expr = &self.tokens[value.clone()];
        let rewritten = if self.blocks == ["variable"] && name == "type" {
            type_keyword(expr, self.source)
        } else {
            lone_interpolation(expr)
        };
        if let Some(with) = rewritten {
            self.replacements.push(Replacement { range: value, with });
        }
    }

    fn block(&mut self, name: usize) {
        let mut at = name + 1;
        let mut labels = Vec::new();
        let mut labels_end = at;
        loop {
            at = self.skip_comments(at);
            match self.kind(at) {
                Tok::Ident => {
                    labels.push(Some(self.tokens[at].text(self.source).to_string()));
                    at += 1;
                }
                Tok::OQuote => {
                    let close = (at + 1..self.tokens.len())
                        .find(|&i| self.tokens[i].kind == Tok::CQuote)
                        .unwrap_or(self.tokens.len());
                    labels.push(self.quoted_label(at + 1..close));
                    at = close + 1;
                }
                _ => break,
            }
            labels_end = at;
        }
        if !labels.is_empty() {
            let with = labels
                .into_iter()
                .flatten()
                .flat_map(|label| labels::quoted(&label))
                .collect();
            self.replacements.push(Replacement {
                range: name + 1..labels_end,
                with,
            });
        }
        if self.kind(at) != Tok::OBrace {
            self.pos = at.max(self.pos + 1);
            return;
        }
        self.pos = at + 1;
        self.blocks.push(self.tokens[name].text(self.source));
        self.body();
        self.blocks.pop();
        if self.kind(self.pos) == Tok::CBrace {
            self.pos += 1;
        }
    }

    /// A quoted label's value; `None` when HCL's scanner makes more than one literal
    /// token of it (hclwrite then drops the label).
    fn quoted_label(&self, inside: Range<usize>) -> Option<String> {
        match &self.tokens[inside] {
            [] => Some(String::new()),
            [literal] if literal.kind == Tok::QuotedLit => {
                let text = literal.text(self.source);
                if labels::scanned_as_several(text) {
                    return None;
                }
                labels::unescape(text)
            }
            _ => None,
        }
    }
}

/// `"${ expr }"` written as `expr`, when the string is that one interpolation and nothing
/// else (interpolations inside nested strings are fine); a value that spans lines is
/// wrapped in parentheses unless it already is.
fn lone_interpolation(expr: &[WriterToken]) -> Option<Vec<WriterToken>> {
    let [open, interp, inside @ .., end, close] = expr else {
        return None;
    };
    if inside.is_empty()
        || open.kind != Tok::OQuote
        || interp.kind != Tok::TemplateInterp
        || end.kind != Tok::TemplateSeqEnd
        || close.kind != Tok::CQuote
    {
        return None;
    }
    let mut quotes = 0;
    for token in inside {
        match token.kind {
            Tok::OQuote => quotes += 1,
            Tok::CQuote => quotes -= 1,
            _ if quotes > 0 => {}
            Tok::TemplateInterp | Tok::TemplateSeqEnd | Tok::QuotedLit => return None,
            _ => {}
        }
    }
    let first = inside.iter().position(|t| t.kind != Tok::Newline)?;
    let last = inside.iter().rposition(|t| t.kind != Tok::Newline)?;
    let trimmed = &inside[first..=last];
    let multi_line = trimmed.iter().any(|t| t.kind == Tok::Newline);
    let parenthesized = trimmed.len() > 1
        && trimmed[0].kind == Tok::OParen
        && trimmed[trimmed.len() - 1].kind == Tok::CParen;
    if multi_line && !parenthesized {
        let mut wrapped = vec![WriterToken::new(Tok::OParen, "(")];
        wrapped.extend_from_slice(trimmed);
        wrapped.push(WriterToken::new(Tok::CParen, ")"));
        return Some(wrapped);
    }
    Some(trimmed.to_vec())
}

/// A variable's legacy type: `"string"` as `string`, `"list"` and `"map"` as collections
/// of strings (what Terraform 0.11 meant), bare `list`, `map` and `set` of `any`.
fn type_keyword(expr: &[WriterToken], source: &str) -> Option<Vec<WriterToken>> {
    let collection = |name: WriterToken, element: &str| {
        vec![
            name,
            WriterToken::new(Tok::OParen, "("),
            WriterToken::new(Tok::Ident, element),
            WriterToken::new(Tok::CParen, ")"),
        ]
    };
    match expr {
        [keyword] if keyword.kind == Tok::Ident => match keyword.text(source) {
            "list" | "map" | "set" => Some(collection(keyword.clone(), "any")),
            _ => None,
        },
        [open, literal, close]
            if open.kind == Tok::OQuote
                && literal.kind == Tok::QuotedLit
                && close.kind == Tok::CQuote =>
        {
            match literal.text(source) {
                "string" => Some(vec![WriterToken::new(Tok::Ident, "string")]),
                name @ ("list" | "map") => {
                    Some(collection(WriterToken::new(Tok::Ident, name), "string"))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// `tokens` with each replacement's range (in order, never overlapping) replaced.
fn splice(tokens: Vec<WriterToken>, replacements: Vec<Replacement>) -> Vec<WriterToken> {
    if replacements.is_empty() {
        return tokens;
    }
    let mut out = Vec::with_capacity(tokens.len());
    let mut next = replacements.into_iter().peekable();
    let mut skip_until = 0;
    for (i, token) in tokens.into_iter().enumerate() {
        if let Some(r) = next.next_if(|r| r.range.start == i) {
            skip_until = r.range.end;
            out.extend(r.with);
        }
        if i >= skip_until {
            out.push(token);
        }
    }
    out
}
