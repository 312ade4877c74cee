//! The comments of a native-syntax file, as HCL's scanner finds them (never inside a
//! string or heredoc), for editor features that fold or colour them.

use super::lexer::{Lexer, Tok};
use super::Span;

/// One comment: a `#` or `//` line comment (its span ends after the newline), or a
/// `/* */` block comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Comment {
    /// Where it is written.
    pub span: Span,
    /// Whether it is a `/* */` comment.
    pub block: bool,
}

/// Every comment of `text`, in order.
pub fn comments(text: &str) -> Vec<Comment> {
    let mut lexer = Lexer::new(text, 0..text.len());
    let mut out = Vec::new();
    let mut previous_end = 0;
    loop {
        let token = lexer.next_token();
        // The scanner skips block comments: they are in the gaps between tokens.
        block_comments(text, previous_end..token.span.start, &mut out);
        if token.kind == Tok::Eof {
            return out;
        }
        if token.kind == Tok::LineComment {
            out.push(Comment {
                span: Span::new(token.span.start, token.span.end),
                block: false,
            });
        }
        previous_end = token.span.end;
    }
}

/// The `/* */` comments in a gap between two tokens (which holds only spaces and them).
fn block_comments(text: &str, gap: std::ops::Range<usize>, out: &mut Vec<Comment>) {
    let Some(mut rest) = text.get(gap.clone()) else {
        return;
    };
    let mut at = gap.start;
    while let Some(open) = rest.find("/*") {
        let len = rest[open + 2..]
            .find("*/")
            .map_or(rest.len() - open, |i| i + 4);
        out.push(Comment {
            span: Span::new(at + open, at + open + len),
            block: true,
        });
        at += open + len;
        rest = &rest[open + len..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_line_and_block_comments_but_not_inside_strings() {
        let text = "# a\n// b\nx = \"# no\" /* c\n d */\ny = <<EOT\n# no\nEOT\n";
        let found: Vec<&str> = comments(text)
            .iter()
            .map(|c| &text[c.span.range()])
            .collect();
        assert_eq!(found, ["# a\n", "// b\n", "/* c\n d */"]);
    }
}
