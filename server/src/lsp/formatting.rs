//! `textDocument/formatting`, `rangeFormatting` and `onTypeFormatting`: the formatter's
//! edits (`ide::format`) on the editor's text, as LSP text edits. A document with a syntax
//! error gets no edits, and the reason is shown to the user.

use std::path::Path;

use tower_lsp_server::ls_types::{self as lsp, TextEdit};

use super::convert;
use crate::ide::format::{self, NotFormatted, SyntaxCheck};
use crate::syntax::{Span, Syntax};
use crate::text::lines::LineIndex;
use crate::text::PositionEncoding;
use crate::workspace::Workspace;

/// What a formatting request asks for.
pub enum Request {
    /// The whole document.
    Document,
    /// The lines of a range.
    Range(lsp::Range),
    /// After the user typed `ch` at `position`.
    OnType(lsp::Position, String),
}

/// The edits answering `request` for the document at `path`; `Ok(None)` for a file the
/// formatter does not take (JSON, unknown), `Err` with the message for the user when the
/// text does not parse.
pub fn edits(
    ws: &Workspace,
    path: &Path,
    request: Request,
    encoding: PositionEncoding,
) -> Result<Option<Vec<TextEdit>>, String> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    if !format::is_formatted_file(&name) {
        return Ok(None);
    }
    let file = ws.file(path);
    let Some(text) = ws
        .open_text(path)
        .or_else(|| file.as_ref().map(|f| f.text.to_string()))
    else {
        return Ok(None);
    };
    // The workspace parsed this very text already: without errors, no need to parse it
    // again before laying it out.
    let check = match file {
        Some(f)
            if f.syntax.syntax == Syntax::Native && !f.syntax.has_errors() && *f.text == *text =>
        {
            SyntaxCheck::Passed
        }
        _ => SyntaxCheck::Needed,
    };
    let lines = LineIndex::new(&text);
    let offset = |p: lsp::Position| lines.offset(&text, convert::position_in(p), encoding);
    let result = match request {
        Request::Document => format::format_checked(&text, check),
        Request::Range(range) => {
            format::format_range(&text, offset(range.start)..offset(range.end), check)
        }
        Request::OnType(position, typed) => match typed.chars().next() {
            Some(ch) => format::format_on_type(&text, offset(position), ch, check),
            None => Ok(Vec::new()),
        },
    };
    match result {
        Ok(edits) => Ok(Some(
            edits
                .into_iter()
                .map(|edit| TextEdit {
                    range: convert::range_by_lines(
                        &lines,
                        &text,
                        Span::new(edit.range.start, edit.range.end),
                        encoding,
                    ),
                    new_text: edit.new_text,
                })
                .collect(),
        )),
        Err(NotFormatted::SyntaxError { summary, line, .. }) => Err(format!(
            "{name} is not formatted: it has a syntax error on line {line} ({summary})"
        )),
    }
}
