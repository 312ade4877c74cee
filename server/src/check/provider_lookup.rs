//! Which provider schema a `resource`, `data` or `ephemeral` block follows: the blocks of
//! the primary files that declare resources (top-level, and data blocks inside `check`
//! blocks), each with its merged resource, and the schema its provider gives its type
//! (`Unavailable` keeps every rule that needs it quiet).

use crate::merge::{MergedModule, Mode, Resource, ResourceKey};
use crate::schema::{ProviderBody, ProviderSchemaSource, SchemaLookup};
use crate::syntax::Block;

/// A block of a primary file that declares a resource.
pub(super) struct Declaration<'a> {
    /// The file.
    pub file: u32,
    /// The block.
    pub block: &'a Block,
    /// Its mode.
    pub mode: Mode,
    /// Its type label.
    pub type_name: &'a str,
    /// The merged resource it declares (with its overrides), when it has both labels.
    pub resource: Option<&'a Resource>,
}

/// Every resource-declaring block of the primary files of `m`, in file order.
pub(super) fn declarations(m: &MergedModule) -> Vec<Declaration<'_>> {
    let mut found = Vec::new();
    for (fi, file) in m.files.iter().enumerate() {
        if m.is_override_file(fi as u32) {
            continue;
        }
        let nested = file
            .syntax
            .body
            .blocks_of("check")
            .flat_map(|c| c.body.blocks_of("data"));
        for block in file.syntax.body.blocks.iter().chain(nested) {
            let mode = match &*block.kind.name {
                "resource" => Mode::Managed,
                "data" => Mode::Data,
                "ephemeral" => Mode::Ephemeral,
                _ => continue,
            };
            let (Some(type_name), Some(name)) = (block.label(0), block.label(1)) else {
                continue;
            };
            let key = ResourceKey {
                mode,
                type_name: type_name.to_string(),
                name: name.to_string(),
            };
            found.push(Declaration {
                file: fi as u32,
                block,
                mode,
                type_name,
                resource: m.resources.get(&key),
            });
        }
    }
    found
}

/// The provider-defined body a resource of `mode` has.
pub(super) fn body_kind(mode: Mode) -> ProviderBody {
    match mode {
        Mode::Managed => ProviderBody::Resource,
        Mode::Data => ProviderBody::DataSource,
        Mode::Ephemeral => ProviderBody::EphemeralResource,
    }
}

/// The schema of `resource`'s type, from the provider it belongs to.
pub(super) fn resource_schema(
    m: &MergedModule,
    schemas: &dyn ProviderSchemaSource,
    resource: &Resource,
) -> SchemaLookup {
    let provider = m.resource_provider(resource);
    schemas.lookup(
        &provider,
        body_kind(resource.key.mode),
        &resource.key.type_name,
    )
}
