//! What the unit tests of several rules share: a module made of one file.

use std::path::Path;
use std::sync::Arc;

use crate::merge::{merge, MergedModule};
use crate::module::{CoreVersion, Dialect, FileSet, Module, SourceFile};

/// The merged module of one `main.tf` holding `text`, in `dialect`.
pub(crate) fn merged(text: &str, dialect: Dialect) -> MergedModule {
    let dir = Path::new("/nonexistent/strata-check-test");
    let source = SourceFile::parse(dir.join("main.tf"), text.into(), None, None);
    merge(&Module {
        dir: dir.to_path_buf(),
        dialect,
        files: FileSet::from_names(&["main.tf"], dialect),
        sources: vec![Arc::new(source)],
        core_version: CoreVersion::target(dialect),
        revision: 1,
    })
}

/// The merged module of the files `files` (name and text, in load order), merged with
/// `schemas` as the workspace merges (`merge_with`).
pub(super) fn merged_files(
    files: &[(&str, &str)],
    schemas: &dyn crate::schema::ProviderSchemaSource,
) -> MergedModule {
    let dir = Path::new("/nonexistent/strata-check-test");
    let dialect = Dialect::Terraform;
    let names: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
    let sources = files
        .iter()
        .map(|(name, text)| {
            Arc::new(SourceFile::parse(
                dir.join(name),
                (*text).into(),
                None,
                None,
            ))
        })
        .collect();
    crate::merge::merge_with(
        &Module {
            dir: dir.to_path_buf(),
            dialect,
            files: FileSet::from_names(&names, dialect),
            sources,
            core_version: CoreVersion::target(dialect),
            revision: 1,
        },
        schemas,
    )
}

/// The provider schemas of a `terraform providers schema -json` document, by address.
pub(crate) fn loaded_schemas(json: &str) -> crate::schema::LoadedProviderSchemas {
    use crate::schema::{LoadedProviderSchemas, ProviderAddress, SchemaOrigin};
    let mut loaded = LoadedProviderSchemas::default();
    for (address, schema) in crate::providers::read_schema_file(json).expect("schema") {
        let address = ProviderAddress::parse(&address, Dialect::Terraform).expect("address");
        loaded
            .schemas
            .insert(address, (schema, SchemaOrigin::default()));
    }
    loaded
}
