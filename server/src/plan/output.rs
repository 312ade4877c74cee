//! A plan written out: as JSON in the shape DESIGN.md gives `strata plan --format json`
//! (Terraform's `resource_changes` plus errors and warnings), and as text that reads like
//! `terraform plan`.

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::Path;

use serde_json::{json, Map, Value as Json};

use super::render_values::{attribute_type, render, sensitivity_warning};
use super::{Action, InstanceKey, Plan, PlanDiagnostic, ResourceChange};
use crate::eval::Value;
use crate::module::Dialect;
use crate::syntax::Span;

/// How a caller turns a file and span into a JSON `range` (the CLI and the LSP count
/// lines and columns differently).
pub type RangeOf<'a> = &'a dyn Fn(&Path, Span) -> Json;

/// The plan as JSON.
pub fn plan_json(plan: &Plan, range: RangeOf) -> Json {
    let changes: Vec<Json> = plan.changes.iter().map(change_json).collect();
    let diags = |list: &[PlanDiagnostic]| -> Vec<Json> {
        list.iter()
            .map(|d| {
                let mut o = Map::new();
                o.insert("summary".into(), json!(d.summary));
                o.insert("detail".into(), json!(d.detail));
                if let Some((path, span)) = &d.place {
                    o.insert("range".into(), range(path, *span));
                }
                Json::Object(o)
            })
            .collect()
    };
    json!({
        "resource_changes": changes,
        "errors": diags(&plan.errors),
        "warnings": diags(&plan.warnings),
    })
}

fn change_json(c: &ResourceChange) -> Json {
    let mut o = Map::new();
    o.insert("address".into(), json!(c.addr.to_string()));
    if let Some(p) = &c.previous {
        o.insert("previous_address".into(), json!(p.to_string()));
    }
    if !c.addr.resource.module.is_root() {
        o.insert(
            "module_address".into(),
            json!(c.addr.resource.module.to_string()),
        );
    }
    let mode = match c.addr.resource.mode {
        super::ResourceMode::Managed => "managed",
        super::ResourceMode::Data => "data",
    };
    o.insert("mode".into(), json!(mode));
    o.insert("type".into(), json!(c.addr.resource.type_name));
    o.insert("name".into(), json!(c.addr.resource.name));
    match &c.addr.key {
        super::InstanceKey::None => {}
        super::InstanceKey::Int(i) => {
            o.insert("index".into(), json!(i));
        }
        super::InstanceKey::String(s) => {
            o.insert("index".into(), json!(s));
        }
    }
    if let Some(d) = &c.deposed {
        o.insert("deposed".into(), json!(d));
    }
    let mut change = Map::new();
    change.insert("actions".into(), json!(c.action.json()));
    change.insert(
        "before".into(),
        c.before.as_ref().map_or(Json::Null, Value::known_json),
    );
    change.insert(
        "after".into(),
        c.after.as_ref().map_or(Json::Null, Value::known_json),
    );
    // As `show -json` writes it: `{}` for a wholly known object, else every
    // collection's shape (`unknownAsBool`).
    change.insert(
        "after_unknown".into(),
        c.after
            .as_ref()
            .filter(|a| !a.is_wholly_known())
            .map_or(json!({}), |a| match a.unknown_json() {
                Json::Bool(false) => json!({}),
                other => other,
            }),
    );
    // Where each side is sensitive (`SensitiveAsBool`); `false` for a side that does not
    // exist.
    for (key, side) in [
        ("before_sensitive", &c.before),
        ("after_sensitive", &c.after),
    ] {
        let shape = side
            .as_ref()
            .map_or(Json::Bool(false), Value::sensitive_json);
        change.insert(key.into(), shape);
    }
    if !c.replace_paths.is_empty() {
        let paths: Vec<Json> = c.replace_paths.iter().map(|p| json!([p])).collect();
        change.insert("replace_paths".into(), Json::Array(paths));
    }
    if let Some(i) = &c.importing {
        change.insert("importing".into(), i.to_json());
    }
    o.insert("change".into(), Json::Object(change));
    if let Some(r) = c.reason {
        o.insert("action_reason".into(), json!(r));
    }
    if let Some(caveat) = c.caveat {
        o.insert("caveats".into(), json!([caveat]));
    }
    Json::Object(o)
}

