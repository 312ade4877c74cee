//! Provider local names and references to provider configurations, as Terraform reads
//! them while loading (`internal/configs/provider.go`, `resource.go`): a `provider`
//! block's name must be a normalized provider name; its `version` argument is
//! deprecated; a resource's, data source's or import's `provider` argument is a bare
//! `name` or `name.alias`, the quoted form deprecated.

use super::deprecations::{DEPRECATED, QUOTED_REFERENCE};
use super::{at, Diagnostic, Severity};
use crate::merge::{header_span, MergedModule, Origin};
use crate::syntax::{Attribute, Block, Expr, ExprKind, Span, Syntax, TraversalStep};

/// Code of an invalid provider local name or configuration reference.
pub const PROVIDER_REFERENCE: &str = "invalid-provider-reference";

struct Ctx<'a> {
    m: &'a MergedModule,
    file: u32,
    out: &'a mut Vec<Diagnostic>,
}

impl Ctx<'_> {
    fn push(&mut self, severity: Severity, code: &'static str, span: Span, s: &str, d: String) {
        let origin = Origin {
            file: self.file,
            span,
        };
        self.out
            .push(at(self.m, origin, severity, code, s.into(), d));
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
            match &*block.kind.name {
                "provider" => provider_block(&mut ctx, block),
                "resource" | "data" | "ephemeral" | "import" => reference_argument(&mut ctx, block),
                "check" => block
                    .body
                    .blocks_of("data")
                    .for_each(|d| reference_argument(&mut ctx, d)),
                _ => {}
            }
        }
    }
}

fn provider_block(ctx: &mut Ctx<'_>, block: &Block) {
    if let Some(name) = block.label(0) {
        local_name(ctx, name, header_span(block));
    }
    if let Some(version) = block.body.attribute("version") {
        ctx.push(
            Severity::Warning,
            DEPRECATED,
            version.expr.span,
            "Version constraints inside provider configuration blocks are deprecated",
            "Terraform 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of Terraform. To silence this warning, move the provider version constraint into the required_providers block.".into(),
        );
    }
}

/// `Invalid provider local name` for a name that is not a normalized provider name.
fn local_name(ctx: &mut Ctx<'_>, name: &str, span: Span) {
    let detail = match provider_part(name) {
        Err(why) => format!("{name} is an invalid provider local name: {why}"),
        Ok(normalized) if normalized != name => format!(
            "Provider names must be normalized. Replace {name:?} with {normalized:?} to fix this error."
        ),
        Ok(_) => return,
    };
    ctx.push(
        Severity::Error,
        PROVIDER_REFERENCE,
        span,
        "Invalid provider local name",
        detail,
    );
}

/// A provider name part normalized (lowercase), or why it is not one, checked in the
/// order of terraform-registry-address's `ParseProviderPart`.
pub fn provider_part(given: &str) -> Result<String, &'static str> {
    if given.is_empty() {
        return Err("must have at least one character");
    }
    if given.contains('.') {
        return Err("dots are not allowed");
    }
    if given.contains("--") {
        return Err("cannot use multiple consecutive dashes");
    }
    let valid = given.chars().all(|c| c.is_alphanumeric() || c == '-')
        && !given.starts_with('-')
        && !given.ends_with('-');
    if !valid {
        return Err("must contain only letters, digits, and dashes, and may not use leading or trailing dashes");
    }
    Ok(given.to_lowercase())
}

/// A block's `provider = name` or `name.alias` argument.
fn reference_argument(ctx: &mut Ctx<'_>, block: &Block) {
    if let Some(a) = block.body.attribute("provider") {
        provider_reference(ctx, a);
    }
}

fn provider_reference(ctx: &mut Ctx<'_>, a: &Attribute) {
    let invalid = |ctx: &mut Ctx<'_>, span, detail: &str| {
        ctx.push(
            Severity::Error,
            PROVIDER_REFERENCE,
            span,
            "Invalid provider configuration reference",
            detail.into(),
        );
    };
    let unquoted;
    let expr = match &a.expr.kind {
        ExprKind::String(s) => match parse_reference(s, a.expr.span) {
            Some(e) => {
                ctx.push(
                    Severity::Warning,
                    DEPRECATED,
                    a.expr.span,
                    "Quoted references are deprecated",
                    QUOTED_REFERENCE.into(),
                );
                unquoted = e;
                &unquoted
            }
            None => {
                invalid(
                    ctx,
                    a.expr.span,
                    "A provider configuration reference must not be given in quotes.",
                );
                return;
            }
        },
        _ => &a.expr,
    };
    let (root, steps): (_, &[TraversalStep]) = match &expr.kind {
        ExprKind::Variable(id) => (id, &[]),
        ExprKind::Traversal { root, steps } => match &root.kind {
            ExprKind::Variable(id) => (id, steps),
            _ => (&a.name, &[][..]),
        },
        _ => (&a.name, &[][..]),
    };
    let is_traversal = matches!(&expr.kind, ExprKind::Variable(_))
        || matches!(&expr.kind, ExprKind::Traversal { root, .. } if matches!(root.kind, ExprKind::Variable(_)));
    if !is_traversal || steps.len() > 1 {
        invalid(
            ctx,
            a.expr.span,
            "The provider argument requires a provider type name, optionally followed by a period and then a configuration alias.",
        );
        return;
    }
    let before = ctx.out.len();
    local_name(ctx, &root.name, root.span);
    if ctx.out.len() > before {
        return;
    }
    if let Some(step) = steps.first() {
        if !matches!(step, TraversalStep::Attr(_)) {
            invalid(
                ctx,
                step_span(step, root.span.end, a.expr.span.end),
                "Provider name must either stand alone or be followed by a period and then a configuration alias.",
            );
        }
    }
}

/// A quoted `name` or `name.alias` as the expression it stands for.
fn parse_reference(text: &str, span: Span) -> Option<Expr> {
    let mut parts = text.split('.');
    let root = parts.next()?;
    let ident = |name: &str| crate::syntax::Ident {
        name: name.into(),
        span,
    };
    let ok = |p: &str| crate::schema::is_identifier(p);
    if !ok(root) {
        return None;
    }
    let steps: Vec<TraversalStep> = parts
        .map(|p| ok(p).then(|| TraversalStep::Attr(ident(p))))
        .collect::<Option<_>>()?;
    let root = Expr {
        span,
        kind: ExprKind::Variable(ident(root)),
    };
    Some(if steps.is_empty() {
        root
    } else {
        Expr {
            span,
            kind: ExprKind::Traversal {
                root: Box::new(root),
                steps,
            },
        }
    })
}

/// Where a traversal step is written: from the end of what precedes it.
fn step_span(step: &TraversalStep, after: u32, end: u32) -> Span {
    match step {
        TraversalStep::Attr(id) => id.span,
        TraversalStep::Index(e) => Span::new(after as usize, (e.span.end + 1).min(end) as usize),
        TraversalStep::LegacyIndex(_, s)
        | TraversalStep::AttrSplat(s)
        | TraversalStep::FullSplat(s) => *s,
    }
}
