//! The schema store: the provider schemas of a workspace, from (in order) the schema
//! files the user gave, Terraform's builtin provider (recorded), the on-disk cache
//! (`cache.rs`), and the provider binaries `terraform init` installed, started once per
//! binary and cached. Schemas are held as lazy entries (`entry.rs`): a body is converted
//! on its first lookup. Each root module gets the schemas of the versions its lock file
//! pins (`view.rs`); a reload resolves only the roots whose needs or installed providers
//! changed (`SchemaStore::load_changed`). Packed packages from mirrors are unpacked into
//! the cache (`packages.rs`).
//!
//! Trust: a binary inside the workspace (its `.terraform` directory, or the root's
//! `terraform.d/plugins` implied mirror) is code that came with the workspace and runs
//! only when `run_plugins` allows it; binaries in the plugin cache, mirrors (configured
//! or implied) and `dev_overrides` of the user's CLI configuration, and the cache
//! itself, are the user's own.

mod binaries;
mod cache;
mod discovery;
mod entry;
mod files;
mod packages;
mod status;
mod view;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::plugin::error_chain;
pub use binaries::{hash_file, BinaryHashes, FileStamp};
pub use cache::{Cache, CacheKey, StartGuard, StartRight};
pub use discovery::{root_modules, Lock, ModuleProviders, RootModule};
pub use entry::{encode, CorruptEntry, EntryInfo, LazySchema};
pub use files::{import_schema_file, read_file_providers, ImportError};
pub use packages::{unpack, unpacked_executable, UnpackError, UnpackLimits, UNPACK_LIMITS};
pub use status::{LoadedFrom, ProviderStatus, SchemaState};
use view::{Loaded, SchemaView};

use super::cli_config::{load as load_cli_config, CliConfig, Environment};
use super::locate::{data_dir, locate, NotFound, Origin, Package};
use super::schema_file::write_provider;
use crate::schema::{
    Dialect, FunctionLookup, ProviderAddress, ProviderBody, ProviderSchemaSource, RootRole,
    SchemaLookup, SchemaOrigin,
};

/// Terraform's builtin provider, as `terraform providers schema -json` (1.11.4) prints
/// it (`scripts/record-store-schemas.py`).
const BUILTIN: &str = include_str!("builtin.json");

/// How long a process waits for another one starting the same binary.
const START_WAIT: Duration = Duration::from_secs(120);

/// What the store may use.
#[derive(Debug, Clone, Default)]
pub struct StoreOptions {
    /// Schema files the user gave; their providers win over everything else.
    pub files: Vec<PathBuf>,
    /// Whether binaries inside the workspace may be started.
    pub run_plugins: bool,
    /// The cache (`None`: no cache, every binary is started).
    pub cache: Option<Cache>,
}

/// The provider schemas of a workspace, and how each was found.
#[derive(Debug, Default)]
pub struct SchemaStore {
    /// What a module no root module owns is analysed with: the schema files'
    /// providers, then the first root's version of each other provider.
    default: SchemaView,
    /// Each root module's schemas, by its directory.
    roots: BTreeMap<PathBuf, RootSchemas>,
    /// The root modules that own each module, by directory: the first one's schemas
    /// are the module's (`for_module`), each one's in that root's role
    /// (`for_module_roles`).
    module_roots: BTreeMap<PathBuf, Vec<PathBuf>>,
    statuses: Vec<ProviderStatus>,
    /// Schema files that could not be read, each as one line.
    file_errors: Vec<String>,
}

/// The schemas of the versions one root module locks.
#[derive(Debug)]
struct RootSchemas {
    root: RootModule,
    view: Arc<SchemaView>,
    statuses: Vec<ProviderStatus>,
}

/// Schemas already loaded in one `SchemaStore::load`, by provider and locked version:
/// roots locking the same version share one.
type ByVersion = HashMap<(ProviderAddress, Option<String>), Arc<Loaded>>;

impl SchemaStore {
    /// Finds the schemas of the providers `modules` need; never fails: what cannot be
    /// loaded is a status saying why.
    pub fn load(
        options: &StoreOptions,
        modules: &[ModuleProviders],
        env: &dyn Environment,
    ) -> Self {
        Self::load_changed(None, options, modules, env, &BTreeSet::new())
    }

