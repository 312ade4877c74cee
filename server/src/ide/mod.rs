//! Editor features as plain data: what an outline, a fold, a highlight or a formatting edit
//! is, computed from the workspace's parsed files and merged model. Nothing here knows the
//! LSP types; `lsp/` maps these values to them, and the CLI can use them as they are.

pub mod code_actions;
pub mod completion;
pub mod declarations;
pub mod deprecated;
pub mod edits;
pub mod folding;
pub mod format;
pub mod inlay_hints;
pub mod links;
pub mod outline;
pub mod overridden;
pub mod references;
pub mod rename;
pub mod selection;
pub mod semantic_tokens;
pub mod signature_help;
mod symbol_index;
pub mod tfvars;
pub mod tfvars_diagnostics;
pub mod workspace_symbols;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::merge::{FileIndex, MergedModule};
use crate::module::SourceFile;
use crate::workspace::Workspace;

/// A file of the workspace with the merged module of its directory: what the features
/// that show override files' effects read.
pub struct FileInModule {
    /// The parsed file.
    pub file: Arc<SourceFile>,
    merged: Option<Arc<MergedModule>>,
    path: PathBuf,
}

impl FileInModule {
    /// The file at `path`, if the workspace holds it.
    pub fn of(ws: &Workspace, path: &Path) -> Option<Self> {
        Some(Self {
            file: ws.file(path)?,
            merged: path.parent().and_then(|d| ws.merged(d)),
            path: path.to_path_buf(),
        })
    }

    /// The merged module of the file's directory, whether or not the file is one of its
    /// files: what a result made from this file and its module depends on.
    pub fn merged_module(&self) -> Option<&Arc<MergedModule>> {
        self.merged.as_ref()
    }

    /// The merged module and the file's index in it, when the file is one of its files.
    pub fn merged(&self) -> Option<(&MergedModule, FileIndex)> {
        let m = self.merged.as_deref()?;
        Some((m, m.file_index(&self.path)?))
    }
}
