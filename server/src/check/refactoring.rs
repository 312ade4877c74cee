//! `moved` and `removed` blocks (spec §3.8, §3.9): address kinds, what a `removed` block
//! may target and hold, and, at plan time only, a removed object that is still declared.

use super::endpoints::{self, Removes};
use super::{at, range_text, Diagnostic, Severity};
use crate::merge::{header_span, MergedModule, Mode, Origin, ResourceKey};
use crate::module::Dialect;
use crate::syntax::{Block, Expr, ExprKind, Span, TraversalStep};

/// Code of a malformed `moved` or `removed` block.
pub const REFACTORING: &str = "invalid-refactoring-block";

/// What an address in a `moved` or `removed` block points at.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    Module(String),
    Resource {
        mode: Mode,
        type_name: String,
        name: String,
        in_module: bool,
    },
}

/// Reads `module.a[0].aws_instance.b`, `data.t.n`, `t.n`, ...
fn target(expr: &Expr) -> Option<Target> {
    let expr = super::endpoints::as_reference(expr);
    let mut parts: Vec<String> = Vec::new();
    let (root, steps) = match &expr.kind {
        ExprKind::Variable(id) => (id.name.to_string(), &[][..]),
        ExprKind::Traversal { root, steps } => match &root.kind {
            ExprKind::Variable(id) => (id.name.to_string(), steps.as_slice()),
            _ => return None,
        },
        _ => return None,
    };
    parts.push(root);
    for step in steps {
        if let TraversalStep::Attr(id) = step {
            parts.push(id.name.to_string());
        }
    }
    let mut i = 0;
    let mut in_module = false;
    let mut last_module = None;
    while parts.get(i).map(String::as_str) == Some("module") {
        last_module = Some(parts.get(i + 1)?.clone());
        in_module = true;
        i += 2;
    }
    let rest = &parts[i..];
    match rest {
        [] => last_module.map(Target::Module),
        [mode, type_name, name] if mode == "data" || mode == "ephemeral" => {
            Some(Target::Resource {
                mode: if mode == "data" {
                    Mode::Data
                } else {
                    Mode::Ephemeral
                },
                type_name: type_name.clone(),
                name: name.clone(),
                in_module,
            })
        }
        [type_name, name] => Some(Target::Resource {
            mode: Mode::Managed,
            type_name: type_name.clone(),
            name: name.clone(),
            in_module,
        }),
        _ => None,
    }
}

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for (fi, file) in m.files.iter().enumerate() {
        if m.is_override_file(fi as u32) {
            continue; // Reported as not allowed in overrides.
        }
        for block in &file.syntax.body.blocks {
            match &*block.kind.name {
                "moved" => moved(m, fi as u32, block, out),
                "removed" => removed(m, fi as u32, block, out),
                _ => {}
            }
        }
    }
}

/// Whether every one of `args` is set (`decode.rs` reports the missing ones).
fn required(block: &Block, args: &[&str]) -> bool {
    args.iter().all(|arg| block.body.attribute(arg).is_some())
}

fn moved(m: &MergedModule, file: u32, block: &Block, out: &mut Vec<Diagnostic>) {
    if !required(block, &["from", "to"]) {
        return;
    }
    let (Some(from), Some(to)) = (block.body.attribute("from"), block.body.attribute("to")) else {
        return;
    };
    let (Some(from), Some(to)) = (target(&from.expr), target(&to.expr)) else {
        return;
    };
    let is_module = |t: &Target| matches!(t, Target::Module(_));
    if is_module(&from) != is_module(&to) {
        out.push(at(
            m,
            Origin { file, span: header_span(block) },
            Severity::Error,
            REFACTORING,
            "Invalid \"moved\" addresses".into(),
            "The \"from\" and \"to\" addresses must either both refer to resources or both refer to modules.".into(),
        ));
    }
}

fn removed(m: &MergedModule, file: u32, block: &Block, out: &mut Vec<Diagnostic>) {
    let mut push = |span: Span, summary: &str, detail: String| {
        out.push(at(
            m,
            Origin { file, span },
            Severity::Error,
            REFACTORING,
            summary.into(),
            detail,
        ));
    };
    if m.dialect == Dialect::OpenTofu {
        removed_tofu(block, &mut push);
        return;
    }
    if let Some(from) = block.body.attribute("from") {
        if let Some(Target::Resource {
            mode: Mode::Data, ..
        }) = target(&from.expr)
        {
            push(from.expr.span, "Data source address not allowed", "Data sources are never destroyed, so they are not valid targets of removed blocks. To remove the data source from state, remove the data source block from configuration.".into());
        }
    }
    // Terraform decodes connections and provisioners only for a managed resource.
    let managed = endpoints::removes(block) == Some(Removes::Resource { managed: true });
    let mut seen_connection: Option<&Block> = None;
    for nested in &block.body.blocks {
        let span = header_span(nested);
        match &*nested.kind.name {
            "connection" if !managed => push(span, "Invalid connection block", "Provisioner connection configuration is valid only when a removed block targets a managed resource.".into()),
            "connection" => match seen_connection {
                Some(first) => {
                    let first = range_text(m, Origin { file, span: header_span(first) });
                    push(span, "Duplicate connection block", format!("This \"removed\" block already has a connection block at {first}."));
                }
                None => seen_connection = Some(nested),
            },
            "provisioner" if !managed => push(span, "Invalid provisioner block", "Provisioners are valid only when a removed block targets a managed resource.".into()),
            "provisioner" if !destroy_time(nested) => push(span, "Invalid provisioner block", "Only destroy-time provisioners are valid in \"removed\" blocks. To declare a destroy-time provisioner, use:\n    when = destroy".into()),
            _ => {}
        }
    }
}

