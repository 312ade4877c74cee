//! Terraform's JSON syntax (`.tf.json`), parsed with jsonc-parser in strict mode (no
//! comments, trailing commas or other JSON5 liberties; duplicate keys and byte ranges kept).
//!
//! JSON has no blocks of its own: which properties are blocks, and how many levels of
//! labels they take, comes from the language schema (`crate::schema`): the top level and
//! the blocks Terraform itself defines (lifecycle, provisioner, validation, ...). Every
//! other property is an attribute whose value stays a [`JsonValue`] for later layers to
//! read (a provider-defined nested block among them, until provider schemas say so).

use std::sync::Arc;

use jsonc_parser::ast::{ObjectPropName, Value};
use jsonc_parser::{CollectOptions, ParseOptions};

use super::json_errors::{self, error, ROOT_NOT_OBJECT};

use super::{
    Attribute, Block, Body, Expr, ExprKind, File, Ident, JsonKind, JsonValue, Span, Syntax,
    SyntaxDiagnostic,
};

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
            Some(root) => file.body = root_body(root, &mut file.diagnostics),
            None => {
                // An empty file: HCL finds the end where a value should start.
                let end = Span::new(text.len(), text.len());
                let (summary, detail) = ROOT_NOT_OBJECT;
                file.diagnostics.extend([
                    error("Missing value", "The JSON data ends prematurely.", end),
                    error(summary, detail, end),
                ]);
            }
        },
        Err(e) => file.diagnostics = json_errors::hcl_words(text, &e),
    }
    file
}

/// The file's body: its root object, or the objects of a root array merged, as HCL reads
/// them.
fn root_body(root: JsonValue, diagnostics: &mut Vec<SyntaxDiagnostic>) -> Body {
    let start = |v: &JsonValue| match v.kind {
        JsonKind::Object(_) | JsonKind::Array(_) => Span {
            start: v.span.start,
            end: v.span.start + 1,
        },
        _ => v.span,
    };
    match root.kind {
        JsonKind::Object(props) => body(&mut Vec::new(), props, diagnostics),
        JsonKind::Array(elements) => {
            let mut merged = Body::default();
            for element in elements {
                let at = start(&element);
                match element.kind {
                    JsonKind::Object(props) => {
                        let part = body(&mut Vec::new(), props, diagnostics);
                        merged.attributes.extend(part.attributes);
                        merged.blocks.extend(part.blocks);
                    }
                    _ => diagnostics.push(error(
                        "Incorrect JSON value type",
                        "A JSON object is required here, to define arguments and child blocks.",
                        at,
                    )),
                }
            }
            merged
        }
        _ => {
            let (summary, detail) = ROOT_NOT_OBJECT;
            diagnostics.push(error(summary, detail, start(&root)));
            Body::default()
        }
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

/// The body of a block nested as `parents` says (empty for the file's top level).
fn body(
    parents: &mut Vec<Box<str>>,
    props: Vec<(Ident, JsonValue)>,
    diagnostics: &mut Vec<SyntaxDiagnostic>,
) -> Body {
    let mut out = Body::default();
    for (key, val) in props {
        if &*key.name == "//" {
            continue; // HCL's JSON syntax reserves "//" for comments.
        }
        let path: Vec<&str> = parents.iter().map(|p| &**p).collect();
        match crate::schema::block_labels(&path, &key.name) {
            Some(labels) => {
                parents.push(key.name.clone());
                let mut path = Vec::new();
                blocks(
                    &key,
                    labels,
                    parents,
                    &mut path,
                    val,
                    &mut out.blocks,
                    diagnostics,
                );
                parents.pop();
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

/// Unfolds `"kind": {"label1": {"label2": {body}}}` (a body may also be an array of
/// bodies, which declares the block once per element).
fn blocks(
    kind: &Ident,
    labels_left: usize,
    parents: &mut Vec<Box<str>>,
    path: &mut Vec<Ident>,
    val: JsonValue,
    out: &mut Vec<Arc<Block>>,
    diagnostics: &mut Vec<SyntaxDiagnostic>,
) {
    match (labels_left, val.kind) {
        (0, JsonKind::Object(props)) => out.push(Arc::new(Block {
            kind: kind.clone(),
            labels: path.clone(),
            body: body(parents, props, diagnostics),
            span: Span {
                start: path.last().map_or(kind.span.start, |l| l.span.start),
                end: val.span.end,
            },
            stale: false,
        })),
        (0, JsonKind::Array(items)) => {
            for item in items {
                blocks(kind, 0, parents, path, item, out, diagnostics);
            }
        }
        (_, JsonKind::Object(props)) => {
            for (label, inner) in props {
                path.push(label);
                blocks(
                    kind,
                    labels_left - 1,
                    parents,
                    path,
                    inner,
                    out,
                    diagnostics,
                );
                path.pop();
            }
        }
        (_, JsonKind::Array(items)) if path.is_empty() || labels_left == 0 => {
            for item in items {
                blocks(kind, labels_left, parents, path, item, out, diagnostics);
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
