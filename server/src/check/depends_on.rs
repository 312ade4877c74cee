//! `depends_on` lists, in both syntaxes. When Terraform loads them (`DecodeDependsOn`),
//! a list must be written as one and each element as a static reference (in the JSON
//! syntax, a string holding one), or it is HCL's `Invalid expression`. Its validate walk
//! (`validateDependsOn`, for resources, data sources, outputs and module calls) then
//! parses every element as a reference (`Invalid reference`, ...), one that goes past the
//! object it names is `Invalid depends_on reference` at the part after the object, and
//! each element is looked up as Terraform evaluates a lone reference (undeclared objects,
//! instance keys, scoped data sources, `count`/`each`/`path`/`terraform` without any
//! instance) only as long as the list has had no error: after the first one, the rest is
//! only parsed.

use super::contexts::attribute_problem;
use super::evaluated::Scope;
use super::reference_syntax::reference_error;
use super::references::{module_names, scoped_data, Names, Objects};
use super::{at, Diagnostic, Role, Severity};
use crate::eval::{parse_references, Reference};
use crate::merge::{MergedModule, Origin};
use crate::syntax::{Block, Expr, ExprKind, Span};

/// Code of a `depends_on` element Terraform rejects.
pub const DEPENDS_ON: &str = "invalid-depends-on";

/// The blocks whose `depends_on` Terraform decodes: every file's resources, data
/// sources, ephemeral resources, module calls and outputs, and the data sources nested
/// in `check` blocks.
pub(super) fn decode(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for (fi, file) in m.files.iter().enumerate() {
        for block in &file.syntax.body.blocks {
            let nested: Vec<&Block> = match &*block.kind.name {
                "resource" | "data" | "ephemeral" | "module" | "output" => vec![block],
                "check" => block.body.blocks_of("data").map(|b| &**b).collect(),
                _ => continue,
            };
            for b in nested {
                if let Some(a) = b.body.attribute("depends_on") {
                    decode_list(m, fi as u32, &a.expr, out);
                }
            }
        }
    }
}

/// One list as `DecodeDependsOn` reads it. Quoted native strings are the deprecated
/// form (`deprecations.rs`); native templates are left to the walk.
fn decode_list(m: &MergedModule, file: u32, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let mut push = |span: Span, detail: &str| {
        let origin = Origin { file, span };
        let summary = "Invalid expression".to_string();
        out.push(at(
            m,
            origin,
            Severity::Error,
            DEPENDS_ON,
            summary,
            detail.into(),
        ));
    };
    let Some(items) = expr.static_list() else {
        push(expr.start_range(), "A static list expression is required.");
        return;
    };
    for item in &items {
        let quoted = matches!(item.kind, ExprKind::String(_) | ExprKind::Template(_));
        if !quoted && item.static_traversal().is_none() {
            push(item.span, super::endpoints::NOT_A_REFERENCE);
        }
    }
}

pub(super) fn check(m: &MergedModule, role: Role<'_>, out: &mut Vec<Diagnostic>) {
    let scoped = scoped_data(m);
    let names = Names::of(m);
    // Terraform walks a called module once per module path, each walk naming its own.
    for module in module_names(role) {
        let objects = |check| Objects {
            m,
            children: None,
            scoped: &scoped,
            names: &names,
            check,
            module: &module,
        };
        let lists = (m.resources.values().filter_map(|r| r.depends_on.as_ref()))
            .chain(m.outputs.values().filter_map(|o| o.depends_on.as_ref()))
            .chain(
                m.module_calls
                    .values()
                    .filter_map(|c| c.depends_on.as_ref()),
            );
        for a in lists {
            list(&objects(None), a.file, a.expr(), out);
        }
        // The data sources of `check` blocks are not among the module's resources.
        for c in &m.checks {
            for d in c.block.body.blocks_of("data") {
                if let Some(a) = d.body.attribute("depends_on") {
                    list(&objects(c.block.label(0)), c.file, &a.expr, out);
                }
            }
        }
    }
}

/// One `depends_on` list of file `file`.
fn list(objects: &Objects<'_>, file: u32, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let m = objects.m;
    let Some(items) = expr.static_list() else {
        return;
    };
    let mut failed = false;
    let mut push = |span: Span, summary: String, detail: String, failed: &mut bool| {
        *failed = true;
        let origin = Origin { file, span };
        out.push(at(m, origin, Severity::Error, DEPENDS_ON, summary, detail));
    };
    for item in &items {
        // A JSON string is the reference it holds; one that holds none is the loader's.
        let item = match item.is_json() {
            true => match item.static_traversal() {
                Some(traversal) => traversal,
                None => continue,
            },
            false => item.clone(),
        };
        // Quoted references (deprecated) and anything but a traversal are the loader's.
        let [parsed] = &parse_references(&item)[..] else {
            continue;
        };
        let r = match parsed {
            Ok(r) => r,
            Err(e) => {
                let d = reference_error(m, Origin { file, span: e.span }, e);
                push(d.span, d.summary, d.detail, &mut failed);
                continue;
            }
        };
        if !r.remaining.is_empty() {
            push(
                Span::new(r.subject_span.end as usize, r.span.end as usize),
                "Invalid depends_on reference".into(),
                "References in depends_on must be to a whole object (resource, etc), not to an attribute of an object.".into(),
                &mut failed,
            );
        }
        if failed {
            continue;
        }
        if let Some((summary, detail)) = evaluated(objects, r) {
            push(r.subject_span, summary, detail, &mut failed);
        }
    }
}

/// What evaluating the lone reference `r` reports, outside any instance (Terraform
/// evaluates it with no instance key, whatever the block's `count` or `for_each`).
fn evaluated(objects: &Objects<'_>, r: &Reference) -> Option<(String, String)> {
    let (root, name) = r.subject.split_once('.').unwrap_or((&r.subject, ""));
    match root {
        // Terraform 1.11.4 crashes on `self` here ("scope SelfAddr attempting to alias
        // itself"): there is nothing to match.
        "self" => None,
        "count" | "each" | "path" | "terraform" => attribute_problem(root, name, Scope::default()),
        _ => objects.problem(r).or_else(|| {
            super::walk_values::key_problems(objects.m, r)
                .into_iter()
                .next()
                .map(|(summary, detail)| (summary.to_string(), detail))
        }),
    }
}
