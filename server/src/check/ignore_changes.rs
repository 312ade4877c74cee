//! `ignore_changes` against the resource type's schema (its provider's, or the built-in
//! types' of `schemas.rs`), as the validate walk checks it (`validateResource`): each
//! element, a relative traversal in either syntax, is checked like a reference into the
//! resource (`StaticValidateTraversal`: unknown names, list blocks without an index,
//! indexed sets, steps into primitive values, deprecated attributes); then, while the
//! resource has no error yet, an element naming an attribute the provider alone decides
//! (computed and not optional) is a warning, `Redundant ignore_changes element`.
//!
//! `replace_triggered_by` paths are not checked: Terraform evaluates them only when it
//! plans an object that already exists (not in validate, nor when it plans a create).

use super::provider_lookup::resource_schema;
use super::schema_traversal::{validate, Step, DEPRECATED_ATTRIBUTE, SCHEMA_TRAVERSAL};
use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Mode, Origin, ResourceKey};
use crate::schema::{AttributeSchema, BlockSchema, ProviderSchemaSource, SchemaLookup};
use crate::syntax::{Block, Expr, ExprKind, JsonKind, JsonValue, Span, TraversalStep};
use std::sync::Arc;

/// Code of an `ignore_changes` element that has no effect.
pub const REDUNDANT_IGNORE_CHANGES: &str = "redundant-ignore-changes";

/// One step of an element, as `traversalToPath` makes it: an attribute name, or an
/// index key rendered as `tfdiags.FormatCtyPath` writes it (`[0]`, `["k"]`).
#[derive(Debug, Clone, PartialEq)]
enum PathStep {
    Attr(String),
    Index(String),
}

/// One `ignore_changes` element of a resource block: the steps to check and the path.
struct Element {
    steps: Vec<(Step, Span)>,
    path: Vec<PathStep>,
    span: Span,
}

/// The unknown names and wrong steps of every element (errors, and deprecation
/// warnings).
pub(super) fn check(
    m: &MergedModule,
    schemas: &dyn ProviderSchemaSource,
    out: &mut Vec<Diagnostic>,
) {
    for (fi, block, schema) in resources(m, schemas) {
        for element in elements(&m.file(fi).text, block) {
            let mut problems = Vec::new();
            validate(&schema, &element.steps, &mut problems);
            for (span, severity, summary, detail) in problems {
                let code = match severity {
                    Severity::Error => SCHEMA_TRAVERSAL,
                    _ => DEPRECATED_ATTRIBUTE,
                };
                let origin = Origin { file: fi, span };
                out.push(at(m, origin, severity, code, summary.into(), detail));
            }
        }
    }
}

/// `Redundant ignore_changes element`: a warning at the resource type for each element
/// that names an attribute the provider alone decides, added to `found` (the validate
/// walk's diagnostics). Terraform checks these after the resource's `count`/`for_each`,
/// `depends_on` and body, and only while neither those nor an earlier element had an
/// error; conditions, provisioners and the connection are evaluated later and do not
/// count.
pub(super) fn redundant(
    m: &MergedModule,
    schemas: &dyn ProviderSchemaSource,
    mut found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let mut added = Vec::new();
    for (fi, block, schema) in resources(m, schemas) {
        let path = &m.file(fi).path;
        let Some(type_label) = block.labels.first() else {
            continue;
        };
        let lifecycle: Vec<&Block> = block.body.blocks_of("lifecycle").map(|b| &**b).collect();
        let later: Vec<Span> = block
            .body
            .blocks
            .iter()
            .filter(|b| matches!(&*b.kind.name, "provisioner" | "connection"))
            .chain(lifecycle.iter().flat_map(|lc| &lc.body.blocks))
            .map(|b| b.span)
            .collect();
        let inside = |outer: Span, d: &Diagnostic| {
            &d.path == path && outer.start <= d.span.start && d.span.end <= outer.end
        };
        let mut failed = found.iter().any(|d| {
            d.severity == Severity::Error
                && inside(block.span, d)
                && !later.iter().any(|s| inside(*s, d))
                && !lifecycle.iter().any(|lc| {
                    lc.body
                        .attribute("ignore_changes")
                        .is_some_and(|a| inside(a.span, d))
                })
        });
        for element in elements(&m.file(fi).text, block) {
            failed |= found
                .iter()
                .any(|d| d.severity == Severity::Error && inside(element.span, d));
            let decided = attribute_by_path(&schema, &element.path)
                .is_some_and(|a| a.requirement == crate::schema::Requirement::Computed);
            if failed || !decided {
                continue;
            }
            let shown = format_path(&element.path);
            let origin = Origin {
                file: fi,
                span: type_label.span,
            };
            let mut warning = at(
                m,
                origin,
                Severity::Warning,
                REDUNDANT_IGNORE_CHANGES,
                "Redundant ignore_changes element".into(),
                format!("Adding an attribute name to ignore_changes tells Terraform to ignore future changes to the argument in configuration after the object has been created, retaining the value originally configured.\n\nThe attribute {shown} is decided by the provider alone and therefore there can be no configured value to compare with. Including this attribute in ignore_changes has no effect. Remove the attribute from ignore_changes to quiet this warning."),
            );
            // In JSON the type is written once for every resource of the type.
            warning.related.push(super::Related {
                path: path.clone(),
                span: element.span,
                message: "the element".into(),
            });
            added.push(warning);
        }
    }
    found.extend(added);
    found
}

