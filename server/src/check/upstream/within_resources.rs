//! The skips inside one resource: Terraform decodes no body of a resource whose type its
//! provider lacks, and validates provisioners in order only until the resource has an error.

use super::super::resource_types::Unsupported;
use super::super::{Diagnostic, Severity};
use crate::merge::MergedModule;
use crate::syntax::{Block, Body, Span};

/// Drops what Terraform never reaches inside a resource: the body of one whose type is
/// `unsupported`, and the provisioners after the resource's first error.
pub(super) fn skip_within_resources(
    m: &MergedModule,
    found: Vec<Diagnostic>,
    unsupported: &[Unsupported<'_>],
) -> Vec<Diagnostic> {
    let in_any = |d: &Diagnostic, places: &[(u32, Span)]| {
        places.iter().any(|&(file, span)| within(m, d, file, span))
    };
    let bodies: Vec<(u32, Span)> = unsupported
        .iter()
        .flat_map(|u| decoded_parts(&u.block.body).map(|s| (u.file, s)))
        .collect();
    let found: Vec<Diagnostic> = found.into_iter().filter(|d| !in_any(d, &bodies)).collect();
    let unreached: Vec<(u32, Span)> = resource_blocks(m)
        .flat_map(|(file, block)| provisioners_not_reached(m, &found, file, block))
        .collect();
    found
        .into_iter()
        .filter(|d| !in_any(d, &unreached))
        .collect()
}

/// Whether `d` lies inside `span` of file `file`.
fn within(m: &MergedModule, d: &Diagnostic, file: u32, span: Span) -> bool {
    d.path == m.file(file).path && span.start <= d.span.start && d.span.end <= span.end
}

/// The parts of a resource body Terraform decodes with the resource type's schema: all
/// but the meta-arguments and the lifecycle, provisioner and connection blocks.
fn decoded_parts(body: &Body) -> impl Iterator<Item = Span> + '_ {
    let meta = ["count", "for_each", "provider", "depends_on"];
    let special = ["lifecycle", "provisioner", "connection"];
    let attributes = body
        .attributes
        .iter()
        .filter(move |a| !meta.contains(&&*a.name.name))
        .map(|a| a.span);
    let blocks = body
        .blocks
        .iter()
        .filter(move |b| !special.contains(&&*b.kind.name))
        .map(|b| b.span);
    attributes.chain(blocks)
}

/// Every top-level managed resource block of the primary files.
fn resource_blocks(m: &MergedModule) -> impl Iterator<Item = (u32, &Block)> {
    m.files
        .iter()
        .enumerate()
        .filter(|(fi, _)| !m.is_override_file(*fi as u32))
        .flat_map(|(fi, f)| {
            f.syntax
                .body
                .blocks_of("resource")
                .map(move |b| (fi as u32, &**b))
        })
}

/// The provisioners of a resource Terraform does not validate because the resource had
/// an error before them (its connection's errors are found with the first one).
fn provisioners_not_reached(
    m: &MergedModule,
    found: &[Diagnostic],
    file: u32,
    block: &Block,
) -> Vec<(u32, Span)> {
    let provisioners: Vec<Span> = block
        .body
        .blocks_of("provisioner")
        .map(|b| b.span)
        .collect();
    // The provisioner a diagnostic belongs to (from 1), or 0 for the resource before any.
    let position = |d: &Diagnostic| {
        provisioners
            .iter()
            .position(|&p| within(m, d, file, p))
            .map_or(0, |i| i + 1)
    };
    let first_failed = found
        .iter()
        .filter(|d| d.severity == Severity::Error && within(m, d, file, block.span))
        .map(|d| position(d).max(1))
        .min();
    match first_failed {
        Some(first) => provisioners
            .get(first..)
            .unwrap_or_default()
            .iter()
            .map(|&p| (file, p))
            .collect(),
        None => Vec::new(),
    }
}
