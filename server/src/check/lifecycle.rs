//! `lifecycle` checks done when Terraform loads a configuration (spec §3.1–3.4, §3.6):
//! literal-only booleans, the forms of `ignore_changes`, the references
//! `replace_triggered_by` may hold, and the arguments data sources and ephemeral
//! resources may not set. Checked block by block, as Terraform decodes them; JSON-syntax
//! blocks, whose strings are parsed in context, are checked for booleans only.

use super::json_strings::unwrap_json_reference;
use super::literal::literal_bool;
use super::{at, Diagnostic, Severity};
use crate::eval::parse_references;
use crate::merge::{MergedModule, Origin};
use crate::module::Dialect;
use crate::syntax::{Attribute, Block, Expr, ExprKind, JsonKind, Syntax};

/// Code of a malformed `ignore_changes`.
pub const IGNORE_CHANGES: &str = "lifecycle-ignore-changes";
/// Code of a malformed `replace_triggered_by`.
pub const REPLACE_TRIGGERED_BY: &str = "lifecycle-replace-triggered-by";
/// Code of a lifecycle argument not valid for the block's kind.
pub const NOT_FOR_MODE: &str = "lifecycle-not-for-mode";

struct Ctx<'a> {
    m: &'a MergedModule,
    file: u32,
    out: &'a mut Vec<Diagnostic>,
}

