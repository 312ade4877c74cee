//! The tokens the formatter works on: HCL's writer tokens, each with its text and the
//! number of spaces written before it. Formatting changes only those spaces (and
//! Terraform's rewrites splice tokens in and out), so every token either points back into
//! the source or carries a text of its own.

use std::ops::Range;

use crate::syntax::{all_tokens, Tok};

/// Where a token's text comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Text {
    /// A slice of the source text.
    Source(Range<usize>),
    /// A token a rewrite made up.
    New(Box<str>),
}

/// One token as HCL's writer holds it.
#[derive(Debug, Clone)]
pub(super) struct WriterToken {
    /// HCL's token kind.
    pub kind: Tok,
    /// Its text.
    pub text: Text,
    /// How many spaces are written before it.
    pub spaces: usize,
}

impl WriterToken {
    /// A token a rewrite makes up, with no spaces before it yet.
    pub fn new(kind: Tok, text: &str) -> Self {
        Self {
            kind,
            text: Text::New(text.into()),
            spaces: 0,
        }
    }

    /// Its text, read from `source` when it comes from there.
    pub fn text<'a>(&'a self, source: &'a str) -> &'a str {
        match &self.text {
            Text::Source(range) => source.get(range.clone()).unwrap_or(""),
            Text::New(text) => text,
        }
    }

    /// Whether it is a comment of either kind.
    pub fn is_comment(&self) -> bool {
        matches!(self.kind, Tok::LineComment | Tok::BlockComment)
    }

    /// Whether the token ends a line: a newline, or a `#`/`//` comment, which holds its
    /// line break.
    pub fn ends_line(&self, source: &str) -> bool {
        match self.kind {
            Tok::Newline => true,
            Tok::LineComment | Tok::BlockComment => self.text(source).ends_with('\n'),
            _ => false,
        }
    }
}

/// The source's tokens, each with the width of the gap before it as its spaces (the
/// scanner skips only spaces and tabs, and HCL's writer counts each byte as one space).
pub(super) fn writer_tokens(source: &str) -> Vec<WriterToken> {
    let mut last_end = 0;
    all_tokens(source)
        .into_iter()
        .map(|token| {
            let spaces = token.span.start.saturating_sub(last_end);
            last_end = token.span.end;
            WriterToken {
                kind: token.kind,
                text: Text::Source(token.span),
                spaces,
            }
        })
        .collect()
}

/// How a token changes the bracket nesting: template sequences count as brackets.
pub(super) fn bracket_change(kind: Tok) -> i32 {
    match kind {
        Tok::OBrace | Tok::OBrack | Tok::OParen | Tok::TemplateControl | Tok::TemplateInterp => 1,
        Tok::CBrace | Tok::CBrack | Tok::CParen | Tok::TemplateSeqEnd => -1,
        _ => 0,
    }
}
