//! `workspace/symbol`, mapped from `ide::workspace_symbols`.

use tower_lsp_server::ls_types::{Location, SymbolInformation};

use super::convert::{self, Ropes};
use super::structure::symbol_kind;
use crate::ide::workspace_symbols::workspace_symbols;
use crate::text::PositionEncoding;
use crate::workspace::Workspace;

/// How many symbols one answer holds at most: editors show the first few.
const LIMIT: usize = 256;

/// The declarations matching `query`, best first.
#[allow(deprecated)] // `SymbolInformation::deprecated` must be written; `tags` replaces it.
pub fn symbols(ws: &Workspace, query: &str, encoding: PositionEncoding) -> Vec<SymbolInformation> {
    let mut ropes = Ropes::new(ws);
    workspace_symbols(ws, query, LIMIT)
        .into_iter()
        .filter_map(|d| {
            Some(SymbolInformation {
                location: Location {
                    uri: convert::uri_of(&d.path)?,
                    range: ropes.range(&d.path, d.span, encoding)?,
                },
                name: d.name,
                kind: symbol_kind(d.kind),
                tags: None,
                deprecated: None,
                container_name: Some(d.module),
            })
        })
        .collect()
}
