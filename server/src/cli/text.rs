//! `strata check`'s text format: the diagnostics as `terraform validate` prints them,
//! plain as with `-no-color` or coloured as on a terminal. Terraform sorts them first,
//! folds warnings that share a summary into the first one, wraps each detail paragraph
//! to its output width (78 columns when not on a terminal) and ends with its verdict.

use std::cmp::Ordering;

use unicode_segmentation::UnicodeSegmentation;

use crate::check::Severity;
// The width Terraform lays its output out in when the stream is not a terminal; Strata
// keeps to it on a terminal too, so that what a terminal shows is what a log holds.
use crate::plan::wrap::{word_wrap, COLUMNS};

/// Whether the text format is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    /// Terraform's coloured frame and ANSI escapes.
    On,
    /// `terraform validate -no-color`.
    Off,
}

impl Colour {
    /// Colour on a terminal (or wherever `CLICOLOR_FORCE` asks for it) unless
    /// `--no-color` or the `NO_COLOR` convention turns it off.
    pub fn wanted(no_color: bool) -> Self {
        use std::io::IsTerminal;
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
        let terminal = std::io::stdout().is_terminal() || set("CLICOLOR_FORCE");
        if no_color || set("NO_COLOR") || !terminal {
            Colour::Off
        } else {
            Colour::On
        }
    }
}

/// One diagnostic as the text format shows it.
pub(super) struct TextDiagnostic {
    /// How serious.
    pub severity: Severity,
    /// Terraform's summary.
    pub summary: String,
    /// Terraform's detail.
    pub detail: String,
    /// Where, for a diagnostic with a place in a file.
    pub place: Option<Place>,
}

/// The place of a diagnostic: what the "on … line …" header and the snippet show.
pub(super) struct Place {
    /// The file, as the JSON format names it.
    pub filename: String,
    /// The 1-based line of the start.
    pub line: usize,
    /// `, in resource "a" "b"` when inside a top-level block.
    pub context: String,
    /// The text of that line.
    pub text: String,
    /// The highlighted columns of that line (1-based grapheme columns, end exclusive).
    pub columns: (usize, usize),
    /// The start and end bytes in the file, which Terraform sorts by.
    pub bytes: (usize, usize),
}

/// The whole text output: every diagnostic in Terraform's order, then the verdict when
/// there is no error.
pub(super) fn render(mut diagnostics: Vec<TextDiagnostic>, colour: Colour) -> String {
    // A stable sort, as Terraform's.
    diagnostics.sort_by(terraform_order);
    let diagnostics = consolidate_warnings(diagnostics);
    let mut out = String::new();
    for d in &diagnostics {
        match colour {
            Colour::Off => plain(d, &mut out),
            Colour::On => framed(d, &mut out),
        }
    }
    let errors = diagnostics.iter().any(|d| d.severity == Severity::Error);
    let warnings = diagnostics.iter().any(|d| d.severity == Severity::Warning);
    match (errors, warnings, colour) {
        (true, _, _) => {}
        (false, false, Colour::Off) => out.push_str("Success! The configuration is valid.\n\n"),
        (false, false, Colour::On) => out.push_str(&format!(
            "{GREEN}{BOLD}Success!{RESET} The configuration is valid.\n{RESET}\n"
        )),
        // Terraform wraps the verdict to the width, its colour markup counted.
        (false, true, Colour::Off) => out.push_str(
            "Success! The configuration is valid, but there were some validation warnings\n\
             as shown above.\n\n",
        ),
        (false, true, Colour::On) => out.push_str(&format!(
            "{GREEN}{BOLD}Success!{RESET} The configuration is valid, but there were some\n\
             validation warnings as shown above.\n{RESET}\n"
        )),
    }
    out
}

/// Terraform's order: warnings before errors, diagnostics without a place before those
/// with one, then by file name, start and end byte, and summary.
fn terraform_order(a: &TextDiagnostic, b: &TextDiagnostic) -> Ordering {
    let rank = |s: Severity| match s {
        Severity::Warning => 0,
        Severity::Information => 1,
        Severity::Error => 2,
    };
    let place = |d: &TextDiagnostic| d.place.as_ref().map(|p| (p.filename.clone(), p.bytes));
    rank(a.severity)
        .cmp(&rank(b.severity))
        .then_with(|| place(a).cmp(&place(b)))
        .then_with(|| a.summary.cmp(&b.summary))
}

