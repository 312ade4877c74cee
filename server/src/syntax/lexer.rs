//! HCL's tokens, as its scanner produces them, for reporting syntax errors in HCL's words.
//!
//! hcl-edit parses well-formed files; when it rejects one, its message and position are not
//! what Terraform prints. This scanner reproduces the token stream of HCL's native syntax
//! (strings and heredocs with their template sequences, comments, the characters HCL
//! refuses) so that [`super::diagnose`] can follow HCL's parser to the same error, and
//! [`token_errors`] reports what HCL's scanner itself refuses (`Invalid character`,
//! `Unsupported operator`, `Invalid multi-line string`).

use std::ops::Range;

use super::{Span, SyntaxDiagnostic, SyntaxSeverity};

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
                let len = number_len(rest);
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
        for (i, c) in rest.char_indices() {
            let here = &rest[i..];
            if c == '\n' {
                len = i + 1;
                break;
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
    let mut lexer = Lexer::new(text, 0..text.len()).with_block_comments();
    let mut out = Vec::new();
    loop {
        let token = lexer.next_token();
        let end = token.kind == Tok::Eof;
        out.push(token);
        if end {
            return out;
        }
    }
}

/// The length of the number literal at the start of `rest`.
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

fn number_len(rest: &str) -> usize {
    let bytes = rest.as_bytes();
    let digits = |from: usize| {
        bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut len = digits(0);
    if bytes.get(len) == Some(&b'.') && bytes.get(len + 1).is_some_and(u8::is_ascii_digit) {
        len += 1 + digits(len + 1);
    }
    if matches!(bytes.get(len), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(bytes.get(len + 1), Some(b'+' | b'-')));
        let exponent = digits(len + 1 + sign);
        if exponent > 0 {
            len += 1 + sign + exponent;
        }
    }
    len
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

/// What HCL's scanner refuses among `tokens`, in HCL's words and with its limits on
/// repeating itself (one `;`, four bitwise operators, every other quote character).
pub(super) fn token_errors(text: &str, tokens: &[Token]) -> Vec<SyntaxDiagnostic> {
    let mut out = Vec::new();
    let (mut bitwise, mut backticks, mut apostrophes, mut semicolons) = (0, 0, 0, 0);
    for token in tokens {
        let detail: Option<(&str, String)> = match token.kind {
            Tok::BitwiseAnd | Tok::BitwiseOr | Tok::BitwiseXor | Tok::BitwiseNot if bitwise < 4 => {
                bitwise += 1;
                let suggestion = match token.kind {
                    Tok::BitwiseAnd => " Did you mean boolean AND (\"&&\")?",
                    Tok::BitwiseOr => " Did you mean boolean OR (\"||\")?",
                    Tok::BitwiseNot => " Did you mean boolean NOT (\"!\")?",
                    _ => "",
                };
                Some((
                    "Unsupported operator",
                    format!("Bitwise operators are not supported.{suggestion}"),
                ))
            }
            Tok::Backtick => {
                let report = backticks % 2 == 0;
                if backticks <= 2 {
                    backticks += 1;
                }
                report.then(|| {
                    (
                        "Invalid character",
                        "The \"`\" character is not valid. To create a multi-line string, use \
                         the \"heredoc\" syntax, like \"<<EOT\"."
                            .into(),
                    )
                })
            }
            Tok::Apostrophe => {
                let report = apostrophes % 2 == 0;
                if apostrophes <= 2 {
                    apostrophes += 1;
                }
                report.then(|| {
                    (
                        "Invalid character",
                        "Single quotes are not valid. Use double quotes (\") to enclose strings."
                            .into(),
                    )
                })
            }
            Tok::Semicolon if semicolons < 1 => {
                semicolons += 1;
                Some((
                    "Invalid character",
                    "The \";\" character is not valid. Use newlines to separate arguments and \
                     blocks, and commas to separate items in collection values."
                        .into(),
                ))
            }
            Tok::QuotedNewline => Some((
                "Invalid multi-line string",
                "Quoted strings may not be split over multiple lines. To produce a multi-line \
                 string, either use the \\n escape to represent a newline character or use the \
                 \"heredoc\" multi-line template syntax."
                    .into(),
            )),
            Tok::Invalid => Some((
                "Invalid character",
                invalid_character(&text[token.span.clone()]),
            )),
            Tok::BadUtf8 => Some((
                INVALID_ENCODING,
                "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected \
                 in your editor."
                    .into(),
            )),
            _ => None,
        };
        if let Some((summary, detail)) = detail {
            out.push(SyntaxDiagnostic {
                severity: SyntaxSeverity::Error,
                summary: summary.into(),
                detail,
                span: Span::new(token.span.start, token.span.end),
                cited: None,
            });
        }
    }
    out
}

/// HCL's summary for a byte that is not UTF-8, which it reports once per file.
pub(super) const INVALID_ENCODING: &str = "Invalid character encoding";

fn invalid_character(chars: &str) -> String {
    if chars == "“" || chars == "”" {
        "\"Curly quotes\" are not valid here. These can sometimes be inadvertently introduced \
         when sharing code via documents or discussion forums. It might help to replace the \
         character with a \"straight quote\"."
            .into()
    } else {
        "This character is not used within the language.".into()
    }
}
