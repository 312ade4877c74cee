use super::*;

fn role(name: &str) -> Option<FileRole> {
    classify(name, Dialect::OpenTofu).map(|k| k.role)
}

#[test]
fn override_names_follow_the_stem_rule() {
    for name in [
        "override.tf",
        "override.tf.json",
        "x_override.tf",
        "_override.tf",
        "a_override.tofu.json",
    ] {
        assert_eq!(role(name), Some(FileRole::Override), "{name}");
    }
    for name in [
        "x.override.tf",
        "Override.tf",
        "override_x.tf",
        "xoverride.tf",
        "main.tf",
    ] {
        assert_eq!(role(name), Some(FileRole::Primary), "{name}");
    }
}

#[test]
fn ignored_and_foreign_names_are_not_configuration() {
    for name in [
        ".hidden.tf",
        "main.tf~",
        "#main.tf#",
        "x.tfvars",
        "a.tftest.hcl",
        "a.json",
        "README.md",
    ] {
        assert_eq!(classify(name, Dialect::OpenTofu), None, "{name}");
    }
    // `#` at one end only is not an editor lock file.
    assert!(classify("#main.tf", Dialect::Terraform).is_some());
}

#[test]
fn syntax_comes_from_the_extension() {
    let kind = classify("a.tf.json", Dialect::Terraform).unwrap();
    assert_eq!(kind.syntax, Syntax::Json);
    assert_eq!(
        classify("a.tf", Dialect::Terraform).unwrap().syntax,
        Syntax::Native
    );
}

#[test]
fn terraform_ignores_tofu_files() {
    assert_eq!(classify("main.tofu", Dialect::Terraform), None);
    assert!(classify("main.tofu", Dialect::OpenTofu).is_some());
}

#[test]
fn files_sort_in_byte_order_primaries_first() {
    let names = [
        "b_override.tf",
        "a.tf",
        "_x.tf",
        "Z_y.tf",
        "override.tf.json",
        "override.tf",
    ];
    let set = FileSet::from_names(&names, Dialect::Terraform);
    assert_eq!(set.primary, vec!["Z_y.tf", "_x.tf", "a.tf"]);
    assert_eq!(
        set.overrides,
        vec!["b_override.tf", "override.tf", "override.tf.json"]
    );
}

#[test]
fn tofu_twin_hides_the_tf_file_of_the_same_stem() {
    let names = [
        "resources.tf",
        "resources.tofu",
        "resources.tf.json",
        "more.tf",
        "vars_override.tf",
        "vars_override.tofu",
        "other.tf.json",
        "other.tofu",
    ];
    let set = FileSet::from_names(&names, Dialect::OpenTofu);
    // `other.tofu` does not hide `other.tf.json`: only `.tf`↔`.tofu` and
    // `.tf.json`↔`.tofu.json` are twins.
    assert_eq!(
        set.primary,
        vec![
            "more.tf",
            "other.tf.json",
            "other.tofu",
            "resources.tf.json",
            "resources.tofu"
        ]
    );
    assert_eq!(set.overrides, vec!["vars_override.tofu"]);
    // Terraform reads the .tf files and none of the .tofu ones.
    let tf = FileSet::from_names(&names, Dialect::Terraform);
    assert!(tf.in_load_order().all(|n| !n.contains(".tofu")));
    assert_eq!(tf.in_load_order().count(), 5);
}

#[test]
fn dialect_is_detected_from_tofu_files() {
    assert_eq!(detect_dialect(["a.tf", "b.tf.json"]), Dialect::Terraform);
    assert_eq!(detect_dialect(["a.tf", "b.tofu"]), Dialect::OpenTofu);
    assert_eq!(detect_dialect(["a.tf", ".b.tofu"]), Dialect::Terraform);
    assert_eq!("opentofu".parse::<Dialect>(), Ok(Dialect::OpenTofu));
    assert!("x".parse::<Dialect>().is_err());
}
