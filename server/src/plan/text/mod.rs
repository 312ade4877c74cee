//! The plan as text, byte for byte as `terraform show PLANFILE` prints it (Terraform's
//! `command/jsonformat` renderer), followed by the errors and warnings as `terraform plan`
//! prints them after a plan.
//!
//! Each change is rendered from the JSON `plan_json` writes for it (`structured`), diffed
//! by its provider schema (`differ`, `json` for values of open type) into a tree of
//! computed diffs (`diff`) that `render` and `primitive` write out. The plan around the
//! changes (`render_text`): the opening lines for the actions this plan holds, the
//! changes with their comments (`comments`), the summary line, `Changes to Outputs:`,
//! and the paragraphs of a plan without changes, wrapped as Terraform wraps them
//! (`wrap`).

mod comments;
mod diff;
mod differ;
mod json;
mod primitive;
mod render;
mod snippet;
mod structured;
#[cfg(test)]
mod tests;
mod transform;
pub(crate) mod wrap;

use std::collections::BTreeMap;
use std::path::Path;

use super::output::{change_json, output_change_json};
use super::{Action, Plan, PlanDiagnostic, PlanMode, ResourceChange, ResourceMode};
use crate::module::Dialect;
use crate::syntax::Span;
use diff::Opts;
use differ::Shape;
pub use snippet::snippet;
use structured::Change;
use wrap::{word_wrap, COLUMNS};

/// How a caller shows a diagnostic's place: its source lines as Terraform prints them
/// (`snippet`), `  on main.tf line 3:` first.
pub type PlaceOf<'a> = &'a dyn Fn(&Path, Span) -> String;

/// The plan's text (`render_text`) and where each change starts in it.
pub struct RenderedPlan {
    /// The plan as `terraform show` prints it, then its errors and warnings.
    pub text: String,
    /// For each of `Plan::changes`, in the same order, the line of `text` (from 0) that
    /// opens it (its `# address ...` comment), when the text shows it: editors reveal a
    /// resource's change there.
    pub change_lines: Vec<Option<usize>>,
}

/// The plan as `terraform show` prints it, then its errors and warnings.
pub fn render_text(plan: &Plan, dialect: Dialect, place: PlaceOf) -> String {
    render_plan(plan, dialect, place).text
}