impl Ctx<'_> {
    fn push(
        &mut self,
        severity: Severity,
        code: &'static str,
        span: crate::syntax::Span,
        summary: &str,
        detail: &str,
    ) {
        let origin = Origin {
            file: self.file,
            span,
        };
        self.out.push(at(
            self.m,
            origin,
            severity,
            code,
            summary.into(),
            detail.into(),
        ));
    }
}

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for (fi, file) in m.files.iter().enumerate() {
        let json = file.syntax.syntax == Syntax::Json;
        let mut ctx = Ctx {
            m,
            file: fi as u32,
            out,
        };
        for block in &file.syntax.body.blocks {
            for lc in block.body.blocks_of("lifecycle").take(1) {
                match &*block.kind.name {
                    "resource" => managed(&mut ctx, lc, json),
                    "data" => not_for_mode(&mut ctx, lc, "data"),
                    "ephemeral" => not_for_mode(&mut ctx, lc, "ephemeral"),
                    "removed" => {
                        if let Some(a) = lc.body.attribute("destroy") {
                            ctx.out.extend(literal_bool(m, fi as u32, a));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

fn managed(ctx: &mut Ctx<'_>, lc: &Block, json: bool) {
    let tofu = ctx.m.dialect == Dialect::OpenTofu;
    for a in &lc.body.attributes {
        match &*a.name.name {
            "create_before_destroy" => ctx.out.extend(literal_bool(ctx.m, ctx.file, a)),
            // OpenTofu 1.12 made prevent_destroy an expression evaluated at plan time.
            "prevent_destroy" if !tofu => ctx.out.extend(literal_bool(ctx.m, ctx.file, a)),
            "ignore_changes" if !json => ignore_changes(ctx, a),
            "ignore_changes" => json_ignore_changes(ctx, a),
            "replace_triggered_by" => replace_triggered_by(ctx, a),
            _ => {}
        }
    }
}

/// `all`, or a static list of relative traversals (spec §3.3).
fn ignore_changes(ctx: &mut Ctx<'_>, a: &Attribute) {
    let items = match &a.expr.kind {
        ExprKind::Variable(id) if &*id.name == "all" => return,
        ExprKind::Tuple(items) => items,
        _ => {
            ctx.push(
                Severity::Error,
                IGNORE_CHANGES,
                a.expr.span,
                "Invalid expression",
                "A static list expression is required.",
            );
            return;
        }
    };
    // Terraform reports the wildcard over the whole list, and the mix of a wildcard with
    // references (those that decode: traversals, and quoted ones) at the last wildcard.
    let mut wildcard = None;
    let mut references = 0;
    for e in items {
        match &e.kind {
            ExprKind::String(s) if &**s == "*" => {
                wildcard = Some(e.span);
                wildcard_error(ctx, a.expr.span);
            }
            ExprKind::String(_) => {
                references += 1;
                ctx.push(
                    Severity::Warning,
                    IGNORE_CHANGES,
                    e.span,
                    "Quoted references are deprecated",
                    super::deprecations::QUOTED_REFERENCE,
                );
            }
            _ if e.static_traversal().is_some() => references += 1,
            _ => {}
        }
    }
    if let (Some(span), true) = (wildcard, references > 0) {
        ctx.push(
            Severity::Error,
            IGNORE_CHANGES,
            span,
            "Invalid ignore_changes ruleset",
            "Cannot mix wildcard string \"*\" with non-wildcard references.",
        );
    }
}

/// Each element references exactly one resource, plus at most `count.index` and
/// `each.key` (spec §3.4). Every error is placed on its element; as in Terraform, once an
/// element has an error the elements after it are not looked at.
/// In the JSON syntax each element is a string holding the expression (`unwrapJSONRefExpr`).
fn replace_triggered_by(ctx: &mut Ctx<'_>, a: &Attribute) {
    let Some(items) = a.expr.static_list() else {
        ctx.push(
            Severity::Error,
            REPLACE_TRIGGERED_BY,
            a.expr.start_range(),
            "Invalid expression",
            "A static list expression is required.",
        );
        return;
    };
    let before = ctx.out.len();
    for e in &items {
        if ctx.out[before..]
            .iter()
            .any(|d| d.severity == Severity::Error)
        {
            return;
        }
        let e = match unwrap_json_reference(ctx.m, ctx.file, e) {
            Ok(e) => e,
            Err(errors) => {
                for (span, summary, detail) in errors {
                    ctx.push(
                        Severity::Error,
                        REPLACE_TRIGGERED_BY,
                        span,
                        &summary,
                        &detail,
                    );
                }
                continue;
            }
        };
        let e = &e;
        // Terraform's reference parser first; its errors are placed on the element.
        let parsed = parse_references(e);
        let refused: Vec<_> = parsed.iter().filter_map(|r| r.as_ref().err()).collect();
        for error in &refused {
            ctx.push(
                Severity::Error,
                REPLACE_TRIGGERED_BY,
                e.span,
                error.summary,
                &error.detail,
            );
        }
        if !refused.is_empty() {
            continue;
        }
        let mut resources = 0;
        for r in parsed.iter().flatten() {
            let root = r.subject.split(['.', '[']).next().unwrap_or_default();
            let problem = match root {
                "each" if r.subject != "each.key" => Some((
                    "Invalid each reference in replace_triggered_by expression",
                    "Only each.key may be used in replace_triggered_by.",
                )),
                "count" if r.subject != "count.index" => Some((
                    "Invalid count reference in replace_triggered_by expression",
                    "Only count.index may be used in replace_triggered_by.",
                )),
                "each" | "count" => None,
                "var" | "local" | "module" | "path" | "terraform" | "self" => Some((
                    "Invalid reference in replace_triggered_by expression",
                    "Only resources, count.index, and each.key may be used in replace_triggered_by.",
                )),
                _ => {
                    resources += 1;
                    None
                }
            };
            if let Some((summary, detail)) = problem {
                ctx.push(
                    Severity::Error,
                    REPLACE_TRIGGERED_BY,
                    e.span,
                    summary,
                    detail,
                );
            }
        }
        let count_problem = match resources {
            0 => Some("Missing resource reference in replace_triggered_by expression."),
            1 => None,
            _ => Some("Multiple resource references in replace_triggered_by expression."),
        };
        if let Some(detail) = count_problem {
            ctx.push(
                Severity::Error,
                REPLACE_TRIGGERED_BY,
                e.span,
                "Invalid replace_triggered_by expression",
                detail,
            );
        }
    }
}

/// `ignore_changes` in the JSON syntax: the keyword `all` as a string, or a list whose
/// strings are `"*"` (refused as in the native syntax) or relative references
/// (`hcl.RelTraversalForExpr`: anything else is HCL's `Invalid expression`).
fn json_ignore_changes(ctx: &mut Ctx<'_>, a: &Attribute) {
    if a.expr
        .static_traversal()
        .is_some_and(|t| matches!(&t.kind, ExprKind::Variable(id) if &*id.name == "all"))
    {
        return;
    }
    let Some(items) = a.expr.static_list() else {
        ctx.push(
            Severity::Error,
            IGNORE_CHANGES,
            a.expr.start_range(),
            "Invalid expression",
            "A static list expression is required.",
        );
        return;
    };
    let star = |e: &Expr| matches!(&e.kind, ExprKind::Json(v) if matches!(&v.kind, JsonKind::String(s) if &**s == "*"));
    let mut wildcard = None;
    let mut references = 0;
    for e in &items {
        if star(e) {
            wildcard = Some(e.span);
            wildcard_error(ctx, a.expr.span);
        } else if e.static_traversal().is_some() {
            references += 1;
        } else {
            ctx.push(
                Severity::Error,
                IGNORE_CHANGES,
                e.span,
                "Invalid expression",
                super::endpoints::NOT_A_REFERENCE,
            );
        }
    }
    if let (Some(span), true) = (wildcard, references > 0) {
        ctx.push(
            Severity::Error,
            IGNORE_CHANGES,
            span,
            "Invalid ignore_changes ruleset",
            "Cannot mix wildcard string \"*\" with non-wildcard references.",
        );
    }
}

/// The schema of a managed resource's `lifecycle` block.
fn managed_lifecycle() -> &'static crate::schema::BlockSchema {
    let resource = crate::schema::file_schema()
        .blocks
        .iter()
        .find(|b| &*b.name == "resource")
        .map(|b| &b.schema);
    resource
        .and_then(|r| r.blocks.iter().find(|b| &*b.name == "lifecycle"))
        .map(|b| &*b.schema)
        .expect("the language schema has resource lifecycle blocks")
}

/// Lifecycle arguments are for managed resources only (spec §3.6); preconditions and
/// postconditions are fine, and OpenTofu allows `enabled`.
fn not_for_mode(ctx: &mut Ctx<'_>, lc: &Block, mode: &str) {
    let tofu = ctx.m.dialect == Dialect::OpenTofu;
    for a in &lc.body.attributes {
        let name = &a.name.name;
        // Names the lifecycle schema does not have are `Unsupported argument` (decode.rs).
        let known = managed_lifecycle().attribute(name, ctx.m.dialect).is_some();
        if !known || (tofu && &**name == "enabled") {
            continue;
        }
        let (summary, detail) = match (mode, tofu) {
            ("data", _) => (
                "Invalid data resource lifecycle argument".to_string(),
                format!("The lifecycle argument \"{name}\" is defined only for managed resources (\"resource\" blocks), and is not valid for data resources."),
            ),
            (_, false) => (
                "Invalid ephemeral resource lifecycle argument".to_string(),
                format!("The lifecycle argument \"{name}\" is defined only for managed resources (\"resource\" blocks), and is not valid for ephemeral resources."),
            ),
            (_, true) => (
                "Invalid lifecycle configuration for ephemeral resource".to_string(),
                format!("The lifecycle argument \"{name}\" cannot be used in ephemeral resources. This is meant to be used strictly in \"resource\" blocks."),
            ),
        };
        ctx.push(
            Severity::Error,
            NOT_FOR_MODE,
            a.name.span,
            &summary,
            &detail,
        );
    }
}

/// Terraform's error for the `["*"]` form of `ignore_changes`, over the whole list.
fn wildcard_error(ctx: &mut Ctx<'_>, list: crate::syntax::Span) {
    ctx.push(
        Severity::Error,
        IGNORE_CHANGES,
        list,
        "Invalid ignore_changes wildcard",
        "The [\"*\"] form of ignore_changes wildcard is was deprecated and is now invalid. Use \"ignore_changes = all\" to ignore changes to all attributes.",
    );
}