/// Warnings with a place that share a summary are shown once, at the first, with a
/// count of the others; errors and placeless warnings are kept as they are.
fn consolidate_warnings(diagnostics: Vec<TextDiagnostic>) -> Vec<TextDiagnostic> {
    let mut out: Vec<TextDiagnostic> = Vec::with_capacity(diagnostics.len());
    let mut groups: Vec<(String, usize, usize)> = Vec::new();
    for d in diagnostics {
        if d.severity != Severity::Warning || d.place.is_none() {
            out.push(d);
            continue;
        }
        match groups
            .iter_mut()
            .find(|(summary, _, _)| *summary == d.summary)
        {
            Some((_, _, more)) => *more += 1,
            None => {
                groups.push((d.summary.clone(), out.len(), 0));
                out.push(d);
            }
        }
    }
    for (_, at, more) in groups {
        let note = match more {
            0 => continue,
            1 => "(and one more similar warning elsewhere)".to_string(),
            n => format!("(and {n} more similar warnings elsewhere)"),
        };
        if let Some(d) = out.get_mut(at) {
            d.detail = if d.detail.is_empty() {
                note
            } else {
                format!("{}\n\n{note}", d.detail)
            };
        }
    }
    out
}

/// `terraform validate -no-color`: a blank line, then the diagnostic.
fn plain(d: &TextDiagnostic, out: &mut String) {
    out.push_str(&format!("\n{}: {}\n\n", label(d.severity), d.summary));
    if let Some(p) = &d.place {
        out.push_str(&format!(
            "  on {} line {}{}:\n",
            p.filename, p.line, p.context
        ));
        out.push_str(&format!("{:>4}: {}\n\n", p.line, p.text));
    }
    for line in detail_lines(&d.detail, COLUMNS) {
        out.push_str(&line);
        out.push('\n');
    }
}

/// Terraform's coloured form: the diagnostic in a frame of its severity's colour, the
/// label bold, the highlighted part of the line underlined.
fn framed(d: &TextDiagnostic, out: &mut String) {
    let colour = match d.severity {
        Severity::Error => RED,
        _ => YELLOW,
    };
    let bar = format!("{colour}│{RESET} {RESET}");
    out.push_str(&format!("{colour}╷{RESET}{RESET}\n"));
    out.push_str(&format!(
        "{bar}{BOLD}{colour}{}: {RESET}{RESET}{BOLD}{}{RESET}\n",
        label(d.severity),
        d.summary
    ));
    if let Some(p) = &d.place {
        out.push_str(&format!("{bar}\n"));
        out.push_str(&format!(
            "{bar}{RESET}  on {} line {}{}:\n",
            p.filename, p.line, p.context
        ));
        out.push_str(&format!(
            "{bar}{:>4}: {}{RESET}\n",
            p.line,
            underlined(&p.text, p.columns)
        ));
    }
    if !d.detail.is_empty() {
        out.push_str(&format!("{bar}\n"));
        // The frame takes two columns of the width.
        for line in detail_lines(&d.detail, COLUMNS - 2) {
            out.push_str(&format!("{bar}{line}\n"));
        }
    }
    out.push_str(&format!("{colour}╵{RESET}{RESET}\n"));
}

/// `text` with its grapheme columns `from..to` (1-based) underlined.
fn underlined(text: &str, (from, to): (usize, usize)) -> String {
    let graphemes: Vec<&str> = text.graphemes(true).collect();
    let from = from.saturating_sub(1).min(graphemes.len());
    let to = to.saturating_sub(1).clamp(from, graphemes.len());
    if from == to {
        return text.to_string();
    }
    format!(
        "{}{UNDERLINE}{}{RESET}{}",
        graphemes[..from].concat(),
        graphemes[from..to].concat(),
        graphemes[to..].concat()
    )
}

/// The label Terraform prints before a summary; Strata's notes are its own.
fn label(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "Error",
        Severity::Warning => "Warning",
        Severity::Information => "Note",
    }
}

/// The detail's lines, wrapped as Terraform wraps them to `width` columns.
fn detail_lines(detail: &str, width: usize) -> Vec<String> {
    if detail.is_empty() {
        return Vec::new();
    }
    word_wrap(detail, width)
        .split('\n')
        .map(str::to_string)
        .collect()
}

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const UNDERLINE: &str = "\x1b[4m";
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indented_detail_lines_are_kept() {
        let detail = format!(
            "{}\n  keep {}",
            "word ".repeat(20).trim_end(),
            "x ".repeat(50)
        );
        let lines = detail_lines(&detail, COLUMNS);
        assert_eq!(lines.len(), 3);
        assert!(lines[2].starts_with("  keep"));
    }

    fn warning(summary: &str, byte: usize) -> TextDiagnostic {
        TextDiagnostic {
            severity: Severity::Warning,
            summary: summary.to_string(),
            detail: "d".to_string(),
            place: Some(Place {
                filename: "main.tf".to_string(),
                line: 1,
                context: String::new(),
                text: String::new(),
                columns: (1, 1),
                bytes: (byte, byte + 1),
            }),
        }
    }

    #[test]
    fn warnings_sharing_a_summary_are_counted_at_the_first() {
        let out = consolidate_warnings(vec![
            warning("A", 1),
            warning("B", 2),
            warning("A", 3),
            warning("A", 4),
        ]);
        assert_eq!(out.len(), 2);
        assert_eq!(
            out[0].detail,
            "d\n\n(and 2 more similar warnings elsewhere)"
        );
        assert_eq!(out[1].detail, "d");
    }
}
