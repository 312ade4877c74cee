//! The variable definitions files (`*.tfvars` and `*.tfvars.json`, `terraform.tfvars`
//! and `*.auto.tfvars` among them) of a module directory, for references to and renames
//! of its input variables: the editor's text of an open one, else the file on disk, read
//! with the workspace's bounds. A JSON one is read with every property an argument
//! (`SourceFile::parse`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::module::SourceFile;
use crate::text::read::{read_bounded, MAX_FILE_BYTES};
use crate::workspace::Workspace;

/// Whether `path` names a variable definitions file, in either syntax.
pub fn is_tfvars(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".tfvars") || n.ends_with(".tfvars.json"))
}

/// The variable definitions files of the module of `dir`, in name order.
pub fn tfvars_files(ws: &Workspace, dir: &Path) -> Vec<Arc<SourceFile>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| is_tfvars(p))
        .collect();
    paths.sort();
    paths.iter().filter_map(|p| tfvars_file(ws, p)).collect()
}

/// The variable definitions file at `path`: the editor's text when it is open.
pub fn tfvars_file(ws: &Workspace, path: &Path) -> Option<Arc<SourceFile>> {
    if let Some(open) = ws.file(path) {
        return Some(open);
    }
    let bytes = read_bounded(path, MAX_FILE_BYTES).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    Some(Arc::new(SourceFile::parse(
        path.to_path_buf(),
        text.into(),
        None,
        None,
    )))
}

/// The variable whose value the argument name at `offset` of the variable definitions
/// file at `path` sets, with the name's span, when the module of its directory declares
/// it (for hover and go to definition).
pub fn variable_at(
    ws: &Workspace,
    path: &Path,
    offset: usize,
) -> Option<(Arc<crate::merge::MergedModule>, String, crate::syntax::Span)> {
    if !is_tfvars(path) {
        return None;
    }
    let located = super::references::target_at(ws, path, offset)?;
    let super::references::Target::Variable(name) = located.target else {
        return None;
    };
    let m = ws.merged(&located.dir)?;
    m.variables
        .contains_key(&name)
        .then_some((m, name, located.span))
}
