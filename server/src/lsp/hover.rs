//! Hover: what the syntax node under the cursor is, as written. (The effective merged
//! block replaces this once override merging exists.)

use ropey::Rope;
use tower_lsp_server::ls_types::{self as lsp, Hover, HoverContents, MarkupContent, MarkupKind};

use super::convert;
use crate::module::SourceFile;
use crate::syntax::{Body, Span};
use crate::text::{self, PositionEncoding};

/// The hover at `position` in `file`: the attribute (`name = value`) or the header of the
/// block under the cursor, innermost first.
pub fn hover(
    file: &SourceFile,
    position: lsp::Position,
    encoding: PositionEncoding,
) -> Option<Hover> {
    let rope = Rope::from_str(&file.text);
    let offset = text::byte_offset(&rope, convert::position_in(position), encoding);
    let (span, shown) = node_at(&file.syntax.body, &file.text, offset)?;
    let value = format!("```hcl\n{shown}\n```\n\n*{}*", file.name());
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: Some(convert::range(&rope, span, encoding)),
    })
}

fn node_at(body: &Body, text: &str, offset: usize) -> Option<(Span, String)> {
    for attr in &body.attributes {
        if attr.span.contains(offset) {
            return Some((attr.span, slice(text, attr.span)));
        }
    }
    for block in &body.blocks {
        if !block.span.contains(offset) || block.stale {
            continue;
        }
        if let Some(inner) = node_at(&block.body, text, offset) {
            return Some(inner);
        }
        let header_end = block
            .labels
            .last()
            .map_or(block.kind.span.end, |l| l.span.end);
        let header = Span {
            start: block.kind.span.start,
            end: header_end,
        };
        return Some((header, block.header()));
    }
    None
}

fn slice(text: &str, span: Span) -> String {
    text.get(span.range()).unwrap_or_default().to_string()
}
