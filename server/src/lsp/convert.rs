//! Conversions between LSP types and Strata's own.

use std::path::PathBuf;

use ropey::Rope;
use tower_lsp_server::ls_types::{self as lsp, TextDocumentContentChangeEvent, Uri};

use crate::syntax::Span;
use crate::text::{self, PositionEncoding, TextChange};

/// The file a `file:` URI names; `None` for other schemes (`untitled:`, ...).
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    if uri.scheme().as_str() != "file" {
        return None;
    }
    uri.to_file_path().map(|p| p.into_owned())
}

/// The URI of a path.
pub fn uri_of(path: &std::path::Path) -> Option<Uri> {
    Uri::from_file_path(path)
}

/// A `didChange` content change as a text change.
pub fn text_change(event: TextDocumentContentChangeEvent) -> TextChange {
    TextChange {
        range: event
            .range
            .map(|r| (position_in(r.start), position_in(r.end))),
        text: event.text,
    }
}

/// An LSP position as a text position (same units; the encoding is applied later).
pub fn position_in(p: lsp::Position) -> text::Position {
    text::Position {
        line: p.line,
        column: p.character,
    }
}

/// A span of `rope` as an LSP range in `encoding`.
pub fn range(rope: &Rope, span: Span, encoding: PositionEncoding) -> lsp::Range {
    let out = |offset: u32| {
        let p = text::position(rope, offset as usize, encoding);
        lsp::Position {
            line: p.line,
            character: p.column,
        }
    };
    lsp::Range {
        start: out(span.start),
        end: out(span.end),
    }
}
