//! `textDocument/documentLink`, mapped from `ide::links`.

use std::path::Path;

use tower_lsp_server::ls_types::{DocumentLink, Uri};

use super::convert::{self, Texts};
use crate::ide::links::{document_links, LinkTarget};
use crate::text::PositionEncoding;
use crate::workspace::Workspace;

/// The links of the document at `path`.
pub fn links(ws: &Workspace, path: &Path, encoding: PositionEncoding) -> Option<Vec<DocumentLink>> {
    let file = ws.file(path)?;
    let module = ws.module(path.parent()?)?;
    let mut texts = Texts::new(ws);
    Some(
        document_links(ws, &file, &module)
            .into_iter()
            .filter_map(|link| {
                let target = match link.target {
                    LinkTarget::File(p) => convert::uri_of(&p)?,
                    LinkTarget::Url(url) => url.parse::<Uri>().ok()?,
                };
                Some(DocumentLink {
                    range: texts.range(path, link.span, encoding)?,
                    target: Some(target),
                    tooltip: None,
                    data: None,
                })
            })
            .collect(),
    )
}
