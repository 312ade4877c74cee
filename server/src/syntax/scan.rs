//! A lexical scanner for native HCL that knows only what matters for error recovery:
//! strings with `${}`/`%{}` templates, heredocs, comments and bracket nesting.
//!
//! It finds the top-level items of a body (so a broken file can be parsed piece by piece)
//! and the newlines HCL ignores (inside `(`, `[` and `for` expressions), which hcl-edit
//! does not always accept.

use std::ops::Range;

use super::number_literal;

mod newlines;
pub(super) use newlines::blank_ignored_newlines;

/// What an open frame is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// `{` of a block body or object.
    Brace,
    /// `{` that starts a `for` expression: newlines inside are not significant.
    ForBrace,
    /// `[`
    Bracket,
    /// `(`
    Paren,
    /// `${` or `%{` inside a template.
    Interp,
    /// Inside a quoted string.
    Str,
    /// Inside a heredoc body; the marker is stored in `Scanner::markers`.
    Heredoc,
}

impl Frame {
    fn closer(self) -> &'static str {
        match self {
            Frame::Brace | Frame::ForBrace | Frame::Interp => "}",
            Frame::Bracket => "]",
            Frame::Paren => ")",
            Frame::Str => "\"",
            Frame::Heredoc => "",
        }
    }

    fn ignores_newlines(self) -> bool {
        matches!(self, Frame::ForBrace | Frame::Bracket | Frame::Paren)
    }
}

/// A top-level item (attribute or block) found by [`items`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Item {
    /// From the item's first character to the end of its last line (line break excluded).
    pub span: Range<usize>,
    /// Offset of the outermost bracket left open at the end of the item, if any.
    pub unclosed_at: Option<usize>,
    /// Text that would close every frame left open, innermost first.
    pub closers: String,
}

struct Scanner<'a> {
    text: &'a str,
    pos: usize,
    end: usize,
    stack: Vec<(Frame, usize)>,
    markers: Vec<&'a str>,
    /// Where a block comment that never ends opens, once the scanner has seen one.
    open_comment: Option<usize>,
    /// Where the scanner first met what HCL refuses and hcl-edit accepts: a line break
    /// inside a quoted string (HCL's scanner reads on in the string, and its parser
    /// refuses the break), a carriage return without a line feed outside strings, or a
    /// number HCL's parser refuses.
    refused: Option<usize>,
}

