//! Conversions between LSP types and Strata's own.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ropey::Rope;
use tower_lsp_server::ls_types::{self as lsp, TextDocumentContentChangeEvent, Uri};

use crate::ide::tfvars::{is_tfvars, tfvars_file};
use crate::syntax::Span;
use crate::text::lines::LineIndex;
use crate::text::{self, PositionEncoding, TextChange};
use crate::workspace::Workspace;

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

/// A span of `text` as an LSP range in `encoding`, through the text's line starts: for
/// many spans of one text, cheaper than a rope.
pub fn range_by_lines(
    lines: &LineIndex,
    text: &str,
    span: Span,
    encoding: PositionEncoding,
) -> lsp::Range {
    let out = |offset: u32| {
        let p = lines.position(text, offset as usize, encoding);
        lsp::Position::new(p.line, p.column)
    };
    lsp::Range::new(out(span.start), out(span.end))
}

/// The texts of the files a request touches, each read once, with their line starts
/// (a tenth of a rope's cost to build, and the same positions).
pub struct Texts<'w> {
    ws: &'w Workspace,
    texts: HashMap<PathBuf, (Arc<str>, LineIndex)>,
}

impl<'w> Texts<'w> {
    /// No file read yet.
    pub fn new(ws: &'w Workspace) -> Self {
        Self {
            ws,
            texts: HashMap::new(),
        }
    }

    /// The text of the file at `path`, as the workspace holds it; a variable definitions
    /// file, which no module holds, as the editor or the disk has it.
    fn text(&mut self, path: &Path) -> Option<&(Arc<str>, LineIndex)> {
        if !self.texts.contains_key(path) {
            let file = if is_tfvars(path) {
                tfvars_file(self.ws, path)?
            } else {
                self.ws.file(path)?
            };
            let lines = LineIndex::new(&file.text);
            self.texts
                .insert(path.to_path_buf(), (file.text.clone(), lines));
        }
        self.texts.get(path)
    }

    /// A span of the file at `path` as an LSP range.
    pub fn range(
        &mut self,
        path: &Path,
        span: Span,
        encoding: PositionEncoding,
    ) -> Option<lsp::Range> {
        let (text, lines) = self.text(path)?;
        Some(range_by_lines(lines, text, span, encoding))
    }

    /// The byte offset of an LSP position in the file at `path`.
    pub fn offset(
        &mut self,
        path: &Path,
        p: lsp::Position,
        encoding: PositionEncoding,
    ) -> Option<usize> {
        let (text, lines) = self.text(path)?;
        Some(lines.offset(text, position_in(p), encoding))
    }

    /// `edits` as one LSP workspace edit (an edit in a file the workspace does not hold
    /// is left out).
    pub fn workspace_edit(
        &mut self,
        edits: Vec<crate::ide::edits::FileEdit>,
        encoding: PositionEncoding,
    ) -> lsp::WorkspaceEdit {
        let mut changes: HashMap<lsp::Uri, Vec<lsp::TextEdit>> = HashMap::new();
        for edit in edits {
            let (Some(uri), Some(range)) = (
                uri_of(&edit.path),
                self.range(&edit.path, edit.span, encoding),
            ) else {
                continue;
            };
            changes.entry(uri).or_default().push(lsp::TextEdit {
                range,
                new_text: edit.new_text,
            });
        }
        lsp::WorkspaceEdit {
            changes: Some(changes),
            ..Default::default()
        }
    }
}
