//! Completion and signature help for the editor: `ide::completion`'s items and
//! `ide::signature_help`'s signature mapped to LSP types, each item replacing the name
//! around the cursor through a text edit. The items of `ide::completion`'s prepared lists
//! (a provider's resource types) are serialised once per list (`Lists`), so that such an
//! answer is their JSON narrowed to what is typed, around the request's one range.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError, Weak};

use memchr::memmem;

use ropey::Rope;
use tower_lsp_server::ls_types::{
    self as lsp, CompletionItem, CompletionItemKind, CompletionResponse, CompletionTextEdit,
    Documentation, InsertTextFormat, MarkupContent, MarkupKind, ParameterInformation,
    ParameterLabel, SignatureHelp, SignatureInformation, TextEdit,
};

use super::convert;
use crate::ide::completion::{
    self, Item, ItemKind, Options, PreparedList, PreparedLists, Suggestions,
};
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
    lists: &Lists,
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
    let suggestions = completion::suggest(&lists.prepared, ws, path, offset, options);
    let suggestions = match suggestions {
        Suggestions::Prepared {
            list,
            matching,
            range: replaced,
        } => match lists.serialised(&list) {
            Some(pieces) => return pieces.answer(&matching, range(&replaced)),
            None => Suggestions::Prepared {
                list,
                matching,
                range: replaced,
            },
        },
        built => built,
    };
    let items: Vec<CompletionItem> = suggestions
        .into_items()
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

/// The prepared lists of suggestions and their items serialised, kept between requests.
#[derive(Debug, Default)]
pub struct Lists {
    prepared: PreparedLists,
    serialised: Mutex<VecDeque<(Weak<PreparedList>, Arc<Pieces>)>>,
}

/// How many serialised lists are kept (as many as `ide` keeps).
const SERIALISED: usize = 12;

impl Lists {
    /// The items of `list` serialised, from the kept ones; `None` if an item could not
    /// be split around its range (the answer is then serialised as any other).
    fn serialised(&self, list: &Arc<PreparedList>) -> Option<Arc<Pieces>> {
        let mut kept = self
            .serialised
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let weak = Arc::downgrade(list);
        if let Some((_, pieces)) = kept.iter().find(|(l, _)| Weak::ptr_eq(l, &weak)) {
            return Some(pieces.clone());
        }
        let pieces = Arc::new(Pieces::of(list.items())?);
        kept.retain(|(l, _)| l.strong_count() > 0);
        if kept.len() >= SERIALISED {
            kept.pop_front();
        }
        kept.push_back((weak, pieces.clone()));
        Some(pieces)
    }
}

/// One item as JSON: what comes before the range of its text edit, and after it.
type Piece = (Box<[u8]>, Box<[u8]>);

/// Each item of a list as JSON, split where the range of its text edit goes.
#[derive(Debug)]
struct Pieces(Vec<Piece>);

impl Pieces {
    /// The items serialised with a stand-in range, split around it: the stand-in is an
    /// object, which no string of an item can hold unescaped.
    fn of(items: &[Item]) -> Option<Self> {
        let most = lsp::Position::new(u32::MAX, u32::MAX);
        let stand_in = lsp::Range::new(most, most);
        let needle = serde_json::to_vec(&stand_in).ok()?;
        let mut pieces = Vec::with_capacity(items.len());
        for item in items {
            let json = serde_json::to_vec(&lsp_item(item.clone(), stand_in)).ok()?;
            let at = memmem::find(&json, &needle)?;
            let (before, rest) = json.split_at(at);
            pieces.push((before.into(), rest[needle.len()..].into()));
        }
        Some(Self(pieces))
    }

    /// The answer holding the items at `matching`, each replacing `range`.
    fn answer(&self, matching: &[u32], range: lsp::Range) -> Option<Arc<[u8]>> {
        let range = serde_json::to_vec(&range).ok()?;
        let chosen: Vec<&Piece> = matching
            .iter()
            .filter_map(|&i| self.0.get(i as usize))
            .collect();
        let bytes = chosen
            .iter()
            .map(|(before, after)| before.len() + range.len() + after.len() + 1)
            .sum::<usize>();
        let mut json = Vec::with_capacity(bytes + 2);
        json.push(b'[');
        for (n, (before, after)) in chosen.into_iter().enumerate() {
            if n > 0 {
                json.push(b',');
            }
            json.extend_from_slice(before);
            json.extend_from_slice(&range);
            json.extend_from_slice(after);
        }
        json.push(b']');
        Some(json.into())
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prepared_answer_is_its_items_serialised_with_the_range() {
        let labels = ["b_two", "a_one", "a_\"quoted\"\\", "a_é"];
        let items = labels
            .iter()
            .map(|l| Item::plain(*l, ItemKind::Type, 0).detail("registry.terraform.io/x/y"))
            .collect();
        let list = PreparedList::new(items);
        let range = lsp::Range::new(lsp::Position::new(3, 10), lsp::Position::new(3, 12));
        let pieces = Pieces::of(list.items()).expect("split around the range");
        for typed in ["a_", "", "zzz"] {
            let matching = list.matching(typed);
            let answer = pieces.answer(&matching, range).expect("answer");
            let items = matching
                .iter()
                .map(|&i| lsp_item(list.items()[i as usize].clone(), range))
                .collect();
            let serialised = serde_json::to_vec(&CompletionResponse::Array(items)).expect("json");
            assert_eq!(
                String::from_utf8_lossy(&answer),
                String::from_utf8_lossy(&serialised)
            );
        }
    }
}