/// OpenTofu's reading of a `removed` block (`internal/configs/removed.go`): data
/// sources and ephemeral resources are not targets, provisioners must run at destroy
/// time and need a resource target.
fn removed_tofu(block: &Block, push: &mut impl FnMut(Span, &str, String)) {
    let from = block.body.attribute("from");
    let target = from.and_then(|a| target(&a.expr));
    if let (Some(a), Some(Target::Resource { mode, .. })) = (from, &target) {
        match mode {
            Mode::Data => push(a.expr.span, "Data source address is not allowed", "Data sources are never destroyed, so they are not valid targets of removed blocks. To remove the data source from state, remove the data source block from configuration.".into()),
            Mode::Ephemeral => push(a.expr.span, "Ephemeral resource address is not allowed", "Ephemeral resources are never stored in state, so they are not valid targets of removed blocks.".into()),
            Mode::Managed => {}
        }
    }
    for p in block.body.blocks_of("provisioner") {
        if !destroy_time(p) {
            push(header_span(p), "Invalid \"removed.provisioner\" block", "\"removed\" blocks can only contain destroy provisioners. \"removed.provisioner.when = destroy\" expected".into());
        } else if matches!(target, Some(Target::Module(_))) {
            push(header_span(block), "Invalid \"removed\" block", "\"removed\" blocks containing \"provisioner\"s can only target resources. Found one block that is targeting a module".into());
        }
    }
}

/// Whether a provisioner runs at destroy time (`when = destroy`).
fn destroy_time(provisioner: &Block) -> bool {
    provisioner
        .body
        .attribute("when")
        .is_some_and(|w| matches!(&w.expr.kind, ExprKind::Variable(id) if &*id.name == "destroy"))
}

/// `Removed resource still exists` (and its module and OpenTofu twins), which Terraform
/// reports when it plans (`internal/refactoring/remove_statement.go`), not when it
/// validates: a `removed` block whose object the configuration still declares.
pub(super) fn removed_still_declared(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for (fi, file) in m.files.iter().enumerate() {
        if m.is_override_file(fi as u32) {
            continue;
        }
        for block in file.syntax.body.blocks_of("removed") {
            let Some(from) = block.body.attribute("from").and_then(|a| target(&a.expr)) else {
                continue;
            };
            let push = |origin: Origin, summary: &str, detail: String| {
                out.push(at(
                    m,
                    origin,
                    Severity::Error,
                    REFACTORING,
                    summary.into(),
                    detail,
                ));
            };
            still_declared(m, fi as u32, block, &from, push);
        }
    }
}

/// A removed object that the configuration still declares.
fn still_declared(
    m: &MergedModule,
    file: u32,
    block: &Block,
    from: &Target,
    mut push: impl FnMut(Origin, &str, String),
) {
    let tofu = m.dialect == Dialect::OpenTofu;
    let (decl, address, kind) = match from {
        Target::Module(name) => match m.module_calls.get(name) {
            Some(c) => (c.provenance.decl, format!("module.{name}"), "module"),
            None => return,
        },
        Target::Resource {
            mode,
            type_name,
            name,
            in_module: false,
        } => {
            let key = ResourceKey {
                mode: *mode,
                type_name: type_name.clone(),
                name: name.clone(),
            };
            match m.resources.get(&key) {
                Some(r) => (r.provenance.decl, key.to_string(), "resource"),
                None => return,
            }
        }
        Target::Resource { .. } => return,
    };
    let detail = format!("This statement declares that {address} was removed, but it is still declared in configuration.");
    if tofu {
        let summary = if kind == "module" {
            "Removed module block still exists"
        } else {
            "Removed resource block still exists"
        };
        push(
            Origin {
                file,
                span: header_span(block),
            },
            summary,
            detail,
        );
    } else {
        let summary = if kind == "module" {
            "Removed module still exists"
        } else {
            "Removed resource still exists"
        };
        push(decl, summary, detail);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{parse, Syntax};

    fn t(src: &str) -> Option<Target> {
        let file = parse(&format!("x = {src}\n"), Syntax::Native, None);
        target(&file.body.attributes[0].expr)
    }

    #[test]
    fn addresses_are_read_as_terraform_reads_them() {
        assert_eq!(t("module.a"), Some(Target::Module("a".into())));
        assert_eq!(t("module.a.module.b"), Some(Target::Module("b".into())));
        assert!(matches!(
            t("aws_instance.x"),
            Some(Target::Resource {
                mode: Mode::Managed,
                in_module: false,
                ..
            })
        ));
        assert!(matches!(
            t("module.a.aws_instance.x"),
            Some(Target::Resource {
                in_module: true,
                ..
            })
        ));
        assert!(matches!(
            t("data.t.n"),
            Some(Target::Resource {
                mode: Mode::Data,
                ..
            })
        ));
    }
}
