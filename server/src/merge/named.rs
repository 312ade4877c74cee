//! Local values, outputs, module calls and provider configurations (spec §1.8).

use super::{
    attr, header_span, is_empty_list, literal_string, nested, Attr, Duplicate, FileIndex,
    MergedBody, MergedModule, MissingBase, Nested, Origin, Provenance,
};
use crate::module::Dialect;
use crate::syntax::{Attribute, Block, ExprKind};
use std::sync::Arc;

/// An effective local value. An override moves its definition to the override file.
#[derive(Debug, Clone, PartialEq)]
pub struct Local {
    /// The name.
    pub name: String,
    /// The primary definition and the overrides.
    pub provenance: Provenance,
    /// The effective definition (from the last override, if any).
    pub value: Attr,
}

/// An effective output.
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    /// The name.
    pub name: String,
    /// Declaration and overrides.
    pub provenance: Provenance,
    /// `value`
    pub value: Option<Attr>,
    /// `description` (an override replaces it only with a non-empty one).
    pub description: Option<Attr>,
    /// `sensitive`
    pub sensitive: Option<Attr>,
    /// `ephemeral`
    pub ephemeral: Option<Attr>,
    /// `depends_on` (overrides cannot change it).
    pub depends_on: Option<Attr>,
    /// `deprecated` (merged by OpenTofu only)
    pub deprecated: Option<Attr>,
    /// `type` (Terraform ≥ 1.15)
    pub type_constraint: Option<Attr>,
    /// `precondition` blocks (primary files only).
    pub preconditions: Vec<Nested>,
}

impl Output {
    /// The arguments that are set, in the order they are shown.
    pub fn settings(&self) -> impl Iterator<Item = &Attr> {
        [
            &self.description,
            &self.value,
            &self.type_constraint,
            &self.sensitive,
            &self.ephemeral,
            &self.deprecated,
            &self.depends_on,
        ]
        .into_iter()
        .flatten()
    }
}

/// An effective module call.
#[derive(Debug, Clone, PartialEq)]
pub struct ModuleCall {
    /// The name.
    pub name: String,
    /// Declaration and overrides.
    pub provenance: Provenance,
    /// `source`
    pub source: Option<Attr>,
    /// `version`
    pub version: Option<Attr>,
    /// `count`
    pub count: Option<Attr>,
    /// `for_each`
    pub for_each: Option<Attr>,
    /// `providers` (replaced whole by a non-empty override map).
    pub providers: Option<Attr>,
    /// `depends_on` (overrides cannot change it).
    pub depends_on: Option<Attr>,
    /// The arguments passed to the module.
    pub arguments: MergedBody,
}

impl ModuleCall {
    /// The meta-arguments that are set, in the order they are shown.
    pub fn settings(&self) -> impl Iterator<Item = &Attr> {
        [
            &self.source,
            &self.version,
            &self.count,
            &self.for_each,
            &self.providers,
        ]
        .into_iter()
        .flatten()
    }
}

/// An effective provider configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Provider {
    /// The provider's local name.
    pub name: String,
    /// The alias, when the configuration has a literal one.
    pub alias: Option<String>,
    /// Declaration and overrides (a default provider may be declared by an override).
    pub provenance: Provenance,
    /// `alias`
    pub alias_attr: Option<Attr>,
    /// The legacy `version` argument.
    pub version: Option<Attr>,
    /// The provider's own arguments and blocks.
    pub config: MergedBody,
    /// The declaring block, then every override block applied to it, in order: what a
    /// merge directed by the provider's schema reads again (`merge_with`).
    pub bodies: Vec<Nested>,
}

const MODULE_META: &[&str] = &[
    "source",
    "version",
    "count",
    "for_each",
    "providers",
    "depends_on",
    "enabled",
    "ignore_nested_deprecations",
    "lifecycle",
];

/// Arguments of a `provider` block that are not the provider's configuration.
pub const PROVIDER_META: &[&str] = &["alias", "version"];

fn origin(file: FileIndex, block: &Block) -> Origin {
    Origin {
        file,
        span: header_span(block),
    }
}

fn missing(m: &mut MergedModule, kind: &'static str, name: &str, origin: Origin) {
    m.missing_bases.push(MissingBase {
        kind,
        qualifier: None,
        name: name.to_string(),
        origin,
    });
}

