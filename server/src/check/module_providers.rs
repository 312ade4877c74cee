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
//!   (`Missing required provider configuration`);
//! - what the call passes must be declared on both sides (`Reference to undefined
//!   provider`, warnings) and be the same provider type (`Provider type mismatch`);
//! - a child's empty provider blocks are deprecated proxies (`Redundant empty provider
//!   block`, a warning placed in the child's file).

use super::required_providers::{display_source, entry_type};
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
        passing(m, &child, call, &path, &configured, out);
        redundant_empty(&child, &path, out);
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
    pairs(call)
        .into_iter()
        .map(|p| (p.child, p.child_span))
        .collect()
}

/// One entry of a call's `providers` map.
struct Pair {
    /// `aws` or `aws.west` in the child.
    child: String,
    child_span: Span,
    /// `aws` or `aws.east` in the caller.
    parent: String,
    parent_span: Span,
}

fn pairs(call: &ModuleCall) -> Vec<Pair> {
    let Some(providers) = &call.providers else {
        return Vec::new();
    };
    let ExprKind::Object(items) = &providers.expr().kind else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|(k, v)| {
            Some(Pair {
                child: provider_key(k)?,
                child_span: k.span,
                parent: provider_key(v)?,
                parent_span: v.span,
            })
        })
        .collect()
}

/// The local names a module's `required_providers` declares, with their provider types
/// as Terraform displays them, in source order.
fn local_names(m: &MergedModule) -> Vec<(String, String)> {
    let mut names: Vec<(&String, &crate::merge::Attr)> =
        m.terraform.required_providers.iter().collect();
    names.sort_by_key(|(_, a)| (a.file, a.attr.span.start));
    names
        .into_iter()
        .map(|(name, entry)| (name.clone(), entry_type(name, entry)))
        .collect()
}

/// The provider type of a local name in `m`: its `required_providers` entry, else the
/// default provider of that name.
fn type_of(names: &[(String, String)], local: &str) -> String {
    let bare = local.split('.').next().unwrap_or(local);
    names
        .iter()
        .find(|(n, _)| n == local)
        .map_or_else(|| format!("hashicorp/{bare}"), |(_, t)| t.clone())
}

/// `Reference to undefined provider` on both sides of each `providers` entry, and
/// `Provider type mismatch`.
fn passing(
    m: &MergedModule,
    child: &MergedModule,
    call: &ModuleCall,
    path: &str,
    configured_in_child: &[String],
    out: &mut Vec<Diagnostic>,
) {
    let file = call_file(call);
    let parent_names = local_names(m);
    let child_names = local_names(child);
    let parent_configured: Vec<String> = m
        .providers
        .values()
        .filter(|p| is_configured(p))
        .map(|p| key(&p.name, p.alias.as_deref()))
        .collect();
    let child_aliases: Vec<String> = configuration_aliases(child)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let child_empty: Vec<String> = child
        .providers
        .values()
        .filter(|p| !is_configured(p))
        .map(|p| key(&p.name, p.alias.as_deref()))
        .collect();
    let mut push = |severity, span, summary: &str, detail: String| {
        out.push(at(
            m,
            Origin { file, span },
            severity,
            MODULE_PROVIDERS,
            summary.into(),
            detail,
        ));
    };
    for p in pairs(call) {
        let parent_declared = parent_configured.contains(&p.parent)
            || parent_names.iter().any(|(n, _)| *n == p.parent);
        if !p.parent.contains('.') && !parent_declared {
            let default = format!("hashicorp/{}", p.parent);
            push(
                Severity::Warning,
                p.parent_span,
                "Reference to undefined provider",
                format!("There is no explicit declaration for local provider name {:?} in the root module, so Terraform is assuming you mean to pass a configuration for provider {default:?}.\n\nTo clarify your intent and silence this warning, add to the root module a required_providers entry named {:?} with source = {default:?}, or a different source address if appropriate.", p.parent, p.parent),
            );
        }
        let child_type = type_of(&child_names, &p.child);
        let child_declared = child_names.iter().any(|(n, _)| *n == p.child)
            || child_aliases.contains(&p.child)
            || child_empty.contains(&p.child);
        if !child_declared
            && child_type.starts_with("hashicorp/")
            && !configured_in_child.contains(&p.child)
        {
            push(
                Severity::Warning,
                p.child_span,
                "Reference to undefined provider",
                format!("There is no explicit declaration for local provider name {:?} in {path}, so Terraform is assuming you mean to pass a configuration for {child_type:?}.\n\nIf you also control the child module, add a required_providers entry named {:?} with the source address {child_type:?}.", p.child, p.child),
            );
        }
        // Terraform looks the parent's requirement up under the child's name.
        let parent_bare = p.parent.split('.').next().unwrap_or(&p.parent);
        let parent_type = parent_names
            .iter()
            .find(|(n, _)| *n == p.child)
            .map_or_else(|| format!("hashicorp/{parent_bare}"), |(_, t)| t.clone());
        if parent_type == child_type {
            continue;
        }
        let child_bare = p.child.split('.').next().unwrap_or(&p.child);
        match child_names.iter().find(|(_, t)| *t == parent_type) {
            Some((other, _)) => push(
                Severity::Error,
                p.child_span,
                "Provider type mismatch",
                format!("The assigned configuration is for provider {parent_type:?}, but local name {child_bare:?} in the root module represents {child_type:?}.\n\nTo pass this configuration to the child module, use the local name {other:?} instead."),
            ),
            None => push(
                Severity::Error,
                p.parent_span,
                "Provider type mismatch",
                format!("The local name {:?} in the root module represents provider {parent_type:?}, but {:?} in {path} represents {child_type:?}.\n\nEach provider has its own distinct configuration schema and provider types, so this module's {:?} can be assigned only a configuration for {child_type}, which is not required by {path}.", p.parent, p.child, p.child),
            ),
        }
    }
}

/// `Redundant empty provider block`, one per provider local name, on the first of the
/// child's empty provider blocks for it.
fn redundant_empty(child: &MergedModule, path: &str, out: &mut Vec<Diagnostic>) {
    let names = local_names(child);
    let mut by_name: Vec<(String, Vec<String>, Vec<Origin>)> = Vec::new();
    for p in child.providers.values().filter(|p| !is_configured(p)) {
        let config = key(&p.name, p.alias.as_deref());
        match by_name.iter_mut().find(|(n, _, _)| *n == p.name) {
            Some((_, configs, places)) => {
                configs.push(config);
                places.push(p.provenance.decl);
            }
            None => by_name.push((p.name.clone(), vec![config], vec![p.provenance.decl])),
        }
    }
    for (name, mut configs, places) in by_name {
        let source = names
            .iter()
            .find(|(n, _)| *n == name)
            .map_or_else(|| format!("hashicorp/{name}"), |(_, t)| t.clone());
        let mut detail = format!("Earlier versions of Terraform used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider {name:?} blocks and then adding or updating an entry like the following to the required_providers block of {path}:\n    {name} = {{\n      source = {source:?}\n");
        if configs.iter().any(|c| c.contains('.')) {
            configs.sort();
            detail.push_str("      configuration_aliases = [\n");
            for c in &configs {
                detail.push_str(&format!("        {c},\n"));
            }
            detail.push_str("      ]\n");
        }
        detail.push_str("    }");
        let Some(first) = places.iter().min_by_key(|o| super::range_text(child, **o)) else {
            continue;
        };
        out.push(at(
            child,
            *first,
            Severity::Warning,
            MODULE_PROVIDERS,
            "Redundant empty provider block".into(),
            detail,
        ));
    }
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
            .map(display_source)
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
