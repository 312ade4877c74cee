//! What a root module's outputs may not do (`internal/terraform/node_output.go`): be
//! ephemeral (`Ephemeral output not allowed`), or depend on a sensitive value without
//! being marked `sensitive = true` (`Output refers to sensitive values`). Sensitive values here are what Strata can know
//! without provider schemas: variables marked sensitive, `sensitive(...)`, and locals made
//! of them; `nonsensitive(...)` and `issensitive(...)` drop the mark. A child module's
//! sensitive output does not count: `terraform validate` leaves module outputs unknown and
//! unmarked (recorded in fixtures/validate/outputs-sensitive). Each module is checked as the root module, as
//! `terraform validate` run in its directory does.

use std::collections::HashMap;

use serde_json::Value;

use super::{at, Diagnostic, Severity};
use crate::eval::{constant, references};
use crate::merge::MergedModule;
use crate::syntax::{Expr, ExprKind, Span};

/// Code of a root output that is ephemeral or exposes sensitive values.
pub const SENSITIVE_OUTPUT: &str = "root-output";

/// Locals (or more) followed at most this deep; a longer chain is not reported.
const MAX_DEPTH: usize = 64;

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    let mut memo = HashMap::new();
    for o in m.outputs.values() {
        let marked = |a: &Option<crate::merge::Attr>| {
            a.as_ref()
                .is_some_and(|a| constant(a.expr()) == Some(Value::Bool(true)))
        };
        if marked(&o.ephemeral) {
            out.push(at(
                m,
                o.provenance.decl,
                Severity::Error,
                SENSITIVE_OUTPUT,
                "Ephemeral output not allowed".into(),
                "Ephemeral outputs are not allowed in context of a root module".into(),
            ));
            continue;
        }
        if marked(&o.sensitive) {
            continue;
        }
        let Some(value) = &o.value else { continue };
        if !is_sensitive(m, value.expr(), &mut memo, 0) {
            continue;
        }
        out.push(at(
            m,
            o.provenance.decl,
            Severity::Error,
            SENSITIVE_OUTPUT,
            "Output refers to sensitive values".into(),
            "To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, Terraform requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true".into(),
        ));
    }
}

/// Whether the value of `expr` carries Terraform's sensitive mark.
fn is_sensitive(
    m: &MergedModule,
    expr: &Expr,
    memo: &mut HashMap<String, bool>,
    depth: usize,
) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    let mut unmarked: Vec<Span> = Vec::new();
    let mut marks = false;
    expr.walk(&mut |e| {
        if let ExprKind::FuncCall { name, .. } = &e.kind {
            let name = name.name.strip_prefix("core::").unwrap_or(&name.name);
            match name {
                "nonsensitive" | "issensitive" => unmarked.push(e.span),
                "sensitive" => marks = true,
                _ => {}
            }
        }
    });
    let inside = |s: Span| {
        unmarked
            .iter()
            .any(|u| u.start <= s.start && s.end <= u.end)
    };
    if marks {
        // `sensitive(...)` outside any `nonsensitive(...)`.
        let mut found = false;
        expr.walk(&mut |e| {
            if let ExprKind::FuncCall { name, .. } = &e.kind {
                if &*name.name == "sensitive" && !inside(e.span) {
                    found = true;
                }
            }
        });
        if found {
            return true;
        }
    }
    for r in references(expr) {
        if inside(r.span) {
            continue;
        }
        if subject_is_sensitive(m, &r.subject, memo, depth) {
            return true;
        }
    }
    false
}

fn subject_is_sensitive(
    m: &MergedModule,
    subject: &str,
    memo: &mut HashMap<String, bool>,
    depth: usize,
) -> bool {
    if let Some(&known) = memo.get(subject) {
        return known;
    }
    memo.insert(subject.to_string(), false); // A cycle is reported elsewhere.
    let marked = |a: &Option<crate::merge::Attr>| {
        a.as_ref()
            .is_some_and(|a| constant(a.expr()) == Some(Value::Bool(true)))
    };
    let result = if let Some(name) = subject.strip_prefix("var.") {
        m.variables.get(name).is_some_and(|v| marked(&v.sensitive))
    } else if let Some(name) = subject.strip_prefix("local.") {
        m.locals
            .get(name)
            .is_some_and(|l| is_sensitive(m, l.value.expr(), memo, depth + 1))
    } else {
        false
    };
    memo.insert(subject.to_string(), result);
    result
}
