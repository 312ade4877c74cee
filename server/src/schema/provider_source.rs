//! The provider schemas an analysis may use, behind one interface: `check`, `merge`,
//! `plan` and hover ask it for the schema of one body (a resource type, a data source, a
//! provider's configuration) of one provider, and it answers from wherever the schemas
//! came from (a schema file, the on-disk cache, a provider binary; see the `providers`
//! layer). Missing schemas are an answer too: the rules that need them go quiet.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{ProviderAddress, ProviderBody, ProviderFunction, ProviderSchema, ResourceSchema};

/// What a source knows of one body of one provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaLookup {
    /// The provider's schema is known and defines the body.
    Found(ResourceSchema),
    /// The provider's schema is known and has no such type (Terraform: `Invalid resource
    /// type`).
    NoSuchType,
    /// Nothing is known of the provider's schema: rules that need it stay quiet.
    Unavailable,
}

impl SchemaLookup {
    /// The schema, when found.
    pub fn found(self) -> Option<ResourceSchema> {
        match self {
            SchemaLookup::Found(schema) => Some(schema),
            _ => None,
        }
    }
}

/// What a source knows of one provider-defined function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FunctionLookup {
    /// The provider's schema is known and offers the function.
    Found(Box<ProviderFunction>),
    /// The provider's schema is known and offers other functions, not this one.
    NoSuchFunction,
    /// The provider's schema is known and offers no function at all (Terraform then
    /// suspects the provider is not required, and says so).
    NoFunctions,
    /// Nothing is known of the provider's functions: rules that need them stay quiet.
    Unavailable,
}

impl FunctionLookup {
    /// What a provider's functions (`ProviderSchema::functions`) say of the function
    /// `name`.
    pub fn among(functions: &BTreeMap<Box<str>, ProviderFunction>, name: &str) -> Self {
        match functions.get(name) {
            Some(f) => FunctionLookup::Found(Box::new(f.clone())),
            None if functions.is_empty() => FunctionLookup::NoFunctions,
            None => FunctionLookup::NoSuchFunction,
        }
    }
}

/// Where a provider's schema came from, for hover and status messages.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SchemaOrigin {
    /// The provider's version, when known (`5.100.0`).
    pub version: Option<String>,
    /// Where the schema was read: a schema file's path, the cache, a binary's path.
    pub from: String,
}

/// Provider schemas for analysis, by provider source address. Implementations must be
/// cheap to ask (a lookup, at most a lazy conversion of one type) because every check
/// of a module asks once per block.
pub trait ProviderSchemaSource: Send + Sync + fmt::Debug {
    /// The schema of body `kind` named `type_name` (ignored for `ProviderBody::Provider`)
    /// of the provider at `provider`.
    fn lookup(
        &self,
        provider: &ProviderAddress,
        kind: ProviderBody,
        type_name: &str,
    ) -> SchemaLookup;

    /// Where the schema of `provider` came from; `None` when it is not known.
    fn origin(&self, provider: &ProviderAddress) -> Option<SchemaOrigin>;

    /// Every provider whose schema is known, for listing and completion.
    fn providers(&self) -> Vec<ProviderAddress>;

    /// The type names of body `kind` the schema of `provider` defines, for suggestions
    /// ("Did you mean"); empty when unknown.
    fn type_names(&self, _provider: &ProviderAddress, _kind: ProviderBody) -> Vec<String> {
        Vec::new()
    }

    /// The schemas the module in directory `dir` is analysed with, when they are not
    /// these: a workspace whose root modules lock different versions of one provider
    /// gives each root's modules the schemas of the versions that root locks. `None`:
    /// these serve every module.
    fn for_module(&self, _dir: &Path) -> Option<Arc<dyn ProviderSchemaSource>> {
        None
    }

    /// The schemas the module in directory `dir` is checked with in the role of each
    /// root module that calls it, one per distinct set of versions, `for_module`'s
    /// first: `terraform validate` in each root reads the module with the versions that
    /// root locks. Empty: `for_module` serves alone.
    fn for_module_roles(&self, _dir: &Path) -> Vec<RootRole> {
        Vec::new()
    }

    /// The function `name` (without the `provider::<local>::` prefix) of the provider at
    /// `provider`; `Unavailable` unless the source knows the provider's functions.
    fn function(&self, _provider: &ProviderAddress, _name: &str) -> FunctionLookup {
        FunctionLookup::Unavailable
    }
}

/// The schemas a module is read with in the role of the root modules that call it and
/// lock the same provider versions (`ProviderSchemaSource::for_module_roles`).
#[derive(Debug, Clone)]
pub struct RootRole {
    /// The schemas of the versions those roots lock.
    pub schemas: Arc<dyn ProviderSchemaSource>,
    /// The root modules' directories, in the order the store found them.
    pub roots: Vec<PathBuf>,
}

/// The source that knows no provider: every lookup is `Unavailable`.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoProviderSchemas;

impl ProviderSchemaSource for NoProviderSchemas {
    fn lookup(&self, _: &ProviderAddress, _: ProviderBody, _: &str) -> SchemaLookup {
        SchemaLookup::Unavailable
    }

    fn origin(&self, _: &ProviderAddress) -> Option<SchemaOrigin> {
        None
    }

    fn providers(&self) -> Vec<ProviderAddress> {
        Vec::new()
    }
}

/// Schemas held in memory, each with its origin: what a schema file gives.
#[derive(Debug, Default, Clone)]
pub struct LoadedProviderSchemas {
    /// The schemas by provider address.
    pub schemas: BTreeMap<ProviderAddress, (ProviderSchema, SchemaOrigin)>,
}

impl ProviderSchemaSource for LoadedProviderSchemas {
    fn lookup(
        &self,
        provider: &ProviderAddress,
        kind: ProviderBody,
        type_name: &str,
    ) -> SchemaLookup {
        let Some((schema, _)) = self.schemas.get(provider) else {
            return SchemaLookup::Unavailable;
        };
        match kind {
            ProviderBody::Provisioner | ProviderBody::Backend => SchemaLookup::Unavailable,
            _ => match schema.body(kind, type_name) {
                Some(found) => SchemaLookup::Found(found.clone()),
                None => SchemaLookup::NoSuchType,
            },
        }
    }

    fn origin(&self, provider: &ProviderAddress) -> Option<SchemaOrigin> {
        self.schemas.get(provider).map(|(_, origin)| origin.clone())
    }

    fn providers(&self) -> Vec<ProviderAddress> {
        self.schemas.keys().cloned().collect()
    }

    fn type_names(&self, provider: &ProviderAddress, kind: ProviderBody) -> Vec<String> {
        let Some((schema, _)) = self.schemas.get(provider) else {
            return Vec::new();
        };
        let types = match kind {
            ProviderBody::Resource => &schema.resources,
            ProviderBody::DataSource => &schema.data_sources,
            ProviderBody::EphemeralResource => &schema.ephemeral_resources,
            _ => return Vec::new(),
        };
        types.keys().map(|t| t.to_string()).collect()
    }

    fn function(&self, provider: &ProviderAddress, name: &str) -> FunctionLookup {
        match self.schemas.get(provider) {
            Some((schema, _)) => FunctionLookup::among(&schema.functions, name),
            None => FunctionLookup::Unavailable,
        }
    }
}
