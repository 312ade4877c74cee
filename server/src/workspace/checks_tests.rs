//! The kept checks: one check per module snapshot and role, shared by the diagnostics and
//! the plan, computed again after an edit of the module or of a child module it read, and
//! never kept when cancelled or for a forgotten module.

use std::path::Path;
use std::sync::Arc;

use super::*;
use crate::check::Diagnostic;
use crate::plan::PlanOptions;
use crate::workspace::tests::tempdir::TempDir;

/// Passes `size` to the child, which declares no such variable until edited.
const MAIN: &str = r#"module "child" {
  source = "./child"
  size   = 2
}
"#;

const CHILD: &str = r#"variable "name" {
  default = "c"
}
"#;

fn setup() -> (TempDir, Workspace) {
    let dir = TempDir::new("checks");
    dir.write("main.tf", MAIN);
    std::fs::create_dir_all(dir.path().join("child")).unwrap();
    dir.write("child/main.tf", CHILD);
    let ws = Workspace::new();
    ws.index_dir(dir.path());
    ws.index_dir(&dir.path().join("child"));
    (dir, ws)
}

fn check(ws: &Workspace, dir: &Path, role: Role<'_>) -> Arc<Vec<Diagnostic>> {
    let module = ws.module(dir).unwrap();
    ws.checked(&module, role, ChildLookup::Built)
}

fn summaries(found: &[Diagnostic]) -> Vec<&str> {
    found.iter().map(|d| d.summary.as_str()).collect()
}

#[test]
fn a_snapshot_is_checked_once_and_its_plan_shares_the_check() {
    let (dir, ws) = setup();
    let first = check(&ws, dir.path(), Role::Root);
    assert_eq!(summaries(&first), ["Unsupported argument"]);
    assert!(Arc::ptr_eq(&first, &check(&ws, dir.path(), Role::Root)));
    assert_eq!(ws.checks_computed(), 1);
    // The plan reports the same error, from the same check.
    let plan = ws
        .planned(
            dir.path(),
            &dir.path().join("terraform.tfstate"),
            &PlanOptions::default(),
        )
        .unwrap();
    let errors: Vec<&str> = plan.errors.iter().map(|e| e.summary.as_str()).collect();
    assert_eq!(errors, ["Unsupported argument"]);
    assert_eq!(ws.checks_computed(), 1);
}

#[test]
fn an_edit_of_the_module_or_of_its_child_checks_again() {
    let (dir, ws) = setup();
    check(&ws, dir.path(), Role::Root);
    let main = dir.path().join("main.tf");
    ws.open_document(&main, &MAIN.replace("size   = 2", "name = \"n\""), 1);
    let edited = check(&ws, dir.path(), Role::Root);
    assert!(edited.is_empty(), "{edited:?}");
    assert_eq!(ws.checks_computed(), 2);
    ws.open_document(&main, MAIN, 2);
    assert_eq!(check(&ws, dir.path(), Role::Root).len(), 1);
    // The child declares the variable now (a change on disk, as the watcher tells it).
    let child = dir.write("child/main.tf", "variable \"size\" {}\n");
    ws.disk_changed(&child);
    let after = check(&ws, dir.path(), Role::Root);
    assert!(after.is_empty(), "{after:?}");
    assert_eq!(ws.checks_computed(), 4);
}

#[test]
fn each_role_is_kept_apart() {
    let (dir, ws) = setup();
    let paths = vec!["module.a".to_string()];
    let root = check(&ws, dir.path(), Role::Root);
    let called = check(&ws, dir.path(), Role::Called(&paths));
    assert!(!Arc::ptr_eq(&root, &called));
    assert!(Arc::ptr_eq(&root, &check(&ws, dir.path(), Role::Root)));
    assert!(Arc::ptr_eq(
        &called,
        &check(&ws, dir.path(), Role::Called(&paths))
    ));
    assert_eq!(ws.checks_computed(), 2);
}

#[test]
fn a_child_found_only_by_indexing_it_is_another_check() {
    let dir = TempDir::new("checks-index");
    dir.write("main.tf", MAIN);
    std::fs::create_dir_all(dir.path().join("child")).unwrap();
    dir.write("child/main.tf", CHILD);
    let ws = Workspace::new();
    let module = ws.index_dir(dir.path());
    // The child is not built: a check that only reads built modules finds none.
    let built = ws.checked(&module, Role::Root, ChildLookup::Built);
    let indexed = ws.checked(&module, Role::Root, ChildLookup::Index);
    assert_eq!(summaries(&indexed), ["Unsupported argument"]);
    assert!(!Arc::ptr_eq(&built, &indexed));
    assert_eq!(ws.checks_computed(), 2);
    // Now the child is built, both lookups find it: the kept check serves both.
    assert!(Arc::ptr_eq(
        &indexed,
        &ws.checked(&module, Role::Root, ChildLookup::Built)
    ));
    assert_eq!(ws.checks_computed(), 2);
}

#[test]
fn a_cancelled_check_is_not_kept_and_a_forgotten_module_keeps_nothing() {
    let (dir, ws) = setup();
    let cancel = crate::cancel::Cancel::new();
    cancel.cancel();
    cancel.run(|| check(&ws, dir.path(), Role::Root));
    check(&ws, dir.path(), Role::Root);
    assert_eq!(ws.checks_computed(), 2);
    ws.forget_dir(dir.path());
    assert!(ws.checks.is_empty());
}
