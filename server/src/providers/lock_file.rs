//! The dependency lock file, `.terraform.lock.hcl` in the root module: which version of
//! each provider `terraform init` selected, with its constraints and package hashes.
//! Strata loads exactly the versions it pins.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::eval::constant;
use crate::schema::Dialect;
use crate::schema::ProviderAddress;
use crate::syntax::{self, Syntax};

/// The lock file's name in the root module.
pub const LOCK_FILE_NAME: &str = ".terraform.lock.hcl";

/// What the lock file records for one provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockedProvider {
    /// The exact version selected (`5.100.0`).
    pub version: String,
    /// The version constraints it was selected under, as written.
    pub constraints: Option<String>,
    /// Package hashes (`h1:…`, `zh:…`).
    pub hashes: Vec<String>,
}

/// The locked providers by address.
pub type LockedProviders = BTreeMap<ProviderAddress, LockedProvider>;

/// Why a lock file cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LockFileError {
    /// Not valid HCL.
    #[error("the dependency lock file has syntax errors")]
    Syntax,
    /// A `provider` block whose label is not a provider source address.
    #[error("invalid provider address {0:?} in the dependency lock file")]
    Address(String),
    /// A `provider` block without a constant `version`.
    #[error("the dependency lock file has no version for {0}")]
    Version(String),
}

/// Reads a lock file's text. Blocks other than `provider` are left alone (Terraform
/// warns about them and goes on).
pub fn read_lock_file(text: &str, dialect: Dialect) -> Result<LockedProviders, LockFileError> {
    let file = syntax::parse(text, Syntax::Native, None);
    if file.has_errors() {
        return Err(LockFileError::Syntax);
    }
    let mut locked = BTreeMap::new();
    for block in file.body.blocks_of("provider") {
        let label = block.label(0).unwrap_or_default();
        let address = ProviderAddress::parse(label, dialect)
            .filter(|a| label.split('/').count() == 3 || a.is_builtin())
            .ok_or_else(|| LockFileError::Address(label.to_string()))?;
        let string = |name: &str| {
            let value = constant(&block.body.attribute(name)?.expr)?;
            value.as_str().map(str::to_string)
        };
        let version = string("version").ok_or_else(|| LockFileError::Version(label.into()))?;
        let hashes = block
            .body
            .attribute("hashes")
            .and_then(|a| constant(&a.expr))
            .and_then(|v| match v {
                Value::Array(items) => Some(
                    items
                        .iter()
                        .filter_map(|h| h.as_str().map(str::to_string))
                        .collect(),
                ),
                _ => None,
            })
            .unwrap_or_default();
        let entry = LockedProvider {
            version,
            constraints: string("constraints"),
            hashes,
        };
        locked.insert(address, entry);
    }
    Ok(locked)
}
