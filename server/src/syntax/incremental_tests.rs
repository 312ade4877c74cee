//! Incremental parsing gives exactly what a full parse gives: edits found by hand and by
//! fuzzing (fuzz/, target reparse).

use super::*;
use crate::syntax::parse;

/// A clean edit is re-parsed incrementally, to exactly the tree a full parse gives.
fn same_as_full(before: &str, after: &str) {
    let previous = parse(before, Syntax::Native, None);
    let full = parse(after, Syntax::Native, None);
    let incremental = reparse(after, before, &previous, None)
        .unwrap_or_else(|| panic!("no incremental parse for {after:?}"));
    assert_eq!(incremental, full, "{before:?} -> {after:?}");
}

#[test]
fn edits_give_the_tree_a_full_parse_gives() {
    let base = "variable \"a\" {\n  default = 1\n}\n\nlocals {\n  x = \"é\"\n}\n\nresource \"t\" \"n\" {\n  v = [1, 2]\n  nested {\n    k = var.a\n  }\n}\n";
    let edits = [
        base.replace("default = 1", "default = 12"),
        base.replace("x = \"é\"", "x = \"éé\"\n  y = 2"),
        base.replace("v = [1, 2]", "v = [1]"),
        format!("# top\n{base}"),
        format!("{base}\noutput \"o\" {{\n  value = 1\n}}\n"),
        base.replace("\nlocals {", "\n\n\nlocals {"),
        base.replace("resource \"t\" \"n\" {", "resource \"t\" \"m\" {"),
        base.replace("locals {\n  x = \"é\"\n}\n", ""),
    ];
    for after in &edits {
        same_as_full(base, after);
    }
}

#[test]
fn breaking_and_mending_edits_give_the_tree_and_errors_a_full_parse_gives() {
    let base = "variable \"a\" {\n  default = 1\n}\n\nvariable \"b\" {\n  default = 2\n}\n";
    let broken = format!("#{base}");
    let previous = parse(base, Syntax::Native, None);
    let incremental = reparse(&broken, base, &previous, Some(&previous)).expect("balanced slice");
    let full = parse(&broken, Syntax::Native, Some(&previous));
    assert!(full.has_errors());
    assert_eq!(incremental, full);
    // And mending it again, from the broken tree.
    let mended =
        reparse(base, &broken, &incremental, Some(&previous)).expect("errors inside the slice");
    assert_eq!(mended, parse(base, Syntax::Native, None));
    // A broken expression inside a block.
    let bad_expr = base.replace("default = 2", "default = = 2");
    let incremental = reparse(&bad_expr, base, &previous, Some(&previous)).expect("balanced slice");
    assert_eq!(
        incremental,
        parse(&bad_expr, Syntax::Native, Some(&previous))
    );
}

#[test]
fn an_edit_that_breaks_the_slice_falls_back() {
    let base = "variable \"a\" {\n  default = 1\n}\n\nvariable \"b\" {}\n";
    let broken = base.replace("default = 1\n}", "default = 1\n");
    let previous = parse(base, Syntax::Native, None);
    assert!(reparse(&broken, base, &previous, None).is_none());
    // A heredoc opened inside the slice reaching past it cannot parse alone either.
    let heredoc = base.replace("default = 1", "default = <<EOT");
    assert!(reparse(&heredoc, base, &previous, None).is_none());
}

/// Random single edits on real files: whenever an incremental parse is given, it must
/// equal the full parse, tree and diagnostics alike.
#[test]
fn random_edits_agree_with_full_parses() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut texts = Vec::new();
    for dir in [
        "demo",
        "hcl-quirks",
        "check/lifecycle-errors",
        "check/variable-errors",
        "merge/resource-lifecycle",
    ] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            if entry.path().extension().is_some_and(|e| e == "tf") {
                texts.push(std::fs::read_to_string(entry.path()).unwrap());
            }
        }
    }
    let pieces = [
        "}", "{", "\"", "\n", "#", " = ", "x", "<<EOT\n", "/*", "[", "]", "\n}\n", ".0.1", ".*.*",
    ];
    let mut incremental_count = 0;
    for start in [0x5eed_u64, 0x2, 0xb] {
        incremental_count += random_edits(&texts, &pieces, start);
    }
    assert!(
        incremental_count > 150,
        "only {incremental_count} incremental parses"
    );
}

