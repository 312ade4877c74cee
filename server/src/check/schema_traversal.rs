//! References into resources of the types whose schema Strata knows, checked as the
//! validate walk checks them statically (`staticValidateResourceReference`, then
//! `configschema.Block.StaticValidateTraversal`): the steps after the resource (or after
//! its instance key) must begin with one of its attributes by name, and what follows is
//! applied to an unknown value of that attribute's type. Outputs are checked too.

use super::evaluated::Walked;
use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Mode, Origin, ResourceKey};
use crate::syntax::Span;

/// Code of a reference step a known resource type's schema does not allow.
pub const SCHEMA_TRAVERSAL: &str = "invalid-schema-traversal";

/// One step of a reference after its subject, as written.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    /// `.name`
    Attr(String),
    /// `[key]`: the key when it is a string.
    Index(Option<String>),
}

pub(super) fn check(m: &MergedModule, walked: &Walked<'_>, out: &mut Vec<Diagnostic>) {
    for visit in walked.iter() {
        let place = visit.place();
        for r in visit.references() {
            let address = r.container.as_deref().unwrap_or(&r.subject);
            let Some((type_name, name)) = address.split_once('.') else {
                continue;
            };
            let key = ResourceKey {
                mode: Mode::Managed,
                type_name: type_name.to_string(),
                name: name.to_string(),
            };
            if !m.resources.contains_key(&key) || super::schemas::arguments(type_name).is_none() {
                continue;
            }
            let text = &m.file(place.file).text;
            let mut from = r.subject_span.end as usize;
            // The subject's range ends one past its key, short of a `]` after spaces.
            let rest = text.get(from..).unwrap_or_default();
            let spaces = rest.len() - rest.trim_start().len();
            if r.subject.ends_with(']') && rest.trim_start().starts_with(']') {
                from += spaces + 1;
            }
            let steps = written_steps(text, from, &r.remaining);
            if let Some((span, summary, detail)) = validate(type_name, &steps) {
                let origin = Origin {
                    file: place.file,
                    span,
                };
                out.push(at(
                    m,
                    origin,
                    Severity::Error,
                    SCHEMA_TRAVERSAL,
                    summary.into(),
                    detail,
                ));
            }
        }
    }
}

/// The first problem of `steps` against the schema of `type_name`: where, summary and
/// detail. `count` is left to its own error (`Invalid resource count attribute`).
fn validate(type_name: &str, steps: &[(Step, Span)]) -> Option<(Span, &'static str, String)> {
    let ((first, span), after) = steps.split_first()?;
    let name = match first {
        Step::Attr(name) => name,
        Step::Index(Some(key)) if crate::schema::is_identifier(key) => {
            return Some((*span, "Invalid index operation", format!("Only attribute access is allowed here. Did you mean to access attribute {key:?} using the dot operator?")));
        }
        Step::Index(_) => {
            return Some((
                *span,
                "Invalid index operation",
                "Only attribute access is allowed here, using the dot operator.".into(),
            ));
        }
    };
    if name == "count" {
        return None;
    }
    let Some(ty) = super::schemas::attribute_type(type_name, name) else {
        let all = super::schemas::attributes(type_name);
        let hint = super::arguments::suggestion_among(name, &all)
            .map(|s| format!(" Did you mean {s:?}?"))
            .unwrap_or_default();
        return Some((
            *span,
            "Unsupported attribute",
            format!("This object has no argument, nested block, or exported attribute named {name:?}.{hint}"),
        ));
    };
    traverse(ty, after)
}

/// HCL's traversal of an unknown value of type `ty` by `steps`: its first error.
fn traverse(
    mut ty: super::schemas::AttributeType,
    steps: &[(Step, Span)],
) -> Option<(Span, &'static str, String)> {
    use super::schemas::AttributeType;
    for (step, span) in steps {
        ty = match (ty, step) {
            (AttributeType::Dynamic, _) => return None,
            (AttributeType::MapOfString, _) => AttributeType::String,
            (AttributeType::String, Step::Attr(_)) => {
                return Some((
                    *span,
                    "Unsupported attribute",
                    "Can't access attributes on a primitive-typed value (string).".into(),
                ))
            }
            (AttributeType::String, Step::Index(_)) => {
                return Some((
                    *span,
                    "Invalid index",
                    "This value does not have any indices.".into(),
                ))
            }
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
        let steps = [(Step::Attr("id".into()), span), (Step::Index(None), span)];
        assert_eq!(
            validate("terraform_data", &steps).unwrap().1,
            "Invalid index"
        );
        let steps = [
            (Step::Attr("input".into()), span),
            (Step::Index(None), span),
        ];
        assert!(validate("terraform_data", &steps).is_none());
        let steps = [
            (Step::Attr("triggers".into()), span),
            (Step::Attr("k".into()), span),
            (Step::Attr("x".into()), span),
        ];
        assert_eq!(
            validate("null_resource", &steps).unwrap().1,
            "Unsupported attribute"
        );
    }
}
