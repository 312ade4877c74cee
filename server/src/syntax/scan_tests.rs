//! Tests of the lexical scanner (`scan.rs`): items, heredocs, blanked newlines, balance.

use super::*;

fn spans(text: &str) -> Vec<&str> {
    items(text, 0..text.len())
        .into_iter()
        .map(|i| &text[i.span])
        .collect()
}

#[test]
fn splits_top_level_items() {
    let text = "a = 1\n\n# c\nresource \"x\" \"y\" {\n  b = \"}\"\n}\nc = [\n 1,\n]\n";
    assert_eq!(
        spans(text),
        vec![
            "a = 1",
            "resource \"x\" \"y\" {\n  b = \"}\"\n}",
            "c = [\n 1,\n]"
        ]
    );
}

#[test]
fn heredoc_bodies_span_their_lines() {
    let text = "a = <<EOT\n  x ${1}\n y  \nEOT\nb = <<-E\n    z\n    E\nc = \"<<EOT\"\n";
    let bodies: Vec<&str> = heredoc_bodies(text).into_iter().map(|r| &text[r]).collect();
    assert_eq!(bodies, ["  x ${1}\n y  \n", "    z\n"]);
}

#[test]
fn heredoc_openers_are_read_as_hcl_reads_them() {
    // `<<1A` and a blank after the marker open nothing; in `<<<y` the heredoc is `<<y`.
    let text = "a = <<1A\nb = 1\nc = <<EOT \nd = 2\ne = x<<<y\n}\ny\nf = 3\n";
    assert_eq!(
        spans(text),
        vec![
            "a = <<1A",
            "b = 1",
            "c = <<EOT",
            "d = 2",
            "e = x<<<y\n}\ny",
            "f = 3"
        ]
    );
}

#[test]
fn heredoc_and_template_braces_do_not_count() {
    let text = "a = <<EOT\n}\n${x}\nEOT\nb = \"${ {a=1}[\"a\"] }\"\nc = 2\n";
    assert_eq!(
        spans(text),
        vec![
            "a = <<EOT\n}\n${x}\nEOT",
            "b = \"${ {a=1}[\"a\"] }\"",
            "c = 2"
        ]
    );
}

#[test]
fn unclosed_block_stops_at_next_header() {
    let text = "resource \"a\" \"b\" {\n  x = 1\n\nresource \"c\" \"d\" {\n}\n";
    let found = items(text, 0..text.len());
    assert_eq!(found.len(), 2);
    assert_eq!(
        &text[found[0].span.clone()],
        "resource \"a\" \"b\" {\n  x = 1"
    );
    assert_eq!(found[0].unclosed_at, Some(17));
    assert_eq!(found[0].closers, "}");
    assert_eq!(found[1].unclosed_at, None);
}

#[test]
fn blanks_newlines_in_for_and_parens_only() {
    let text = "x = {\n  for k in y : k => k\n  if a &&\n  b # c\n}\nz = {\n a = 1\n}\n";
    let out = blank_ignored_newlines(text).unwrap();
    assert_eq!(out.len(), text.len());
    assert!(out.starts_with("x = {   for k in y : k => k   if a &&   b     }\n"));
    assert!(out.ends_with("z = {\n a = 1\n}\n"));
}

#[test]
fn keeps_the_line_breaks_hcl_reads_in_a_full_splat() {
    let text = "a = x[\n*].y\nb = x[*\n]\nc = f(x[\n*])\nd = x[\n0]\ne = { f = x[ # c\n* ] }\n";
    let out = blank_ignored_newlines(text).unwrap();
    assert_eq!(
        out,
        "a = x[\n*].y\nb = x[*\n]\nc = f(x[ *])\nd = x[ 0]\ne = { f = x[ # c\n* ] }\n"
    );
}

#[test]
fn finds_block_body_brace() {
    let text = "resource \"a{\" b {\n}";
    assert_eq!(body_open(text, 0..text.len()), Some(16));
    let attr = "a = { b = 1 }";
    assert_eq!(body_open(attr, 0..attr.len()), None);
}