pub(super) fn add_primary_locals(m: &mut MergedModule, file: FileIndex, block: &Block) {
    for a in &block.body.attributes {
        let local = Local {
            name: a.name.name.to_string(),
            provenance: local_provenance(file, a),
            value: attr(file, a),
        };
        if let Some(first) = m.locals.insert(local.name.clone(), local) {
            // Terraform places a local value at its whole `name = value`.
            m.duplicates.push(Duplicate {
                first_kind: None,
                kind: "locals",
                qualifier: None,
                name: first.name.clone(),
                first: Origin {
                    file: first.provenance.decl.file,
                    span: first.provenance.decl_span,
                },
                later: Origin { file, span: a.span },
            });
        }
    }
}

fn local_provenance(file: FileIndex, a: &Attribute) -> Provenance {
    Provenance {
        decl: Origin {
            file,
            span: a.name.span,
        },
        decl_span: a.span,
        overrides: Vec::new(),
    }
}

pub(super) fn apply_override_locals(m: &mut MergedModule, file: FileIndex, block: &Block) {
    for a in &block.body.attributes {
        let here = Origin {
            file,
            span: a.name.span,
        };
        match m.locals.get_mut(&*a.name.name) {
            Some(local) => {
                local.provenance.overrides.push(here);
                local.value = attr(file, a);
            }
            // Terraform names the whole definition, `name = value` (the local's DeclRange).
            None => missing(m, "locals", &a.name.name, Origin { file, span: a.span }),
        }
    }
}

pub(super) fn add_primary_output(m: &mut MergedModule, file: FileIndex, block: &Block) {
    let Some(name) = block.label(0) else { return };
    let get = |n: &str| block.body.attribute(n).map(|a| attr(file, a));
    let output = Output {
        name: name.to_string(),
        provenance: Provenance::of_block(file, block),
        value: get("value"),
        description: get("description"),
        sensitive: get("sensitive"),
        ephemeral: get("ephemeral"),
        depends_on: get("depends_on"),
        deprecated: get("deprecated"),
        type_constraint: get("type"),
        preconditions: block
            .body
            .blocks_of("precondition")
            .map(|b| nested(file, b))
            .collect(),
    };
    if let Some(first) = m.outputs.insert(name.to_string(), output) {
        m.duplicates.push(Duplicate {
            first_kind: None,
            kind: "output",
            qualifier: None,
            name: name.to_string(),
            first: first.provenance.decl,
            later: origin(file, block),
        });
    }
}

pub(super) fn apply_override_output(m: &mut MergedModule, file: FileIndex, block: &Block) {
    let Some(name) = block.label(0) else { return };
    let tofu = m.dialect == Dialect::OpenTofu;
    m.reject_in_override(file, &block.body, &["precondition", "postcondition"]);
    let Some(o) = m.outputs.get_mut(name) else {
        missing(m, "output", name, origin(file, block));
        return;
    };
    o.provenance.overrides.push(origin(file, block));
    let body = &block.body;
    let get = |n: &str| body.attribute(n).map(|a| attr(file, a));
    for (arg, slot) in [
        ("value", &mut o.value),
        ("sensitive", &mut o.sensitive),
        ("ephemeral", &mut o.ephemeral),
        ("type", &mut o.type_constraint),
    ] {
        if let Some(a) = get(arg) {
            *slot = Some(a);
        }
    }
    // description and (OpenTofu) deprecated are replaced only by a non-empty value.
    let non_empty = |a: &Attr| literal_string(a.expr()) != Some("");
    if let Some(a) = get("description").filter(non_empty) {
        o.description = Some(a);
    }
    if tofu {
        if let Some(a) = get("deprecated").filter(non_empty) {
            o.deprecated = Some(a);
        }
    }
}