/// How a caller names a place in text: `main.tf line 3`.
pub type PlaceOf<'a> = &'a dyn Fn(&Path, Span) -> String;

/// The plan as `terraform plan` prints it.
pub fn render_text(plan: &Plan, dialect: Dialect, place: PlaceOf) -> String {
    let tool = match dialect {
        Dialect::Terraform => "Terraform",
        Dialect::OpenTofu => "OpenTofu",
    };
    let mut out = String::new();
    let shown: Vec<&ResourceChange> = plan
        .changes
        .iter()
        .filter(|c| c.action != Action::NoOp || c.previous.is_some() || c.importing.is_some())
        .collect();
    if shown.is_empty() && plan.errors.is_empty() {
        let _ = writeln!(
            out,
            "No changes. Your infrastructure matches the configuration.\n\n{tool} has compared your real infrastructure against your configuration and found no differences, so no changes are needed."
        );
    } else if !shown.is_empty() {
        let actions: BTreeSet<&str> = shown.iter().map(|c| symbol(c.action).trim()).collect();
        let _ = writeln!(out, "{tool} used the selected providers to generate the following execution\nplan. Resource actions are indicated with the following symbols:");
        for (sym, text) in [
            ("+", "create"),
            ("~", "update in-place"),
            ("-", "destroy"),
            ("-/+", "destroy and then create replacement"),
            ("+/-", "create replacement and then destroy"),
            ("<=", "read (data resources)"),
        ] {
            if actions.contains(sym) {
                let _ = writeln!(out, "{:>3} {text}", sym);
            }
        }
        let _ = writeln!(out, "\n{tool} will perform the following actions:");
        for c in &shown {
            out.push('\n');
            render_change(&mut out, c, tool);
        }
        let count = |f: &dyn Fn(Action) -> bool| shown.iter().filter(|c| f(c.action)).count();
        let add = count(&|a| a == Action::Create || a.is_replace());
        let change = count(&|a| a == Action::Update);
        let destroy = count(&|a| a == Action::Delete || a.is_replace());
        let imports = shown.iter().filter(|c| c.importing.is_some()).count();
        let import = if imports > 0 {
            format!("{imports} to import, ")
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "\nPlan: {import}{add} to add, {change} to change, {destroy} to destroy."
        );
    }
    for (kind, list) in [("Error", &plan.errors), ("Warning", &plan.warnings)] {
        for d in list.iter() {
            let _ = write!(out, "\n{kind}: {}\n", d.summary);
            if let Some((path, span)) = &d.place {
                let _ = writeln!(out, "\n  on {}:", place(path, *span));
            }
            if !d.detail.is_empty() {
                let _ = writeln!(out, "\n{}", d.detail);
            }
        }
    }
    out
}

fn symbol(action: Action) -> &'static str {
    match action {
        Action::Create => "  +",
        Action::Update => "  ~",
        Action::Delete => "  -",
        Action::DeleteThenCreate => "-/+",
        Action::CreateThenDelete => "+/-",
        Action::Read => " <=",
        Action::Forget => "  .",
        Action::NoOp => "   ",
    }
}

