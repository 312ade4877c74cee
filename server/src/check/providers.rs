//! Provider local names and references to provider configurations, as Terraform reads
//! them while loading (`internal/configs/provider.go`, `resource.go`): a `provider`
//! block's name must be a normalized provider name; its `version` argument is
//! deprecated; a resource's, data source's or import's `provider` argument is a bare
//! `name` or `name.alias`, the quoted form deprecated; a module call's `providers` is a
//! static map of such references (`module_call.go`), each child configuration once.

use super::deprecations::{DEPRECATED, QUOTED_REFERENCE};
use super::{at, range_text, Diagnostic, Severity};
use crate::merge::{header_span, MergedModule, Origin};
use crate::syntax::{Block, Expr, ExprKind, Ident, Span, TraversalStep};

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
        let mut ctx = Ctx {
            m,
            file: fi as u32,
            out,
        };
        for block in &file.syntax.body.blocks {
            match &*block.kind.name {
                "provider" => provider_block(&mut ctx, block),
                "resource" | "data" | "ephemeral" | "import" => reference_argument(&mut ctx, block),
                "module" => passed_providers(&mut ctx, block),
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
    if let Some(alias) = block.body.attribute("alias") {
        let (errors, name) = super::literal::literal_string(ctx.m, ctx.file, alias);
        ctx.out.extend(errors);
        // Terraform gives this one no source range.
        if !crate::schema::is_identifier(&name) {
            ctx.out.push(Diagnostic::without_range(
                Severity::Error,
                PROVIDER_REFERENCE,
                "Invalid provider configuration alias".into(),
                format!(
                    "An alias must be a valid name. {}",
                    super::decode::BAD_IDENTIFIER
                ),
            ));
        }
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
        provider_reference(ctx, &a.expr, "provider");
    }
}

/// A module call's `providers` map as Terraform decodes it
/// (`decodePassedProviderConfigs`): a static map whose keys and values are provider
/// configuration references, each child-side configuration passed once.
fn passed_providers(ctx: &mut Ctx<'_>, block: &Block) {
    let Some(a) = block.body.attribute("providers") else {
        return;
    };
    let Some(items) = a.expr.static_map() else {
        ctx.push(
            Severity::Error,
            PROVIDER_REFERENCE,
            a.expr.start_range(),
            "Invalid expression",
            "A static map expression is required.".into(),
        );
        return;
    };
    let mut seen: Vec<(String, Span)> = Vec::new();
    for (key, value) in &items {
        let child = provider_reference(ctx, key, "providers");
        let parent = provider_reference(ctx, value, "providers");
        let (Some(child), Some(_)) = (child, parent) else {
            continue;
        };
        if let Some((_, first)) = seen.iter().find(|(c, _)| *c == child) {
            let first = range_text(
                ctx.m,
                Origin {
                    file: ctx.file,
                    span: *first,
                },
            );
            ctx.push(
                Severity::Error,
                PROVIDER_REFERENCE,
                value.span,
                "Duplicate provider address",
                format!("A provider configuration was already passed to {child} at {first}. Each child provider configuration can be assigned only once."),
            );
            continue;
        }
        seen.push((
            child,
            Span::new(key.span.start as usize, value.span.end as usize),
        ));
    }
}

/// A reference to a provider configuration (`decodeProviderConfigRef`), given to
/// `argument`: `name` or `name.alias`, returned when it has no errors.
fn provider_reference(ctx: &mut Ctx<'_>, given: &Expr, argument: &str) -> Option<String> {
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
    let expr = match &given.kind {
        ExprKind::String(s) => match parse_reference(s, given.span) {
            Some(e) => {
                ctx.push(
                    Severity::Warning,
                    DEPRECATED,
                    given.span,
                    "Quoted references are deprecated",
                    QUOTED_REFERENCE.into(),
                );
                unquoted = e;
                &unquoted
            }
            None => {
                invalid(
                    ctx,
                    given.span,
                    "A provider configuration reference must not be given in quotes.",
                );
                return None;
            }
        },
        // A JSON string is the traversal it holds (HCL's `AbsTraversalForExpr`).
        ExprKind::Json(_) => match given.static_traversal() {
            Some(traversal) => {
                unquoted = traversal;
                &unquoted
            }
            None => given,
        },
        _ => given,
    };
    let Some((root, steps)) = reference_parts(expr) else {
        invalid(
            ctx,
            given.span,
            &format!("The {argument} argument requires a provider type name, optionally followed by a period and then a configuration alias."),
        );
        return None;
    };
    let before = ctx.out.len();
    local_name(ctx, &root.name, root.span);
    if ctx.out.len() > before {
        return None;
    }
    match steps.first() {
        None => Some(root.name.to_string()),
        Some(TraversalStep::Attr(alias)) => Some(format!("{}.{}", root.name, alias.name)),
        Some(step) => {
            invalid(
                ctx,
                step_span(step, root.span.end, given.span.end),
                "Provider name must either stand alone or be followed by a period and then a configuration alias.",
            );
            None
        }
    }
}

/// The root name and the steps of a static traversal of one or two steps (HCL's
/// `AbsTraversalForExpr`, which refuses splats).
fn reference_parts(expr: &Expr) -> Option<(&Ident, &[TraversalStep])> {
    match &expr.kind {
        ExprKind::Variable(id) => Some((id, &[])),
        ExprKind::Traversal { root, steps } if steps.len() == 1 => match (&root.kind, &steps[0]) {
            (_, TraversalStep::AttrSplat(_) | TraversalStep::FullSplat(_)) => None,
            (ExprKind::Variable(id), _) => Some((id, steps)),
            _ => None,
        },
        _ => None,
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
