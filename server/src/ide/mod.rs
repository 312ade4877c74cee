//! Editor features as plain data: what an outline, a fold, a highlight or a formatting edit
//! is, computed from the workspace's parsed files and merged model. Nothing here knows the
//! LSP types; `lsp/` maps these values to them, and the CLI can use them as they are.

pub mod format;
