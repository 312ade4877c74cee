//! The values of an expression's references that Terraform prints under a diagnostic's
//! source lines (`│ var.x is "a"`): `views/json.NewDiagnostic` reads them from the
//! diagnostic's expression and evaluation context. Each traversal of the expression is
//! evaluated, shortened step by step while it fails (`terraform_data.a[1].output` whose
//! index is out of range shows `terraform_data.a`), down to a root and one step; each
//! is shown once, sorted by its text.

use super::marks::Marks;
use super::parse_ref::{Key, Step};
use super::references::parse_traversals;
use super::value::{friendly_name, Value};
use super::{evaluate, Scope};
use crate::syntax::{Expr, ExprKind, Ident, Span, TraversalStep};
use crate::types::Type;

/// One reference's value as a diagnostic states it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ExpressionValue {
    /// The traversal as HCL writes it (`var.m["a"]`).
    pub traversal: String,
    /// What is said of its value (`is "a"`, `has a sensitive value`).
    pub statement: String,
}

/// What a diagnostic says it was caused by (`tfdiags.DiagnosticCausedByUnknown` and
/// `...BySensitive`): only then are unknown and sensitive values spelled out, lest the
/// reader take them for the cause.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Causes {
    /// The diagnostic is about a value known only after apply.
    pub unknown: bool,
    /// The diagnostic is about a sensitive value.
    pub sensitive: bool,
}

/// The statements about the values of `expr`'s references in `scope`.
pub fn expression_values(expr: &Expr, scope: &dyn Scope, causes: Causes) -> Vec<ExpressionValue> {
    let mut values: Vec<ExpressionValue> = Vec::new();
    for t in parse_traversals(expr) {
        let root = Ident {
            name: t.root.clone(),
            span: t.root_span,
        };
        let mut len = t.steps.len();
        while len >= 1 {
            let steps = &t.steps[..len];
            len -= 1;
            let Ok(value) = evaluate(&traversal_expr(&root, steps), scope) else {
                continue;
            };
            let text = traversal_text(&root.name, steps);
            if values.iter().any(|v| v.traversal == text) {
                break;
            }
            if let Some(statement) = statement(&value, causes) {
                values.push(ExpressionValue {
                    traversal: text,
                    statement,
                });
            }
            break;
        }
    }
    values.sort_by(|a, b| a.traversal.cmp(&b.traversal));
    values
}

/// What is said of one value, `None` where it is left unsaid.
fn statement(value: &Value, causes: Causes) -> Option<String> {
    // `HasMark` looks at the value itself, not inside it.
    if value.marks().contains(Marks::SENSITIVE) {
        return causes.sensitive.then(|| "has a sensitive value".into());
    }
    match value.unmarked() {
        Value::Unknown => causes
            .unknown
            .then(|| "will be known only after apply".into()),
        Value::UnknownOf(Type::Dynamic, _) => causes
            .unknown
            .then(|| "will be known only after apply".into()),
        // Strata has no refinements: a collection's length is unbounded.
        Value::UnknownOf(ty, _) if causes.unknown => Some(format!(
            "is a {}, known only after apply",
            friendly_name(ty)
        )),
        Value::UnknownOf(ty, _) => Some(format!("is a {}", friendly_name(ty))),
        v => Some(format!("is {}", compact(v))),
    }
}

/// A value in a few words (`compactValueStr`): a primitive itself, a collection by its
/// type and length, an object by its attributes; never an element's value (it could be
/// sensitive).
pub fn compact(value: &Value) -> String {
    let (value, marks) = value.clone().unmark();
    if marks.contains(Marks::SENSITIVE) {
        return "(sensitive value)".into();
    }
    if marks.contains(Marks::EPHEMERAL) {
        return "(ephemeral value)".into();
    }
    let counted = |name: String, n: usize| match n {
        0 => format!("empty {name}"),
        1 => format!("{name} with 1 element"),
        n => format!("{name} with {n} elements"),
    };
    match &value {
        Value::Null => "null".into(),
        Value::Unknown | Value::UnknownOf(..) => "(not yet known)".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number_g10(*n),
        Value::String(s) => go_quote(s),
        Value::Tuple(items) | Value::List(items) | Value::Set(items) => {
            counted(value.type_name(), items.len())
        }
        Value::Map(map) => counted(value.type_name(), map.len()),
        // A planned object of an unknown schema counts only the attributes Strata holds.
        Value::Object(map) | Value::PartialObject(map) => match map.len() {
            0 => "object with no attributes".into(),
            1 => format!(
                "object with 1 attribute {}",
                go_quote(map.keys().next().map_or("", |k| k))
            ),
            n => format!("object with {n} attributes"),
        },
        Value::Marked(inner, _) => compact(inner),
    }
}

