//! `workspace/symbol`: every declaration of the workspace (variables, locals, outputs,
//! module calls, resources, data sources, provider configurations, checks), fuzzy-matched
//! against the query and ranked as editors rank names (nucleo's matcher).
//!
//! Each file's declarations are read once per version of the file and kept in an
//! [`Index`] between queries; a query walks each file's list of the characters its names
//! hold (one word per name, so that a workspace of 30,000 files is a few megabytes to
//! read), skips every name that lacks a character the query needs before asking the
//! matcher, and keeps only the best `limit` matches, ranked without comparing paths.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

use super::declarations::{CharSet, FileDeclarations};
use super::outline::SymbolKind;
use crate::syntax::Span;
use crate::text::{Position, PositionEncoding};
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
    /// Where that name starts and ends, in the encoding asked for.
    pub range: [Position; 2],
    /// The module's directory, which editors show beside the name as its container.
    pub module: String,
    /// How well it matched (higher is better).
    pub score: u32,
}

/// The declarations of every file of the workspace, kept between queries and brought up
/// to date with the workspace before each.
#[derive(Debug, Default)]
pub struct Index {
    kept: Mutex<Kept>,
}

#[derive(Debug, Default)]
struct Kept {
    /// The workspace generation the list was made at (`None`: never made).
    generation: Option<u64>,
    /// Every file's declarations, in workspace order.
    files: Arc<Vec<Arc<FileDeclarations>>>,
}

impl Index {
    /// Every file's declarations as the workspace holds it now: the files whose version
    /// changed since the last query are read again, the others reused.
    fn files(&self, ws: &Workspace) -> Arc<Vec<Arc<FileDeclarations>>> {
        let Ok(mut kept) = self.kept.lock() else {
            return Arc::new(read_all(ws, &HashMap::new()));
        };
        // Read before the walk: an edit during it leaves the list one generation behind,
        // and the next query walks again.
        let generation = ws.generation();
        if kept.generation != Some(generation) {
            let previous: HashMap<&std::path::Path, &Arc<FileDeclarations>> =
                kept.files.iter().map(|f| (f.path.as_path(), f)).collect();
            let files = Arc::new(read_all(ws, &previous));
            kept.files = files;
            kept.generation = Some(generation);
        }
        kept.files.clone()
    }
}

/// Every file's declarations, reusing those of `previous` read from the same version.
fn read_all(
    ws: &Workspace,
    previous: &HashMap<&std::path::Path, &Arc<FileDeclarations>>,
) -> Vec<Arc<FileDeclarations>> {
    let mut files = Vec::new();
    for module in ws.modules() {
        let dir: Arc<str> = module.dir.display().to_string().into();
        for file in &module.sources {
            let same = previous
                .get(file.path.as_path())
                .filter(|f| f.read_from(file));
            files.push(match same {
                Some(f) => Arc::clone(f),
                None => Arc::new(FileDeclarations::read(file, dir.clone())),
            });
        }
    }
    files
}

/// A declaration that matched: how well, its name's length, which file, which of its
/// declarations.
struct Hit {
    score: u32,
    length: u32,
    file: u32,
    declared: u32,
}

