//! Custom conditions (spec §2.6, §3.5): `precondition` and `postcondition` blocks of
//! resources, data sources and outputs, and `validation` blocks of variables (their
//! required arguments are the schema's, `decode.rs`): a condition must refer to something; a resource's conditions
//! may not refer to the resource itself; a validation must refer to its own variable.

use super::{at, Diagnostic, Severity};
use crate::eval::{parse_references, references};
use crate::merge::{MergedModule, Origin};
use crate::syntax::Block;

/// Code of a malformed custom condition.
pub const CONDITION: &str = "invalid-condition";

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for fi in 0..m.files.len() {
        if m.is_override_file(fi as u32) {
            continue; // Override files may not hold conditions at all (reported as such).
        }
        let file = fi as u32;
        for block in &file_blocks(m, file) {
            match (&*block.kind.name, block.label(0), block.label(1)) {
                (kind @ ("resource" | "data" | "ephemeral"), Some(t), Some(n)) => {
                    let own = match kind {
                        "resource" => format!("{t}.{n}"),
                        other => format!("{other}.{t}.{n}"),
                    };
                    for lc in block.body.blocks_of("lifecycle") {
                        for c in &lc.body.blocks {
                            if matches!(&*c.kind.name, "precondition" | "postcondition") {
                                condition(m, file, c, Some(&own), out);
                            }
                        }
                    }
                }
                ("check", Some(_), _) => {
                    for c in block.body.blocks_of("assert") {
                        condition(m, file, c, None, out);
                    }
                }
                ("output", Some(_), _) => {
                    for c in block.body.blocks_of("precondition") {
                        condition(m, file, c, None, out);
                    }
                    for c in block.body.blocks_of("postcondition") {
                        out.push(at(
                            m,
                            Origin {
                                file,
                                span: c.kind.span,
                            },
                            Severity::Error,
                            CONDITION,
                            "Postconditions are not allowed".into(),
                            "Output values can only have preconditions, not postconditions.".into(),
                        ));
                    }
                }
                ("variable", Some(name), _) => {
                    for c in block.body.blocks_of("validation") {
                        if condition(m, file, c, None, out) {
                            validation_refers_to_self(m, file, c, name, out);
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

fn file_blocks(m: &MergedModule, file: u32) -> Vec<std::sync::Arc<Block>> {
    m.file(file).syntax.body.blocks.clone()
}

/// Checks one condition block; returns whether it has a condition.
fn condition(
    m: &MergedModule,
    file: u32,
    c: &Block,
    own: Option<&str>,
    out: &mut Vec<Diagnostic>,
) -> bool {
    let kind = &*c.kind.name;
    let mut push = |span, summary: String, detail: String| {
        out.push(at(
            m,
            Origin { file, span },
            Severity::Error,
            CONDITION,
            summary,
            detail,
        ));
    };
    let Some(cond) = c.body.attribute("condition") else {
        return false;
    };
    // Any traversal counts (HCL's `Variables()`), even one that names no object.
    if parse_references(&cond.expr).is_empty() {
        push(
            cond.expr.span,
            format!("Invalid {kind} expression"),
            "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.".into(),
        );
        return true;
    }
    if let Some(own) = own {
        let message = c.body.attribute("error_message");
        // Terraform names the whole expression, once, whatever it refers to.
        for expr in std::iter::once(&cond.expr).chain(message.map(|a| &a.expr)) {
            let refers_to_self = references(expr)
                .iter()
                .any(|r| r.container.as_deref().unwrap_or(&r.subject) == own);
            if refers_to_self {
                push(
                    expr.span,
                    format!("Invalid reference in {kind}"),
                    format!("Configuration for {own} may not refer to itself."),
                );
            }
        }
    }
    true
}

fn validation_refers_to_self(
    m: &MergedModule,
    file: u32,
    c: &Block,
    name: &str,
    out: &mut Vec<Diagnostic>,
) {
    let Some(cond) = c.body.attribute("condition") else {
        return;
    };
    let own = format!("var.{name}");
    if references(&cond.expr).iter().any(|r| r.subject == own) {
        return;
    }
    out.push(at(
        m,
        Origin { file, span: cond.expr.span },
        Severity::Error,
        CONDITION,
        "Invalid variable validation condition".into(),
        format!("The condition for variable \"{name}\" must refer to var.{name} in order to test incoming values."),
    ));
}
