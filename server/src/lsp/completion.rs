//! Completion and signature help for the editor: `ide::completion`'s items and
//! `ide::signature_help`'s signature mapped to LSP types, each item replacing the name
//! around the cursor through a text edit.

use std::path::Path;
use std::sync::Arc;

use ropey::Rope;
use tower_lsp_server::ls_types::{
    self as lsp, CompletionItem, CompletionItemKind, CompletionResponse, CompletionTextEdit,
    Documentation, InsertTextFormat, MarkupContent, MarkupKind, ParameterInformation,
    ParameterLabel, SignatureHelp, SignatureInformation, TextEdit,
};

use super::convert;
use crate::ide::completion::{self, Item, ItemKind, Options};
use crate::ide::signature_help;
use crate::syntax::Span;
use crate::text::lines::LineIndex;
use crate::text::{self, PositionEncoding};
use crate::workspace::Workspace;

/// The characters after which the client asks for completion without being told: a
/// reference's next step, a label's opening quote, a value after `=`.
pub const TRIGGERS: &[&str] = &[".", "\"", "="];

/// The characters that open and continue a call's arguments.
pub const SIGNATURE_TRIGGERS: &[&str] = &["(", ","];

/// The completion list at `position` of the file at `path`, as the JSON text of the
/// answer: with every resource type of a large provider it holds thousands of items,
/// which cost more to turn into JSON through `serde_json::Value` than to find (the handler
/// answers with a stand-in for that text, `transport::Prepared`).
pub fn completion(
    ws: &Workspace,
    path: &Path,
    position: lsp::Position,
    encoding: PositionEncoding,
    options: Options,
) -> Option<Arc<[u8]>> {
    let file = ws.file(path)?;
    let lines = LineIndex::new(&file.text);
    let offset = lines.offset(&file.text, convert::position_in(position), encoding);
    // Every item replaces the same name: its range is converted once.
    let mut last: Option<(std::ops::Range<usize>, lsp::Range)> = None;
    let mut range = |r: &std::ops::Range<usize>| match &last {
        Some((kept, range)) if kept == r => *range,
        _ => {
            let span = Span::new(r.start, r.end);
            let range = convert::range_by_lines(&lines, &file.text, span, encoding);
            last = Some((r.clone(), range));
            range
        }
    };
    let items: Vec<CompletionItem> = completion::complete(ws, path, offset, options)
        .into_iter()
        .map(|item| {
            let range = range(&item.range);
            lsp_item(item, range)
        })
        .collect();
    // Plain strings and numbers: serialising cannot fail.
    let json = serde_json::to_vec(&CompletionResponse::Array(items)).ok()?;
    Some(json.into())
}

/// The answer whose one item's label is `stand_in`, which the transport replaces with the
/// prepared list.
pub fn stand_in(stand_in: String) -> CompletionResponse {
    CompletionResponse::Array(vec![CompletionItem {
        label: stand_in,
        ..Default::default()
    }])
}

fn lsp_item(item: Item, range: lsp::Range) -> CompletionItem {
    CompletionItem {
        label: item.label,
        kind: Some(kind(item.kind)),
        detail: item.detail,
        documentation: item.documentation.map(|value| {
            Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            })
        }),
        sort_text: Some(item.sort),
        insert_text_format: Some(if item.insert.snippet {
            InsertTextFormat::SNIPPET
        } else {
            InsertTextFormat::PLAIN_TEXT
        }),
        text_edit: Some(CompletionTextEdit::Edit(TextEdit {
            range,
            new_text: item.insert.text,
        })),
        ..Default::default()
    }
}

fn kind(kind: ItemKind) -> CompletionItemKind {
    match kind {
        ItemKind::Block => CompletionItemKind::CLASS,
        ItemKind::Argument => CompletionItemKind::PROPERTY,
        ItemKind::Keyword => CompletionItemKind::KEYWORD,
        ItemKind::Value => CompletionItemKind::VALUE,
        ItemKind::Variable => CompletionItemKind::VARIABLE,
        ItemKind::Object => CompletionItemKind::MODULE,
        ItemKind::Type => CompletionItemKind::STRUCT,
        ItemKind::Attribute => CompletionItemKind::FIELD,
        ItemKind::Function => CompletionItemKind::FUNCTION,
    }
}

/// The signature help at `position` of the file at `path`.
pub fn signature(
    ws: &Workspace,
    path: &Path,
    position: lsp::Position,
    encoding: PositionEncoding,
) -> Option<SignatureHelp> {
    let file = ws.file(path)?;
    let rope = Rope::from_str(&file.text);
    let offset = text::byte_offset(&rope, convert::position_in(position), encoding);
    let help = signature_help::signature_help(ws, path, offset)?;
    // Parameter labels are offsets into the label, in UTF-16 code units.
    let utf16 = |byte: usize| help.label[..byte].encode_utf16().count() as u32;
    let parameters = help
        .parameters
        .iter()
        .map(|(range, doc)| ParameterInformation {
            label: ParameterLabel::LabelOffsets([utf16(range.start), utf16(range.end)]),
            documentation: doc.clone().map(|value| {
                Documentation::MarkupContent(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value,
                })
            }),
        })
        .collect();
    let active = help.active_parameter.map(|a| a as u32);
    Some(SignatureHelp {
        signatures: vec![SignatureInformation {
            label: help.label.clone(),
            documentation: help.documentation.map(|value| {
                Documentation::MarkupContent(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value,
                })
            }),
            parameters: Some(parameters),
            active_parameter: active,
        }],
        active_signature: Some(0),
        active_parameter: active,
    })
}

/// Whether the client expands snippets in completion items.
pub fn snippet_support(params: &lsp::InitializeParams) -> bool {
    params
        .capabilities
        .text_document
        .as_ref()
        .and_then(|t| t.completion.as_ref())
        .and_then(|c| c.completion_item.as_ref())
        .and_then(|i| i.snippet_support)
        .unwrap_or(false)
}
