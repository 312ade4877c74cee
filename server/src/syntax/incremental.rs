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
//! problem in the previous text the slice runs to the end of the file: HCL's parser stays
//! in recovery mode from its first error on, silent about most later errors, so what
//! follows a problem reads differently once the problem changes. A problem in the new
//! slice only silences what follows it, and the items after the slice of a text without
//! problems have nothing to silence: they are kept, and what a stray token in the slice
//! skips past it is found by reading on (`diagnose::skipped`), as the full parse does.

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
    for d in &previous.diagnostics {
        slice_start = slice_start.min(d.span.start as usize);
        old_slice_end = old_slice_end.max(d.span.end as usize);
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
        previous,
        last_good,
        items: &items,
        delta,
    };
    edit.splice(slice_start, old_slice_end)
}

/// One edit of a file: the new text, the previous tree and its top-level items in source
/// order, and the edit's length change.
struct Edit<'a> {
    text: &'a str,
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
    if let Some(body) = parsed {
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
            | ExprKind::Unanalysed => {}
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse;

    /// A clean edit is re-parsed incrementally, to exactly the tree a full parse gives.
    fn same_as_full(before: &str, after: &str) {
        let previous = parse(before, Syntax::Native, None);
        let full = parse(after, Syntax::Native, None);
        let incremental = reparse(after, before, &previous, None)
            .unwrap_or_else(|| panic!("no incremental parse for {after:?}"));
        assert_eq!(incremental, full, "{before:?} -> {after:?}");
    }

    #[test]
    fn edits_give_the_tree_a_full_parse_gives() {
        let base = "variable \"a\" {\n  default = 1\n}\n\nlocals {\n  x = \"é\"\n}\n\nresource \"t\" \"n\" {\n  v = [1, 2]\n  nested {\n    k = var.a\n  }\n}\n";
        let edits = [
            base.replace("default = 1", "default = 12"),
            base.replace("x = \"é\"", "x = \"éé\"\n  y = 2"),
            base.replace("v = [1, 2]", "v = [1]"),
            format!("# top\n{base}"),
            format!("{base}\noutput \"o\" {{\n  value = 1\n}}\n"),
            base.replace("\nlocals {", "\n\n\nlocals {"),
            base.replace("resource \"t\" \"n\" {", "resource \"t\" \"m\" {"),
            base.replace("locals {\n  x = \"é\"\n}\n", ""),
        ];
        for after in &edits {
            same_as_full(base, after);
        }
    }

    #[test]
    fn breaking_and_mending_edits_give_the_tree_and_errors_a_full_parse_gives() {
        let base = "variable \"a\" {\n  default = 1\n}\n\nvariable \"b\" {\n  default = 2\n}\n";
        let broken = format!("#{base}");
        let previous = parse(base, Syntax::Native, None);
        let incremental =
            reparse(&broken, base, &previous, Some(&previous)).expect("balanced slice");
        let full = parse(&broken, Syntax::Native, Some(&previous));
        assert!(full.has_errors());
        assert_eq!(incremental, full);
        // And mending it again, from the broken tree.
        let mended =
            reparse(base, &broken, &incremental, Some(&previous)).expect("errors inside the slice");
        assert_eq!(mended, parse(base, Syntax::Native, None));
        // A broken expression inside a block.
        let bad_expr = base.replace("default = 2", "default = = 2");
        let incremental =
            reparse(&bad_expr, base, &previous, Some(&previous)).expect("balanced slice");
        assert_eq!(
            incremental,
            parse(&bad_expr, Syntax::Native, Some(&previous))
        );
    }

    #[test]
    fn an_edit_that_breaks_the_slice_falls_back() {
        let base = "variable \"a\" {\n  default = 1\n}\n\nvariable \"b\" {}\n";
        let broken = base.replace("default = 1\n}", "default = 1\n");
        let previous = parse(base, Syntax::Native, None);
        assert!(reparse(&broken, base, &previous, None).is_none());
        // A heredoc opened inside the slice reaching past it cannot parse alone either.
        let heredoc = base.replace("default = 1", "default = <<EOT");
        assert!(reparse(&heredoc, base, &previous, None).is_none());
    }

    /// Random single edits on real files: whenever an incremental parse is given, it must
    /// equal the full parse, tree and diagnostics alike.
    #[test]
    fn random_edits_agree_with_full_parses() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
        let mut texts = Vec::new();
        for dir in [
            "demo",
            "hcl-quirks",
            "check/lifecycle-errors",
            "check/variable-errors",
            "merge/resource-lifecycle",
        ] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
                if entry.path().extension().is_some_and(|e| e == "tf") {
                    texts.push(std::fs::read_to_string(entry.path()).unwrap());
                }
            }
        }
        let pieces = [
            "}", "{", "\"", "\n", "#", " = ", "x", "<<EOT\n", "/*", "[", "]", "\n}\n", ".0.1",
            ".*.*",
        ];
        let mut incremental_count = 0;
        for start in [0x5eed_u64, 0x2, 0xb] {
            incremental_count += random_edits(&texts, &pieces, start);
        }
        assert!(
            incremental_count > 150,
            "only {incremental_count} incremental parses"
        );
    }

    /// Applies 200 pseudo-random edits (from `seed`) to each text in turn, comparing every
    /// incremental parse with the full parse; returns how many were incremental.
    fn random_edits(texts: &[String], pieces: &[&str], seed: u64) -> usize {
        let mut seed = seed;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % n.max(1)
        };
        let mut incremental_count = 0;
        for text in texts {
            let mut current = text.clone();
            let mut previous = parse(&current, Syntax::Native, None);
            for _ in 0..200 {
                let at = next(current.len() + 1);
                let at = (0..=at)
                    .rev()
                    .find(|&i| current.is_char_boundary(i))
                    .unwrap_or(0);
                let edited = if next(2) == 0 {
                    format!(
                        "{}{}{}",
                        &current[..at],
                        pieces[next(pieces.len())],
                        &current[at..]
                    )
                } else {
                    let end = (at + 1 + next(8)).min(current.len());
                    let end = (end..=current.len())
                        .find(|&i| current.is_char_boundary(i))
                        .unwrap_or(current.len());
                    format!("{}{}", &current[..at], &current[end..])
                };
                let full = parse(&edited, Syntax::Native, None);
                if let Some(incremental) = reparse(&edited, &current, &previous, None) {
                    incremental_count += 1;
                    assert_eq!(incremental, full, "edit of {current:?} into {edited:?}");
                }
                current = edited;
                previous = full;
            }
        }
        incremental_count
    }

    /// What the fuzz target checks: `syntax::reparse` after the edit, the incremental
    /// parse or its fall-back, equals the full parse.
    fn same_as_fuzzed((before, after): (&str, &str)) {
        let previous = parse(before, Syntax::Native, None);
        let last_good = (!previous.has_errors()).then_some(&previous);
        assert_eq!(
            crate::syntax::reparse(after, Syntax::Native, before, &previous, last_good),
            parse(after, Syntax::Native, last_good),
            "{before:?} -> {after:?}"
        );
    }

    /// Found by fuzzing (fuzz/, target reparse): an edit that opens or closes a block
    /// comment changes how the text after the slice reads.
    #[test]
    fn edits_that_change_a_comment_beyond_the_slice_give_the_full_parse() {
        let cases = [
            (
                "/**\n * a (b);\n */\nx = 1\n",
                "]*\n * a (b);\n */\nx = 1\n",
            ),
            ("/*\nx\n*/\ny = 2\n", "/*\na = 1\n*/\ny = 2\n"),
            ("a = 1\n/*\nb = 2\n*/\n", "a = 1\n/\nb = 2\n*/\n"),
        ];
        cases.into_iter().for_each(same_as_fuzzed);
    }

    /// Found by fuzzing (fuzz/, target reparse): after an error HCL's parser is in
    /// recovery mode to the end of the file, and a stray token at the top level ends the
    /// file, so an edit changes how the text after its slice reads.
    #[test]
    fn edits_that_change_hcl_recovery_beyond_the_slice_give_the_full_parse() {
        let cases = [
            // Mending an error: the stray `{` after it is reported now.
            ("a\n{\n}\n", "a = 1\n{\n}\n"),
            // A stray `}` ends the file: the arguments after it are gone.
            ("a = 1\nb = 2\n", "}\na = 1\nb = 2\n"),
            // Breaking the first item silences the error of the last.
            ("a = 1\nb = 1\nc = \n", "a\nb = 1\nc = \n"),
            (
                "locals {\n  u = 1\n}\nlocals \n{\n}\n",
                "locals {\n  u = 1\n}\nl}\nlocals \n{\n}ocals \n{\n}\n",
            ),
        ];
        cases.into_iter().for_each(same_as_fuzzed);
        // And the full parse is what Terraform reports (fixtures/validate/
        // syntax-native-stray-token, syntax-native-recovery-mode).
        let full = parse("a\n{\n}\n{\n}\n", Syntax::Native, None);
        assert_eq!(full.diagnostics.len(), 1);
        // (Strata reads on after a stray top-level token, and marks it unread: see
        // `recover_range`.)
        let full = parse("}\na = 1\nb = 2\n", Syntax::Native, None);
        assert_eq!(full.body.attributes.len(), 2);
        assert_eq!(full.unread, vec![Span::new(1, 14)]);
        let full = parse("a\nb = 1\nc = \n", Syntax::Native, None);
        assert_eq!(full.diagnostics.len(), 1);
        assert_eq!(full.body.attributes.len(), 2);
    }

    /// Found by fuzzing (fuzz/, target reparse): in `<<<y` HCL's scanner reads `<` and
    /// then the heredoc `<<y`, which runs to the end of the file; the slice scanner must
    /// see that heredoc too.
    #[test]
    fn a_heredoc_after_a_less_than_sign_is_seen_by_the_slice_scanner() {
        let text = "d {\n  x = a<<<y\n}\n\nr {\n  n = 1\n}\n";
        let cases = [
            (text, text),
            (text, &text[..text.len() - 1]),
            ("d {\n  x = a<<y\n}\n", "d {\n  x = a<<<y\n}\n"),
        ];
        cases.into_iter().for_each(same_as_fuzzed);
    }

    /// A stray token typed and deleted again: Terraform reads nothing HCL's parser skips
    /// after it (`File::unread`: to the end of the file at the top level, to the end of
    /// the block inside one), and the incremental parse carries that as the full parse does.
    #[test]
    fn adding_and_removing_a_stray_token_gives_what_the_full_parse_skips() {
        let base = "variable \"a\" {\n  default = 1\n}\n\nvariable \"b\" {\n  default = 2\n}\n\nvariable \"c\" {}\n";
        let previous = parse(base, Syntax::Native, None);
        let stray_at = |text: &str, token: &str| text.find(token).unwrap() + 1;
        let read = |file: &File| {
            let read = file.read_by_terraform().unwrap_or_else(|| file.clone());
            let names = read
                .body
                .blocks
                .iter()
                .map(|b| b.header())
                .collect::<Vec<_>>();
            let defaults = read
                .body
                .blocks
                .iter()
                .map(|b| b.body.attributes.len())
                .collect();
            (names, defaults)
        };

        // At the top level: a quoted name, then everything after it is skipped.
        let top = base.replace("\nvariable \"b\"", "\"x\" = 1\nvariable \"b\"");
        let incremental = reparse(&top, base, &previous, Some(&previous)).expect("balanced");
        let full = parse(&top, Syntax::Native, Some(&previous));
        assert_eq!(incremental, full);
        assert_eq!(full.body.blocks.len(), 3, "the editor keeps every block");
        let from = stray_at(&top, "\"x\"");
        assert_eq!(full.unread, vec![Span::new(from, top.len())]);
        assert_eq!(read(&full), (vec!["variable \"a\"".to_string()], vec![1]));
        let mended = reparse(base, &top, &incremental, Some(&previous)).expect("balanced");
        assert_eq!(mended, previous);
        assert!(mended.unread.is_empty());

        // Inside a block: the rest of the block is skipped, the next block is read.
        let inner = base.replace("  default = 2\n", "  \"q\" = 1\n  default = 2\n");
        let incremental = reparse(&inner, base, &previous, Some(&previous)).expect("balanced");
        let full = parse(&inner, Syntax::Native, Some(&previous));
        assert_eq!(incremental, full);
        let from = stray_at(&inner, "\"q\"");
        let to = inner.find("}\n\nvariable \"c\"").unwrap() + 1;
        assert_eq!(full.unread, vec![Span::new(from, to)]);
        let headers = ["a", "b", "c"].map(|n| format!("variable \"{n}\""));
        assert_eq!(read(&full), (headers.to_vec(), vec![1, 0, 0]));
        let mended = reparse(base, &inner, &incremental, Some(&previous)).expect("balanced");
        assert_eq!(mended, previous);

        // A stray brace unbalances the file: the full parse, which says the same.
        let brace = base.replace("\nvariable \"b\"", "}\nvariable \"b\"");
        same_as_fuzzed((base, &brace));
        same_as_fuzzed((&brace, base));
        let full = parse(&brace, Syntax::Native, None);
        assert_eq!(
            full.unread,
            vec![Span::new(
                stray_at(&brace, "}\nvariable \"b\""),
                brace.len()
            )]
        );
        // Edits after the stray token, and of it, keep what is skipped.
        same_as_fuzzed((&top, &top.replace("default = 2", "default = 3")));
        same_as_fuzzed((&top, &top.replace("\"x\"", "\"y\"")));
        same_as_fuzzed((&inner, &inner.replace("default = 1", "default = [")));
    }

    /// A problem typed into a text without any keeps the items after its slice (HCL's
    /// recovery mode only silences errors, which they have none of), unless a stray token
    /// makes HCL skip them: then they are unread, as in the full parse.
    #[test]
    fn a_breaking_edit_of_a_clean_text_keeps_the_items_after_its_slice() {
        let base = "variable \"a\" {\n  default = 1\n}\n\nvariable \"b\" {\n  default = 2\n}\n\nvariable \"c\" {}\n";
        let previous = parse(base, Syntax::Native, None);
        // (Of the same length, so that the items after it are not moved, hence shared.)
        let broken = base.replace("default = 1", "default = =");
        let incremental = reparse(&broken, base, &previous, Some(&previous)).expect("balanced");
        assert_eq!(incremental, parse(&broken, Syntax::Native, Some(&previous)));
        assert!(incremental.has_errors());
        for (kept, before) in incremental.body.blocks[1..]
            .iter()
            .zip(&previous.body.blocks[1..])
        {
            assert!(Arc::ptr_eq(kept, before), "{}", kept.header());
        }
        // A stray token in the slice: the kept items are unread to the end of the file.
        let stray = base.replace("  default = 1\n}\n", "  default = 1\n}\n\"q\" = 1\n");
        let incremental = reparse(&stray, base, &previous, Some(&previous)).expect("balanced");
        assert_eq!(incremental, parse(&stray, Syntax::Native, Some(&previous)));
        assert_eq!(
            incremental.unread.last().map(|r| r.end as usize),
            Some(stray.len())
        );
        // An item broken on the slice's last line: HCL's recovery ends at its newline.
        let last = base.replace("variable \"c\" {}", "variable \"c\" {}\nx");
        same_as_fuzzed((base, &last));
        let middle = base.replace("variable \"b\" {", "variable \"b\" x {");
        same_as_fuzzed((base, &middle));
    }

    #[test]
    fn untouched_items_are_shared_not_copied() {
        let base = "variable \"a\" {}\n\nvariable \"b\" {}\n";
        let previous = parse(base, Syntax::Native, None);
        let after = base.replace("\"b\"", "\"bb\"");
        let file = reparse(&after, base, &previous, None).unwrap();
        assert!(Arc::ptr_eq(&file.body.blocks[0], &previous.body.blocks[0]));
    }
}
