//! The arguments of one file that are not in effect because of override files: an
//! argument of a primary file's block that an override replaced, or an override's
//! argument Terraform does not apply (what hover calls "Overridden" and "Not in effect").

use crate::merge::{Attr, FileIndex, MergedModule, ObjectRef, Origin};
use crate::syntax::{Attribute, Span};

/// An argument of a file that is not in effect, with the one in effect instead.
pub struct Replaced<'m> {
    /// Where the argument is written.
    pub span: Span,
    /// The argument in effect in its place (in an override file, or the base's), if any.
    pub by: Option<&'m Attr>,
}

/// The spans of the arguments of file `fi` that are not in effect.
pub fn overridden_arguments(m: &MergedModule, fi: FileIndex) -> Vec<Span> {
    replaced_arguments(m, fi)
        .into_iter()
        .map(|r| r.span)
        .collect()
}

/// The arguments of file `fi` that are not in effect, each with what is in effect.
pub fn replaced_arguments(m: &MergedModule, fi: FileIndex) -> Vec<Replaced<'_>> {
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

fn push_if_replaced<'m>(
    object: ObjectRef<'m>,
    fi: FileIndex,
    a: &Attribute,
    in_lifecycle: bool,
    out: &mut Vec<Replaced<'m>>,
) {
    let here = Origin {
        file: fi,
        span: a.span,
    };
    let effective = object.effective_attribute(&a.name.name, in_lifecycle);
    if effective.is_none_or(|effective| effective.origin() != here) {
        out.push(Replaced {
            span: a.span,
            by: effective,
        });
    }
}
