//! Blocks taken from the last good tree of a file when a top-level item cannot be
//! understood at all (marked `stale`), so that a half-typed block hides nothing.

use std::sync::Arc;

use super::scan::Item;
use super::{Block, File, Span};

/// The block of the last good tree that stood where `item` stands now: the same header,
/// or failing that the same start. Spans are moved to the item's start.
pub(super) fn stale_block(previous: &File, text: &str, item: &Item) -> Option<Block> {
    let item_text = &text[item.span.clone()];
    let header = |b: &Block| b.header();
    let found = previous
        .body
        .blocks
        .iter()
        .filter(|b| !b.stale)
        .find(|b| item_text.starts_with(&header(b)) && normalised_header(item_text) == header(b))
        .or_else(|| {
            previous
                .body
                .blocks
                .iter()
                .find(|b| b.span.start as usize == item.span.start)
        })?;
    let mut block = (**found).clone();
    let delta = item.span.start as i64 - found.span.start as i64;
    shift_block(&mut block, delta, item.span.end);
    block.stale = true;
    Some(block)
}

/// The header of a block item as `Block::header` would write it.
fn normalised_header(item_text: &str) -> String {
    let head = item_text.split('{').next().unwrap_or("");
    head.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn shift_block(block: &mut Block, delta: i64, limit: usize) {
    let shift = |s: &mut Span| {
        let move_to = |x: u32| ((x as i64 + delta).max(0) as usize).min(limit) as u32;
        s.start = move_to(s.start);
        s.end = move_to(s.end);
    };
    shift(&mut block.span);
    shift(&mut block.kind.span);
    block.labels.iter_mut().for_each(|l| shift(&mut l.span));
    for attr in &mut block.body.attributes {
        let attr = Arc::make_mut(attr);
        shift(&mut attr.span);
        shift(&mut attr.name.span);
        shift(&mut attr.expr.span);
    }
    for nested in &mut block.body.blocks {
        shift_block(Arc::make_mut(nested), delta, limit);
    }
}