/// A number as Go's `big.Float.Text('g', 10)` writes it: ten significant digits, an
/// exponent below 1e-4 and from 1e10, trailing zeros dropped.
fn number_g10(n: f64) -> String {
    if n == 0.0 {
        return "0".into();
    }
    let scientific = format!("{n:.9e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let trim = |s: &str| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if !(-4..10).contains(&exponent) {
        let sign = if exponent < 0 { '-' } else { '+' };
        return format!("{}e{sign}{:02}", trim(mantissa), exponent.abs());
    }
    let decimals = (9 - exponent).max(0) as usize;
    trim(&format!("{n:.decimals$}"))
}

/// A string as Go's `strconv.Quote` writes it: printable characters kept, `"` and `\`
/// escaped, control characters as escapes.
pub fn go_quote(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The traversal as `views/json`'s `traversalStr` writes it: index keys compact.
fn traversal_text(root: &str, steps: &[Step]) -> String {
    let mut out = root.to_string();
    for step in steps {
        match step {
            Step::Attr(name, _) => {
                out.push('.');
                out.push_str(name);
            }
            Step::Key(key, _) => {
                out.push('[');
                out.push_str(&compact(&key_value(key)));
                out.push(']');
            }
        }
    }
    out
}

/// A literal key's value.
fn key_value(key: &Key) -> Value {
    match key {
        Key::Number(n) => n.parse().map_or(Value::Null, Value::Number),
        Key::String(s) => Value::string(s.to_string()),
        Key::Bool(b) => Value::Bool(*b),
        Key::Null => Value::Null,
    }
}

/// The expression of a traversal's first steps, to evaluate it as written.
fn traversal_expr(root: &Ident, steps: &[Step]) -> Expr {
    let root_expr = Expr {
        span: root.span,
        kind: ExprKind::Variable(root.clone()),
    };
    if steps.is_empty() {
        return root_expr;
    }
    let end = steps.last().map_or(root.span.end, |s| match s {
        Step::Attr(_, span) | Step::Key(_, span) => span.end,
    });
    let steps = steps
        .iter()
        .map(|s| match s {
            Step::Attr(name, span) => TraversalStep::Attr(Ident {
                name: name.as_str().into(),
                span: Span {
                    start: span.start + 1,
                    end: span.end,
                },
            }),
            Step::Key(key, span) => TraversalStep::Index(Expr {
                span: *span,
                kind: match key {
                    Key::Number(n) => ExprKind::Number(n.clone()),
                    Key::String(s) => ExprKind::String(s.clone()),
                    Key::Bool(b) => ExprKind::Bool(*b),
                    Key::Null => ExprKind::Null,
                },
            }),
        })
        .collect();
    Expr {
        span: Span {
            start: root.span.start,
            end,
        },
        kind: ExprKind::Traversal {
            root: Box::new(root_expr),
            steps,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Refinement;
    use std::collections::BTreeMap;

    #[test]
    fn compact_values_as_terraform_writes_them() {
        assert_eq!(compact(&Value::Number(20.0)), "20");
        assert_eq!(compact(&Value::Number(1.5)), "1.5");
        assert_eq!(compact(&Value::Number(12345678901.0)), "1.23456789e+10");
        assert_eq!(compact(&Value::Number(0.00001)), "1e-05");
        assert_eq!(compact(&Value::string("ab")), "\"ab\"");
        assert_eq!(compact(&Value::Null), "null");
        assert_eq!(
            compact(&Value::Tuple(vec![Value::Null].into())),
            "tuple with 1 element"
        );
        assert_eq!(
            compact(&Value::List(
                vec![Value::string("a"), Value::string("b")].into()
            )),
            "list of string with 2 elements"
        );
        assert_eq!(
            compact(&Value::Map(BTreeMap::new().into())),
            "empty map of dynamic"
        );
        let one = BTreeMap::from([("a".to_string(), Value::Null)]);
        assert_eq!(
            compact(&Value::Object(one.into())),
            "object with 1 attribute \"a\""
        );
        assert_eq!(
            compact(&Value::string("x").mark(Marks::SENSITIVE)),
            "(sensitive value)"
        );
    }

    #[test]
    fn unknown_and_sensitive_values_only_when_they_are_the_cause() {
        let secret = Value::string("x").mark(Marks::SENSITIVE);
        assert_eq!(statement(&secret, Causes::default()), None);
        let sensitive = Causes {
            sensitive: true,
            ..Causes::default()
        };
        assert_eq!(
            statement(&secret, sensitive).as_deref(),
            Some("has a sensitive value")
        );
        let list = Value::UnknownOf(Type::List(Box::new(Type::String)), Refinement::NONE);
        assert_eq!(
            statement(&list, Causes::default()).as_deref(),
            Some("is a list of string")
        );
        let unknown = Causes {
            unknown: true,
            ..Causes::default()
        };
        assert_eq!(
            statement(&list, unknown).as_deref(),
            Some("is a list of string, known only after apply")
        );
        assert_eq!(statement(&Value::Unknown, Causes::default()), None);
        assert_eq!(
            statement(&Value::Unknown, unknown).as_deref(),
            Some("will be known only after apply")
        );
    }
}
