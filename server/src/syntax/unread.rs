//! What Terraform reads of a file whose parse skipped parts of it (`File::unread`).
//!
//! After a token that cannot start an item HCL's parser skips to the end of the body (to
//! the end of the file at the top level), and Terraform sees no item written there: no
//! declaration, no argument, nothing to report about them. Strata's tree keeps those
//! items, so that one stray brace typed in the editor does not take every later
//! declaration out of the model; the rules that say what Terraform says read the file as
//! Terraform does, without them.

use std::sync::Arc;

use super::{Body, File, Span};

impl File {
    /// Whether Terraform reads an item that starts at `offset` (it does unless HCL's
    /// parser skipped that part of the text).
    pub fn is_read(&self, offset: u32) -> bool {
        !within(&self.unread, offset)
    }

    /// The file as Terraform reads it: every item in a skipped part left out, in nested
    /// bodies too. `None` when Terraform reads every item (nothing was skipped).
    pub fn read_by_terraform(&self) -> Option<File> {
        if self.unread.is_empty() {
            return None;
        }
        Some(File {
            syntax: self.syntax,
            body: read_body(self, &self.body),
            diagnostics: self.diagnostics.clone(),
            unread: Vec::new(),
        })
    }
}

/// Whether `offset` lies in one of `regions` (in file order, none overlapping).
pub(super) fn within(regions: &[Span], offset: u32) -> bool {
    let after = regions.partition_point(|r| r.start <= offset);
    after > 0 && offset < regions[after - 1].end
}

/// `body` without the items Terraform does not read; nodes without any are shared.
fn read_body(file: &File, body: &Body) -> Body {
    let attributes = body
        .attributes
        .iter()
        .filter(|a| file.is_read(a.span.start))
        .cloned()
        .collect();
    let blocks = body
        .blocks
        .iter()
        .filter(|b| file.is_read(b.span.start))
        .map(|b| {
            if holds_unread(file, b.span) {
                let mut block = (**b).clone();
                block.body = read_body(file, &b.body);
                Arc::new(block)
            } else {
                b.clone()
            }
        })
        .collect();
    Body { attributes, blocks }
}

/// Whether a skipped part of the text begins inside `span`.
fn holds_unread(file: &File, span: Span) -> bool {
    file.unread
        .iter()
        .any(|r| span.start <= r.start && r.start < span.end)
}
