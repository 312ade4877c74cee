//! `resource`, `data` and (OpenTofu) `ephemeral` blocks (spec §1.6).

use std::fmt;
use std::sync::Arc;

use super::{
    attr, header_span, is_empty_list, nested, Attr, Duplicate, FileIndex, MergedBody, MergedModule,
    MissingBase, Nested, Origin, Provenance,
};
use crate::module::Dialect;
use crate::syntax::{Block, ExprKind, JsonKind};

/// Managed resource, data source or ephemeral resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    /// `resource`
    Managed,
    /// `data`
    Data,
    /// `ephemeral`
    Ephemeral,
}

impl Mode {
    /// The block type that declares this mode.
    pub fn keyword(self) -> &'static str {
        match self {
            Mode::Managed => "resource",
            Mode::Data => "data",
            Mode::Ephemeral => "ephemeral",
        }
    }

    /// The provider-defined body a block of this mode holds.
    pub fn provider_body(self) -> crate::schema::ProviderBody {
        match self {
            Mode::Managed => crate::schema::ProviderBody::Resource,
            Mode::Data => crate::schema::ProviderBody::DataSource,
            Mode::Ephemeral => crate::schema::ProviderBody::EphemeralResource,
        }
    }

    /// The mode a block type declares (`resource`, `data`, `ephemeral`).
    pub fn from_keyword(kind: &str) -> Option<Self> {
        match kind {
            "resource" => Some(Mode::Managed),
            "data" => Some(Mode::Data),
            "ephemeral" => Some(Mode::Ephemeral),
            _ => None,
        }
    }
}

/// What identifies a resource in a module.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ResourceKey {
    /// Managed, data or ephemeral.
    pub mode: Mode,
    /// The resource type, e.g. `aws_instance`.
    pub type_name: String,
    /// The resource name.
    pub name: String,
}

impl fmt::Display for ResourceKey {
    /// The address Terraform prints: `aws_instance.web`, `data.x.y`, `ephemeral.x.y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mode {
            Mode::Managed => write!(f, "{}.{}", self.type_name, self.name),
            mode => write!(f, "{}.{}.{}", mode.keyword(), self.type_name, self.name),
        }
    }
}

/// Arguments of a block that are not part of its provider-defined body.
pub const META: &[&str] = &[
    "count",
    "for_each",
    "provider",
    "depends_on",
    "lifecycle",
    "connection",
    "provisioner",
];

/// The effective `lifecycle` settings.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lifecycle {
    /// `create_before_destroy`
    pub create_before_destroy: Option<Attr>,
    /// `prevent_destroy`
    pub prevent_destroy: Option<Attr>,
    /// `ignore_changes` as a list.
    pub ignore_changes: Option<Attr>,
    /// `ignore_changes = all`.
    pub ignore_all_changes: Option<Attr>,
    /// `replace_triggered_by` (from primary files only: overrides cannot set it).
    pub replace_triggered_by: Option<Attr>,
    /// `destroy` (Terraform ≥ 1.16 and OpenTofu).
    pub destroy: Option<Attr>,
    /// OpenTofu's `enabled` (never merged from overrides).
    pub enabled: Option<Attr>,
    /// `precondition` blocks (primary files only).
    pub preconditions: Vec<Nested>,
    /// `postcondition` blocks (primary files only).
    pub postconditions: Vec<Nested>,
}

impl Lifecycle {
    /// Whether any setting is present.
    pub fn is_empty(&self) -> bool {
        self.settings().next().is_none()
            && self.preconditions.is_empty()
            && self.postconditions.is_empty()
    }

    /// The arguments that are set, in a stable order.
    pub fn settings(&self) -> impl Iterator<Item = &Attr> {
        [
            &self.create_before_destroy,
            &self.prevent_destroy,
            &self.ignore_all_changes,
            &self.ignore_changes,
            &self.replace_triggered_by,
            &self.destroy,
            &self.enabled,
        ]
        .into_iter()
        .flatten()
    }
}

/// An effective resource, data source or ephemeral resource.
#[derive(Debug, Clone, PartialEq)]
pub struct Resource {
    /// Mode, type and name.
    pub key: ResourceKey,
    /// Declaration and overrides.
    pub provenance: Provenance,
    /// `count`
    pub count: Option<Attr>,
    /// `for_each`
    pub for_each: Option<Attr>,
    /// `provider`
    pub provider: Option<Attr>,
    /// `depends_on` (overrides cannot change it).
    pub depends_on: Option<Attr>,
    /// The provider-defined arguments and blocks.
    pub config: MergedBody,
    /// The `lifecycle` settings.
    pub lifecycle: Lifecycle,
    /// The `connection` block.
    pub connection: Option<Nested>,
    /// The `provisioner` blocks.
    pub provisioners: Vec<Nested>,
    /// The declaring block, then every override block applied to it, in order: what a
    /// merge directed by the type's provider schema reads again (`merge_with`).
    pub bodies: Vec<Nested>,
}

/// The key a `resource`, `data` or `ephemeral` block declares.
pub(super) fn key_of(block: &Block) -> Option<ResourceKey> {
    Some(ResourceKey {
        mode: Mode::from_keyword(&block.kind.name)?,
        type_name: block.label(0)?.to_string(),
        name: block.label(1)?.to_string(),
    })
}

pub(super) fn add_primary(m: &mut MergedModule, file: FileIndex, block: &Arc<Block>) {
    let Some(key) = key_of(block) else { return };
    if let Some(first) = m.resources.get(&key) {
        // The first declaration is kept (spec §1.3).
        m.duplicates.push(Duplicate {
            first_kind: None,
            kind: key.mode.keyword(),
            qualifier: Some(key.type_name.clone()),
            name: key.name.clone(),
            first: first.provenance.decl,
            later: Origin {
                file,
                span: header_span(block),
            },
        });
        return;
    }
    let resource = resource_of(m.dialect, file, block, key.clone());
    m.resources.insert(key, resource);
}

