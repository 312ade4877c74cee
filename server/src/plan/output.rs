//! A plan written out as JSON in the shape DESIGN.md gives `strata plan --format json`:
//! Terraform's `resource_changes` and `output_changes` (as `terraform show -json` writes
//! them), plus errors and warnings. The text renderer (`text`) reads the same JSON.

use std::path::Path;

use serde_json::{json, Map, Value as Json};

use super::{OutputChange, Plan, PlanDiagnostic, ResourceChange};
use crate::eval::Value;
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
    let outputs: Map<String, Json> = plan
        .outputs
        .iter()
        .map(|o| (o.name.clone(), output_change_json(o)))
        .collect();
    let mut json = json!({
        "resource_changes": changes,
        "output_changes": outputs,
        "errors": diags(&plan.errors),
        "warnings": diags(&plan.warnings),
    });
    // Left out when empty, as `show -json` leaves it out.
    if !plan.drift.is_empty() {
        json["resource_drift"] = plan.drift.iter().map(change_json).collect();
    }
    json
}

/// One output's change as `show -json` writes it: `after` left out when it is wholly
/// unknown, unknown elements null in it; both sensitivities the output's one flag.
pub(super) fn output_change_json(o: &OutputChange) -> Json {
    let mut change = Map::new();
    change.insert("actions".into(), json!(o.action.json()));
    change.insert("before".into(), o.before.known_json());
    let (after, unknown) = match o.after.is_wholly_known() {
        true => (Some(o.after.known_json()), Json::Bool(false)),
        false => (
            o.after.is_known().then(|| o.after.known_json()),
            o.after.unknown_json(),
        ),
    };
    if let Some(after) = after {
        change.insert("after".into(), after);
    }
    change.insert("after_unknown".into(), unknown);
    change.insert("before_sensitive".into(), Json::Bool(o.sensitive));
    change.insert("after_sensitive".into(), Json::Bool(o.sensitive));
    Json::Object(change)
}

/// One resource change as `show -json` writes it.
pub(super) fn change_json(c: &ResourceChange) -> Json {
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
