//! The constant value of an expression that needs no context: what HCL computes when
//! Terraform evaluates an expression with no variables or functions (`Value(nil)`), as
//! JSON. Literals, templates, collections, operators and conditionals fold; anything that
//! references an object or calls a function has no constant value.

use serde_json::{Map, Number, Value};

use crate::syntax::{json_string_template, Expr, ExprKind, JsonKind, JsonValue, TemplatePart};

/// The value of `expr` when it is a constant.
pub fn constant(expr: &Expr) -> Option<Value> {
    match &expr.kind {
        ExprKind::Null => Some(Value::Null),
        ExprKind::Bool(b) => Some(Value::Bool(*b)),
        ExprKind::Number(n) => number(n),
        ExprKind::String(s) => Some(Value::String(s.to_string())),
        ExprKind::Template(parts) => template(parts).map(Value::String),
        ExprKind::Tuple(items) => items
            .iter()
            .map(constant)
            .collect::<Option<_>>()
            .map(Value::Array),
        ExprKind::Object(items) => {
            let mut map = Map::new();
            for (k, v) in items {
                let key = match &k.kind {
                    ExprKind::Variable(id) => id.name.to_string(),
                    _ => scalar_string(&constant(k)?)?,
                };
                map.insert(key, constant(v)?);
            }
            Some(Value::Object(map))
        }
        ExprKind::Parens(inner) => constant(inner),
        ExprKind::Unary { op, expr } => match (*op, constant(expr)?) {
            ("!", Value::Bool(b)) => Some(Value::Bool(!b)),
            ("-", v) => float_value(-as_f64(&v)?),
            _ => None,
        },
        ExprKind::Binary { op, operands } => {
            binary(op, constant(&operands[0])?, constant(&operands[1])?)
        }
        ExprKind::Conditional(parts) => match constant(&parts[0])? {
            Value::Bool(true) => constant(&parts[1]),
            Value::Bool(false) => constant(&parts[2]),
            _ => None,
        },
        ExprKind::Json(value) => json(value, true),
        ExprKind::Variable(_)
        | ExprKind::Traversal { .. }
        | ExprKind::FuncCall { .. }
        | ExprKind::For(_)
        | ExprKind::Unanalysed
        | ExprKind::Missing => None,
    }
}

/// A JSON-syntax value as HCL reads it without an evaluation context (JSON's `Value(nil)`,
/// what `gohcl.DecodeExpression` sees for arguments Terraform decodes as constants):
/// strings as written, `${` sequences included; `None` for native expressions.
pub fn json_literal(expr: &Expr) -> Option<Value> {
    match &expr.kind {
        ExprKind::Json(value) => json(value, false),
        _ => None,
    }
}

/// A JSON value's constant, its strings read as templates (`templates`, as HCL reads
/// them in expressions) or as written.
fn json(value: &JsonValue, templates: bool) -> Option<Value> {
    match &value.kind {
        JsonKind::Null => Some(Value::Null),
        JsonKind::Bool(b) => Some(Value::Bool(*b)),
        JsonKind::Number(n) => number(n),
        JsonKind::String(s) => match json_string_template(value).filter(|_| templates) {
            Some(template) => constant(&template),
            None => Some(Value::String(s.to_string())),
        },
        JsonKind::Array(items) => items
            .iter()
            .map(|v| json(v, templates))
            .collect::<Option<_>>()
            .map(Value::Array),
        JsonKind::Object(props) => props
            .iter()
            .map(|(k, v)| Some((k.name.to_string(), json(v, templates)?)))
            .collect::<Option<Map<_, _>>>()
            .map(Value::Object),
        JsonKind::Invalid => None,
    }
}

fn template(parts: &[TemplatePart]) -> Option<String> {
    let mut out = String::new();
    for part in parts {
        match part {
            TemplatePart::Literal(s) => out.push_str(s),
            TemplatePart::Interpolation(e) => out.push_str(&scalar_string(&constant(e)?)?),
            TemplatePart::If {
                condition,
                then,
                otherwise,
            } => match constant(condition)? {
                Value::Bool(true) => out.push_str(&template(then)?),
                Value::Bool(false) => out.push_str(&template(otherwise)?),
                _ => return None,
            },
            TemplatePart::For { .. } => return None,
        }
    }
    Some(out)
}

/// A number literal as JSON: integers stay integers, as Terraform prints them.
fn number(text: &str) -> Option<Value> {
    if let Ok(i) = text.parse::<i64>() {
        return Some(Value::Number(i.into()));
    }
    float_value(text.parse::<f64>().ok()?)
}

fn float_value(f: f64) -> Option<Value> {
    if f.fract() == 0.0 && f.abs() < 9.0e15 {
        return Some(Value::Number((f as i64).into()));
    }
    Number::from_f64(f).map(Value::Number)
}

fn as_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

/// A primitive converted to a string, as templates and object keys convert them.
fn scalar_string(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn binary(op: &str, a: Value, b: Value) -> Option<Value> {
    let numbers = || Some((as_f64(&a)?, as_f64(&b)?));
    match op {
        "+" | "-" | "*" | "/" | "%" => {
            let (x, y) = numbers()?;
            float_value(match op {
                "+" => x + y,
                "-" => x - y,
                "*" => x * y,
                "/" if y != 0.0 => x / y,
                "%" if y != 0.0 => x % y,
                _ => return None,
            })
        }
        "<" | "<=" | ">" | ">=" => {
            let (x, y) = numbers()?;
            Some(Value::Bool(match op {
                "<" => x < y,
                "<=" => x <= y,
                ">" => x > y,
                _ => x >= y,
            }))
        }
        "==" => Some(Value::Bool(a == b)),
        "!=" => Some(Value::Bool(a != b)),
        "&&" | "||" => match (a, b) {
            (Value::Bool(x), Value::Bool(y)) => {
                Some(Value::Bool(if op == "&&" { x && y } else { x || y }))
            }
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{parse, Syntax};
    use serde_json::json;

    fn value(src: &str) -> Option<Value> {
        let file = parse(&format!("x = {src}\n"), Syntax::Native, None);
        constant(&file.body.attributes[0].expr)
    }

    #[test]
    fn literals_and_collections_fold() {
        assert_eq!(value("1"), Some(json!(1)));
        assert_eq!(value("1.5"), Some(json!(1.5)));
        assert_eq!(value("\"a\""), Some(json!("a")));
        assert_eq!(value("[1, true, null]"), Some(json!([1, true, null])));
        assert_eq!(
            value("{ a = 1, \"b\" = [2] }"),
            Some(json!({"a": 1, "b": [2]}))
        );
        assert_eq!(value("\"x-${1 + 2}\""), Some(json!("x-3")));
        assert_eq!(value("true ? \"y\" : \"n\""), Some(json!("y")));
        assert_eq!(value("-(2 * 3)"), Some(json!(-6)));
    }

    #[test]
    fn references_and_calls_are_not_constant() {
        assert_eq!(value("var.a"), None);
        assert_eq!(value("[1, var.a]"), None);
        assert_eq!(value("upper(\"a\")"), None);
        assert_eq!(value("\"${var.a}\""), None);
    }
}