    /// Like `load`, but a root module that `previous` (loaded with the same options)
    /// resolved keeps its schemas when it needs the same (lock file, providers) and is
    /// not in `changed` (roots whose installed providers changed): only the affected
    /// roots are resolved again.
    pub fn load_changed(
        previous: Option<&SchemaStore>,
        options: &StoreOptions,
        modules: &[ModuleProviders],
        env: &dyn Environment,
        changed: &BTreeSet<PathBuf>,
    ) -> Self {
        let mut store = Self::default();
        let mut files = SchemaView::default();
        for path in &options.files {
            store.load_file(path, &mut files);
        }
        store.default = files.clone();
        let mut loader = Loader::new(options, env);
        let mut by_version = ByVersion::new();
        for root in root_modules(modules) {
            let reused = previous
                .and_then(|p| p.roots.get(&root.dir))
                .filter(|r| r.root.needs_same(&root) && !changed.contains(&root.dir));
            let schemas = match reused {
                Some(r) => RootSchemas {
                    view: r.view.clone(),
                    statuses: r.statuses.clone(),
                    root,
                },
                None => load_root(&mut loader, &files, &mut by_version, root),
            };
            for (address, loaded) in &schemas.view.schemas {
                let first = store.default.schemas.entry(address.clone());
                first.or_insert_with(|| loaded.clone());
            }
            for module in &schemas.root.modules {
                let owners = store.module_roots.entry(module.clone()).or_default();
                owners.push(schemas.root.dir.clone());
            }
            store.statuses.extend(schemas.statuses.iter().cloned());
            store.roots.insert(schemas.root.dir.clone(), schemas);
        }
        store
    }

    /// The status of every provider, schema files' first, then by root module.
    pub fn statuses(&self) -> &[ProviderStatus] {
        &self.statuses
    }

    /// The directories of the root modules it resolved, in order.
    pub fn roots(&self) -> impl Iterator<Item = &Path> {
        self.roots.keys().map(PathBuf::as_path)
    }

    /// The schema files that could not be read, each as one line.
    pub fn file_errors(&self) -> &[String] {
        &self.file_errors
    }

    /// Every loaded provider in the schema file format, for `strata schemas export`
    /// (one version of each: the first root's).
    pub fn to_schema_file(&self) -> Result<Value, CorruptEntry> {
        schema_file(self.default.schemas.iter())
    }

    /// For each provider the root modules lock at more than one version, each version
    /// with a schema file of that provider alone, by address and version: what one
    /// schema file cannot hold, for `strata schemas export`.
    pub fn to_versioned_schema_files(
        &self,
    ) -> Result<Vec<(ProviderAddress, String, Value)>, CorruptEntry> {
        let mut versions: BTreeMap<&ProviderAddress, BTreeMap<&str, &Arc<Loaded>>> =
            BTreeMap::new();
        for (address, loaded) in self.roots.values().flat_map(|r| &r.view.schemas) {
            if let Some(version) = &loaded.version {
                let of_provider = versions.entry(address).or_default();
                of_provider.entry(version).or_insert(loaded);
            }
        }
        let mut files = Vec::new();
        for (address, of_provider) in versions.into_iter().filter(|(_, v)| v.len() > 1) {
            for (version, loaded) in of_provider {
                let file = schema_file(std::iter::once((address, loaded)))?;
                files.push((address.clone(), version.to_string(), file));
            }
        }
        Ok(files)
    }

    /// Adds the providers of one schema file to `files`, or a failed status for it.
    fn load_file(&mut self, path: &Path, files: &mut SchemaView) {
        match read_file_providers(path) {
            Ok(providers) => {
                for (address, schema) in providers {
                    let from = LoadedFrom::File(path.to_path_buf());
                    self.statuses.push(ProviderStatus {
                        provider: address.clone(),
                        root: None,
                        state: SchemaState::Loaded {
                            version: None,
                            from: from.clone(),
                        },
                    });
                    let loaded = Loaded {
                        schema,
                        version: None,
                        from,
                    };
                    files.schemas.insert(address, Arc::new(loaded));
                }
            }
            Err(e) => self
                .file_errors
                .push(format!("cannot read the schema file {}", error_chain(&e))),
        }
    }
}

