//! The pieces of one top-level object the validate walk evaluates, taken from the merged
//! model (`merge::MergedModule`): Terraform evaluates the configuration after override
//! files are merged, so an argument an override replaced is never evaluated, the
//! override's is, and a `count` or `for_each` an override sets gives the base block's
//! body its instance keys. A block that merged into nothing (a duplicate declaration, an
//! override without a base, a block of the wrong shape) is read as written: the loader
//! rejects it, and the editor still shows what its expressions would give.

use crate::merge::{header_span, Attr, MergedModule, Mode, Nested, Origin, Provenance};
use crate::merge::{ModuleCall, Output, Provider, Resource, ResourceKey, Variable};
use crate::syntax::{Attribute, Block, Body};

/// A piece of syntax with the file it is written in.
pub(super) type In<'a, T> = (u32, &'a T);

/// What a top-level block is to the merged model.
pub(super) enum Role<'a> {
    /// It declares this merged object, which the walk reads instead of the block.
    Declares(Parts<'a>),
    /// It is an override merged into an object declared elsewhere: read there.
    Merged,
    /// It merged into nothing: read as written.
    Alone,
}

/// The pieces of an object, each with its file.
#[derive(Default)]
pub(super) struct Parts<'a> {
    /// `count`.
    pub count: Option<In<'a, Attribute>>,
    /// `for_each`.
    pub for_each: Option<In<'a, Attribute>>,
    /// The arguments of the body (meta-arguments left out).
    pub attributes: Vec<In<'a, Attribute>>,
    /// The nested blocks of the body (`lifecycle`, `provisioner`, `connection` left out).
    pub blocks: Vec<In<'a, Block>>,
    /// Resource conditions, output preconditions or variable validations.
    pub conditions: Vec<In<'a, Block>>,
    /// `provisioner` blocks.
    pub provisioners: Vec<In<'a, Block>>,
    /// `connection` blocks.
    pub connections: Vec<In<'a, Block>>,
}

/// The role of top-level block `block` of file `file`.
pub(super) fn role<'a>(m: &'a MergedModule, file: u32, block: &'a Block) -> Role<'a> {
    let here = Origin {
        file,
        span: header_span(block),
    };
    let label = |i| block.label(i).map(str::to_string);
    let labels = block.labels.len();
    match &*block.kind.name {
        kind @ ("resource" | "data" | "ephemeral") if labels == 2 => {
            let mode = match kind {
                "resource" => Mode::Managed,
                "data" => Mode::Data,
                _ => Mode::Ephemeral,
            };
            let (Some(type_name), Some(name)) = (label(0), label(1)) else {
                return Role::Alone;
            };
            let key = ResourceKey {
                mode,
                type_name,
                name,
            };
            of(m.resources.get(&key), here, |r| &r.provenance, resource)
        }
        "module" if labels == 1 => {
            let call = label(0).and_then(|n| m.module_calls.get(&n));
            of(call, here, |c| &c.provenance, module_call)
        }
        "output" if labels == 1 => {
            let output = label(0).and_then(|n| m.outputs.get(&n));
            of(output, here, |o| &o.provenance, |o| self::output(o, block))
        }
        "variable" if labels == 1 => {
            let variable = label(0).and_then(|n| m.variables.get(&n));
            of(
                variable,
                here,
                |v| &v.provenance,
                |v| self::variable(v, block),
            )
        }
        "provider" if labels == 1 => {
            let provider = m
                .providers
                .values()
                .find(|p| p.provenance.decl == here || p.provenance.overrides.contains(&here));
            of(provider, here, |p| &p.provenance, provider_parts)
        }
        _ => Role::Alone,
    }
}

/// The pieces the walk reads for top-level block `block` of file `file`: the merged
/// object's for the block that declares it, `written` for one that merged into nothing,
/// none for an override (read where its object is declared).
pub(super) fn parts<'a>(
    m: &'a MergedModule,
    file: u32,
    block: &'a Block,
    written: impl FnOnce() -> Parts<'a>,
) -> Option<Parts<'a>> {
    match role(m, file, block) {
        Role::Declares(parts) => Some(parts),
        Role::Merged => None,
        Role::Alone => Some(written()),
    }
}

/// The role of a block against the object `found` with its key.
fn of<'a, T>(
    found: Option<&'a T>,
    here: Origin,
    provenance: impl Fn(&'a T) -> &'a Provenance,
    parts: impl Fn(&'a T) -> Parts<'a>,
) -> Role<'a> {
    match found {
        Some(o) if provenance(o).decl == here => Role::Declares(parts(o)),
        Some(o) if provenance(o).overrides.contains(&here) => Role::Merged,
        _ => Role::Alone,
    }
}

