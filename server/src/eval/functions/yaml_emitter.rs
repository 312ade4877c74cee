//! `yamlencode`'s text: the events cty-yaml gives go-yaml's emitter (block sequences and
//! mappings, empty ones in flow style, strings double-quoted or, with a line feed,
//! literal, other scalars plain), written as that emitter writes them: its indentation,
//! simple and `?` keys, style fallbacks, escapes, folding of double-quoted strings past
//! 80 columns, block scalar hints and the `...` after a plain root scalar. Its quirks are
//! kept: a string that starts with a byte order mark is escaped whole, and the `+` chomping
//! hint clears the open end that would print `...` (recorded with `terraform console`,
//! `fixtures/functions/yaml-results.json`).

use std::collections::BTreeMap;

use super::MAX_STRING_BYTES;
use crate::eval::value::{format_number, Value};

/// The column past which go-yaml folds a double-quoted string at a space.
const BEST_WIDTH: usize = 80;

/// The indentation step.
const BEST_INDENT: i64 = 2;

/// The longest key (in bytes) go-yaml writes as a simple `key:`; longer ones get `? `.
const MAX_SIMPLE_KEY: usize = 128;

/// `value` as go-yaml's emitter writes it for cty-yaml: one implicit document. Indentation
/// can make the text much larger than the value: past [`MAX_STRING_BYTES`] the writing
/// stops and the call fails with the size limit.
pub(super) fn encode(value: &Value) -> Result<String, String> {
    let mut e = Emitter {
        out: String::new(),
        column: 0,
        indent: -1,
        indents: Vec::new(),
        whitespace: true,
        indention: true,
        open_ended: false,
    };
    e.node(value, Context::Root);
    // The implicit document end, then the stream's end.
    e.write_indent();
    if e.open_ended {
        e.write_indicator("...", true, false, false);
        e.write_indent();
    }
    super::size_limit(e.out.len())?;
    Ok(e.out)
}

/// Where a node is written, which decides its layout (go-yaml's `*_context` flags).
#[derive(Clone, Copy, PartialEq)]
enum Context {
    Root,
    Sequence,
    Mapping,
    SimpleKey,
}

/// The scalar styles cty-yaml asks for, and those go-yaml falls back to.
#[derive(Clone, Copy, PartialEq)]
enum Style {
    Plain,
    DoubleQuoted,
    Literal,
}

/// The emitter's state as go-yaml keeps it.
struct Emitter {
    out: String,
    /// Characters written on the current line.
    column: usize,
    /// The current indentation; -1 before the root node.
    indent: i64,
    indents: Vec<i64>,
    /// Whether the last character written was whitespace.
    whitespace: bool,
    /// Whether only indentation is on the current line so far.
    indention: bool,
    /// Whether the document needs a `...` to end it (a plain root scalar).
    open_ended: bool,
}

impl Emitter {
    fn node(&mut self, value: &Value, context: Context) {
        match value {
            Value::Marked(inner, _) => self.node(inner, context),
            Value::Null | Value::Unknown | Value::UnknownOf(..) => {
                self.scalar("null", Style::Plain, context)
            }
            Value::Bool(b) => self.scalar(if *b { "true" } else { "false" }, Style::Plain, context),
            Value::Number(n) => self.scalar(&format_number(*n), Style::Plain, context),
            Value::String(s) => {
                let style = match s.contains('\n') {
                    true => Style::Literal,
                    false => Style::DoubleQuoted,
                };
                self.scalar(s, style, context)
            }
            Value::Tuple(items) | Value::List(items) | Value::Set(items) => {
                match items.is_empty() {
                    true => self.empty_flow("[", "]"),
                    false => self.block_sequence(items, context),
                }
            }
            Value::Object(map) | Value::Map(map) | Value::PartialObject(map) => {
                match map.is_empty() {
                    true => self.empty_flow("{", "}"),
                    false => self.block_mapping(map),
                }
            }
        }
    }

    /// An empty collection: go-yaml writes it in flow style whatever was asked.
    fn empty_flow(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.write_indicator(close, false, false, false);
    }

    fn block_sequence(&mut self, items: &[Value], context: Context) {
        // A sequence that is a mapping's value starts at the key's column ("indentless").
        self.increase_indent(false, context == Context::Mapping && !self.indention);
        for item in items {
            if self.out.len() > MAX_STRING_BYTES {
                break;
            }
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(item, Context::Sequence);
        }
        self.pop_indent();
    }

    fn block_mapping(&mut self, map: &BTreeMap<String, Value>) {
        self.increase_indent(false, false);
        for (key, value) in map {
            if self.out.len() > MAX_STRING_BYTES {
                break;
            }
            self.write_indent();
            let simple = !Analysis::of(key).multiline && key.len() <= MAX_SIMPLE_KEY;
            if simple {
                self.scalar(key, Style::DoubleQuoted, Context::SimpleKey);
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, true);
                let style = match key.contains('\n') {
                    true => Style::Literal,
                    false => Style::DoubleQuoted,
                };
                self.scalar(key, style, Context::Mapping);
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            self.node(value, Context::Mapping);
        }
        self.pop_indent();
    }