/// The plan's text and the line each change opens on.
pub fn render_plan(plan: &Plan, dialect: Dialect, place: PlaceOf) -> RenderedPlan {
    let tool = match dialect {
        Dialect::Terraform => "Terraform",
        Dialect::OpenTofu => "OpenTofu",
    };
    let mut out = String::new();
    // Unchanged objects are not shown unless they move or are imported; nor are data
    // sources that go away.
    let shown: Vec<usize> = (0..plan.changes.len())
        .filter(|&i| {
            let c = &plan.changes[i];
            (c.action != Action::NoOp || moved(c) || c.importing.is_some())
                && !(c.action == Action::Delete && c.addr.resource.mode != ResourceMode::Managed)
        })
        .collect();
    let changes: Vec<&ResourceChange> = shown.iter().map(|&i| &plan.changes[i]).collect();
    let mut change_lines = vec![None; plan.changes.len()];
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for c in changes.iter().filter(|c| c.action != Action::NoOp) {
        *counts.entry(action_name(c.action)).or_default() += 1;
    }
    let outputs = outputs(plan);
    let errored = plan.planned && !plan.errors.is_empty();
    let drifted = drift(&mut out, plan, tool);
    if changes.is_empty() && outputs.is_empty() && plan.planned {
        // A refresh-only plan's drift paragraph says all there is to say.
        if !(drifted && plan.mode == PlanMode::RefreshOnly && !errored) {
            no_changes(&mut out, plan.mode, errored, tool);
        }
    } else if drifted {
        out.push_str(&format!(
            "
{}
",
            "─".repeat(COLUMNS - 1)
        ));
    }
    if !counts.is_empty() {
        out.push_str(&wrapped(&format!("\n{tool} used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:")));
        for (action, text) in [
            ("create", "  + create"),
            ("update", "  ~ update in-place"),
            ("delete", "  - destroy"),
            ("delete-create", "-/+ destroy and then create replacement"),
            ("create-delete", "+/- create replacement and then destroy"),
            ("read", " <= read (data resources)"),
        ] {
            if counts.contains_key(action) {
                out.push_str(&format!("{text}\n"));
            }
        }
    }
    if !changes.is_empty() {
        out.push_str(&match errored {
            true => {
                format!("\n{tool} planned the following actions, but then encountered a problem:\n")
            }
            false => format!("\n{tool} will perform the following actions:\n"),
        });
        // Lines counted as the text grows, each byte once.
        let (mut counted, mut line) = (0, 0);
        for (&i, c) in shown.iter().zip(&changes) {
            out.push('\n');
            line += out[counted..].matches('\n').count();
            counted = out.len();
            change_lines[i] = Some(line);
            out.push_str(&change_text(c, tool));
            out.push('\n');
        }
        let count = |action: &str| counts.get(action).copied().unwrap_or(0);
        let imports = changes.iter().filter(|c| c.importing.is_some()).count();
        let import = match imports {
            0 => String::new(),
            n => format!("{n} to import, "),
        };
        out.push_str(&format!(
            "\nPlan: {import}{} to add, {} to change, {} to destroy.\n",
            count("create") + count("delete-create") + count("create-delete"),
            count("update"),
            count("delete") + count("delete-create") + count("create-delete"),
        ));
    }
    if !outputs.is_empty() {
        out.push_str(&format!("\nChanges to Outputs:\n{outputs}\n"));
        if counts.is_empty() {
            out.push_str(&wrapped(&format!("\nYou can apply this plan to save these new output values to the {tool} state, without changing any real infrastructure.")));
        }
    }
    RenderedPlan {
        text: diagnostics(out, plan, place),
        change_lines,
    }
}

/// The objects changed outside of Terraform, as a refresh-only plan shows them (its
/// drift is only moved objects: `plan::drift`); whether there were any.
fn drift(out: &mut String, plan: &Plan, tool: &str) -> bool {
    if plan.drift.is_empty() || plan.mode != PlanMode::RefreshOnly {
        return false;
    }
    out.push_str(&format!(
        "\nNote: Objects have changed outside of {tool}\n\n"
    ));
    out.push_str(&wrapped(&format!("{tool} detected the following changes made outside of {tool} since the last \"terraform apply\" which may have affected this plan:")));
    for c in &plan.drift {
        out.push('\n');
        out.push_str(&change_text(c, tool));
        out.push('\n');
    }
    out.push_str(&wrapped(&format!("\n\nThis is a refresh-only plan, so {tool} will not take any actions to undo these. If you were expecting these changes then you can apply this plan to record the updated values in the {tool} state without changing any remote objects.")));
    true
}

/// Whether a change moves its object.
fn moved(c: &ResourceChange) -> bool {
    c.previous.as_ref().is_some_and(|p| *p != c.addr)
}

/// An action's name in the opening list and the summary.
fn action_name(action: Action) -> &'static str {
    match action {
        Action::Create => "create",
        Action::Update => "update",
        Action::Delete => "delete",
        Action::DeleteThenCreate => "delete-create",
        Action::CreateThenDelete => "create-delete",
        Action::Read => "read",
        Action::Forget => "forget",
        Action::NoOp => "no-op",
    }
}

/// A paragraph wrapped as Terraform wraps prose, with its line break.
fn wrapped(text: &str) -> String {
    format!("{}\n", word_wrap(text, COLUMNS))
}

