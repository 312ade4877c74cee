//! Schema files given by path: read whole and checked (a wrong shape is an error naming
//! where), kept as lazy entries; and imported into the cache (`strata schemas import`).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{encode, Cache, CacheKey, CorruptEntry, EntryInfo, LazySchema};
use crate::providers::schema_file::{read_schema_file, LoadSchemaFileError};
use crate::schema::{Dialect, ProviderAddress};

/// Reads a schema file given by path: every provider checked whole (a file with a
/// wrong shape is an error naming where), then kept as lazy entries.
pub fn read_file_providers(
    path: &Path,
) -> Result<Vec<(ProviderAddress, LazySchema)>, LoadSchemaFileError> {
    let shown = path.display().to_string();
    let bytes = crate::text::read::read_bounded(path, crate::providers::MAX_SCHEMA_FILE_BYTES)
        .map_err(|source| LoadSchemaFileError::Read {
            path: shown.clone(),
            source,
        })?;
    let text = String::from_utf8_lossy(&bytes);
    let schema_error = |source| LoadSchemaFileError::Schema {
        path: shown.clone(),
        source,
    };
    // The strict reader is the check; its result is not kept.
    let names = read_schema_file(&text).map_err(schema_error)?;
    let json: Value = serde_json::from_str(&text)
        .map_err(|e| schema_error(crate::providers::SchemaFileError::Json(e.to_string())))?;
    let mut out = Vec::new();
    for address in names.into_keys() {
        let parsed = ProviderAddress::parse(&address, Dialect::Terraform).ok_or_else(|| {
            LoadSchemaFileError::Address {
                path: shown.clone(),
                address: address.clone(),
            }
        })?;
        let info = EntryInfo {
            address: parsed.to_string(),
            version: None,
            binary_sha256: None,
            read_from: shown.clone(),
        };
        let schema = LazySchema::from_json(info, &json["provider_schemas"][&address])
            .map_err(|e| schema_error(crate::providers::SchemaFileError::Json(e.to_string())))?;
        out.push((parsed, schema));
    }
    Ok(out)
}

/// Puts the providers of the schema file at `path` into `cache`, each under the version
/// `version_of` gives it (`None`: unversioned, used for any version nothing else
/// serves); returns what was imported and where.
pub fn import_schema_file(
    cache: &Cache,
    path: &Path,
    version_of: &dyn Fn(&ProviderAddress) -> Option<String>,
) -> Result<Vec<(ProviderAddress, Option<String>, PathBuf)>, ImportError> {
    let providers = read_file_providers(path)?;
    let mut out = Vec::new();
    // The builtin provider's schema is always Strata's recording of it.
    for (address, schema) in providers.into_iter().filter(|(a, _)| !a.is_builtin()) {
        let version = version_of(&address);
        let info = EntryInfo {
            version: version.clone(),
            ..schema.info().clone()
        };
        let bytes = encode(info, &schema.to_json()?)?;
        let key = CacheKey {
            address: address.clone(),
            version: version.clone(),
            binary_sha256: None,
        };
        let written = cache
            .put(&key, &bytes)
            .map_err(|e| ImportError::Write(cache.entry_path(&key), e.to_string()))?;
        out.push((address, version, written));
    }
    Ok(out)
}

/// Why a schema file could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file is not a usable schema file.
    #[error(transparent)]
    File(#[from] LoadSchemaFileError),
    /// Encoding failed.
    #[error(transparent)]
    Encode(#[from] CorruptEntry),
    /// The cache could not be written.
    #[error("cannot write {0}: {1}")]
    Write(PathBuf, String),
}
