//! The kept plans: served while nothing they read changed, computed again after an edit
//! of the module or of a child module, a change of the state, of a `.tfvars` file or of
//! a file a function read, and never kept when cancelled or for a forgotten module.

use std::path::Path;
use std::sync::Arc;

use super::*;
use crate::plan::{Action, PlanMode};
use crate::workspace::tests::tempdir::TempDir;

const MAIN: &str = r#"variable "v" {
  default = "one"
}

resource "terraform_data" "a" {
  input = var.v
}

resource "terraform_data" "f" {
  input = file("${path.module}/input.txt")
}

module "child" {
  source = "./child"
}
"#;

const CHILD: &str = r#"resource "terraform_data" "c" {
  input = "c"
}
"#;

/// A state holding `terraform_data.a` with `input = "one"`, with `pad` spaces of padding
/// (a rewritten state of another size).
fn state(pad: usize) -> String {
    format!(
        r#"{{"version": 4, "serial": 1, "lineage": "l",{} "resources": [
  {{"mode": "managed", "type": "terraform_data", "name": "a", "provider": "provider[\"terraform.io/builtin/terraform\"]",
   "instances": [{{"attributes": {{"id": "a1", "input": {{"value": "one", "type": "string"}}, "output": {{"value": "one", "type": "string"}}, "triggers_replace": null}}}}]}}
]}}"#,
        " ".repeat(pad)
    )
}

fn setup() -> (TempDir, Workspace) {
    let dir = TempDir::new("plans");
    dir.write("main.tf", MAIN);
    dir.write("input.txt", "first");
    dir.write("terraform.tfstate", &state(0));
    std::fs::create_dir_all(dir.path().join("child")).unwrap();
    dir.write("child/main.tf", CHILD);
    let ws = Workspace::new();
    ws.index_dir(dir.path());
    (dir, ws)
}

fn plan(ws: &Workspace, dir: &Path) -> Arc<Plan> {
    ws.planned(dir, &dir.join("terraform.tfstate"), &PlanOptions::default())
        .unwrap()
}

/// The action planned for the instance `addr`.
fn action(plan: &Plan, addr: &str) -> Option<Action> {
    plan.changes
        .iter()
        .find(|c| c.addr.to_string() == addr)
        .map(|c| c.action)
}

/// The planned value of `terraform_data.f`'s input.
fn f_input(plan: &Plan) -> String {
    let change = plan
        .changes
        .iter()
        .find(|c| c.addr.to_string() == "terraform_data.f");
    format!("{:?}", change.and_then(|c| c.after.clone()))
}

#[test]
fn an_unchanged_module_is_planned_once() {
    let (dir, ws) = setup();
    let first = plan(&ws, dir.path());
    assert!(first.errors.is_empty(), "{:?}", first.errors);
    assert_eq!(action(&first, "terraform_data.a"), Some(Action::NoOp));
    assert_eq!(
        action(&first, "module.child.terraform_data.c"),
        Some(Action::Create)
    );
    for _ in 0..3 {
        assert!(Arc::ptr_eq(&first, &plan(&ws, dir.path())));
    }
    assert_eq!(ws.plans_computed(), 1);
}

#[test]
fn an_edit_of_the_module_or_of_a_child_plans_again() {
    let (dir, ws) = setup();
    let main = dir.path().join("main.tf");
    plan(&ws, dir.path());
    ws.open_document(&main, &MAIN.replace("\"one\"", "\"two\""), 1);
    let edited = plan(&ws, dir.path());
    assert_eq!(action(&edited, "terraform_data.a"), Some(Action::Update));
    assert_eq!(ws.plans_computed(), 2);

    // A child module's file changed on disk (the watcher's notification).
    let child = dir.write("child/main.tf", &CHILD.replace("\"c\"", "\"d\""));
    ws.disk_changed(&child);
    let after = plan(&ws, dir.path());
    assert!(!Arc::ptr_eq(&edited, &after));
    assert_eq!(ws.plans_computed(), 3);
    plan(&ws, dir.path());
    assert_eq!(ws.plans_computed(), 3);
}

#[test]
fn a_changed_state_plans_again_without_any_notification() {
    let (dir, ws) = setup();
    plan(&ws, dir.path());
    dir.write(
        "terraform.tfstate",
        &state(3).replace(r#""value": "one""#, r#""value": "old""#),
    );
    let after = plan(&ws, dir.path());
    assert_eq!(action(&after, "terraform_data.a"), Some(Action::Update));
    assert_eq!(ws.plans_computed(), 2);
    // Another state path is another plan.
    dir.write("other.tfstate", &state(0));
    let other = ws
        .planned(
            dir.path(),
            &dir.path().join("other.tfstate"),
            &PlanOptions::default(),
        )
        .unwrap();
    assert_eq!(action(&other, "terraform_data.a"), Some(Action::NoOp));
    assert_eq!(ws.plans_computed(), 3);
}

#[test]
fn files_the_plan_read_and_the_options_are_part_of_the_key() {
    let (dir, ws) = setup();
    let first = plan(&ws, dir.path());
    assert!(f_input(&first).contains("first"), "{}", f_input(&first));
    // A file `file()` read.
    dir.write("input.txt", "second, longer");
    let second = plan(&ws, dir.path());
    assert!(f_input(&second).contains("second"), "{}", f_input(&second));
    assert_eq!(ws.plans_computed(), 2);
    // A variables file Terraform reads by itself, created where none was.
    dir.write("terraform.tfvars", "v = \"three\"\n");
    let third = plan(&ws, dir.path());
    assert_eq!(action(&third, "terraform_data.a"), Some(Action::Update));
    // An `.auto.tfvars` file, found by listing the directory.
    dir.write("x.auto.tfvars", "v = \"one\"\n");
    let fourth = plan(&ws, dir.path());
    assert_eq!(action(&fourth, "terraform_data.a"), Some(Action::NoOp));
    assert_eq!(ws.plans_computed(), 4);
    // Other options, another plan; the same ones again, the kept plan.
    let destroy = PlanOptions {
        mode: PlanMode::Destroy,
        ..PlanOptions::default()
    };
    let state = dir.path().join("terraform.tfstate");
    let destroyed = ws.planned(dir.path(), &state, &destroy).unwrap();
    assert_eq!(action(&destroyed, "terraform_data.a"), Some(Action::Delete));
    assert!(Arc::ptr_eq(
        &destroyed,
        &ws.planned(dir.path(), &state, &destroy).unwrap()
    ));
    assert_eq!(ws.plans_computed(), 5);
}

#[test]
fn a_cancelled_plan_is_not_kept_and_a_forgotten_module_keeps_nothing() {
    let (dir, ws) = setup();
    let cancel = crate::cancel::Cancel::new();
    cancel.cancel();
    cancel.run(|| plan(&ws, dir.path()));
    plan(&ws, dir.path());
    assert_eq!(ws.plans_computed(), 2);
    ws.forget_dir(dir.path());
    assert!(ws.plans.is_empty());
}
