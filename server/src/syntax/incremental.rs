//! Incremental re-parsing after an edit: only the top-level items the edit touched are
//! parsed again. The nodes before the edit are kept as they are; the nodes after it are
//! kept with their spans moved by the edit's length change.
//!
//! The slice that is parsed again runs from the first to the last top-level item the
//! change overlaps (or just the changed text, between items), extended to whole lines.
//! A slice that does not parse is recovered item by item on its own when it is balanced
//! (nothing in it still open at its end, so nothing reaches past it). The whole file is
//! parsed instead when the slice is unbalanced. The slice always covers every problem the
//! previous text had, so the result is always what a full parse would give. After a
//! problem, in the previous text or in the new slice, the slice runs to the end of the
//! file: HCL's parser stays in recovery mode from its first error on, so what follows a
//! problem reads differently once the problem changes.

use std::sync::Arc;

use super::native::Converter;
use super::{recover, scan, traversals};
use super::{
    Attribute, Block, Body, Expr, ExprKind, File, JsonKind, JsonValue, Span, Syntax, TemplatePart,
    TraversalStep,
};

/// Parses `text`, the new text of a native-syntax file whose previous text and clean
/// tree are given, re-parsing only what the edit touched; `None` when a full parse is
/// needed.
pub fn reparse(
    text: &str,
    previous_text: &str,
    previous: &File,
    last_good: Option<&File>,
) -> Option<File> {
    if previous.syntax != Syntax::Native {
        return None;
    }
    // A carriage return not followed by a line feed ends a line for HCL's scanner model
    // (`diagnose`), which reads the whole file once it is broken, but not for the slice's
    // lines: what it marks unread can start on such a line before the slice.
    if has_lone_carriage_return(text) || has_lone_carriage_return(previous_text) {
        return None;
    }
    // Text outside the slice is known clean only where the previous text was balanced:
    // an unclosed construct swallows the rest of the file without diagnostics there.
    if !previous.diagnostics.is_empty() && !scan::is_balanced(previous_text, 0..previous_text.len())
    {
        return None;
    }
    // What HCL skipped follows an error it reported, which the slice covers below; a
    // skipped part without one is a case the slice rules do not cover.
    if previous.diagnostics.is_empty() && !previous.unread.is_empty() {
        return None;
    }
    let prefix = common_prefix(previous_text, text);
    let suffix = common_suffix(&previous_text[prefix..], &text[prefix..]);
    let old_changed_end = previous_text.len() - suffix;
    let delta = text.len() as i64 - previous_text.len() as i64;

    // Top-level items, in source order, each with its span.
    let mut items: Vec<(Span, Item)> = previous
        .body
        .attributes
        .iter()
        .map(|a| (a.span, Item::Attribute(a.clone())))
        .chain(
            previous
                .body
                .blocks
                .iter()
                .map(|b| (b.span, Item::Block(b.clone()))),
        )
        .collect();
    items.sort_by_key(|(span, _)| span.start);

    // The slice: the changed text, every problem the previous text had, and every item
    // any of that touches (an edit right at an item's end touches it too), in whole lines.
    let mut slice_start = prefix;
    let mut old_slice_end = old_changed_end;
    // (And every part HCL skipped: one can come before the first error it reported.)
    let problems = previous.diagnostics.iter().map(|d| d.span);
    for span in problems.chain(previous.unread.iter().copied()) {
        slice_start = slice_start.min(span.start as usize);
        old_slice_end = old_slice_end.max(span.end as usize);
    }
    // After its first error HCL's parser stays in recovery mode to the end of the file
    // (silent about most later errors, skipping everything after a stray token), so what
    // follows a problem may read differently once the problem changes.
    if !previous.diagnostics.is_empty() {
        old_slice_end = previous_text.len();
    }
    // An item that failed is in no tree, and its diagnostic may mark only part of it: with
    // problems in the previous text, take item extents from the scanner (the text was
    // balanced, so these are the items the full parse recovered one by one).
    let recovered: Vec<Span> = if previous.diagnostics.is_empty() {
        Vec::new()
    } else {
        scan::items(previous_text, 0..previous_text.len())
            .into_iter()
            .map(|i| Span::new(i.span.start, i.span.end))
            .collect()
    };
    loop {
        let (start, end) = (slice_start, old_slice_end);
        for span in items.iter().map(|(s, _)| s).chain(recovered.iter()) {
            if (span.start as usize) <= old_slice_end && slice_start <= span.end as usize {
                slice_start = slice_start.min(span.start as usize);
                old_slice_end = old_slice_end.max(span.end as usize);
            }
        }
        slice_start = previous_text[..slice_start]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        old_slice_end = previous_text[old_slice_end..]
            .find('\n')
            .map_or(previous_text.len(), |i| old_slice_end + i);
        if (start, end) == (slice_start, old_slice_end) {
            break;
        }
    }
    // The text after the slice is read as before only when the lexical state there is the
    // same: nothing the text before the slice or the replaced slice opened (a block
    // comment, string, heredoc or bracket) may still be open (the new slice is checked
    // when it is parsed).
    if !scan::is_balanced(previous_text, 0..slice_start)
        || !scan::is_balanced(previous_text, slice_start..old_slice_end)
    {
        return None;
    }
    if previous.body.blocks.iter().any(|b| b.stale) {
        return None;
    }
    let edit = Edit {
        text,
        previous_text,
        previous,
        last_good,
        items: &items,
        delta,
    };
    edit.splice(slice_start, old_slice_end)
}

