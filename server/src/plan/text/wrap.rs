//! Terraform's word wrapping of prose (`format.WordWrap` over go-wordwrap's `WrapString`):
//! each line not starting with a space is broken at spaces so that it stays within
//! `width - 1` columns; a word longer than that stays whole. Terraform wraps to 78
//! columns when its output is not a terminal, as in `terraform show > file`.

/// The width Terraform wraps to without a terminal.
pub(crate) const COLUMNS: usize = 78;

/// `text` wrapped as Terraform wraps it to `width` columns.
pub(crate) fn word_wrap(text: &str, width: usize) -> String {
    text.split('\n')
        .map(|line| match line.starts_with(' ') {
            true => line.to_string(),
            false => wrap_line(line, width.saturating_sub(1)),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One line broken at white space within `limit` characters.
fn wrap_line(line: &str, limit: usize) -> String {
    let mut out = String::with_capacity(line.len());
    let mut current = 0;
    let (mut word, mut space) = (String::new(), String::new());
    let (mut word_len, mut space_len) = (0, 0);
    for c in line.chars() {
        if c.is_whitespace() && c != '\u{a0}' {
            if space.is_empty() || !word.is_empty() {
                current += space_len + word_len;
                out.push_str(&space);
                out.push_str(&word);
                space.clear();
                word.clear();
                (space_len, word_len) = (0, 0);
            }
            space.push(c);
            space_len += 1;
        } else {
            word.push(c);
            word_len += 1;
            if current + space_len + word_len > limit && word_len < limit {
                out.push('\n');
                current = 0;
                space.clear();
                space_len = 0;
            }
        }
    }
    if word.is_empty() {
        if current + space_len <= limit {
            out.push_str(&space);
        }
    } else {
        out.push_str(&space);
        out.push_str(&word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_breaks_before_the_word_that_passes_the_limit() {
        assert_eq!(
            word_wrap(
                "Terraform has compared your real infrastructure against your configuration and found no differences, so no changes are needed.",
                COLUMNS
            ),
            "Terraform has compared your real infrastructure against your configuration\nand found no differences, so no changes are needed."
        );
        assert_eq!(
            word_wrap("  indented lines stay", 5),
            "  indented lines stay"
        );
    }
}
