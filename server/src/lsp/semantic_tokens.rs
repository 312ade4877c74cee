//! `textDocument/semanticTokens` (full, range and full/delta), mapped from
//! `ide::semantic_tokens`: the legend, tokens split per line (clients need not support
//! multi-line tokens) and encoded relative to each other, and the last result of each
//! document kept for deltas.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use tower_lsp_server::ls_types::{
    self as lsp, SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens,
    SemanticTokensDelta, SemanticTokensEdit, SemanticTokensLegend, Uri,
};

use super::convert;
use crate::ide::semantic_tokens::{semantic_tokens, Token, TokenKind};
use crate::ide::FileInModule;
use crate::text::lines::LineIndex;
use crate::text::PositionEncoding;
use crate::workspace::Workspace;

/// The token types, in `TokenKind`'s order.
const TYPES: [(TokenKind, SemanticTokenType); 12] = [
    (TokenKind::Namespace, SemanticTokenType::NAMESPACE),
    (TokenKind::Type, SemanticTokenType::TYPE),
    (TokenKind::Class, SemanticTokenType::CLASS),
    (TokenKind::Parameter, SemanticTokenType::PARAMETER),
    (TokenKind::Variable, SemanticTokenType::VARIABLE),
    (TokenKind::Property, SemanticTokenType::PROPERTY),
    (TokenKind::Function, SemanticTokenType::FUNCTION),
    (TokenKind::Keyword, SemanticTokenType::KEYWORD),
    (TokenKind::String, SemanticTokenType::STRING),
    (TokenKind::Number, SemanticTokenType::NUMBER),
    (TokenKind::Operator, SemanticTokenType::OPERATOR),
    (TokenKind::Comment, SemanticTokenType::COMMENT),
];

/// The custom modifier of an argument an override file replaced.
pub const OVERRIDDEN_MODIFIER: &str = "overridden";

/// The legend `initialize` advertises: bit i of a token's modifiers is the i-th of
/// `declaration`, `readonly`, `overridden`, `deprecated` (`ide::semantic_tokens`'s
/// constants).
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.iter().map(|(_, t)| t.clone()).collect(),
        token_modifiers: vec![
            SemanticTokenModifier::DECLARATION,
            SemanticTokenModifier::READONLY,
            SemanticTokenModifier::new(OVERRIDDEN_MODIFIER),
            SemanticTokenModifier::DEPRECATED,
        ],
    }
}

/// The last tokens sent for each document, for `full/delta`.
#[derive(Debug, Default)]
pub struct Results {
    last: Mutex<HashMap<Uri, (String, Vec<SemanticToken>)>>,
    next_id: AtomicU64,
}

impl Results {
    /// Keeps `data` as the document's latest result; its id.
    fn keep(&self, uri: &Uri, data: &[SemanticToken]) -> String {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed).to_string();
        if let Ok(mut last) = self.last.lock() {
            last.insert(uri.clone(), (id.clone(), data.to_vec()));
        }
        id
    }

    /// The document's latest result, if it is `id`.
    fn previous(&self, uri: &Uri, id: &str) -> Option<Vec<SemanticToken>> {
        let last = self.last.lock().ok()?;
        let (kept, data) = last.get(uri)?;
        (kept == id).then(|| data.clone())
    }

    /// Forgets a closed document's result.
    pub fn forget(&self, uri: &Uri) {
        if let Ok(mut last) = self.last.lock() {
            last.remove(uri);
        }
    }
}

/// The tokens of the document at `path`, those inside `range` when given, encoded.
pub fn tokens(
    ws: &Workspace,
    path: &Path,
    range: Option<lsp::Range>,
    encoding: PositionEncoding,
) -> Option<Vec<SemanticToken>> {
    let opened = FileInModule::of(ws, path)?;
    let (file, in_module) = (&opened.file, opened.merged());
    let lines = LineIndex::new(&file.text);
    let schemas = path
        .parent()
        .map(|dir| ws.provider_schemas_for(dir))
        .unwrap_or_else(|| ws.provider_schemas());
    let found = semantic_tokens(file, in_module, &*schemas);
    let (from, to) = match range {
        Some(r) => (
            lines.offset(&file.text, convert::position_in(r.start), encoding),
            lines.offset(&file.text, convert::position_in(r.end), encoding),
        ),
        None => (0, file.text.len()),
    };
    let inside = found
        .into_iter()
        .filter(|t| (t.span.end as usize) > from && (t.span.start as usize) < to);
    Some(encode(&file.text, &lines, inside, encoding))
}

/// A full result, kept for later deltas.
pub fn full(results: &Results, uri: &Uri, data: Vec<SemanticToken>) -> SemanticTokens {
    SemanticTokens {
        result_id: Some(results.keep(uri, &data)),
        data,
    }
}

/// The edit from the result `previous_id` to `data`, or `None` when that result is not
/// the one kept (the caller then sends the full result).
pub fn delta(
    results: &Results,
    uri: &Uri,
    previous_id: &str,
    data: Vec<SemanticToken>,
) -> Option<SemanticTokensDelta> {
    let before = results.previous(uri, previous_id)?;
    let prefix = before.iter().zip(&data).take_while(|(a, b)| a == b).count();
    let room = before.len().min(data.len()) - prefix;
    let suffix = before
        .iter()
        .rev()
        .zip(data.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    let edits = if prefix + suffix == before.len() && before.len() == data.len() {
        Vec::new()
    } else {
        // Positions in the flat array of integers: five per token.
        vec![SemanticTokensEdit {
            start: (prefix * 5) as u32,
            delete_count: ((before.len() - prefix - suffix) * 5) as u32,
            data: Some(data[prefix..data.len() - suffix].to_vec()),
        }]
    };
    Some(SemanticTokensDelta {
        result_id: Some(results.keep(uri, &data)),
        edits,
    })
}

/// Tokens in the LSP's relative encoding, one per line of a token that spans lines.
fn encode(
    text: &str,
    lines: &LineIndex,
    tokens: impl Iterator<Item = Token>,
    encoding: PositionEncoding,
) -> Vec<SemanticToken> {
    let mut out = Vec::new();
    let (mut last_line, mut last_start) = (0u32, 0u32);
    let kind_index = |k: TokenKind| TYPES.iter().position(|(t, _)| *t == k).unwrap_or(0) as u32;
    for token in tokens {
        let (start, end) = (
            token.span.start as usize,
            token.span.end.min(text.len() as u32) as usize,
        );
        let mut piece_start = start;
        while piece_start < end {
            let (line, _) = lines.line_of(piece_start);
            // A piece ends at its line's end, before the line break.
            let Some((_, content_end)) = lines.line_bounds(text, line as usize) else {
                break;
            };
            let next_line = lines
                .line_bounds(text, line as usize + 1)
                .map_or(text.len(), |(s, _)| s);
            let from = lines.position(text, piece_start, encoding);
            let to = lines.position(text, end.min(content_end).max(piece_start), encoding);
            if to.column > from.column {
                let delta_line = from.line - last_line;
                let delta_start = if delta_line == 0 {
                    from.column - last_start
                } else {
                    from.column
                };
                out.push(SemanticToken {
                    delta_line,
                    delta_start,
                    length: to.column - from.column,
                    token_type: kind_index(token.kind),
                    token_modifiers_bitset: token.modifiers,
                });
                (last_line, last_start) = (from.line, from.column);
            }
            // Never stuck: the next line starts after `piece_start`, or the token ends.
            piece_start = end.min(next_line.max(piece_start + 1));
        }
    }
    out
}
