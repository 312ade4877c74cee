//! Inlay hints as plain data: short labels the editor shows inside a file's text, each
//! kind switched on or off by the client's settings. After an argument an override
//! replaced, the value in effect and its file (`overrides.rs`); after `var.x` the value
//! the root module's variable takes, and after `count`/`for_each` the number of
//! instances it makes (`values.rs`). The planned action beside a resource header comes
//! from the plan, which `lsp/` runs when a prior state exists.

mod overrides;
mod values;

use std::path::Path;

use crate::syntax::Span;
use crate::workspace::Workspace;

/// Which kinds of hint the client wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kinds {
    /// The value an override file puts in place of an argument.
    pub overrides: bool,
    /// The value of `var.x`.
    pub variables: bool,
    /// The number of instances `count`/`for_each` makes.
    pub instances: bool,
    /// The planned action beside a resource header, when a prior state exists.
    pub planned_actions: bool,
}

impl Default for Kinds {
    fn default() -> Self {
        Self {
            overrides: true,
            variables: true,
            instances: true,
            planned_actions: true,
        }
    }
}

/// What a hint shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HintKind {
    /// The argument in effect in place of this one.
    Override,
    /// A value.
    Value,
    /// A number of instances.
    Instances,
    /// A planned action.
    PlannedAction,
}

/// One hint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    /// The byte offset it is shown at.
    pub offset: usize,
    /// What it says.
    pub label: String,
    /// What it is.
    pub kind: HintKind,
}

/// The longest value a hint shows before cutting it with `…`.
const MAX_VALUE: usize = 40;

/// The hints of the kinds `kinds` for `range` of the file at `path` (all but the planned
/// actions, which need a plan), in offset order.
pub fn hints(ws: &Workspace, path: &Path, range: Span, kinds: Kinds) -> Vec<Hint> {
    let Some(dir) = path.parent() else {
        return Vec::new();
    };
    let (Some(file), Some(m)) = (ws.file(path), ws.merged(dir)) else {
        return Vec::new();
    };
    let Some(fi) = m.file_index(path) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if kinds.overrides {
        out.extend(overrides::hints(&m, fi, range));
    }
    if kinds.variables || kinds.instances {
        out.extend(values::hints(ws, dir, &m, &file, range, kinds));
    }
    out.sort_by_key(|h| h.offset);
    out
}

/// `text` on one line (runs of white space as one space), cut to `MAX_VALUE` characters.
fn one_line(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match joined.char_indices().nth(MAX_VALUE) {
        Some((cut, _)) => format!("{}…", &joined[..cut]),
        None => joined,
    }
}

/// Whether `span` touches `range`.
fn touches(span: Span, range: Span) -> bool {
    span.start <= range.end && range.start <= span.end
}
