//! `required_providers` as Terraform decodes it (`internal/configs/provider_requirements.go`):
//! each entry is a version string (the legacy form) or an object of `source`, `version`
//! and `configuration_aliases`; sources are provider addresses
//! (`[hostname/][namespace/]type`); and the block belongs inside `terraform`.

use super::endpoints::NOT_A_REFERENCE;
use super::literal::{decoded, not_constant};
use super::provider_source::source_error;
use super::providers::provider_part;
use super::{at, Diagnostic, Severity};
use crate::eval::constant;
use crate::merge::{MergedModule, Origin};
use crate::syntax::{Attribute, Block, Expr, ExprKind, JsonKind, JsonValue, Span, TraversalStep};

/// Code of a malformed provider requirement.
pub const REQUIREMENT: &str = "invalid-provider-requirement";

struct Ctx<'a> {
    m: &'a MergedModule,
    file: u32,
    out: &'a mut Vec<Diagnostic>,
}

impl Ctx<'_> {
    fn error(&mut self, span: Span, summary: &str, detail: String) {
        let origin = Origin {
            file: self.file,
            span,
        };
        let d = at(
            self.m,
            origin,
            Severity::Error,
            REQUIREMENT,
            summary.into(),
            detail,
        );
        self.out.push(d);
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
                "required_providers" => ctx.error(
                    block.kind.span,
                    "Invalid required_providers block",
                    "A \"required_providers\" block must be nested inside a \"terraform\" block."
                        .into(),
                ),
                "terraform" => {
                    for r in block.body.blocks_of("required_providers") {
                        requirements(&mut ctx, r);
                    }
                }
                _ => {}
            }
        }
    }
}

fn requirements(ctx: &mut Ctx<'_>, block: &Block) {
    if !block.body.blocks.is_empty() {
        return; // `Unexpected ... block` (decode.rs); Terraform reads no further.
    }
    for a in &block.body.attributes {
        entry(ctx, a);
    }
}

fn entry(ctx: &mut Ctx<'_>, a: &Attribute) {
    let name = &*a.name.name;
    // `attr.Expr.Value(nil)` of a primitive type: JSON strings are read as written.
    let legacy = matches!(
        decoded(&a.expr),
        Some(
            serde_json::Value::String(_)
                | serde_json::Value::Number(_)
                | serde_json::Value::Bool(_)
        )
    );
    if legacy {
        super::versions::check(ctx.m, ctx.file, a, ctx.out);
        if let Err(why) = provider_part(name) {
            ctx.error(a.expr.span, "Invalid provider name", why.into());
        }
        return;
    }
    let normalized = match provider_part(name) {
        Err(why) => Some(format!("{name} is an invalid provider local name: {why}")),
        Ok(n) if n != name => Some(format!(
            "Provider names must be normalized. Replace {name:?} with {n:?} to fix this error."
        )),
        Ok(_) => None,
    };
    if let Some(detail) = normalized {
        ctx.error(a.expr.span, "Invalid provider local name", detail);
        return;
    }
    let Some(items) = a.expr.static_map() else {
        ctx.error(
            a.expr.span,
            "Invalid required_providers object",
            "required_providers entries must be strings or objects.".into(),
        );
        return;
    };
    for (key, value) in &items {
        let Some(key_name) = key_string(ctx, key) else {
            continue;
        };
        match key_name.as_str() {
            "version" => version(ctx, value),
            "source" => source(ctx, value),
            "configuration_aliases" => aliases(ctx, name, value),
            _ => {
                ctx.error(
                    key.span,
                    "Invalid required_providers object",
                    "required_providers objects can only contain \"version\", \"source\" and \"configuration_aliases\" attributes. To configure a provider, use a \"provider\" block.".into(),
                );
                return;
            }
        }
    }
}

