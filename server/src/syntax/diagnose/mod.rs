//! HCL's syntax errors for one body item, found the way HCL's parser finds them.
//!
//! Called only for an item hcl-edit rejected. It follows HCL's recursive-descent parser
//! over [`super::lexer`]'s tokens, in HCL's order, with HCL's rules for which newlines
//! count, and its recovery mode: after the first error, most later errors in the item
//! are suppressed, as Terraform suppresses them. It builds no tree (hcl-edit and the
//! recovery in [`super::recover`] do that); it only says what is wrong and where.

use std::ops::Range;

use super::depth::nested_too_deeply;
use super::lexer::{Lexer, Tok, Token};
use super::scanner_errors;
use super::{Span, SyntaxDiagnostic, SyntaxSeverity};
use crate::limits::MAX_NESTING_DEPTH;

/// How much of an item to diagnose, and in what state.
#[derive(Clone, Copy, Default)]
pub(in crate::syntax) struct Scope<'a> {
    /// Parse the bodies of blocks too (for an item whose brackets never close, where
    /// HCL's error may lie anywhere inside); otherwise stop at a block's `{`, since its
    /// items are diagnosed one by one.
    pub whole_blocks: bool,
    /// An item before this one failed, so HCL is in recovery mode (to the end of the
    /// file) and stays silent about most of what follows (a stray `{` after a broken
    /// header).
    pub after_error: bool,
    /// The offsets of the file's bytes that are not UTF-8.
    pub invalid: &'a [usize],
}

/// HCL's errors for the body item at `item` of `text`: the characters its scanner refuses
/// there, then the first error its parser meets. Tokens are read up to `limit` (the end of
/// the enclosing body), since HCL reads past an unclosed string or bracket too.
pub(in crate::syntax) fn body_item(
    text: &str,
    item: Range<usize>,
    limit: usize,
    scope: Scope<'_>,
) -> Vec<SyntaxDiagnostic> {
    body_item_and_mode(text, item, limit, scope).0
}

/// [`body_item`]'s errors, and whether HCL's parser is in recovery mode after the item:
/// some errors (a conditional without its false expression, a misplaced template
/// directive) leave it out of recovery mode, so it goes on reporting what follows.
pub(in crate::syntax) fn body_item_and_mode(
    text: &str,
    item: Range<usize>,
    limit: usize,
    scope: Scope<'_>,
) -> (Vec<SyntaxDiagnostic>, bool) {
    let mut parser = Parser::new(text, item.start..limit, scope);
    parser.body_item();
    // What the parser read belongs to this item, even past its end: an unclosed string
    // runs on, and HCL's scanner complains about every line of it.
    let read_to = item.end.max(parser.prev_end());
    while parser
        .tokens
        .last()
        .is_none_or(|t| t.span.end < read_to && t.kind != Tok::Eof)
    {
        let token = parser.lexer.next_token();
        parser.tokens.push(token);
    }
    let inside: Vec<Token> = parser
        .tokens
        .iter()
        .filter(|t| t.span.end <= read_to)
        .cloned()
        .collect();
    let mut out = scanner_errors::token_errors(text, &inside);
    out.append(&mut parser.diagnostics);
    out.sort_by_key(|d| d.span.start);
    (out, parser.recovery)
}

/// HCL's errors for the whole native-syntax `text`, found without hcl-edit: what its
/// scanner refuses and what its parser reports, item by item from the top, in recovery
/// mode after the first error. Where hcl-edit accepts a text this must find nothing
/// (`syntax/agreement_tests.rs`).
#[cfg(test)]
pub(in crate::syntax) fn whole_file(text: &str) -> Vec<SyntaxDiagnostic> {
    let scope = Scope {
        whole_blocks: true,
        ..Scope::default()
    };
    let mut parser = Parser::new(text, 0..text.len(), scope);
    parser.top_level_body();
    let mut out = scanner_errors::token_errors(text, &parser.tokens);
    out.append(&mut parser.diagnostics);
    out.sort_by_key(|d| d.span.start);
    out
}

/// HCL's errors for `text` read as one standalone expression (`hclsyntax.ParseExpression`,
/// which Terraform calls on some JSON strings): the characters its scanner refuses, the
/// parser's first error, and anything after a whole expression. Newlines do not count, as
/// inside parentheses. Spans are offsets into `text`.
pub(in crate::syntax) fn expression(text: &str) -> Vec<SyntaxDiagnostic> {
    let mut parser = Parser::new(text, 0..text.len(), Scope::default());
    parser.newlines = vec![false];
    parser.expression();
    let next = parser.peek();
    if next.kind != Tok::Eof && !parser.recovery {
        parser.error(
            "Extra characters after expression",
            "An expression was successfully parsed, but extra characters were found after it.",
            next.span,
        );
    }
    while parser.tokens.last().is_none_or(|t| t.kind != Tok::Eof) {
        let token = parser.lexer.next_token();
        parser.tokens.push(token);
    }
    let mut out = scanner_errors::token_errors(text, &parser.tokens);
    out.append(&mut parser.diagnostics);
    out.sort_by_key(|d| d.span.start);
    out
}