/// The resource a block declares (its primary declaration, before overrides).
fn resource_of(
    dialect: Dialect,
    file: FileIndex,
    block: &Arc<Block>,
    key: ResourceKey,
) -> Resource {
    let body = &block.body;
    let mut lifecycle = Lifecycle::default();
    if let Some(lc) = body.blocks_of("lifecycle").next() {
        for a in &lc.body.attributes {
            set_lifecycle(&mut lifecycle, file, a, true, dialect);
        }
        for b in &lc.body.blocks {
            match &*b.kind.name {
                "precondition" => lifecycle.preconditions.push(nested(file, b)),
                "postcondition" => lifecycle.postconditions.push(nested(file, b)),
                _ => {}
            }
        }
    }
    Resource {
        provenance: Provenance::of_block(file, block),
        count: body.attribute("count").map(|a| attr(file, a)),
        for_each: body.attribute("for_each").map(|a| attr(file, a)),
        provider: body.attribute("provider").map(|a| attr(file, a)),
        depends_on: body.attribute("depends_on").map(|a| attr(file, a)),
        config: MergedBody::base(body, file, META),
        lifecycle,
        connection: body.blocks_of("connection").next().map(|b| nested(file, b)),
        provisioners: body
            .blocks_of("provisioner")
            .map(|b| nested(file, b))
            .collect(),
        bodies: vec![nested(file, block)],
        key,
    }
}

impl MergedModule {
    /// The data sources `check` blocks declare (scoped to their check), as resources of
    /// the module: Terraform keeps them among the module's data resources.
    pub fn scoped_data(&self) -> Vec<Resource> {
        self.checks
            .iter()
            .flat_map(|c| self.scoped_data_of(c))
            .collect()
    }

    /// The data sources one `check` block declares.
    pub fn scoped_data_of(&self, check: &Nested) -> Vec<Resource> {
        check
            .block
            .body
            .blocks_of("data")
            .filter_map(|b| Some(resource_of(self.dialect, check.file, b, key_of(b)?)))
            .collect()
    }
}

pub(super) fn apply_override(m: &mut MergedModule, file: FileIndex, block: &Arc<Block>) {
    let Some(key) = key_of(block) else { return };
    let dialect = m.dialect;
    let mut dropped = Vec::new();
    m.reject_in_override(file, &block.body, &[]);
    for lc in block.body.blocks_of("lifecycle") {
        m.reject_in_override(file, &lc.body, &["precondition", "postcondition"]);
    }
    let Some(r) = m.resources.get_mut(&key) else {
        m.missing_bases.push(MissingBase {
            kind: key.mode.keyword(),
            qualifier: Some(key.type_name.clone()),
            name: key.name.clone(),
            origin: Origin {
                file,
                span: header_span(block),
            },
        });
        return;
    };
    r.provenance.overrides.push(Origin {
        file,
        span: header_span(block),
    });
    r.bodies.push(nested(file, block));
    let body = &block.body;
    for (name, slot) in [
        ("count", &mut r.count),
        ("for_each", &mut r.for_each),
        ("provider", &mut r.provider),
    ] {
        if let Some(a) = body.attribute(name) {
            *slot = Some(attr(file, a));
        }
    }
    // A non-empty depends_on in an override is an error (check layer); it never applies.
    r.config.apply(body, file, META);
    if let Some(c) = body.blocks_of("connection").next() {
        r.connection = Some(nested(file, c));
    }
    if body.blocks_of("provisioner").next().is_some() {
        r.provisioners = body
            .blocks_of("provisioner")
            .map(|b| nested(file, b))
            .collect();
    }
    for lc in body.blocks_of("lifecycle") {
        for a in &lc.body.attributes {
            if !set_lifecycle(&mut r.lifecycle, file, a, false, dialect) {
                dropped.push((a.name.name.to_string(), a.span));
            }
        }
    }
    for (kind, span) in dropped {
        m.set_aside.push(super::SetAside {
            kind,
            origin: Origin { file, span },
            rejected: false,
        });
    }
}

/// Sets one lifecycle argument; `base` is true for the primary declaration. Returns
/// false when Terraform ignores the argument in an override.
fn set_lifecycle(
    lc: &mut Lifecycle,
    file: FileIndex,
    a: &Arc<crate::syntax::Attribute>,
    base: bool,
    dialect: Dialect,
) -> bool {
    let value = Some(attr(file, a));
    match &*a.name.name {
        "create_before_destroy" => lc.create_before_destroy = value,
        "prevent_destroy" => lc.prevent_destroy = value,
        "ignore_changes" if is_all(a) => lc.ignore_all_changes = value,
        // An empty list in an override does not clear the base's list.
        "ignore_changes" if base || !is_empty_list(&a.expr) => lc.ignore_changes = value,
        "ignore_changes" => {}
        "replace_triggered_by" if base => lc.replace_triggered_by = value,
        "destroy" if base || dialect == Dialect::OpenTofu => lc.destroy = value,
        "enabled" if base => lc.enabled = value,
        "replace_triggered_by" | "destroy" | "enabled" => return false,
        _ => {}
    }
    true
}

/// `ignore_changes = all` (or `"all"` in the JSON syntax).
fn is_all(a: &crate::syntax::Attribute) -> bool {
    match &a.expr.kind {
        ExprKind::Variable(id) => &*id.name == "all",
        ExprKind::Json(v) => matches!(&v.kind, JsonKind::String(s) if &**s == "all"),
        _ => false,
    }
}
