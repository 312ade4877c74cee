//! Completion over a workspace built in memory, `|` marking the cursor.

use std::path::PathBuf;
use std::sync::Arc;

use super::*;

fn workspace(files: &[(&str, &str)]) -> (Workspace, PathBuf) {
    let ws = Workspace::new();
    let dir = PathBuf::from("/nonexistent-strata-completion");
    for (name, text) in files {
        ws.open_document(&dir.join(name), &text.replace('|', ""), 1);
    }
    (ws, dir)
}

/// What a client that expands snippets takes.
fn snippets() -> Options {
    Options {
        snippets: true,
        ..Options::default()
    }
}

/// The labels offered at the `|` in `files[0]`.
fn labels(files: &[(&str, &str)]) -> Vec<String> {
    let (ws, dir) = workspace(files);
    let (name, text) = files[0];
    let offset = text.find('|').unwrap();
    complete(&ws, &dir.join(name), offset, snippets())
        .into_iter()
        .map(|i| i.label)
        .collect()
}

fn has(labels: &[String], wanted: &[&str]) {
    for w in wanted {
        assert!(labels.iter().any(|l| l == w), "{w} missing from {labels:?}");
    }
}

#[test]
fn top_level_block_types() {
    let l = labels(&[("main.tf", "|")]);
    has(
        &l,
        &["resource", "variable", "module", "terraform", "locals"],
    );
    assert!(!l.iter().any(|l| l == "required_providers"), "{l:?}");
    let l = labels(&[("main.tf", "res|")]);
    assert_eq!(l, ["resource"]);
}

#[test]
fn arguments_of_a_block_required_first_written_left_out() {
    let l = labels(&[("main.tf", "module \"m\" {\n  version = \"1\"\n  |\n}\n")]);
    assert_eq!(l.first().map(String::as_str), Some("source"), "{l:?}");
    assert!(!l.iter().any(|l| l == "version"), "{l:?}");
    has(&l, &["count", "for_each", "depends_on", "providers"]);
    let l = labels(&[("main.tf", "resource \"a_b\" \"c\" {\n  |\n}\n")]);
    has(
        &l,
        &[
            "count",
            "for_each",
            "provider",
            "depends_on",
            "lifecycle",
            "provisioner",
            "connection",
        ],
    );
    let l = labels(&[(
        "main.tf",
        "resource \"a_b\" \"c\" {\n  lifecycle {\n    |\n  }\n}\n",
    )]);
    has(
        &l,
        &["create_before_destroy", "ignore_changes", "precondition"],
    );
}

#[test]
fn references_with_effective_values() {
    let files = [
        ("main.tf", "variable \"region\" {\n  type = string\n  default = \"eu\"\n}\nlocals {\n  a = var.|\n}\n"),
        ("override.tf", "variable \"region\" {\n  default = \"us\"\n}\n"),
    ];
    let (ws, dir) = workspace(&files);
    let offset = files[0].1.find('|').unwrap();
    let items = complete(&ws, &dir.join("main.tf"), offset, Options::default());
    let region = items.iter().find(|i| i.label == "region").unwrap();
    assert_eq!(region.detail.as_deref(), Some("string = \"us\""));
    let l = labels(&[("main.tf", "locals {\n  a = up|\n}\n")]);
    assert_eq!(l, ["upper"]);
    let l = labels(&[("main.tf", "locals {\n  a = path.|\n}\n")]);
    assert_eq!(l, ["cwd", "module", "root"]);
}

#[test]
fn finite_values() {
    let l = labels(&[(
        "main.tf",
        "resource \"a\" \"b\" {\n  provisioner \"local-exec\" {\n    when = |\n  }\n}\n",
    )]);
    has(&l, &["create", "destroy"]);
    let l = labels(&[("main.tf", "variable \"x\" {\n  type = |\n}\n")]);
    has(&l, &["string", "list", "object"]);
    let l = labels(&[(
        "main.tf",
        "resource \"a\" \"b\" {\n  lifecycle {\n    prevent_destroy = |\n  }\n}\n",
    )]);
    assert_eq!(&l[..2], ["false", "true"]);
}

