//! Where the cursor is, for completion and signature help: read from HCL's tokens of the
//! text before the cursor rather than from the syntax tree, because the text being typed
//! is rarely valid (`resource "aws_`, `var.`, an argument name without its `=`), and the
//! parser's recovery drops exactly the item under the cursor.
//!
//! The walk starts at the top-level item that holds the cursor and follows HCL's
//! grammar as far as it needs: a body holds arguments (`name =` up to the end of the
//! line, unless a bracket is open) and blocks (`kind label... {`); an argument's value
//! holds brackets, calls, quoted templates, heredocs and their `${ }` / `%{ }` sequences.

use std::ops::Range;

use crate::syntax::{all_tokens, File, Tok, Token};

/// A block the cursor is inside of: its type and the labels written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockFrame {
    /// The block type (`resource`, `lifecycle`).
    pub kind: String,
    /// Its labels, unquoted.
    pub labels: Vec<String>,
    /// The argument names and block types written in its body before the cursor.
    pub written: Vec<String>,
}

/// The function call the cursor is among the arguments of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// The function's name as written (`upper`, `provider::aws::arn_parse`).
    pub name: String,
    /// Where the name is.
    pub name_span: Range<usize>,
    /// The argument the cursor is in, from 0 (commas before it at the call's level).
    pub argument: usize,
}

/// The place in an argument's value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ValuePlace {
    /// The steps of the reference written before the name being typed (`["var"]` for
    /// `var.na`, `["aws_instance", "web"]` for `aws_instance.web[0].`); empty at the start
    /// of a name.
    pub path: Vec<String>,
    /// Whether the name being typed is the value's first token (keywords and constants
    /// that make the whole value are offered there).
    pub whole: bool,
    /// Whether the cursor is in a `${ }` or `%{ }` sequence of a template.
    pub in_template: bool,
    /// The innermost call the cursor is an argument of.
    pub call: Option<Call>,
}

/// What may be written at the cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Position {
    /// The start of an argument or nested block in the body of the innermost block
    /// (the file's top level when there is none).
    Body,
    /// Label `index` of a block of type `kind` whose header is being written.
    Label {
        /// The block's type.
        kind: String,
        /// Which label, from 0.
        index: usize,
        /// The labels written before it.
        before: Vec<String>,
        /// Whether the label's opening quote is written.
        quoted: bool,
    },
    /// The value of argument `attribute`.
    Value {
        /// The argument's name.
        attribute: String,
        /// Where in the value.
        place: ValuePlace,
    },
    /// Nowhere anything is offered: a comment, a string's literal text, a header's end.
    Nothing,
}

/// The cursor's context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    /// The blocks around the cursor, outermost first.
    pub blocks: Vec<BlockFrame>,
    /// What may be written there.
    pub position: Position,
    /// The text a completion replaces: the name (or quoted label text) around the cursor.
    pub prefix: Range<usize>,
}

impl Context {
    /// The text typed before the cursor that suggestions must start with.
    pub fn typed<'t>(&self, text: &'t str, cursor: usize) -> &'t str {
        text.get(self.prefix.start..cursor.max(self.prefix.start))
            .unwrap_or("")
    }
}

/// What is open at a point of the walk.
#[derive(Debug, Clone)]
enum Frame {
    Block(BlockFrame),
    /// An argument's value, read until the line ends with no bracket open.
    Value,
    /// `(`, with the call's name when one precedes it; `[`; `{` of an object or `for`.
    Paren(Option<(String, Range<usize>)>, usize),
    Bracket,
    Brace,
    /// A quoted string or heredoc; `label` when it is a block label being written.
    Template {
        label: bool,
    },
    /// `${` or `%{` in a template.
    Sequence,
}

/// The statement being read in a body.
#[derive(Debug, Clone)]
enum Statement {
    /// Nothing written yet on this line.
    Start,
    /// A name and maybe labels: a block header, or an argument before its `=`.
    Header { kind: String, labels: Vec<String> },
    /// An argument's value.
    Value { attribute: String, start: usize },
    /// Something else until the end of the line (a header's `{` with text after it).
    Skip,
}