/// Every `resource` block of the module's files whose type's schema is known, with its
/// file and the schema.
fn resources<'m>(
    m: &'m MergedModule,
    schemas: &dyn ProviderSchemaSource,
) -> Vec<(u32, &'m Block, Arc<BlockSchema>)> {
    let mut found = Vec::new();
    for (fi, file) in m.files.iter().enumerate() {
        for block in file.syntax.body.blocks_of("resource") {
            let (Some(type_name), Some(name)) = (block.label(0), block.label(1)) else {
                continue;
            };
            let key = ResourceKey {
                mode: Mode::Managed,
                type_name: type_name.to_string(),
                name: name.to_string(),
            };
            let Some(resource) = m.resources.get(&key) else {
                continue;
            };
            let schema = match resource_schema(m, schemas, resource) {
                SchemaLookup::Found(s) => s.block,
                SchemaLookup::Unavailable => match super::schemas::builtin_schema(type_name) {
                    Some(s) => Arc::new(s),
                    None => continue,
                },
                SchemaLookup::NoSuchType => continue,
            };
            found.push((fi as u32, &**block, schema));
        }
    }
    found
}

/// The elements of a resource block's `ignore_changes` lists that are traversals (the
/// loader reports the rest), in either syntax.
fn elements(text: &str, block: &Block) -> Vec<Element> {
    let lists = block
        .body
        .blocks_of("lifecycle")
        .filter_map(|lc| lc.body.attribute("ignore_changes"));
    let mut out = Vec::new();
    for list in lists {
        for item in list.expr.static_list().unwrap_or_default() {
            // A JSON string is parsed as a traversal placed from its opening quote.
            let written = match &item.kind {
                ExprKind::Json(JsonValue {
                    kind: JsonKind::String(s),
                    span,
                }) => Written {
                    text: s,
                    base: span.start as usize,
                },
                _ => Written { text, base: 0 },
            };
            let item = match item.is_json() {
                true => item.static_traversal(),
                false => Some(item.clone()),
            };
            if let Some(element) = item.and_then(|e| element(written, &e)) {
                out.push(element);
            }
        }
    }
    out
}

/// The text a traversal was parsed from, and the offset in the file of its start.
#[derive(Clone, Copy)]
struct Written<'t> {
    text: &'t str,
    base: usize,
}

impl Written<'_> {
    /// The offset of `byte` before `from`, past spaces (`from` itself when it is not
    /// there).
    fn before(self, from: usize, byte: u8) -> usize {
        let head = self.text.as_bytes().get(..from.saturating_sub(self.base));
        let head = head.unwrap_or_default();
        match head.iter().rposition(|b| !b.is_ascii_whitespace()) {
            Some(i) if head[i] == byte => self.base + i,
            _ => from,
        }
    }

    /// The offset just past `byte` after `from`, past spaces (`from` when it is not
    /// there).
    fn after(self, from: usize, byte: u8) -> usize {
        let tail = self.text.as_bytes().get(from.saturating_sub(self.base)..);
        let tail = tail.unwrap_or_default();
        match tail.iter().position(|b| !b.is_ascii_whitespace()) {
            Some(i) if tail[i] == byte => from + i + 1,
            _ => from,
        }
    }
}