#[test]
fn override_labels_name_the_declarations() {
    let l = labels(&[
        ("override.tf", "variable \"|\" {}\n"),
        ("main.tf", "variable \"region\" {}\nvariable \"zone\" {}\n"),
    ]);
    assert_eq!(l, ["region", "zone"]);
}

#[test]
fn tfvars_offers_the_module_variables() {
    let l = labels(&[
        ("terraform.tfvars", "zone = \"a\"\n|"),
        (
            "main.tf",
            "variable \"region\" {}\nvariable \"zone\" {}\nvariable \"size\" {\n  default = 1\n}\n",
        ),
    ]);
    assert_eq!(l, ["region", "size"]);
}

#[test]
fn every_offset_of_broken_and_unusual_texts_answers() {
    let texts = [
        "resource \"a_b\" \"c\" {\n  x = <<-EOT\n    ${var.a}é %{ if x }y%{ endif }\n  EOT\n  y = [for k, v in var.m : \"${k}\" if v]\n  dynamic \"d\" {\n    for_each = 1\n    content { z = d.value }\n  }\n}\n",
        "variable \"x\" {\n  type = object({ a = optional(string, \"é\") })\n}\nlocals { a = upper(join(\",\", [var.x.a, \"}\"]), \n}\n",
        "}}}] ) \"\" ${ %{ <<EOT\n\"unclosed\nresource \"x\" \"y\" { a = \"b\n# comment var.\n/* block */ output \"o\" { value = module.m. }",
        "résumé = \"ü\"\n\u{feff}x = y.\n",
    ];
    for text in texts {
        let (ws, dir) = workspace(&[("main.tf", text), ("x.tfvars", text)]);
        for name in ["main.tf", "x.tfvars"] {
            for offset in 0..=text.len() + 2 {
                let items = complete(&ws, &dir.join(name), offset, snippets());
                for item in items {
                    assert!(item.range.start <= item.range.end && item.range.end <= text.len());
                    assert!(
                        text.is_char_boundary(item.range.start)
                            && text.is_char_boundary(item.range.end)
                    );
                }
                let _ = crate::ide::signature_help::signature_help(&ws, &dir.join(name), offset);
            }
        }
    }
}

#[test]
fn json_property_names() {
    let l = labels(&[("main.tf.json", "{\"res|\"}")]);
    assert_eq!(l, ["resource"]);
    let l = labels(&[(
        "main.tf.json",
        "{\"resource\": {\"a_b\": {\"c\": {\"count\": 1, \"|\"}}}}",
    )]);
    assert!(
        l.contains(&"for_each".to_string()) && !l.contains(&"count".to_string()),
        "{l:?}"
    );
    let l = labels(&[
        ("override.tf.json", "{\"variable\": {\"|\": {}}}"),
        ("main.tf", "variable \"region\" {}\n"),
    ]);
    assert_eq!(l, ["region"]);
    let l = labels(&[("main.tf.json", "{\"locals\": {\"a\": \"|\"}}")]);
    assert!(l.is_empty(), "{l:?}");
    // Every offset of broken JSON answers.
    let text = "{\"resource\": [{\"a\": {\"b\": {\"x\\\"é\": [1, {\"c\": }], \"lifecycle\": {\"\"}}}}, \"output\": {\"";
    let (ws, dir) = workspace(&[("main.tf.json", text)]);
    for offset in 0..=text.len() {
        for item in complete(&ws, &dir.join("main.tf.json"), offset, Options::default()) {
            assert!(
                text.is_char_boundary(item.range.start) && text.is_char_boundary(item.range.end)
            );
        }
    }
}

