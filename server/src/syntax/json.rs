//! Terraform's JSON syntax (`.tf.json`), parsed with jsonc-parser in strict mode (no
//! comments, trailing commas or other JSON5 liberties; duplicate keys and byte ranges kept).
//!
//! JSON has no blocks of its own: which properties are blocks, and how many levels of
//! labels they take, comes from the schema. The top level and the meta-blocks Terraform
//! itself defines (lifecycle, provisioner, validation, ...) are known here; every other
//! property is an attribute whose value stays a [`JsonValue`] for later layers to read.

use std::sync::Arc;

use jsonc_parser::ast::{ObjectPropName, Value};
use jsonc_parser::{CollectOptions, ParseOptions};

use super::{
    Attribute, Block, Body, Expr, ExprKind, File, Ident, JsonKind, JsonValue, Span, Syntax,
    SyntaxDiagnostic, SyntaxSeverity,
};

/// Labels taken by the top-level block types.
const TOP_LEVEL: &[(&str, usize)] = &[
    ("terraform", 0),
    ("locals", 0),
    ("moved", 0),
    ("import", 0),
    ("removed", 0),
    ("check", 1),
    ("variable", 1),
    ("output", 1),
    ("module", 1),
    ("provider", 1),
    ("resource", 2),
    ("data", 2),
    ("ephemeral", 2),
];

/// Nested block types Terraform knows without provider schemas: (parent, child, labels).
const NESTED: &[(&str, &str, usize)] = &[
    ("resource", "lifecycle", 0),
    ("resource", "provisioner", 1),
    ("resource", "connection", 0),
    ("resource", "dynamic", 1),
    ("data", "lifecycle", 0),
    ("data", "dynamic", 1),
    ("ephemeral", "lifecycle", 0),
    ("ephemeral", "dynamic", 1),
    ("lifecycle", "precondition", 0),
    ("lifecycle", "postcondition", 0),
    ("provisioner", "connection", 0),
    ("dynamic", "content", 0),
    ("variable", "validation", 0),
    ("output", "precondition", 0),
    ("terraform", "required_providers", 0),
    ("terraform", "backend", 1),
    ("terraform", "cloud", 0),
    ("terraform", "provider_meta", 1),
    ("cloud", "workspaces", 0),
    ("check", "assert", 0),
    ("check", "data", 2),
    ("removed", "lifecycle", 0),
    ("removed", "provisioner", 1),
];

/// Parses a JSON-syntax file.
pub(super) fn parse_json(text: &str) -> File {
    let options = ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let mut file = File {
        syntax: Syntax::Json,
        body: Body::default(),
        diagnostics: Vec::new(),
    };
    match jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &options) {
        Ok(result) => match result.value.map(value) {
            Some(JsonValue {
                kind: JsonKind::Object(props),
                ..
            }) => file.body = body(None, props, &mut file.diagnostics),
            Some(other) => file.diagnostics.push(error(
                "Invalid JSON configuration",
                "The root of a JSON configuration file must be an object.",
                other.span,
            )),
            None => {}
        },
        Err(e) => {
            let r = e.range();
            file.diagnostics.push(error(
                "Invalid JSON syntax",
                &format!("{}.", e.kind()),
                Span::new(r.start, r.end.max(r.start + 1).min(text.len().max(r.start))),
            ));
        }
    }
    file
}

fn error(summary: &str, detail: &str, span: Span) -> SyntaxDiagnostic {
    SyntaxDiagnostic {
        severity: SyntaxSeverity::Error,
        summary: summary.into(),
        detail: detail.into(),
        span,
    }
}

fn value(v: Value<'_>) -> JsonValue {
    let (range, kind) = match v {
        Value::StringLit(s) => (s.range, JsonKind::String(s.value.as_ref().into())),
        Value::NumberLit(n) => (n.range, JsonKind::Number(n.value.into())),
        Value::BooleanLit(b) => (b.range, JsonKind::Bool(b.value)),
        Value::NullKeyword(n) => (n.range, JsonKind::Null),
        Value::Array(a) => (
            a.range,
            JsonKind::Array(a.elements.into_iter().map(value).collect()),
        ),
        Value::Object(o) => (
            o.range,
            JsonKind::Object(
                o.properties
                    .into_iter()
                    .map(|p| {
                        let key = match p.name {
                            ObjectPropName::String(s) => Ident {
                                name: s.value.as_ref().into(),
                                span: Span::new(s.range.start, s.range.end),
                            },
                            ObjectPropName::Word(w) => Ident {
                                name: w.value.into(),
                                span: Span::new(w.range.start, w.range.end),
                            },
                        };
                        (key, value(p.value))
                    })
                    .collect(),
            ),
        ),
    };
    JsonValue {
        span: Span::new(range.start, range.end),
        kind,
    }
}

/// The body of a block of type `parent` (`None` for the file's top level).
fn body(
    parent: Option<&str>,
    props: Vec<(Ident, JsonValue)>,
    diagnostics: &mut Vec<SyntaxDiagnostic>,
) -> Body {
    let mut out = Body::default();
    for (key, val) in props {
        if &*key.name == "//" {
            continue; // HCL's JSON syntax reserves "//" for comments.
        }
        match block_labels(parent, &key.name) {
            Some(labels) => {
                let mut path = Vec::new();
                blocks(&key, labels, &mut path, val, &mut out.blocks, diagnostics);
            }
            None => out.attributes.push(Arc::new(Attribute {
                span: Span {
                    start: key.span.start,
                    end: val.span.end,
                },
                expr: Expr {
                    span: val.span,
                    kind: ExprKind::Json(val),
                },
                name: key,
            })),
        }
    }
    out
}

fn block_labels(parent: Option<&str>, name: &str) -> Option<usize> {
    match parent {
        None => TOP_LEVEL.iter().find(|(n, _)| *n == name).map(|(_, l)| *l),
        Some(parent) => NESTED
            .iter()
            .find(|(p, c, _)| *p == parent && *c == name)
            .map(|(_, _, l)| *l),
    }
}

/// Unfolds `"kind": {"label1": {"label2": {body}}}` (a body may also be an array of
/// bodies, which declares the block once per element).
fn blocks(
    kind: &Ident,
    labels_left: usize,
    path: &mut Vec<Ident>,
    val: JsonValue,
    out: &mut Vec<Arc<Block>>,
    diagnostics: &mut Vec<SyntaxDiagnostic>,
) {
    match (labels_left, val.kind) {
        (0, JsonKind::Object(props)) => out.push(Arc::new(Block {
            kind: kind.clone(),
            labels: path.clone(),
            body: body(Some(&kind.name), props, diagnostics),
            span: Span {
                start: path.last().map_or(kind.span.start, |l| l.span.start),
                end: val.span.end,
            },
            stale: false,
        })),
        (0, JsonKind::Array(items)) => {
            for item in items {
                blocks(kind, 0, path, item, out, diagnostics);
            }
        }
        (_, JsonKind::Object(props)) => {
            for (label, inner) in props {
                path.push(label);
                blocks(kind, labels_left - 1, path, inner, out, diagnostics);
                path.pop();
            }
        }
        (_, JsonKind::Array(items)) if path.is_empty() || labels_left == 0 => {
            for item in items {
                blocks(kind, labels_left, path, item, out, diagnostics);
            }
        }
        _ => diagnostics.push(error(
            "Incorrect JSON value type",
            &format!(
                "Either a JSON object or a JSON array of objects is required here, for \
                 the block \"{}\".",
                kind.name
            ),
            val.span,
        )),
    }
}