/// One edit of a file: both texts, the previous tree's top-level items in source order,
/// and the edit's length change.
struct Edit<'a> {
    text: &'a str,
    previous_text: &'a str,
    previous: &'a File,
    last_good: Option<&'a File>,
    items: &'a [(Span, Item)],
    delta: i64,
}

impl Edit<'_> {
    /// The new tree: the previous items outside `slice_start..old_slice_end` (of the
    /// previous text) kept, the slice parsed again; `None` when a full parse is needed.
    fn splice(&self, slice_start: usize, old_slice_end: usize) -> Option<File> {
        let (text, delta) = (self.text, self.delta);
        let new_slice_end = (old_slice_end as i64 + delta) as usize;
        if new_slice_end < slice_start || new_slice_end > text.len() {
            return None;
        }
        let slice = text.get(slice_start..new_slice_end)?;
        // The items kept from the previous tree, where they stand in the new text.
        let kept: Vec<Span> = self
            .items
            .iter()
            .filter_map(|(span, _)| {
                if (span.end as usize) <= slice_start {
                    Some(*span)
                } else if (span.start as usize) >= old_slice_end {
                    Some(Span::new(
                        (span.start as i64 + delta) as usize,
                        (span.end as i64 + delta) as usize,
                    ))
                } else {
                    None
                }
            })
            .collect();
        let (reparsed, diagnostics, unread) = parse_slice(
            text,
            slice_start..new_slice_end,
            slice,
            self.last_good,
            &kept,
        )?;
        // A problem in the slice puts HCL's parser in recovery mode for the rest of the
        // file (see `reparse`): the slice then runs to the end of the file.
        let problem = !diagnostics.is_empty() || !unread.is_empty();
        if problem && old_slice_end < self.previous_text.len() {
            return self.splice(slice_start, self.previous_text.len());
        }

        // hcl-edit checks top-level attribute names across the whole body: a name the
        // slice repeats needs the whole file.
        let kept_names: Vec<&str> = self
            .previous
            .body
            .attributes
            .iter()
            .filter(|a| {
                (a.span.end as usize) <= slice_start || (a.span.start as usize) >= old_slice_end
            })
            .map(|a| &*a.name.name)
            .collect();
        if reparsed
            .attributes
            .iter()
            .any(|a| kept_names.contains(&&*a.name.name))
        {
            return None;
        }
        let mut body = Body::default();
        for (span, item) in self.items {
            if (span.end as usize) <= slice_start {
                item.push_into(&mut body, 0);
            } else if (span.start as usize) >= old_slice_end {
                item.push_into(&mut body, delta);
            }
        }
        body.attributes.extend(reparsed.attributes);
        body.blocks.extend(reparsed.blocks);
        body.attributes.sort_by_key(|a| a.span.start);
        body.blocks.sort_by_key(|b| b.span.start);
        // HCL counts some scanner errors over the whole file, as the full parse does.
        let mut diagnostics = diagnostics;
        super::scanner_errors::count_per_file(text, &[], &mut diagnostics);
        Some(File {
            syntax: Syntax::Native,
            body,
            diagnostics,
            unread,
        })
    }
}