/// Applies 200 pseudo-random edits (from `seed`) to each text in turn, comparing every
/// incremental parse with the full parse; returns how many were incremental.
fn random_edits(texts: &[String], pieces: &[&str], seed: u64) -> usize {
    let mut seed = seed;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % n.max(1)
    };
    let mut incremental_count = 0;
    for text in texts {
        let mut current = text.clone();
        let mut previous = parse(&current, Syntax::Native, None);
        for _ in 0..200 {
            let at = next(current.len() + 1);
            let at = (0..=at)
                .rev()
                .find(|&i| current.is_char_boundary(i))
                .unwrap_or(0);
            let edited = if next(2) == 0 {
                format!(
                    "{}{}{}",
                    &current[..at],
                    pieces[next(pieces.len())],
                    &current[at..]
                )
            } else {
                let end = (at + 1 + next(8)).min(current.len());
                let end = (end..=current.len())
                    .find(|&i| current.is_char_boundary(i))
                    .unwrap_or(current.len());
                format!("{}{}", &current[..at], &current[end..])
            };
            let full = parse(&edited, Syntax::Native, None);
            if let Some(incremental) = reparse(&edited, &current, &previous, None) {
                incremental_count += 1;
                assert_eq!(incremental, full, "edit of {current:?} into {edited:?}");
            }
            current = edited;
            previous = full;
        }
    }
    incremental_count
}

/// What the fuzz target checks: `syntax::reparse` after the edit, the incremental
/// parse or its fall-back, equals the full parse.
fn same_as_fuzzed((before, after): (&str, &str)) {
    let previous = parse(before, Syntax::Native, None);
    let last_good = (!previous.has_errors()).then_some(&previous);
    assert_eq!(
        crate::syntax::reparse(after, Syntax::Native, before, &previous, last_good),
        parse(after, Syntax::Native, last_good),
        "{before:?} -> {after:?}"
    );
}

/// Found by fuzzing (fuzz/, target reparse): an edit that opens or closes a block
/// comment changes how the text after the slice reads.
#[test]
fn edits_that_change_a_comment_beyond_the_slice_give_the_full_parse() {
    let cases = [
        (
            "/**\n * a (b);\n */\nx = 1\n",
            "]*\n * a (b);\n */\nx = 1\n",
        ),
        ("/*\nx\n*/\ny = 2\n", "/*\na = 1\n*/\ny = 2\n"),
        ("a = 1\n/*\nb = 2\n*/\n", "a = 1\n/\nb = 2\n*/\n"),
    ];
    cases.into_iter().for_each(same_as_fuzzed);
}

/// Found by fuzzing (fuzz/, target reparse): after an error HCL's parser is in
/// recovery mode to the end of the file, and a stray token at the top level ends the
/// file, so an edit changes how the text after its slice reads.
#[test]
fn edits_that_change_hcl_recovery_beyond_the_slice_give_the_full_parse() {
    let cases = [
        // Mending an error: the stray `{` after it is reported now.
        ("a\n{\n}\n", "a = 1\n{\n}\n"),
        // A stray `}` ends the file: the arguments after it are gone.
        ("a = 1\nb = 2\n", "}\na = 1\nb = 2\n"),
        // Breaking the first item silences the error of the last.
        ("a = 1\nb = 1\nc = \n", "a\nb = 1\nc = \n"),
        (
            "locals {\n  u = 1\n}\nlocals \n{\n}\n",
            "locals {\n  u = 1\n}\nl}\nlocals \n{\n}ocals \n{\n}\n",
        ),
    ];
    cases.into_iter().for_each(same_as_fuzzed);
    // And the full parse is what Terraform reports (fixtures/validate/
    // syntax-native-stray-token, syntax-native-recovery-mode).
    let full = parse("a\n{\n}\n{\n}\n", Syntax::Native, None);
    assert_eq!(full.diagnostics.len(), 1);
    // (Strata reads on after a stray top-level token, and marks it unread: see
    // `recover_range`.)
    let full = parse("}\na = 1\nb = 2\n", Syntax::Native, None);
    assert_eq!(full.body.attributes.len(), 2);
    assert_eq!(full.unread, vec![Span::new(1, 14)]);
    let full = parse("a\nb = 1\nc = \n", Syntax::Native, None);
    assert_eq!(full.diagnostics.len(), 1);
    assert_eq!(full.body.attributes.len(), 2);
}