/// Finds every provider of one root module at the version its lock file pins: a schema
/// file's wins, a version another root already loaded is shared.
fn load_root(
    loader: &mut Loader<'_>,
    files: &SchemaView,
    by_version: &mut ByVersion,
    root: RootModule,
) -> RootSchemas {
    let mut view = files.clone();
    let mut statuses = Vec::new();
    for provider in &root.providers {
        if files.schemas.contains_key(provider) {
            continue;
        }
        let locked_version = match &root.lock {
            Lock::Read(locked) => locked.get(provider).map(|l| l.version.clone()),
            _ => None,
        };
        let key = (provider.clone(), locked_version.clone());
        let found = match by_version.get(&key) {
            Some(loaded) => Ok(loaded.clone()),
            None => load_provider(loader, &root, provider, locked_version),
        };
        let state = match found {
            Ok(loaded) => {
                by_version.insert(key, loaded.clone());
                view.schemas.insert(provider.clone(), loaded.clone());
                SchemaState::Loaded {
                    version: loaded.version.clone(),
                    from: loaded.from.clone(),
                }
            }
            Err(state) => state,
        };
        statuses.push(ProviderStatus {
            provider: provider.clone(),
            root: Some(root.dir.clone()),
            state,
        });
    }
    RootSchemas {
        root,
        view: Arc::new(view),
        statuses,
    }
}

/// The schema of one provider of one root module at `locked_version`, or why there is
/// none.
fn load_provider(
    loader: &mut Loader<'_>,
    root: &RootModule,
    provider: &ProviderAddress,
    locked_version: Option<String>,
) -> Result<Arc<Loaded>, SchemaState> {
    if provider.is_builtin() {
        let schema = builtin(provider).map_err(|error| SchemaState::Failed { error })?;
        return Ok(Arc::new(Loaded {
            schema,
            version: None,
            from: LoadedFrom::Builtin,
        }));
    }
    let (schema, from) = loader.find(root, provider, locked_version.as_deref())?;
    let version = schema.info().version.clone().or(locked_version);
    Ok(Arc::new(Loaded {
        schema,
        version,
        from,
    }))
}

/// The store answers with the schemas of modules no root owns; each module's own are
/// its root's (`for_module`).
impl ProviderSchemaSource for SchemaStore {
    fn lookup(
        &self,
        provider: &ProviderAddress,
        kind: ProviderBody,
        type_name: &str,
    ) -> SchemaLookup {
        self.default.lookup(provider, kind, type_name)
    }

    fn origin(&self, provider: &ProviderAddress) -> Option<SchemaOrigin> {
        self.default.origin(provider)
    }

    fn providers(&self) -> Vec<ProviderAddress> {
        self.default.providers()
    }

    fn type_names(&self, provider: &ProviderAddress, kind: ProviderBody) -> Vec<String> {
        self.default.type_names(provider, kind)
    }

    fn for_module(&self, dir: &Path) -> Option<Arc<dyn ProviderSchemaSource>> {
        let root = self.module_roots.get(dir)?.first()?;
        let view = self.roots.get(root)?.view.clone();
        Some(view)
    }

    fn for_module_roles(&self, dir: &Path) -> Vec<RootRole> {
        let owners = self.module_roots.get(dir).map_or(&[][..], Vec::as_slice);
        let mut roles: Vec<(&Arc<SchemaView>, Vec<PathBuf>)> = Vec::new();
        for (root, view) in owners
            .iter()
            .filter_map(|r| Some((r, &self.roots.get(r)?.view)))
        {
            // Roots locking the same versions give the module the same diagnostics.
            match roles.iter_mut().find(|(v, _)| v.same_versions(view)) {
                Some((_, roots)) => roots.push(root.clone()),
                None => roles.push((view, vec![root.clone()])),
            }
        }
        let roles = roles.into_iter().map(|(view, roots)| RootRole {
            schemas: view.clone(),
            roots,
        });
        roles.collect()
    }

    fn function(&self, provider: &ProviderAddress, name: &str) -> FunctionLookup {
        self.default.function(provider, name)
    }
}

