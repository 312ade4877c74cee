//! The source lines Terraform prints under a diagnostic without colour (`format`'s
//! `appendSourceSnippets` over the snippet of `views/json.NewDiagnostic`):
//! `  on FILE line N, in CONTEXT:`, then each line the subject range touches as
//! `%4d: LINE`, then a blank line. The context is HCL's `ContextString` one byte before
//! the subject: in the native syntax, the header of the top-level block holding that
//! byte (`resource "terraform_data" "a"`), none outside every block; in the JSON syntax,
//! the properties down to it (`syntax::json_context`). The `with ADDRESS,` line before
//! it and the values of the expression's references (`├────` notes) after the source
//! lines are the diagnostic's own (`render_text`'s `diagnostic`).

use crate::eval::go_quote;
use crate::syntax::{self, Span, Syntax};

/// The snippet block of a diagnostic whose subject is `span` of the file `name` (as
/// Terraform names it, relative to the root module), whose text is `text`.
pub fn snippet(name: &str, text: &str, file: &syntax::File, span: Span) -> String {
    let start = (span.start as usize).min(text.len());
    // An empty range is widened by a byte, as Terraform widens it.
    let end = (span.end as usize)
        .max(start + 1)
        .min(text.len().max(start + 1));
    let line_of = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
    let context = match file.syntax {
        Syntax::Native => start.checked_sub(1).and_then(|at| context(file, at)),
        Syntax::Json => start
            .checked_sub(1)
            .and_then(|at| syntax::json_context(text, at)),
    };
    let mut out = format!("  on {name} line {}", line_of(start));
    if let Some(context) = context {
        out.push_str(&format!(", in {context}"));
    }
    out.push_str(":\n");
    let mut offset = 0;
    for (i, line) in text.split('\n').enumerate() {
        let line_end = offset + line.len();
        // `hcl.Range.Overlaps`: the line's bytes (without its newline) meet the subject.
        if offset < end && start < line_end.max(offset + 1) {
            let shown = line.strip_suffix('\r').unwrap_or(line);
            out.push_str(&format!("{:4}: {shown}\n", i + 1));
        }
        offset = line_end + 1;
        if offset > end {
            break;
        }
    }
    out.push('\n');
    out
}

/// The header of the top-level block whose range holds byte `at`: its type and its
/// labels quoted as Go's `%q` quotes them.
fn context(file: &syntax::File, at: usize) -> Option<String> {
    let block = file
        .body
        .blocks
        .iter()
        .find(|b| (b.span.start as usize) <= at && at < b.span.end as usize)?;
    let mut out = block.kind.name.to_string();
    for label in &block.labels {
        out.push(' ');
        out.push_str(&go_quote(&label.name));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snip(text: &str, start: u32, end: u32) -> String {
        let file = syntax::parse(text, Syntax::Native, None);
        snippet("main.tf", text, &file, Span { start, end })
    }

    #[test]
    fn names_the_enclosing_top_level_block() {
        let text = "resource \"terraform_data\" \"a\" {\n  input = var.x\n}\n";
        let at = text.find("var.x").unwrap_or(0) as u32;
        assert_eq!(
            snip(text, at, at + 5),
            "  on main.tf line 2, in resource \"terraform_data\" \"a\":\n   2:   input = var.x\n\n"
        );
    }

    #[test]
    fn a_block_header_has_no_context_and_ranges_show_every_line() {
        let text = "moved {\n  from = a.b\n  to   = a.c\n}\n";
        assert_eq!(snip(text, 0, 5), "  on main.tf line 1:\n   1: moved {\n\n");
        let from = text.find("from").unwrap_or(0) as u32;
        let to_end = text.find("a.c").unwrap_or(0) as u32 + 3;
        assert_eq!(
            snip(text, from, to_end),
            "  on main.tf line 2, in moved:\n   2:   from = a.b\n   3:   to   = a.c\n\n"
        );
    }
}