struct Parser<'a> {
    text: &'a str,
    lexer: Lexer<'a>,
    /// The tokens scanned so far.
    tokens: Vec<Token>,
    next: usize,
    /// Whether newlines are tokens at each nesting level (they are not inside brackets).
    newlines: Vec<bool>,
    recovery: bool,
    whole_blocks: bool,
    diagnostics: Vec<SyntaxDiagnostic>,
    /// How many expressions and blocks the parser is inside (see [`Parser::nested`]).
    depth: usize,
    /// The nesting limit was reached: the item is abandoned, nothing more is read or said.
    too_deep: bool,
    /// What the recoveries skipped, when asked for (see [`skipped`]).
    skipped: Option<Vec<Range<usize>>>,
}

impl<'a> Parser<'a> {
    /// A parser of `range` of `text` at the start of a body item, in the state `scope`
    /// gives; newlines count.
    fn new(text: &'a str, range: Range<usize>, scope: Scope<'a>) -> Self {
        Parser {
            text,
            lexer: Lexer::new(text, range).with_invalid(scope.invalid),
            tokens: Vec::new(),
            next: 0,
            newlines: vec![true],
            recovery: scope.after_error,
            whole_blocks: scope.whole_blocks,
            diagnostics: Vec::new(),
            depth: 0,
            too_deep: false,
            skipped: None,
        }
    }
}

