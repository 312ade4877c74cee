//! HCL's tokens, as its scanner produces them, for reporting syntax errors in HCL's words.
//!
//! hcl-edit parses well-formed files; when it rejects one, its message and position are not
//! what Terraform prints. This scanner reproduces the token stream of HCL's native syntax
//! (strings and heredocs with their template sequences, comments, the characters HCL
//! refuses) so that [`super::diagnose`] can follow HCL's parser to the same error, and
//! [`super::scanner_errors`] can report what HCL's scanner itself refuses.

use std::ops::Range;

/// The kinds of token HCL's scanner produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident,
    Number,
    OQuote,
    CQuote,
    QuotedLit,
    QuotedNewline,
    TemplateInterp,
    TemplateControl,
    TemplateSeqEnd,
    OHeredoc,
    CHeredoc,
    Newline,
    /// A `#` or `//` comment, which ends a line as a newline does.
    LineComment,
    /// A `/* */` comment, which the scanner hands out only when asked to
    /// ([`Lexer::with_block_comments`]): the parsers skip it, the formatter places it.
    BlockComment,
    OBrace,
    CBrace,
    OBrack,
    CBrack,
    OParen,
    CParen,
    Comma,
    Dot,
    Ellipsis,
    Equal,
    EqualOp,
    NotEqual,
    Lt,
    Le,
    Gt,
    Ge,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    And,
    Or,
    Bang,
    Question,
    Colon,
    DoubleColon,
    FatArrow,
    BitwiseAnd,
    BitwiseOr,
    BitwiseXor,
    BitwiseNot,
    Semicolon,
    Apostrophe,
    Backtick,
    Invalid,
    /// A byte of the file that is not UTF-8 (`TokenBadUTF8`), which the text holds as
    /// `text::encoding::PLACEHOLDER`.
    BadUtf8,
    Eof,
}

/// One token: its kind and where it is in the file.
#[derive(Clone, Debug)]
pub struct Token {
    pub kind: Tok,
    pub span: Range<usize>,
}

/// What the scanner is inside of.
enum Mode {
    /// Expressions; `depth` counts open braces, `template` whether a `}` at depth 0
    /// closes a template sequence.
    Expr {
        depth: usize,
        template: bool,
    },
    Quoted,
    Heredoc {
        marker: String,
    },
}

/// HCL's scanner over part of a text, producing tokens on demand (a parser that stops
/// early never scans the rest of a large file).
pub(super) struct Lexer<'a> {
    text: &'a str,
    end: usize,
    pos: usize,
    /// Tokens scanned but not yet handed out (one step can produce no token, or one).
    tokens: std::collections::VecDeque<Token>,
    modes: Vec<Mode>,
    /// The offsets of the file's bytes that are not UTF-8, in order.
    invalid: &'a [usize],
    /// Whether `/* */` comments are handed out as tokens.
    block_comments: bool,
}

impl<'a> Lexer<'a> {
    /// A scanner of `range` of `text`.
    pub(super) fn new(text: &'a str, range: Range<usize>) -> Self {
        Lexer {
            text,
            end: range.end.min(text.len()),
            pos: range.start,
            tokens: Default::default(),
            modes: vec![Mode::Expr {
                depth: 0,
                template: false,
            }],
            invalid: &[],
            block_comments: false,
        }
    }

    /// The same scanner, handing out `/* */` comments as [`Tok::BlockComment`] tokens.
    pub(super) fn with_block_comments(mut self) -> Self {
        self.block_comments = true;
        self
    }

    /// The same scanner, told where the file's bytes that are not UTF-8 are.
    pub(super) fn with_invalid(mut self, invalid: &'a [usize]) -> Self {
        self.invalid = invalid;
        self
    }

    /// Whether the byte at `offset` is one that is not UTF-8.
    fn is_invalid(&self, offset: usize) -> bool {
        !self.invalid.is_empty() && self.invalid.binary_search(&offset).is_ok()
    }

