//! `workspace/symbol`: every declaration of the workspace (variables, locals, outputs,
//! module calls, resources, data sources, provider configurations, checks), fuzzy-matched
//! against the query and ranked as editors rank names (nucleo's matcher).
//!
//! The declarations are kept between queries in an [`Index`] (`symbol_index.rs`), each
//! distinct name once: a query scores each name once (after a quick test of the
//! characters it holds, which skips most names before asking the matcher), then walks the
//! flat list of every declaration's name number and keeps only the best `limit`
//! declarations, ranked without comparing paths.

use std::cmp::Ordering;
use std::path::PathBuf;

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

use super::declarations::CharSet;
use super::outline::SymbolKind;
pub use super::symbol_index::Index;
use super::symbol_index::{Name, Snapshot};
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

/// A declaration that matched: how well, its name's length, and where it is in the
/// snapshot's list of every declaration (the workspace's order).
struct Hit {
    score: u32,
    length: u32,
    at: u32,
}

/// A name's score when it does not match.
const NO_MATCH: u32 = u32::MAX;

/// The declarations matching `query` best first, at most `limit` of them, with their
/// places in `encoding` (an empty query matches everything, in workspace order).
pub fn workspace_symbols(
    index: &Index,
    ws: &Workspace,
    query: &str,
    limit: usize,
    encoding: PositionEncoding,
) -> Vec<Declaration> {
    let snapshot = index.snapshot(ws);
    let pattern = Pattern::parse(query, CaseMatching::Smart, Normalization::Smart);
    let mut hits = Vec::new();
    if pattern.atoms.is_empty() {
        // Every name matches alike: the first `limit` are the answer.
        let first = snapshot.names_declared.len().min(limit);
        hits.extend((0..first as u32).map(|at| Hit {
            score: 0,
            length: 0,
            at,
        }));
    } else {
        let scores = scores(&pattern, &snapshot.names);
        for (at, &n) in snapshot.names_declared.iter().enumerate() {
            let Some(&score) = scores.get(n as usize).filter(|&&s| s != NO_MATCH) else {
                continue;
            };
            let length = snapshot.names.get(n as usize).map_or(0, |n| n.text.len());
            hits.push(Hit {
                score,
                length: length as u32,
                at: at as u32,
            });
        }
        best(&mut hits, limit);
    }
    hits.iter()
        .filter_map(|hit| declaration(&snapshot, hit, encoding))
        .collect()
}

/// Each distinct name's score for `pattern` (`NO_MATCH` when it does not match).
fn scores(pattern: &Pattern, names: &[Name]) -> Vec<u32> {
    let required = CharSet::required(
        pattern
            .atoms
            .iter()
            .filter(|a| !a.negative)
            .flat_map(|a| a.needle_text().chars().collect::<Vec<_>>()),
    );
    let mut matcher = Matcher::new(Config::DEFAULT);
    let mut chars = Vec::new();
    names
        .iter()
        .map(|name| {
            if !name.chars.holds(required) {
                return NO_MATCH;
            }
            // Known ASCII: the matcher need not look at the name again to tell.
            let haystack = match name.chars.beyond_ascii() {
                false => Utf32Str::Ascii(name.text.as_bytes()),
                true => Utf32Str::new(&name.text, &mut chars),
            };
            pattern.score(haystack, &mut matcher).unwrap_or(NO_MATCH)
        })
        .collect()
}

/// The declaration a hit found, with its place in `encoding`.
fn declaration(snapshot: &Snapshot, hit: &Hit, encoding: PositionEncoding) -> Option<Declaration> {
    let (file, d) = snapshot.place(hit.at as usize)?;
    let declared = file.declared.get(d)?;
    Some(Declaration {
        name: declared.name.to_string(),
        kind: declared.kind,
        path: file.path.clone(),
        span: declared.span,
        range: file.range(declared, encoding),
        module: file.module.to_string(),
        score: hit.score,
    })
}

/// Keeps the best `limit` hits, best first: by score, then shorter names (closer
/// matches), then by place (the workspace's order of files: modules by directory, each
/// module's files in load order; then in the file). A query such as `module.` ties
/// thousands of names: the key is numbers alone.
fn best(hits: &mut Vec<Hit>, limit: usize) {
    let key = |h: &Hit| (h.length, h.at);
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
    use crate::ide::declarations::FileDeclarations;

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

    /// The answer as if each declaration were scored alone, ranked by score, then
    /// shorter names, then workspace order: what scoring each distinct name once must
    /// not change.
    fn scored_alone(ws: &Workspace, query: &str, limit: usize) -> Vec<(String, PathBuf, Span)> {
        let pattern = Pattern::parse(query, CaseMatching::Smart, Normalization::Smart);
        let mut matcher = Matcher::new(Config::DEFAULT);
        let mut chars = Vec::new();
        let mut all = Vec::new();
        for module in ws.modules() {
            for file in &module.sources {
                let read = FileDeclarations::read(file, "".into());
                for d in read.declared {
                    let score = match pattern.atoms.is_empty() {
                        true => Some(0),
                        false => pattern.score(Utf32Str::new(&d.name, &mut chars), &mut matcher),
                    };
                    if let Some(score) = score {
                        let place = all.len();
                        let found = (d.name.to_string(), file.path.clone(), d.span);
                        // Without a query, in workspace order alone.
                        let length = if pattern.atoms.is_empty() {
                            0
                        } else {
                            d.name.len()
                        };
                        all.push((std::cmp::Reverse(score), length, place, found));
                    }
                }
            }
        }
        all.sort_by_key(|a| (a.0, a.1, a.2));
        all.into_iter().take(limit).map(|a| a.3).collect()
    }

    #[test]
    fn each_name_scored_once_answers_as_each_declaration_scored_alone() {
        let module = |n: usize| {
            format!(
                "variable \"name\" {{}}\nvariable \"vpc_id_{n}\" {{}}\nresource \"aws_vpc\" \"this\" {{}}\n\
                 resource \"aws_subnet\" \"x{n}\" {{}}\nlocals {{\n  vpcé = 1\n  name = \"{n}\"\n}}\n\
                 module \"vpc\" {{\n  source = \"./m\"\n}}\noutput \"vpc_id\" {{\n  value = 1\n}}\n"
            )
        };
        let files: Vec<(String, String)> = (0..12)
            .flat_map(|n| {
                [
                    (
                        format!("/nonexistent-strata-symbols/m{}/main.tf", n % 5),
                        module(n),
                    ),
                    (
                        format!("/nonexistent-strata-symbols/m{}/x{n}.tf", n % 5),
                        module(n % 3),
                    ),
                ]
            })
            .collect();
        let files: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let ws = workspace(&files);
        let index = Index::default();
        let queries = [
            "vpc", "var.name", "x", "", "VPC", "!vpc", "^var", "vpc name", "é", "id$",
        ];
        for query in queries {
            for limit in [1, 7, 40, 1000] {
                let found: Vec<(String, PathBuf, Span)> =
                    workspace_symbols(&index, &ws, query, limit, PositionEncoding::Utf16)
                        .into_iter()
                        .map(|d| (d.name, d.path, d.span))
                        .collect();
                assert_eq!(found, scored_alone(&ws, query, limit), "{query:?}, {limit}");
            }
        }
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
