//! The addresses of `moved` and `removed` blocks as Terraform parses them while loading
//! (`addrs.ParseMoveEndpoint`, `addrs.ParseRemoveTarget`): static references only; a
//! moved endpoint is a module or a resource (instance); a removed target is a module or
//! a resource, never one instance of either.

use super::addresses::{parse_resource_instance, parts, Part};
use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Origin};
use crate::syntax::{Block, Expr, Span};

/// Code of an address Terraform cannot use in a `moved` or `removed` block.
pub const ENDPOINT: &str = "invalid-endpoint";

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for fi in 0..m.files.len() {
        if m.is_override_file(fi as u32) {
            continue; // Override files may not hold these blocks (overrides.rs).
        }
        let file = fi as u32;
        let mut push = |span: Span, summary: &str, detail: String| {
            out.push(at(
                m,
                Origin { file, span },
                Severity::Error,
                ENDPOINT,
                summary.into(),
                detail,
            ));
        };
        for block in &m.file(file).syntax.body.blocks {
            match &*block.kind.name {
                "moved" => moved(block, &mut push),
                "removed" => {
                    removed(block, &mut push);
                }
                _ => {}
            }
        }
    }
}

fn moved(block: &Block, push: &mut impl FnMut(Span, &str, String)) {
    for arg in ["from", "to"] {
        let Some(a) = block.body.attribute(arg) else {
            continue;
        };
        let expr = as_reference(&a.expr);
        let Some(all) = static_parts(&expr, push) else {
            continue;
        };
        if module_only(&all) {
            continue;
        }
        if let Err((span, detail)) = parse_resource_instance(&expr) {
            push(span, "Invalid address", detail);
        }
    }
}

/// What the `from` of a `removed` block names, when Terraform could parse it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Removes {
    /// A module call.
    Module,
    /// A resource; `managed` unless it is a data source or an ephemeral resource.
    Resource { managed: bool },
}

/// What a `removed` block's `from` names; `None` where Terraform fails to parse it.
pub(super) fn removes(block: &Block) -> Option<Removes> {
    removed(block, &mut |_, _, _| {})
}

fn removed(block: &Block, push: &mut impl FnMut(Span, &str, String)) -> Option<Removes> {
    let a = block.body.attribute("from")?;
    let all = static_parts(&as_reference(&a.expr), push)?;
    let mut rest = &all[..];
    while let [Part::Name(word, _), Part::Name(_, _), tail @ ..] = rest {
        if word != "module" {
            break;
        }
        rest = tail;
        if let [Part::Index(_, span), ..] = rest {
            push(
                *span,
                "Module instance keys not allowed",
                "Module address must be a module (e.g. \"module.foo\"), not a module instance (e.g. \"module.foo[1]\").".into(),
            );
            return None;
        }
    }
    if rest.is_empty() {
        return (!all.is_empty()).then_some(Removes::Module);
    }
    let (skip, managed) = match rest.first() {
        Some(Part::Name(mode, _)) if matches!(mode.as_str(), "data" | "ephemeral") => (1, false),
        Some(Part::Name(mode, _)) if mode == "resource" => (1, true),
        _ => (0, true),
    };
    match &rest[skip.min(rest.len())..] {
        [_, _, Part::Index(_, span), ..] => {
            push(
                *span,
                "Resource instance keys not allowed",
                "Resource address must be a resource (e.g. \"test_instance.foo\"), not a resource instance (e.g. \"test_instance.foo[1]\").".into(),
            );
            None
        }
        [Part::Name(..), Part::Name(..)] => Some(Removes::Resource { managed }),
        _ => None,
    }
}

/// An address as `hcl.AbsTraversalForExpr` reads it: a JSON string is the traversal it
/// holds (or stays a string, which is not a reference).
pub(super) fn as_reference(expr: &Expr) -> Expr {
    match expr.is_json() {
        true => expr.static_traversal().unwrap_or_else(|| expr.clone()),
        false => expr.clone(),
    }
}

/// HCL's detail for an expression that is not a static reference (`AbsTraversalForExpr`).
pub(super) const NOT_A_REFERENCE: &str = "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.";

/// The steps of a static reference; `Invalid expression` (HCL's message for an address
/// that is not one) and `None` otherwise.
fn static_parts(expr: &Expr, push: &mut impl FnMut(Span, &str, String)) -> Option<Vec<Part>> {
    let all = parts(expr).filter(|p| !p.iter().any(|s| matches!(s, Part::Index(None, _))));
    if all.is_none() {
        push(expr.span, "Invalid expression", NOT_A_REFERENCE.into());
    }
    all
}

/// Whether the steps are `module.a[key].module.b...` and nothing else.
fn module_only(all: &[Part]) -> bool {
    let mut rest = all;
    while let [Part::Name(word, _), Part::Name(_, _), tail @ ..] = rest {
        if word != "module" {
            return false;
        }
        rest = match tail {
            [Part::Index(..), more @ ..] => more,
            more => more,
        };
    }
    rest.is_empty() && !all.is_empty()
}
