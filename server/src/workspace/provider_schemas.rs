//! The workspace's side of the schema store: what each module asks of providers (its
//! provider addresses and the local modules it calls), loading the store for every
//! module indexed so far, and checking a module in the role of each root module that
//! calls it.

use std::collections::BTreeSet;
use std::path::PathBuf;

use super::{local_child_dir, Workspace};
use crate::merge::{literal_string, merge_with, MergedModule};
use crate::module::Module;
use crate::providers::{ModuleProviders, ProcessEnvironment, SchemaStore, StoreOptions};
use crate::schema::ProviderSchemaSource;

impl Workspace {
    /// What every module indexed so far asks of providers.
    pub fn module_providers(&self) -> Vec<ModuleProviders> {
        self.modules()
            .iter()
            .filter(|m| !m.sources.is_empty())
            .map(|m| {
                let merged = self.merged_of(m);
                let children = merged
                    .module_calls
                    .values()
                    .filter_map(|call| literal_string(call.source.as_ref()?.expr()))
                    .filter_map(|source| local_child_dir(&m.dir, source))
                    .collect();
                ModuleProviders {
                    dir: m.dir.clone(),
                    dialect: merged.dialect,
                    providers: merged.provider_addresses().into_values().collect(),
                    children,
                }
            })
            .collect()
    }

    /// Loads the provider schemas of every module indexed so far, starting provider
    /// binaries as `options` allow: slow the first time, so never on a request path.
    /// The caller makes it the workspace's (`set_provider_schemas`).
    pub fn provider_schema_store(&self, options: &StoreOptions) -> SchemaStore {
        SchemaStore::load(options, &self.module_providers(), &ProcessEnvironment)
    }

    /// Like `provider_schema_store`, keeping what `previous` (loaded with the same
    /// options) resolved for every root module that needs the same and is not in
    /// `changed` (`SchemaStore::load_changed`).
    pub fn reload_provider_schema_store(
        &self,
        options: &StoreOptions,
        previous: Option<&SchemaStore>,
        changed: &BTreeSet<PathBuf>,
    ) -> SchemaStore {
        let modules = self.module_providers();
        SchemaStore::load_changed(previous, options, &modules, &ProcessEnvironment, changed)
    }

    /// What `check` finds in `module` with the schemas of each root module that calls
    /// it (`ProviderSchemaSource::for_module_roles`: roots locking other versions of a
    /// provider read the module with theirs, as `terraform validate` in each root
    /// does), each finding once; with the module's own schemas alone when one set
    /// serves every root. The merge of the module's own schemas is the cached one.
    pub fn check_in_root_roles<D: PartialEq>(
        &self,
        module: &Module,
        check: &dyn Fn(&MergedModule, &dyn ProviderSchemaSource) -> Vec<D>,
    ) -> Vec<D> {
        let own = self.provider_schemas_for(&module.dir);
        let mut found = check(&self.merged_of(module), &*own);
        self.check_in_other_root_roles(module, &mut found, check);
        found
    }

    /// Adds to `found`, what `check` found in `module` with its own schemas, what it
    /// finds with those of the other root modules that call it (see
    /// [`Workspace::check_in_root_roles`]).
    pub fn check_in_other_root_roles<D: PartialEq>(
        &self,
        module: &Module,
        found: &mut Vec<D>,
        check: &dyn Fn(&MergedModule, &dyn ProviderSchemaSource) -> Vec<D>,
    ) {
        let roles = self.provider_schemas().for_module_roles(&module.dir);
        for role in roles.iter().skip(1) {
            let merged = merge_with(module, &*role.schemas);
            for d in check(&merged, &*role.schemas) {
                if !found.contains(&d) {
                    found.push(d);
                }
            }
        }
    }
}
