//! The schemas one set of modules is analysed with: every provider the schema files
//! give, and for each other provider the version one root module locks. A workspace
//! whose roots lock different versions of a provider has one view per root, and each
//! module is analysed with the view of the root that owns it.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::entry::LazySchema;
use super::status::LoadedFrom;
use crate::schema::{
    FunctionLookup, ProviderAddress, ProviderBody, ProviderSchemaSource, SchemaLookup, SchemaOrigin,
};

/// One provider's schema and where it came from, shared by every view that uses that
/// version.
#[derive(Debug)]
pub(super) struct Loaded {
    pub(super) schema: LazySchema,
    pub(super) version: Option<String>,
    pub(super) from: LoadedFrom,
}

/// Provider schemas by address.
#[derive(Debug, Default, Clone)]
pub(super) struct SchemaView {
    pub(super) schemas: BTreeMap<ProviderAddress, Arc<Loaded>>,
}

impl SchemaView {
    /// Whether `other` holds the very same schemas (loaded once per provider and
    /// version, so shared by every view of roots locking that version).
    pub(super) fn same_versions(&self, other: &SchemaView) -> bool {
        self.schemas.len() == other.schemas.len()
            && self
                .schemas
                .iter()
                .zip(&other.schemas)
                .all(|((a, x), (b, y))| a == b && Arc::ptr_eq(x, y))
    }
}

impl ProviderSchemaSource for SchemaView {
    fn lookup(
        &self,
        provider: &ProviderAddress,
        kind: ProviderBody,
        type_name: &str,
    ) -> SchemaLookup {
        match self.schemas.get(provider) {
            Some(loaded) => loaded.schema.lookup(kind, type_name),
            None => SchemaLookup::Unavailable,
        }
    }

    fn origin(&self, provider: &ProviderAddress) -> Option<SchemaOrigin> {
        let loaded = self.schemas.get(provider)?;
        let from = match &loaded.from {
            LoadedFrom::File(p) => p.display().to_string(),
            LoadedFrom::Cache(_) => format!("the cache ({})", loaded.schema.info().read_from),
            LoadedFrom::Binary(p) => p.display().to_string(),
            LoadedFrom::Builtin => "Terraform's builtin provider".into(),
        };
        Some(SchemaOrigin {
            version: loaded.version.clone(),
            from,
        })
    }

    fn providers(&self) -> Vec<ProviderAddress> {
        self.schemas.keys().cloned().collect()
    }

    /// The type names of body `kind` of `provider` (empty when its schema is unknown),
    /// without converting anything.
    fn type_names(&self, provider: &ProviderAddress, kind: ProviderBody) -> Vec<String> {
        self.schemas.get(provider).map_or_else(Vec::new, |loaded| {
            let names = loaded.schema.type_names(kind);
            names.into_iter().map(str::to_string).collect()
        })
    }

    fn function(&self, provider: &ProviderAddress, name: &str) -> FunctionLookup {
        match self.schemas.get(provider) {
            Some(loaded) => loaded.schema.function(name),
            None => FunctionLookup::Unavailable,
        }
    }
}

#[cfg(test)]
#[path = "view_tests.rs"]
mod tests;
