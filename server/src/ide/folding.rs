//! Folding ranges of one file: blocks, expressions written over several lines (objects,
//! lists, function calls, `for` expressions, heredocs; JSON objects and arrays), runs of
//! line comments, block comments, and `#region` / `#endregion` pairs.

use crate::syntax::{self, Body, Expr, ExprKind, JsonKind, JsonValue, Span, Syntax};

/// What a fold holds, for clients that fold some kinds by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FoldKind {
    /// A block or an expression.
    Code,
    /// Comments.
    Comment,
    /// The lines between `#region` and `#endregion`.
    Region,
}

/// Lines `start_line..=end_line` (0-based) fold into `start_line`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fold {
    /// The line that stays visible.
    pub start_line: u32,
    /// The last line hidden.
    pub end_line: u32,
    /// What is folded.
    pub kind: FoldKind,
}

/// Every fold of `file`, ordered by first line; at most one per first line (the widest).
pub fn folding_ranges(text: &str, file: &syntax::File) -> Vec<Fold> {
    let lines = LineIndex::new(text);
    let mut folds = Vec::new();
    body_folds(&file.body, text, &lines, &mut folds);
    if file.syntax == Syntax::Native {
        comment_folds(text, &lines, &mut folds);
    }
    folds.sort_by_key(|f| (f.start_line, std::cmp::Reverse(f.end_line)));
    folds.dedup_by_key(|f| f.start_line);
    folds
}

fn body_folds(body: &Body, text: &str, lines: &LineIndex, out: &mut Vec<Fold>) {
    for attribute in &body.attributes {
        attribute.expr.walk(&mut |e| expr_fold(e, text, lines, out));
    }
    for block in &body.blocks {
        push_code(block.span, text, lines, out);
        body_folds(&block.body, text, lines, out);
    }
}

fn expr_fold(e: &Expr, text: &str, lines: &LineIndex, out: &mut Vec<Fold>) {
    match &e.kind {
        ExprKind::Json(value) => json_folds(value, text, lines, out),
        _ => push_code(e.span, text, lines, out),
    }
}

fn json_folds(value: &JsonValue, text: &str, lines: &LineIndex, out: &mut Vec<Fold>) {
    match &value.kind {
        JsonKind::Object(properties) => {
            push_code(value.span, text, lines, out);
            properties
                .iter()
                .for_each(|(_, v)| json_folds(v, text, lines, out));
        }
        JsonKind::Array(items) => {
            push_code(value.span, text, lines, out);
            items.iter().for_each(|v| json_folds(v, text, lines, out));
        }
        _ => {}
    }
}

/// A fold of a construct over several lines. Its last line stays visible when it holds
/// only what closes the construct (`}`, `]`, `)`, a heredoc's end marker), as editors show
/// a folded block.
fn push_code(span: Span, text: &str, lines: &LineIndex, out: &mut Vec<Fold>) {
    let (start, end) = (span.start as usize, span.end as usize);
    if end <= start || end > text.len() {
        return;
    }
    let start_line = lines.line(start);
    let mut end_line = lines.line(end - 1);
    let last = text[lines.start_of(end_line)..end].trim();
    if !last.contains(char::is_whitespace) && last.len() <= 64 && end_line > start_line {
        end_line -= 1;
    }
    if end_line > start_line {
        out.push(Fold {
            start_line,
            end_line,
            kind: FoldKind::Code,
        });
    }
}

/// Runs of line comments on consecutive lines, block comments over several lines, and
/// regions.
fn comment_folds(text: &str, lines: &LineIndex, out: &mut Vec<Fold>) {
    let mut run: Option<(u32, u32)> = None;
    let mut regions: Vec<u32> = Vec::new();
    for comment in syntax::comments(text) {
        let start_line = lines.line(comment.span.start as usize);
        let end_line = lines.line((comment.span.end as usize).saturating_sub(1));
        if comment.block {
            if end_line > start_line {
                out.push(Fold {
                    start_line,
                    end_line,
                    kind: FoldKind::Comment,
                });
            }
            continue;
        }
        if let Some(marker) = region_marker(&text[comment.span.range()]) {
            // A marker ends a run of comments and belongs to none.
            flush_run(run.take(), out);
            match marker {
                Marker::Start => regions.push(start_line),
                Marker::End => {
                    if let Some(first) = regions.pop().filter(|&first| start_line > first) {
                        out.push(Fold {
                            start_line: first,
                            end_line: start_line,
                            kind: FoldKind::Region,
                        });
                    }
                }
            }
            continue;
        }
        run = match run {
            Some((first, last))
                if last + 1 == start_line && !starts_line_after_code(text, comment.span, lines) =>
            {
                Some((first, start_line))
            }
            other => {
                flush_run(other, out);
                Some((start_line, start_line))
            }
        };
    }
    flush_run(run, out);
}

/// Whether the comment follows code on its line (`x = 1 # note`), which breaks a run.
fn starts_line_after_code(text: &str, span: Span, lines: &LineIndex) -> bool {
    let line_start = lines.start_of(lines.line(span.start as usize));
    !text[line_start..span.start as usize].trim().is_empty()
}

fn flush_run(run: Option<(u32, u32)>, out: &mut Vec<Fold>) {
    if let Some((first, last)) = run.filter(|(first, last)| last > first) {
        out.push(Fold {
            start_line: first,
            end_line: last,
            kind: FoldKind::Comment,
        });
    }
}

enum Marker {
    Start,
    End,
}

/// `#region`, `# region name`, `//region` and their `endregion`.
fn region_marker(comment: &str) -> Option<Marker> {
    let body = comment
        .strip_prefix('#')
        .or_else(|| comment.strip_prefix("//"))?
        .trim_start();
    let word = body.split(|c: char| c.is_whitespace()).next()?;
    match word {
        "region" => Some(Marker::Start),
        "endregion" => Some(Marker::End),
        _ => None,
    }
}

/// Line numbers of byte offsets.
struct LineIndex {
    /// The offset where each line starts.
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    fn line(&self, offset: usize) -> u32 {
        (self.starts.partition_point(|&s| s <= offset) - 1) as u32
    }

    fn start_of(&self, line: u32) -> usize {
        self.starts[line as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folds(text: &str) -> Vec<(u32, u32, FoldKind)> {
        let file = syntax::parse(text, Syntax::Native, None);
        folding_ranges(text, &file)
            .into_iter()
            .map(|f| (f.start_line, f.end_line, f.kind))
            .collect()
    }

    #[test]
    fn folds_blocks_expressions_heredocs_comments_and_regions() {
        let text = "\
# one
# two
#region net
resource \"a\" \"b\" {
  tags = {
    x = 1
  }
  s = <<EOT
hello
EOT
  lifecycle {
    ignore_changes = []
  }
}
#endregion
/* a
   b */
";
        assert_eq!(
            folds(text),
            [
                (0, 1, FoldKind::Comment),
                (2, 14, FoldKind::Region),
                (3, 12, FoldKind::Code),
                (4, 5, FoldKind::Code),
                (7, 8, FoldKind::Code),
                (10, 11, FoldKind::Code),
                (15, 16, FoldKind::Comment),
            ]
        );
    }

    #[test]
    fn folds_json_objects() {
        let text = "{\n  \"locals\": {\n    \"a\": [\n      1\n    ]\n  }\n}\n";
        let file = syntax::parse(text, Syntax::Json, None);
        let lines: Vec<(u32, u32)> = folding_ranges(text, &file)
            .into_iter()
            .map(|f| (f.start_line, f.end_line))
            .collect();
        assert!(lines.contains(&(2, 3)), "{lines:?}");
    }
}
