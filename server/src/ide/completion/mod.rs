//! Completion as plain data: what may be written at the cursor, from the effective
//! configuration. The cursor's context comes from the tokens before it (`context.rs`);
//! block types, labels and argument names from the language schema and the provider
//! schemas in use (`bodies.rs`, read through the merged model, so that an override block
//! completes as its base block's type); references with their effective values or types
//! and function names with their signatures (`references.rs`); the values an argument
//! takes where they are finite (`values.rs`); a module's variables in its `.tfvars` files
//! (`tfvars.rs`); what `depends_on`, `replace_triggered_by` and `moved`'s `from` may
//! name (`restricted.rs`). `lsp/` maps the items to LSP's.

mod bodies;
pub mod context;
mod json_keys;
mod prepared;
mod references;
mod restricted;
mod scope;
mod tfvars;
mod values;
mod variables;

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use crate::module::SourceFile;
use crate::syntax::Syntax;
use crate::workspace::Workspace;

pub use context::{context_at, Call, Context, Position};
pub use prepared::{PreparedList, PreparedLists};
pub use scope::Scope;

/// What a suggestion is, for the editor's icon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    /// A block type.
    Block,
    /// An argument name.
    Argument,
    /// A bare keyword (`destroy`, `all`, a type constraint).
    Keyword,
    /// A constant value (`true`).
    Value,
    /// An input variable, local value or output.
    Variable,
    /// A named object: a resource, data source, module call or provider configuration.
    Object,
    /// A resource or data source type.
    Type,
    /// An attribute of an object.
    Attribute,
    /// A function.
    Function,
}

/// The text a suggestion inserts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Insert {
    /// The text.
    pub text: String,
    /// Whether `text` is a snippet (`${1:name}` placeholders, `$0` the final cursor).
    pub snippet: bool,
}

/// One suggestion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// What the list shows and filters on.
    pub label: String,
    /// What it is.
    pub kind: ItemKind,
    /// A short line beside the label: a type, a signature, an effective value.
    pub detail: Option<String>,
    /// Documentation, as Markdown.
    pub documentation: Option<String>,
    /// What is inserted.
    pub insert: Insert,
    /// Sorts the list (required arguments first); compared as text.
    pub sort: String,
    /// The byte range of the file the insertion replaces.
    pub range: std::ops::Range<usize>,
}

impl Item {
    /// A suggestion inserting `label` itself, sorted in `group`.
    pub fn plain(label: impl Into<String>, kind: ItemKind, group: u8) -> Self {
        let label = label.into();
        Item {
            sort: format!("{group}_{label}"),
            insert: Insert {
                text: label.clone(),
                snippet: false,
            },
            label,
            kind,
            detail: None,
            documentation: None,
            range: 0..0,
        }
    }

    /// With a detail line.
    pub fn detail(mut self, detail: impl Into<String>) -> Self {
        let detail = detail.into();
        if !detail.is_empty() {
            self.detail = Some(detail);
        }
        self
    }

    /// With documentation, when there is any.
    pub fn doc(mut self, doc: impl Into<String>) -> Self {
        let doc = doc.into();
        if !doc.is_empty() {
            self.documentation = Some(doc);
        }
        self
    }

    /// Inserting `snippet` where the client takes snippets, else `plain`.
    pub fn insert(mut self, snippets: bool, snippet: String, plain: String) -> Self {
        self.insert = if snippets {
            Insert {
                text: snippet,
                snippet: true,
            }
        } else {
            Insert {
                text: plain,
                snippet: false,
            }
        };
        self
    }
}

/// What the client can take, and the editor's settings completion reads.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The client expands snippets.
    pub snippets: bool,
    /// The `strata.plan.statePath` setting: the prior state a `moved` block's `from`
    /// completes from, the one the plan's code lenses read (`workspace::state_file`).
    pub state_path: Option<String>,
}

/// The suggestions at a place, best first.
#[derive(Debug)]
pub enum Suggestions {
    /// Built for the place.
    Items(Vec<Item>),
    /// The items of a prepared list at `matching` (indices, in order), each replacing
    /// the byte range `range`.
    Prepared {
        list: Arc<PreparedList>,
        matching: Vec<u32>,
        range: Range<usize>,
    },
}

