//! Inlay hints: `ide::inlay_hints`' hints mapped to LSP's, with the planned action of each
//! resource of the file beside its header when the module has a prior state (the plan
//! code lenses' words).

use std::path::Path;

use tower_lsp_server::ls_types::{self as lsp, InlayHint, InlayHintKind, InlayHintLabel};

use super::convert::Texts;
use crate::ide::inlay_hints::{self, Hint, HintKind, Kinds};
use crate::syntax::Span;
use crate::text::PositionEncoding;
use crate::workspace::Workspace;

/// The hints of the kinds `kinds` for `range` of the file at `path`.
pub fn hints(
    ws: &Workspace,
    path: &Path,
    range: lsp::Range,
    kinds: Kinds,
    state_setting: Option<&str>,
    encoding: PositionEncoding,
) -> Option<Vec<InlayHint>> {
    let mut texts = Texts::new(ws);
    let start = texts.offset(path, range.start, encoding)?;
    let end = texts.offset(path, range.end, encoding)?;
    let range = Span::new(start, end);
    let mut found = inlay_hints::hints(ws, path, range, kinds);
    if kinds.planned_actions {
        found.extend(planned_actions(ws, path, range, state_setting));
        found.sort_by_key(|h| h.offset);
    }
    let hints = found
        .into_iter()
        .filter_map(|h| {
            let position = texts
                .range(path, Span::new(h.offset, h.offset), encoding)?
                .start;
            Some(InlayHint {
                position,
                label: InlayHintLabel::String(h.label),
                kind: match h.kind {
                    HintKind::Value | HintKind::Override => Some(InlayHintKind::TYPE),
                    HintKind::Instances | HintKind::PlannedAction => None,
                },
                text_edits: None,
                tooltip: None,
                padding_left: Some(true),
                padding_right: None,
                data: None,
            })
        })
        .collect();
    Some(hints)
}

/// The planned action of each resource declared in `range` of `path`, after its header.
fn planned_actions(
    ws: &Workspace,
    path: &Path,
    range: Span,
    state_setting: Option<&str>,
) -> Vec<Hint> {
    let Some(plan) = super::plan::prior_plan(ws, path, state_setting) else {
        return Vec::new();
    };
    super::plan::by_block(&plan, path)
        .into_iter()
        .filter(|(span, _)| span.start <= range.end && range.start <= span.end)
        .map(|(span, changes)| Hint {
            offset: span.end as usize,
            label: super::plan::lens_title(&changes),
            kind: HintKind::PlannedAction,
        })
        .collect()
}
