use std::path::PathBuf;
use std::sync::Arc;

use super::*;
use crate::module::{Dialect, FileSet, Module, SourceFile};

/// A module of in-memory files, for tests of the layers that read merged modules.
pub(crate) fn module(files: &[(&str, &str)], dialect: Dialect) -> Module {
    let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    let set = FileSet::from_names(&names, dialect);
    let sources = set
        .in_load_order()
        .map(|name| {
            let text = files.iter().find(|(n, _)| *n == name).unwrap().1;
            Arc::new(SourceFile::parse(
                PathBuf::from("/m").join(name),
                text.into(),
                None,
                None,
            ))
        })
        .collect();
    Module {
        dir: PathBuf::from("/m"),
        dialect,
        files: set,
        sources,
        core_version: crate::module::CoreVersion::target(dialect),
        revision: 1,
    }
}

fn merged(files: &[(&str, &str)]) -> MergedModule {
    merge(&module(files, Dialect::Terraform))
}

fn key(mode: Mode, t: &str, n: &str) -> ResourceKey {
    ResourceKey {
        mode,
        type_name: t.into(),
        name: n.into(),
    }
}

fn text(m: &MergedModule, a: &Attr) -> String {
    m.file(a.file).text[a.expr().span.range()].to_string()
}

#[test]
fn provenance_lists_every_override_in_order() {
    let m = merged(&[
        ("main.tf", "resource \"a\" \"b\" {\n  x = 1\n}\n"),
        ("override.tf", "resource \"a\" \"b\" {\n  x = 3\n}\n"),
        ("a_override.tf", "resource \"a\" \"b\" {\n  x = 2\n}\n"),
    ]);
    let r = &m.resources[&key(Mode::Managed, "a", "b")];
    let files: Vec<&str> = r
        .provenance
        .overrides
        .iter()
        .map(|o| m.file_name(o.file))
        .collect();
    assert_eq!(files, vec!["a_override.tf", "override.tf"]);
    assert_eq!(m.file_name(r.provenance.decl.file), "main.tf");
    let x = r.config.attribute("x").unwrap();
    assert_eq!(text(&m, x), "3");
    assert_eq!(m.describe(x.origin()), "override.tf:2");
}

#[test]
fn duplicates_keep_first_resource_but_last_variable() {
    let m = merged(&[
        (
            "a.tf",
            "resource \"t\" \"n\" { v = 1 }\nvariable \"x\" { default = 1 }\n",
        ),
        (
            "b.tf",
            "resource \"t\" \"n\" { v = 2 }\nvariable \"x\" { default = 2 }\n",
        ),
    ]);
    let r = &m.resources[&key(Mode::Managed, "t", "n")];
    assert_eq!(text(&m, r.config.attribute("v").unwrap()), "1");
    assert_eq!(text(&m, m.variables["x"].default.as_ref().unwrap()), "2");
    let kinds: Vec<&str> = m.duplicates.iter().map(|d| d.kind).collect();
    assert_eq!(kinds, vec!["resource", "variable"]);
    assert!(m
        .duplicates
        .iter()
        .all(|d| m.file_name(d.later.file) == "b.tf"));
}

#[test]
fn overrides_without_base_are_recorded_not_merged() {
    let m = merged(&[
        ("main.tf", "variable \"a\" {}\n"),
        (
            "override.tf",
            "variable \"b\" {}\nresource \"t\" \"n\" {}\ndata \"t\" \"d\" {}\nlocals {\n  l = 1\n}\noutput \"o\" {}\nmodule \"m\" {}\nprovider \"p\" {\n  alias = \"x\"\n}\nprovider \"q\" {}\n",
        ),
    ]);
    let missing: Vec<(&str, &str)> = m
        .missing_bases
        .iter()
        .map(|b| (b.kind, b.name.as_str()))
        .collect();
    assert_eq!(
        missing,
        vec![
            ("variable", "b"),
            ("resource", "n"),
            ("data", "d"),
            ("locals", "l"),
            ("output", "o"),
            ("module", "m"),
            ("provider", "p"),
        ]
    );
    assert_eq!(m.missing_bases[1].qualifier.as_deref(), Some("t"));
    assert_eq!(m.missing_bases[6].qualifier.as_deref(), Some("x"));
    // A default provider needs no base.
    assert!(m.providers.contains_key(&("q".to_string(), None)));
    assert!(!m.variables.contains_key("b"));
}

