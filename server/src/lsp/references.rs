//! References, document highlights and rename, mapped from `ide::references` and
//! `ide::rename` to LSP types.

use std::path::Path;

use tower_lsp_server::ls_types::{
    self as lsp, DocumentHighlight, DocumentHighlightKind, Location, PrepareRenameResponse,
    WorkspaceEdit,
};

use super::convert::{self, Texts};
use crate::ide::references::{highlights, occurrences, target_at};
use crate::ide::rename::{self, RenameError};
use crate::text::PositionEncoding;
use crate::workspace::Workspace;

/// Every place that names the object at the position, its declarations when asked.
pub fn references(
    ws: &Workspace,
    path: &Path,
    position: lsp::Position,
    include_declaration: bool,
    encoding: PositionEncoding,
) -> Option<Vec<Location>> {
    let mut texts = Texts::new(ws);
    let offset = texts.offset(path, position, encoding)?;
    let located = target_at(ws, path, offset)?;
    let found = occurrences(ws, &located.dir, &located.target);
    Some(
        found
            .into_iter()
            .filter(|o| include_declaration || !o.declaration)
            .filter_map(|o| {
                Some(Location {
                    uri: convert::uri_of(&o.path)?,
                    range: texts.range(&o.path, o.span, encoding)?,
                })
            })
            .collect(),
    )
}

/// The object under the cursor and its uses in the same file.
pub fn document_highlights(
    ws: &Workspace,
    path: &Path,
    position: lsp::Position,
    encoding: PositionEncoding,
) -> Option<Vec<DocumentHighlight>> {
    let mut texts = Texts::new(ws);
    let offset = texts.offset(path, position, encoding)?;
    Some(
        highlights(ws, path, offset)
            .into_iter()
            .filter_map(|o| {
                Some(DocumentHighlight {
                    range: texts.range(path, o.span, encoding)?,
                    kind: Some(match o.declaration {
                        true => DocumentHighlightKind::WRITE,
                        false => DocumentHighlightKind::READ,
                    }),
                })
            })
            .collect(),
    )
}

/// The name a rename at the position would change.
pub fn prepare_rename(
    ws: &Workspace,
    path: &Path,
    position: lsp::Position,
    encoding: PositionEncoding,
) -> Option<PrepareRenameResponse> {
    let mut texts = Texts::new(ws);
    let offset = texts.offset(path, position, encoding)?;
    let located = rename::prepare_rename(ws, path, offset)?;
    Some(PrepareRenameResponse::RangeWithPlaceholder {
        range: texts.range(path, located.span, encoding)?,
        placeholder: located.target.name().to_string(),
    })
}

/// The edits of a rename, or why it is refused.
pub fn rename(
    ws: &Workspace,
    path: &Path,
    position: lsp::Position,
    new_name: &str,
    encoding: PositionEncoding,
) -> Result<Option<WorkspaceEdit>, RenameError> {
    let mut texts = Texts::new(ws);
    let Some(offset) = texts.offset(path, position, encoding) else {
        return Ok(None);
    };
    let edits = rename::rename(ws, path, offset, new_name)?;
    Ok(Some(texts.workspace_edit(edits, encoding)))
}