/// Found by fuzzing (fuzz/, target reparse): in `<<<y` HCL's scanner reads `<` and
/// then the heredoc `<<y`, which runs to the end of the file; the slice scanner must
/// see that heredoc too.
#[test]
fn a_heredoc_after_a_less_than_sign_is_seen_by_the_slice_scanner() {
    let text = "d {\n  x = a<<<y\n}\n\nr {\n  n = 1\n}\n";
    let cases = [
        (text, text),
        (text, &text[..text.len() - 1]),
        ("d {\n  x = a<<y\n}\n", "d {\n  x = a<<<y\n}\n"),
    ];
    cases.into_iter().for_each(same_as_fuzzed);
}

/// A stray token typed and deleted again: Terraform reads nothing HCL's parser skips
/// after it (`File::unread`: to the end of the file at the top level, to the end of
/// the block inside one), and the incremental parse carries that as the full parse does.
#[test]
fn adding_and_removing_a_stray_token_gives_what_the_full_parse_skips() {
    let base = "variable \"a\" {\n  default = 1\n}\n\nvariable \"b\" {\n  default = 2\n}\n\nvariable \"c\" {}\n";
    let previous = parse(base, Syntax::Native, None);
    let stray_at = |text: &str, token: &str| text.find(token).unwrap() + 1;
    let read = |file: &File| {
        let read = file.read_by_terraform().unwrap_or_else(|| file.clone());
        let names = read
            .body
            .blocks
            .iter()
            .map(|b| b.header())
            .collect::<Vec<_>>();
        let defaults = read
            .body
            .blocks
            .iter()
            .map(|b| b.body.attributes.len())
            .collect();
        (names, defaults)
    };

    // At the top level: a quoted name, then everything after it is skipped.
    let top = base.replace("\nvariable \"b\"", "\"x\" = 1\nvariable \"b\"");
    let incremental = reparse(&top, base, &previous, Some(&previous)).expect("balanced");
    let full = parse(&top, Syntax::Native, Some(&previous));
    assert_eq!(incremental, full);
    assert_eq!(full.body.blocks.len(), 3, "the editor keeps every block");
    let from = stray_at(&top, "\"x\"");
    assert_eq!(full.unread, vec![Span::new(from, top.len())]);
    assert_eq!(read(&full), (vec!["variable \"a\"".to_string()], vec![1]));
    let mended = reparse(base, &top, &incremental, Some(&previous)).expect("balanced");
    assert_eq!(mended, previous);
    assert!(mended.unread.is_empty());

    // Inside a block: the rest of the block is skipped, the next block is read.
    let inner = base.replace("  default = 2\n", "  \"q\" = 1\n  default = 2\n");
    let incremental = reparse(&inner, base, &previous, Some(&previous)).expect("balanced");
    let full = parse(&inner, Syntax::Native, Some(&previous));
    assert_eq!(incremental, full);
    let from = stray_at(&inner, "\"q\"");
    let to = inner.find("}\n\nvariable \"c\"").unwrap() + 1;
    assert_eq!(full.unread, vec![Span::new(from, to)]);
    let headers = ["a", "b", "c"].map(|n| format!("variable \"{n}\""));
    assert_eq!(read(&full), (headers.to_vec(), vec![1, 0, 0]));
    let mended = reparse(base, &inner, &incremental, Some(&previous)).expect("balanced");
    assert_eq!(mended, previous);

    // A stray brace unbalances the file: the full parse, which says the same.
    let brace = base.replace("\nvariable \"b\"", "}\nvariable \"b\"");
    same_as_fuzzed((base, &brace));
    same_as_fuzzed((&brace, base));
    let full = parse(&brace, Syntax::Native, None);
    assert_eq!(
        full.unread,
        vec![Span::new(
            stray_at(&brace, "}\nvariable \"b\""),
            brace.len()
        )]
    );
    // Edits after the stray token, and of it, keep what is skipped.
    same_as_fuzzed((&top, &top.replace("default = 2", "default = 3")));
    same_as_fuzzed((&top, &top.replace("\"x\"", "\"y\"")));
    same_as_fuzzed((&inner, &inner.replace("default = 1", "default = [")));
}

#[test]
fn untouched_items_are_shared_not_copied() {
    let base = "variable \"a\" {}\n\nvariable \"b\" {}\n";
    let previous = parse(base, Syntax::Native, None);
    let after = base.replace("\"b\"", "\"bb\"");
    let file = reparse(&after, base, &previous, None).unwrap();
    assert!(Arc::ptr_eq(&file.body.blocks[0], &previous.body.blocks[0]));
}