/// An entry's key as Terraform reads it, evaluated without a context: a bare name or
/// keyword is itself, a JSON property name its string; anything else must be a
/// constant string (`Invalid Attribute` otherwise).
fn key_string(ctx: &mut Ctx<'_>, key: &Expr) -> Option<String> {
    match &key.kind {
        ExprKind::Variable(id) => return Some(id.name.to_string()),
        ExprKind::Json(JsonValue {
            kind: JsonKind::String(s),
            ..
        }) => return Some(s.to_string()),
        ExprKind::Bool(b) => return Some(b.to_string()),
        ExprKind::Null => return Some("null".into()),
        _ => {}
    }
    let problems = not_constant(ctx.m, ctx.file, key);
    if !problems.is_empty() {
        ctx.out.extend(problems);
        return None;
    }
    match constant(key)? {
        serde_json::Value::String(s) => Some(s),
        other => {
            let detail = format!(
                "Invalid attribute value for provider requirement: {}",
                go_syntax(&other)
            );
            ctx.error(key.span, "Invalid Attribute", detail);
            None
        }
    }
}

/// A value as go-cty writes it in Go syntax (`%#v`), which Terraform quotes.
fn go_syntax(value: &serde_json::Value) -> String {
    use serde_json::Value;
    let list = |items: Vec<String>| items.join(", ");
    match value {
        Value::Null => "cty.NullVal(cty.DynamicPseudoType)".into(),
        Value::Bool(true) => "cty.True".into(),
        Value::Bool(false) => "cty.False".into(),
        Value::Number(n) => go_number(&n.to_string()),
        Value::String(s) => format!("cty.StringVal({s:?})"),
        Value::Array(items) if items.is_empty() => "cty.EmptyTupleVal".into(),
        Value::Array(items) => format!(
            "cty.TupleVal([]cty.Value{{{}}})",
            list(items.iter().map(go_syntax).collect())
        ),
        Value::Object(map) if map.is_empty() => "cty.EmptyObjectVal".into(),
        Value::Object(map) => format!(
            "cty.ObjectVal(map[string]cty.Value{{{}}})",
            list(
                map.iter()
                    .map(|(k, v)| format!("{k:?}:{}", go_syntax(v)))
                    .collect()
            )
        ),
    }
}

/// A number as go-cty writes it: an integer, a float64 that holds it exactly, or else
/// its decimal text.
fn go_number(text: &str) -> String {
    if let Ok(i) = text.parse::<i64>() {
        return format!("cty.NumberIntVal({i})");
    }
    match text.parse::<f64>() {
        Ok(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => {
            format!("cty.NumberIntVal({})", f as i64)
        }
        Ok(f) if holds_exactly(text) => format!("cty.NumberFloatVal({f})"),
        _ => format!("cty.MustParseNumberVal({text:?})"),
    }
}

/// Whether a decimal `text` (`0.25`, `1.5e-3`) is exactly a float64: a fraction whose
/// denominator, once reduced, is a power of two, with a small enough numerator.
fn holds_exactly(text: &str) -> bool {
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (text, 0),
    };
    let mantissa = mantissa.trim_start_matches('-');
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let Ok(mut numerator) = format!("{whole}{fraction}").parse::<u128>() else {
        return false;
    };
    let mut fives = fraction.len() as i32 - exponent;
    if fives < 0 {
        return false; // an integer, written with an exponent
    }
    while fives > 0 && numerator % 5 == 0 {
        numerator /= 5;
        fives -= 1;
    }
    fives == 0 && numerator < (1u128 << 53)
}

fn version(ctx: &mut Ctx<'_>, value: &Expr) {
    match decoded(value) {
        Some(serde_json::Value::String(s)) => {
            if !super::versions::is_constraint(&s) {
                ctx.error(
                    value.span,
                    "Invalid version constraint",
                    "This string does not use correct version constraint syntax.".into(),
                );
            }
        }
        // `Value(nil)` fails on a reference or call anywhere, a template's too.
        _ => ctx.error(
            value.span,
            "Invalid version constraint",
            "Version must be specified as a string.".into(),
        ),
    }
}

fn source(ctx: &mut Ctx<'_>, value: &Expr) {
    let Some(serde_json::Value::String(s)) = decoded(value) else {
        ctx.error(
            value.span,
            "Invalid source",
            "Source must be specified as a string.".into(),
        );
        return;
    };
    if let Some((summary, detail)) = source_error(&s, ctx.m.dialect) {
        ctx.error(value.span, summary, detail);
    }
}