    /// go-yaml's `select_scalar_style`, then the writer of the style chosen. The plain
    /// scalars cty-yaml writes (`null`, booleans, numbers) are always allowed plain.
    fn scalar(&mut self, value: &str, asked: Style, context: Context) {
        let analysis = Analysis::of(value);
        let simple_key = context == Context::SimpleKey;
        let mut style = asked;
        if simple_key && analysis.multiline {
            style = Style::DoubleQuoted;
        }
        if style == Style::Literal && (!analysis.block_allowed || simple_key) {
            style = Style::DoubleQuoted;
        }
        self.increase_indent(true, false);
        match style {
            Style::Plain => self.write_plain(value, context == Context::Root),
            Style::DoubleQuoted => self.write_double_quoted(value, !simple_key),
            Style::Literal => self.write_literal(value),
        }
        self.pop_indent();
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(
        &mut self,
        indicator: &str,
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        indicator.chars().for_each(|c| self.put(c));
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
        self.open_ended = false;
    }

    /// A plain scalar; cty-yaml's have no spaces or breaks to fold.
    fn write_plain(&mut self, value: &str, root: bool) {
        if !self.whitespace {
            self.put(' ');
        }
        value.chars().for_each(|c| self.put(c));
        self.whitespace = false;
        self.indention = false;
        if root {
            self.open_ended = true;
        }
    }

    fn write_double_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        // go-yaml asks whether the *value* starts with a byte order mark at every
        // character, so such a string is escaped whole.
        let bom = value.starts_with('\u{feff}');
        let mut spaces = false;
        let mut chars = value.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if !printable(c) || bom || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                self.escape(c);
                spaces = false;
            } else if c == ' ' {
                let fold = allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i < value.len() - 1;
                if fold {
                    self.write_indent();
                    if chars.peek().is_some_and(|&(_, next)| next == ' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(' ');
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    /// The escape after `\` for `c`.
    fn escape(&mut self, c: char) {
        let short = match c {
            '\0' => Some('0'),
            '\x07' => Some('a'),
            '\x08' => Some('b'),
            '\t' => Some('t'),
            '\n' => Some('n'),
            '\x0b' => Some('v'),
            '\x0c' => Some('f'),
            '\r' => Some('r'),
            '\x1b' => Some('e'),
            '"' => Some('"'),
            '\\' => Some('\\'),
            '\u{85}' => Some('N'),
            '\u{a0}' => Some('_'),
            '\u{2028}' => Some('L'),
            '\u{2029}' => Some('P'),
            _ => None,
        };
        if let Some(s) = short {
            return self.put(s);
        }
        let code = c as u32;
        let (letter, digits) = match code {
            0..=0xFF => ('x', 2),
            0x100..=0xFFFF => ('u', 4),
            _ => ('U', 8),
        };
        self.put(letter);
        for d in format!("{code:0digits$X}").chars() {
            self.put(d);
        }
    }

    fn write_literal(&mut self, value: &str) {
        self.write_indicator("|", true, false, false);
        self.write_block_hints(value);
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for c in value.chars() {
            if is_break(c) {
                if c == '\n' {
                    self.put_break();
                } else {
                    // Other breaks are copied as they are, and end the line.
                    self.out.push(c);
                    self.column = 0;
                }
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }

    /// The indentation hint when the text starts with a space or break, then the chomping
    /// hint: `-` without a final break, `+` with more than one (or only one).
    fn write_block_hints(&mut self, value: &str) {
        if value.starts_with(' ') || value.chars().next().is_some_and(is_break) {
            self.write_indicator("2", false, false, false);
        }
        self.open_ended = false;
        let mut tail = value.chars().rev();
        let chomp = match (tail.next(), tail.next()) {
            (None, _) => Some("-"),
            (Some(last), _) if !is_break(last) => Some("-"),
            (Some(_), None) => Some("+"),
            (Some(_), Some(before)) if is_break(before) => Some("+"),
            _ => None,
        };
        // go-yaml marks the document open-ended for `+`, but writing the hint clears it.
        if let Some(hint) = chomp {
            self.write_indicator(hint, false, false, false);
        }
    }
}

/// What go-yaml's `analyze_scalar` finds of a string that cty-yaml's styles depend on.
struct Analysis {
    multiline: bool,
    /// Whether a block (literal) scalar may hold it.
    block_allowed: bool,
}

impl Analysis {
    fn of(value: &str) -> Analysis {
        let mut line_breaks = false;
        let mut special = false;
        let mut space_break = false;
        let mut previous_space = false;
        for c in value.chars() {
            if !printable(c) {
                special = true;
            }
            if c == ' ' {
                previous_space = true;
            } else if is_break(c) {
                line_breaks = true;
                space_break |= previous_space;
                previous_space = false;
            } else {
                previous_space = false;
            }
        }
        let trailing_space = value.ends_with(' ');
        Analysis {
            multiline: line_breaks,
            block_allowed: !value.is_empty() && !trailing_space && !space_break && !special,
        }
    }
}

/// go-yaml's `is_printable`: line feed, printable ASCII, and the BMP but for the
/// surrogates, the byte order mark and U+FFFE/U+FFFF (never a character beyond it).
fn printable(c: char) -> bool {
    matches!(c as u32, 0x0A | 0x20..=0x7E | 0xA0..=0xD7FF | 0xE000..=0xFFFD) && c != '\u{feff}'
}

/// go-yaml's `is_break`.
fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}
