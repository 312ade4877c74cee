//! Marks through evaluation, against what `terraform console` 1.11.4 printed for the same
//! expressions (a sensitive known `var.s = "secret"`, `var.l = ["a", "b"]` and
//! `var.m = {a = "x"}`) and what `terraform validate` reported for the unknown ones
//! (`var.u`, a sensitive unknown string).

use std::collections::BTreeMap;

use crate::eval::{evaluate, EvalError, Marks, Scope, Value};
use crate::syntax::{parse, Span, Syntax};

struct Secrets;

impl Scope for Secrets {
    fn lookup(&self, root: &str, attrs: &[&str], span: Span) -> Result<(Value, usize), EvalError> {
        let secret = |v: Value| Ok((v.mark(Marks::SENSITIVE), 1));
        match (root, attrs.first()) {
            ("var", Some(&"s")) => secret(Value::string("secret")),
            ("var", Some(&"l")) => secret(Value::List(
                vec![Value::string("a"), Value::string("b")].into(),
            )),
            ("var", Some(&"m")) => secret(Value::Map(
                BTreeMap::from([("a".to_string(), Value::string("x"))]).into(),
            )),
            ("var", Some(&"u")) => secret(Value::Unknown),
            ("var", Some(&"b")) => secret(Value::Unknown),
            ("var", Some(&"e")) => Ok((Value::string("e").mark(Marks::EPHEMERAL), 1)),
            _ => Err(EvalError::new(
                "Reference to undeclared input variable",
                root,
                span,
            )),
        }
    }
}

/// The value of `src` as `terraform console` shows where it is sensitive: `S` for a
/// sensitive value, a tuple or object of those inside, `_` for anything else.
fn shown(src: &str) -> String {
    let file = parse(&format!("x = {src}\n"), Syntax::Native, None);
    assert!(!file.has_errors(), "{src}: {:?}", file.diagnostics);
    match evaluate(&file.body.attributes[0].expr, &Secrets) {
        Ok(v) => shape(&v),
        Err(e) => format!("ERROR: {}", e.detail),
    }
}

fn shape(v: &Value) -> String {
    if v.marks().contains(Marks::SENSITIVE) {
        return "S".into();
    }
    if let Some(items) = v.elements() {
        let inner: Vec<String> = items.iter().map(shape).collect();
        return format!("[{}]", inner.join(","));
    }
    if let Some(map) = v.attributes() {
        let inner: Vec<String> = map
            .iter()
            .map(|(k, v)| format!("{k}={}", shape(v)))
            .collect();
        return format!("{{{}}}", inner.join(","));
    }
    "_".into()
}

