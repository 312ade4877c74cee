//! hclwrite's layout passes over a whole file's tokens, line by line: indentation by
//! bracket nesting, one space or none between the tokens of a line, and the `=` and the
//! trailing comments of neighbouring lines aligned in columns.

use std::ops::Range;

use unicode_segmentation::UnicodeSegmentation;

use super::spacing::space_after;
use super::tokens::{bracket_change, WriterToken};
use crate::syntax::Tok;

/// One line, its tokens split in up to three cells (indices into the token list): what
/// leads, the `=` of an attribute with its whole value, and a trailing comment.
#[derive(Debug, Clone)]
struct Line {
    lead: Range<usize>,
    assign: Option<Range<usize>>,
    comment: Option<usize>,
}

/// Sets every token's spaces as `terraform fmt` lays the file out.
pub(super) fn lay_out(tokens: &mut [WriterToken], source: &str) {
    let lines = lines(tokens, source);
    indent(tokens, &lines);
    space(tokens, &lines, source);
    align(tokens, &lines, source);
}

/// The lines of `tokens`, each ending after its line break; the end-of-file token belongs
/// to none.
fn lines(tokens: &[WriterToken], source: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut start = 0;
    let end = tokens
        .iter()
        .position(|t| t.kind == Tok::Eof)
        .unwrap_or(tokens.len());
    for (i, token) in tokens[..end].iter().enumerate() {
        if token.ends_line(source) {
            lines.push(start..i + 1);
            start = i + 1;
        }
    }
    lines.push(start..end);
    lines
        .into_iter()
        .map(|lead| split_cells(tokens, lead))
        .collect()
}

/// Moves a trailing comment into the comment cell, and the `=` of an attribute whose value
/// ends on this line into the assign cell.
fn split_cells(tokens: &[WriterToken], mut lead: Range<usize>) -> Line {
    let mut comment = None;
    if lead.len() > 1 && tokens[lead.end - 1].is_comment() {
        comment = Some(lead.end - 1);
        lead.end -= 1;
    }
    let mut assign = None;
    let equals = tokens[lead.clone()]
        .iter()
        .enumerate()
        .find(|&(i, t)| i > 0 && t.kind == Tok::Equal)
        .map(|(i, _)| lead.start + i);
    if let Some(at) = equals {
        let net: i32 = tokens[at..lead.end]
            .iter()
            .map(|t| bracket_change(t.kind))
            .sum();
        if net == 0 {
            assign = Some(at..lead.end);
            lead.end = at;
        }
    }
    Line {
        lead,
        assign,
        comment,
    }
}

/// Indents each line two spaces per open bracket level. A line that opens several
/// brackets indents what follows one level only, and closing them returns to it, so that
/// lines that open and close unevenly do not drift.
fn indent(tokens: &mut [WriterToken], lines: &[Line]) {
    let mut levels: Vec<i32> = Vec::new();
    for line in lines {
        if line.lead.is_empty() {
            continue;
        }
        let first = line.lead.start;
        if tokens[first].kind == Tok::Newline {
            tokens[first].spaces = 0;
            continue;
        }
        let mut net = 0;
        for token in &tokens[line.lead.clone()] {
            net += bracket_change(token.kind);
            if token.kind == Tok::OHeredoc {
                break;
            }
        }
        if let Some(assign) = &line.assign {
            net += tokens[assign.clone()]
                .iter()
                .map(|t| bracket_change(t.kind))
                .sum::<i32>();
        }
        if net > 0 {
            tokens[first].spaces = 2 * levels.len();
            levels.push(net);
            continue;
        }
        let mut closed = -net;
        while closed > 0 {
            let Some(last) = levels.last_mut() else {
                break;
            };
            if closed >= *last {
                closed -= *last;
                levels.pop();
            } else {
                *last -= closed;
                closed = 0;
            }
        }
        tokens[first].spaces = 2 * levels.len();
    }
}

/// One space or none between the tokens of the lead cell and of the assign cell; the `=`
/// always has one space before it here (alignment widens it).
fn space(tokens: &mut [WriterToken], lines: &[Line], source: &str) {
    for line in lines {
        space_cell(tokens, line.lead.clone(), source);
        if let Some(assign) = &line.assign {
            tokens[assign.start].spaces = 1;
            space_cell(tokens, assign.clone(), source);
        }
    }
}

fn space_cell(tokens: &mut [WriterToken], cell: Range<usize>, source: &str) {
    for i in cell.start..cell.end.saturating_sub(1) {
        let before = (i > cell.start).then(|| &tokens[i - 1]);
        let spaced = space_after(&tokens[i], before, &tokens[i + 1], source);
        tokens[i + 1].spaces = usize::from(spaced);
    }
}

/// Aligns the `=` of consecutive attribute lines one column after the longest lead, then
/// the trailing comments of consecutive commented lines one column after the longest code.
fn align(tokens: &mut [WriterToken], lines: &[Line], source: &str) {
    let width = |tokens: &[WriterToken], cell: &Range<usize>| -> usize {
        tokens[cell.clone()]
            .iter()
            .map(|t| t.spaces + t.text(source).graphemes(true).count())
            .sum()
    };
    for run in runs(lines, |l| l.assign.is_some()) {
        let widest = run
            .iter()
            .map(|l| width(tokens, &l.lead))
            .max()
            .unwrap_or(0);
        for line in run {
            let spaces = widest - width(tokens, &line.lead) + 1;
            if let Some(assign) = &line.assign {
                tokens[assign.start].spaces = spaces;
            }
        }
    }
    let code = |tokens: &[WriterToken], line: &Line| {
        width(tokens, &line.lead) + line.assign.as_ref().map_or(0, |a| width(tokens, a))
    };
    for run in runs(lines, |l| l.comment.is_some()) {
        let widest = run.iter().map(|l| code(tokens, l)).max().unwrap_or(0);
        for line in run {
            let spaces = widest - code(tokens, line) + 1;
            if let Some(comment) = line.comment {
                tokens[comment].spaces = spaces;
            }
        }
    }
}

/// The maximal runs of consecutive lines that have `cell`.
fn runs(lines: &[Line], cell: impl Fn(&Line) -> bool) -> impl Iterator<Item = &[Line]> {
    lines.split(move |l| !cell(l)).filter(|run| !run.is_empty())
}