#[test]
fn blocks_overrides_may_not_hold_are_set_aside() {
    let files = [
        ("main.tf", "resource \"t\" \"n\" {}\n"),
        (
            "override.tf",
            "moved {\n  from = a.b\n  to = a.c\n}\nimport {\n  to = t.n\n  id = \"x\"\n}\ncheck \"c\" {}\nremoved {\n  from = t.z\n}\nephemeral \"e\" \"f\" {}\nresource \"t\" \"n\" {\n  lifecycle {\n    replace_triggered_by = [t.z]\n  }\n}\n",
        ),
    ];
    let tf = merge(&module(&files, Dialect::Terraform));
    let aside: Vec<(&str, bool)> = tf
        .set_aside
        .iter()
        .map(|s| (s.kind.as_str(), s.rejected))
        .collect();
    assert_eq!(
        aside,
        vec![
            ("moved", true),
            ("import", true),
            ("check", true),
            ("removed", false),
            ("ephemeral", false),
            ("replace_triggered_by", false),
        ]
    );
    assert!(tf.resources[&key(Mode::Managed, "t", "n")]
        .lifecycle
        .replace_triggered_by
        .is_none());
    // OpenTofu rejects `removed` in overrides and merges `ephemeral` (here: no base).
    let tofu = merge(&module(&files, Dialect::OpenTofu));
    assert!(tofu
        .set_aside
        .iter()
        .any(|s| s.kind == "removed" && s.rejected));
    assert!(tofu.missing_bases.iter().any(|b| b.kind == "ephemeral"));
}

#[test]
fn variable_override_flags_and_kept_defaults_type() {
    let m = merged(&[
        (
            "main.tf",
            "variable \"v\" {\n  type = object({ a = optional(string, \"d\") })\n  sensitive = true\n}\n",
        ),
        (
            "override.tf",
            "variable \"v\" {\n  type = object({ b = number })\n  sensitive = false\n}\n",
        ),
    ]);
    let v = &m.variables["v"];
    assert!(v.type_overridden && !v.default_overridden);
    assert!(text(&m, v.type_constraint.as_ref().unwrap()).contains("b = number"));
    assert!(text(&m, v.defaults_type.as_ref().unwrap()).contains("optional(string, \"d\")"));
    assert_eq!(text(&m, v.sensitive.as_ref().unwrap()), "false");
}

#[test]
fn overridden_local_moves_its_definition() {
    let m = merged(&[
        ("main.tf", "locals {\n  a = 1\n  b = 2\n}\n"),
        ("x_override.tf", "locals {\n  a = 10\n}\n"),
    ]);
    let a = &m.locals["a"];
    assert_eq!(m.file_name(a.value.file), "x_override.tf");
    assert_eq!(m.file_name(m.locals["b"].value.file), "main.tf");
    // Looking up by position finds the local in either file.
    let override_file = m
        .files
        .iter()
        .position(|f| f.name() == "x_override.tf")
        .unwrap() as u32;
    let found = m.object_at(override_file, 12).map(|o| o.address());
    assert_eq!(found.as_deref(), Some("local.a"));
}

#[test]
fn object_at_finds_base_and_override_blocks() {
    let m = merged(&[
        ("main.tf", "resource \"t\" \"n\" {\n  x = 1\n}\n"),
        (
            "override.tf",
            "# note\nresource \"t\" \"n\" {\n  x = 2\n}\n",
        ),
    ]);
    assert_eq!(
        m.object_at(0, 20).map(|o| o.address()).as_deref(),
        Some("t.n")
    );
    assert_eq!(
        m.object_at(1, 30).map(|o| o.address()).as_deref(),
        Some("t.n")
    );
    assert!(m.object_at(1, 2).is_none(), "a comment is no object");
}

/// Heredoc bodies are values: rendering re-indents the code around them, never them.
#[test]
fn rendering_keeps_heredoc_bodies_exact() {
    let body = "      two leading spaces kept  \n\tand a tab\n no indent\n";
    let m = merged(&[(
        "main.tf",
        &format!(
            "    locals {{\n        a = <<EOT\n{body}EOT\n        b = <<-EOT\n          x\n            y\n          EOT\n    }}\n"
        ),
    )]);
    let text = super::render::render_module(&m);
    // (HCL allows the closing marker to be indented, so it moves with the code.)
    assert!(
        text.contains(&format!("a = <<EOT\n{body}  EOT\n")),
        "{text}"
    );
    assert!(
        text.contains("b = <<-EOT\n          x\n            y\n"),
        "{text}"
    );
}
