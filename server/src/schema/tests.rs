use super::*;

#[test]
fn top_level_blocks_take_terraforms_labels() {
    let file = file_schema();
    for (name, labels) in [
        ("terraform", 0),
        ("provider", 1),
        ("variable", 1),
        ("locals", 0),
        ("output", 1),
        ("module", 1),
        ("resource", 2),
        ("data", 2),
        ("ephemeral", 2),
        ("moved", 0),
        ("removed", 0),
        ("import", 0),
        ("check", 1),
    ] {
        let b = file.block(name, Dialect::Terraform).expect(name);
        assert_eq!(b.schema.labels.len(), labels, "{name}");
    }
    assert!(file.block("language", Dialect::Terraform).is_none());
    assert!(file.block("language", Dialect::OpenTofu).is_some());
}

#[test]
fn nested_block_labels_follow_the_path() {
    assert_eq!(block_labels(&[], "resource"), Some(2));
    assert_eq!(block_labels(&["check"], "data"), Some(2));
    assert_eq!(block_labels(&["resource"], "provisioner"), Some(1));
    assert_eq!(
        block_labels(&["resource", "provisioner"], "connection"),
        Some(0)
    );
    assert_eq!(block_labels(&["resource", "dynamic"], "content"), Some(0));
    assert_eq!(block_labels(&["terraform"], "backend"), Some(1));
    assert_eq!(block_labels(&["terraform", "cloud"], "workspaces"), Some(0));
    assert_eq!(block_labels(&["variable"], "validation"), Some(0));
    assert_eq!(block_labels(&["resource"], "ingress"), None);
    assert_eq!(block_labels(&[], "resorce"), None);
}

#[test]
fn dialects_decide_what_a_block_takes() {
    let file = file_schema();
    let variable = &file.block("variable", Dialect::Terraform).unwrap().schema;
    assert!(variable.attribute("const", Dialect::Terraform).is_none());
    assert!(variable.attribute("const", Dialect::OpenTofu).is_some());
    let import = &file.block("import", Dialect::Terraform).unwrap().schema;
    let id = |d| import.attribute("id", d).unwrap().requirement;
    assert_eq!(id(Dialect::Terraform), Requirement::Required);
    assert_eq!(id(Dialect::OpenTofu), Requirement::Optional);
    let module = &file.block("module", Dialect::Terraform).unwrap().schema;
    let lifecycle = |d| module.block("lifecycle", d).unwrap().role.clone();
    assert_eq!(lifecycle(Dialect::Terraform), BlockRole::Reserved);
    assert_eq!(lifecycle(Dialect::OpenTofu), BlockRole::Normal);
}

#[test]
fn builtin_provisioners_have_their_arguments() {
    let local = provisioner_schema("local-exec").unwrap();
    assert_eq!(
        local
            .attribute("command", Dialect::Terraform)
            .unwrap()
            .requirement,
        Requirement::Required
    );
    assert!(provisioner_schema("chef").is_none());
}

#[test]
fn every_block_and_argument_is_documented() {
    fn walk(path: &str, schema: &BlockSchema) {
        for a in &schema.attributes {
            assert!(!a.doc.is_empty(), "{path}.{} has no doc", a.name);
        }
        for b in &schema.blocks {
            if b.role != BlockRole::Reserved {
                assert!(!b.schema.doc.is_empty(), "{path}.{} has no doc", b.name);
            }
            walk(&format!("{path}.{}", b.name), &b.schema);
        }
    }
    walk("", file_schema());
}

#[test]
fn cty_types_read_write_and_show_as_terraform_writes_them() {
    let cases = [
        (r#""dynamic""#, "any"),
        (r#"["list", ["map", "number"]]"#, "list(map(number))"),
        (r#"["tuple", ["string", "bool"]]"#, "tuple([string, bool])"),
        (
            r#"["object", {"a": "string", "b": ["set", "number"]}, ["b"]]"#,
            "object({a=string, b=optional(set(number))})",
        ),
    ];
    for (json, shown) in cases {
        let json: serde_json::Value = serde_json::from_str(json).unwrap();
        let t = ValueType::from_json(&json).expect(shown);
        assert_eq!(t.to_string(), shown);
        assert_eq!(t.to_json(), json);
    }
    for bad in [
        r#""strin""#,
        r#"["list"]"#,
        r#"["object", {}, ["a"], 1]"#,
        "3",
    ] {
        let json: serde_json::Value = serde_json::from_str(bad).unwrap();
        assert_eq!(ValueType::from_json(&json), None, "{bad}");
    }
}