/// The texts before and after the edit a reparse fuzz input (fuzz/seeds/reparse/) makes,
/// read as fuzz/fuzz_targets/reparse.rs reads them.
fn fuzzed_edit(name: &str) -> (String, String) {
    let path = format!(
        "{}/../fuzz/seeds/reparse/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let input = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let rest = &input[3..];
    let nul = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
    let before = String::from_utf8_lossy(&rest[..nul]).into_owned();
    let inserted = String::from_utf8_lossy(rest.get(nul + 1..).unwrap_or_default());
    let floor = |mut i: usize| {
        i = i.min(before.len());
        while !before.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = floor(usize::from(input[0]) + 256 * usize::from(input[1]));
    let end = floor(start + usize::from(input[2]));
    let after = format!("{}{inserted}{}", &before[..start], &before[end..]);
    (before, after)
}

/// Found by fuzzing (fuzz/, target reparse): an error typed into a file without any
/// (`variable "a"` made `variabxa"`) puts HCL's parser in recovery mode, and what it skips
/// after the slice changes, so the slice runs to the end of the file.
#[test]
fn an_error_typed_into_a_clean_file_changes_what_is_skipped_after_the_slice() {
    let (before, after) = fuzzed_edit("error-typed-into-a-clean-file");
    same_as_fuzzed((&before, &after));
}

/// Found by fuzzing (fuzz/, target reparse; one of them by CI): a quoted string across
/// lines holding a `{`. HCL's scanner reads on in the string to its closing quote (its
/// parser refuses the line break and reads on in recovery mode); the slice scanner must
/// read it the same way, and hcl-edit's acceptance of it is not HCL's.
#[test]
fn a_quoted_string_across_lines_is_read_as_hcl_reads_it() {
    for name in [
        "brace-closing-a-misread-block",
        "comment-after-a-string-across-lines",
    ] {
        let (before, after) = fuzzed_edit(name);
        same_as_fuzzed((&before, &after));
        same_as_fuzzed((&after, &before));
    }
    let text = "locals {\n  a = \"x\n{y\"\n}\n\nlocals {\n  b = 1\n}\n";
    let full = parse(text, Syntax::Native, None);
    let summaries: Vec<_> = full.diagnostics.iter().map(|d| &*d.summary).collect();
    assert_eq!(
        summaries,
        ["Invalid multi-line string", "Unterminated template string"]
    );
    assert_eq!(full.body.blocks.len(), 2);
    same_as_fuzzed((text, &text.replace("b = 1", "b = 2")));
    same_as_fuzzed((text, &text.replace("x\n{y", "x{y")));
    same_as_fuzzed((&text.replace("x\n{y", "x{y"), text));
}

/// Found by fuzzing (fuzz/, target reparse): `for k, v inrruvn .aners` in a block before
/// the edit. hcl-edit read `in` as the start of `inrruvn` and accepted the block, while
/// HCL's parser, reading `inrruvn` as one identifier, refuses it and skips the rest of
/// the block: the keywords of `for` expressions and directives are whole identifiers.
#[test]
fn a_keyword_is_a_whole_identifier() {
    let (before, after) = fuzzed_edit("text-appended-after-a-heredoc-of-replacement-characters");
    same_as_fuzzed((&before, &after));
    let full = parse("x = [for v inx : v]\n", Syntax::Native, None);
    assert_eq!(full.diagnostics[0].summary, "Invalid 'for' expression");
    let clean = parse(
        "x = [for inx in l : inx if inx > 0]\n",
        Syntax::Native,
        None,
    );
    assert!(clean.diagnostics.is_empty(), "{:?}", clean.diagnostics);
}

/// Found by fuzzing (fuzz/, target reparse): HCL skipped part of an object (`,  }` after
/// a repeated key) before the first error it reported; the slice covers every skipped
/// part as it covers every error, so that part is read again, not lost.
#[test]
fn a_part_skipped_before_the_first_error_stays_skipped() {
    let (before, after) = fuzzed_edit("repeated-key-object-before-a-stray-brace");
    same_as_fuzzed((&before, &after));
    same_as_fuzzed((&after, &before));
}

/// Found by fuzzing (fuzz/, target reparse, session 28): a quoted string holding a lone
/// carriage return, in a file an edit then breaks further on. HCL's model of the broken
/// file marks the text after the carriage return unread; the slice, which starts on a
/// later line, did not, so such texts are parsed whole.
#[test]
fn a_lone_carriage_return_before_the_slice_gives_the_full_parse() {
    let (before, after) = fuzzed_edit("lone-carriage-return-in-a-string");
    same_as_fuzzed((&before, &after));
}
