use super::*;

fn pos(line: u32, column: u32) -> Position {
    Position { line, column }
}

#[test]
fn ascii_round_trip_in_every_encoding() {
    let rope = Rope::from_str("abc\ndef\n");
    for enc in [
        PositionEncoding::Utf8,
        PositionEncoding::Utf16,
        PositionEncoding::Utf32,
    ] {
        assert_eq!(position(&rope, 5, enc), pos(1, 1));
        assert_eq!(byte_offset(&rope, pos(1, 1), enc), 5);
    }
}

#[test]
fn accented_letter_counts_differently_per_encoding() {
    // "é" is two bytes, one UTF-16 unit, one scalar.
    let rope = Rope::from_str("x = \"é\" # z\n");
    let z = "x = \"é\" # ".len();
    assert_eq!(position(&rope, z, PositionEncoding::Utf8), pos(0, 11));
    assert_eq!(position(&rope, z, PositionEncoding::Utf16), pos(0, 10));
    assert_eq!(position(&rope, z, PositionEncoding::Utf32), pos(0, 10));
    assert_eq!(byte_offset(&rope, pos(0, 10), PositionEncoding::Utf16), z);
    assert_eq!(byte_offset(&rope, pos(0, 11), PositionEncoding::Utf8), z);
}

#[test]
fn cjk_takes_three_bytes_and_one_utf16_unit() {
    let rope = Rope::from_str("名前 = 1");
    let eq = "名前 ".len();
    assert_eq!(eq, 7);
    assert_eq!(position(&rope, eq, PositionEncoding::Utf16), pos(0, 3));
    assert_eq!(position(&rope, eq, PositionEncoding::Utf8), pos(0, 7));
    assert_eq!(byte_offset(&rope, pos(0, 3), PositionEncoding::Utf32), eq);
}

#[test]
fn emoji_takes_two_utf16_units() {
    let rope = Rope::from_str("a😀b");
    let b = "a😀".len();
    assert_eq!(position(&rope, b, PositionEncoding::Utf16), pos(0, 3));
    assert_eq!(position(&rope, b, PositionEncoding::Utf32), pos(0, 2));
    assert_eq!(position(&rope, b, PositionEncoding::Utf8), pos(0, 5));
    assert_eq!(byte_offset(&rope, pos(0, 3), PositionEncoding::Utf16), b);
    // A column between the two halves of the surrogate pair rounds down to the emoji.
    assert_eq!(byte_offset(&rope, pos(0, 2), PositionEncoding::Utf16), 1);
    // A byte offset inside the emoji rounds down too.
    assert_eq!(position(&rope, 3, PositionEncoding::Utf16), pos(0, 1));
}

#[test]
fn crlf_is_one_line_break_and_columns_clamp_before_it() {
    let rope = Rope::from_str("ab\r\ncd\r\n");
    assert_eq!(position(&rope, 4, PositionEncoding::Utf16), pos(1, 0));
    assert_eq!(byte_offset(&rope, pos(0, 99), PositionEncoding::Utf16), 2);
    assert_eq!(byte_offset(&rope, pos(1, 1), PositionEncoding::Utf16), 5);
    // A lone CR is a line break for LSP too.
    let rope = Rope::from_str("a\rb");
    assert_eq!(position(&rope, 2, PositionEncoding::Utf16), pos(1, 0));
}

#[test]
fn unicode_line_separator_is_not_a_line_break() {
    let rope = Rope::from_str("a\u{2028}b\nc");
    assert_eq!(rope.len_lines(), 2);
    assert_eq!(
        position(&rope, "a\u{2028}b\n".len(), PositionEncoding::Utf16),
        pos(1, 0)
    );
}

#[test]
fn position_past_the_end_clamps_to_the_end() {
    let rope = Rope::from_str("ab\ncd");
    assert_eq!(byte_offset(&rope, pos(9, 9), PositionEncoding::Utf16), 5);
    assert_eq!(position(&rope, 99, PositionEncoding::Utf16), pos(1, 2));
}

#[test]
fn bom_is_blanked_without_moving_offsets() {
    let text = "\u{feff}a = 1";
    let clean = without_bom(text);
    assert_eq!(clean.len(), text.len());
    assert_eq!(&clean[3..], "a = 1");
    assert!(matches!(without_bom("a"), std::borrow::Cow::Borrowed(_)));
}

