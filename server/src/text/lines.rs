//! Where each line of a text starts, to turn many byte offsets of one text into positions
//! without building a rope: the outline and the workspace symbols convert hundreds of
//! spans per answer, and a line table is a tenth of a rope's cost to build.
//!
//! Lines end as the rope's do (`cr_lines`): at `\n`, `\r\n` or a lone `\r`.

use super::{Position, PositionEncoding};

/// The start of every line of a text, in bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineIndex {
    starts: Vec<u32>,
}

impl LineIndex {
    /// The line starts of `text`.
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = vec![0u32];
        for at in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            // A `\r` before a `\n` ends its line together with that `\n`.
            if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
                continue;
            }
            starts.push((at + 1) as u32);
        }
        Self { starts }
    }

    /// The zero-based line holding byte `offset`, and where that line starts.
    pub fn line_of(&self, offset: usize) -> (u32, usize) {
        let line = self
            .starts
            .partition_point(|&s| s as usize <= offset)
            .saturating_sub(1);
        (
            line as u32,
            self.starts.get(line).map_or(0, |&s| s as usize),
        )
    }

    /// The position of byte `offset` of `text` (the text this index was made from); an
    /// offset inside a character or past the end is moved back to a character start, as
    /// `text::position` does.
    pub fn position(&self, text: &str, offset: usize, encoding: PositionEncoding) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let (line, start) = self.line_of(offset);
        Position {
            line,
            column: column(text.get(start..offset).unwrap_or(""), encoding),
        }
    }

    /// Where line `line` starts and where its content ends (before its line break), in
    /// `text`; `None` past the last line.
    pub fn line_bounds(&self, text: &str, line: usize) -> Option<(usize, usize)> {
        let start = *self.starts.get(line)? as usize;
        let next = self
            .starts
            .get(line + 1)
            .map_or(text.len(), |&s| s as usize);
        let content = text.get(start..next).unwrap_or("");
        Some((start, start + content.trim_end_matches(['\n', '\r']).len()))
    }

    /// The byte offset of `pos` in `text`, as `text::byte_offset` finds it: clamped to
    /// the end of its line (before the line break) and to the end of the text; a column
    /// inside a multi-unit character rounds down to that character's start.
    pub fn offset(&self, text: &str, pos: Position, encoding: PositionEncoding) -> usize {
        let Some((start, end)) = self.line_bounds(text, pos.line as usize) else {
            return text.len();
        };
        let column = pos.column as usize;
        let mut units = 0usize;
        for (i, ch) in text.get(start..end).unwrap_or("").char_indices() {
            let width = match encoding {
                PositionEncoding::Utf8 => ch.len_utf8(),
                PositionEncoding::Utf16 => ch.len_utf16(),
                PositionEncoding::Utf32 => 1,
            };
            if units + width > column {
                return start + i;
            }
            units += width;
        }
        end
    }
}

/// How many units of `encoding` the text `prefix` (the start of a line) takes.
pub fn column(prefix: &str, encoding: PositionEncoding) -> u32 {
    let units = match encoding {
        _ if prefix.is_ascii() => prefix.len(),
        PositionEncoding::Utf8 => prefix.len(),
        PositionEncoding::Utf16 => prefix.chars().map(char::len_utf16).sum(),
        PositionEncoding::Utf32 => prefix.chars().count(),
    };
    units as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use ropey::Rope;

    #[test]
    fn positions_are_the_ropes() {
        let texts = [
            "",
            "a",
            "a\nb\r\nc\rd\n",
            "\r\n\r\n\n\r\r",
            "é = \"😀\"\r\nx = 1\n  ü\r",
            "tail without newline\nlast",
        ];
        for text in texts {
            let rope = Rope::from_str(text);
            let index = LineIndex::new(text);
            for encoding in [
                PositionEncoding::Utf8,
                PositionEncoding::Utf16,
                PositionEncoding::Utf32,
            ] {
                for offset in 0..=text.len() + 2 {
                    assert_eq!(
                        index.position(text, offset, encoding),
                        super::super::position(&rope, offset, encoding),
                        "{text:?} at {offset} in {encoding:?}"
                    );
                }
                for line in 0..6 {
                    for column in 0..12 {
                        let p = Position { line, column };
                        assert_eq!(
                            index.offset(text, p, encoding),
                            super::super::byte_offset(&rope, p, encoding),
                            "{text:?} at {p:?} in {encoding:?}"
                        );
                    }
                }
            }
        }
    }
}
