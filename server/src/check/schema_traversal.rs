//! References into resources, data sources and ephemeral resources whose schema is
//! known (their provider's, or the built-in types' of `schemas.rs`), checked as the
//! validate walk checks them statically (`staticValidateResourceReference`, then
//! `configschema.Block.StaticValidateTraversal`): the steps after the resource (or after
//! its instance key) must begin with one of its attributes or nested block types by
//! name; a nested block of list, set or map nesting must be indexed before its own
//! attributes; what follows an attribute is applied to an unknown value of its type.
//! A deprecated attribute read this way is a warning (`Deprecated attribute`).
//! Outputs are checked too.

use super::evaluated::Walked;
use super::provider_lookup::resource_schema;
use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Mode, Origin, ResourceKey};
use crate::schema::{
    BlockSchema, NestedBlock, Nesting, ProviderSchemaSource, SchemaLookup, ValueType,
};
use crate::syntax::Span;

/// Code of a reference step a known resource type's schema does not allow.
pub const SCHEMA_TRAVERSAL: &str = "invalid-schema-traversal";
/// Code of a reference to an attribute its provider deprecates.
pub const DEPRECATED_ATTRIBUTE: &str = "deprecated-attribute";

/// One step of a reference after its subject, as written.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Step {
    /// `.name`
    Attr(String),
    /// `[key]`: the key when it is a string.
    Index(Option<String>),
}

