use super::*;

fn native(text: &str) -> File {
    parse(text, Syntax::Native, None)
}

fn slice(text: &str, span: Span) -> &str {
    &text[span.range()]
}

fn headers(file: &File) -> Vec<String> {
    file.body.blocks.iter().map(|b| b.header()).collect()
}

#[test]
fn good_file_has_every_piece_with_its_span() {
    let text = "resource \"aws_instance\" \"web\" {\n  ami = var.ami\n  tags = { Name = \"x\" }\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n";
    let file = native(text);
    assert!(file.diagnostics.is_empty());
    let block = &file.body.blocks[0];
    assert_eq!(&*block.kind.name, "resource");
    assert_eq!(slice(text, block.kind.span), "resource");
    assert_eq!(block.label(0), Some("aws_instance"));
    assert_eq!(slice(text, block.labels[1].span), "\"web\"");
    assert_eq!(slice(text, block.span), text.trim_end());
    let ami = block.body.attribute("ami").unwrap();
    assert_eq!(slice(text, ami.name.span), "ami");
    assert_eq!(slice(text, ami.expr.span), "var.ami");
    assert!(matches!(ami.expr.kind, ExprKind::Traversal { .. }));
    let lifecycle = block.body.blocks_of("lifecycle").next().unwrap();
    let flag = lifecycle.body.attribute("prevent_destroy").unwrap();
    assert_eq!(flag.expr.kind, ExprKind::Bool(true));
    assert_eq!(slice(text, flag.expr.span), "true");
}

#[test]
fn broken_attribute_hides_nothing_else() {
    let text = "variable \"a\" {}\nresource \"x\" \"y\" {\n  good = 1\n  bad = = 2\n  also_good = 3\n}\noutput \"o\" {\n  value = 1\n}\n";
    let file = native(text);
    assert_eq!(
        headers(&file),
        vec!["variable \"a\"", "resource \"x\" \"y\"", "output \"o\""]
    );
    let resource = &file.body.blocks[1];
    let names: Vec<_> = resource
        .body
        .attributes
        .iter()
        .map(|a| &*a.name.name)
        .collect();
    // HCL keeps an argument whose value is broken (Terraform decodes it), so does Strata;
    // a value that cannot even start is HCL's placeholder at the token found instead.
    assert_eq!(names, vec!["good", "bad", "also_good"]);
    let bad = &resource.body.attributes[1].expr;
    assert!(matches!(bad.kind, ExprKind::Missing));
    assert_eq!(&text[bad.span.range()], "=");
    assert_eq!(file.diagnostics.len(), 1);
    let error = &file.diagnostics[0];
    assert_eq!(error.severity, SyntaxSeverity::Error);
    // The error is on the line of `bad`, not at the start or end of the file.
    let line_start = text.find("  bad").unwrap();
    let line_end = line_start + "  bad = = 2".len();
    assert!(
        (line_start..line_end).contains(&(error.span.start as usize)),
        "{error:?}"
    );
}

#[test]
fn unclosed_block_is_reported_at_its_brace_and_kept() {
    let text = "resource \"a\" \"b\" {\n  x = 1\n\nresource \"c\" \"d\" {\n  y = 2\n}\n";
    let file = native(text);
    assert_eq!(
        headers(&file),
        vec!["resource \"a\" \"b\"", "resource \"c\" \"d\""]
    );
    assert!(file.body.blocks[0].body.attribute("x").is_some());
    assert_eq!(file.diagnostics.len(), 1);
    assert_eq!(file.diagnostics[0].summary, "Unclosed configuration block");
    assert_eq!(file.diagnostics[0].span, Span::new(17, 18));
}

#[test]
fn newline_after_operator_in_for_expression_is_understood() {
    let text = "locals {\n  m = {\n    for k, v in var.x : k => v\n    if v.enabled == true &&\n    v.count > 0\n  }\n}\n";
    let file = native(text);
    assert!(file.diagnostics.is_empty(), "{:?}", file.diagnostics);
    let m = file.body.blocks[0].body.attribute("m").unwrap();
    assert!(matches!(m.expr.kind, ExprKind::For(_)), "{:?}", m.expr.kind);
}