#[test]
fn marks_travel_with_values_through_expressions() {
    for (src, want) in [
        (r#"[var.s, "p"]"#, "[S,_]"),
        (r#""${var.s}-x""#, "S"),
        (r#""${var.s}""#, "S"),
        (r#"var.s == "x""#, "S"),
        (r#"true ? var.s : "p""#, "S"),
        (r#"var.s == "" ? "a" : "b""#, "S"),
        (r#"{a = var.s, b = "p"}["b"]"#, "_"),
        (r#"{(var.s) = 1}"#, "S"),
        ("var.l[0]", "S"),
        ("var.l[*]", "S"),
        (r#"[var.s, "p"][*]"#, "[S,_]"),
        ("[for x in var.l : x]", "S"),
        (r#"[for x in [var.s, "p"] : x]"#, "[S,_]"),
        (r#"{for k, v in {a = "x"} : k => v if var.s != ""}"#, "S"),
        ("var.m.a", "S"),
    ] {
        assert_eq!(shown(src), want, "{src}");
    }
}

#[test]
fn functions_mark_their_results_as_terraform_does() {
    for (src, want) in [
        // Marks anywhere in the arguments go on the whole result.
        ("upper(var.s)", "S"),
        ("jsonencode([var.s])", "S"),
        (r#"join(",", [var.s])"#, "S"),
        (r#"contains([var.s, "p"], "p")"#, "S"),
        (r#"distinct([var.s, "p"])"#, "S"),
        (r#"coalesce(var.s, "p")"#, "S"),
        ("length(var.s)", "S"),
        // Elements move with their own marks.
        (r#"concat([var.s], ["p"])"#, "[S,_]"),
        (r#"merge({a = var.s}, {b = "p"})"#, "{a=S,b=_}"),
        (r#"lookup({a = var.s, b = "p"}, "b")"#, "_"),
        (r#"element([var.s, "p"], 1)"#, "_"),
        (r#"keys({a = var.s})"#, "[_]"),
        (r#"values({a = var.s, b = "p"})"#, "[S,_]"),
        (r#"reverse([var.s, "p"])"#, "[_,S]"),
        (r#"slice([var.s, "p", "q"], 1, 2)"#, "[_]"),
        (r#"zipmap(["a", "b"], [var.s, "p"])"#, "{a=S,b=_}"),
        (r#"tolist([var.s, "p"])"#, "[S,_]"),
        ("length([var.s])", "_"),
        ("length(var.l)", "S"),
        ("concat(var.l, [\"p\"])", "S"),
        ("merge(var.m, {b = \"p\"})", "S"),
        // A set cannot hold marked elements: the set is marked.
        (r#"toset([var.s, "p"])"#, "S"),
        // flatten takes the marks of the collections it opens.
        (r#"flatten([var.l, ["p"]])"#, "S"),
        (r#"flatten([[var.s], ["p"]])"#, "[S,_]"),
        // The functions of marks.
        (r#"sensitive("a")"#, "S"),
        (r#"sensitive("a") == "a""#, "S"),
        ("nonsensitive(var.s)", "_"),
        ("nonsensitive([var.s])", "[S]"),
        (r#"nonsensitive("x")"#, "_"),
        ("issensitive(var.s)", "_"),
        ("can(var.s)", "_"),
        (r#"try(var.s, "p")"#, "S"),
    ] {
        assert_eq!(shown(src), want, "{src}");
    }
    assert_eq!(shown_value("issensitive(var.s)"), Value::Bool(true));
    assert_eq!(shown_value("issensitive([var.s])"), Value::Bool(false));
    assert_eq!(
        shown_value("issensitive(sensitive(timestamp()))"),
        Value::Bool(true)
    );
    // An unknown value may yet be sensitive (recorded with `terraform plan`).
    assert!(!shown_value("issensitive(timestamp())").is_known());
    assert_eq!(
        shown_value("ephemeralasnull({a = var.e, b = 1})")
            .to_json()
            .to_string(),
        r#"{"a":null,"b":1}"#
    );
}

/// An unknown result keeps the marks, except where go-cty gives up on an unknown
/// argument before it looks at marks (recorded with `terraform validate` on root outputs).
#[test]
fn unknown_results_keep_marks_unless_the_function_takes_no_unknown() {
    for (src, want) in [
        ("upper(var.u)", "S"),
        ("keys(var.u)", "S"),
        ("length(var.u)", "S"),
        ("var.u + 1", "S"),
        ("[for x in var.u : 1]", "S"),
        ("merge(var.u, {})", "_"),
        ("concat(var.u, [])", "_"),
        ("values(var.u)", "_"),
        ("element(var.u, 0)", "_"),
        ("abs(var.u)", "_"),
        ("-var.u", "_"),
        ("!var.b", "_"),
        ("var.b && true", "_"),
        (r#"try(var.u, "x")"#, "_"),
        (r#"distinct([var.u])"#, "S"),
        (r#"toset([var.u])"#, "S"),
    ] {
        assert_eq!(shown(src), want, "{src}");
    }
}

/// The value of `src`, null where it fails.
fn shown_value(src: &str) -> Value {
    let file = parse(&format!("x = {src}\n"), Syntax::Native, None);
    evaluate(&file.body.attributes[0].expr, &Secrets).unwrap_or(Value::Null)
}
