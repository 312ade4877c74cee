//! Lists of suggestions prepared once and shared by every completion that offers them:
//! the resource, data source and ephemeral resource types of the provider schemas a
//! module is analysed with (the AWS provider alone has 1,526 resource types). Each list
//! is built, sorted and kept while those schemas stay the same, so that a completion
//! narrows a kept list to what is typed instead of building thousands of items, and
//! `lsp/` keeps each list's items serialised.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError, Weak};

use super::Item;
use crate::schema::ProviderSchemaSource;

/// How many lists are kept: one per body kind and quoting, for a few schema views.
const KEPT: usize = 12;

/// Suggestions in the order the editor gets them, with their labels in lower case.
#[derive(Debug)]
pub struct PreparedList {
    items: Vec<Item>,
    lowered: Vec<String>,
}

impl PreparedList {
    /// The list of `items`, put in the order completion gives (`super::order`).
    pub fn new(mut items: Vec<Item>) -> Self {
        super::order(&mut items);
        let lowered = items.iter().map(|i| i.label.to_lowercase()).collect();
        Self { items, lowered }
    }

    /// Every item, in order.
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// The indices of the items whose label starts with `typed` (in lower case), in
    /// order.
    pub fn matching(&self, typed: &str) -> Vec<u32> {
        let mut found = Vec::new();
        for (i, label) in self.lowered.iter().enumerate() {
            if label.starts_with(typed) {
                found.push(i as u32);
            }
        }
        found
    }
}

/// What a list was prepared for: the schemas (held weakly: a dropped view's lists are
/// never asked for again), the block type whose labels it suggests, and whether the
/// label's opening quote is already written.
#[derive(Debug)]
struct Kept {
    schemas: Weak<dyn ProviderSchemaSource>,
    kind: String,
    quoted: bool,
    list: Arc<PreparedList>,
}

/// The prepared lists, kept between requests (the language server holds one).
#[derive(Debug, Default)]
pub struct PreparedLists(Mutex<VecDeque<Kept>>);

impl PreparedLists {
    /// The list for labels of block type `kind` with `schemas`, built by `build` the
    /// first time.
    pub(super) fn get(
        &self,
        schemas: &Arc<dyn ProviderSchemaSource>,
        kind: &str,
        quoted: bool,
        build: impl FnOnce() -> Vec<Item>,
    ) -> Arc<PreparedList> {
        let mut kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let found = kept.iter().find(|k| {
            k.kind == kind
                && k.quoted == quoted
                && Weak::ptr_eq(&k.schemas, &Arc::downgrade(schemas))
        });
        if let Some(k) = found {
            return k.list.clone();
        }
        // Built under the lock: requests asking for the same list wait for one build.
        let list = Arc::new(PreparedList::new(build()));
        kept.retain(|k| k.schemas.strong_count() > 0);
        if kept.len() >= KEPT {
            kept.pop_front();
        }
        kept.push_back(Kept {
            schemas: Arc::downgrade(schemas),
            kind: kind.to_string(),
            quoted,
            list: list.clone(),
        });
        list
    }
}