/// The comment line(s) above a change, as Terraform words them.
fn header(c: &ResourceChange, tool: &str) -> Vec<String> {
    let addr = match &c.deposed {
        Some(d) => format!("{} (deposed object {d})", c.addr),
        None => c.addr.to_string(),
    };
    let mut lines = vec![match (c.action, c.reason) {
        (Action::Create, _) => format!("{addr} will be created"),
        (Action::Update, _) => format!("{addr} will be updated in-place"),
        (Action::Read, _) => format!("{addr} will be read during apply"),
        (Action::Forget, _) => {
            format!("{addr} will no longer be managed by {tool}, but will not be destroyed")
        }
        (Action::Delete, _) => format!("{addr} will be destroyed"),
        (_, Some("replace_because_tainted")) => format!("{addr} is tainted, so must be replaced"),
        (_, Some("replace_by_request")) => format!("{addr} will be replaced, as requested"),
        (_, Some("replace_by_triggers")) => {
            format!("{addr} will be replaced due to changes in replace_triggered_by")
        }
        (a, _) if a.is_replace() => format!("{addr} must be replaced"),
        (_, _) => match &c.previous {
            Some(p) => format!("{p} has moved to {}", c.addr),
            None if c.importing.is_some() => format!("{addr} will be imported"),
            None => format!("{addr} is unchanged"),
        },
    }];
    let why = match c.reason {
        Some("delete_because_no_resource_config") => Some(format!(
            "(because {} is not in configuration)",
            c.addr.resource
        )),
        Some("delete_because_no_move_target") => Some(format!(
            "(because {} was moved to {}, which is not in configuration)",
            c.previous
                .as_ref()
                .map_or_else(String::new, ToString::to_string),
            c.addr
        )),
        Some("delete_because_count_index") => Some(format!(
            "(because index {} is out of range for count)",
            c.addr.key
        )),
        Some("delete_because_each_key") => Some(format!(
            "(because key {} is not in for_each map)",
            c.addr.key
        )),
        // Terraform words it by the key the object has.
        Some("delete_because_wrong_repetition") => Some(
            match c.addr.key {
                InstanceKey::None => "(because resource uses count or for_each)",
                InstanceKey::Int(_) => "(because resource does not use count)",
                InstanceKey::String(_) => "(because resource does not use for_each)",
            }
            .to_string(),
        ),
        Some("delete_because_no_module") => Some(format!(
            "(because {} is not in configuration)",
            c.addr.resource.module
        )),
        Some("delete_because_enabled_false") => {
            Some("(because the resource is disabled)".to_string())
        }
        Some("read_because_config_unknown") => {
            Some("(config refers to values not yet known)".to_string())
        }
        Some("read_because_dependency_pending") => {
            Some("(depends on a resource or a module with changes pending)".to_string())
        }
        Some("read_because_check_nested") => {
            Some("(config will be reloaded to verify a check block)".to_string())
        }
        _ => None,
    };
    if c.action == Action::Forget {
        lines.push("(destroy = false is set in the configuration)".into());
    } else if let Some(why) = why {
        lines.push(why);
    }
    if let (Some(p), true) = (&c.previous, c.action != Action::NoOp) {
        lines.push(format!("(moved from {p})"));
    }
    // An import that also changes the object says where it came from, and a replacement
    // warns that the imported object goes.
    let imported_id = c
        .importing
        .as_ref()
        .and_then(|i| i.attributes()?.get("id")?.to_text());
    if let (Some(id), true) = (imported_id, c.action != Action::NoOp) {
        lines.push(format!("(imported from {})", serde_json::Value::String(id)));
        if c.action.is_replace() {
            lines.push("Warning: this will destroy the imported resource".into());
        }
    }
    if let Some(caveat) = c.caveat {
        lines.push(format!("(Strata: {caveat})"));
    }
    lines
}

