//! What HCL's parser skips of a body: the tokens its recoveries read past after an error,
//! of which it builds no item and says nothing (its scanner still refuses their bad
//! characters). After a token that cannot start an item the recovery runs to the end of
//! the body: to the end of the file at the top level, to the next unmatched `}` in a
//! block. Strata keeps the items written there for the editor; what Terraform reports
//! ignores them (`File::unread`).

use std::ops::Range;

use super::super::lexer::{Tok, Token};
use super::super::scanner_errors;
use super::super::{Span, SyntaxDiagnostic};
use super::{Parser, Scope};

/// The parts of a body HCL's parser skips.
#[derive(Debug, Default)]
pub(in crate::syntax) struct Skipped {
    /// The skipped parts of the text, in file order, none overlapping.
    pub regions: Vec<Span>,
    /// What HCL's scanner refuses inside them, which Terraform reports all the same.
    pub scanner_errors: Vec<SyntaxDiagnostic>,
    /// What HCL's parser reports of the whole body, inside them too: an error at the
    /// token a recovery then skips from is reported all the same.
    pub parser_errors: Vec<SyntaxDiagnostic>,
}

impl Skipped {
    /// Whether `offset` lies in a skipped part.
    pub fn contains(&self, offset: u32) -> bool {
        super::super::unread::within(&self.regions, offset)
    }

    /// Whether HCL reports `d`: it lies outside the skipped parts, or HCL's scanner or
    /// parser says it there.
    pub fn reports(&self, d: &SyntaxDiagnostic) -> bool {
        !self.contains(d.span.start)
            || self.scanner_errors.contains(d)
            || self.parser_errors.contains(d)
    }
}

/// What HCL's parser skips of the top-level body written in `range` of `text`, which it
/// starts reading outside recovery mode. The bytes at `invalid` were not UTF-8.
pub(in crate::syntax) fn skipped(text: &str, range: Range<usize>, invalid: &[usize]) -> Skipped {
    let scope = Scope {
        whole_blocks: true,
        after_error: false,
        invalid,
    };
    let mut parser = Parser::new(text, range, scope);
    parser.skipped = Some(Vec::new());
    parser.top_level_body();
    let mut found = parser.skipped.take().unwrap_or_default();
    found.sort_by_key(|r| r.start);
    let mut regions: Vec<Span> = Vec::new();
    for r in found {
        match regions.last_mut() {
            Some(last) if r.start <= last.end as usize => {
                last.end = last.end.max(r.end as u32);
            }
            _ => regions.push(Span::new(r.start, r.end)),
        }
    }
    let scanner_errors = regions
        .iter()
        .flat_map(|r| scanner_errors::token_errors(text, tokens_in(&parser.tokens, *r)))
        .collect();
    Skipped {
        regions,
        scanner_errors,
        parser_errors: parser.diagnostics,
    }
}

/// The tokens wholly inside `region` (the tokens are in file order).
fn tokens_in(tokens: &[Token], region: Span) -> &[Token] {
    let from = tokens.partition_point(|t| t.span.start < region.start as usize);
    let to = tokens.partition_point(|t| t.span.end <= region.end as usize && t.kind != Tok::Eof);
    tokens.get(from..to.max(from)).unwrap_or_default()
}

impl Parser<'_> {
    /// Where what a recovery skips begins: at the next token, or after it when the parser
    /// has looked at it already (it may have reported it).
    pub(super) fn skip_from(&mut self) -> usize {
        let looked = self.tokens.len() > self.next;
        let token = self.peek();
        if looked {
            token.span.end
        } else {
            token.span.start
        }
    }

    /// Notes that a recovery skipped from `from` to the last token read.
    pub(super) fn note_skipped(&mut self, from: usize) {
        let to = self.prev_end();
        if let Some(skipped) = &mut self.skipped {
            if to > from {
                skipped.push(from..to);
            }
        }
    }
}
