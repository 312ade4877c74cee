//! Module call cycles found by walks over real module directories.

use super::*;
use crate::workspace::{local_child_dir, Workspace};

use crate::workspace::tests::tempdir;

/// The files and details of the cycles that walks from `roots` find in a workspace of
/// `files` (paths relative to its root).
fn cycles(files: &[(&str, &str)], roots: &[&str]) -> Vec<(PathBuf, String)> {
    let dir = tempdir::TempDir::new("cycles");
    for (name, text) in files {
        dir.write(name, text);
    }
    let ws = Workspace::new();
    let child = |from: &Path, source: &str| {
        let d = local_child_dir(from, source)?;
        let module = ws.module(&d).unwrap_or_else(|| ws.index_dir(&d));
        Some((d, ws.merged_of(&module)))
    };
    let mut walk = CallCycles::new();
    let mut found = Vec::new();
    for root in roots {
        let root = dir.path().join(root).canonicalize().unwrap();
        let merged = ws.merged_of(&ws.index_dir(&root));
        found.extend(walk.walk(&root, merged, &child));
    }
    found
        .into_iter()
        .map(|d| {
            (
                d.path.strip_prefix(dir.path()).unwrap().to_path_buf(),
                d.detail,
            )
        })
        .collect()
}

#[test]
fn a_module_calling_itself() {
    let found = cycles(
        &[("main.tf", "module \"m\" {\n  source = \"./\"\n}\n")],
        &["."],
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, Path::new("main.tf"));
    assert!(found[0].1.starts_with(
        "This call loads the module in ., which the root module already is: the calls \
         module.m form a cycle"
    ));
}

#[test]
fn modules_calling_each_other_are_reported_once_where_the_cycle_closes() {
    let files = [
        ("main.tf", "module \"a\" {\n  source = \"./a\"\n}\n"),
        ("a/main.tf", "module \"b\" {\n  source = \"../b\"\n}\n"),
        ("b/main.tf", "module \"a\" {\n  source = \"../a\"\n}\n"),
    ];
    let found = cycles(&files, &[".", "a", "b"]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, Path::new("b/main.tf"));
    assert!(found[0].1.contains(
        "in ./a, which module.a already is: the calls module.a → module.b → module.a form"
    ));
}

#[test]
fn a_module_called_twice_is_no_cycle() {
    let files = [
        (
            "main.tf",
            "module \"a\" {\n  source = \"./a\"\n}\nmodule \"b\" {\n  source = \"./a\"\n}\n",
        ),
        ("a/main.tf", "module \"c\" {\n  source = \"../c\"\n}\n"),
        ("c/main.tf", "locals {\n  x = 1\n}\n"),
    ];
    assert_eq!(cycles(&files, &["."]), Vec::new());
}