#[test]
fn repeated_object_key_is_understood_with_every_item() {
    let text =
        "locals {\n  a = 1\n  tags = {\n    k = 1\n    k = 2\n  }\n  b = 2\n}\nvariable \"v\" {}\n";
    let file = native(text);
    assert!(file.diagnostics.is_empty(), "{:?}", file.diagnostics);
    let locals = &file.body.blocks[0];
    let tags = locals.body.attribute("tags").unwrap();
    let ExprKind::Object(items) = &tags.expr.kind else {
        panic!("{:?}", tags.expr.kind);
    };
    assert_eq!(items.len(), 2);
    assert!(slice(text, tags.expr.span).starts_with('{'));
    assert!(locals.body.attribute("a").is_some() && locals.body.attribute("b").is_some());
    assert_eq!(headers(&file).len(), 2);
}

#[test]
fn repeated_object_key_in_a_block_whose_header_holds_comments() {
    // The block is read piecewise (hcl-edit refuses the repeat), past the comments HCL
    // skips between the type, the labels and the brace, on one line or several.
    for header in [
        "resource /* x */ terraform_data \"a\" /* y */{",
        "resource \"terraform_data\" /* x\n */ \"a\" { # z",
    ] {
        let text = format!("{header}\n  input = {{ a = 1, a = 2 }}\n}}\n");
        let file = native(&text);
        assert!(
            file.diagnostics.is_empty(),
            "{header}: {:?}",
            file.diagnostics
        );
        let block = &file.body.blocks[0];
        assert_eq!(block.labels.len(), 2, "{header}");
        assert_eq!(block.label(1), Some("a"));
        let input = block.body.attribute("input").unwrap();
        let ExprKind::Object(items) = &input.expr.kind else {
            panic!("{:?}", input.expr.kind);
        };
        assert_eq!(items.len(), 2);
    }
}

#[test]
fn repeated_attribute_in_a_body_is_still_an_error() {
    let file = native("resource \"a\" \"b\" {\n  x = 1\n  x = 2\n}\n");
    assert!(file.has_errors());
    assert_eq!(file.diagnostics[0].summary, "Attribute redefined");
}

#[test]
fn broken_block_falls_back_to_the_last_good_tree() {
    let good = native("variable \"a\" {\n  default = 1\n}\n");
    assert!(good.diagnostics.is_empty());
    let broken_text = "variable \"a {\n  default = 1\n}\n";
    let file = parse(broken_text, Syntax::Native, Some(&good));
    assert!(file.has_errors());
    assert_eq!(file.body.blocks.len(), 1);
    assert!(file.body.blocks[0].stale);
    assert_eq!(file.body.blocks[0].label(0), Some("a"));
}

#[test]
fn bom_and_crlf_are_accepted() {
    let text = "\u{feff}variable \"a\" {\r\n  default = \"é\"\r\n}\r\n";
    let file = native(text);
    assert!(file.diagnostics.is_empty(), "{:?}", file.diagnostics);
    let attr = file.body.blocks[0].body.attribute("default").unwrap();
    assert_eq!(slice(text, attr.expr.span), "\"é\"");
}

#[test]
fn json_blocks_labels_and_nested_meta_blocks() {
    let text = r#"{
  "//": "a comment",
  "variable": {"région": {"default": "é"}},
  "resource": {
    "aws_instance": {
      "web": {
        "ami": "${var.ami}",
        "tags": {"a": 1, "a": 2},
        "lifecycle": {"prevent_destroy": true}
      }
    }
  },
  "locals": [{"x": 1}, {"y": 2}]
}"#;
    let file = parse(text, Syntax::Json, None);
    assert!(file.diagnostics.is_empty(), "{:?}", file.diagnostics);
    assert_eq!(
        headers(&file),
        vec![
            "variable \"région\"",
            "resource \"aws_instance\" \"web\"",
            "locals",
            "locals"
        ]
    );
    let var = &file.body.blocks[0];
    assert_eq!(slice(text, var.labels[0].span), "\"région\"");
    let web = &file.body.blocks[1];
    assert_eq!(web.body.blocks_of("lifecycle").count(), 1);
    let tags = web.body.attribute("tags").unwrap();
    match &tags.expr.kind {
        ExprKind::Json(JsonValue {
            kind: JsonKind::Object(props),
            ..
        }) => assert_eq!(props.len(), 2),
        other => panic!("{other:?}"),
    }
    assert_eq!(slice(text, tags.expr.span), r#"{"a": 1, "a": 2}"#);
}

