//! Text edits that renames and quick fixes are made of: in the native syntax, lines
//! added at the end of a block's body, a block appended to a file, an item taken out with
//! its line; in the JSON syntax (`json.rs`), properties added to an object and taken out
//! of it, elements added to an array; and finding the block a place is in.

mod json;

pub use json::{append_json_block, append_to_object, opening_brace, remove_property};

use std::path::PathBuf;
use std::sync::Arc;

use crate::module::SourceFile;
use crate::syntax::{Block, Body, Span};

/// One replacement in one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEdit {
    /// The file.
    pub path: PathBuf,
    /// What is replaced (empty to insert).
    pub span: Span,
    /// The new text.
    pub new_text: String,
}

/// The innermost block of `body` whose span holds `offset`, with its parents' bodies
/// walked down.
pub fn block_at(body: &Body, offset: usize) -> Option<&Arc<Block>> {
    let block = body.blocks.iter().find(|b| b.span.contains(offset))?;
    block_at(&block.body, offset).or(Some(block))
}

/// The indentation of the line that holds `offset`.
pub(super) fn indentation_at(text: &str, offset: usize) -> &str {
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[start..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// `lines` (each without indentation or line break) added at the end of `block`'s body,
/// indented one level deeper than its header. `None` when the block does not end with
/// the `}` of a native body.
pub fn append_to_body(source: &SourceFile, block: &Block, lines: &[String]) -> Option<FileEdit> {
    let text = &*source.text;
    let close = (block.span.end as usize).checked_sub(1)?;
    if text.get(close..close + 1) != Some("}") {
        return None;
    }
    let indent = indentation_at(text, block.span.start as usize);
    let inner = format!("{indent}  ");
    let added: String = lines.iter().map(|l| format!("{inner}{l}\n")).collect();
    let line_start = text[..close].rfind('\n').map_or(0, |i| i + 1);
    let open = text[..close].rfind('{')?;
    let (span, new_text) = if line_start > open && text[line_start..close].trim().is_empty() {
        // The `}` stands on its own line: the new lines go before it.
        (Span::new(line_start, line_start), added)
    } else {
        // A body on the header's line (`{}`, `{ a = 1 }`): opened over several lines.
        let written = text[open + 1..close].trim();
        let kept = match written.is_empty() {
            true => String::new(),
            false => format!("{inner}{written}\n"),
        };
        (
            Span::new(open + 1, close),
            format!("\n{kept}{added}{indent}"),
        )
    };
    Some(FileEdit {
        path: source.path.clone(),
        span,
        new_text,
    })
}

/// `block` (its text without a final line break) added at the end of `source`, after a
/// blank line. Inserted before the file's final line break, not after it: a position past
/// the last line is valid LSP, but Neovim appends the text there as lines, leaving a
/// blank line at the end of the file.
pub fn append_block(source: &SourceFile, block: &str) -> FileEdit {
    let text = &*source.text;
    let (at, new_text) = if text.is_empty() {
        (0, format!("{block}\n"))
    } else if let Some(body) = text
        .strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'))
    {
        let separator = if body.ends_with('\n') { "\n" } else { "\n\n" };
        (body.len(), format!("{separator}{block}"))
    } else {
        (text.len(), format!("\n\n{block}\n"))
    };
    FileEdit {
        path: source.path.clone(),
        span: Span::new(at, at),
        new_text,
    }
}

/// The removal of the item at `span` with the whole of its line(s) when nothing else is
/// written on them, else of the item alone.
pub fn remove_item(source: &SourceFile, span: Span) -> FileEdit {
    let text = &*source.text;
    let (start, end) = (span.start as usize, span.end as usize);
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
    let alone = text[line_start..start].trim().is_empty() && text[end..line_end].trim().is_empty();
    let span = match alone {
        true => Span::new(line_start, line_end),
        false => span,
    };
    FileEdit {
        path: source.path.clone(),
        span,
        new_text: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(text: &str) -> SourceFile {
        SourceFile::parse("/m/main.tf".into(), text.into(), None, None)
    }

    fn applied(text: &str, edit: &FileEdit) -> String {
        let mut out = text.to_string();
        out.replace_range(edit.span.range(), &edit.new_text);
        out
    }

    fn added(text: &str) -> String {
        let s = source(text);
        let block = block_at(&s.syntax.body, text.find('{').unwrap()).unwrap();
        let edit = append_to_body(&s, block, &["a = 1".into(), "b = 2".into()]).unwrap();
        applied(text, &edit)
    }

    #[test]
    fn lines_go_before_a_closing_brace_on_its_own_line() {
        assert_eq!(
            added("module \"m\" {\n  x = 1\n}\n"),
            "module \"m\" {\n  x = 1\n  a = 1\n  b = 2\n}\n"
        );
    }

    #[test]
    fn a_body_on_the_header_line_is_opened() {
        assert_eq!(
            added("output \"o\" {}\n"),
            "output \"o\" {\n  a = 1\n  b = 2\n}\n"
        );
        assert_eq!(
            added("locals { x = 1 }\n"),
            "locals {\n  x = 1\n  a = 1\n  b = 2\n}\n"
        );
    }

    #[test]
    fn a_nested_block_is_indented_one_level_deeper() {
        let text = "resource \"t\" \"n\" {\n  lifecycle {\n  }\n}\n";
        let s = source(text);
        let block = block_at(&s.syntax.body, text.find("lifecycle").unwrap() + 10).unwrap();
        assert_eq!(&*block.kind.name, "lifecycle");
        let edit = append_to_body(&s, block, &["a = 1".into()]).unwrap();
        assert_eq!(
            applied(text, &edit),
            "resource \"t\" \"n\" {\n  lifecycle {\n    a = 1\n  }\n}\n"
        );
    }

    #[test]
    fn a_block_is_appended_after_a_blank_line() {
        let text = "terraform {}\n";
        assert_eq!(
            applied(text, &append_block(&source(text), "variable \"v\" {}")),
            "terraform {}\n\nvariable \"v\" {}\n"
        );
        assert_eq!(
            applied("", &append_block(&source(""), "variable \"v\" {}")),
            "variable \"v\" {}\n"
        );
    }

    #[test]
    fn an_item_alone_on_its_line_is_removed_with_the_line() {
        let text = "x {\n  a = 1\n  b = 2\n}\n";
        let at = text.find("a = 1").unwrap();
        let edit = remove_item(&source(text), Span::new(at, at + 5));
        assert_eq!(applied(text, &edit), "x {\n  b = 2\n}\n");
        let text = "x { a = 1 }\n";
        let at = text.find("a = 1").unwrap();
        let edit = remove_item(&source(text), Span::new(at, at + 5));
        assert_eq!(applied(text, &edit), "x {  }\n");
    }
}