/// The steps of a relative traversal (`root_block_device[0].volume_size`) with the place
/// of each (an attribute's from its dot, an index's brackets included, as HCL's).
fn element(text: Written<'_>, expr: &Expr) -> Option<Element> {
    let (root, rest) = match &expr.kind {
        ExprKind::Variable(id) => (id, &[][..]),
        ExprKind::Traversal { root, steps } => match &root.kind {
            ExprKind::Variable(id) => (id, &steps[..]),
            _ => return None,
        },
        _ => return None,
    };
    let mut steps = vec![(Step::Attr(root.name.to_string()), root.span)];
    let mut path = vec![PathStep::Attr(root.name.to_string())];
    for step in rest {
        match step {
            TraversalStep::Attr(id) => {
                let dot = text.before(id.span.start as usize, b'.');
                steps.push((
                    Step::Attr(id.name.to_string()),
                    Span::new(dot, id.span.end as usize),
                ));
                path.push(PathStep::Attr(id.name.to_string()));
            }
            TraversalStep::Index(key) => {
                let open = text.before(key.span.start as usize, b'[');
                let close = text.after(key.span.end as usize, b']');
                let value = crate::eval::constant(key)?;
                let (shown, string) = match &value {
                    serde_json::Value::String(s) => {
                        (serde_json::to_string(s).ok()?, Some(s.clone()))
                    }
                    serde_json::Value::Number(n) => (n.to_string(), None),
                    _ => return None,
                };
                steps.push((Step::Index(string), Span::new(open, close)));
                path.push(PathStep::Index(format!("[{shown}]")));
            }
            TraversalStep::LegacyIndex(n, span) => {
                steps.push((Step::Index(None), *span));
                path.push(PathStep::Index(format!("[{n}]")));
            }
            // The loader refuses splats in `ignore_changes`.
            TraversalStep::AttrSplat(_) | TraversalStep::FullSplat(_) => return None,
        }
    }
    Some(Element {
        steps,
        path,
        span: expr.span,
    })
}

/// `configschema.Block.AttributeByPath`: the attribute `path` names, through nested
/// blocks and nested attribute types; index steps are passed over.
fn attribute_by_path<'s>(
    schema: &'s BlockSchema,
    path: &[PathStep],
) -> Option<&'s AttributeSchema> {
    let mut block = schema;
    for (i, step) in path.iter().enumerate() {
        let PathStep::Attr(name) = step else {
            continue;
        };
        if let Some(a) = block.attributes.iter().find(|a| &*a.name == name) {
            let rest = &path[i + 1..];
            return match (&a.nested, rest.is_empty()) {
                (_, true) => Some(a),
                (Some(nested), false) => nested_attribute_by_path(&nested.attributes, rest),
                (None, false) => None,
            };
        }
        block = &block.blocks.iter().find(|b| &*b.name == name)?.schema;
    }
    None
}

/// `configschema.Object.AttributeByPath`: the same within a nested attribute type.
fn nested_attribute_by_path<'s>(
    attributes: &'s [AttributeSchema],
    path: &[PathStep],
) -> Option<&'s AttributeSchema> {
    for (i, step) in path.iter().enumerate() {
        let PathStep::Attr(name) = step else {
            continue;
        };
        let a = attributes.iter().find(|a| &*a.name == name)?;
        let rest = &path[i + 1..];
        return match (&a.nested, rest.is_empty()) {
            (_, true) => Some(a),
            (Some(nested), false) => nested_attribute_by_path(&nested.attributes, rest),
            (None, false) => None,
        };
    }
    None
}

/// A path as the warning shows it (`tfdiags.FormatCtyPath` without its leading dot).
fn format_path(path: &[PathStep]) -> String {
    let mut shown = String::new();
    for step in path {
        match step {
            PathStep::Attr(name) => {
                shown.push('.');
                shown.push_str(name);
            }
            PathStep::Index(key) => shown.push_str(key),
        }
    }
    shown.trim_start_matches('.').to_string()
}