/// The declarations matching `query` best first, at most `limit` of them, with their
/// places in `encoding` (an empty query matches everything, in workspace order).
pub fn workspace_symbols(
    index: &Index,
    ws: &Workspace,
    query: &str,
    limit: usize,
    encoding: PositionEncoding,
) -> Vec<Declaration> {
    let files = index.files(ws);
    let pattern = Pattern::parse(query, CaseMatching::Smart, Normalization::Smart);
    let required = CharSet::required(
        pattern
            .atoms
            .iter()
            .filter(|a| !a.negative)
            .flat_map(|a| a.needle_text().chars().collect::<Vec<_>>()),
    );
    let mut matcher = Matcher::new(Config::DEFAULT);
    let mut chars = Vec::new();
    let mut hits = Vec::new();
    'files: for (f, file) in files.iter().enumerate() {
        for (d, &held) in file.chars.iter().enumerate() {
            if !held.holds(required) {
                continue;
            }
            let Some(declared) = file.declared.get(d) else {
                continue;
            };
            // Known ASCII: the matcher need not look at the name again to tell.
            let haystack = match held.beyond_ascii() {
                false => Utf32Str::Ascii(declared.name.as_bytes()),
                true => Utf32Str::new(&declared.name, &mut chars),
            };
            if let Some(score) = pattern.score(haystack, &mut matcher) {
                hits.push(Hit {
                    score,
                    length: declared.name.len() as u32,
                    file: f as u32,
                    declared: d as u32,
                });
                // Without a query every name matches alike: the first `limit` are the answer.
                if pattern.atoms.is_empty() && hits.len() >= limit {
                    break 'files;
                }
            }
        }
    }
    best(&mut hits, limit);
    hits.iter()
        .map(|hit| {
            let file = &files[hit.file as usize];
            let declared = &file.declared[hit.declared as usize];
            Declaration {
                name: declared.name.to_string(),
                kind: declared.kind,
                path: file.path.clone(),
                span: declared.span,
                range: file.range(declared, encoding),
                module: file.module.to_string(),
                score: hit.score,
            }
        })
        .collect()
}

/// Keeps the best `limit` hits, best first: by score, then shorter names (closer
/// matches), then by place (the workspace's order of files: modules by directory, each
/// module's files in load order; then in the file). A query such as `module.` ties
/// thousands of names: the key is numbers alone.
fn best(hits: &mut Vec<Hit>, limit: usize) {
    let key = |h: &Hit| (h.length, h.file, h.declared);
    let order =
        |a: &Hit, b: &Hit| -> Ordering { b.score.cmp(&a.score).then_with(|| key(a).cmp(&key(b))) };
    if hits.len() > limit && limit > 0 {
        hits.select_nth_unstable_by(limit - 1, order);
    }
    hits.truncate(limit);
    hits.sort_by(order);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace(files: &[(&str, &str)]) -> Workspace {
        let ws = Workspace::new();
        for (path, text) in files {
            ws.open_document(std::path::Path::new(path), text, 1);
        }
        ws
    }

    fn names(found: &[Declaration]) -> Vec<&str> {
        found.iter().map(|d| d.name.as_str()).collect()
    }

    #[test]
    fn best_matches_first_then_shorter_names_then_by_place() {
        let ws = workspace(&[
            (
                "/nonexistent-strata-symbols/b/main.tf",
                "variable \"vpc_id\" {}\nresource \"aws_vpc\" \"b\" {}\n",
            ),
            (
                "/nonexistent-strata-symbols/a/main.tf",
                "resource \"aws_vpc\" \"a\" {}\nlocals {\n  vpcé = 1\n}\n",
            ),
            (
                "/nonexistent-strata-symbols/a/z.tf",
                "resource \"aws_vpc\" \"z\" {}\n",
            ),
        ]);
        let index = Index::default();
        let found = workspace_symbols(&index, &ws, "vpc", 10, PositionEncoding::Utf16);
        let found = names(&found);
        // Equal scores: the shorter name, then modules by directory and files in order.
        let tied = ["aws_vpc.a", "aws_vpc.z", "aws_vpc.b"];
        let at = |n: &str| found.iter().position(|f| *f == n).expect(n);
        assert!(
            at(tied[0]) < at(tied[1]) && at(tied[1]) < at(tied[2]),
            "{found:?}"
        );
        assert!(found.contains(&"local.vpcé") && found.contains(&"var.vpc_id"));
        let best = workspace_symbols(&index, &ws, "vpc", 2, PositionEncoding::Utf16);
        assert_eq!(best.len(), 2);
        assert_eq!(names(&best), found[..2]);
        let found = workspace_symbols(&index, &ws, "cé", 10, PositionEncoding::Utf16);
        assert_eq!(names(&found), ["local.vpcé"]);
        assert!(workspace_symbols(&index, &ws, "vpcx", 10, PositionEncoding::Utf16).is_empty());
    }
}
