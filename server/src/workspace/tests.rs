use super::*;
use crate::text::Position;

#[path = "../../../tests/support/tempdir.rs"]
pub(crate) mod tempdir;

fn temp_module(files: &[(&str, &str)]) -> tempdir::TempDir {
    let dir = tempdir::TempDir::new("ws");
    for (name, text) in files {
        dir.write(name, text);
    }
    dir
}

fn names(module: &Module) -> Vec<&str> {
    module.sources.iter().map(|s| s.name()).collect()
}

#[test]
fn index_reads_config_files_in_load_order() {
    let dir = temp_module(&[
        ("main.tf", "variable \"a\" {}\n"),
        ("override.tf", "variable \"a\" { default = 1 }\n"),
        ("a.tf.json", "{}"),
        ("notes.txt", "x"),
        ("terraform.tfvars", "a = 1"),
    ]);
    let ws = Workspace::new();
    let module = ws.index_dir(dir.path());
    assert_eq!(names(&module), vec!["a.tf.json", "main.tf", "override.tf"]);
    assert_eq!(module.dialect, Dialect::Terraform);
}

#[test]
fn open_document_wins_over_disk_until_closed() {
    let dir = temp_module(&[("main.tf", "variable \"disk\" {}\n")]);
    let ws = Workspace::new();
    ws.index_dir(dir.path());
    let path = dir.path().join("main.tf");
    let module = ws.open_document(&path, "variable \"editor\" {}\n", 1);
    let label = |m: &Module| {
        m.sources[0].syntax.body.blocks[0]
            .label(0)
            .unwrap()
            .to_string()
    };
    assert_eq!(label(&module), "editor");
    // A change on disk does not override the open document.
    std::fs::write(&path, "variable \"disk2\" {}\n").unwrap();
    let module = ws.disk_changed(&path).unwrap();
    assert_eq!(label(&module), "editor");
    let module = ws.close_document(&path).unwrap();
    assert_eq!(label(&module), "disk2");
}

#[test]
fn incremental_change_reparses_and_keeps_version() {
    let dir = temp_module(&[]);
    let ws = Workspace::new();
    let path = dir.path().join("main.tf");
    ws.open_document(&path, "variable \"a\" {}\n", 1);
    let change = TextChange {
        range: Some((
            Position {
                line: 0,
                column: 10,
            },
            Position {
                line: 0,
                column: 11,
            },
        )),
        text: "b".into(),
    };
    let module = ws
        .change_document(&path, &[change], 2, PositionEncoding::Utf16)
        .unwrap();
    assert_eq!(module.sources[0].version, Some(2));
    assert_eq!(module.sources[0].syntax.body.blocks[0].label(0), Some("b"));
    assert!(ws
        .change_document(&dir.path().join("x.tf"), &[], 1, PositionEncoding::Utf16)
        .is_err());
}

#[test]
fn files_created_and_deleted_on_disk_update_the_module() {
    let dir = temp_module(&[("main.tf", "")]);
    let ws = Workspace::new();
    ws.index_dir(dir.path());
    let extra = dir.path().join("x_override.tf");
    std::fs::write(&extra, "").unwrap();
    let module = ws.disk_changed(&extra).unwrap();
    assert_eq!(module.files.overrides, vec!["x_override.tf"]);
    std::fs::remove_file(&extra).unwrap();
    let module = ws.disk_deleted(&extra).unwrap();
    assert!(module.files.overrides.is_empty());
    assert_eq!(names(&module), vec!["main.tf"]);
}

#[test]
fn a_tofu_file_switches_the_module_to_opentofu() {
    let dir = temp_module(&[("a.tf", ""), ("a.tofu", "")]);
    let ws = Workspace::new();
    let module = ws.index_dir(dir.path());
    assert_eq!(module.dialect, Dialect::OpenTofu);
    assert_eq!(names(&module), vec!["a.tofu"]);
    ws.set_dialect(Some(Dialect::Terraform));
    let module = ws.module(dir.path()).unwrap();
    assert_eq!(names(&module), vec!["a.tf"]);
}

#[test]
fn a_file_that_is_not_utf8_is_read_as_hcl_reads_it() {
    let dir = temp_module(&[]);
    std::fs::write(dir.path().join("bad.tf"), [0xff, 0xfe, 0x00]).unwrap();
    let ws = Workspace::new();
    let module = ws.index_dir(dir.path());
    // What Terraform 1.11.4 reports for these bytes: the first bad byte once, then the
    // parser's error there, and the NUL byte, which is UTF-8, as a character.
    let found: Vec<(&str, u32)> = module.sources[0]
        .syntax
        .diagnostics
        .iter()
        .map(|d| (d.summary.as_str(), d.span.start))
        .collect();
    assert_eq!(
        found,
        vec![
            ("Invalid character encoding", 0),
            ("Argument or block definition required", 0),
            ("Invalid character", 2),
        ]
    );
}