/// Parses the slice as the full parse would parse those items: whole, then with the
/// newlines HCL ignores blanked, then item by item with recovery, the last only when the
/// slice is balanced (so that no error in it can reach past it).
fn parse_slice(
    text: &str,
    range: std::ops::Range<usize>,
    slice: &str,
    last_good: Option<&File>,
    kept: &[Span],
) -> Option<(Body, Vec<super::SyntaxDiagnostic>, Vec<Span>)> {
    let converter = Converter::new(range.start);
    let parsed = hcl_edit::parser::parse_body(slice).ok().or_else(|| {
        let blanked = scan::blank_ignored_newlines(slice)?;
        hcl_edit::parser::parse_body(&blanked).ok()
    });
    if let Some(body) = parsed.filter(|_| !scan::hcl_refuses(text, range.clone())) {
        let body = converter.body(body);
        let diagnostics = traversals::diagnose(text, &body);
        return Some((body, diagnostics, Vec::new()));
    }
    // Recovering only the slice gives what recovering the whole file gives when the whole
    // text is balanced (the full parse then splits items the plain way) and the slice
    // starts and ends between items (at nesting depth zero).
    let balanced = scan::is_balanced(text, 0..range.start)
        && scan::is_balanced(text, range.clone())
        && scan::is_balanced(text, 0..text.len());
    if !balanced {
        return None;
    }
    // The full parse would recover the whole text item by item, splitting where the
    // scanner splits: every kept item must be one of those items (the scanner and the
    // parser can disagree, e.g. on a quoted string across lines).
    let split: std::collections::HashSet<(u32, u32)> = scan::items(text, 0..text.len())
        .into_iter()
        .map(|i| (i.span.start as u32, i.span.end as u32))
        .collect();
    if !kept.iter().all(|s| split.contains(&(s.start, s.end))) {
        return None;
    }
    let recovered = recover::recover_range(text, range, last_good, &[]);
    Some((recovered.body, recovered.diagnostics, recovered.unread))
}

enum Item {
    Attribute(Arc<Attribute>),
    Block(Arc<Block>),
}

impl Item {
    /// Adds the item, moved by `delta` bytes, to `body` (shared unless it moved).
    fn push_into(&self, body: &mut Body, delta: i64) {
        match self {
            Item::Attribute(a) => {
                let mut a = a.clone();
                if delta != 0 {
                    Arc::make_mut(&mut a).shift(delta);
                }
                body.attributes.push(a);
            }
            Item::Block(b) => {
                let mut b = b.clone();
                if delta != 0 {
                    Arc::make_mut(&mut b).shift(delta);
                }
                body.blocks.push(b);
            }
        }
    }
}

fn common_prefix(a: &str, b: &str) -> usize {
    let n = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    // Back off to a character boundary.
    (0..=n)
        .rev()
        .find(|&i| a.is_char_boundary(i) && b.is_char_boundary(i))
        .unwrap_or(0)
}

fn common_suffix(a: &str, b: &str) -> usize {
    let n = a
        .bytes()
        .rev()
        .zip(b.bytes().rev())
        .take_while(|(x, y)| x == y)
        .count();
    (0..=n)
        .rev()
        .find(|&i| a.is_char_boundary(a.len() - i) && b.is_char_boundary(b.len() - i))
        .unwrap_or(0)
}

fn shift_span(span: &mut Span, delta: i64) {
    span.start = (span.start as i64 + delta) as u32;
    span.end = (span.end as i64 + delta) as u32;
}

impl Block {
    /// Moves every span of the block by `delta` bytes.
    fn shift(&mut self, delta: i64) {
        shift_span(&mut self.span, delta);
        shift_span(&mut self.kind.span, delta);
        self.labels
            .iter_mut()
            .for_each(|l| shift_span(&mut l.span, delta));
        for a in &mut self.body.attributes {
            Arc::make_mut(a).shift(delta);
        }
        for b in &mut self.body.blocks {
            Arc::make_mut(b).shift(delta);
        }
    }
}

