//! An argument's value written in the other syntax, for the fixes that copy a value from
//! an override file into a file of the other syntax. A native literal becomes the JSON
//! value it is (its strings' `${` and `%{` doubled, as a JSON string is a template);
//! any other native expression the JSON string `"${EXPRESSION}"`, whose lone
//! interpolation is the value itself. A JSON value becomes the native literal of the
//! same form, its strings quoted as native templates: the template syntax is the same in
//! both, only the escapes of the string differ.

use crate::module::SourceFile;
use crate::syntax::{Attribute, Expr, ExprKind, JsonKind, JsonValue, Syntax, TemplatePart};

/// The value of `attr`, an argument of `source`, as the syntax `target` writes it.
pub(super) fn value_in(source: &SourceFile, attr: &Attribute, target: Syntax) -> Option<String> {
    let text = source.text.get(attr.expr.span.range())?;
    match (&attr.expr.kind, target) {
        (ExprKind::Json(value), Syntax::Native) => native(value),
        (ExprKind::Json(_), Syntax::Json) => Some(text.to_string()),
        (_, Syntax::Native) => Some(text.to_string()),
        (expr, Syntax::Json) => Some(json(&attr.expr, expr, text)),
    }
}

/// A native expression (`text` as written) as a JSON value: a quoted template without
/// escapes is the same template in a JSON string.
fn json(expr: &Expr, kind: &ExprKind, text: &str) -> String {
    if let Some(value) = literal(kind).then(|| crate::eval::constant(expr)).flatten() {
        return escaped(value).to_string();
    }
    let template = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .filter(|t| matches!(kind, ExprKind::Template(_)) && !t.contains(['\\', '\n']));
    let string = match template {
        Some(inner) => inner.to_string(),
        None => format!("${{{text}}}"),
    };
    serde_json::Value::from(string).to_string()
}

/// Whether a native expression is written as a literal: no reference, call or operator.
fn literal(kind: &ExprKind) -> bool {
    match kind {
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::String(_) => true,
        ExprKind::Template(parts) => parts.iter().all(|p| matches!(p, TemplatePart::Literal(_))),
        ExprKind::Tuple(items) => items.iter().all(|i| literal(&i.kind)),
        ExprKind::Object(items) => items.iter().all(|(k, v)| {
            matches!(k.kind, ExprKind::Variable(_)) || literal(&k.kind) && literal(&v.kind)
        }),
        _ => false,
    }
}

/// A constant value whose strings a JSON string's template reads as they are.
fn escaped(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    let text = |s: String| s.replace("${", "$${").replace("%{", "%%{");
    match value {
        Value::String(s) => Value::String(text(s)),
        Value::Array(items) => Value::Array(items.into_iter().map(escaped).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (text(k), escaped(v)))
                .collect(),
        ),
        other => other,
    }
}

/// A JSON value as a native expression; `None` for one that does not parse.
fn native(value: &JsonValue) -> Option<String> {
    Some(match &value.kind {
        JsonKind::Null => "null".into(),
        JsonKind::Bool(b) => b.to_string(),
        JsonKind::Number(n) => n.to_string(),
        JsonKind::String(s) => quoted(s),
        JsonKind::Array(items) => {
            let items: Option<Vec<String>> = items.iter().map(native).collect();
            format!("[{}]", items?.join(", "))
        }
        JsonKind::Object(properties) => {
            let items: Option<Vec<String>> = properties
                .iter()
                .map(|(k, v)| Some(format!("{} = {}", quoted(&k.name), native(v)?)))
                .collect();
            format!("{{ {} }}", items?.join(", "))
        }
        JsonKind::Invalid => return None,
    })
}

/// A string as a native quoted template: its `${` and `%{` kept, the rest escaped as
/// HCL's quoted strings escape.
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_value(path: &str, text: &str, target: Syntax) -> Option<String> {
        let source = SourceFile::parse(path.into(), text.into(), None, None);
        let block = &source.syntax.body.blocks[0];
        let attr = block.body.attributes[0].clone();
        value_in(&source, &attr, target)
    }

    #[test]
    fn native_values_become_json_values() {
        let of = |value: &str| {
            let text = format!("output \"o\" {{\n  value = {value}\n}}\n");
            first_value("/m/o.tf", &text, Syntax::Json)
        };
        assert_eq!(of("\"./child\"").as_deref(), Some("\"./child\""));
        assert_eq!(of("[1, true, null]").as_deref(), Some("[1,true,null]"));
        assert_eq!(of("\"$${x}\"").as_deref(), Some("\"$${x}\""));
        assert_eq!(of("var.a + 1").as_deref(), Some("\"${var.a + 1}\""));
        assert_eq!(of("\"a-${var.b}\"").as_deref(), Some("\"a-${var.b}\""));
        assert_eq!(
            of("\"a\\\"${var.b}\"").as_deref(),
            Some("\"${\\\"a\\\\\\\"${var.b}\\\"}\"")
        );
    }

    #[test]
    fn json_values_become_native_literals() {
        let of = |value: &str| {
            let text = format!("{{\"output\": {{\"o\": {{\"value\": {value}}}}}}}");
            first_value("/m/o.tf.json", &text, Syntax::Native)
        };
        assert_eq!(of("\"${var.a}\"").as_deref(), Some("\"${var.a}\""));
        assert_eq!(
            of("{\"k\": [1, \"a\\\"b\\n\"]}").as_deref(),
            Some("{ \"k\" = [1, \"a\\\"b\\n\"] }")
        );
        assert_eq!(of("\"\\/\"").as_deref(), Some("\"/\""));
    }
}
