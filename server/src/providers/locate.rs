//! Finding the binary of a provider at the version the lock file pins, where `terraform
//! init` and the user's CLI configuration put it: a `dev_overrides` directory, the
//! working directory's `.terraform/providers` (or `$TF_DATA_DIR/providers`), the plugin
//! cache, then the mirrors: each `filesystem_mirror` that serves the provider, or, when
//! the CLI configuration has no `provider_installation` block, the implied local mirror
//! directories (`mirrors.rs`). The data directory and the plugin cache hold unpacked
//! packages only (`<host>/<namespace>/<type>/<version>/<os>_<arch>/`), as Terraform's
//! provider cache reads them; mirrors also hold packed ones (a zip archive), which the
//! schema store unpacks into its own cache.

use std::path::{Path, PathBuf};

use super::cli_config::{CliConfig, Environment};
use super::mirrors::{implied_mirrors, mirror_package, unpacked_binary};
use crate::schema::Dialect;
use crate::schema::ProviderAddress;

/// Where a binary was found; it decides whether starting it needs a trusted workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A `dev_overrides` directory of the user's CLI configuration.
    DevOverride,
    /// The working directory's data directory, or its `terraform.d/plugins` implied
    /// mirror: code that came with the workspace.
    Workspace,
    /// The user's plugin cache.
    PluginCache,
    /// A filesystem mirror of the user's CLI configuration.
    Mirror,
    /// One of the user's implied local mirror directories (`~/.terraform.d/plugins`, the
    /// XDG data directories' `terraform/plugins`).
    ImpliedMirror,
}

/// A provider package found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Package {
    /// An unpacked package: its executable.
    Binary(PathBuf),
    /// A packed package (`terraform-provider-<type>_<version>_<os>_<arch>.zip`) in a
    /// mirror: the archive, whose executable must be unpacked before it runs.
    Archive(PathBuf),
}

impl Package {
    /// The executable or the archive.
    pub fn path(&self) -> &Path {
        match self {
            Package::Binary(p) | Package::Archive(p) => p,
        }
    }
}

/// A provider package found on disk, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// The package.
    pub package: Package,
    /// Where it was found.
    pub origin: Origin,
}

/// Why no binary was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotFound {
    /// A builtin provider has no binary; its schema is Terraform's own.
    #[error("{0} is built into Terraform")]
    Builtin(ProviderAddress),
    /// The lock file does not pin a version (the module is not initialised, or the
    /// provider was added since).
    #[error("no version of {0} in the dependency lock file (run terraform init)")]
    NotLocked(ProviderAddress),
    /// No directory holds the locked version for this platform.
    #[error("{0} {1} is not installed for {2}")]
    Missing(ProviderAddress, String, String),
}

/// Where the working directory's data lives: `TF_DATA_DIR` (relative to the root
/// module, where Terraform runs), else `.terraform`.
pub fn data_dir(root: &Path, env: &dyn Environment) -> PathBuf {
    match env.var("TF_DATA_DIR") {
        Some(dir) => root.join(dir),
        None => root.join(".terraform"),
    }
}

/// Finds `provider` at `version` (`None` when the lock file has none) for the root module
/// at `root`.
pub fn locate(
    provider: &ProviderAddress,
    version: Option<&str>,
    root: &Path,
    config: &CliConfig,
    env: &dyn Environment,
    dialect: Dialect,
) -> Result<Located, NotFound> {
    if provider.is_builtin() {
        return Err(NotFound::Builtin(provider.clone()));
    }
    let overridden = config.dev_overrides.iter().find(|(a, _)| a == provider);
    if let Some(binary) = overridden.and_then(|(_, dir)| executable(dir, &provider.type_name)) {
        return Ok(Located {
            package: Package::Binary(binary),
            origin: Origin::DevOverride,
        });
    }
    let version = version.ok_or_else(|| NotFound::NotLocked(provider.clone()))?;
    let platform = current_platform();
    let unpacked_only = std::iter::once((data_dir(root, env).join("providers"), Origin::Workspace))
        .chain(
            config
                .plugin_cache_dir
                .iter()
                .map(|d| (d.clone(), Origin::PluginCache)),
        );
    for (base, origin) in unpacked_only {
        if let Some(binary) = unpacked_binary(&base, provider, version, &platform) {
            return Ok(Located {
                package: Package::Binary(binary),
                origin,
            });
        }
    }
    let mirrors: Vec<(PathBuf, Origin)> = if config.provider_installation {
        config
            .filesystem_mirrors
            .iter()
            .filter(|m| m.serves(provider, dialect))
            .map(|m| (m.path.clone(), Origin::Mirror))
            .collect()
    } else {
        implied_mirrors(root, env, dialect)
    };
    for (base, origin) in mirrors {
        if let Some(package) = mirror_package(&base, provider, version, &platform) {
            return Ok(Located { package, origin });
        }
    }
    Err(NotFound::Missing(
        provider.clone(),
        version.to_string(),
        platform,
    ))
}

/// The provider's executable in a package directory: the first file (by name) whose
/// name starts with `terraform-provider-<type>`, as Terraform chooses it.
pub(super) fn executable(dir: &Path, type_name: &str) -> Option<PathBuf> {
    let prefix = format!("terraform-provider-{type_name}");
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
        .filter(|p| is_executable(p))
        .collect();
    names.sort();
    names.into_iter().next()
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// The platform a provider package is built for, as directory names spell it
/// (`linux_amd64`): Go's `GOOS_GOARCH` for the machine Strata runs on.
pub fn current_platform() -> String {
    let arch = match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        "x86" => "386",
        other => other,
    };
    format!("{}_{arch}", std::env::consts::OS)
}
