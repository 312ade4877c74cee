//! What the validate walk never reaches because something before it failed.
//!
//! - Within a resource (`NodeValidatableResource.Execute`): an unsupported type stops
//!   its validation before the body is decoded; its provisioners are validated in order
//!   only until the resource has an error (the first one always is); the connection is
//!   evaluated only as part of validating a provisioner.
//! - Between objects (Terraform's graph walk, `internal/dag`): an object whose
//!   evaluation failed makes every object that refers to it, directly or through others,
//!   be skipped with all it would have reported. The objects are resources, data
//!   sources, local values, outputs, a check block's assertions, provider
//!   configurations and each argument of a module call; only resources, data sources and
//!   local values are referred to by name here (a module call's outputs depend on the
//!   child's objects, which Strata checks on their own).

use std::collections::HashSet;

use super::resource_types::Unsupported;
use super::{Diagnostic, Severity};
use crate::merge::{MergedModule, ResourceKey};
use crate::syntax::{Block, Body, Span};

/// Drops from `walked` (the validate walk's diagnostics, after `stages`) what Terraform
/// never reaches, given the blocks whose type their provider lacks.
pub(super) fn apply(
    m: &MergedModule,
    walked: Vec<Diagnostic>,
    unsupported: &[Unsupported<'_>],
) -> Vec<Diagnostic> {
    let mut dropped: Vec<(u32, Span)> = Vec::new();
    for u in unsupported {
        dropped.extend(body_parts(&u.block.body).map(|s| (u.file, s)));
    }
    let in_any = |d: &Diagnostic, places: &[(u32, Span)]| {
        places.iter().any(|&(file, span)| within(m, d, file, span))
    };
    let walked: Vec<Diagnostic> = walked
        .into_iter()
        .filter(|d| !in_any(d, &dropped))
        .collect();
    let mut unreached: Vec<(u32, Span)> = Vec::new();
    for (file, block) in resource_blocks(m) {
        unreached.extend(provisioners_not_reached(m, &walked, file, block));
    }
    let walked: Vec<Diagnostic> = walked
        .into_iter()
        .filter(|d| !in_any(d, &unreached))
        .collect();
    let skipped = skipped_objects(m, &walked, unsupported);
    walked
        .into_iter()
        .filter(|d| !in_any(d, &skipped))
        .collect()
}

/// Whether `d` lies inside `span` of file `file`.
fn within(m: &MergedModule, d: &Diagnostic, file: u32, span: Span) -> bool {
    d.path == m.file(file).path && span.start <= d.span.start && d.span.end <= span.end
}

/// The parts of a resource body Terraform decodes with the resource type's schema: all
/// but the meta-arguments and the lifecycle, provisioner and connection blocks.
fn body_parts(body: &Body) -> impl Iterator<Item = Span> + '_ {
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

/// Every top-level managed resource block of the primary files: the blocks with
/// provisioners.
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
/// an error before them, and its connection block when no provisioner evaluates it.
fn provisioners_not_reached(
    m: &MergedModule,
    walked: &[Diagnostic],
    file: u32,
    block: &Block,
) -> Vec<(u32, Span)> {
    let provisioners: Vec<Span> = block
        .body
        .blocks_of("provisioner")
        .map(|b| b.span)
        .collect();
    if provisioners.is_empty() {
        return block
            .body
            .blocks_of("connection")
            .map(|b| (file, b.span))
            .collect();
    }
    let errors: Vec<&Diagnostic> = walked
        .iter()
        .filter(|d| d.severity == Severity::Error && within(m, d, file, block.span))
        .collect();
    // The provisioner a diagnostic belongs to, or the resource before any provisioner.
    let position = |d: &Diagnostic| {
        provisioners
            .iter()
            .position(|&p| within(m, d, file, p))
            .map_or(0, |i| i + 1)
    };
    // The connection's errors are found while validating the first provisioner.
    let Some(first_failed) = errors.iter().map(|d| position(d).max(1)).min() else {
        return Vec::new();
    };
    provisioners[first_failed..]
        .iter()
        .map(|&p| (file, p))
        .collect()
}

/// One object of the validate walk: where it is and what it refers to.
struct Object {
    /// Its address where other objects can refer to it (`terraform_data.a`,
    /// `data.x.y`, `local.name`).
    address: Option<String>,
    /// Its places.
    places: Vec<(u32, Span)>,
    /// The addresses its expressions refer to (containers of instances).
    refers_to: HashSet<String>,
}

/// The places of the objects Terraform skips because an object they refer to failed or
/// was skipped.
fn skipped_objects(
    m: &MergedModule,
    walked: &[Diagnostic],
    unsupported: &[Unsupported<'_>],
) -> Vec<(u32, Span)> {
    let objects = objects(m);
    let has_error = |o: &Object| {
        walked.iter().any(|d| {
            d.severity == Severity::Error && o.places.iter().any(|&(f, s)| within(m, d, f, s))
        })
    };
    let mut failed: HashSet<String> = objects
        .iter()
        .filter(|o| has_error(o))
        .filter_map(|o| o.address.clone())
        .collect();
    failed.extend(unsupported.iter().filter_map(|u| {
        let key = ResourceKey {
            mode: u.mode,
            type_name: u.block.label(0)?.to_string(),
            name: u.block.label(1)?.to_string(),
        };
        Some(key.to_string())
    }));
    let mut skipped = vec![false; objects.len()];
    loop {
        let mut changed = false;
        for (i, o) in objects.iter().enumerate() {
            // A reference to itself is its own error, not a dependency.
            let depends = |r: &String| failed.contains(r) && o.address.as_ref() != Some(r);
            if !skipped[i] && o.refers_to.iter().any(depends) {
                skipped[i] = true;
                failed.extend(o.address.clone());
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    objects
        .iter()
        .zip(skipped)
        .filter(|(_, s)| *s)
        .flat_map(|(o, _)| o.places.iter().copied())
        .collect()
}

/// The objects of the primary files.
fn objects(m: &MergedModule) -> Vec<Object> {
    let mut out = Vec::new();
    for (fi, file) in m.files.iter().enumerate() {
        let fi = fi as u32;
        if m.is_override_file(fi) {
            continue;
        }
        for block in &file.syntax.body.blocks {
            match &*block.kind.name {
                "resource" | "data" | "ephemeral" => out.push(resource(fi, block)),
                "check" => {
                    let mut asserts = Vec::new();
                    for b in &block.body.blocks {
                        match &*b.kind.name {
                            "data" => out.push(resource(fi, b)),
                            _ => asserts.push(b),
                        }
                    }
                    out.push(Object {
                        address: None,
                        places: asserts.iter().map(|b| (fi, b.span)).collect(),
                        refers_to: asserts.iter().flat_map(|b| refers_to(&b.body)).collect(),
                    });
                }
                "locals" => out.extend(block.body.attributes.iter().map(|a| Object {
                    address: Some(format!("local.{}", a.name.name)),
                    places: vec![(fi, a.span)],
                    refers_to: addresses(&a.expr).collect(),
                })),
                "module" => out.extend(block.body.attributes.iter().map(|a| Object {
                    address: None,
                    places: vec![(fi, a.span)],
                    refers_to: addresses(&a.expr).collect(),
                })),
                "output" | "provider" => out.push(Object {
                    address: None,
                    places: vec![(fi, block.span)],
                    refers_to: refers_to(&block.body).collect(),
                }),
                _ => {}
            }
        }
    }
    out
}

/// A resource, data source or ephemeral resource as an object.
fn resource(file: u32, block: &Block) -> Object {
    let prefix = match &*block.kind.name {
        "data" => "data.",
        "ephemeral" => "ephemeral.",
        _ => "",
    };
    let address = match (block.label(0), block.label(1)) {
        (Some(t), Some(n)) => Some(format!("{prefix}{t}.{n}")),
        _ => None,
    };
    Object {
        address,
        places: vec![(file, block.span)],
        refers_to: refers_to(&block.body).collect(),
    }
}

/// The addresses the expressions of `body` and its nested blocks refer to, but for the
/// arguments that name providers or attribute paths rather than objects.
fn refers_to(body: &Body) -> Box<dyn Iterator<Item = String> + '_> {
    let attributes = body
        .attributes
        .iter()
        .filter(|a| !matches!(&*a.name.name, "provider" | "ignore_changes"))
        .flat_map(|a| addresses(&a.expr).chain(quoted_dependencies(a)));
    Box::new(attributes.chain(body.blocks.iter().flat_map(|b| refers_to(&b.body))))
}

/// The deprecated quoted entries of a `depends_on` (`"terraform_data.a"`), which name
/// objects as the unquoted ones do.
fn quoted_dependencies(a: &crate::syntax::Attribute) -> Vec<String> {
    let crate::syntax::ExprKind::Tuple(items) = &a.expr.kind else {
        return Vec::new();
    };
    if &*a.name.name != "depends_on" {
        return Vec::new();
    }
    items
        .iter()
        .filter_map(|item| match &item.kind {
            crate::syntax::ExprKind::String(s) => s.split('[').next().map(str::to_string),
            _ => None,
        })
        .collect()
}

/// The objects an expression refers to, by address.
fn addresses(expr: &crate::syntax::Expr) -> impl Iterator<Item = String> {
    crate::eval::references(expr)
        .into_iter()
        .map(|r| r.container.unwrap_or(r.subject))
}
