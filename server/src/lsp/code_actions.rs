//! Code actions: `ide::code_actions`' quick fixes for the diagnostics in the requested
//! range, and `source.fixAll.strata`, every safe fix of the file at once, mapped to LSP
//! code actions with workspace edits. The diagnostics are the module's, checked as they
//! are published.

use std::path::Path;

use tower_lsp_server::ls_types::{self as lsp, CodeAction, CodeActionKind, CodeActionOrCommand};

use super::convert::Texts;
use crate::ide::code_actions;
use crate::syntax::Span;
use crate::text::PositionEncoding;
use crate::workspace::{ChildLookup, Workspace};

/// The kind of the action applying every safe fix.
pub const FIX_ALL: &str = "source.fixAll.strata";

/// The kinds of action the server offers.
pub fn kinds() -> Vec<CodeActionKind> {
    vec![CodeActionKind::QUICKFIX, CodeActionKind::new(FIX_ALL)]
}

/// Whether an action of `kind` is among the kinds `only` asks for (any when `None`): the
/// kind itself or one it refines (`source` takes `source.fixAll.strata`).
pub fn wanted(only: Option<&[CodeActionKind]>, kind: &str) -> bool {
    only.is_none_or(|only| {
        only.iter().any(|o| {
            let o = o.as_str();
            kind == o || kind.strip_prefix(o).is_some_and(|r| r.starts_with('.'))
        })
    })
}

/// The actions for `range` of the file at `path`, of the kinds `only` asks for (any when
/// `None`).
pub fn actions(
    ws: &Workspace,
    path: &Path,
    range: lsp::Range,
    only: Option<&[CodeActionKind]>,
    encoding: PositionEncoding,
) -> Option<Vec<CodeActionOrCommand>> {
    let wanted = |kind: &str| wanted(only, kind);
    let module = ws.module(path.parent()?)?;
    let roles = ws.module_roles();
    // The module's kept check, shared with its published diagnostics.
    let diagnostics = super::diagnostics::check(ws, &module, &roles, ChildLookup::Built);
    let mut texts = Texts::new(ws);
    let start = texts.offset(path, range.start, encoding)?;
    let end = texts.offset(path, range.end, encoding)?;
    let mut out = Vec::new();
    if wanted(CodeActionKind::QUICKFIX.as_str()) {
        let fixes = code_actions::fixes(ws, path, &diagnostics, Span::new(start, end));
        out.extend(quick_fixes(&mut texts, fixes, encoding));
    }
    if wanted(FIX_ALL) {
        let edits = code_actions::fix_all(ws, path, &diagnostics);
        if !edits.is_empty() {
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: "Fix all safe problems (Strata)".into(),
                kind: Some(CodeActionKind::new(FIX_ALL)),
                edit: Some(texts.workspace_edit(edits, encoding)),
                ..Default::default()
            }));
        }
    }
    Some(out)
}

/// The `moved` blocks offered for the resources of `range` of the file at `path`, from
/// the plan against the module's prior state (none without one).
pub fn moves(
    ws: &Workspace,
    path: &Path,
    range: lsp::Range,
    state_setting: Option<&str>,
    encoding: PositionEncoding,
) -> Vec<CodeActionOrCommand> {
    let Some(plan) = super::plan::prior_plan(ws, path, state_setting) else {
        return Vec::new();
    };
    let mut texts = Texts::new(ws);
    let (Some(start), Some(end)) = (
        texts.offset(path, range.start, encoding),
        texts.offset(path, range.end, encoding),
    ) else {
        return Vec::new();
    };
    let fixes = code_actions::moves(ws, path, &plan, Span::new(start, end));
    quick_fixes(&mut texts, fixes, encoding)
}

/// `fixes` as LSP quick fixes.
fn quick_fixes(
    texts: &mut Texts<'_>,
    fixes: Vec<code_actions::Fix>,
    encoding: PositionEncoding,
) -> Vec<CodeActionOrCommand> {
    fixes
        .into_iter()
        .map(|fix| {
            CodeActionOrCommand::CodeAction(CodeAction {
                title: fix.title,
                kind: Some(CodeActionKind::QUICKFIX),
                edit: Some(texts.workspace_edit(fix.edits, encoding)),
                ..Default::default()
            })
        })
        .collect()
}
