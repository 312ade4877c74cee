//! Primitive values in the plan text (`renderers/primitive.go`, `string.go`): numbers and
//! bools as JSON writes them, `null`, strings quoted as Go's `%q` quotes them, a string
//! holding JSON as `jsonencode(...)` with the JSON's own diff inside, and a multi-line
//! string as a heredoc (`<<-EOT`) whose lines are compared as a list.

use serde_json::Value as Json;

use super::diff::{Diff, Opts, Primitive, Renderer};
use super::json::json_diff;
use super::render::{forces_replacement, null_suffix, pad, render, write_symbol};
use super::structured::{Change, ReplacePaths};
use super::transform::process_slice;
use crate::plan::Action;
use crate::text::go_quote::go_quote;

/// A primitive `before` → `after` of type `ty`, at `indent`.
pub(super) fn render_primitive(
    diff: &Diff,
    before: &Json,
    after: &Json,
    ty: Primitive,
    indent: usize,
    opts: Opts,
) -> String {
    if ty == Primitive::String {
        return render_string(diff, before, after, indent, opts);
    }
    let (old, new) = (plain(before), plain(after));
    let replace = forces_replacement(diff.replace, opts);
    match diff.action {
        Action::Create => format!("{new}{replace}"),
        Action::Delete => format!("{old}{}{replace}", null_suffix(diff.action, opts)),
        Action::NoOp => format!("{old}{replace}"),
        _ => format!("{old} -> {new}{replace}"),
    }
}

/// A number, bool or null as JSON writes it; a number as the exact decimal Terraform's
/// JSON holds (Go's `json.Number`), never in exponent form.
fn plain(value: &Json) -> String {
    match value {
        Json::Null => "null".into(),
        Json::Number(n) if n.is_f64() => {
            n.as_f64().map_or_else(|| n.to_string(), |f| f.to_string())
        }
        other => other.to_string(),
    }
}

/// What a string is shown as (`evaluatedString`).
enum Evaluated {
    Null,
    /// A string that parses as JSON (it starts with `{` or `[`).
    Json(Json),
    /// A string with a line break, trimmed.
    Multiline(String),
    Simple,
}

impl Evaluated {
    fn of(value: &Json) -> Self {
        let Some(s) = value.as_str() else {
            return Evaluated::Null;
        };
        if s.starts_with('{') || s.starts_with('[') {
            if let Ok(parsed) = serde_json::from_str::<Json>(s) {
                return Evaluated::Json(parsed);
            }
        }
        if s.contains('\n') {
            return Evaluated::Multiline(s.trim().to_string());
        }
        Evaluated::Simple
    }

    /// The one-line form: quoted, or `null`.
    fn simple(&self, raw: &Json) -> String {
        match self {
            Evaluated::Null => "null".into(),
            _ => go_quote(raw.as_str().unwrap_or_default()),
        }
    }
}

