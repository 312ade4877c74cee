//! The formatter on small texts; `fixtures/fmt/` holds cases recorded from `terraform fmt`
//! (`tests/fmt.rs`), and `tests/fmt_differential.rs` compares whole corpora with it.

use super::*;

fn fmt(text: &str) -> String {
    formatted(text).expect("formats")
}

#[test]
fn indents_spaces_and_aligns() {
    assert_eq!(
        fmt("resource \"a\" \"b\" {\nx=1\n  longer   =  [1,2]\n}\n"),
        "resource \"a\" \"b\" {\n  x      = 1\n  longer = [1, 2]\n}\n"
    );
}

#[test]
fn edits_touch_only_the_gaps_that_change() {
    let edits = format("a  = 1\nb = 2\n").unwrap();
    assert_eq!(
        edits,
        vec![TextEdit {
            range: 1..3,
            new_text: " ".into()
        }]
    );
}

#[test]
fn rewrites_labels_interpolations_and_legacy_types() {
    assert_eq!(
        fmt("variable v {\n  type = \"list\"\n  default = \"${var.x}\"\n}\n"),
        "variable \"v\" {\n  type    = list(string)\n  default = var.x\n}\n"
    );
}

#[test]
fn a_syntax_error_leaves_the_file_alone() {
    let err = format("a = \n  b =").unwrap_err();
    assert!(matches!(err, NotFormatted::SyntaxError { .. }), "{err}");
}

#[test]
fn range_formatting_keeps_to_its_lines() {
    let text = "a  = 1\n\nb  = 2\n";
    let edits = format_range(text, 8..9, SyntaxCheck::Needed).unwrap();
    assert_eq!(apply(text, &edits), "a  = 1\n\nb = 2\n");
}

#[test]
fn typing_a_closing_brace_formats_its_block() {
    let text = "x  = 1\nb {\nc=1\n}";
    let edits = format_on_type(text, text.len(), '}', SyntaxCheck::Needed).unwrap();
    assert_eq!(apply(text, &edits), "x  = 1\nb {\n  c = 1\n}");
}

#[test]
fn the_spaces_ending_a_file_are_kept_and_no_line_break_is_added() {
    assert_eq!(fmt(""), "");
    assert_eq!(fmt("a = 1 \t"), "a = 1  ");
    assert_eq!(fmt("b {}\n  "), "b {}\n  ");
}

#[test]
fn labels_hcl_scans_as_several_tokens_are_dropped() {
    assert_eq!(
        fmt("t \"$${\" \"a$${\" \"\\u0041\" {}\n"),
        "t \"$${\" \"A\" {}\n"
    );
}

#[test]
fn typing_a_line_break_formats_the_line_it_ended_only() {
    // The editor indented the new line (the cursor stands after it) and closed the block.
    let text = "a  = 1\nb {\nc=1\n  \n}\n";
    let cursor = text.find("  \n}").unwrap() + 2;
    let edits = format_on_type(text, cursor, '\n', SyntaxCheck::Needed).unwrap();
    assert_eq!(apply(text, &edits), "a  = 1\nb {\n  c = 1\n  \n}\n");
}

#[test]
fn a_text_known_to_parse_is_laid_out_the_same() {
    let text = "resource \"a\" \"b\" {\nx=1\n  longer   =  [1,2]\n}\n";
    assert_eq!(
        format_checked(text, SyntaxCheck::Passed),
        format_checked(text, SyntaxCheck::Needed)
    );
    // Only the check refuses a broken text.
    assert!(format_checked("x = {\n", SyntaxCheck::Needed).is_err());
}