/// `configuration_aliases`: `hcl.ExprList`, each element `hcl.AbsTraversalForExpr` (a
/// JSON string parsed as a traversal), then `ParseProviderConfigCompact`, whose local
/// name must be the entry's.
fn aliases(ctx: &mut Ctx<'_>, local_name: &str, value: &Expr) {
    let Some(items) = value.static_list() else {
        ctx.error(
            value.start_range(),
            "Invalid expression",
            "A static list expression is required.".into(),
        );
        return;
    };
    for item in &items {
        let Some(traversal) = item.static_traversal() else {
            ctx.error(item.span, "Invalid expression", NOT_A_REFERENCE.into());
            continue;
        };
        let (root, steps) = match &traversal.kind {
            ExprKind::Traversal { root, steps } => (&**root, steps.as_slice()),
            _ => (&traversal, &[][..]),
        };
        let root = match &root.kind {
            ExprKind::Variable(id) => id.name.to_string(),
            ExprKind::Bool(b) => b.to_string(),
            _ => "null".to_string(),
        };
        // `ParseProviderConfigCompact`: a second step must name the alias; it returns at
        // that name, so steps after it go unnoticed (`aws.a.b` is accepted).
        let compact = steps
            .first()
            .is_none_or(|s| matches!(s, TraversalStep::Attr(_)));
        if !compact {
            ctx.error(
                value.span,
                "Invalid configuration_aliases value",
                "Configuration aliases can only contain references to local provider configuration names in the format of provider.alias".into(),
            );
        } else if root != local_name {
            ctx.error(
                value.span,
                "Invalid configuration_aliases value",
                format!(
                    "Configuration aliases must be prefixed with the provider name. Expected {local_name:?}, but found {root:?}."
                ),
            );
        }
    }
}

/// `Duplicate required provider` (a warning): one provider type under two local names, or
/// a default provider required under another name than its provider block uses. Terraform
/// walks a map here, so which of two entries it names first can vary; Strata names the
/// later one in source order. Terraform checks this while building the module tree
/// (`validateProviderConfigs`), which it does only for modules that loaded.
pub(super) fn duplicate_types(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    let mut entries: Vec<(&String, &crate::merge::Attr)> =
        m.terraform.required_providers.iter().collect();
    entries.sort_by_key(|(_, a)| (a.file, a.attr.span.start));
    let mut seen: Vec<(&str, String)> = Vec::new();
    for (name, entry) in entries {
        let Some(source) = entry_source(entry) else {
            continue;
        };
        // Terraform keeps no requirement under a local name it refused.
        let refused = provider_part(name).map_or(true, |n| n != **name);
        if refused || source_error(&source, m.dialect).is_some() {
            continue;
        }
        let ty = display_source(&source);
        let origin = Origin {
            file: entry.file,
            span: entry.expr().span,
        };
        let warn = |detail: String| {
            at(
                m,
                origin,
                Severity::Warning,
                REQUIREMENT,
                "Duplicate required provider".into(),
                detail,
            )
        };
        if let Some((previous, _)) = seen.iter().find(|(_, t)| *t == ty) {
            out.push(warn(format!("Provider {ty} with the local name {name:?} was previously required as {previous:?}. A provider can only be required once within required_providers.")));
        } else if let Some(implied) = ty.strip_prefix("hashicorp/") {
            if implied != name && m.providers.keys().any(|(p, _)| p == implied) {
                out.push(warn(format!("Provider {ty} with the local name {name:?} was implicitly required via a configuration block as {implied:?}. The provider configuration block name must match the name used in required_providers.")));
            }
        }
        seen.push((name, ty));
    }
}

/// The provider type an entry declares, as Terraform displays it (`hashicorp/aws`); the
/// default provider of the local name when it has no `source`.
pub(super) fn entry_type(name: &str, entry: &crate::merge::Attr) -> String {
    entry_source(entry).map_or_else(|| format!("hashicorp/{name}"), |s| display_source(&s))
}

/// The literal `source` of an entry object.
pub(super) fn entry_source(entry: &crate::merge::Attr) -> Option<String> {
    crate::merge::entry_source(entry.expr()).map(str::to_string)
}

/// A provider source as Terraform displays it: lowercase, without the public registry's
/// host, with `hashicorp/` before a bare type.
pub(super) fn display_source(source: &str) -> String {
    let lower = source.to_lowercase();
    let parts: Vec<&str> = lower.split('/').collect();
    match parts.as_slice() {
        [t] => format!("hashicorp/{t}"),
        ["registry.terraform.io", ns, t] => format!("{ns}/{t}"),
        _ => lower,
    }
}