impl Attribute {
    /// Moves every span of the attribute by `delta` bytes.
    fn shift(&mut self, delta: i64) {
        shift_span(&mut self.span, delta);
        shift_span(&mut self.name.span, delta);
        self.expr.shift(delta);
    }
}

impl Expr {
    /// Moves every span of the expression by `delta` bytes.
    fn shift(&mut self, delta: i64) {
        shift_span(&mut self.span, delta);
        match &mut self.kind {
            ExprKind::Variable(id) => shift_span(&mut id.span, delta),
            ExprKind::Traversal { root, steps } => {
                root.shift(delta);
                for step in steps {
                    match step {
                        TraversalStep::Attr(id) => shift_span(&mut id.span, delta),
                        TraversalStep::Index(e) => e.shift(delta),
                        TraversalStep::LegacyIndex(_, s)
                        | TraversalStep::AttrSplat(s)
                        | TraversalStep::FullSplat(s) => shift_span(s, delta),
                    }
                }
            }
            ExprKind::FuncCall { name, args, .. } => {
                shift_span(&mut name.span, delta);
                args.iter_mut().for_each(|a| a.shift(delta));
            }
            ExprKind::Tuple(items) => items.iter_mut().for_each(|e| e.shift(delta)),
            ExprKind::Object(items) => items.iter_mut().for_each(|(k, v)| {
                k.shift(delta);
                v.shift(delta);
            }),
            ExprKind::Conditional(parts) => parts.iter_mut().for_each(|e| e.shift(delta)),
            ExprKind::Binary { operands, .. } => operands.iter_mut().for_each(|e| e.shift(delta)),
            ExprKind::Unary { expr, .. } | ExprKind::Parens(expr) => expr.shift(delta),
            ExprKind::Template(parts) => shift_template(parts, delta),
            ExprKind::For(f) => {
                if let Some(k) = &mut f.key_var {
                    shift_span(&mut k.span, delta);
                }
                shift_span(&mut f.value_var.span, delta);
                f.collection.shift(delta);
                if let Some(k) = &mut f.key {
                    k.shift(delta);
                }
                f.value.shift(delta);
                if let Some(c) = &mut f.condition {
                    c.shift(delta);
                }
            }
            ExprKind::Json(v) => shift_json(v, delta),
            ExprKind::Null
            | ExprKind::Bool(_)
            | ExprKind::Number(_)
            | ExprKind::String(_)
            | ExprKind::Unanalysed
            | ExprKind::Missing => {}
        }
    }
}

fn shift_template(parts: &mut [TemplatePart], delta: i64) {
    for part in parts {
        match part {
            TemplatePart::Literal(_) => {}
            TemplatePart::Interpolation(e) => e.shift(delta),
            TemplatePart::If {
                condition,
                then,
                otherwise,
            } => {
                condition.shift(delta);
                shift_template(then, delta);
                shift_template(otherwise, delta);
            }
            TemplatePart::For {
                key_var,
                value_var,
                collection,
                body,
            } => {
                if let Some(k) = key_var {
                    shift_span(&mut k.span, delta);
                }
                shift_span(&mut value_var.span, delta);
                collection.shift(delta);
                shift_template(body, delta);
            }
        }
    }
}

fn shift_json(v: &mut JsonValue, delta: i64) {
    shift_span(&mut v.span, delta);
    match &mut v.kind {
        JsonKind::Array(items) => items.iter_mut().for_each(|i| shift_json(i, delta)),
        JsonKind::Object(props) => props.iter_mut().for_each(|(k, v)| {
            shift_span(&mut k.span, delta);
            shift_json(v, delta);
        }),
        _ => {}
    }
}

/// Whether `text` holds a carriage return that no line feed follows.
fn has_lone_carriage_return(text: &str) -> bool {
    text.match_indices('\r')
        .any(|(i, _)| text.as_bytes().get(i + 1) != Some(&b'\n'))
}

#[cfg(test)]
#[path = "incremental_tests.rs"]
mod tests;
