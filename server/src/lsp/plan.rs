//! The plan preview in the editor: the `strata.planPreview` command (the plan JSON plus
//! its rendered text and, for editors' plan views, where each change is declared, what
//! it does in words and where the text shows it, and each error as `check` prints it)
//! and, when a module has a prior state, a code lens above each resource block with its
//! planned action, whose command (`strata.showPlannedChange`) shows that change. Only the
//! module of the document is planned, through the workspace's kept plans
//! (`Workspace::planned`): the lenses, the inlay hints, the code actions and a preview with
//! the default arguments share one plan per change.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use ropey::Rope;
use serde::Deserialize;
use serde_json::{json, Value};
use tower_lsp_server::ls_types::{self as lsp, CodeLens, Command};

use super::convert;
use crate::plan::{
    diagnostic_text, plan_json, render_plan, Action, Plan, PlanMode, PlanOptions, ResourceChange,
    VariableInputs,
};
use crate::syntax::Span;
use crate::text::PositionEncoding;
use crate::workspace::{state_file, PlanPositions, Workspace};

/// The command that returns the plan of a document's module.
pub const PLAN_PREVIEW: &str = "strata.planPreview";
/// The planned-action lens's command: shows one resource's change. Strata's editor
/// plugins run it themselves (they open their plan view at the change); any other client
/// has the server run it, which shows the change's text as a message.
pub const SHOW_PLANNED_CHANGE: &str = "strata.showPlannedChange";

/// Arguments of `strata.showPlannedChange`.
#[derive(Debug, Deserialize)]
pub struct PlannedChangeArgs {
    /// The document whose lens it is.
    pub uri: lsp::Uri,
    /// The address of the (first) resource instance the lens is about.
    pub address: String,
}

/// Arguments of `strata.planPreview`.
#[derive(Debug, Deserialize)]
pub struct PlanArgs {
    /// A document of the module to plan.
    pub uri: lsp::Uri,
    /// The state file (default: the `strata.plan.statePath` setting, else
    /// `terraform.tfstate` in the module); relative paths are from the module.
    pub state: Option<String>,
    /// `-replace` addresses.
    #[serde(default)]
    pub replace: Vec<String>,
    /// `normal` (default), `refresh-only` or `destroy`.
    pub mode: Option<String>,
    /// Root variable values by name (strings as `--var` takes them, or JSON values).
    #[serde(default)]
    pub vars: BTreeMap<String, Value>,
}

/// Runs `strata.planPreview`; an `Err` is a message for an invalid-params error. Besides
/// `show -json`'s keys and `rendered`, the answer has `places`: for each entry of
/// `resource_changes`, in the same order, its `description` (the lens's words, with
/// Terraform's reason), when declared in a file, the block's `uri` and `range`, and when
/// `rendered` shows it, `rendered_line`, the line (from 0) its change opens on. Each
/// entry of `errors` and `warnings` also has its `text` as `terraform plan` prints it,
/// source lines included, and the `uri` and LSP `location_range` of its place.
pub fn plan_preview(
    ws: &Workspace,
    args: PlanArgs,
    state_setting: Option<&str>,
    encoding: PositionEncoding,
) -> Result<Value, String> {
    let path = convert::path_of(&args.uri).ok_or("the uri must be a file: URI")?;
    let dir = path
        .parent()
        .ok_or("the uri has no directory")?
        .to_path_buf();
    let mode = match args.mode.as_deref() {
        None | Some("normal") => PlanMode::Normal,
        Some("refresh-only") => PlanMode::RefreshOnly,
        Some("destroy") => PlanMode::Destroy,
        Some(other) => {
            return Err(format!(
                "unknown mode {other:?}: expected normal, refresh-only or destroy"
            ))
        }
    };
    let vars = args
        .vars
        .into_iter()
        .map(|(k, v)| {
            let text = match v {
                Value::String(s) => s,
                other => other.to_string(),
            };
            (k, text)
        })
        .collect();
    let options = PlanOptions {
        mode,
        replace: args.replace,
        inputs: VariableInputs {
            vars,
            ..editor_options().inputs
        },
    };
    let state = state_file(&dir, args.state.as_deref().or(state_setting));
    let plan = ws
        .planned(&dir, &state, &options)
        .map_err(|e| e.to_string())?;
    let positions = PlanPositions::new(ws, &dir);
    let range = |p: &Path, s: Span| positions.range(p, s);
    let place = |p: &Path, s: Span| positions.snippet(p, s);
    let dialect = ws
        .module(&dir)
        .map_or(crate::module::Dialect::Terraform, |m| m.dialect);
    let mut out = plan_json(&plan, &range);
    let rendered = render_plan(&plan, dialect, &place);
    let mut texts = convert::Texts::new(ws);
    let mut located = |p: &Path, s: Span| -> Option<(lsp::Uri, lsp::Range)> {
        Some((convert::uri_of(p)?, texts.range(p, s, encoding)?))
    };
    for (key, kind, list) in [
        ("errors", "Error", &plan.errors),
        ("warnings", "Warning", &plan.warnings),
    ] {
        for (entry, d) in out[key].as_array_mut().into_iter().flatten().zip(list) {
            entry["text"] = json!(diagnostic_text(kind, d, &place));
            if let Some((uri, range)) = d.place.as_ref().and_then(|(p, s)| located(p, *s)) {
                entry["uri"] = json!(uri);
                entry["location_range"] = json!(range);
            }
        }
    }
    out["places"] = json!(places(&plan, &rendered.change_lines, &mut located));
    out["rendered"] = json!(rendered.text);
    Ok(out)
}

