//! What the store knows of each provider a workspace needs: where its schema came from,
//! or why there is none. Plain data, printed by `strata schemas status`, logged and
//! answered by the language server (`strata.providerSchemaStatus`).

use std::fmt;
use std::path::PathBuf;

use serde::Serialize;

use crate::schema::ProviderAddress;

/// One provider of one root module (or of a schema file the user gave).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProviderStatus {
    /// The provider's source address.
    #[serde(serialize_with = "display")]
    pub provider: ProviderAddress,
    /// The root module whose lock file was read (`None` for a schema file's providers).
    pub root: Option<PathBuf>,
    /// The outcome.
    pub state: SchemaState,
}

/// Where a schema came from, or why there is none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum SchemaState {
    /// The schema is loaded.
    #[serde(rename_all = "camelCase")]
    Loaded {
        /// The provider's version, when known.
        version: Option<String>,
        /// Where it was read from.
        from: LoadedFrom,
    },
    /// The root module has no lock file: `terraform init` has not run.
    NotInitialised,
    /// The lock file pins no version of the provider.
    NotLocked,
    /// The locked version's binary is inside the workspace, and running plugins is not
    /// allowed (`--no-plugins`, `strata.providerSchemas.runPlugins`, an untrusted
    /// workspace); nothing is cached for it.
    #[serde(rename_all = "camelCase")]
    Untrusted {
        /// The binary that was not run.
        binary: PathBuf,
    },
    /// No directory holds the locked version for this platform, and nothing is cached.
    #[serde(rename_all = "camelCase")]
    Missing {
        /// The locked version.
        version: String,
        /// The platform looked for (`linux_amd64`).
        platform: String,
    },
    /// Reading the schema failed.
    #[serde(rename_all = "camelCase")]
    Failed {
        /// Why.
        error: String,
    },
}

/// Where a loaded schema was read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "path", rename_all = "camelCase")]
pub enum LoadedFrom {
    /// A schema file the user gave (`--provider-schemas`, `strata.providerSchemas.files`).
    File(PathBuf),
    /// The on-disk cache entry at this path.
    Cache(PathBuf),
    /// The provider binary, started now.
    Binary(PathBuf),
    /// Terraform's recording of its builtin provider, part of Strata.
    Builtin,
}

fn display<S: serde::Serializer>(a: &ProviderAddress, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(a)
}

impl ProviderStatus {
    /// Whether the schema is loaded.
    pub fn is_loaded(&self) -> bool {
        matches!(self.state, SchemaState::Loaded { .. })
    }
}

impl fmt::Display for ProviderStatus {
    /// One line: `registry.terraform.io/hashicorp/aws 5.100.0: loaded from the cache (…)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.provider)?;
        if let SchemaState::Loaded {
            version: Some(v), ..
        } = &self.state
        {
            write!(f, " {v}")?;
        }
        write!(f, ": {}", self.state)?;
        if let Some(root) = &self.root {
            write!(f, " [{}]", root.display())?;
        }
        Ok(())
    }
}

impl fmt::Display for SchemaState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemaState::Loaded { from, .. } => match from {
                LoadedFrom::File(p) => write!(f, "loaded from the schema file {}", p.display()),
                LoadedFrom::Cache(p) => write!(f, "loaded from the cache ({})", p.display()),
                LoadedFrom::Binary(p) => write!(f, "loaded from the provider {}", p.display()),
                LoadedFrom::Builtin => write!(f, "built into Terraform"),
            },
            SchemaState::NotInitialised => {
                write!(f, "no schema: not initialised (run terraform init)")
            }
            SchemaState::NotLocked => write!(
                f,
                "no schema: no version in the dependency lock file (run terraform init)"
            ),
            SchemaState::Untrusted { binary } => write!(
                f,
                "no schema: {} is inside the workspace and running plugins is not allowed",
                binary.display()
            ),
            SchemaState::Missing { version, platform } => write!(
                f,
                "no schema: version {version} is not installed for {platform} (run terraform init)"
            ),
            SchemaState::Failed { error } => write!(f, "no schema: {error}"),
        }
    }
}