/// The context at byte `cursor` of native-syntax `text`, whose parse is `file` (read
/// only to start at the top-level item that holds the cursor).
pub fn context_at(text: &str, file: &File, cursor: usize) -> Context {
    let cursor = floor_char_boundary(text, cursor.min(text.len()));
    let start = item_start(text, file, cursor);
    let tokens: Vec<Token> = all_tokens(&text[start..cursor])
        .into_iter()
        .map(|t| Token {
            kind: t.kind,
            span: t.span.start + start..t.span.end + start,
        })
        .filter(|t| t.kind != Tok::BlockComment)
        .collect();
    let mut walk = Walk::default();
    for (i, token) in tokens.iter().enumerate() {
        if token.kind == Tok::Eof {
            break;
        }
        walk.step(token, &tokens[..i], text);
    }
    walk.finish(&tokens, text, cursor)
}

/// Where to start reading: the start of the last top-level item of the parse that begins
/// at a line start before the cursor, else the file's start.
fn item_start(text: &str, file: &File, cursor: usize) -> usize {
    let items = file.body.blocks.iter().filter(|b| !b.stale).map(|b| b.span);
    let items = items.chain(file.body.attributes.iter().map(|a| a.span));
    items
        .map(|s| s.start as usize)
        .filter(|&s| s <= cursor && (s == 0 || text.as_bytes().get(s - 1) == Some(&b'\n')))
        .max()
        .unwrap_or(0)
}

/// The char boundary at or before `at`.
pub(super) fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[derive(Default)]
struct Walk {
    frames: Vec<Frame>,
    statement: Option<Statement>,
    /// Where the text of the quoted label being read starts.
    label_start: usize,
}

impl Walk {
    fn statement(&self) -> Statement {
        self.statement.clone().unwrap_or(Statement::Start)
    }

    /// Whether the innermost open thing is a body (a block's, or the file's).
    fn in_body(&self) -> bool {
        matches!(self.frames.last(), None | Some(Frame::Block(_)))
    }

    fn step(&mut self, token: &Token, before: &[Token], text: &str) {
        if let Some(Frame::Template { label }) = self.frames.last() {
            let label = *label;
            match token.kind {
                Tok::CQuote | Tok::CHeredoc => {
                    self.frames.pop();
                    if label {
                        let written = text[self.label_start..token.span.start].to_string();
                        if let Some(Statement::Header { labels, .. }) = &mut self.statement {
                            labels.push(written);
                        }
                    }
                }
                Tok::TemplateInterp | Tok::TemplateControl => self.frames.push(Frame::Sequence),
                _ => {}
            }
            return;
        }
        if self.in_body() {
            self.body_step(token, text);
            return;
        }
        self.expression_step(token, before, text);
    }

    /// Notes a name written in the innermost block's body.
    fn note_written(&mut self, name: &str) {
        if let Some(Frame::Block(block)) = self.frames.last_mut() {
            block.written.push(name.to_string());
        }
    }

    fn body_step(&mut self, token: &Token, text: &str) {
        let word = text[token.span.clone()].to_string();
        match (token.kind, self.statement()) {
            (Tok::Newline | Tok::LineComment, _) => self.statement = Some(Statement::Start),
            (Tok::Ident, Statement::Start) => {
                self.statement = Some(Statement::Header {
                    kind: word,
                    labels: Vec::new(),
                })
            }
            (Tok::Ident, Statement::Header { kind, mut labels }) => {
                labels.push(word);
                self.statement = Some(Statement::Header { kind, labels });
            }
            (Tok::OQuote, Statement::Header { .. }) => {
                self.label_start = token.span.end;
                self.frames.push(Frame::Template { label: true });
            }
            (Tok::Equal, Statement::Header { kind, labels }) if labels.is_empty() => {
                self.note_written(&kind);
                self.statement = Some(Statement::Value {
                    attribute: kind,
                    start: token.span.end,
                });
                self.frames.push(Frame::Value);
            }
            (Tok::OBrace, Statement::Header { kind, labels }) => {
                self.note_written(&kind);
                self.frames.push(Frame::Block(BlockFrame {
                    kind,
                    labels,
                    written: Vec::new(),
                }));
                self.statement = Some(Statement::Start);
            }
            (Tok::CBrace, _) => {
                self.frames.pop();
                self.statement = Some(Statement::Skip);
            }
            _ => self.statement = Some(Statement::Skip),
        }
    }