/// A problem with one step: where, how serious, summary and detail.
pub(super) type Problem = (Span, Severity, &'static str, String);

pub(super) fn check(
    m: &MergedModule,
    walked: &Walked<'_>,
    schemas: &dyn ProviderSchemaSource,
    out: &mut Vec<Diagnostic>,
) {
    let declarations = super::provider_lookup::declarations(m);
    for visit in walked.iter() {
        let place = visit.place();
        for r in visit.references() {
            let key = if r.subject == "self" && place.scope.this {
                // `self` is the resource whose provisioner, connection or condition
                // this is.
                let Some(d) = declarations.iter().find(|d| {
                    d.file == place.file
                        && d.block.span.start <= r.span.start
                        && r.span.end <= d.block.span.end
                }) else {
                    continue;
                };
                ResourceKey {
                    mode: d.mode,
                    type_name: d.type_name.to_string(),
                    name: d.block.label(1).unwrap_or_default().to_string(),
                }
            } else {
                let Some(key) = resource_key(r.container.as_deref().unwrap_or(&r.subject)) else {
                    continue;
                };
                key
            };
            let (mode, type_name) = (key.mode, key.type_name.as_str());
            let Some(resource) = m.resources.get(&key) else {
                continue;
            };
            let schema = match resource_schema(m, schemas, resource) {
                SchemaLookup::Found(s) => s.block,
                SchemaLookup::Unavailable if mode == Mode::Managed => {
                    match super::schemas::builtin_schema(type_name) {
                        Some(s) => std::sync::Arc::new(s),
                        None => continue,
                    }
                }
                _ => continue,
            };
            let text = &m.file(place.file).text;
            let mut from = r.subject_span.end as usize;
            // The subject's range ends one past its key, short of a `]` after spaces.
            let rest = text.get(from..).unwrap_or_default();
            let spaces = rest.len() - rest.trim_start().len();
            if r.subject.ends_with(']') && rest.trim_start().starts_with(']') {
                from += spaces + 1;
            }
            let steps = written_steps(text, from, &r.remaining);
            // `count` is left to its own error (`Invalid resource count attribute`).
            if matches!(steps.first(), Some((Step::Attr(n), _)) if n == "count") {
                continue;
            }
            let mut problems = Vec::new();
            validate(&schema, &steps, &mut problems);
            for (span, severity, summary, detail) in problems {
                let origin = Origin {
                    file: place.file,
                    span,
                };
                let code = match severity {
                    Severity::Error => SCHEMA_TRAVERSAL,
                    _ => DEPRECATED_ATTRIBUTE,
                };
                out.push(at(m, origin, severity, code, summary.into(), detail));
            }
        }
    }
}

/// The resource an address without instance key names (`aws_instance.a`,
/// `data.aws_ami.a`); `None` for other addresses.
fn resource_key(address: &str) -> Option<ResourceKey> {
    let (mode, address) = match address.split_once('.') {
        Some(("data", rest)) => (Mode::Data, rest),
        Some(("ephemeral", rest)) => (Mode::Ephemeral, rest),
        _ => (Mode::Managed, address),
    };
    let (type_name, name) = address.split_once('.')?;
    Some(ResourceKey {
        mode,
        type_name: type_name.to_string(),
        name: name.to_string(),
    })
}

/// `StaticValidateTraversal`: the problems of `steps` against a block's schema (at most
/// one error, after any deprecation warning).
pub(super) fn validate(schema: &BlockSchema, steps: &[(Step, Span)], out: &mut Vec<Problem>) {
    let Some(((first, span), after)) = steps.split_first() else {
        return;
    };
    let name = match first {
        Step::Attr(name) => name,
        Step::Index(Some(key)) if crate::schema::is_identifier(key) => {
            out.push((*span, Severity::Error, "Invalid index operation", format!("Only attribute access is allowed here. Did you mean to access attribute {key:?} using the dot operator?")));
            return;
        }
        Step::Index(_) => {
            out.push((
                *span,
                Severity::Error,
                "Invalid index operation",
                "Only attribute access is allowed here, using the dot operator.".into(),
            ));
            return;
        }
    };
    if let Some(a) = schema.attributes.iter().find(|a| &*a.name == name) {
        if a.deprecated.is_some() {
            out.push((
                *span,
                Severity::Warning,
                "Deprecated attribute",
                format!("The attribute {name:?} is deprecated. Refer to the provider documentation for details."),
            ));
        }
        let ty = match &a.nested {
            Some(nested) => nested.value_type(),
            None => a.value_type.clone().unwrap_or(ValueType::Dynamic),
        };
        out.extend(traverse(&ty, after));
        return;
    }
    if let Some(block) = schema.blocks.iter().find(|b| &*b.name == name) {
        nested_block(block, after, out);
        return;
    }
    let mut names: Vec<&str> = schema
        .attributes
        .iter()
        .map(|a| &*a.name)
        .chain(schema.blocks.iter().map(|b| &*b.name))
        .collect();
    names.sort_unstable();
    let hint = super::arguments::suggestion_among(name, &names)
        .map(|s| format!(" Did you mean {s:?}?"))
        .unwrap_or_default();
    out.push((
        *span,
        Severity::Error,
        "Unsupported attribute",
        format!("This object has no argument, nested block, or exported attribute named {name:?}.{hint}"),
    ));
}

/// `NestedBlock.staticValidateTraversal`: a single block's attributes are read directly;
/// a list's element by a number, a set's not at all (a map's are left to evaluation).
fn nested_block(block: &NestedBlock, steps: &[(Step, Span)], out: &mut Vec<Problem>) {
    let name = &*block.name;
    match (block.nesting, steps.first()) {
        (Nesting::Single | Nesting::Group, _) => validate(&block.schema, steps, out),
        (_, None) => {}
        (Nesting::List, Some((Step::Index(_), _))) => validate(&block.schema, &steps[1..], out),
        (Nesting::List, Some((_, span))) => out.push((
            *span,
            Severity::Error,
            "Invalid operation",
            format!("Block type {name:?} is represented by a list of objects, so it must be indexed using a numeric key, like .{name}[0]."),
        )),
        (Nesting::Set, Some((Step::Index(_), span))) => out.push((
            *span,
            Severity::Error,
            "Cannot index a set value",
            format!("Block type {name:?} is represented by a set of objects, and set elements do not have addressable keys. To find elements matching specific criteria, use a \"for\" expression with an \"if\" clause."),
        )),
        _ => {}
    }
}

/// HCL's traversal of an unknown value of type `ty` by `steps`: its first error, where
/// Strata knows HCL's words for it (steps into primitive values, indexing a set,
/// attributes of a collection of primitives, as recorded in aws-traversals); other
/// types stop the check without one.
fn traverse(ty: &ValueType, steps: &[(Step, Span)]) -> Option<Problem> {
    let mut ty = ty.clone();
    for (step, span) in steps {
        let primitive = match ty {
            ValueType::String => Some("string"),
            ValueType::Number => Some("number"),
            ValueType::Bool => Some("bool"),
            _ => None,
        };
        ty = match (ty, step) {
            (_, Step::Attr(_)) if primitive.is_some() => {
                let name = primitive.unwrap_or_default();
                return Some((
                    *span,
                    Severity::Error,
                    "Unsupported attribute",
                    format!("Can't access attributes on a primitive-typed value ({name})."),
                ));
            }
            (_, Step::Index(_)) if primitive.is_some() => {
                return Some((
                    *span,
                    Severity::Error,
                    "Invalid index",
                    "This value does not have any indices.".into(),
                ))
            }
            (ValueType::Set(_), Step::Index(_)) => {
                return Some((
                    *span,
                    Severity::Error,
                    "Invalid index",
                    "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.".into(),
                ))
            }
            (ValueType::List(e) | ValueType::Set(e), Step::Attr(_))
                if !matches!(*e, ValueType::Object { .. } | ValueType::Dynamic) =>
            {
                return Some((
                    *span,
                    Severity::Error,
                    "Unsupported attribute",
                    "This value does not have any attributes.".into(),
                ))
            }
            (ValueType::Map(element), _) => *element,
            (ValueType::List(element), Step::Index(None)) => *element,
            (ValueType::Object { mut attributes, .. }, Step::Attr(name)) => {
                attributes.remove(name.as_str())?
            }
            _ => return None,
        };
    }
    None
}

/// The steps `remaining` (rendered as `.name`, `[0]`, `["key"]`) where they are written
/// in `text` from offset `from`, which may put spaces inside brackets.
fn written_steps(text: &str, from: usize, remaining: &[String]) -> Vec<(Step, Span)> {
    let bytes = text.as_bytes();
    let mut at = from;
    let mut out = Vec::new();
    for rendered in remaining {
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        if let Some(name) = rendered.strip_prefix('.') {
            let Some(offset) = text.get(at..).and_then(|t| t.find(name)) else {
                break;
            };
            at += offset + name.len();
            out.push((Step::Attr(name.to_string()), Span::new(start, at)));
        } else {
            let Some(end) = closing_bracket(bytes, at) else {
                break;
            };
            at = end + 1;
            let key = rendered
                .strip_prefix('[')
                .and_then(|k| k.strip_suffix(']'))
                .and_then(|k| serde_json::from_str::<String>(k).ok());
            out.push((Step::Index(key), Span::new(start, at)));
        }
    }
    out
}

/// The offset of the `]` closing the `[` at `open`, past any quoted string.
fn closing_bracket(bytes: &[u8], open: usize) -> Option<usize> {
    let mut quoted = false;
    let mut i = open + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quoted => i += 1,
            b'"' => quoted = !quoted,
            b']' if !quoted => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_found_where_they_are_written() {
        let text = r#"terraform_data.c[ 0 ] [ "a]b" ].id"#;
        let remaining = vec!["[\"a]b\"]".to_string(), ".id".to_string()];
        let steps = written_steps(text, 21, &remaining);
        assert_eq!(steps[0].0, Step::Index(Some("a]b".into())));
        assert_eq!(
            &text[steps[0].1.start as usize..steps[0].1.end as usize],
            r#"[ "a]b" ]"#
        );
        assert_eq!(
            &text[steps[1].1.start as usize..steps[1].1.end as usize],
            ".id"
        );
    }

    #[test]
    fn steps_after_a_string_attribute_fail() {
        let span = Span::default();
        let check = |type_name: &str, steps: &[(Step, Span)]| {
            let schema = crate::check::schemas::builtin_schema(type_name).unwrap();
            let mut out = Vec::new();
            validate(&schema, steps, &mut out);
            out.first().map(|p| p.2)
        };
        let steps = [(Step::Attr("id".into()), span), (Step::Index(None), span)];
        assert_eq!(check("terraform_data", &steps), Some("Invalid index"));
        let steps = [
            (Step::Attr("input".into()), span),
            (Step::Index(None), span),
        ];
        assert_eq!(check("terraform_data", &steps), None);
        let steps = [
            (Step::Attr("triggers".into()), span),
            (Step::Attr("k".into()), span),
            (Step::Attr("x".into()), span),
        ];
        assert_eq!(
            check("null_resource", &steps),
            Some("Unsupported attribute")
        );
    }
}
