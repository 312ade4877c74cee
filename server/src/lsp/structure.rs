//! The structure of a document for the editor: outline (`documentSymbol`), folding and
//! selection ranges, mapped from `ide`'s plain data to LSP types.

use std::path::Path;

use ropey::Rope;
use tower_lsp_server::ls_types::{
    self as lsp, DocumentSymbol, FoldingRange, FoldingRangeKind, SelectionRange, SymbolKind,
};

use super::convert;
use crate::ide::folding::{self, FoldKind};
use crate::ide::outline::{self, Symbol, SymbolKind as Kind};
use crate::ide::selection;
use crate::ide::FileInModule;
use crate::text::{self, PositionEncoding};
use crate::workspace::Workspace;

/// The outline of the document at `path`, nested; override blocks say what they override.
pub fn document_symbols(
    ws: &Workspace,
    path: &Path,
    encoding: PositionEncoding,
) -> Option<Vec<DocumentSymbol>> {
    let opened = FileInModule::of(ws, path)?;
    let (file, in_module) = (&opened.file, opened.merged());
    let rope = Rope::from_str(&file.text);
    let symbols = outline::outline(file, in_module);
    Some(
        symbols
            .iter()
            .map(|s| document_symbol(s, &rope, encoding))
            .collect(),
    )
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written; `tags` replaces it.
fn document_symbol(s: &Symbol, rope: &Rope, encoding: PositionEncoding) -> DocumentSymbol {
    let children: Vec<DocumentSymbol> = s
        .children
        .iter()
        .map(|c| document_symbol(c, rope, encoding))
        .collect();
    DocumentSymbol {
        name: s.name.clone(),
        detail: s.detail.clone(),
        kind: symbol_kind(s.kind),
        tags: None,
        deprecated: None,
        range: convert::range(rope, s.span, encoding),
        selection_range: convert::range(rope, s.name_span, encoding),
        children: (!children.is_empty()).then_some(children),
    }
}

pub(super) fn symbol_kind(kind: Kind) -> SymbolKind {
    match kind {
        Kind::Resource => SymbolKind::CLASS,
        Kind::Variable => SymbolKind::VARIABLE,
        Kind::Locals => SymbolKind::NAMESPACE,
        Kind::Local => SymbolKind::CONSTANT,
        Kind::Output => SymbolKind::INTERFACE,
        Kind::ModuleCall => SymbolKind::MODULE,
        Kind::Provider => SymbolKind::PACKAGE,
        Kind::Settings => SymbolKind::NAMESPACE,
        Kind::NestedBlock => SymbolKind::STRUCT,
        Kind::Argument => SymbolKind::PROPERTY,
    }
}

/// The folding ranges of the document at `path`. Code folds carry no kind: clients fold
/// only comments and regions when asked to fold "all comments" or on open.
pub fn folding_ranges(ws: &Workspace, path: &Path) -> Option<Vec<FoldingRange>> {
    let file = ws.file(path)?;
    let folds = folding::folding_ranges(&file.text, &file.syntax);
    Some(
        folds
            .into_iter()
            .map(|f| FoldingRange {
                start_line: f.start_line,
                start_character: None,
                end_line: f.end_line,
                end_character: None,
                kind: match f.kind {
                    FoldKind::Code => None,
                    FoldKind::Comment => Some(FoldingRangeKind::Comment),
                    FoldKind::Region => Some(FoldingRangeKind::Region),
                },
                collapsed_text: None,
            })
            .collect(),
    )
}

/// For each position, the chain of ranges around it, innermost first.
pub fn selection_ranges(
    ws: &Workspace,
    path: &Path,
    positions: &[lsp::Position],
    encoding: PositionEncoding,
) -> Option<Vec<SelectionRange>> {
    let file = ws.file(path)?;
    let rope = Rope::from_str(&file.text);
    Some(
        positions
            .iter()
            .map(|&p| {
                let offset = text::byte_offset(&rope, convert::position_in(p), encoding);
                let spans = selection::selection_ranges(&file.text, &file.syntax, offset);
                // Built from the outermost (the file) inwards, each the parent of the next.
                let mut chain: Option<SelectionRange> = None;
                for &span in spans.iter().rev() {
                    chain = Some(SelectionRange {
                        range: convert::range(&rope, span, encoding),
                        parent: chain.map(Box::new),
                    });
                }
                chain.unwrap_or(SelectionRange {
                    range: lsp::Range::new(p, p),
                    parent: None,
                })
            })
            .collect(),
    )
}