#[test]
fn json_syntax_error_is_placed_and_strict() {
    let text = "{\n  \"variable\": {\"a\": {},}\n}\n";
    let file = parse(text, Syntax::Json, None);
    assert!(file.has_errors());
    let at = file.diagnostics[0].span.start as usize;
    assert_eq!(
        text[..at].matches('\n').count(),
        1,
        "{:?}",
        file.diagnostics
    );
    let comment = parse("{ // c\n}", Syntax::Json, None);
    assert!(comment.has_errors());
}

#[test]
fn json_root_is_an_object_or_an_array_of_objects() {
    let file = parse("[1]", Syntax::Json, None);
    assert_eq!(file.diagnostics[0].summary, "Incorrect JSON value type");
    let file = parse("\"x\"", Syntax::Json, None);
    assert_eq!(file.diagnostics[0].summary, "Root value must be object");
    let file = parse(
        r#"[{"variable": {"a": {}}}, {"locals": {"b": 1}}]"#,
        Syntax::Json,
        None,
    );
    assert!(file.diagnostics.is_empty(), "{:?}", file.diagnostics);
    assert_eq!(file.body.blocks.len(), 2);
}

#[test]
fn json_parsing_goes_on_after_a_broken_value_as_hcl_does() {
    // The object under "o" lacks a colon: HCL drops it (an invalid value where it began)
    // and reads on, so "locals" is still a block and the output's body is refused.
    let text = r#"{"output": {"o": {"value" 1}}, "locals": {"l": 1}}"#;
    let file = parse(text, Syntax::Json, None);
    let summaries: Vec<_> = file.diagnostics.iter().map(|d| &*d.summary).collect();
    assert_eq!(
        summaries,
        vec!["Incorrect JSON value type", "Missing property value colon"]
    );
    assert_eq!(slice(text, file.diagnostics[0].span), "{");
    assert_eq!(headers(&file), vec!["locals"]);
}

#[test]
fn json_second_definitions_are_reported_once_per_lookup_and_dropped() {
    let text = r#"{"terraform": {"required_version": "1", "required_version": "2"},
        "locals": {"a": 1, "a": 2}}"#;
    let file = parse(text, Syntax::Json, None);
    let summaries: Vec<_> = file.diagnostics.iter().map(|d| &*d.summary).collect();
    // Terraform reads required_version twice (a sniff, then the terraform block).
    assert_eq!(
        summaries,
        vec![
            "Duplicate argument",
            "Duplicate argument",
            "Duplicate attribute definition"
        ]
    );
    assert!(file.diagnostics[0].detail.contains("{range}"));
    for block in &file.body.blocks {
        assert_eq!(block.body.attributes.len(), 1, "{}", block.header());
    }
}

#[test]
fn a_body_closing_on_its_last_line_is_refused_as_hcl_refuses_it() {
    let file = native("locals {\n  x1 = 1 }\n");
    assert_eq!(headers(&file), vec!["locals"]);
    let summaries: Vec<_> = file
        .diagnostics
        .iter()
        .map(|d| d.summary.as_str())
        .collect();
    assert_eq!(summaries, vec!["Missing newline after argument"]);
}

