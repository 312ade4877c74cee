//! Documents as ropes, incremental edits, and conversions between byte offsets and
//! line/column positions in the encodings LSP clients negotiate (UTF-8, UTF-16, UTF-32).
//!
//! Line breaks are exactly LSP's: `\n`, `\r\n` and `\r` (ropey's Unicode line breaks are
//! disabled in `Cargo.toml`, because a client never counts U+2028 as a new line).

use ropey::Rope;
use thiserror::Error;

/// How the `character` of a position counts: the LSP `positionEncoding` in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PositionEncoding {
    /// Bytes of UTF-8.
    Utf8,
    /// UTF-16 code units: LSP's default, and what VS Code speaks.
    #[default]
    Utf16,
    /// Unicode scalar values.
    Utf32,
}

/// A zero-based line and column, the column counted in some [`PositionEncoding`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Position {
    /// Zero-based line.
    pub line: u32,
    /// Zero-based column in the encoding the position was made for.
    pub column: u32,
}

/// A change to a document, as `textDocument/didChange` carries it.
#[derive(Debug, Clone)]
pub struct TextChange {
    /// The replaced range; `None` replaces the whole document.
    pub range: Option<(Position, Position)>,
    /// The new text of that range.
    pub text: String,
}

/// Why an edit could not be applied.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TextError {
    /// The edit's end lies before its start.
    #[error("edit range ends before it starts ({start:?} > {end:?})")]
    InvertedRange {
        /// The start the client sent.
        start: Position,
        /// The end the client sent.
        end: Position,
    },
}

/// An open document: its text as a rope and the version the client gave it.
#[derive(Debug, Clone)]
pub struct Document {
    rope: Rope,
    version: i32,
}

impl Document {
    /// A document with `text` at `version`.
    pub fn new(text: &str, version: i32) -> Self {
        Self {
            rope: Rope::from_str(text),
            version,
        }
    }

    /// The client's version of this text.
    pub fn version(&self) -> i32 {
        self.version
    }

    /// The rope, for position conversions.
    pub fn rope(&self) -> &Rope {
        &self.rope
    }

    /// The whole text as one string (parsers need contiguous text).
    pub fn text(&self) -> String {
        self.rope.to_string()
    }

    /// Applies the changes of one `didChange` in order and sets the new version.
    ///
    /// Positions past the end of a line or of the document are clamped, as the LSP
    /// specification asks; an inverted range is refused and leaves the document as it was
    /// before the first change of the batch.
    pub fn apply_changes(
        &mut self,
        changes: &[TextChange],
        version: i32,
        encoding: PositionEncoding,
    ) -> Result<(), TextError> {
        let mut rope = self.rope.clone();
        for change in changes {
            match change.range {
                None => rope = Rope::from_str(&change.text),
                Some((start, end)) => {
                    if end < start {
                        return Err(TextError::InvertedRange { start, end });
                    }
                    let start = rope.byte_to_char(byte_offset(&rope, start, encoding));
                    let end = rope.byte_to_char(byte_offset(&rope, end, encoding));
                    rope.remove(start..end);
                    rope.insert(start, &change.text);
                }
            }
        }
        self.rope = rope;
        self.version = version;
        Ok(())
    }
}

/// The byte offset of `pos` in `rope`, clamped to the end of its line (before the line
/// break) and to the end of the document; a column inside a multi-unit character rounds
/// down to that character's start.
pub fn byte_offset(rope: &Rope, pos: Position, encoding: PositionEncoding) -> usize {
    let line = pos.line as usize;
    if line >= rope.len_lines() {
        return rope.len_bytes();
    }
    let line_start = rope.line_to_byte(line);
    let content = line_content(rope, line);
    let column = pos.column as usize;
    let mut units = 0usize;
    let mut bytes = 0usize;
    for ch in content.chars() {
        let width = match encoding {
            PositionEncoding::Utf8 => ch.len_utf8(),
            PositionEncoding::Utf16 => ch.len_utf16(),
            PositionEncoding::Utf32 => 1,
        };
        if units + width > column {
            break;
        }
        units += width;
        bytes += ch.len_utf8();
    }
    line_start + bytes
}

/// The position of byte `offset` in `rope`; an offset inside a character or past the end
/// is moved back to the nearest character start.
pub fn position(rope: &Rope, offset: usize, encoding: PositionEncoding) -> Position {
    let offset = floor_char_boundary(rope, offset);
    let line = rope.byte_to_line(offset);
    let line_start = rope.line_to_byte(line);
    let prefix = rope.byte_slice(line_start..offset);
    let column = match encoding {
        PositionEncoding::Utf8 => offset - line_start,
        PositionEncoding::Utf16 => prefix.chars().map(char::len_utf16).sum(),
        PositionEncoding::Utf32 => prefix.len_chars(),
    };
    Position {
        line: line as u32,
        column: column as u32,
    }
}

/// The line's text without its line break.
fn line_content(rope: &Rope, line: usize) -> ropey::RopeSlice<'_> {
    let slice = rope.line(line);
    let mut len = slice.len_chars();
    while len > 0 && matches!(slice.char(len - 1), '\n' | '\r') {
        len -= 1;
    }
    slice.slice(..len)
}

fn floor_char_boundary(rope: &Rope, offset: usize) -> usize {
    let offset = offset.min(rope.len_bytes());
    rope.char_to_byte(rope.byte_to_char(offset))
}