#[test]
fn json_string_templates_complete_references_and_functions() {
    let vars = (
        "variables.tf",
        "variable \"region\" {}\nvariable \"size\" {}\n",
    );
    let in_json = |value: &str| {
        let text =
            format!("{{\"resource\": {{\"a_b\": {{\"c\": {{\"count\": 1, \"x\": {value}}}}}}}}}");
        let (ws, dir) = workspace(&[("main.tf.json", &text), vars]);
        let offset = text.find('|').unwrap();
        let items = complete(&ws, &dir.join("main.tf.json"), offset, Options::default());
        let start = text[..offset].rfind(['.', '{', ' ', '"']).unwrap() + 1;
        for i in &items {
            // The name alone replaces what is typed of it, unquoted.
            assert_eq!(i.range, start..offset, "{i:?}");
            assert_eq!(i.insert.text, i.label, "{i:?}");
        }
        items.into_iter().map(|i| i.label).collect::<Vec<_>>()
    };
    assert_eq!(in_json("\"${var.|\""), ["region", "size"]);
    assert_eq!(in_json("\"a-${var.re|}\""), ["region"]);
    assert_eq!(in_json("[\"x\", \"${up|\"]"), ["upper"]);
    // Escapes read as the JSON syntax reads them: `\"` is a quote of the template.
    assert_eq!(in_json("\"${join(\\\",\\\", [var.s|\""), ["size"]);
    assert_eq!(in_json("\"\\u0041${var.r|\""), ["region"]);
    assert_eq!(in_json("{\"k\": \"%{ if var.s| }\"}"), ["size"]);
    has(&in_json("\"${|\""), &["var", "local", "upper", "count"]);
    // A string's text, and a variables file's strings, are no templates.
    assert!(in_json("\"var.|\"").is_empty());
    assert!(in_json("\"${var.a}-var.|\"").is_empty());
    let l = labels(&[
        ("terraform.tfvars.json", "{\"region\": \"${var.|\"}"),
        ("main.tf", "variable \"region\" {}\n"),
    ]);
    assert!(l.is_empty(), "{l:?}");
}

/// A provider `example/thing` with three resource types and a data source.
fn thing_schemas() -> Arc<dyn crate::schema::ProviderSchemaSource> {
    let schema = r#"{"format_version": "1.0", "provider_schemas": {
      "registry.terraform.io/example/thing": {
        "provider": {"version": 0, "block": {}},
        "resource_schemas": {
          "thing_two": {"version": 0, "block": {}},
          "thing_one": {"version": 0, "block": {}},
          "other": {"version": 0, "block": {}}
        },
        "data_source_schemas": {"thing_info": {"version": 0, "block": {}}}
      }}}"#;
    Arc::new(crate::check::test_support::loaded_schemas(schema))
}

#[test]
fn resource_types_come_from_a_list_prepared_once_per_schema() {
    let marked = "resource \"thing_|\" \"x\" {}\nresource |\ndata \"|\" \"y\" {}\n";
    let (ws, dir) = workspace(&[("main.tf", marked)]);
    ws.set_provider_schemas(thing_schemas());
    let path = dir.join("main.tf");
    let lists = PreparedLists::default();
    let at = |n: usize| {
        let mut offsets = marked.match_indices('|').map(|(i, _)| i);
        offsets.nth(n).map(|i| i - n).expect("cursor")
    };
    let suggested = |n: usize| suggest(&lists, &ws, &path, at(n), Options::default());
    let Suggestions::Prepared { list, .. } = suggested(0) else {
        panic!("resource types are prepared");
    };
    let items = suggested(0).into_items();
    let labels: Vec<&str> = items.iter().map(|i| &*i.label).collect();
    assert_eq!(labels, ["thing_one", "thing_two"]);
    let typed = marked.find("thing_").expect("typed");
    assert!(
        items.iter().all(|i| i.range == (typed..typed + 6)),
        "{items:?}"
    );
    assert_eq!(items[0].insert.text, "thing_one");
    // The same list again, unquoted labels from another, data sources from a third.
    let Suggestions::Prepared { list: again, .. } = suggested(0) else {
        panic!("prepared");
    };
    assert!(Arc::ptr_eq(&list, &again));
    let unquoted = suggested(1).into_items();
    assert_eq!(unquoted.len(), 3, "{unquoted:?}");
    assert_eq!(unquoted[0].insert.text, "\"other\"");
    let data = suggested(2).into_items();
    let labels: Vec<&str> = data.iter().map(|i| &*i.label).collect();
    assert_eq!(labels, ["thing_info"]);
    assert_eq!(
        items[0].detail.as_deref(),
        Some("registry.terraform.io/example/thing")
    );
    // New schemas: a new list.
    ws.set_provider_schemas(thing_schemas());
    let Suggestions::Prepared { list: newer, .. } = suggested(0) else {
        panic!("prepared");
    };
    assert!(!Arc::ptr_eq(&list, &newer));
}
