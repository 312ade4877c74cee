//! Renaming a variable, local value, output, module call or resource everywhere it is
//! named (see `references`), refused for a name Terraform would reject or one the
//! module already uses. Renaming a managed resource or a module call also adds a `moved`
//! block, so that the plan moves the existing objects instead of destroying them.

use std::path::Path;

use thiserror::Error;

use super::references::{occurrences, target_at, Located, Target};
use crate::merge::{MergedModule, Mode};
use crate::syntax::Syntax;
use crate::workspace::Workspace;

pub use super::edits::FileEdit;

/// Why a rename cannot be done.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RenameError {
    /// Nothing that can be renamed is under the cursor.
    #[error("only a variable, local value, output, module call or resource can be renamed")]
    NothingToRename,
    /// The new name is not a valid Terraform name.
    #[error("{0:?} is not a valid name: a name starts with a letter or underscore and holds only letters, digits, underscores and dashes")]
    InvalidName(String),
    /// The module already declares an object of that kind with the new name.
    #[error("{0} is already declared in this module")]
    Taken(String),
}

/// What would be renamed at `offset`: the object and the span of its name there.
pub fn prepare_rename(ws: &Workspace, path: &Path, offset: usize) -> Option<Located> {
    target_at(ws, path, offset)
}

/// The edits that rename the object at `offset` to `new_name`.
pub fn rename(
    ws: &Workspace,
    path: &Path,
    offset: usize,
    new_name: &str,
) -> Result<Vec<FileEdit>, RenameError> {
    let located = target_at(ws, path, offset).ok_or(RenameError::NothingToRename)?;
    let target = &located.target;
    if !crate::schema::is_identifier(new_name) {
        return Err(RenameError::InvalidName(new_name.to_string()));
    }
    if new_name == target.name() {
        return Ok(Vec::new());
    }
    let renamed = target.renamed(new_name);
    let merged = ws.merged(&located.dir);
    if let Some(m) = merged.as_deref() {
        if declares(m, &renamed) {
            let what = renamed
                .address()
                .unwrap_or_else(|| format!("output.{new_name}"));
            return Err(RenameError::Taken(what));
        }
    }
    let mut edits: Vec<FileEdit> = occurrences(ws, &located.dir, target)
        .into_iter()
        .map(|o| FileEdit {
            path: o.path,
            span: o.span,
            new_text: new_name.to_string(),
        })
        .collect();
    let movable = matches!(target, Target::ModuleCall(_))
        || matches!(target, Target::Resource(key) if key.mode == Mode::Managed);
    if movable {
        if let Some(edit) = merged
            .as_deref()
            .and_then(|m| moved_block(m, target, &renamed))
        {
            edits.push(edit);
        }
    }
    edits.sort_by(|a, b| (&a.path, a.span.start).cmp(&(&b.path, b.span.start)));
    edits.dedup();
    Ok(edits)
}

/// Whether the module already declares `target`.
fn declares(m: &MergedModule, target: &Target) -> bool {
    match target {
        Target::Variable(n) => m.variables.contains_key(n),
        Target::Local(n) => m.locals.contains_key(n),
        Target::Output(n) => m.outputs.contains_key(n),
        Target::ModuleCall(n) => m.module_calls.contains_key(n),
        Target::Resource(key) => m.resources.contains_key(key),
    }
}

/// `moved { from = OLD  to = NEW }` for a renamed object (see `moved_block_for`).
fn moved_block(m: &MergedModule, from: &Target, to: &Target) -> Option<FileEdit> {
    let (from, to) = (from.address()?, to.address()?);
    let declared = m.objects().find(|o| o.address() == from)?;
    moved_block_for(m, &from, &to, declared.provenance().decl.file)
}

/// `moved { from = FROM  to = TO }` at the end of the file that already holds the
/// module's `moved` blocks, else of `declared_in`; `None` when that file is JSON (a
/// native block cannot go there).
pub fn moved_block_for(
    m: &MergedModule,
    from: &str,
    to: &str,
    declared_in: crate::merge::FileIndex,
) -> Option<FileEdit> {
    let file = m
        .moved
        .iter()
        .map(|n| n.file)
        .find(|&f| m.file(f).syntax.syntax == Syntax::Native)
        .unwrap_or(declared_in);
    let source = m.file(file);
    if source.syntax.syntax != Syntax::Native {
        return None;
    }
    let block = format!("moved {{\n  from = {from}\n  to   = {to}\n}}");
    Some(super::edits::append_block(source, &block))
}
