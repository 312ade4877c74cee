//! `textDocument/semanticTokens` (full, range and full/delta), mapped from
//! `ide::semantic_tokens`: the legend, tokens split per line (clients need not support
//! multi-line tokens) and encoded relative to each other, and the last result of each
//! document kept for deltas.
//!
//! A document's tokens are found once per version of it (and of its module's merged
//! model and provider schemas, which mark overridden and deprecated names) and kept with
//! their encoding and its JSON text: an editor asks again on every focus and scroll, and
//! a full answer for a large file is tens of thousands of numbers, which cost more to
//! turn into JSON than to find (the handler answers with a stand-in for that text,
//! `transport::Prepared`).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tower_lsp_server::ls_types::{
    self as lsp, SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens,
    SemanticTokensDelta, SemanticTokensEdit, SemanticTokensLegend, Uri,
};

use super::convert;
use crate::ide::semantic_tokens::{semantic_tokens, Token, TokenKind};
use crate::ide::FileInModule;
use crate::merge::MergedModule;
use crate::module::SourceFile;
use crate::schema::ProviderSchemaSource;
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

/// The last tokens sent for each document (for `full/delta`), and each open document's
/// tokens as found for its current version.
#[derive(Debug, Default)]
pub struct Results {
    last: Mutex<HashMap<Uri, SentTokens>>,
    next_id: AtomicU64,
    found: Mutex<HashMap<PathBuf, Found>>,
}

/// The id of the last tokens sent for a document, and those tokens.
type SentTokens = (String, Arc<[SemanticToken]>);

/// A document's tokens and what they were found from.
#[derive(Debug)]
struct Found {
    merged: Option<Arc<MergedModule>>,
    schemas: Arc<dyn ProviderSchemaSource>,
    encoding: PositionEncoding,
    tokens: Arc<Tokens>,
}

/// One version of a document's tokens: as found, encoded, and the encoding's JSON text.
#[derive(Debug)]
pub struct Tokens {
    file: Arc<SourceFile>,
    lines: LineIndex,
    found: Vec<Token>,
    data: Arc<[SemanticToken]>,
    /// `data` as the JSON array of a full answer.
    json: Vec<u8>,
}

impl Results {
    /// Keeps `data` as the document's latest result; its id.
    fn keep(&self, uri: &Uri, data: &Arc<[SemanticToken]>) -> String {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed).to_string();
        if let Ok(mut last) = self.last.lock() {
            last.insert(uri.clone(), (id.clone(), data.clone()));
        }
        id
    }

    /// The document's latest result, if it is `id`.
    fn previous(&self, uri: &Uri, id: &str) -> Option<Arc<[SemanticToken]>> {
        let last = self.last.lock().ok()?;
        let (kept, data) = last.get(uri)?;
        (kept == id).then(|| data.clone())
    }

    /// Forgets a closed document's results and tokens.
    pub fn forget(&self, uri: &Uri, path: Option<&Path>) {
        if let Ok(mut last) = self.last.lock() {
            last.remove(uri);
        }
        if let (Ok(mut found), Some(path)) = (self.found.lock(), path) {
            found.remove(path);
        }
    }
}

/// The tokens of the document at `path`, found again only when it, its module's merged
/// model or its provider schemas changed.
pub fn tokens(
    results: &Results,
    ws: &Workspace,
    path: &Path,
    encoding: PositionEncoding,
) -> Option<Arc<Tokens>> {
    let opened = FileInModule::of(ws, path)?;
    let schemas = path
        .parent()
        .map(|dir| ws.provider_schemas_for(dir))
        .unwrap_or_else(|| ws.provider_schemas());
    let made_from = |f: &Found| {
        let same_merge = match (&f.merged, opened.merged_module()) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        Arc::ptr_eq(&f.tokens.file, &opened.file)
            && same_merge
            && Arc::ptr_eq(&f.schemas, &schemas)
            && f.encoding == encoding
    };
    if let Ok(found) = results.found.lock() {
        if let Some(kept) = found.get(path).filter(|f| made_from(f)) {
            return Some(kept.tokens.clone());
        }
    }
    let file = opened.file.clone();
    let lines = LineIndex::new(&file.text);
    let found = semantic_tokens(&file, opened.merged(), &*schemas);
    let data: Arc<[SemanticToken]> = encode(&file.text, &lines, found.iter(), encoding).into();
    let json = json_array(&data);
    let tokens = Arc::new(Tokens {
        file,
        lines,
        found,
        data,
        json,
    });
    // Kept for open documents only, which `didClose` forgets.
    if let Some(mut kept) = results.found.lock().ok().filter(|_| ws.is_open(path)) {
        let found = Found {
            merged: opened.merged_module().cloned(),
            schemas,
            encoding,
            tokens: tokens.clone(),
        };
        kept.insert(path.to_path_buf(), found);
    }
    Some(tokens)
}

/// The encoded tokens inside `range`.
pub fn in_range(
    tokens: &Tokens,
    range: lsp::Range,
    encoding: PositionEncoding,
) -> Vec<SemanticToken> {
    let text = &tokens.file.text;
    let from = tokens
        .lines
        .offset(text, convert::position_in(range.start), encoding);
    let to = tokens
        .lines
        .offset(text, convert::position_in(range.end), encoding);
    let inside = tokens
        .found
        .iter()
        .filter(|t| (t.span.end as usize) > from && (t.span.start as usize) < to);
    encode(text, &tokens.lines, inside, encoding)
}

/// A full result, kept for later deltas: the JSON text of the answer.
pub fn full(results: &Results, uri: &Uri, tokens: &Tokens) -> Arc<[u8]> {
    let id = results.keep(uri, &tokens.data);
    let mut json = Vec::with_capacity(tokens.json.len() + id.len() + 24);
    json.extend_from_slice(b"{\"resultId\":\"");
    json.extend_from_slice(id.as_bytes());
    json.extend_from_slice(b"\",\"data\":");
    json.extend_from_slice(&tokens.json);
    json.push(b'}');
    json.into()
}

/// The answer whose result id is `stand_in`, which the transport replaces with the
/// prepared full result.
pub fn stand_in(stand_in: String) -> SemanticTokens {
    SemanticTokens {
        result_id: Some(stand_in),
        data: Vec::new(),
    }
}

/// The edit from the result `previous_id` to `tokens`, or `None` when that result is not
/// the one kept (the caller then sends the full result).
pub fn delta(
    results: &Results,
    uri: &Uri,
    previous_id: &str,
    tokens: &Tokens,
) -> Option<SemanticTokensDelta> {
    let before = results.previous(uri, previous_id)?;
    let data = &tokens.data;
    let prefix = before
        .iter()
        .zip(data.iter())
        .take_while(|(a, b)| a == b)
        .count();
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
        result_id: Some(results.keep(uri, data)),
        edits,
    })
}

/// The flat JSON array of integers LSP sends tokens as, five per token.
fn json_array(data: &[SemanticToken]) -> Vec<u8> {
    let mut json = Vec::with_capacity(data.len() * 5 * 3 + 2);
    json.push(b'[');
    for t in data {
        let numbers = [
            t.delta_line,
            t.delta_start,
            t.length,
            t.token_type,
            t.token_modifiers_bitset,
        ];
        for n in numbers {
            if json.len() > 1 {
                json.push(b',');
            }
            // Writing to a vector cannot fail.
            let _ = write!(json, "{n}");
        }
    }
    json.push(b']');
    json
}

/// Tokens in the LSP's relative encoding, one per line of a token that spans lines.
fn encode<'a>(
    text: &str,
    lines: &LineIndex,
    tokens: impl Iterator<Item = &'a Token>,
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
