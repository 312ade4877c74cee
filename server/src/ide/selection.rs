//! Selection ranges: from the smallest syntax around a position outwards, expression →
//! argument → block → file, for "expand selection".

use crate::syntax::{self, Body, ExprKind, JsonKind, JsonValue, Span};

/// The spans around `offset`, innermost first, each containing the one before; the last
/// is the whole file.
pub fn selection_ranges(text: &str, file: &syntax::File, offset: usize) -> Vec<Span> {
    let mut spans = vec![Span::new(0, text.len())];
    body_spans(&file.body, offset, &mut spans);
    // Outer spans were pushed before inner ones; keep each strictly inside the last kept.
    let mut chain: Vec<Span> = Vec::new();
    for span in spans {
        let inside = chain
            .last()
            .is_none_or(|outer| outer.start <= span.start && span.end <= outer.end);
        if inside && chain.last() != Some(&span) {
            chain.push(span);
        }
    }
    chain.reverse();
    chain
}

/// Whether `span` holds `offset`, its end included (a cursor just after a word is on it).
fn holds(span: Span, offset: usize) -> bool {
    span.start as usize <= offset && offset <= span.end as usize
}

fn body_spans(body: &Body, offset: usize, out: &mut Vec<Span>) {
    for attribute in body.attributes.iter().filter(|a| holds(a.span, offset)) {
        out.push(attribute.span);
        if holds(attribute.name.span, offset) {
            out.push(attribute.name.span);
        }
        let mut inner = Vec::new();
        attribute.expr.walk(&mut |e| {
            if !holds(e.span, offset) {
                return;
            }
            inner.push(e.span);
            if let ExprKind::Json(value) = &e.kind {
                json_spans(value, offset, &mut inner);
            }
        });
        // `walk` visits an expression before those nested in it, but siblings' spans can
        // touch at the offset: the widest first.
        inner.sort_by_key(|s| (s.start, std::cmp::Reverse(s.end)));
        out.extend(inner);
    }
    for block in body.blocks.iter().filter(|b| holds(b.span, offset)) {
        out.push(block.span);
        for ident in std::iter::once(&block.kind).chain(&block.labels) {
            if holds(ident.span, offset) {
                out.push(ident.span);
            }
        }
        body_spans(&block.body, offset, out);
    }
}

fn json_spans(value: &JsonValue, offset: usize, out: &mut Vec<Span>) {
    let children: Vec<&JsonValue> = match &value.kind {
        JsonKind::Object(properties) => properties.iter().map(|(_, v)| v).collect(),
        JsonKind::Array(items) => items.iter().collect(),
        _ => Vec::new(),
    };
    for child in children.into_iter().filter(|v| holds(v.span, offset)) {
        out.push(child.span);
        json_spans(child, offset, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_from_expression_to_argument_to_block_to_file() {
        let text = "resource \"a\" \"b\" {\n  n = max(1, 22)\n}\n";
        let file = syntax::parse(text, syntax::Syntax::Native, None);
        let at = text.find("22").unwrap_or(0) + 1;
        let chain: Vec<&str> = selection_ranges(text, &file, at)
            .iter()
            .map(|s| &text[s.range()])
            .collect();
        assert_eq!(
            chain,
            ["22", "max(1, 22)", "n = max(1, 22)", text.trim_end(), text]
        );
    }
}
