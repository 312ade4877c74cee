//! `depends_on` as Terraform's validate walk reads it (`validateDependsOn`, for
//! resources, data sources, outputs and module calls): every element is parsed as a
//! reference (`Invalid reference`, ...), one that goes past the object it names is
//! `Invalid depends_on reference` at the part after the object, and each element is
//! looked up as Terraform evaluates a lone reference (undeclared objects, instance keys,
//! scoped data sources, `count`/`each`/`path`/`terraform` without any instance) only as
//! long as the list has had no error: after the first one, the rest is only parsed.

use super::contexts::attribute_problem;
use super::evaluated::Scope;
use super::reference_syntax::reference_error;
use super::references::{scoped_data, Names, Objects};
use super::{at, Diagnostic, Severity};
use crate::eval::{parse_references, Reference};
use crate::merge::{MergedModule, Origin};
use crate::syntax::{Expr, ExprKind, Span, Syntax};

/// Code of a `depends_on` element Terraform rejects.
pub const DEPENDS_ON: &str = "invalid-depends-on";

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    let scoped = scoped_data(m);
    let names = Names::of(m);
    let objects = |check| Objects {
        m,
        children: None,
        scoped: &scoped,
        names: &names,
        check,
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

/// One `depends_on` list of file `file`.
fn list(objects: &Objects<'_>, file: u32, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let m = objects.m;
    // JSON strings are read in context; Strata does not yet.
    if m.file(file).syntax.syntax == Syntax::Json {
        return;
    }
    let ExprKind::Tuple(items) = &expr.kind else {
        return;
    };
    let mut failed = false;
    let mut push = |span: Span, summary: String, detail: String, failed: &mut bool| {
        *failed = true;
        let origin = Origin { file, span };
        out.push(at(m, origin, Severity::Error, DEPENDS_ON, summary, detail));
    };
    for item in items {
        // Quoted references (deprecated) and anything but a traversal are the loader's.
        let [parsed] = &parse_references(item)[..] else {
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
            super::walk_values::key_problems(objects.m, r, false)
                .into_iter()
                .next()
                .map(|(summary, detail)| (summary.to_string(), detail))
        }),
    }
}