    fn expression_step(&mut self, token: &Token, before: &[Token], text: &str) {
        match token.kind {
            // The end of the line ends the value unless a bracket is open.
            Tok::Newline | Tok::LineComment => {
                if matches!(self.frames.last(), Some(Frame::Value)) {
                    self.frames.pop();
                    self.statement = Some(Statement::Start);
                }
            }
            Tok::OParen => {
                let callee = callee(before, text);
                self.frames.push(Frame::Paren(callee, 0));
            }
            Tok::OBrack => self.frames.push(Frame::Bracket),
            Tok::OBrace => self.frames.push(Frame::Brace),
            Tok::OQuote | Tok::OHeredoc => self.frames.push(Frame::Template { label: false }),
            Tok::CParen | Tok::CBrack if !matches!(self.frames.last(), Some(Frame::Value)) => {
                self.frames.pop();
            }
            Tok::CBrace | Tok::TemplateSeqEnd => match self.frames.last() {
                Some(Frame::Value) => {
                    // `}` closing the block the value is in, on the value's line.
                    self.frames.pop();
                    self.frames.pop();
                    self.statement = Some(Statement::Skip);
                }
                Some(_) => {
                    self.frames.pop();
                }
                None => {}
            },
            Tok::Comma => {
                if let Some(Frame::Paren(Some(_), commas)) = self.frames.last_mut() {
                    *commas += 1;
                }
            }
            _ => {}
        }
    }

    fn finish(self, tokens: &[Token], text: &str, cursor: usize) -> Context {
        let blocks: Vec<BlockFrame> = self
            .frames
            .iter()
            .filter_map(|f| match f {
                Frame::Block(b) => Some(b.clone()),
                _ => None,
            })
            .collect();
        let last = tokens.iter().rev().find(|t| t.kind != Tok::Eof);
        let at_name = last.filter(|t| t.kind == Tok::Ident && t.span.end == cursor);
        let name_end = cursor + identifier_len(&text[cursor..]);
        let prefix = match at_name {
            Some(t) => t.span.start..name_end,
            None => cursor..name_end,
        };
        let context = |position| Context {
            blocks: blocks.clone(),
            position,
            prefix: prefix.clone(),
        };
        if last.is_some_and(|t| t.kind == Tok::LineComment && t.span.end >= cursor) {
            return context(Position::Nothing);
        }
        match self.frames.last() {
            Some(Frame::Template { label: true }) => {
                let Some(Statement::Header { kind, labels }) = self.statement else {
                    return context(Position::Nothing);
                };
                let start = self.label_start;
                let end = cursor + label_len(&text[cursor..]);
                return Context {
                    blocks,
                    position: Position::Label {
                        kind,
                        index: labels.len(),
                        before: labels,
                        quoted: true,
                    },
                    prefix: start..end,
                };
            }
            Some(Frame::Template { label: false }) => return context(Position::Nothing),
            _ => {}
        }
        if self.in_body() {
            return match self.statement() {
                Statement::Start => context(Position::Body),
                Statement::Header { labels, .. } if labels.is_empty() && at_name.is_some() => {
                    context(Position::Body)
                }
                Statement::Header { kind, mut labels } => {
                    // An unquoted label being typed is the last one written.
                    if at_name.is_some() {
                        labels.pop();
                    }
                    context(Position::Label {
                        kind,
                        index: labels.len(),
                        before: labels,
                        quoted: false,
                    })
                }
                _ => context(Position::Nothing),
            };
        }
        let Statement::Value { attribute, start } = self.statement() else {
            return context(Position::Nothing);
        };
        let name_start = prefix.start;
        let (path, path_start) = reference_before(tokens, text, name_start);
        let first = tokens
            .iter()
            .find(|t| t.span.start >= start && !matches!(t.kind, Tok::Newline))
            .map_or(cursor, |t| t.span.start);
        let place = ValuePlace {
            whole: path.is_empty() && first >= path_start.min(name_start),
            path,
            in_template: self.frames.iter().any(|f| matches!(f, Frame::Sequence)),
            call: self.frames.iter().rev().find_map(|f| match f {
                Frame::Paren(Some((name, span)), commas) => Some(Call {
                    name: name.clone(),
                    name_span: span.clone(),
                    argument: *commas,
                }),
                _ => None,
            }),
        };
        context(Position::Value { attribute, place })
    }
}