impl Suggestions {
    /// The items, each with the range it replaces.
    pub fn into_items(self) -> Vec<Item> {
        match self {
            Self::Items(items) => items,
            Self::Prepared {
                list,
                matching,
                range,
            } => matching
                .iter()
                .filter_map(|&i| list.items().get(i as usize))
                .map(|item| Item {
                    range: range.clone(),
                    ..item.clone()
                })
                .collect(),
        }
    }
}

/// The suggestions at byte `offset` of the file at `path` (an open or indexed
/// configuration file or variable definitions file), best first.
pub fn complete(ws: &Workspace, path: &Path, offset: usize, options: Options) -> Vec<Item> {
    suggest(&PreparedLists::default(), ws, path, offset, options).into_items()
}

/// The suggestions at byte `offset` of the file at `path`, as `complete` gives them;
/// long lists that do not depend on the place (a provider's resource types) come from
/// `lists`, prepared once.
pub fn suggest(
    lists: &PreparedLists,
    ws: &Workspace,
    path: &Path,
    offset: usize,
    options: Options,
) -> Suggestions {
    let Some(file) = ws.file(path) else {
        return Suggestions::Items(Vec::new());
    };
    let text = &*file.text;
    let offset = offset.min(text.len());
    let scope = Scope::new(ws, path, &file, offset, options);
    let json = file.syntax.syntax != Syntax::Native;
    let ctx = context_in(&scope, &file, offset);
    let typed = ctx.typed(text, offset).to_lowercase();
    let tfvars = super::tfvars::is_tfvars(path);
    if let (false, false, Position::Label { kind, index, .. }) = (json, tfvars, &ctx.position) {
        if let Some(list) = bodies::prepared_labels(lists, &scope, &ctx, kind, *index) {
            return Suggestions::Prepared {
                matching: list.matching(&typed),
                list,
                range: ctx.prefix.clone(),
            };
        }
    }
    let mut items = if tfvars {
        tfvars::complete(&scope, &ctx)
    } else {
        match &ctx.position {
            Position::Body => bodies::names(&scope, &ctx),
            Position::Label { kind, index, .. } => bodies::labels(&scope, &ctx, kind, *index),
            Position::Value { attribute, place } => {
                let mut items = values::values(&scope, &ctx, attribute, place);
                items.extend(references::references(&scope, &ctx, place));
                restricted::restrict(&scope, &ctx, attribute, place, &mut items);
                items
            }
            Position::Nothing => Vec::new(),
        }
    };
    items.retain(|i| i.label.to_lowercase().starts_with(&typed));
    for item in &mut items {
        item.range = ctx.prefix.clone();
        if json && matches!(ctx.position, Position::Value { .. }) {
            // Inside a JSON string: a quote the item writes is escaped.
            item.insert.text = item.insert.text.replace('"', "\\\"");
        } else if json {
            // A property name: the name alone inside its quotes, else quoted.
            let quoted = matches!(ctx.position, Position::Label { quoted: true, .. })
                || text.get(ctx.prefix.start.saturating_sub(1)..ctx.prefix.start) == Some("\"");
            item.insert = Insert {
                text: match quoted {
                    true => item.label.clone(),
                    false => format!("\"{}\"", item.label),
                },
                snippet: false,
            };
        }
    }
    order(&mut items);
    Suggestions::Items(items)
}

/// Puts suggestions in the order the editor gets them: by sort text (stably), the same
/// label of the same kind once.
fn order(items: &mut Vec<Item>) {
    items.sort_by(|a, b| a.sort.cmp(&b.sort));
    items.dedup_by(|a, b| a.label == b.label && a.kind == b.kind);
}

/// The cursor's context at byte `offset` of `file`, in either syntax (in JSON, where a
/// property name is due).
pub fn context_in(scope: &Scope, file: &SourceFile, offset: usize) -> Context {
    match file.syntax.syntax {
        Syntax::Native => context_at(&file.text, &file.syntax, offset),
        _ => json_keys::context_at(
            scope,
            &file.text,
            offset,
            !super::tfvars::is_tfvars(&file.path),
        ),
    }
}

/// Snippet text with `$`, `}` and `\` escaped, for a literal part of a snippet.
pub fn escape_snippet(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '$' | '}' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests;