/// Text with a leading UTF-8 byte-order mark blanked to three spaces, so that parsers
/// never see it while every byte offset stays the same as in the original.
pub fn without_bom(text: &str) -> std::borrow::Cow<'_, str> {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => std::borrow::Cow::Owned(format!("   {rest}")),
        None => std::borrow::Cow::Borrowed(text),
    }
}

pub mod encoding;
pub mod go_quote;
pub mod lines;
pub mod names;
pub mod read;
#[cfg(test)]
mod tests;

/// Terraform's way of naming a place in a file: 1-based line and column (columns count
/// Unicode scalar values) and the 0-based byte offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct SourcePos {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in grapheme clusters as HCL counts them (characters in JSON).
    pub column: usize,
    /// 0-based byte offset.
    pub byte: usize,
}

/// The position of byte `offset` of `text`, as [`SourcePositions::at`] gives it, found by
/// reading the text up to it: for the odd position in a message, where building the index
/// of a whole file each time would make many messages quadratic.
pub fn source_pos(text: &str, offset: usize) -> SourcePos {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let bytes = text.as_bytes();
    let mut line = 1;
    let mut line_start = 0;
    for (i, &b) in bytes[..offset].iter().enumerate() {
        if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
            line += 1;
            line_start = i + 1;
        }
    }
    SourcePos {
        line,
        column: columns(&text[line_start..offset]) + 1,
        byte: offset,
    }
}

/// The columns `line_prefix` takes as HCL's native scanner counts them: one per grapheme
/// cluster of each token (a letter and the joiner or combining mark after it are one
/// column), the tokens' clusters counted apart (a combining mark right after an opening
/// quote starts a column of its own). A quote, a bracket, `,`, `=` and white space stand
/// for token boundaries.
fn columns(line_prefix: &str) -> usize {
    use unicode_segmentation::UnicodeSegmentation;
    if line_prefix.is_ascii() {
        return line_prefix.len();
    }
    let boundary = |c: char| c.is_ascii_whitespace() || "\"{}()[],=".contains(c);
    let (mut count, mut token_start) = (0, 0);
    for (i, c) in line_prefix.char_indices() {
        if boundary(c) {
            count += line_prefix[token_start..i].graphemes(true).count() + 1;
            token_start = i + c.len_utf8();
        }
    }
    count + line_prefix[token_start..].graphemes(true).count()
}

/// How many bytes `offset` is past the start of line `line` (equal to its column in
/// characters exactly when the line's text before it is ASCII).
fn offset_in_line(rope: &Rope, line: u32, offset: usize) -> usize {
    floor_char_boundary(rope, offset) - rope.line_to_byte(line as usize)
}

/// Converts byte offsets of one text into [`SourcePos`]; build once per file.
pub struct SourcePositions {
    rope: Rope,
    json_columns: bool,
}

impl SourcePositions {
    /// Prepares conversions for `text`.
    pub fn new(text: &str) -> Self {
        Self {
            rope: Rope::from_str(text),
            json_columns: false,
        }
    }

    /// Prepares conversions for a JSON-syntax `text`, whose columns HCL's JSON scanner
    /// counts its own way: a tab is two columns, a carriage return none.
    pub fn json(text: &str) -> Self {
        Self {
            rope: Rope::from_str(text),
            json_columns: true,
        }
    }

    /// The position of byte `offset`.
    pub fn at(&self, offset: usize) -> SourcePos {
        let p = position(&self.rope, offset, PositionEncoding::Utf32);
        let mut column = p.column as usize + 1;
        if !self.json_columns && p.column as usize != offset_in_line(&self.rope, p.line, offset) {
            // Not all ASCII: count grapheme clusters as HCL's native scanner does.
            let line_start = self.rope.line_to_byte(p.line as usize);
            let prefix = self
                .rope
                .byte_slice(line_start..floor_char_boundary(&self.rope, offset));
            column = columns(&prefix.to_string()) + 1;
        }
        if self.json_columns {
            let offset = floor_char_boundary(&self.rope, offset);
            let line_start = self.rope.line_to_byte(p.line as usize);
            for c in self.rope.byte_slice(line_start..offset).chars() {
                match c {
                    '\t' => column += 1,
                    '\r' => column -= 1,
                    _ => {}
                }
            }
        }
        SourcePos {
            line: p.line as usize + 1,
            column,
            byte: floor_char_boundary(&self.rope, offset),
        }
    }

    /// The start and end of `start..end` as Terraform prints them: an empty range at the
    /// very end of the text is HCL's end-of-file token, which is one byte wide, just past
    /// the text.
    pub fn range(&self, start: usize, end: usize) -> (SourcePos, SourcePos) {
        let (from, mut to) = (self.at(start), self.at(end));
        if self.json_columns && end == start + 1 {
            // HCL's JSON ranges one byte long are one column wide, even over a tab (a
            // control character that ends a string).
            to.column = from.column + 1;
        }
        if start == end && end >= self.rope.len_bytes() {
            to.column += 1;
            to.byte += 1;
        }
        (from, to)
    }

    /// The 1-based column of byte `offset` in UTF-16 code units, the column kind SARIF
    /// and most editors count in, where [`SourcePositions::at`] counts as HCL does.
    pub fn utf16_column(&self, offset: usize) -> usize {
        position(&self.rope, offset, PositionEncoding::Utf16).column as usize + 1
    }

    /// The text of the 1-based line `line`, without its line break.
    pub fn line_text(&self, line: usize) -> String {
        match line.checked_sub(1) {
            Some(l) if l < self.rope.len_lines() => line_content(&self.rope, l).to_string(),
            _ => String::new(),
        }
    }
}