/// What a plan without changes says, by its mode.
fn no_changes(out: &mut String, mode: PlanMode, errored: bool, tool: &str) {
    if errored {
        out.push_str(&format!(
            "\nPlanning failed. {tool} encountered an error while generating this plan.\n\n"
        ));
        return;
    }
    let (headline, paragraph) = match mode {
        PlanMode::RefreshOnly => (
            "Your infrastructure still matches the configuration.",
            format!("{tool} has checked that the real remote objects still match the result of your most recent changes, and found no differences."),
        ),
        PlanMode::Destroy => (
            "No objects need to be destroyed.",
            format!("Either you have not created any objects yet or the existing objects were already deleted outside of {tool}."),
        ),
        PlanMode::Normal => (
            "Your infrastructure matches the configuration.",
            format!("{tool} has compared your real infrastructure against your configuration and found no differences, so no changes are needed."),
        ),
    };
    out.push_str(&format!("\nNo changes. {headline}\n\n"));
    out.push_str(&wrapped(&paragraph));
}

/// One change: its comment, then the object's diff by its schema.
fn change_text(c: &ResourceChange, tool: &str) -> String {
    let json = change_json(c);
    let change = Change::from_json(&json["change"]);
    let shape = match c.schema.as_deref() {
        Some(schema) => Shape::Schema(schema),
        None => Shape::Inferred(&c.blocks),
    };
    let diff = differ::block(change, shape);
    let opts = Opts {
        // An imported object shows every attribute.
        show_unchanged_children: c.importing.is_some(),
        ..Opts::default()
    };
    format!(
        "{}{} {} {}",
        comments::comment(c, tool),
        render::symbol(c.action),
        comments::header(c),
        render::render(&diff, 0, opts)
    )
}

/// The lines of `Changes to Outputs:`: every changed output, named as an attribute,
/// aligned over every output.
fn outputs(plan: &Plan) -> String {
    let width = plan
        .outputs
        .iter()
        .map(|o| render::attribute_name(&o.name).len())
        .max()
        .unwrap_or(0);
    let mut lines = Vec::new();
    for o in &plan.outputs {
        let diff = differ::output(Change::from_json(&output_change_json(o)));
        if diff.action == Action::NoOp {
            continue;
        }
        lines.push(format!(
            "{} {:<width$} = {}",
            render::symbol(diff.action),
            render::attribute_name(&o.name),
            render::render(&diff, 0, Opts::default())
        ));
    }
    lines.join("\n")
}

/// The text followed by each error and warning as `terraform plan` prints them.
fn diagnostics(mut out: String, plan: &Plan, place: PlaceOf) -> String {
    for (kind, list) in [("Error", &plan.errors), ("Warning", &plan.warnings)] {
        for d in list {
            out.push_str(&diagnostic_text(kind, d, place));
        }
    }
    out
}

/// One diagnostic as `terraform plan` prints it: `Error: summary`, the resource, the
/// source lines (as `check` prints them) with the values involved, then the detail.
pub fn diagnostic_text(kind: &str, d: &PlanDiagnostic, place: PlaceOf) -> String {
    let mut out = format!("\n{kind}: {}\n\n", d.summary);
    if let Some(address) = &d.address {
        out.push_str(&format!("  with {address},\n"));
    }
    if let Some((path, span)) = &d.place {
        let snippet = place(path, *span);
        // The values go under the source lines, before the blank line that ends them
        // (`appendSourceSnippets`).
        match snippet.strip_suffix("\n\n") {
            Some(lines)
                if (!d.values.is_empty() || d.function_call.is_some()) && lines.contains("\n") =>
            {
                out.push_str(lines);
                out.push_str("\n    ├────────────────\n");
                if let Some(call) = &d.function_call {
                    out.push_str(&format!("    │ while calling {call}\n"));
                }
                for v in &d.values {
                    out.push_str(&format!("    │ {} {}\n", v.traversal, v.statement));
                }
                out.push('\n');
            }
            _ => out.push_str(&snippet),
        }
    }
    if !d.detail.is_empty() {
        for line in d.detail.split('\n') {
            out.push_str(&word_wrap(line, COLUMNS));
            out.push('\n');
        }
    }
    out
}
