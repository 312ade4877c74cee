//! `templatestring`: a string value rendered as a template with the given variables.
//! Terraform takes the template only from a reference to a value computed elsewhere:
//! any other first argument (a literal, an inline template, a call) is refused from its
//! syntax alone.

use super::{arg, Outcome};
use crate::eval::evaluate::Evaluator;
use crate::eval::value::Value;
use crate::syntax::{parse_template, Expr, ExprKind, TemplatePart};

/// Terraform's refusal of the template argument `template` as written, if it refuses it.
pub(super) fn syntax_failure(template: &Expr) -> Option<String> {
    let lead = "invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere";
    match &template.kind {
        ExprKind::String(_) => Some(format!("{lead}, and so does not support providing a literal template; consider using a template string expression instead")),
        ExprKind::Template(parts) if is_wrap(parts) => Some(format!("{lead}; to treat the inner expression as template syntax, write the reference expression directly without any template interpolation syntax")),
        ExprKind::Template(parts) if parts.iter().all(|p| matches!(p, TemplatePart::Literal(..))) => Some(format!("{lead}, and so does not support providing a literal template; consider using a template string expression instead")),
        ExprKind::Template(_) => Some(format!("{lead}; to render an inline template, consider using a plain template string expression")),
        ExprKind::Variable(_) => None,
        ExprKind::Traversal { root, .. } if matches!(root.kind, ExprKind::Variable(_)) => None,
        _ => Some("invalid template expression: must be a direct reference to a single string from elsewhere, containing valid Terraform template syntax".into()),
    }
}

/// Whether a template is one interpolation and nothing else (`"${x}"`).
fn is_wrap(parts: &[TemplatePart]) -> bool {
    matches!(parts, [TemplatePart::Interpolation(_)])
}

/// Whether `name` can be a template variable: an HCL identifier (a letter or an
/// underscore, then letters, digits, underscores and dashes), whatever the error says.
fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// Renders the template value with the variables of the second argument.
pub(super) fn templatestring(a: &[Value], ev: &Evaluator) -> Outcome {
    let Value::String(source) = arg(a, 0)? else {
        return Err("invalid template value: a string is required".into());
    };
    let vars = arg(a, 1)?
        .attributes()
        .ok_or("the vars argument must be a map or object")?;
    if let Some(bad) = vars.keys().find(|k| !valid_name(k)) {
        return Err(format!("invalid template variable name {bad:?}: must start with a letter, followed by zero or more letters, digits, and underscores"));
    }
    // Strata's own words (not recorded as Terraform's, so not reported by `check`):
    // HCL's parse error text is not available here.
    let parts = parse_template(source).ok_or("the template does not parse")?;
    let vars = vars.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    ev.template_with(&parts, vars).map_err(|e| {
        if e.summary == "Invalid reference" {
            let name = source
                .get(e.span.start as usize..e.span.end as usize)
                .unwrap_or_default();
            format!(
                "vars map does not contain key {name:?}, referenced at {}",
                place(source, e.span.start as usize, e.span.end as usize)
            )
        } else {
            format!(
                "{}: {}; {}",
                place(source, e.span.start as usize, e.span.end as usize),
                e.summary,
                e.detail
            )
        }
    })
}

/// HCL's `<templatestring argument>:L,C-C` for the bytes `start..end` of `source`
/// (columns count characters, from 1).
fn place(source: &str, start: usize, end: usize) -> String {
    let at = |offset: usize| {
        let before = source.get(..offset).unwrap_or(source);
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        (line, column)
    };
    let (line, from) = at(start);
    let (end_line, to) = at(end);
    if end_line == line {
        format!("<templatestring argument>:{line},{from}-{to}")
    } else {
        format!("<templatestring argument>:{line},{from}-{end_line},{to}")
    }
}
