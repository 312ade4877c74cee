//! `workspace/symbol`, mapped from `ide::workspace_symbols`.

use tower_lsp_server::ls_types::{self as lsp, Location, SymbolInformation};

use super::convert;
use super::structure::symbol_kind;
use crate::ide::workspace_symbols::{workspace_symbols, Index};
use crate::text::PositionEncoding;
use crate::workspace::Workspace;

/// How many symbols one answer holds at most: editors show the first few.
const LIMIT: usize = 256;

/// The declarations matching `query`, best first.
#[allow(deprecated)] // `SymbolInformation::deprecated` must be written; `tags` replaces it.
pub fn symbols(
    index: &Index,
    ws: &Workspace,
    query: &str,
    encoding: PositionEncoding,
) -> Vec<SymbolInformation> {
    workspace_symbols(index, ws, query, LIMIT, encoding)
        .into_iter()
        .filter_map(|d| {
            let [start, end] = d.range.map(|p| lsp::Position::new(p.line, p.column));
            Some(SymbolInformation {
                location: Location {
                    uri: convert::uri_of(&d.path)?,
                    range: lsp::Range::new(start, end),
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
