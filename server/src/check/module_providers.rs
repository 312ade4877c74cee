//! What a call to a local child module may do with provider configurations
//! (`internal/configs/provider_validation.go`), for the rules whose place is the call,
//! checked with the calling module as the root (as `terraform validate` run in its
//! directory does):
//! - a child that configures its own providers may not be called with `count`,
//!   `for_each` or `depends_on` (`Module is incompatible with count, for_each, and
//!   depends_on`);
//! - the call may not pass a provider the child configures itself (`Cannot override
//!   provider configuration`);
//! - the call must pass every `configuration_aliases` entry the child does not configure
//!   (`Missing required provider configuration`).

use super::{at, ChildModules, Diagnostic, Severity};
use crate::merge::{literal_string, MergedModule, ModuleCall, Origin, Provider};
use crate::syntax::{Expr, ExprKind, Span, TraversalStep};

/// Code of a provider configuration a module call handles wrongly.
pub const MODULE_PROVIDERS: &str = "module-providers";

pub(super) fn check(m: &MergedModule, children: ChildModules<'_>, out: &mut Vec<Diagnostic>) {
    for call in m.module_calls.values() {
        let Some(source) = call.source.as_ref().and_then(|s| literal_string(s.expr())) else {
            continue;
        };
        let Some(child) = children(source) else {
            continue;
        };
        let configured: Vec<String> = child
            .providers
            .values()
            .filter(|p| is_configured(p))
            .map(|p| key(&p.name, p.alias.as_deref()))
            .collect();
        let passed = passed_in(call);
        let path = format!("module.{}", call.name);
        incompatible(m, call, source, &path, !configured.is_empty(), out);
        for (name, span) in &passed {
            if configured.contains(name) {
                out.push(at(
                    m,
                    Origin { file: call_file(call), span: *span },
                    Severity::Error,
                    MODULE_PROVIDERS,
                    "Cannot override provider configuration".into(),
                    format!("The configuration of {path} has its own local configuration for {name}, and so it cannot accept an overridden configuration provided by the root module."),
                ));
            }
        }
        for (name, provider) in configuration_aliases(&child) {
            if configured.contains(&name) || passed.iter().any(|(p, _)| *p == name) {
                continue;
            }
            out.push(at(
                m,
                call.provenance.decl,
                Severity::Error,
                MODULE_PROVIDERS,
                "Missing required provider configuration".into(),
                format!("The child module requires an additional configuration for provider {provider}, with the local name {name:?}.\n\nRefer to the module's documentation to understand the intended purpose of this additional provider configuration, and then add an entry for {name} in the \"providers\" meta-argument in the module block to choose which provider configuration the module should use for that purpose."),
            ));
        }
    }
}

/// The file of a call's primary declaration.
fn call_file(call: &ModuleCall) -> u32 {
    call.provenance.decl.file
}

/// `name` or `name.alias`, as Terraform keys provider configurations.
fn key(name: &str, alias: Option<&str>) -> String {
    match alias {
        Some(a) => format!("{name}.{a}"),
        None => name.to_string(),
    }
}

/// Whether a provider block configures anything (an empty one may be a proxy).
fn is_configured(p: &Provider) -> bool {
    p.version.is_some() || !p.config.attributes.is_empty() || !p.config.blocks.is_empty()
}

/// `Module is incompatible with count, for_each, and depends_on`, at the first of those
/// the call uses, when the child configures providers.
fn incompatible(
    m: &MergedModule,
    call: &ModuleCall,
    source: &str,
    path: &str,
    configures: bool,
    out: &mut Vec<Diagnostic>,
) {
    if !configures {
        return;
    }
    let place = call
        .count
        .as_ref()
        .or(call.for_each.as_ref())
        .map(|a| a.expr_origin())
        .or_else(|| {
            let deps = call.depends_on.as_ref()?;
            match &deps.expr().kind {
                ExprKind::Tuple(items) if !items.is_empty() => Some(Origin {
                    file: deps.file,
                    span: items[0].span,
                }),
                _ => Some(call.provenance.decl),
            }
        });
    let Some(place) = place else { return };
    out.push(at(
        m,
        place,
        Severity::Error,
        MODULE_PROVIDERS,
        "Module is incompatible with count, for_each, and depends_on".into(),
        format!("The module at {path} is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, or depends_on arguments.\n\nIf you also control the module {source:?}, consider updating this module to instead expect provider configurations to be passed by its caller."),
    ));
}

/// The child-side names of the `providers` map (`aws`, `aws.west`), with where each is
/// written.
fn passed_in(call: &ModuleCall) -> Vec<(String, Span)> {
    let Some(providers) = &call.providers else {
        return Vec::new();
    };
    let ExprKind::Object(items) = &providers.expr().kind else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|(k, _)| Some((provider_key(k)?, k.span)))
        .collect()
}

/// `aws` or `aws.west` written as a reference.
fn provider_key(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Variable(id) => Some(id.name.to_string()),
        ExprKind::Traversal { root, steps } => match (&root.kind, steps.as_slice()) {
            (ExprKind::Variable(id), [TraversalStep::Attr(a)]) => {
                Some(format!("{}.{}", id.name, a.name))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The child's `configuration_aliases` entries (`aws.west`) with the provider each is
/// for, as Terraform displays it (`hashicorp/aws`).
fn configuration_aliases(child: &MergedModule) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (name, entry) in &child.terraform.required_providers {
        let ExprKind::Object(items) = &entry.expr().kind else {
            continue;
        };
        let field = |wanted: &str| {
            items.iter().find(|(k, _)| match &k.kind {
                ExprKind::Variable(id) => &*id.name == wanted,
                ExprKind::String(s) => &**s == wanted,
                _ => false,
            })
        };
        let provider = field("source")
            .and_then(|(_, v)| literal_string(v))
            .map(display_provider)
            .unwrap_or_else(|| format!("hashicorp/{name}"));
        let Some((_, ExprKind::Tuple(aliases))) =
            field("configuration_aliases").map(|(k, v)| (k, &v.kind))
        else {
            continue;
        };
        for alias in aliases {
            if let Some(key) = provider_key(alias) {
                out.push((key, provider.clone()));
            }
        }
    }
    out
}

/// A provider source as Terraform displays it: lowercase, the public registry's host left
/// out, `hashicorp/` added to a bare type.
fn display_provider(source: &str) -> String {
    let lower = source.to_lowercase();
    let parts: Vec<&str> = lower.split('/').collect();
    match parts.as_slice() {
        [t] => format!("hashicorp/{t}"),
        ["registry.terraform.io", ns, t] => format!("{ns}/{t}"),
        _ => lower,
    }
}