fn render_string(diff: &Diff, before: &Json, after: &Json, indent: usize, opts: Opts) -> String {
    let replace = forces_replacement(diff.replace, opts);
    let line_pad = format!("{}{}", pad(indent + 1), write_symbol(Action::NoOp));
    let mut lines: Vec<String> = Vec::new();
    match diff.action {
        Action::Create | Action::NoOp => match Evaluated::of(after) {
            Evaluated::Json(json) => {
                let old = (diff.action == Action::NoOp).then(|| json.clone());
                return as_json(diff, old, Some(json), indent, opts);
            }
            Evaluated::Multiline(s) => {
                lines = s.split('\n').map(|l| format!("{line_pad}{l}")).collect()
            }
            simple => return format!("{}{replace}", simple.simple(after)),
        },
        Action::Delete => match Evaluated::of(before) {
            Evaluated::Null => return format!("null{replace}"),
            Evaluated::Json(json) => return as_json(diff, Some(json), None, indent, opts),
            Evaluated::Multiline(s) => {
                lines = s.split('\n').map(|l| format!("{line_pad}{l}")).collect()
            }
            simple => {
                let suffix = null_suffix(diff.action, opts);
                return format!("{}{suffix}{replace}", simple.simple(before));
            }
        },
        _ => {
            let (old, new) = (Evaluated::of(before), Evaluated::of(after));
            match (old, new) {
                (Evaluated::Json(o), Evaluated::Json(n)) => {
                    return as_json(diff, Some(o), Some(n), indent, opts)
                }
                (Evaluated::Json(_), _) | (_, Evaluated::Json(_)) => {
                    // One side JSON, the other not: shown as a change of type.
                    let string = |b: &Json, a: &Json, action| {
                        let renderer = Renderer::Primitive {
                            before: b.clone(),
                            after: a.clone(),
                            ty: Primitive::String,
                        };
                        Box::new(Diff::new(renderer, action, false))
                    };
                    let change = Diff::new(
                        Renderer::TypeChange(
                            string(before, &Json::Null, Action::Delete),
                            string(&Json::Null, after, Action::Create),
                        ),
                        diff.action,
                        diff.replace,
                    );
                    return render(&change, indent, opts);
                }
                (old @ (Evaluated::Multiline(_) | Evaluated::Simple | Evaluated::Null), new)
                    if !matches!(old, Evaluated::Multiline(_))
                        && !matches!(new, Evaluated::Multiline(_)) =>
                {
                    return format!("{} -> {}{replace}", old.simple(before), new.simple(after));
                }
                (old, new) => {
                    let text = |e: &Evaluated, raw: &Json| match e {
                        Evaluated::Multiline(s) => s.clone(),
                        Evaluated::Null => "null".into(),
                        _ => raw.as_str().unwrap_or_default().to_string(),
                    };
                    let (old, new) = (text(&old, before), text(&new, after));
                    let (old, new): (Vec<&str>, Vec<&str>) =
                        (old.split('\n').collect(), new.split('\n').collect());
                    let line = |action, text: &str| {
                        format!("{}{}{text}", pad(indent + 1), write_symbol(action))
                    };
                    process_slice(
                        &old,
                        &new,
                        |_| false,
                        |b, a| match (old.get(b), new.get(a)) {
                            (None, Some(n)) => lines.push(line(Action::Create, n)),
                            (Some(o), None) => lines.push(line(Action::Delete, o)),
                            (Some(o), Some(n)) if o != n => {
                                lines.push(line(Action::Delete, o));
                                lines.push(line(Action::Create, n));
                            }
                            (Some(o), Some(_)) => lines.push(line(Action::NoOp, o)),
                            (None, None) => {}
                        },
                    );
                }
            }
        }
    }
    format!(
        "<<-EOT{replace}\n{}\n{}{}EOT{}",
        lines.join("\n"),
        pad(indent),
        write_symbol(Action::NoOp),
        null_suffix(diff.action, opts)
    )
}

/// A string holding JSON: `jsonencode(...)` around the diff of the JSON values; a change
/// the JSON does not see is whitespace.
fn as_json(
    diff: &Diff,
    before: Option<Json>,
    after: Option<Json>,
    indent: usize,
    opts: Opts,
) -> String {
    let change = Change {
        before_explicit: diff.action != Action::Create,
        after_explicit: diff.action != Action::Delete,
        before: before.unwrap_or(Json::Null),
        after: after.unwrap_or(Json::Null),
        unknown: Json::Bool(false),
        before_sensitive: Json::Bool(false),
        after_sensitive: Json::Bool(false),
        replace: ReplacePaths::default(),
        non_legacy: false,
    };
    let json = json_diff(change);
    let mut action = diff.action;
    let mut json_opts = opts.child();
    json_opts.override_null_suffix = true;
    let (mut whitespace, mut replace) = ("", String::new());
    if json.action == Action::NoOp && diff.action == Action::Update {
        whitespace = match diff.replace {
            true => " # whitespace changes force replacement",
            false => " # whitespace changes",
        };
        json_opts.show_unchanged_children = true;
        action = Action::NoOp;
    } else {
        replace = forces_replacement(diff.replace, opts);
    }
    let rendered = render(&json, indent + 1, json_opts);
    if matches!(diff.action, Action::Create | Action::Delete) {
        action = Action::NoOp;
    }
    if rendered.contains('\n') {
        return format!(
            "jsonencode({whitespace}\n{}{}{rendered}{replace}\n{}{}){}",
            pad(indent + 1),
            write_symbol(action),
            pad(indent),
            write_symbol(Action::NoOp),
            null_suffix(diff.action, opts)
        );
    }
    format!("jsonencode({rendered}){whitespace}{replace}")
}