/// A span of a file as the document's URI and LSP range, when the workspace holds it.
type Located<'a> = dyn FnMut(&Path, Span) -> Option<(lsp::Uri, lsp::Range)> + 'a;

/// `places` of the answer: each change's words, declaration and line in the text, in
/// plan order.
fn places(plan: &Plan, lines: &[Option<usize>], located: &mut Located) -> Vec<Value> {
    plan.changes
        .iter()
        .zip(lines)
        .map(|(c, line)| {
            let mut place = json!({ "description": describe(c) });
            if let Some((uri, range)) = c.declared_at.as_ref().and_then(|(p, s)| located(p, *s)) {
                place["uri"] = json!(uri);
                place["range"] = json!(range);
            }
            if let Some(line) = line {
                place["rendered_line"] = json!(line);
            }
            place
        })
        .collect()
}

/// What `strata.showPlannedChange` shows a client that does not run it itself: the
/// change of `args.address` as the plan's text shows it, or why there is none.
pub fn planned_change_text(
    ws: &Workspace,
    args: &PlannedChangeArgs,
    state_setting: Option<&str>,
) -> String {
    let Some(path) = convert::path_of(&args.uri) else {
        return "Strata: the lens's document is not a file".into();
    };
    let Some(plan) = prior_plan(ws, &path, state_setting) else {
        return format!(
            "Strata: no plan of {} (no prior state, or the plan has errors)",
            args.address
        );
    };
    let dialect = ws
        .module(path.parent().unwrap_or(&path))
        .map_or(crate::module::Dialect::Terraform, |m| m.dialect);
    let rendered = render_plan(&plan, dialect, &|_, _| String::new());
    let found = plan
        .changes
        .iter()
        .zip(&rendered.change_lines)
        .find_map(|(c, line)| {
            (c.addr.to_string() == args.address && c.deposed.is_none()).then_some(*line)
        });
    match found {
        // The change's lines run to the blank line that ends them.
        Some(Some(line)) => rendered
            .text
            .lines()
            .skip(line)
            .take_while(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n"),
        Some(None) => format!("{}: no changes", args.address),
        None => format!("Strata: {} is not in the plan", args.address),
    }
}

/// A code lens above each resource block of `path` with its planned action, when the
/// module has a prior state; nothing otherwise (or when the plan has errors).
pub fn code_lenses(
    ws: &Workspace,
    path: &Path,
    state_setting: Option<&str>,
    encoding: PositionEncoding,
) -> Vec<CodeLens> {
    let Some(plan) = prior_plan(ws, path, state_setting) else {
        return Vec::new();
    };
    let Some(file) = ws.file(path) else {
        return Vec::new();
    };
    let rope = Rope::from_str(&file.text);
    let uri = convert::uri_of(path);
    by_block(&plan, path)
        .into_iter()
        .map(|(span, changes)| CodeLens {
            range: convert::range(&rope, span, encoding),
            command: Some(Command {
                title: lens_title(&changes),
                command: SHOW_PLANNED_CHANGE.into(),
                arguments: uri.as_ref().map(|u| {
                    let address = changes.first().map(|c| c.addr.to_string());
                    vec![json!({ "uri": u, "address": address })]
                }),
            }),
            data: None,
        })
        .collect()
}

/// The options of a plan the editor asks for without arguments (the lenses, the inlay
/// hints, the code actions, a preview with none): a normal plan reading the `TF_VAR_`
/// variables, as Terraform run where the editor runs would.
fn editor_options() -> PlanOptions {
    PlanOptions {
        inputs: VariableInputs {
            env: VariableInputs::from_environment(),
            ..VariableInputs::default()
        },
        ..PlanOptions::default()
    }
}

/// The plan of the module of `path` against its prior state, when it has one and the
/// plan has no errors (a plan with errors is no plan, as in Terraform).
pub fn prior_plan(ws: &Workspace, path: &Path, state_setting: Option<&str>) -> Option<Arc<Plan>> {
    let dir = path.parent()?;
    let state = state_file(dir, state_setting);
    if !state.is_file() {
        return None;
    }
    ws.planned(dir, &state, &editor_options())
        .ok()
        .filter(|plan| plan.errors.is_empty())
}

/// The changes of each resource block declared in `path`, in block order.
pub(super) fn by_block<'p>(plan: &'p Plan, path: &Path) -> BTreeMap<Span, Vec<&'p ResourceChange>> {
    let mut out: BTreeMap<Span, Vec<&ResourceChange>> = BTreeMap::new();
    for c in &plan.changes {
        if c.deposed.is_some() {
            continue;
        }
        if let Some((p, span)) = &c.declared_at {
            if p == path {
                out.entry(*span).or_default().push(c);
            }
        }
    }
    out
}