/// One step of the scanner.
enum Step {
    /// A line break at this offset, outside strings and heredocs.
    Newline(usize),
    /// A line comment spanning this range (line break excluded).
    LineComment(Range<usize>),
    /// Anything else; `true` when it was a significant (non-blank) character of code.
    Other(bool),
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str, range: Range<usize>) -> Self {
        Self {
            text,
            pos: range.start,
            end: range.end.min(text.len()),
            stack: Vec::new(),
            markers: Vec::new(),
            open_comment: None,
            refused: None,
        }
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn at(&self, offset: usize) -> u8 {
        if offset < self.end {
            self.bytes()[offset]
        } else {
            0
        }
    }

    fn starts_with(&self, s: &str) -> bool {
        self.bytes()[self.pos..self.end].starts_with(s.as_bytes())
    }

    fn top(&self) -> Option<Frame> {
        self.stack.last().map(|(f, _)| *f)
    }

    fn depth(&self) -> usize {
        self.stack.len()
    }

    fn line_end(&self, from: usize) -> usize {
        self.bytes()[from..self.end]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .map_or(self.end, |p| from + p)
    }

    fn pop(&mut self, frames: &[Frame]) {
        if self.top().is_some_and(|f| frames.contains(&f)) {
            self.stack.pop();
        }
    }

    fn step(&mut self) -> Option<Step> {
        if self.pos >= self.end {
            return None;
        }
        match self.top() {
            Some(Frame::Str) => Some(self.step_string()),
            Some(Frame::Heredoc) => Some(self.step_heredoc()),
            _ => Some(self.step_code()),
        }
    }

    fn step_string(&mut self) -> Step {
        let b = self.at(self.pos);
        match b {
            // The escaped character whole, and never past the end: a file may end in `\`.
            b'\\' => self.pos = (self.pos + 1 + utf8_len(self.at(self.pos + 1))).min(self.end),
            b'"' => {
                self.stack.pop();
                self.pos += 1;
            }
            b'\n' => {
                // HCL's scanner reads on in the string (its parser refuses the line break).
                self.refused.get_or_insert(self.pos);
                self.pos += 1;
            }
            _ => self.step_template_char(),
        }
        Step::Other(false)
    }

    fn step_heredoc(&mut self) -> Step {
        let line_start = self.pos == 0 || matches!(self.at(self.pos - 1), b'\n' | b'\r');
        if line_start {
            let eol = self.line_end(self.pos);
            let line = self.text[self.pos..eol].trim();
            if self.markers.last().is_some_and(|m| *m == line) {
                // HCL closes a heredoc only on a line that ends: its marker at the very end
                // of the file closes nothing (hcl-edit accepts it).
                let rest = self.text.get(eol..).unwrap_or_default();
                if !(rest.starts_with('\n') || rest.starts_with("\r\n")) {
                    self.refused.get_or_insert(self.pos);
                }
                self.stack.pop();
                self.markers.pop();
                self.pos = eol;
                return Step::Other(true);
            }
        }
        self.step_template_char();
        Step::Other(false)
    }

    /// One character of template text: `${`/`%{` open an interpolation, `$${`/`%%{` are escapes.
    fn step_template_char(&mut self) {
        if self.starts_with("$${") || self.starts_with("%%{") {
            self.pos += 3;
        } else if self.starts_with("${") || self.starts_with("%{") {
            self.stack.push((Frame::Interp, self.pos));
            self.pos += 2;
        } else {
            self.pos += utf8_len(self.at(self.pos));
        }
    }

    fn step_code(&mut self) -> Step {
        let start = self.pos;
        let b = self.at(start);
        match b {
            b'\n' => {
                self.pos += 1;
                return Step::Newline(start);
            }
            b'\r' if self.at(start + 1) == b'\n' => {
                self.pos += 2;
                return Step::Newline(start);
            }
            b'\r' => {
                // HCL's scanner refuses a carriage return alone (`Invalid character`): it
                // ends no line.
                self.refused.get_or_insert(start);
                self.pos += 1;
            }
            b' ' | b'\t' => {
                self.pos += 1;
                return Step::Other(false);
            }
            b'#' => return self.line_comment(),
            b'/' if self.at(start + 1) == b'/' => return self.line_comment(),
            b'/' if self.at(start + 1) == b'*' => {
                let close = self.text[start + 2..self.end].find("*/");
                if close.is_none() {
                    // Runs past the range, or (without a `*/` anywhere after it) is no
                    // comment at all to HCL's scanner but a `/` and a `*`: either way what
                    // follows reads differently once a `*/` is typed or deleted.
                    self.open_comment.get_or_insert(start);
                    if !self.text[start + 2..].contains("*/") {
                        self.pos += 1;
                        return Step::Other(true);
                    }
                }
                self.pos = close.map_or(self.end, |c| start + 2 + c + 2);
                return Step::Other(false);
            }
            b'"' => {
                self.stack.push((Frame::Str, start));
                self.pos += 1;
            }
            b'<' if self.starts_with("<<") => self.heredoc_start(),
            b'{' => {
                let frame = if self.for_follows(start + 1) {
                    Frame::ForBrace
                } else {
                    Frame::Brace
                };
                self.stack.push((frame, start));
                self.pos += 1;
            }
            b'[' => {
                self.stack.push((Frame::Bracket, start));
                self.pos += 1;
            }
            b'(' => {
                self.stack.push((Frame::Paren, start));
                self.pos += 1;
            }
            b'}' => {
                self.pop(&[Frame::Brace, Frame::ForBrace, Frame::Interp]);
                self.pos += 1;
            }
            b']' => {
                self.pop(&[Frame::Bracket]);
                self.pos += 1;
            }
            b')' => {
                self.pop(&[Frame::Paren]);
                self.pos += 1;
            }
            b if b.is_ascii_digit() => {
                let len = number_literal::token_len(&self.bytes()[start..self.end]);
                if !number_literal::is_valid(&self.text[start..start + len]) {
                    // hcl-edit takes every number Rust's float parser reads (one too large
                    // for a float as the largest), HCL's parser refuses this one.
                    self.refused.get_or_insert(start);
                }
                self.pos += len;
            }
            b if b == b'_' || b.is_ascii_alphabetic() || !b.is_ascii() => {
                // A name as a whole, so that digits in it (`a1e9999999999`) are no number.
                self.pos += self.bytes()[start..self.end]
                    .iter()
                    .take_while(|&&c| {
                        c == b'_' || c == b'-' || c.is_ascii_alphanumeric() || !c.is_ascii()
                    })
                    .count();
            }
            _ => self.pos += utf8_len(b),
        }
        Step::Other(true)
    }

    fn line_comment(&mut self) -> Step {
        let start = self.pos;
        self.pos = self.line_end(start);
        Step::LineComment(start..self.pos)
    }

    fn heredoc_start(&mut self) {
        match super::lexer::heredoc_opener(&self.text[self.pos..self.end]) {
            Some(opener) => {
                let start = self.pos;
                self.markers
                    .push(&self.text[start + opener.marker.start..start + opener.marker.end]);
                self.stack.push((Frame::Heredoc, start));
                self.pos = start + opener.len;
            }
            // Only the first `<` is a token of its own: in `<<<y` the heredoc `<<y` starts
            // at the second, as HCL's scanner reads it.
            None => self.pos += 1,
        }
    }

    /// Whether the next word after `from` (blanks and line breaks skipped) is `for`.
    fn for_follows(&self, from: usize) -> bool {
        let rest = self.text[from..self.end].trim_start();
        rest.starts_with("for")
            && !rest[3..]
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    }

    /// The offset of the `[` on top of the stack when the brackets' context includes
    /// newlines (a body or an object; not brackets, parentheses, a `for` expression or an
    /// interpolation, where HCL skips them).
    fn bracket_reading_newlines(&self) -> Option<usize> {
        let (Frame::Bracket, open) = *self.stack.last()? else {
            return None;
        };
        let outer = self.stack.len().checked_sub(2).map(|i| self.stack[i].0);
        matches!(outer, None | Some(Frame::Brace)).then_some(open)
    }

    fn closers(&self) -> String {
        self.stack.iter().rev().map(|(f, _)| f.closer()).collect()
    }
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// The top-level items of the body in `range` of `text`.
///
/// An item ends at a line break outside every bracket, string and heredoc. When the body
/// does not balance (a block is missing its closing brace), a line that starts at column 0
/// and looks like a block header (`resource "a" "b" {`) starts a new item, so that one
/// unclosed block does not swallow the rest of the file.
pub(super) fn items(text: &str, range: Range<usize>) -> Vec<Item> {
    let balanced = split(text, range.clone(), false);
    if balanced.iter().all(|i| i.unclosed_at.is_none()) {
        return balanced;
    }
    split(text, range, true)
}

fn split(text: &str, range: Range<usize>, at_headers: bool) -> Vec<Item> {
    let mut sc = Scanner::new(text, range);
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut last_code_end = 0usize;
    let finish = |sc: &Scanner, start: usize, end: usize, out: &mut Vec<Item>| {
        let end = trim_end(text, start, end);
        out.push(Item {
            span: start..end,
            unclosed_at: sc.stack.first().map(|(_, at)| *at),
            closers: sc.closers(),
        });
    };
    loop {
        let before = sc.pos;
        if at_headers && start.is_some() && sc.depth() > 0 && is_line_start(text, before) {
            let in_code = !matches!(sc.top(), Some(Frame::Str | Frame::Heredoc));
            if in_code && looks_like_block_header(&text[before..sc.end]) {
                if let Some(s) = start.take() {
                    finish(&sc, s, last_code_end.max(s), &mut out);
                }
                sc.stack.clear();
                sc.markers.clear();
            }
        }
        let Some(step) = sc.step() else { break };
        match step {
            Step::Newline(at) if sc.depth() == 0 => {
                if let Some(s) = start.take() {
                    finish(&sc, s, at, &mut out);
                }
            }
            Step::Other(true) => {
                start.get_or_insert(before);
                last_code_end = sc.pos;
            }
            Step::LineComment(_) | Step::Newline(_) | Step::Other(false) => {
                if sc.depth() > 0 {
                    last_code_end = sc.pos;
                }
            }
        }
    }
    if let Some(s) = start {
        finish(&sc, s, sc.end, &mut out);
    }
    out
}

/// Where an item in `start..end` ends without its trailing blanks and line breaks (a
/// carriage return alone is no line break to HCL, but a character it refuses, and stays).
fn trim_end(text: &str, start: usize, mut end: usize) -> usize {
    let bytes = text.as_bytes();
    while end > start {
        let trailing = match bytes[end - 1] {
            b' ' | b'\t' | b'\n' => true,
            b'\r' => bytes.get(end) == Some(&b'\n'),
            _ => false,
        };
        if !trailing {
            break;
        }
        end -= 1;
    }
    end
}

fn is_line_start(text: &str, offset: usize) -> bool {
    offset == 0 || matches!(text.as_bytes()[offset - 1], b'\n' | b'\r')
}

/// `ident ("label" | ident)* {` at the very start of `line`.
fn looks_like_block_header(line: &str) -> bool {
    let line = line.lines().next().unwrap_or("");
    let mut rest = line;
    let ident_len = |s: &str| {
        s.bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-')
            .count()
    };
    let first = ident_len(rest);
    if first == 0 || !rest.as_bytes()[0].is_ascii_alphabetic() {
        return false;
    }
    rest = rest[first..].trim_start();
    loop {
        if rest.starts_with('{') {
            return true;
        }
        if let Some(quoted) = rest.strip_prefix('"') {
            let Some(close) = quoted.find('"') else {
                return false;
            };
            rest = quoted[close + 1..].trim_start();
        } else {
            let n = ident_len(rest);
            if n == 0 {
                return false;
            }
            rest = rest[n..].trim_start();
        }
    }
}

/// The byte ranges of the heredoc bodies in `text` (native HCL, starting outside any
/// string): from the first body line to the start of the closing marker's line. Their
/// text is the value character for character, so whoever re-indents source must copy
/// them untouched. A heredoc left open has no range.
pub fn heredoc_bodies(text: &str) -> Vec<Range<usize>> {
    let mut s = Scanner::new(text, 0..text.len());
    let mut open = Vec::new();
    let mut bodies = Vec::new();
    loop {
        let (before, depth) = (s.pos, s.depth());
        let in_heredoc = s.top() == Some(Frame::Heredoc);
        if s.step().is_none() {
            break;
        }
        if s.depth() > depth && s.top() == Some(Frame::Heredoc) {
            open.push(s.pos);
        } else if in_heredoc && s.depth() < depth {
            if let Some(start) = open.pop() {
                bodies.push(start..before);
            }
        }
    }
    bodies
}

/// Whether `range` of `text` closes everything it opens: no bracket, string, heredoc or
/// block comment is still open at its end, so nothing in it reaches past it.
pub(super) fn is_balanced(text: &str, range: Range<usize>) -> bool {
    let mut sc = Scanner::new(text, range);
    while sc.step().is_some() {}
    sc.stack.is_empty() && sc.open_comment.is_none()
}

/// The offset of the `}` that closes the block body opening at `open`, before `end`:
/// HCL's body ends there, and what follows it on its line is no part of the block
/// (`Missing newline after block definition`), even where more closing brackets follow.
pub(super) fn body_close(text: &str, open: usize, end: usize) -> Option<usize> {
    let mut sc = Scanner::new(text, open..end);
    sc.step()?;
    while sc.step().is_some() {
        if sc.depth() == 0 {
            return Some(sc.pos - 1).filter(|&at| text.as_bytes()[at] == b'}');
        }
    }
    None
}

/// Whether `range` of `text` holds what hcl-edit accepts and HCL's scanner refuses: a
/// quoted string across a line break (`Invalid multi-line string`), a carriage return
/// alone (`Invalid character`), a heredoc's closing marker on the file's last line without
/// a line break (`Unterminated template string`), a number whose value HCL's parser
/// refuses (`Invalid number literal`). A parse hcl-edit accepts is HCL's only without them.
pub(super) fn hcl_refuses(text: &str, range: Range<usize>) -> bool {
    let mut sc = Scanner::new(text, range);
    while sc.refused.is_none() && sc.step().is_some() {}
    sc.refused.is_some()
}

/// The offset of the `{` that opens the body of the block item `range`, if any.
pub(super) fn body_open(text: &str, range: Range<usize>) -> Option<usize> {
    let mut sc = Scanner::new(text, range);
    loop {
        let before = sc.pos;
        let depth = sc.depth();
        sc.step()?;
        if depth != 0 {
            continue;
        }
        if text.as_bytes()[before] == b'=' {
            return None;
        }
        match sc.top() {
            Some(Frame::Brace | Frame::ForBrace) => return Some(before),
            None | Some(Frame::Str) => {}
            Some(_) => return None,
        }
    }
}

#[cfg(test)]
#[path = "scan_tests.rs"]
mod tests;