fn render_change(out: &mut String, c: &ResourceChange, tool: &str) {
    for line in header(c, tool) {
        let _ = writeln!(out, "  # {line}");
    }
    let keyword = match c.addr.resource.mode {
        super::ResourceMode::Managed => "resource",
        super::ResourceMode::Data => "data",
    };
    let _ = writeln!(
        out,
        "{} {keyword} \"{}\" \"{}\" {{",
        symbol(c.action),
        c.addr.resource.type_name,
        c.addr.resource.name
    );
    let before = c.before.as_ref().and_then(Value::attributes);
    let after = c.after.as_ref().and_then(Value::attributes);
    let empty = std::collections::BTreeMap::new();
    let (b, a) = (before.unwrap_or(&empty), after.unwrap_or(&empty));
    let mut keys: Vec<&String> = b
        .keys()
        .chain(a.keys())
        .filter(|k| !c.blocks.contains(k))
        .collect();
    keys.sort();
    keys.dedup();
    // Each shown attribute: name, symbol, value text, and the warning above it.
    type Line = (String, &'static str, String, Option<[String; 2]>);
    let mut lines: Vec<Line> = Vec::new();
    let mut hidden = 0;
    for key in keys {
        let (old, new) = (b.get(key), a.get(key));
        let null = &Value::Null;
        let attribute = c
            .schema
            .as_deref()
            .and_then(|s| s.attributes.iter().find(|a| *a.name == **key));
        let ty = attribute.and_then(attribute_type);
        // Terraform's renderer marks no attribute of dynamic type, though the plan's
        // `replace_paths` lists it (recorded: `terraform_data.triggers_replace`).
        let dynamic = attribute.map_or_else(
            || super::providers::is_dynamic(&c.addr.resource.type_name, key),
            |a| a.value_type == Some(crate::schema::ValueType::Dynamic),
        );
        let forces = if !dynamic && c.replace_paths.iter().any(|p| p == key) {
            " # forces replacement"
        } else {
            ""
        };
        let render = |o: &Value, n: &Value| render(o, n, 6, ty.as_ref());
        let line = match (c.action, old, new) {
            (Action::Forget, Some(v), _) if key == "id" => Some((" ", v.to_string())),
            (Action::Delete, Some(v), _) if !v.is_null() => Some(("-", render(v, null))),
            (Action::Delete, _, _) => None,
            (_, None | Some(Value::Null), Some(v)) if !v.is_null() => Some(("+", render(null, v))),
            (_, Some(v), None | Some(Value::Null))
                if !v.is_null() && c.after.is_some() && c.action != Action::Read =>
            {
                Some(("-", render(v, null)))
            }
            (_, Some(o), Some(n)) if o != n => Some(("~", render(o, n))),
            (_, Some(v), Some(_)) if key == "id" || key == "name" => Some((" ", v.to_string())),
            _ => {
                if old.is_some_and(|v| !v.is_null()) {
                    hidden += 1;
                }
                None
            }
        };
        if let Some((sym, text)) = line {
            // A value on several lines says it on the line that opens it.
            let text = match text.split_once('\n') {
                Some((first, rest)) => format!("{first}{forces}\n{rest}"),
                None => format!("{text}{forces}"),
            };
            let warning = match (old, new) {
                (Some(o), Some(n)) => sensitivity_warning(o, n),
                _ => None,
            };
            lines.push((key.clone(), sym, text, warning));
        }
    }
    // Aligned over every attribute with a value, shown or not, as Terraform aligns them.
    let valued = b
        .iter()
        .chain(a.iter())
        .filter(|(k, v)| !v.is_null() && !c.blocks.contains(k))
        .map(|(k, _)| k.len());
    let width = match c.action {
        Action::Delete | Action::Forget => lines.iter().map(|(k, ..)| k.len()).max(),
        _ => valued.max(),
    };
    let width = width.unwrap_or(0);
    for (key, sym, text, warning) in lines {
        for line in warning.into_iter().flatten() {
            let _ = writeln!(out, "      {line}");
        }
        let _ = writeln!(out, "      {sym} {key:<width$} = {text}");
    }
    if hidden > 0 {
        let s = if hidden == 1 { "" } else { "s" };
        let _ = writeln!(out, "        # ({hidden} unchanged attribute{s} hidden)");
    }
    let schema = c.schema.as_deref();
    super::render_blocks::render_blocks(out, c.action, b, a, &c.blocks, 6, schema);
    let _ = writeln!(out, "    }}");
}