/// "will be replaced: triggers_replace changed", "no changes", "2 to create, 1 no changes".
pub(super) fn lens_title(changes: &[&ResourceChange]) -> String {
    if let [only] = changes {
        return describe(only);
    }
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for c in changes {
        *counts.entry(short(c.action).to_string()).or_default() += 1;
    }
    counts
        .iter()
        .map(|(what, n)| format!("{n} {what}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn describe(c: &ResourceChange) -> String {
    let moved = c
        .previous
        .as_ref()
        .map_or(String::new(), |p| format!(" (moved from {p})"));
    let text = match (c.action, c.reason) {
        (Action::NoOp, _) => "no changes".to_string(),
        (Action::Create, _) => "will be created".to_string(),
        (Action::Update, _) => match c.caveat {
            Some(caveat) => format!("will be updated in-place ({caveat})"),
            None => "will be updated in-place".to_string(),
        },
        (Action::Read, _) => "will be read during apply".to_string(),
        (Action::Delete, _) => "will be destroyed".to_string(),
        (Action::Forget, _) => "will no longer be managed".to_string(),
        (_, Some("replace_because_tainted")) => "will be replaced: tainted".to_string(),
        (_, Some("replace_by_request")) => "will be replaced, as requested".to_string(),
        (_, Some("replace_by_triggers")) => "will be replaced: replace_triggered_by".to_string(),
        (_, _) if !c.replace_paths.is_empty() => {
            format!("will be replaced: {} changed", c.replace_paths.join(", "))
        }
        (_, _) => "will be replaced".to_string(),
    };
    format!("{text}{moved}")
}

fn short(action: Action) -> &'static str {
    match action {
        Action::NoOp => "no changes",
        Action::Create => "to create",
        Action::Update => "to update",
        Action::Read => "to read",
        Action::Delete => "to destroy",
        Action::Forget => "to forget",
        Action::DeleteThenCreate | Action::CreateThenDelete => "to replace",
    }
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