impl Parser<'_> {
    /// HCL's top-level body loop (`ParseBody(TokenEOF)`): items to the end of the file.
    fn top_level_body(&mut self) {
        loop {
            match self.peek().kind {
                Tok::Eof => break,
                Tok::Newline => {
                    self.read();
                }
                _ => self.body_item(),
            }
        }
    }

    /// The next significant token and its index: comments and, where they do not count,
    /// newlines are skipped; a line comment counts as the newline it ends with.
    fn peek_at(&mut self) -> (Token, usize) {
        if self.too_deep {
            let at = self.prev_end();
            let eof = Token {
                kind: Tok::Eof,
                span: at..at,
            };
            return (eof, self.next);
        }
        let counting = self.newlines.last().copied().unwrap_or(true);
        let mut i = self.next;
        loop {
            if i == self.tokens.len() {
                let token = self.lexer.next_token();
                self.tokens.push(token);
            }
            let token = &self.tokens[i];
            match token.kind {
                Tok::LineComment if counting => {
                    let span = token.span.clone();
                    return (
                        Token {
                            kind: Tok::Newline,
                            span,
                        },
                        i,
                    );
                }
                Tok::LineComment => {}
                Tok::Newline if !counting => {}
                _ => return (token.clone(), i),
            }
            i += 1;
        }
    }

    fn peek(&mut self) -> Token {
        self.peek_at().0
    }

    fn read(&mut self) -> Token {
        let (token, i) = self.peek_at();
        self.next = i + 1;
        token
    }

    fn prev_end(&self) -> usize {
        self.next
            .checked_sub(1)
            .and_then(|i| self.tokens.get(i))
            .map_or(0, |t| t.span.end)
    }

    /// Whether the next token is the identifier `keyword` (`for`, `in`, `if`).
    fn next_is_keyword(&mut self, keyword: &str) -> bool {
        let token = self.peek();
        token.kind == Tok::Ident && self.text.get(token.span) == Some(keyword)
    }

    fn error(&mut self, summary: &str, detail: &str, span: Range<usize>) {
        if self.too_deep {
            return;
        }
        self.diagnostics.push(SyntaxDiagnostic {
            severity: SyntaxSeverity::Error,
            summary: summary.into(),
            detail: detail.into(),
            span: Span::new(span.start, span.end),
            cited: None,
        });
    }

    /// An error whose detail names the place `cited` (written `{range}` in it).
    fn error_citing(
        &mut self,
        summary: &str,
        detail: &str,
        span: Range<usize>,
        cited: Range<usize>,
    ) {
        self.error(summary, detail, span);
        if let Some(d) = self.diagnostics.last_mut() {
            d.cited = Some(Span::new(cited.start, cited.end));
        }
    }

    /// An error reported only before recovery began, as most of HCL's are.
    fn first_error(&mut self, summary: &str, detail: &str, span: Range<usize>) {
        if !self.recovery {
            self.error(summary, detail, span);
        }
    }

    /// Reports an error (with `guarded`, only before recovery began) and skips to the
    /// bracket `end`, as HCL does after most errors inside brackets.
    fn fail(&mut self, guarded: bool, summary: &str, detail: &str, span: Range<usize>, end: Tok) {
        if guarded {
            self.first_error(summary, detail, span);
        } else {
            self.error(summary, detail, span);
        }
        self.recover(end);
    }

    /// Runs `parse` and says whether it reported an error.
    fn failed(&mut self, parse: impl FnOnce(&mut Self)) -> bool {
        let before = self.diagnostics.len();
        parse(self);
        self.diagnostics.len() > before
    }

    fn with_newlines(&mut self, counting: bool, parse: impl FnOnce(&mut Self)) {
        self.newlines.push(counting);
        parse(self);
        self.newlines.pop();
    }

    /// Skips to the token closing the bracket `end` (or the end of input) and enters
    /// recovery, as HCL does after an error inside brackets.
    fn recover(&mut self, end: Tok) -> Token {
        let from = self.skip_from();
        let token = self.recover_unnoted(end);
        self.note_skipped(from);
        token
    }

    fn recover_unnoted(&mut self, end: Tok) -> Token {
        self.recovery = true;
        let start = opening(end);
        let mut nest = 0;
        loop {
            let token = self.read();
            let kind = match token.kind {
                Tok::TemplateControl if end == Tok::TemplateSeqEnd => Tok::TemplateInterp,
                kind => kind,
            };
            if Some(kind) == start {
                nest += 1;
            } else if kind == end {
                if nest == 0 {
                    return token;
                }
                nest -= 1;
            } else if kind == Tok::Eof {
                return token;
            }
        }
    }

    /// Runs `parse` one nesting level deeper. HCL's parser has no limit, but its recursion
    /// here must have one: past [`MAX_NESTING_DEPTH`] the item is reported as nested too
    /// deeply and abandoned (the next token read is the end of input).
    fn nested(&mut self, parse: impl FnOnce(&mut Self)) {
        if self.too_deep {
            return;
        }
        if self.depth >= MAX_NESTING_DEPTH {
            let at = self.peek().span;
            self.diagnostics
                .push(nested_too_deeply(Span::new(at.start, at.end)));
            self.too_deep = true;
            self.recovery = true;
            return;
        }
        self.depth += 1;
        parse(self);
        self.depth -= 1;
    }

    fn expression(&mut self) {
        self.nested(Self::expression_unnested);
    }

    fn expression_unnested(&mut self) {
        if self.failed(|p| p.binary(0)) && self.recovery {
            return;
        }
        if self.peek().kind != Tok::Question {
            return;
        }
        self.read();
        if self.failed(Self::expression) && self.recovery {
            return;
        }
        let colon = self.peek();
        if colon.kind != Tok::Colon {
            return self.error(
                "Missing false expression in conditional",
                "The conditional operator (...?...:...) requires a false expression, delimited \
                 by a colon.",
                colon.span,
            );
        }
        self.read();
        self.expression();
    }

    /// Binary operators, loosest first, as HCL groups them by precedence.
    fn binary(&mut self, level: usize) {
        const LEVELS: [&[Tok]; 6] = [
            &[Tok::Or],
            &[Tok::And],
            &[Tok::EqualOp, Tok::NotEqual],
            &[Tok::Gt, Tok::Ge, Tok::Lt, Tok::Le],
            &[Tok::Plus, Tok::Minus],
            &[Tok::Star, Tok::Slash, Tok::Percent],
        ];
        let Some(operators) = LEVELS.get(level) else {
            return self.term_with_traversals();
        };
        if self.failed(|p| p.binary(level + 1)) && self.recovery {
            return;
        }
        while operators.contains(&self.peek().kind) {
            self.read();
            if self.failed(|p| p.binary(level + 1)) && self.recovery {
                return;
            }
        }
    }

    fn term_with_traversals(&mut self) {
        self.term();
        self.traversals();
    }
}

/// The opening bracket that `end` closes.
fn opening(end: Tok) -> Option<Tok> {
    Some(match end {
        Tok::CBrace => Tok::OBrace,
        Tok::CBrack => Tok::OBrack,
        Tok::CParen => Tok::OParen,
        Tok::CQuote => Tok::OQuote,
        Tok::CHeredoc => Tok::OHeredoc,
        Tok::TemplateSeqEnd => Tok::TemplateInterp,
        _ => return None,
    })
}

mod items;
mod skipped;
mod templates;
mod terms;

pub(in crate::syntax) use skipped::skipped;
