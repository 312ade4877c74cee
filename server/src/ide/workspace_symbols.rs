//! `workspace/symbol`: every declaration of the workspace (variables, locals, outputs,
//! module calls, resources, data sources, provider configurations, checks), fuzzy-matched
//! against the query and ranked as editors rank names (nucleo's matcher).

use std::path::PathBuf;

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

use super::outline::{name_block, name_span, SymbolKind};
use crate::syntax::{Block, Span};
use crate::workspace::Workspace;

/// One declaration that matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declaration {
    /// As Terraform names it: `aws_vpc.this`, `var.region`, `local.name`.
    pub name: String,
    /// What it declares.
    pub kind: SymbolKind,
    /// The file.
    pub path: PathBuf,
    /// The name as written (the labels, or a local's name).
    pub span: Span,
    /// The module's directory, which editors show beside the name as its container.
    pub module: String,
    /// How well it matched (higher is better).
    pub score: u32,
}

/// The declarations matching `query` best first, at most `limit` of them (an empty query
/// matches everything, in workspace order).
pub fn workspace_symbols(ws: &Workspace, query: &str, limit: usize) -> Vec<Declaration> {
    let pattern = Pattern::parse(query, CaseMatching::Smart, Normalization::Smart);
    let mut matcher = Matcher::new(Config::DEFAULT);
    let mut found: Vec<Declaration> = Vec::new();
    let mut name = String::new();
    let mut chars = Vec::new();
    for module in ws.modules() {
        for file in &module.sources {
            for block in &file.syntax.body.blocks {
                let mut consider = |name: &str, kind: SymbolKind, span: Span| {
                    let score = pattern.score(Utf32Str::new(name, &mut chars), &mut matcher);
                    if let Some(score) = score {
                        found.push(Declaration {
                            name: name.to_string(),
                            kind,
                            path: file.path.clone(),
                            span,
                            module: module.dir.display().to_string(),
                            score,
                        });
                    }
                };
                match name_block(block, &mut name) {
                    SymbolKind::Locals => locals(block, &mut name, &mut consider),
                    SymbolKind::Settings if block.kind.name.as_ref() != "check" => {}
                    kind => consider(&name, kind, name_span(block)),
                }
            }
        }
    }
    // Best first; among equals, shorter names (closer matches) first, then by place.
    found.sort_by(|a, b| {
        (b.score, a.name.len(), &a.path, a.span.start).cmp(&(
            a.score,
            b.name.len(),
            &b.path,
            b.span.start,
        ))
    });
    found.truncate(limit);
    found
}

/// Each local value of a `locals` block, as `local.NAME`.
fn locals(block: &Block, name: &mut String, consider: &mut impl FnMut(&str, SymbolKind, Span)) {
    for a in &block.body.attributes {
        name.clear();
        name.push_str("local.");
        name.push_str(&a.name.name);
        consider(name, SymbolKind::Local, a.name.span);
    }
}
