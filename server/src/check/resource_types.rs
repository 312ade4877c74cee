//! Resource types the provider of a resource does not have, for the one provider whose
//! schema Terraform knows without installing anything: the built-in
//! `terraform.io/builtin/terraform` (`internal/builtin/providers/terraform`). The
//! validate walk reports `Invalid resource type`, `Invalid data source` or `Invalid
//! ephemeral resource` at the type label and stops that resource's validation before
//! its body (`NodeValidatableResource.validateResource`); `upstream.rs` drops what it
//! never reaches. A `self` reference in what it still evaluates (its postconditions and
//! its first provisioner with the connection) fails static validation with the
//! reference's own `Invalid resource type` (`staticValidateResourceReference`).
//! Other providers' types need their schemas, which Strata does not have yet.

use super::arguments::suggestion_among;
use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Mode, Origin, ResourceKey};
use crate::syntax::{Block, Body, Expr, ExprKind, Syntax};

/// Code of a resource type its provider does not have.
pub const RESOURCE_TYPE: &str = "invalid-resource-type";

/// The built-in provider, as Terraform displays it.
const BUILTIN: &str = "terraform.io/builtin/terraform";

/// The types the built-in provider has, by mode.
fn builtin_types(mode: Mode) -> &'static [&'static str] {
    match mode {
        Mode::Managed => &["terraform_data"],
        Mode::Data => &["terraform_remote_state"],
        Mode::Ephemeral => &[],
    }
}

/// A `resource`, `data` or `ephemeral` block of a primary file (top-level, or a data
/// block in a `check` block) whose type the built-in provider, its provider, lacks.
pub struct Unsupported<'a> {
    /// The file.
    pub file: u32,
    /// The block.
    pub block: &'a Block,
    /// Its mode.
    pub mode: Mode,
}

/// Every block of `m` whose type its provider (the built-in one) does not have.
pub fn unsupported(m: &MergedModule) -> Vec<Unsupported<'_>> {
    let mut found = Vec::new();
    for (fi, file) in m.files.iter().enumerate() {
        if m.is_override_file(fi as u32) {
            continue;
        }
        let nested = file
            .syntax
            .body
            .blocks_of("check")
            .flat_map(|c| c.body.blocks_of("data"));
        let blocks = file.syntax.body.blocks.iter().chain(nested);
        for block in blocks {
            let mode = match &*block.kind.name {
                "resource" => Mode::Managed,
                "data" => Mode::Data,
                "ephemeral" => Mode::Ephemeral,
                _ => continue,
            };
            let (Some(type_name), Some(name)) = (block.label(0), block.label(1)) else {
                continue;
            };
            let key = ResourceKey {
                mode,
                type_name: type_name.to_string(),
                name: name.to_string(),
            };
            // An override file may change the `provider` argument.
            let provider = match m.resources.get(&key) {
                Some(r) => r.provider.as_ref().map(|a| a.expr()),
                None => block.body.attribute("provider").map(|a| &a.expr),
            };
            let local = provider
                .and_then(provider_local_name)
                .unwrap_or_else(|| implied_local_name(type_name));
            if is_builtin(m, local) && !builtin_types(mode).contains(&type_name) {
                found.push(Unsupported {
                    file: fi as u32,
                    block,
                    mode,
                });
            }
        }
    }
    found
}

/// The diagnostics of each unsupported type: at its label, and at each `self` of what
/// Terraform still evaluates (native syntax only, as the rest of the walk).
pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for u in unsupported(m) {
        let Some(label) = u.block.labels.first() else {
            continue;
        };
        let origin = Origin {
            file: u.file,
            span: label.span,
        };
        let (summary, detail) = unsupported_message(u.mode, &label.name);
        out.push(at(
            m,
            origin,
            Severity::Error,
            RESOURCE_TYPE,
            summary.into(),
            detail,
        ));
        if m.file(u.file).syntax.syntax == Syntax::Json {
            continue;
        }
        let (article, adjective) = match u.mode {
            Mode::Managed => ("A", "managed"),
            Mode::Data => ("A", "data"),
            Mode::Ephemeral => ("An", "ephemeral"),
        };
        let detail = format!(
            "{article} {adjective} resource type {:?} is not supported by provider {BUILTIN:?}.",
            label.name
        );
        let mut selves = Vec::new();
        for b in &u.block.body.blocks {
            match &*b.kind.name {
                "lifecycle" => b
                    .body
                    .blocks_of("postcondition")
                    .for_each(|c| self_references(&c.body, &mut selves)),
                "provisioner" | "connection" => self_references(&b.body, &mut selves),
                _ => {}
            }
        }
        for span in selves {
            let origin = Origin { file: u.file, span };
            out.push(at(
                m,
                origin,
                Severity::Error,
                RESOURCE_TYPE,
                "Invalid resource type".into(),
                detail.clone(),
            ));
        }
    }
}

/// The summary and detail `validateResource` gives a type the built-in provider lacks:
/// a type of the other mode is named as such, else the closest type of this mode (the
/// ephemeral form has neither).
fn unsupported_message(mode: Mode, type_name: &str) -> (&'static str, String) {
    let has = |mode| builtin_types(mode).contains(&type_name);
    let (summary, noun) = match mode {
        Mode::Managed => ("Invalid resource type", "resource type"),
        Mode::Data => ("Invalid data source", "data source"),
        Mode::Ephemeral => ("Invalid ephemeral resource", "ephemeral resource"),
    };
    let hint = match mode {
        Mode::Managed if has(Mode::Data) => format!("\n\nDid you intend to use the data source {type_name:?}? If so, declare this using a \"data\" block instead of a \"resource\" block."),
        Mode::Data if has(Mode::Managed) => format!("\n\nDid you intend to use the managed resource type {type_name:?}? If so, declare this using a \"resource\" block instead of a \"data\" block."),
        Mode::Ephemeral => String::new(),
        _ => suggestion_among(type_name, builtin_types(mode))
            .map(|s| format!(" Did you mean {s:?}?"))
            .unwrap_or_default(),
    };
    (
        summary,
        format!("The provider {BUILTIN} does not support {noun} {type_name:?}.{hint}"),
    )
}

/// Where `self` is referred to in `body` and the blocks nested in it.
fn self_references(body: &Body, out: &mut Vec<crate::syntax::Span>) {
    for a in &body.attributes {
        out.extend(
            crate::eval::references(&a.expr)
                .into_iter()
                .filter(|r| r.subject == "self")
                .map(|r| r.subject_span),
        );
    }
    for b in &body.blocks {
        self_references(&b.body, out);
    }
}

/// The provider local name a `provider` argument names: `terraform` of `terraform.x`,
/// also in the deprecated quoted form.
fn provider_local_name(expr: &Expr) -> Option<&str> {
    match &expr.kind {
        ExprKind::Variable(id) => Some(&id.name),
        ExprKind::Traversal { root, .. } => match &root.kind {
            ExprKind::Variable(id) => Some(&id.name),
            _ => None,
        },
        ExprKind::String(s) => s.split('.').next(),
        _ => None,
    }
}

/// The provider local name a resource type implies: the part before its first `_`.
fn implied_local_name(type_name: &str) -> &str {
    type_name.split('_').next().unwrap_or(type_name)
}

/// Whether a provider local name stands for the built-in provider in `m`: its
/// `required_providers` source says so, or, with none, the name is `terraform`
/// (`addrs.ImpliedProviderForUnqualifiedType`).
fn is_builtin(m: &MergedModule, local: &str) -> bool {
    m.local_provider(local).is_builtin()
}
