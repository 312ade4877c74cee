//! `variable` blocks (spec §1.7). Later primary declarations overwrite earlier ones; an
//! override replaces each argument it sets (`false` and `null` count as set).

use super::{
    attr, header_span, nested, Attr, Duplicate, FileIndex, MergedModule, MissingBase, Nested,
    Origin, Provenance,
};
use crate::module::Dialect;
use crate::syntax::Block;

/// An effective input variable.
#[derive(Debug, Clone, PartialEq)]
pub struct Variable {
    /// The name.
    pub name: String,
    /// Declaration and overrides.
    pub provenance: Provenance,
    /// `description`
    pub description: Option<Attr>,
    /// `default` (an explicit `null` counts as set).
    pub default: Option<Attr>,
    /// `type`
    pub type_constraint: Option<Attr>,
    /// The base's `type`: Terraform keeps its `optional(T, default)` defaults even when an
    /// override replaces the type.
    pub defaults_type: Option<Attr>,
    /// `sensitive`
    pub sensitive: Option<Attr>,
    /// `ephemeral`
    pub ephemeral: Option<Attr>,
    /// `nullable`
    pub nullable: Option<Attr>,
    /// `const` (Terraform ≥ 1.15, OpenTofu ≥ 1.12)
    pub constant: Option<Attr>,
    /// `deprecated` (merged by OpenTofu only)
    pub deprecated: Option<Attr>,
    /// `validation` blocks (primary files only).
    pub validations: Vec<Nested>,
    /// Whether an override set `type`.
    pub type_overridden: bool,
    /// Whether an override set `default`.
    pub default_overridden: bool,
}

impl Variable {
    /// The arguments that are set, in the order they are shown.
    pub fn settings(&self) -> impl Iterator<Item = &Attr> {
        [
            &self.description,
            &self.type_constraint,
            &self.default,
            &self.sensitive,
            &self.ephemeral,
            &self.nullable,
            &self.constant,
            &self.deprecated,
        ]
        .into_iter()
        .flatten()
    }
}

pub(super) fn add_primary(m: &mut MergedModule, file: FileIndex, block: &Block) {
    let Some(name) = block.label(0) else { return };
    let get = |n: &str| block.body.attribute(n).map(|a| attr(file, a));
    let variable = Variable {
        name: name.to_string(),
        provenance: Provenance::of_block(file, block),
        description: get("description"),
        default: get("default"),
        type_constraint: get("type"),
        defaults_type: get("type"),
        sensitive: get("sensitive"),
        ephemeral: get("ephemeral"),
        nullable: get("nullable"),
        constant: get("const"),
        deprecated: get("deprecated"),
        validations: block
            .body
            .blocks_of("validation")
            .map(|b| nested(file, b))
            .collect(),
        type_overridden: false,
        default_overridden: false,
    };
    // A later declaration overwrites the earlier one (spec §1.3).
    if let Some(first) = m.variables.insert(name.to_string(), variable) {
        m.duplicates.push(Duplicate {
            first_kind: None,
            kind: "variable",
            qualifier: None,
            name: name.to_string(),
            first: first.provenance.decl,
            later: Origin {
                file,
                span: header_span(block),
            },
        });
    }
}

pub(super) fn apply_override(m: &mut MergedModule, file: FileIndex, block: &Block) {
    let Some(name) = block.label(0) else { return };
    let dialect = m.dialect;
    m.reject_in_override(file, &block.body, &["validation"]);
    let origin = Origin {
        file,
        span: header_span(block),
    };
    let Some(v) = m.variables.get_mut(name) else {
        m.missing_bases.push(MissingBase {
            kind: "variable",
            qualifier: None,
            name: name.to_string(),
            origin,
        });
        return;
    };
    v.provenance.overrides.push(origin);
    let body = &block.body;
    for (arg, slot) in [
        ("description", &mut v.description),
        ("default", &mut v.default),
        ("type", &mut v.type_constraint),
        ("sensitive", &mut v.sensitive),
        ("ephemeral", &mut v.ephemeral),
        ("nullable", &mut v.nullable),
        ("const", &mut v.constant),
    ] {
        if let Some(a) = body.attribute(arg) {
            *slot = Some(attr(file, a));
        }
    }
    v.type_overridden |= body.attribute("type").is_some();
    v.default_overridden |= body.attribute("default").is_some();
    if dialect == Dialect::OpenTofu {
        if let Some(a) = body.attribute("deprecated") {
            if super::literal_string(&a.expr) != Some("") {
                v.deprecated = Some(attr(file, a));
            }
        }
    }
}