pub(super) fn add_primary_module(m: &mut MergedModule, file: FileIndex, block: &Block) {
    let Some(name) = block.label(0) else { return };
    let get = |n: &str| block.body.attribute(n).map(|a| attr(file, a));
    let call = ModuleCall {
        name: name.to_string(),
        provenance: Provenance::of_block(file, block),
        source: get("source"),
        version: get("version"),
        count: get("count"),
        for_each: get("for_each"),
        providers: get("providers"),
        depends_on: get("depends_on"),
        arguments: MergedBody::base(&block.body, file, MODULE_META),
    };
    if let Some(first) = m.module_calls.insert(name.to_string(), call) {
        m.duplicates.push(Duplicate {
            first_kind: None,
            kind: "module",
            qualifier: None,
            name: name.to_string(),
            first: first.provenance.decl,
            later: origin(file, block),
        });
    }
}

pub(super) fn apply_override_module(m: &mut MergedModule, file: FileIndex, block: &Block) {
    let Some(name) = block.label(0) else { return };
    m.reject_in_override(file, &block.body, &[]);
    let Some(c) = m.module_calls.get_mut(name) else {
        missing(m, "module", name, origin(file, block));
        return;
    };
    c.provenance.overrides.push(origin(file, block));
    let body = &block.body;
    for (arg, slot) in [
        ("source", &mut c.source),
        ("version", &mut c.version),
        ("count", &mut c.count),
        ("for_each", &mut c.for_each),
    ] {
        if let Some(a) = body.attribute(arg) {
            *slot = Some(attr(file, a));
        }
    }
    if let Some(a) = body.attribute("providers") {
        if !is_empty_map(a) {
            c.providers = Some(attr(file, a));
        }
    }
    c.arguments.apply(body, file, MODULE_META);
}

fn is_empty_map(a: &Attribute) -> bool {
    use crate::syntax::JsonKind;
    match &a.expr.kind {
        ExprKind::Object(items) => items.is_empty(),
        ExprKind::Json(v) => matches!(&v.kind, JsonKind::Object(p) if p.is_empty()),
        _ => is_empty_list(&a.expr),
    }
}

fn provider_key(block: &Block) -> Option<(String, Option<String>)> {
    let name = block.label(0)?.to_string();
    // Decoded as a string without a context: numbers and booleans convert.
    let alias = block
        .body
        .attribute("alias")
        .and_then(|a| match &a.expr.kind {
            ExprKind::Number(n) => Some(n.to_string()),
            ExprKind::Bool(b) => Some(b.to_string()),
            _ => literal_string(&a.expr).map(str::to_string),
        });
    Some((name, alias))
}

fn new_provider(file: FileIndex, block: &Arc<Block>, key: &(String, Option<String>)) -> Provider {
    Provider {
        name: key.0.clone(),
        alias: key.1.clone(),
        provenance: Provenance::of_block(file, block),
        alias_attr: block.body.attribute("alias").map(|a| attr(file, a)),
        version: block.body.attribute("version").map(|a| attr(file, a)),
        config: MergedBody::base(&block.body, file, PROVIDER_META),
        bodies: vec![nested(file, block)],
    }
}

pub(super) fn add_primary_provider(m: &mut MergedModule, file: FileIndex, block: &Arc<Block>) {
    let Some(key) = provider_key(block) else {
        return;
    };
    if let Some(first) = m.providers.get(&key) {
        m.duplicates.push(Duplicate {
            first_kind: None,
            kind: "provider",
            qualifier: key.1.clone(),
            name: key.0.clone(),
            first: first.provenance.decl,
            later: origin(file, block),
        });
        return;
    }
    let provider = new_provider(file, block, &key);
    m.providers.insert(key, provider);
}

pub(super) fn apply_override_provider(m: &mut MergedModule, file: FileIndex, block: &Arc<Block>) {
    let Some(key) = provider_key(block) else {
        return;
    };
    match m.providers.get_mut(&key) {
        Some(p) => {
            p.provenance.overrides.push(origin(file, block));
            if let Some(a) = block.body.attribute("version") {
                p.version = Some(attr(file, a));
            }
            p.config.apply(&block.body, file, PROVIDER_META);
            p.bodies.push(nested(file, block));
        }
        // A default provider configuration needs no base: the override declares it.
        None if key.1.is_none() => {
            let provider = new_provider(file, block, &key);
            m.providers.insert(key, provider);
        }
        None => m.missing_bases.push(MissingBase {
            kind: "provider",
            qualifier: key.1.clone(),
            name: key.0.clone(),
            origin: origin(file, block),
        }),
    }
}
