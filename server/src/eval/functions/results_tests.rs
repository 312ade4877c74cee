//! Every expression of `fixtures/functions/results.json` (and of the tables of a family,
//! `yaml-results.json` and `regex-results.json`) against what Terraform made of it (recorded by
//! `scripts/record-function-results.py`): the same value, the same
//! unknown, or the same error summary and detail. Expressions listed in
//! `fixtures/functions/PENDING` are known not to match yet.

use serde_json::Value as Json;

use crate::eval::{evaluate, EvalError, Scope, Value};
use crate::syntax::{parse, Span, Syntax};

const RESULTS: &str = include_str!("../../../../fixtures/functions/results.json");
const YAML_RESULTS: &str = include_str!("../../../../fixtures/functions/yaml-results.json");
const REGEX_RESULTS: &str = include_str!("../../../../fixtures/functions/regex-results.json");
const PENDING: &str = include_str!("../../../../fixtures/functions/PENDING");
const LOCALS: &str = include_str!("../../../../fixtures/functions/locals.json");

/// The recording's names: `local.NAME` from `locals.json`, `var.unknown` unknown.
struct Recorded {
    locals: serde_json::Map<String, Json>,
}

impl Scope for Recorded {
    fn lookup(&self, root: &str, attrs: &[&str], span: Span) -> Result<(Value, usize), EvalError> {
        let found = match (root, attrs.first()) {
            ("var", Some(&"unknown")) => Some(Value::Unknown),
            ("local", Some(name)) => self.locals.get(*name).map(Value::from_json),
            _ => None,
        };
        found
            .map(|v| (v, 1))
            .ok_or_else(|| EvalError::new("Reference to undeclared name", root, span))
    }
}

fn eval_in(src: &str) -> Result<Value, EvalError> {
    let file = parse(&format!("x = {src}\n"), Syntax::Native, None);
    assert!(!file.has_errors(), "{src}: {:?}", file.diagnostics);
    let locals = serde_json::from_str(LOCALS).expect("locals.json is a JSON object");
    evaluate(&file.body.attributes[0].expr, &Recorded { locals })
}

/// Whether two JSON values are equal, numbers compared as numbers (`1` and `1.0`).
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => x.as_f64() == y.as_f64(),
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// What Strata makes of `expr`, in the recording's shape.
fn strata(expr: &str) -> Json {
    match eval_in(expr) {
        Ok(v) if !v.is_wholly_known() => serde_json::json!({ "unknown": true }),
        Ok(v) => serde_json::json!({ "value": v.to_json() }),
        Err(e) => serde_json::json!({ "error": { "summary": e.summary, "detail": e.detail } }),
    }
}

fn matches(recorded: &Json, got: &Json) -> bool {
    match (recorded.get("value"), got.get("value")) {
        (Some(a), Some(b)) => same(a, b),
        _ => {
            ["unknown", "error"]
                .iter()
                .all(|k| recorded.get(k) == got.get(k))
                && recorded.get("value").is_none()
                && got.get("value").is_none()
        }
    }
}

#[test]
fn every_recorded_expression_evaluates_as_in_terraform() {
    let mut rows: Vec<Json> = serde_json::from_str(RESULTS).expect("results.json is JSON");
    let yaml: Vec<Json> = serde_json::from_str(YAML_RESULTS).expect("yaml-results.json is JSON");
    rows.extend(yaml);
    let regex: Vec<Json> = serde_json::from_str(REGEX_RESULTS).expect("regex-results.json is JSON");
    rows.extend(regex);
    let pending: Vec<&str> = PENDING
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split(" # ").next())
        .map(str::trim)
        .collect();
    let mut failures = Vec::new();
    let mut fixed = Vec::new();
    for row in &rows {
        let expr = row["expr"].as_str().unwrap_or_default();
        let got = strata(expr);
        let ok = matches(row, &got);
        match (ok, pending.contains(&expr)) {
            (false, false) => {
                failures.push(format!("{expr}\n  terraform: {row}\n  strata:    {got}"))
            }
            (true, true) => fixed.push(expr.to_string()),
            _ => {}
        }
    }
    assert!(
        failures.is_empty() && fixed.is_empty(),
        "{} differ from Terraform:\n{}\nlisted in PENDING but now match: {fixed:?}",
        failures.len(),
        failures.join("\n")
    );
}
