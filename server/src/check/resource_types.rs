//! Resource types the provider of a resource does not have: for the built-in
//! `terraform.io/builtin/terraform` (`internal/builtin/providers/terraform`), whose types
//! Terraform knows without installing anything, and for every provider whose schema is
//! loaded (`SchemaLookup::NoSuchType`). The validate walk reports `Invalid resource type`,
//! `Invalid data source` or `Invalid ephemeral resource` at the type label and stops that
//! resource's validation before its body (`NodeValidatableResource.validateResource`);
//! `upstream.rs` drops what it never reaches. A `self` reference in what it still
//! evaluates (its postconditions and its first provisioner with the connection) fails
//! static validation with the reference's own `Invalid resource type`
//! (`staticValidateResourceReference`). A provider whose schema is not known says nothing.

use super::arguments::suggestion_among;
use super::provider_lookup::{body_kind, declarations};
use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Mode, Origin};
use crate::schema::{ProviderAddress, ProviderSchemaSource, SchemaLookup};
use crate::syntax::{Block, Body, Expr, ExprKind, Syntax};

/// Code of a resource type its provider does not have.
pub const RESOURCE_TYPE: &str = "invalid-resource-type";

/// The types the built-in provider has, by mode.
fn builtin_types(mode: Mode) -> &'static [&'static str] {
    match mode {
        Mode::Managed => &["terraform_data"],
        Mode::Data => &["terraform_remote_state"],
        Mode::Ephemeral => &[],
    }
}

/// A `resource`, `data` or `ephemeral` block of a primary file (top-level, or a data
/// block in a `check` block) whose type its provider lacks.
pub struct Unsupported<'a> {
    /// The file.
    pub file: u32,
    /// The block.
    pub block: &'a Block,
    /// Its mode.
    pub mode: Mode,
    /// Its provider.
    pub provider: ProviderAddress,
}

/// Every block of `m` whose type its provider does not have.
pub fn unsupported<'a>(
    m: &'a MergedModule,
    schemas: &dyn ProviderSchemaSource,
) -> Vec<Unsupported<'a>> {
    let mut found = Vec::new();
    for d in declarations(m) {
        // An override file may change the `provider` argument.
        let provider = match d.resource {
            Some(r) => r.provider.as_ref().map(|a| a.expr()),
            None => d.block.body.attribute("provider").map(|a| &a.expr),
        };
        let local = provider
            .and_then(provider_local_name)
            .unwrap_or_else(|| crate::merge::implied_local_name(d.type_name));
        let provider = m.local_provider(local);
        let lacking = if provider.is_builtin() {
            !builtin_types(d.mode).contains(&d.type_name)
        } else {
            schemas.lookup(&provider, body_kind(d.mode), d.type_name) == SchemaLookup::NoSuchType
        };
        if lacking {
            found.push(Unsupported {
                file: d.file,
                block: d.block,
                mode: d.mode,
                provider,
            });
        }
    }
    found
}

/// The diagnostics of each unsupported type: at its label, and at each `self` of what
/// Terraform still evaluates (native syntax only, as the rest of the walk).
pub(super) fn check(
    m: &MergedModule,
    schemas: &dyn ProviderSchemaSource,
    out: &mut Vec<Diagnostic>,
) {
    for u in unsupported(m, schemas) {
        let Some(label) = u.block.labels.first() else {
            continue;
        };
        let origin = Origin {
            file: u.file,
            span: label.span,
        };
        let (summary, detail) = unsupported_message(schemas, &u.provider, u.mode, &label.name);
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
            "{article} {adjective} resource type {:?} is not supported by provider \"{}\".",
            label.name, u.provider
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

/// The summary and detail `validateResource` gives a type its provider lacks: a type of
/// the other mode is named as such, else the closest type of this mode (the ephemeral
/// form has neither).
fn unsupported_message(
    schemas: &dyn ProviderSchemaSource,
    provider: &ProviderAddress,
    mode: Mode,
    type_name: &str,
) -> (&'static str, String) {
    let types = |mode: Mode| -> Vec<String> {
        if provider.is_builtin() {
            builtin_types(mode).iter().map(|t| t.to_string()).collect()
        } else {
            schemas.type_names(provider, body_kind(mode))
        }
    };
    let has = |mode| types(mode).iter().any(|t| t == type_name);
    let (summary, noun) = match mode {
        Mode::Managed => ("Invalid resource type", "resource type"),
        Mode::Data => ("Invalid data source", "data source"),
        Mode::Ephemeral => ("Invalid ephemeral resource", "ephemeral resource"),
    };
    let hint = match mode {
        Mode::Managed if has(Mode::Data) => format!("\n\nDid you intend to use the data source {type_name:?}? If so, declare this using a \"data\" block instead of a \"resource\" block."),
        Mode::Data if has(Mode::Managed) => format!("\n\nDid you intend to use the managed resource type {type_name:?}? If so, declare this using a \"resource\" block instead of a \"data\" block."),
        Mode::Ephemeral => String::new(),
        _ => {
            let names = types(mode);
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            suggestion_among(type_name, &names)
                .map(|s| format!(" Did you mean {s:?}?"))
                .unwrap_or_default()
        }
    };
    (
        summary,
        format!(
            "The provider {} does not support {noun} {type_name:?}.{hint}",
            provider.for_display()
        ),
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
