//! Terraform's positions: the 1-based lines and columns its messages and `-json` output
//! print, as HCL's scanners count them. Lines end at a line feed only (`\r\n` too, but a
//! carriage return alone is one more column), unlike the editor's positions
//! (`text::position`), where LSP ends a line at a lone `\r` as well.

use unicode_segmentation::UnicodeSegmentation;

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

/// The position of byte `offset` of `text` in a native-syntax file, as
/// [`SourcePositions::at`] gives it, found by reading the text up to it: for the odd
/// position in a message, where indexing a whole file each time would make many messages
/// quadratic.
pub fn source_pos(text: &str, offset: usize) -> SourcePos {
    let offset = floor_char_boundary(text, offset);
    let before = &text.as_bytes()[..offset];
    let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    SourcePos {
        line: memchr::memchr_iter(b'\n', before).count() + 1,
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

/// The columns `line_prefix` takes as HCL's JSON scanner counts them: one per character,
/// a tab two, a carriage return none.
fn json_columns(line_prefix: &str) -> usize {
    line_prefix
        .chars()
        .map(|c| match c {
            '\t' => 2,
            '\r' => 0,
            _ => 1,
        })
        .sum()
}

/// `offset` within `text`, moved back to the start of the character it is in.
fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Converts byte offsets of one text into [`SourcePos`]; build once per file.
pub struct SourcePositions {
    text: String,
    /// Where each line starts: at 0 and after every line feed.
    starts: Vec<usize>,
    json_columns: bool,
}

impl SourcePositions {
    /// Prepares conversions for a native-syntax `text`.
    pub fn new(text: &str) -> Self {
        Self::with_columns(text, false)
    }

    /// Prepares conversions for a JSON-syntax `text`, whose columns HCL's JSON scanner
    /// counts its own way: a tab is two columns, a carriage return none.
    pub fn json(text: &str) -> Self {
        Self::with_columns(text, true)
    }

    fn with_columns(text: &str, json_columns: bool) -> Self {
        let starts = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
            .collect();
        Self {
            text: text.to_owned(),
            starts,
            json_columns,
        }
    }

    /// The position of byte `offset`.
    pub fn at(&self, offset: usize) -> SourcePos {
        let offset = floor_char_boundary(&self.text, offset);
        let line = self.starts.partition_point(|&s| s <= offset).max(1) - 1;
        let prefix = &self.text[self.starts[line]..offset];
        let column = if self.json_columns {
            json_columns(prefix)
        } else {
            columns(prefix)
        };
        SourcePos {
            line: line + 1,
            column: column + 1,
            byte: offset,
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
        if start == end && end >= self.text.len() {
            to.column += 1;
            to.byte += 1;
        }
        (from, to)
    }

    /// The 1-based column of byte `offset` in UTF-16 code units, the column kind SARIF
    /// and most editors count in, where [`SourcePositions::at`] counts as HCL does.
    pub fn utf16_column(&self, offset: usize) -> usize {
        let offset = floor_char_boundary(&self.text, offset);
        let line = self.starts.partition_point(|&s| s <= offset).max(1) - 1;
        let prefix = &self.text[self.starts[line]..offset];
        prefix.encode_utf16().count() + 1
    }

    /// The text of the 1-based line `line`, without its line break.
    pub fn line_text(&self, line: usize) -> String {
        let Some(&start) = line.checked_sub(1).and_then(|l| self.starts.get(l)) else {
            return String::new();
        };
        let end = self.starts.get(line).map_or(self.text.len(), |&s| s - 1);
        let content = &self.text[start..end];
        content.strip_suffix('\r').unwrap_or(content).to_owned()
    }
}
