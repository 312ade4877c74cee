//! Body merging (`MergeBodies`, spec §1.5): attributes replace by name; any override
//! block type (a `dynamic "X"` counting as type X) replaces every base block of that type.

use super::{attr, nested, Attr, FileIndex, Nested};
use std::sync::Arc;

use crate::syntax::{Block, Body};

/// The effective arguments and nested blocks of a body.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MergedBody {
    /// Attributes: the base's in order, each replaced in place when overridden, then
    /// attributes only overrides set.
    pub attributes: Vec<Attr>,
    /// Surviving base blocks, then override blocks.
    pub blocks: Vec<Nested>,
}

/// The type a nested block counts as: `dynamic "X"` counts as `X`.
pub fn effective_block_type(block: &Block) -> &str {
    if &*block.kind.name == "dynamic" {
        block.label(0).unwrap_or("dynamic")
    } else {
        &block.kind.name
    }
}

impl MergedBody {
    /// A base body, leaving out the meta-arguments and meta-blocks named in `skip`.
    pub fn base(body: &Body, file: FileIndex, skip: &[&str]) -> Self {
        let mut merged = MergedBody::default();
        merged.apply(body, file, skip);
        merged
    }

    /// Applies an override body; returns whether anything changed.
    pub fn apply(&mut self, body: &Body, file: FileIndex, skip: &[&str]) -> bool {
        self.apply_kept(body, file, &|name| !skip.contains(&name), &|block| {
            !skip.contains(&&*block.kind.name)
        })
    }

    /// Applies the attributes and blocks of an override body that `keep_attribute` and
    /// `keep_block` keep, as Terraform's partial decoding leaves aside what its schema
    /// does not ask for.
    pub(super) fn apply_kept(
        &mut self,
        body: &Body,
        file: FileIndex,
        keep_attribute: &dyn Fn(&str) -> bool,
        keep_block: &dyn Fn(&Block) -> bool,
    ) -> bool {
        let mut changed = false;
        for a in &body.attributes {
            if !keep_attribute(&a.name.name) {
                continue;
            }
            changed = true;
            match self
                .attributes
                .iter_mut()
                .find(|e| e.attr.name.name == a.name.name)
            {
                Some(existing) => *existing = attr(file, a),
                None => self.attributes.push(attr(file, a)),
            }
        }
        let incoming: Vec<&Arc<Block>> = body.blocks.iter().filter(|b| keep_block(b)).collect();
        if !incoming.is_empty() {
            changed = true;
            let types: Vec<&str> = incoming.iter().map(|b| effective_block_type(b)).collect();
            self.blocks
                .retain(|b| !types.contains(&effective_block_type(&b.block)));
            self.blocks
                .extend(incoming.into_iter().map(|b| nested(file, b)));
        }
        changed
    }

    /// The attribute called `name`.
    pub fn attribute(&self, name: &str) -> Option<&Attr> {
        self.attributes.iter().find(|a| &*a.attr.name.name == name)
    }
}
