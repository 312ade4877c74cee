//! Provider schemas from outside the configuration: schema files in the format of
//! `terraform providers schema -json` (`schema_file.rs`), and finding the providers a
//! module needs (`MergedModule::provider_addresses`) at the versions the lock file pins (`lock_file.rs`)
//! among the directories `terraform init` and the user's CLI configuration use
//! (`cli_config.rs`, `locate.rs`), and reading a binary's schema over the plugin
//! protocol (`plugin/`); the schema store (`store/`) puts them together with an on-disk
//! cache and the trust rule. This is the only layer allowed to start a process.

mod cli_config;
mod locate;
mod lock_file;
mod mirrors;
pub mod plugin;
mod schema_file;
mod store;

pub use crate::schema::{default_registry, ProviderAddress};
pub use cli_config::{
    config_file, load as load_cli_config, parse as parse_cli_config, CliConfig, CliConfigError,
    Environment, FilesystemMirror, ProcessEnvironment,
};
pub use locate::{current_platform, data_dir, locate, Located, NotFound, Origin, Package};
pub use lock_file::{
    read_lock_file, LockFileError, LockedProvider, LockedProviders, LOCK_FILE_NAME,
};
pub use mirrors::{implied_mirrors, packed_package_name};
pub use schema_file::{
    load_schema_files, read_schema_file, write_schema_file, LoadSchemaFileError, ProviderSchemas,
    SchemaFileError, FORMAT_VERSION, MAX_SCHEMA_FILE_BYTES,
};
pub use store::{
    hash_file, import_schema_file, read_file_providers, root_modules, unpack, BinaryHashes, Cache,
    CacheKey, CorruptEntry, EntryInfo, FileStamp, ImportError, LazySchema, LoadedFrom, Lock,
    ModuleProviders, ProviderStatus, RootModule, SchemaState, SchemaStore, StartGuard, StartRight,
    StoreOptions, UnpackError, UnpackLimits, UNPACK_LIMITS,
};

#[cfg(test)]
mod tests;
