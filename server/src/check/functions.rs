//! Calls of functions, as HCL checks them when the validate walk evaluates an expression
//! (`hclsyntax.FunctionCallExpr.Value`): a function the language does not have (`Call to
//! unknown function`, with HCL's "Did you mean" and Terraform's hint of a provider
//! function of that name), a namespaced name Terraform's function table lacks (`Unknown
//! provider function`, `provider_functions.rs`), and too few or too many arguments for
//! the signature of a built-in function (`schema::functions`) or of a provider's function
//! (its schema). Calls whose last argument is expanded with `...` are left alone.

use super::evaluated::Walked;
use super::provider_functions::{namespaced, suggestion, Namespaced};
use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Origin};
use crate::schema::{function, functions, Dialect, Function, ProviderSchemaSource};
use crate::syntax::{Expr, ExprKind, Span};

/// Code of a function call HCL rejects.
pub const FUNCTION_CALL: &str = "invalid-function-call";

pub(super) fn check(
    m: &MergedModule,
    walked: &Walked<'_>,
    schemas: &dyn ProviderSchemaSource,
    out: &mut Vec<Diagnostic>,
) {
    for visit in walked.iter() {
        let place = visit.place();
        visit.expr.walk(&mut |e| {
            if let Some((span, summary, detail)) = call_problem(m, schemas, e) {
                let origin = Origin {
                    file: place.file,
                    span,
                };
                out.push(at(
                    m,
                    origin,
                    Severity::Error,
                    FUNCTION_CALL,
                    summary.into(),
                    detail,
                ));
            }
        });
    }
}

/// What HCL reports when it evaluates `e`, a function call it rejects: where, summary,
/// detail. `None` for anything else.
pub(super) fn call_problem(
    m: &MergedModule,
    schemas: &dyn ProviderSchemaSource,
    e: &Expr,
) -> Option<(Span, &'static str, String)> {
    let ExprKind::FuncCall {
        name,
        args,
        expand_final,
    } = &e.kind
    else {
        return None;
    };
    let bare = name.name.strip_prefix("core::").unwrap_or(&name.name);
    if let Some(replacement) = removed(bare) {
        // Terraform keeps these names only to explain that they are gone.
        let open = e.span.start as usize + name.name.len();
        return Some((
            Span::new(name.span.start as usize, open + 1),
            "Error in function call",
            format!("Call to function {:?} failed: the {bare:?} function was deprecated in Terraform v0.12 and is no longer available; {replacement}.", name.name),
        ));
    }
    if let Some(f) = function(&name.name, m.dialect) {
        return arity_problem(e, &name.name, f, args, *expand_final);
    }
    if name.name.contains("::") && m.dialect == Dialect::Terraform {
        return match namespaced(m, schemas, &name.name) {
            Namespaced::Offered(f) => {
                arity_problem(e, &name.name, &f.signature(&name.name), args, *expand_final)
            }
            Namespaced::Unknown(detail) => Some((name.span, "Unknown provider function", detail)),
            Namespaced::Unavailable => None,
        };
    }
    if name.name.starts_with("provider::") {
        return None; // OpenTofu's provider functions: its words are not recorded.
    }
    let names: Vec<&str> = functions(m.dialect).map(|f| f.name.as_str()).collect();
    let mut hint = crate::text::names::first_close_name(&name.name, &names)
        .map(|s| format!(" Did you mean {s:?}?"))
        .unwrap_or_default();
    if let Some(provided) = suggestion(m, schemas, &name.name) {
        hint.push_str(&format!(" Did you mean {provided:?}?"));
    }
    Some((
        name.span,
        "Call to unknown function",
        format!("There is no function named {:?}.{hint}", name.name),
    ))
}

/// Too few or too many arguments in the call `e` of the function `f`, called as
/// `written`, as HCL counts them (not when the last argument is expanded).
fn arity_problem(
    e: &Expr,
    written: &str,
    f: &Function,
    args: &[Expr],
    expand_final: bool,
) -> Option<(Span, &'static str, String)> {
    let (Some(params), false) = (&f.parameters, expand_final) else {
        return None;
    };
    if args.len() < params.len() {
        let at_least = if f.variadic.is_some() {
            " at least"
        } else {
            ""
        };
        let close = e.span.end.saturating_sub(1) as usize;
        Some((
            Span::new(close, close + 1),
            "Not enough function arguments",
            format!(
                "Function {written:?} expects{at_least} {} argument(s). Missing value for {:?}.",
                params.len(),
                params[args.len()].name
            ),
        ))
    } else if f.variadic.is_none() && args.len() > params.len() {
        Some((
            args[params.len()].start_range(),
            "Too many function arguments",
            format!(
                "Function {written:?} expects only {} argument(s).",
                params.len()
            ),
        ))
    } else {
        None
    }
}

/// The functions Terraform removed, with what to write instead.
fn removed(name: &str) -> Option<&'static str> {
    match name {
        "list" => Some("use tolist([ ... ]) syntax to write a literal list"),
        "map" => Some("use tomap({ ... }) syntax to write a literal map"),
        _ => None,
    }
}