/// The name of the function called by the `(` after `before`: an identifier, or
/// `ns::ns::name`.
fn callee(before: &[Token], text: &str) -> Option<(String, Range<usize>)> {
    let mut i = before.len();
    let last = before.get(i.checked_sub(1)?)?;
    if last.kind != Tok::Ident {
        return None;
    }
    let end = last.span.end;
    let mut start = last.span.start;
    i -= 1;
    while i >= 2 && before[i - 1].kind == Tok::DoubleColon && before[i - 2].kind == Tok::Ident {
        start = before[i - 2].span.start;
        i -= 2;
    }
    // `a.b(` is no call HCL knows; a name after a dot is an attribute.
    if i > 0 && before[i - 1].kind == Tok::Dot {
        return None;
    }
    Some((text[start..end].to_string(), start..end))
}

/// The traversal steps written before the name starting at `name_start` (`var.` before
/// `na`), with where the traversal starts; index steps (`[0]`, `["k"]`) are skipped.
fn reference_before(tokens: &[Token], text: &str, name_start: usize) -> (Vec<String>, usize) {
    let mut i = tokens
        .iter()
        .position(|t| t.span.start >= name_start)
        .unwrap_or(tokens.len());
    let mut steps = Vec::new();
    let mut start = name_start;
    // Each step is read backwards from the `.` before it.
    while i.checked_sub(1).and_then(|j| tokens.get(j)).map(|t| t.kind) == Some(Tok::Dot) {
        i -= 1;
        // Skip index steps before the dot.
        while i > 0 && tokens[i - 1].kind == Tok::CBrack {
            let mut depth = 0usize;
            while i > 0 {
                i -= 1;
                match tokens[i].kind {
                    Tok::CBrack => depth += 1,
                    Tok::OBrack => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
        match i.checked_sub(1).and_then(|j| tokens.get(j)) {
            Some(t) if t.kind == Tok::Ident => {
                steps.push(text[t.span.clone()].to_string());
                start = t.span.start;
                i -= 1;
            }
            Some(t) if t.kind == Tok::Number => {
                // `x.0.` is a legacy index step.
                i -= 1;
                start = t.span.start;
            }
            _ => return (Vec::new(), name_start),
        }
    }
    steps.reverse();
    (steps, start)
}

/// The length of the identifier characters at the start of `rest` (the part of a name
/// after the cursor, which a completion replaces too).
fn identifier_len(rest: &str) -> usize {
    rest.char_indices()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '-'))
        .map_or(rest.len(), |(i, _)| i)
}

/// The length of a quoted label's text after the cursor, up to its closing quote.
fn label_len(rest: &str) -> usize {
    rest.char_indices()
        .find(|(_, c)| matches!(c, '"' | '\n' | '\r'))
        .map_or(rest.len(), |(i, _)| i)
}

#[cfg(test)]
#[path = "context_tests.rs"]
mod tests;
