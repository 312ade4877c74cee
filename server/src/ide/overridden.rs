//! The arguments of one file that are not in effect because of override files: an
//! argument of a primary file's block that an override replaced, or an override's
//! argument Terraform does not apply (what hover calls "Overridden" and "Not in effect").

use crate::merge::{FileIndex, MergedModule, ObjectRef, Origin};
use crate::syntax::{Attribute, Span};

/// The spans of the arguments of file `fi` that are not in effect.
pub fn overridden_arguments(m: &MergedModule, fi: FileIndex) -> Vec<Span> {
    let mut out = Vec::new();
    let file = m.file(fi);
    for block in &file.syntax.body.blocks {
        if &*block.kind.name == "locals" {
            for a in &block.body.attributes {
                if let Some(object) = m.object_at(fi, a.span.start as usize) {
                    push_if_replaced(object, fi, a, false, &mut out);
                }
            }
            continue;
        }
        let Some(object) = m.object_at(fi, block.kind.span.start as usize) else {
            continue;
        };
        for a in &block.body.attributes {
            push_if_replaced(object, fi, a, false, &mut out);
        }
        for lifecycle in block.body.blocks_of("lifecycle") {
            for a in &lifecycle.body.attributes {
                push_if_replaced(object, fi, a, true, &mut out);
            }
        }
    }
    out
}

fn push_if_replaced(
    object: ObjectRef<'_>,
    fi: FileIndex,
    a: &Attribute,
    in_lifecycle: bool,
    out: &mut Vec<Span>,
) {
    let here = Origin {
        file: fi,
        span: a.span,
    };
    let in_effect = object
        .effective_attribute(&a.name.name, in_lifecycle)
        .is_some_and(|effective| effective.origin() == here);
    if !in_effect {
        out.push(a.span);
    }
}