    /// The next token; at the end, an empty `Eof` token, again and again (Terraform prints
    /// HCL's one byte wider: see `SourcePositions::range`).
    /// Every token still to come, ending with [`Tok::Eof`].
    pub(super) fn remaining_tokens(mut self) -> Vec<Token> {
        let mut out = Vec::new();
        loop {
            let token = self.next_token();
            let end = token.kind == Tok::Eof;
            out.push(token);
            if end {
                return out;
            }
        }
    }

    pub(super) fn next_token(&mut self) -> Token {
        while self.tokens.is_empty() && self.pos < self.end {
            match self.modes.last() {
                Some(Mode::Quoted) => self.quoted(),
                Some(Mode::Heredoc { .. }) => self.heredoc(),
                _ => self.expr(),
            }
        }
        self.tokens.pop_front().unwrap_or(Token {
            kind: Tok::Eof,
            span: self.end..self.end,
        })
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..self.end]
    }

    fn push(&mut self, kind: Tok, len: usize) {
        let end = (self.pos + len).min(self.end);
        self.tokens.push_back(Token {
            kind,
            span: self.pos..end,
        });
        self.pos = end;
    }

    fn expr(&mut self) {
        let rest = self.rest();
        let Some(c) = rest.chars().next() else {
            return;
        };
        match c {
            _ if self.is_invalid(self.pos) => self.push(Tok::BadUtf8, 1),
            ' ' | '\t' => self.pos += 1,
            '\n' => self.push(Tok::Newline, 1),
            '\r' if rest.starts_with("\r\n") => self.push(Tok::Newline, 2),
            '#' => self.line_comment(),
            '/' if rest.starts_with("//") => self.line_comment(),
            // HCL's scanner has no token for a `/*` that no `*/` after it in the file
            // closes: it reads the `/` as an operator and goes on with the `*`.
            '/' if rest.starts_with("/*") && self.text[self.pos + 2..].contains("*/") => {
                let len = rest[2..].find("*/").map_or(rest.len(), |i| i + 4);
                if self.block_comments {
                    self.push(Tok::BlockComment, len);
                } else {
                    self.pos += len;
                }
            }
            '"' => {
                self.push(Tok::OQuote, 1);
                self.modes.push(Mode::Quoted);
            }
            '<' if rest.starts_with("<<") && self.heredoc_open() => {}
            '{' => {
                self.push(Tok::OBrace, 1);
                if let Some(Mode::Expr { depth, .. }) = self.modes.last_mut() {
                    *depth += 1;
                }
            }
            '}' | '~' if self.closes_template(rest) => {
                self.push(Tok::TemplateSeqEnd, if c == '~' { 2 } else { 1 });
                self.modes.pop();
            }
            '}' => {
                self.push(Tok::CBrace, 1);
                if let Some(Mode::Expr { depth, .. }) = self.modes.last_mut() {
                    *depth = depth.saturating_sub(1);
                }
            }
            c if c.is_ascii_digit() => {
                let len = super::number_literal::token_len(rest.as_bytes());
                self.push(Tok::Number, len);
            }
            c if c.is_alphabetic() || c == '_' => {
                let len = rest
                    .char_indices()
                    .find(|&(_, c)| !(c.is_alphanumeric() || c == '_' || c == '-'))
                    .map_or(rest.len(), |(i, _)| i);
                self.push(Tok::Ident, len);
            }
            _ => {
                let (kind, len) = punctuation(rest).unwrap_or((Tok::Invalid, c.len_utf8()));
                self.push(kind, len);
            }
        }
    }

    /// Whether the `}` (or `~}`) at the start of `rest` closes a template sequence.
    fn closes_template(&self, rest: &str) -> bool {
        let at_close = rest.starts_with('}') || rest.starts_with("~}");
        matches!(
            self.modes.last(),
            Some(Mode::Expr {
                depth: 0,
                template: true
            })
        ) && at_close
    }

    fn line_comment(&mut self) {
        let len = self.rest().find('\n').map_or(self.rest().len(), |i| i + 1);
        self.push(Tok::LineComment, len);
    }

    /// `<<EOT` or `<<-EOT` followed by a newline opens a heredoc.
    fn heredoc_open(&mut self) -> bool {
        let Some(opener) = heredoc_opener(self.rest()) else {
            return false;
        };
        let marker = self.rest()[opener.marker.clone()].to_string();
        self.push(Tok::OHeredoc, opener.len);
        self.modes.push(Mode::Heredoc { marker });
        true
    }

    fn quoted(&mut self) {
        let rest = self.rest();
        if self.is_invalid(self.pos) {
            return self.push(Tok::BadUtf8, 1);
        }
        if let Some(len) = self.template_open(rest) {
            return self.push_template_open(rest, len);
        }
        if rest.starts_with('"') {
            self.push(Tok::CQuote, 1);
            self.modes.pop();
            return;
        }
        // One token for a run of line breaks, blank lines included (`NewlineCharsSeq`).
        let breaks = rest
            .bytes()
            .take_while(|b| matches!(b, b'\r' | b'\n'))
            .count();
        if breaks > 0 {
            return self.push(Tok::QuotedNewline, breaks);
        }
        let mut chars = rest.char_indices().peekable();
        let mut len = rest.len();
        while let Some((i, c)) = chars.next() {
            let here = &rest[i..];
            if c == '\\' {
                chars.next();
                continue;
            }
            if here.starts_with("$${") || here.starts_with("%%{") {
                chars.next();
                chars.next();
                continue;
            }
            if c == '"'
                || c == '\n'
                || c == '\r'
                || self.template_open(here).is_some()
                || self.is_invalid(self.pos + i)
            {
                len = i;
                break;
            }
        }
        self.push(Tok::QuotedLit, len.max(1));
    }

    fn heredoc(&mut self) {
        let rest = self.rest();
        let at_line_start = self.pos == 0 || self.text.as_bytes()[self.pos - 1] == b'\n';
        if at_line_start {
            // The closing marker's line holds nothing else, and ends: a marker at the end
            // of the file without a line break closes nothing.
            let line_len = rest.find('\n').map(|i| i + 1);
            if let (Some(Mode::Heredoc { marker }), Some(line_len)) = (self.modes.last(), line_len)
            {
                if rest[..line_len].trim() == marker {
                    let len = rest[..line_len].trim_end_matches(['\n', '\r']).len();
                    self.push(Tok::CHeredoc, len);
                    self.modes.pop();
                    return;
                }
            }
        }
        if self.is_invalid(self.pos) {
            return self.push(Tok::BadUtf8, 1);
        }
        if let Some(len) = self.template_open(rest) {
            return self.push_template_open(rest, len);
        }
        let mut len = rest.len();
        let mut chars = rest.char_indices();
        while let Some((i, c)) = chars.next() {
            let here = &rest[i..];
            if c == '\n' {
                len = i + 1;
                break;
            }
            // `$${` and `%%{` are literal text: the `${` of `$${` opens nothing.
            if here.starts_with("$${") || here.starts_with("%%{") {
                chars.next();
                chars.next();
                continue;
            }
            if i > 0 && (self.template_open(here).is_some() || self.is_invalid(self.pos + i)) {
                len = i;
                break;
            }
        }
        self.push(Tok::QuotedLit, len.max(1));
    }

    /// The length of a `${`/`%{` (with its `~`) at the start of `rest`, if one is there.
    fn template_open(&self, rest: &str) -> Option<usize> {
        if rest.starts_with("$${") || rest.starts_with("%%{") {
            return None;
        }
        if rest.starts_with("${") || rest.starts_with("%{") {
            return Some(if rest[2..].starts_with('~') { 3 } else { 2 });
        }
        None
    }

    fn push_template_open(&mut self, rest: &str, len: usize) {
        let kind = if rest.starts_with('$') {
            Tok::TemplateInterp
        } else {
            Tok::TemplateControl
        };
        self.push(kind, len);
        self.modes.push(Mode::Expr {
            depth: 0,
            template: true,
        });
    }
}

