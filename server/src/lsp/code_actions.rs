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
use crate::workspace::{ModuleRoles, Workspace};

/// The kind of the action applying every safe fix.
pub const FIX_ALL: &str = "source.fixAll.strata";

/// The kinds of action the server offers.
pub fn kinds() -> Vec<CodeActionKind> {
    vec![CodeActionKind::QUICKFIX, CodeActionKind::new(FIX_ALL)]
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
    let wanted = |kind: &str| {
        only.is_none_or(|only| {
            only.iter().any(|o| {
                let o = o.as_str();
                kind == o || kind.strip_prefix(o).is_some_and(|r| r.starts_with('.'))
            })
        })
    };
    let module = ws.module(path.parent()?)?;
    let roles = ModuleRoles::of(ws, &ws.modules());
    let diagnostics = super::diagnostics::check(ws, &module, &roles);
    let mut texts = Texts::new(ws);
    let start = texts.offset(path, range.start, encoding)?;
    let end = texts.offset(path, range.end, encoding)?;
    let mut out = Vec::new();
    if wanted(CodeActionKind::QUICKFIX.as_str()) {
        for fix in code_actions::fixes(ws, path, &diagnostics, Span::new(start, end)) {
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: fix.title,
                kind: Some(CodeActionKind::QUICKFIX),
                edit: Some(texts.workspace_edit(fix.edits, encoding)),
                ..Default::default()
            }));
        }
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
