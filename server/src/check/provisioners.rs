//! Provisioner blocks as Terraform decodes them (`internal/configs/provisioner.go`): the
//! vendor provisioners Terraform removed, the `when` and `on_failure` keywords (quoted
//! keywords deprecated), and destroy-time provisioners, which with their connection may
//! refer only to `self`, `count.index`, `each.key`, `path` and `terraform`.

use super::{at, Diagnostic, Severity};
use crate::eval::references;
use crate::merge::{MergedModule, Origin};
use crate::syntax::{Block, Expr, ExprKind, Span, Syntax};

/// Code of a provisioner Terraform rejects.
pub const PROVISIONER: &str = "invalid-provisioner";

struct Ctx<'a> {
    m: &'a MergedModule,
    file: u32,
    out: &'a mut Vec<Diagnostic>,
}

impl Ctx<'_> {
    fn push(&mut self, severity: Severity, code: &'static str, span: Span, s: String, d: String) {
        let origin = Origin {
            file: self.file,
            span,
        };
        self.out.push(at(self.m, origin, severity, code, s, d));
    }
}

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for (fi, file) in m.files.iter().enumerate() {
        if file.syntax.syntax == Syntax::Json {
            continue; // JSON strings are read in context; Strata does not yet.
        }
        let mut ctx = Ctx {
            m,
            file: fi as u32,
            out,
        };
        for block in &file.syntax.body.blocks {
            if matches!(&*block.kind.name, "resource" | "removed") {
                resource(&mut ctx, block);
            }
        }
    }
}

fn resource(ctx: &mut Ctx<'_>, block: &Block) {
    let mut destroy_time = false;
    for p in block.body.blocks_of("provisioner") {
        destroy_time |= provisioner(ctx, p);
    }
    if destroy_time {
        // Terraform checks the resource's own connection once any provisioner is
        // destroy-time.
        if let Some(c) = block.body.blocks_of("connection").next() {
            only_self_references(ctx, c);
        }
    }
}

/// Checks one provisioner; returns whether it runs at destroy time.
fn provisioner(ctx: &mut Ctx<'_>, p: &Block) -> bool {
    let Some(kind) = p.labels.first() else {
        return false;
    };
    if matches!(
        &*kind.name,
        "chef" | "habitat" | "puppet" | "salt-masterless"
    ) {
        let name = &kind.name;
        ctx.push(
            Severity::Error,
            PROVISIONER,
            kind.span,
            format!("The \"{name}\" provisioner has been removed"),
            format!("The \"{name}\" provisioner was deprecated in Terraform 0.13.4 has been removed from Terraform. Visit https://learn.hashicorp.com/collections/terraform/provision for alternatives to using provisioners that are a better fit for the Terraform workflow."),
        );
        return false;
    }
    let when = p
        .body
        .attribute("when")
        .and_then(|a| keyword(ctx, &a.expr, "when", &["create", "destroy"]));
    let destroy_time = when.as_deref() == Some("destroy");
    if let Some(a) = p.body.attribute("on_failure") {
        keyword(ctx, &a.expr, "on_failure", &["continue", "fail"]);
    }
    if destroy_time {
        let own = Block {
            body: crate::syntax::Body {
                attributes: p
                    .body
                    .attributes
                    .iter()
                    .filter(|a| !matches!(&*a.name.name, "when" | "on_failure"))
                    .cloned()
                    .collect(),
                blocks: Vec::new(),
            },
            ..p.clone()
        };
        only_self_references(ctx, &own);
        if let Some(c) = p.body.blocks_of("connection").next() {
            only_self_references(ctx, c);
        }
    }
    destroy_time
}

/// The keyword an argument names (bare, or quoted with a deprecation warning); an error
/// when it is none of `allowed`.
fn keyword(ctx: &mut Ctx<'_>, expr: &Expr, arg: &str, allowed: &[&str]) -> Option<String> {
    let word = match &expr.kind {
        ExprKind::Variable(id) => Some(id.name.to_string()),
        ExprKind::String(s) if crate::schema::is_identifier(s) => {
            ctx.push(
                Severity::Warning,
                super::deprecations::DEPRECATED,
                expr.span,
                "Quoted keywords are deprecated".into(),
                super::deprecations::QUOTED_KEYWORD.into(),
            );
            Some(s.to_string())
        }
        _ => None,
    };
    match word {
        Some(w) if allowed.contains(&w.as_str()) => Some(w),
        _ => {
            let choices = allowed.join(" or ");
            ctx.push(
                Severity::Error,
                PROVISIONER,
                expr.span,
                format!("Invalid \"{arg}\" keyword"),
                format!(
                    "The \"{arg}\" argument requires one of the following keywords: {choices}."
                ),
            );
            None
        }
    }
}

/// `Invalid reference from destroy provisioner` for each reference in `block`'s
/// arguments to anything but the resource itself.
fn only_self_references(ctx: &mut Ctx<'_>, block: &Block) {
    for a in &block.body.attributes {
        for r in references(&a.expr) {
            let root = r.subject.split(['.', '[']).next().unwrap_or_default();
            let valid = matches!(root, "self" | "path" | "terraform")
                || r.subject == "count.index"
                || r.subject == "each.key";
            if !valid {
                ctx.push(
                    Severity::Error,
                    PROVISIONER,
                    a.expr.span,
                    "Invalid reference from destroy provisioner".into(),
                    "Destroy-time provisioners and their connection configurations may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\nReferences to other resources during the destroy phase can cause dependency cycles and interact poorly with create_before_destroy.".into(),
                );
            }
        }
    }
}
