//! `import` blocks as Terraform decodes them (`internal/configs/import.go`, `module.go`):
//! `to` is the address of a managed resource instance, read as `addrs` parses resource
//! addresses; `provider` only where the resource is in this module; one import block
//! per resource instance.

use super::addresses::parse_resource_instance;
use super::json_strings::unwrap_json_reference;
use super::{at, range_text, Diagnostic, Severity};
use crate::merge::{header_span, MergedModule, Origin};
use crate::syntax::{Block, Span};

/// Code of an import block Terraform rejects.
pub const IMPORT: &str = "invalid-import";

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    let mut seen: Vec<(String, u32, Span)> = Vec::new();
    for (fi, file) in m.files.iter().enumerate() {
        if m.is_override_file(fi as u32) {
            continue;
        }
        for block in file.syntax.body.blocks_of("import") {
            import(m, fi as u32, block, &mut seen, out);
        }
    }
}

fn import(
    m: &MergedModule,
    file: u32,
    block: &Block,
    seen: &mut Vec<(String, u32, Span)>,
    out: &mut Vec<Diagnostic>,
) {
    let mut push = |span: Span, summary: String, detail: String| {
        out.push(at(
            m,
            Origin { file, span },
            Severity::Error,
            IMPORT,
            summary,
            detail,
        ));
    };
    let Some(to) = block.body.attribute("to") else {
        return;
    };
    let to_expr = match unwrap_json_reference(m, file, &to.expr) {
        Ok(e) => e,
        Err(errors) => {
            for (span, summary, detail) in errors {
                push(span, summary, detail);
            }
            return;
        }
    };
    let target = match parse_resource_instance(&to_expr) {
        Ok(t) => t,
        Err((span, detail)) => {
            push(span, "Invalid address".into(), detail);
            None
        }
    };
    if !target.as_ref().is_some_and(|t| t.managed) {
        push(
            to.span,
            "Invalid import address".into(),
            "Only managed resources can be imported.".into(),
        );
    }
    let Some(target) = target else { return };
    if let Some(p) = block.body.attribute("provider") {
        if target.in_module {
            push(
                p.span,
                "Invalid import provider argument".into(),
                "The provider argument can only be specified in import blocks that will generate configuration.\n\nUse the providers argument within the module block to configure providers for all resources within a module, including imported resources.".into(),
            );
        }
    }
    let Some(instance) = target.instance else {
        return;
    };
    if let Some((_, first_file, first_span)) = seen.iter().find(|(i, _, _)| *i == instance) {
        let first = range_text(
            m,
            Origin {
                file: *first_file,
                span: *first_span,
            },
        );
        let resource = &target.resource;
        push(
            to_expr.span,
            format!("Duplicate import configuration for {resource:?}"),
            format!("An import block for the resource {resource:?} was already declared at {first}. A resource can have only one import block."),
        );
    } else {
        seen.push((instance, file, header_span(block)));
    }
}