/// The schema file format holding `providers`.
fn schema_file<'a>(
    providers: impl Iterator<Item = (&'a ProviderAddress, &'a Arc<Loaded>)>,
) -> Result<Value, CorruptEntry> {
    let mut schemas = serde_json::Map::new();
    for (address, loaded) in providers {
        schemas.insert(address.to_string(), loaded.schema.to_json()?);
    }
    Ok(serde_json::json!({
        "format_version": super::FORMAT_VERSION,
        "provider_schemas": schemas,
    }))
}

/// Finds schemas in the cache and binaries, for one `SchemaStore::load`.
struct Loader<'a> {
    options: &'a StoreOptions,
    env: &'a dyn Environment,
    /// The CLI configuration of each dialect, read once.
    configs: HashMap<Dialect, Result<CliConfig, String>>,
    hashes: Option<BinaryHashes>,
    /// Started lazily, only when a binary must run.
    runtime: Option<tokio::runtime::Runtime>,
}

impl<'a> Loader<'a> {
    fn new(options: &'a StoreOptions, env: &'a dyn Environment) -> Self {
        Self {
            options,
            env,
            configs: HashMap::new(),
            hashes: options.cache.as_ref().map(Cache::binary_hashes),
            runtime: None,
        }
    }

    /// The schema of `provider` at `version` for `root`, or why there is none.
    fn find(
        &mut self,
        root: &RootModule,
        provider: &ProviderAddress,
        version: Option<&str>,
    ) -> Result<(LazySchema, LoadedFrom), SchemaState> {
        if let Lock::Unreadable(error) = &root.lock {
            return Err(SchemaState::Failed {
                error: error.clone(),
            });
        }
        let config = self
            .configs
            .entry(root.dialect)
            .or_insert_with(|| load_cli_config(self.env, root.dialect).map_err(|e| e.to_string()))
            .clone()
            .map_err(|error| SchemaState::Failed { error })?;
        let located = locate(
            provider,
            version,
            &root.dir,
            &config,
            self.env,
            root.dialect,
        );
        let why = match located {
            Ok(found) => {
                let trusted = found.origin != Origin::Workspace || self.options.run_plugins;
                let schema = match &found.package {
                    // A workspace's archive is not even unpacked when it may not run.
                    Package::Archive(archive) if !trusted => Err(SchemaState::Untrusted {
                        binary: archive.clone(),
                    }),
                    package => self
                        .package_binary(provider, package)
                        .and_then(|binary| self.binary_schema(provider, version, &binary, trusted)),
                };
                match schema {
                    Ok(loaded) => return Ok(loaded),
                    Err(why) => why,
                }
            }
            Err(NotFound::NotLocked(_)) if root.lock == Lock::Absent => SchemaState::NotInitialised,
            Err(NotFound::NotLocked(_)) => SchemaState::NotLocked,
            Err(NotFound::Missing(_, version, platform)) => {
                if data_dir(&root.dir, self.env).join("providers").is_dir() {
                    SchemaState::Missing { version, platform }
                } else {
                    SchemaState::NotInitialised
                }
            }
            Err(NotFound::Builtin(_)) => SchemaState::Failed {
                error: "a builtin provider has no binary".into(),
            },
        };
        // Without a usable binary: what the cache has for the version, else an import
        // that named no version.
        let cache = self.options.cache.as_ref();
        let cached = cache.and_then(|c| {
            let versioned = version.and_then(|v| c.any_of_version(provider, Some(v)));
            versioned.or_else(|| c.any_of_version(provider, None))
        });
        match cached {
            Some(schema) => {
                let key = CacheKey {
                    address: provider.clone(),
                    version: schema.info().version.clone(),
                    binary_sha256: schema.info().binary_sha256.clone(),
                };
                let path = cache.map(|c| c.entry_path(&key)).unwrap_or_default();
                Ok((schema, LoadedFrom::Cache(path)))
            }
            None => Err(why),
        }
    }

