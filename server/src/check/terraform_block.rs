//! The `terraform` block's `language` and `experiments` arguments, as a Terraform
//! release reads them (`internal/configs/experiments.go`): only language edition TF2021
//! exists, and experiments are available only in alpha releases. OpenTofu ignores both
//! arguments in a `terraform` block (its own are in the top-level `language` block).
//! Also one `provider_meta` block per provider in a module (`module.go`).

use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Origin};
use crate::module::Module;
use crate::schema::Dialect;
use crate::syntax::{ExprKind, Span, Syntax};

/// Code of a language edition or experiment Terraform refuses.
pub const LANGUAGE: &str = "invalid-language-setting";

const FIRST_EDITION: &str = "TF2021";

pub(super) fn check(module: &Module, m: &MergedModule, out: &mut Vec<Diagnostic>) {
    provider_metas(m, out);
    if m.dialect != Dialect::Terraform {
        return;
    }
    let version = &module.core_version.version;
    for (fi, file) in m.files.iter().enumerate() {
        if file.syntax.syntax == Syntax::Json {
            continue;
        }
        let mut push = |span: Span, summary: &str, detail: String| {
            let origin = Origin {
                file: fi as u32,
                span,
            };
            out.push(at(
                m,
                origin,
                Severity::Error,
                LANGUAGE,
                summary.into(),
                detail,
            ));
        };
        for t in file.syntax.body.blocks_of("terraform") {
            if let Some(a) = t.body.attribute("language") {
                match &a.expr.kind {
                    ExprKind::Variable(kw) if &*kw.name == FIRST_EDITION => {}
                    ExprKind::Variable(kw) => {
                        let relation = if &*kw.name > FIRST_EDITION {
                            "newer"
                        } else {
                            "different"
                        };
                        push(
                            a.expr.span,
                            "Unsupported language edition",
                            format!("Terraform v{version} only supports language edition {FIRST_EDITION}. This module requires a {relation} version of Terraform CLI."),
                        );
                    }
                    _ => push(
                        a.expr.span,
                        "Invalid language edition",
                        format!("The language argument expects a bare language edition keyword. Terraform {version} supports only language edition {FIRST_EDITION}, which is the default."),
                    ),
                }
            }
            if let Some(a) = t.body.attribute("experiments") {
                push(
                    a.name.span,
                    "Module uses experimental features",
                    "Experimental features are intended only for gathering early feedback on new language designs, and so are available only in alpha releases of Terraform.".into(),
                );
            }
        }
    }
}

/// `Duplicate provider_meta block` for a second one for the same provider.
fn provider_metas(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    let mut seen: Vec<(String, Origin)> = Vec::new();
    for (fi, file) in m.files.iter().enumerate() {
        if m.is_override_file(fi as u32) {
            continue; // Terraform ignores provider_meta in override files.
        }
        for t in file.syntax.body.blocks_of("terraform") {
            for meta in t.body.blocks_of("provider_meta") {
                let Some(provider) = meta.label(0) else {
                    continue;
                };
                let here = Origin {
                    file: fi as u32,
                    span: crate::merge::header_span(meta),
                };
                match seen.iter().find(|(p, _)| p == provider) {
                    Some((_, first)) => out.push(at(
                        m,
                        here,
                        Severity::Error,
                        LANGUAGE,
                        "Duplicate provider_meta block".into(),
                        format!(
                            "A provider_meta block for provider {provider:?} was already declared at {}. Providers may only have one provider_meta block per module.",
                            super::range_text(m, *first)
                        ),
                    )),
                    None => seen.push((provider.to_string(), here)),
                }
            }
        }
    }
}