/// Every token of a native-syntax `text` in order, comments of both kinds included, ending
/// with [`Tok::Eof`]: the token stream HCL's writer works on.
pub fn all_tokens(text: &str) -> Vec<Token> {
    Lexer::new(text, 0..text.len())
        .with_block_comments()
        .remaining_tokens()
}

/// Where a heredoc's opening line puts its marker, and the line's length.
pub(super) struct HeredocOpener {
    /// The marker's bytes within the text the opener starts.
    pub marker: Range<usize>,
    /// The opener's length, its line break included.
    pub len: usize,
}

/// The heredoc opener at the start of `rest`, as HCL's scanner reads one: `<<`, an
/// optional `-`, an identifier and right after it a line break (`\n` or `\r\n`). Anything
/// else (`<<1A`, a blank before the line break) opens no heredoc.
pub(super) fn heredoc_opener(rest: &str) -> Option<HeredocOpener> {
    let after = rest.strip_prefix("<<")?;
    let start = 2 + usize::from(after.starts_with('-'));
    let marker = &rest[start..];
    if !marker
        .chars()
        .next()
        .is_some_and(hcl_primitives::ident::is_id_start)
    {
        return None;
    }
    let marker_len = marker
        .char_indices()
        .find(|&(_, c)| !hcl_primitives::ident::is_id_continue(c))
        .map_or(marker.len(), |(i, _)| i);
    let newline = &marker[marker_len..];
    let newline_len = if newline.starts_with('\n') {
        1
    } else if newline.starts_with("\r\n") {
        2
    } else {
        return None;
    };
    Some(HeredocOpener {
        marker: start..start + marker_len,
        len: start + marker_len + newline_len,
    })
}