    /// The executable of a package: a packed one is unpacked into the cache first
    /// (which needs a cache).
    fn package_binary(
        &self,
        provider: &ProviderAddress,
        package: &Package,
    ) -> Result<PathBuf, SchemaState> {
        let archive = match package {
            Package::Binary(binary) => return Ok(binary.clone()),
            Package::Archive(archive) => archive,
        };
        let failed = |why: String| SchemaState::Failed {
            error: format!("cannot unpack {}: {why}", archive.display()),
        };
        let (Some(cache), Some(hashes)) = (self.options.cache.as_ref(), self.hashes.as_ref())
        else {
            return Err(failed("no cache directory to unpack it into".into()));
        };
        unpacked_executable(cache, hashes, archive, &provider.type_name, &UNPACK_LIMITS)
            .map_err(|e| failed(e.to_string()))
    }

    /// The schema of the binary at `binary`: from the cache by its hash, else started
    /// (when `trusted`) and cached.
    fn binary_schema(
        &mut self,
        provider: &ProviderAddress,
        version: Option<&str>,
        binary: &Path,
        trusted: bool,
    ) -> Result<(LazySchema, LoadedFrom), SchemaState> {
        let failed = |error: String| SchemaState::Failed { error };
        let sha256 = match &self.hashes {
            Some(hashes) => Some(
                hashes
                    .sha256(binary)
                    .map_err(|e| failed(format!("cannot read {}: {e}", binary.display())))?,
            ),
            None => None,
        };
        let key = sha256.map(|sha| CacheKey {
            address: provider.clone(),
            version: version.map(str::to_string),
            binary_sha256: Some(sha),
        });
        let cache = self.options.cache.as_ref();
        if let Some((cache, key)) = cache.zip(key.as_ref()) {
            if let Some(schema) = cache.get(key) {
                return Ok((schema, LoadedFrom::Cache(cache.entry_path(key))));
            }
        }
        if !trusted {
            return Err(SchemaState::Untrusted {
                binary: binary.to_path_buf(),
            });
        }
        let _right = match cache.zip(key.as_ref()) {
            Some((cache, key)) => match cache.start_right(key, START_WAIT) {
                StartRight::Cached(schema) => {
                    return Ok((*schema, LoadedFrom::Cache(cache.entry_path(key))))
                }
                StartRight::Started(guard) => Some(guard),
            },
            None => None,
        };
        let info = EntryInfo {
            address: provider.to_string(),
            version: version.map(str::to_string),
            binary_sha256: key.as_ref().and_then(|k| k.binary_sha256.clone()),
            read_from: binary.display().to_string(),
        };
        let bytes = self.run(binary, info).map_err(failed)?;
        if let Some((cache, key)) = cache.zip(key.as_ref()) {
            if let Err(e) = cache.put(key, &bytes) {
                tracing::warn!("cannot cache the schema of {provider}: {e}");
            }
        }
        let schema = LazySchema::decode(bytes).map_err(|e| failed(e.to_string()))?;
        Ok((schema, LoadedFrom::Binary(binary.to_path_buf())))
    }

    /// Starts the binary and encodes its schema as an entry.
    fn run(&mut self, binary: &Path, info: EntryInfo) -> Result<Vec<u8>, String> {
        if self.runtime.is_none() {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| format!("cannot start the plugin client: {e}"))?;
            self.runtime = Some(runtime);
        }
        let runtime = self.runtime.as_ref().ok_or("no runtime")?;
        let loaded = runtime
            .block_on(super::plugin::load_schema(binary))
            .map_err(|e| format!("{}: {e}", binary.display()))?;
        tracing::info!(
            "read the schema of {} from {} in {:?}",
            info.address,
            binary.display(),
            loaded.elapsed
        );
        let json = write_provider(&loaded.schema);
        drop(loaded);
        encode(info, &json).map_err(|e| e.to_string())
    }
}

/// The builtin provider's schema from the recording.
fn builtin(provider: &ProviderAddress) -> Result<LazySchema, String> {
    let json: Value = serde_json::from_str(BUILTIN).map_err(|e| e.to_string())?;
    let schema = &json["provider_schemas"][provider.to_string()];
    let info = EntryInfo {
        address: provider.to_string(),
        version: None,
        binary_sha256: None,
        read_from: "Terraform's builtin provider".into(),
    };
    LazySchema::from_json(info, schema).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests;