#[test]
fn broken_edit_keeps_last_good_tree() {
    let dir = temp_module(&[]);
    let ws = Workspace::new();
    let path = dir.path().join("main.tf");
    ws.open_document(&path, "variable \"a\" {\n  default = 1\n}\n", 1);
    let module = ws.open_document(&path, "variable \"a {\n  default = 1\n}\n", 2);
    let file = &module.sources[0];
    assert!(file.syntax.has_errors());
    assert!(file.syntax.body.blocks[0].stale);
    assert!(file.last_good.is_some());
}

#[test]
fn discovery_skips_tool_directories() {
    let dir = temp_module(&[
        ("main.tf", ""),
        ("modules/a/main.tf", ""),
        ("modules/b/readme.md", ""),
        (".terraform/modules/x/main.tf", ""),
        (".git/x.tf", ""),
        ("live/.terragrunt-cache/y/main.tf", ""),
    ]);
    let found = discover_modules(dir.path());
    let rel: Vec<_> = found
        .iter()
        .map(|p| {
            p.strip_prefix(dir.path())
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(rel, vec!["", "modules/a"]);
}

#[test]
fn indexing_never_replaces_an_open_document() {
    let dir = temp_module(&[("main.tf", "variable \"disk\" {}\n")]);
    let ws = Workspace::new();
    let path = dir.path().join("main.tf");
    ws.open_document(&path, "variable \"editor\" {}\n", 3);
    // The background indexer reaching the directory after didOpen.
    let module = ws.index_dir(dir.path());
    assert_eq!(module.sources[0].version, Some(3));
    assert_eq!(
        module.sources[0].syntax.body.blocks[0].label(0),
        Some("editor")
    );
    // A disk read that raced with didOpen and lands after it.
    ws.store_disk_file(
        path.clone(),
        crate::module::SourceFile::parse(path.clone(), "variable \"late\" {}\n".into(), None, None),
    );
    assert_eq!(ws.file(&path).unwrap().version, Some(3));
}

#[test]
fn a_forgotten_directory_keeps_nothing_unless_a_document_is_open_in_it() {
    let dir = temp_module(&[("main.tf", "variable \"a\" {}\n"), ("b.tf", "")]);
    let ws = Workspace::new();
    let main = dir.path().join("main.tf");
    ws.index_dir(dir.path());
    ws.open_document(&main, "variable \"a\" {}\n", 1);
    assert!(ws.forget_dir(dir.path()).is_empty(), "main.tf is open");
    assert!(ws.module(dir.path()).is_some());
    ws.close_document(&main);
    assert!(ws.merged(dir.path()).is_some());
    let mut forgotten = ws.forget_dir(dir.path());
    forgotten.sort();
    assert_eq!(forgotten, vec![dir.path().join("b.tf"), main.clone()]);
    assert!(ws.module(dir.path()).is_none());
    assert!(ws.file(&main).is_none());
    assert!(ws.merged.is_empty() && ws.names.is_empty() && ws.files.is_empty());
}

#[test]
fn module_roles_are_kept_until_a_call_changes() {
    let dir = temp_module(&[(
        "root/main.tf",
        "module \"c\" {\n  source = \"../child\"\n}\n",
    )]);
    let child = dir.path().join("child");
    std::fs::create_dir_all(&child).unwrap();
    std::fs::write(child.join("main.tf"), "variable \"v\" {}\n").unwrap();
    let root = dir.path().join("root");
    let ws = Workspace::new();
    ws.index_dirs(&[root.clone(), child.clone()], &|_| {});
    let child = child.canonicalize().unwrap();
    let roles = ws.module_roles();
    assert_eq!(roles.paths_of(&child), Some(&["module.c".to_string()][..]));
    // An edit that leaves every call as it was keeps the roles.
    let path = root.join("main.tf");
    let called = "module \"c\" {\n  source = \"../child\"\n}\nlocals {\n  a = 1\n}\n";
    ws.open_document(&path, called, 1);
    assert!(Arc::ptr_eq(&roles, &ws.module_roles()));
    // A call renamed: decided again.
    ws.open_document(&path, "module \"d\" {\n  source = \"../child\"\n}\n", 2);
    let renamed = ws.module_roles();
    assert!(!Arc::ptr_eq(&roles, &renamed));
    assert_eq!(
        renamed.paths_of(&child),
        Some(&["module.d".to_string()][..])
    );
    // The call removed: the child is a root module again.
    ws.open_document(&path, "locals {}\n", 3);
    assert_eq!(ws.module_roles().paths_of(&child), None);
}