/// The effective definition of the local value an attribute of a `locals` block of
/// `file` names: `Some` with the value to evaluate where the attribute declares it,
/// `None` where it is read elsewhere (an override of a declared local).
pub(super) fn local<'a>(
    m: &'a MergedModule,
    file: u32,
    a: &'a Attribute,
) -> Option<In<'a, Attribute>> {
    let here = Origin {
        file,
        span: a.name.span,
    };
    match m.locals.get(&*a.name.name) {
        Some(l) if l.provenance.decl == here => Some(piece(&l.value)),
        Some(l) if l.provenance.overrides.contains(&here) => None,
        _ => Some((file, a)),
    }
}

fn piece(a: &Attr) -> In<'_, Attribute> {
    (a.file, &a.attr)
}

fn nested(n: &Nested) -> In<'_, Block> {
    (n.file, &n.block)
}

fn resource(r: &Resource) -> Parts<'_> {
    let lifecycle = &r.lifecycle;
    Parts {
        count: r.count.as_ref().map(piece),
        for_each: r.for_each.as_ref().map(piece),
        attributes: r.config.attributes.iter().map(piece).collect(),
        blocks: r.config.blocks.iter().map(nested).collect(),
        conditions: (lifecycle.preconditions.iter())
            .chain(&lifecycle.postconditions)
            .map(nested)
            .collect(),
        provisioners: r.provisioners.iter().map(nested).collect(),
        connections: r.connection.iter().map(nested).collect(),
    }
}

fn module_call(c: &ModuleCall) -> Parts<'_> {
    Parts {
        count: c.count.as_ref().map(piece),
        for_each: c.for_each.as_ref().map(piece),
        attributes: c.arguments.attributes.iter().map(piece).collect(),
        blocks: c.arguments.blocks.iter().map(nested).collect(),
        ..Parts::default()
    }
}

fn output<'a>(o: &'a Output, base: &'a Block) -> Parts<'a> {
    Parts {
        attributes: effective(base, o.provenance.decl.file, o.settings()),
        conditions: o.preconditions.iter().map(nested).collect(),
        ..Parts::default()
    }
}

fn variable<'a>(v: &'a Variable, base: &'a Block) -> Parts<'a> {
    Parts {
        attributes: effective(base, v.provenance.decl.file, v.settings()),
        blocks: v.validations.iter().map(nested).collect(),
        ..Parts::default()
    }
}

fn provider_parts(p: &Provider) -> Parts<'_> {
    let settings = [&p.alias_attr, &p.version].into_iter().flatten();
    Parts {
        attributes: (settings.chain(&p.config.attributes)).map(piece).collect(),
        blocks: p.config.blocks.iter().map(nested).collect(),
        ..Parts::default()
    }
}

/// The arguments of a block whose merged form keeps them one by one (`settings`): the
/// base's in order, each as the merge left it, then those only overrides set. Arguments
/// the merged form does not know stay as written (the decoder rejects them).
fn effective<'a>(
    base: &'a Block,
    base_file: u32,
    settings: impl Iterator<Item = &'a Attr>,
) -> Vec<In<'a, Attribute>> {
    let settings: Vec<&Attr> = settings.collect();
    let named = |name: &str| settings.iter().find(|s| *s.attr.name.name == *name);
    let mut out: Vec<In<'a, Attribute>> = (base.body.attributes.iter())
        .map(|a| named(&a.name.name).map_or((base_file, &**a), |s| piece(s)))
        .collect();
    let written = |s: &&&Attr| base.body.attribute(&s.attr.name.name).is_none();
    out.extend(settings.iter().filter(written).map(|s| piece(s)));
    out
}

/// The pieces of a block as written, with `meta` the arguments left out of its body.
pub(super) fn written<'a>(file: u32, body: &'a Body, meta: &[&str]) -> Parts<'a> {
    let special = ["lifecycle", "provisioner", "connection"];
    let kind = |b: &Block, k: &str| &*b.kind.name == k;
    Parts {
        count: body.attribute("count").map(|a| (file, &**a)),
        for_each: body.attribute("for_each").map(|a| (file, &**a)),
        attributes: (body.attributes.iter())
            .filter(|a| !meta.contains(&&*a.name.name))
            .map(|a| (file, &**a))
            .collect(),
        blocks: (body.blocks.iter())
            .filter(|b| !special.contains(&&*b.kind.name))
            .map(|b| (file, &**b))
            .collect(),
        conditions: (body.blocks_of("lifecycle"))
            .flat_map(|l| &l.body.blocks)
            .map(|b| (file, &**b))
            .collect(),
        provisioners: (body.blocks.iter())
            .filter(|b| kind(b, "provisioner"))
            .map(|b| (file, &**b))
            .collect(),
        connections: (body.blocks.iter())
            .filter(|b| kind(b, "connection"))
            .map(|b| (file, &**b))
            .collect(),
    }
}
