//! Quick fixes for Strata's own diagnostics, as plain data: each `Fix` is a title and the
//! edits that make the problem go away, found from the diagnostic (its summary and
//! detail are Terraform's words, which name what is wrong) and the module's merged model.
//! `lsp/` asks for the fixes of the diagnostics in a range, or for every safe fix of a
//! file (`source.fixAll.strata`).
//!
//! The fixes, one file per family: the "Did you mean" replacement and unquoting quoted
//! references and keywords (`suggestions.rs`); the missing required arguments and the
//! declaration of an undeclared variable (`declarations.rs`, with the type its use
//! implies, `inferred_types.rs`); an override's `depends_on` moved into its base block
//! and the base block of an orphan override (`overrides.rs`, in either syntax, each
//! written in its file's: `json_values.rs` turns values from one into the other);
//! `moved` blocks for resources the plan would destroy and create under another name
//! (`moves.rs`, from the module's plan rather than a diagnostic).

mod declarations;
mod inferred_types;
mod json_values;
mod moves;
mod overrides;
mod suggestions;

pub use moves::moves;

use std::path::Path;
use std::sync::Arc;

use super::edits::FileEdit;
use crate::check::Diagnostic;
use crate::merge::MergedModule;
use crate::module::SourceFile;
use crate::syntax::{Span, Syntax};
use crate::workspace::Workspace;

/// One quick fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// What it does, as the editor's menu shows it.
    pub title: String,
    /// The edits, in any order; no two overlap.
    pub edits: Vec<FileEdit>,
    /// Whether it only rewrites what the author wrote into the form Terraform expects,
    /// guessing nothing: the fixes `source.fixAll.strata` applies.
    pub safe: bool,
    /// The indexes (into the diagnostics given) of the diagnostics it fixes.
    pub fixes: Vec<usize>,
}

/// What every fix reads: the file the diagnostics are in and its module.
pub(crate) struct Place<'a> {
    /// The workspace.
    pub ws: &'a Workspace,
    /// The file.
    pub file: Arc<SourceFile>,
    /// Its module's merged model.
    pub merged: Arc<MergedModule>,
    /// Every diagnostic of the module.
    pub diagnostics: &'a [Diagnostic],
}

impl Place<'_> {
    /// Whether the file is in the native syntax (else JSON, where only the fixes that
    /// rename, add properties or write to another file apply).
    fn native(&self) -> bool {
        self.file.syntax.syntax == Syntax::Native
    }

    /// The file's top-level block that holds `offset`.
    fn top_level_block(&self, offset: usize) -> Option<&crate::syntax::Block> {
        let blocks = &self.file.syntax.body.blocks;
        blocks
            .iter()
            .find(|b| b.span.contains(offset))
            .map(|b| &**b)
    }

    /// The text of `span` in the file.
    fn text(&self, span: Span) -> Option<&str> {
        self.file.text.get(span.range())
    }
}

/// The fixes for the diagnostics of `diagnostics` (the module's, as `check` gives them)
/// that are in the file at `path` and touch `range`.
pub fn fixes(ws: &Workspace, path: &Path, diagnostics: &[Diagnostic], range: Span) -> Vec<Fix> {
    let touches = |d: &Diagnostic| d.span.start <= range.end && range.start <= d.span.end;
    let mut found = all_fixes(ws, path, diagnostics, &touches);
    found.sort_by(|a, b| a.fixes.cmp(&b.fixes).then(a.title.cmp(&b.title)));
    found.dedup_by(|a, b| a.edits == b.edits);
    found
}

/// The edits of every safe fix for the diagnostics of the file at `path`; where two
/// fixes' edits overlap, only the first is kept.
pub fn fix_all(ws: &Workspace, path: &Path, diagnostics: &[Diagnostic]) -> Vec<FileEdit> {
    let mut edits: Vec<FileEdit> = Vec::new();
    for fix in all_fixes(ws, path, diagnostics, &|_| true) {
        let overlaps = fix.edits.iter().any(|e| {
            edits.iter().any(|k| {
                k.path == e.path
                    && k.span.start < e.span.end.max(e.span.start + 1)
                    && e.span.start < k.span.end.max(k.span.start + 1)
            })
        });
        if fix.safe && !overlaps {
            edits.extend(fix.edits);
        }
    }
    edits
}

fn all_fixes(
    ws: &Workspace,
    path: &Path,
    diagnostics: &[Diagnostic],
    wanted: &dyn Fn(&Diagnostic) -> bool,
) -> Vec<Fix> {
    let (Some(file), Some(merged)) = (ws.file(path), path.parent().and_then(|d| ws.merged(d)))
    else {
        return Vec::new();
    };
    let place = Place {
        ws,
        file,
        merged,
        diagnostics,
    };
    let mut found = Vec::new();
    for (i, d) in diagnostics.iter().enumerate() {
        if d.path != path || !wanted(d) {
            continue;
        }
        let fixes = suggestions::fixes(&place, d)
            .into_iter()
            .chain(declarations::fixes(&place, i, d))
            .chain(overrides::fixes(&place, d));
        found.extend(fixes.map(|mut f| {
            if f.fixes.is_empty() {
                f.fixes.push(i);
            }
            f
        }));
    }
    found
}

/// A fix of one edit in the file.
fn one_edit(place: &Place, title: String, span: Span, new_text: String, safe: bool) -> Fix {
    Fix {
        title,
        edits: vec![FileEdit {
            path: place.file.path.clone(),
            span,
            new_text,
        }],
        safe,
        fixes: Vec::new(),
    }
}

/// The name of `source`'s file, for a fix's title.
fn file_name(source: &SourceFile) -> String {
    source
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Whether the module's file `index` is a primary file (not an override file) of
/// `syntax`: where a fix may add a block.
fn primary_file(m: &MergedModule, index: crate::merge::FileIndex, syntax: Syntax) -> bool {
    !m.is_override_file(index) && m.file(index).syntax.syntax == syntax
}

/// The strings quoted in Terraform's words, in order (`"x"` as Go's `%q` writes a plain
/// name; a quoted string with escapes is left out: no name the fixes write needs them).
fn quoted(detail: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = detail;
    while let Some(open) = rest.find('"') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('"') else { break };
        let inner = &after[..close];
        if !inner.contains('\\') {
            out.push(inner);
        }
        rest = &after[close + 1..];
    }
    out
}
