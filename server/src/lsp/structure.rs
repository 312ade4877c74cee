//! The structure of a document for the editor: outline (`documentSymbol`), folding and
//! selection ranges, mapped from `ide`'s plain data to LSP types.
//!
//! An outline is made once per version of a document (and of the module's merged model,
//! which names what each override changes) and kept as the JSON text of the answer: an
//! editor asks for it after every edit and on every focus, and the largest files have
//! thousands of entries, which cost more to turn into JSON than to find (the handler
//! answers with a stand-in for that text, `transport::Prepared`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use ropey::Rope;
use tower_lsp_server::ls_types::{
    self as lsp, DocumentSymbol, DocumentSymbolResponse, FoldingRange, FoldingRangeKind,
    SelectionRange, SymbolKind,
};

use super::convert;
use crate::ide::folding::{self, FoldKind};
use crate::ide::outline::{self, Symbol, SymbolKind as Kind};
use crate::ide::selection;
use crate::ide::FileInModule;
use crate::merge::MergedModule;
use crate::module::SourceFile;
use crate::syntax::Span;
use crate::text::lines::LineIndex;
use crate::text::{self, PositionEncoding};
use crate::workspace::Workspace;

/// The last outline made for each document.
#[derive(Debug, Default)]
pub struct Outlines {
    last: Mutex<HashMap<PathBuf, Outline>>,
}

/// An outline and what it was made from.
#[derive(Debug)]
struct Outline {
    file: Arc<SourceFile>,
    merged: Option<Arc<MergedModule>>,
    encoding: PositionEncoding,
    /// The answer: the symbols as JSON.
    json: Arc<[u8]>,
}

impl Outline {
    fn made_from(&self, opened: &FileInModule, encoding: PositionEncoding) -> bool {
        let same_merge = match (&self.merged, opened.merged_module()) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        Arc::ptr_eq(&self.file, &opened.file) && same_merge && self.encoding == encoding
    }
}

impl Outlines {
    /// Forgets a closed document's outline.
    pub fn forget(&self, path: &Path) {
        if let Ok(mut last) = self.last.lock() {
            last.remove(path);
        }
    }
}

/// The outline of the document at `path`, nested, as the JSON text of the answer;
/// override blocks say what they override.
pub fn document_symbols(
    outlines: &Outlines,
    ws: &Workspace,
    path: &Path,
    encoding: PositionEncoding,
) -> Option<Arc<[u8]>> {
    let opened = FileInModule::of(ws, path)?;
    if let Ok(last) = outlines.last.lock() {
        if let Some(kept) = last.get(path).filter(|o| o.made_from(&opened, encoding)) {
            return Some(kept.json.clone());
        }
    }
    let file = &opened.file;
    let lines = LineIndex::new(&file.text);
    let range = |span: Span| convert::range_by_lines(&lines, &file.text, span, encoding);
    let symbols: Vec<DocumentSymbol> = outline::outline(file, opened.merged())
        .iter()
        .map(|s| document_symbol(s, &range))
        .collect();
    // Plain strings, numbers and lists: serialising cannot fail.
    let json: Arc<[u8]> = serde_json::to_vec(&symbols).ok()?.into();
    // Kept for open documents only, which `didClose` forgets.
    let open = ws.is_open(path);
    if let Some(mut last) = outlines.last.lock().ok().filter(|_| open) {
        let outline = Outline {
            file: file.clone(),
            merged: opened.merged_module().cloned(),
            encoding,
            json: json.clone(),
        };
        last.insert(path.to_path_buf(), outline);
    }
    Some(json)
}

/// The answer whose one symbol's name is `stand_in`, which the transport replaces with
/// the prepared outline.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written; `tags` replaces it.
pub fn stand_in(stand_in: String) -> DocumentSymbolResponse {
    let nowhere = lsp::Range::default();
    DocumentSymbolResponse::Nested(vec![DocumentSymbol {
        name: stand_in,
        detail: None,
        kind: SymbolKind::NULL,
        tags: None,
        deprecated: None,
        range: nowhere,
        selection_range: nowhere,
        children: None,
    }])
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written; `tags` replaces it.
fn document_symbol(s: &Symbol, range: &impl Fn(Span) -> lsp::Range) -> DocumentSymbol {
    let children: Vec<DocumentSymbol> = s
        .children
        .iter()
        .map(|c| document_symbol(c, range))
        .collect();
    DocumentSymbol {
        name: s.name.clone(),
        detail: s.detail.clone(),
        kind: symbol_kind(s.kind),
        tags: None,
        deprecated: None,
        range: range(s.span),
        selection_range: range(s.name_span),
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