/// Every prefix of a file using most of the syntax is a half-typed file: each parses,
/// and every error lies within the text.
#[test]
fn every_prefix_of_a_rich_file_parses_with_errors_inside_the_text() {
    let text = r#"resource "aws_instance" "web" {
  count = var.n > 0 ? 2 : 0 # comment
  tags = { Name = "web-${count.index}", "k" = [for x in local.xs : upper(x) if x != ""] }
  user_data = <<-EOT
    echo "%{ if var.on }on%{ else }off%{ endif }" \q
  EOT
  dynamic "ebs" {
    for_each = { for k, v in var.disks : k => v... }
    content { size = ebs.value[*].size }
  }
  lifecycle { ignore_changes = [tags["x"], ami] }
}
output "o" { value = provider::aws::arn_parse(x).region }
"#;
    for (cut, _) in text.char_indices() {
        let prefix = &text[..cut];
        let file = native(prefix);
        for d in &file.diagnostics {
            assert!(
                d.span.start <= d.span.end && d.span.end as usize <= prefix.len(),
                "{cut}: {d:?}"
            );
        }
    }
}

/// Found by fuzzing (fuzz/, targets merge and plan): a string whose last character is a
/// backslash, at the end of the file, moved the scanner past the end; an escaped
/// multi-byte character left it inside the character.
#[test]
fn escapes_at_the_end_of_the_text_or_of_wide_characters_parse() {
    for text in [
        "a = \"x\\",
        "check \"c\\",
        "x {\n  a = \"\\",
        "x {\n  b = \"\\é\nresource \"a\" \"b\" {\n}\n",
        "x {\n  b = \"\\é\"\n",
    ] {
        let file = native(text);
        assert!(file.has_errors(), "{text:?}");
        for d in &file.diagnostics {
            assert!(d.span.end as usize <= text.len(), "{text:?}: {d:?}");
        }
    }
}

/// Compares the native parse of every `.tf` file of `fixtures/validate/<fixture>` with what
/// `terraform validate` said of it (`scripts/record-validate.py`): summary, detail and
/// range of every error. With `refused`, each file must hold an error.
fn assert_parsed_as_recorded(fixture: &str, refused: bool) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/validate")
        .join(fixture);
    let recorded = std::fs::read_to_string(dir.join("expected.json")).unwrap();
    let recorded: serde_json::Value = serde_json::from_str(&recorded).unwrap();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "tf"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{fixture}");
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut expected: Vec<(String, String, u64, u64)> = recorded["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["range"]["filename"] == name.as_str())
            .map(|d| {
                let byte = |end: &str| d["range"][end]["byte"].as_u64().unwrap();
                let text = |key: &str| d[key].as_str().unwrap().to_string();
                (text("summary"), text("detail"), byte("start"), byte("end"))
            })
            .collect();
        expected.sort();
        assert_eq!(!expected.is_empty(), refused, "{fixture}/{name}");
        let text = std::fs::read_to_string(&path).unwrap();
        let mut found: Vec<_> = native(&text)
            .diagnostics
            .iter()
            .map(|d| {
                let (start, end) = (u64::from(d.span.start), u64::from(d.span.end));
                (d.summary.clone(), d.detail.clone(), start, end)
            })
            .collect();
        found.sort();
        assert_eq!(found, expected, "{fixture}/{name}");
    }
}

/// Where HCL's scanner emits newline tokens (outside brackets, parentheses, `for`
/// expressions and templates), no line break may follow a traversal's `.`, none may sit
/// inside a full splat's brackets, and one after a closing bracket or parenthesis ends
/// the expression. Each file of `syntax-native-newline-steps` is one such text, each
/// argument of `syntax-native-newline-steps-legal` one HCL accepts.
#[test]
fn line_breaks_in_traversals_are_read_as_terraform_recorded() {
    assert_parsed_as_recorded("syntax-native-newline-steps", true);
    assert_parsed_as_recorded("syntax-native-newline-steps-legal", false);
}

/// Found by the agreement test on mangled copies of the corpus: the lexer of HCL's model
/// (`diagnose`, which reports a broken file's errors) read the `${` of a heredoc's `$${`
/// as an interpolation, so `$${G#W}` commented out the rest of the heredoc and the error
/// after it went unreported.
#[test]
fn heredoc_escapes_are_literal_text_as_terraform_recorded() {
    assert_parsed_as_recorded("syntax-native-heredoc-escapes", true);
}