/// The operator or punctuation token at the start of `rest`.
fn punctuation(rest: &str) -> Option<(Tok, usize)> {
    const TWO_OR_THREE: [(&str, Tok); 11] = [
        ("...", Tok::Ellipsis),
        ("==", Tok::EqualOp),
        ("!=", Tok::NotEqual),
        ("<=", Tok::Le),
        (">=", Tok::Ge),
        ("&&", Tok::And),
        ("||", Tok::Or),
        ("=>", Tok::FatArrow),
        ("::", Tok::DoubleColon),
        ("”", Tok::Invalid),
        ("“", Tok::Invalid),
    ];
    if let Some((s, kind)) = TWO_OR_THREE.iter().find(|(s, _)| rest.starts_with(s)) {
        return Some((*kind, s.len()));
    }
    let kind = match rest.as_bytes().first()? {
        b'[' => Tok::OBrack,
        b']' => Tok::CBrack,
        b'(' => Tok::OParen,
        b')' => Tok::CParen,
        b',' => Tok::Comma,
        b'.' => Tok::Dot,
        b'=' => Tok::Equal,
        b'<' => Tok::Lt,
        b'>' => Tok::Gt,
        b'+' => Tok::Plus,
        b'-' => Tok::Minus,
        b'*' => Tok::Star,
        b'/' => Tok::Slash,
        b'%' => Tok::Percent,
        b'!' => Tok::Bang,
        b'?' => Tok::Question,
        b':' => Tok::Colon,
        b'&' => Tok::BitwiseAnd,
        b'|' => Tok::BitwiseOr,
        b'^' => Tok::BitwiseXor,
        b'~' => Tok::BitwiseNot,
        b';' => Tok::Semicolon,
        b'\'' => Tok::Apostrophe,
        b'`' => Tok::Backtick,
        _ => return None,
    };
    Some((kind, 1))
}