#[test]
fn incremental_changes_apply_in_order() {
    let mut doc = Document::new("resource \"a\" \"b\" {\n}\n", 1);
    let changes = [
        TextChange {
            range: Some((pos(0, 18), pos(0, 18))),
            text: "\n  x = \"é\"".into(),
        },
        TextChange {
            range: Some((pos(1, 7), pos(1, 8))),
            text: "😀".into(),
        },
    ];
    doc.apply_changes(&changes, 2, PositionEncoding::Utf16)
        .unwrap();
    assert_eq!(doc.text(), "resource \"a\" \"b\" {\n  x = \"😀\"\n}\n");
    assert_eq!(doc.version(), 2);
}

#[test]
fn whole_document_change_replaces_text() {
    let mut doc = Document::new("old", 1);
    let change = TextChange {
        range: None,
        text: "new".into(),
    };
    doc.apply_changes(&[change], 5, PositionEncoding::Utf8)
        .unwrap();
    assert_eq!(doc.text(), "new");
}

#[test]
fn inverted_range_is_refused_and_nothing_changes() {
    let mut doc = Document::new("abc", 1);
    let changes = [
        TextChange {
            range: Some((pos(0, 0), pos(0, 1))),
            text: String::new(),
        },
        TextChange {
            range: Some((pos(0, 2), pos(0, 1))),
            text: String::new(),
        },
    ];
    assert!(doc
        .apply_changes(&changes, 2, PositionEncoding::Utf16)
        .is_err());
    assert_eq!(doc.text(), "abc");
    assert_eq!(doc.version(), 1);
}

#[test]
fn source_pos_agrees_with_source_positions_everywhere() {
    let text = "a = 1\r\nbé = \"ü\"\rc\n\n😀 = 2\r\n";
    let positions = SourcePositions::new(text);
    for offset in 0..=text.len() + 2 {
        assert_eq!(
            source_pos(text, offset),
            positions.at(offset),
            "offset {offset}"
        );
    }
}

#[test]
fn close_names_answers_as_a_scan_of_every_candidate() {
    let candidates = [
        "alpha", "alpah", "beta", "betas", "gamma", "a", "ab", "été", "ete",
    ];
    let names = names::CloseNames::new(candidates);
    let questions = [
        "alpha", "alph", "bta", "gama", "x", "b", "ete", "étés", "zzzzzz",
    ];
    // Asked enough times that the index answers too.
    for _ in 0..4 {
        for q in questions {
            let scan = candidates
                .iter()
                .enumerate()
                .map(|(i, c)| (names::distance(q, c), i))
                .filter(|(d, _)| *d < 3)
                .min()
                .map(|(_, i)| candidates[i]);
            assert_eq!(names.closest(q), scan, "{q}");
        }
    }
}

#[test]
fn columns_count_grapheme_clusters_within_tokens_as_hcl_does() {
    // A zero-width joiner joins the letter before it: one column.
    let text = "s = \"a\u{200D}b\"";
    assert_eq!(source_pos(text, text.len()).column, 9);
    assert_eq!(SourcePositions::new(text).at(text.len()).column, 9);
    // A combining mark right after the opening quote starts a token's first column.
    let text = "s = \"\u{301}a\"";
    assert_eq!(source_pos(text, text.len()).column, 9);
}

#[test]
fn terraform_positions_end_lines_at_line_feeds_only() {
    // HCL counts a lone carriage return as one more column; the editor's lines end there.
    let text = "a = 1\rbb = 2\r\nc";
    let positions = SourcePositions::new(text);
    let at = |line, column, byte| SourcePos { line, column, byte };
    assert_eq!(positions.at(6), at(1, 7, 6));
    assert_eq!(positions.at(14), at(2, 1, 14));
    assert_eq!(source_pos(text, 14), at(2, 1, 14));
    assert_eq!(positions.line_text(1), "a = 1\rbb = 2");
    assert_eq!(positions.line_text(2), "c");
    assert_eq!(SourcePositions::json(text).at(14), at(2, 1, 14));
}
