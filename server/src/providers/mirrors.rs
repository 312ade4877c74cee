//! Provider package directories as Terraform's filesystem search reads them
//! (`getproviders.SearchLocalDirectory`): under `<host>/<namespace>/<type>/`, a package is
//! either unpacked, `<version>/<os>_<arch>/` holding the executable, or packed,
//! `terraform-provider-<type>_<version>_<os>_<arch>.zip` (the name matched without
//! regard to case). The unpacked one is found first, as Terraform's walk of the
//! directory in name order meets it first.
//!
//! Without a `provider_installation` block in the CLI configuration, Terraform and
//! OpenTofu search the implied local mirror directories, in this order: `terraform.d/plugins`
//! in the working directory (the root module), the `plugins` directory of each CLI data
//! directory (`~/.terraform.d`; OpenTofu adds `$XDG_DATA_HOME/opentofu`), and
//! `plugins` under the platform's data directories for the application "Terraform"
//! (XDG's `$XDG_DATA_HOME` or `~/.local/share`, then `$XDG_DATA_DIRS` or
//! `/usr/local/share`, `/usr/share`, each with `terraform/`; on macOS
//! `Application Support/io.terraform` in `~/Library` and `/Library`; on Windows
//! `%APPDATA%\terraform.d` and `%APPDATA%\HashiCorp\Terraform`).

use std::path::{Path, PathBuf};

use super::cli_config::Environment;
use super::locate::{executable, Origin, Package};
use crate::schema::{Dialect, ProviderAddress};

/// The executable of the unpacked package of `provider` at `version` for `platform`
/// under `base`.
pub(super) fn unpacked_binary(
    base: &Path,
    provider: &ProviderAddress,
    version: &str,
    platform: &str,
) -> Option<PathBuf> {
    let dir = base.join(provider.directory()).join(version).join(platform);
    executable(&dir, &provider.type_name)
}

/// The package of `provider` at `version` for `platform` in the mirror `base`: unpacked,
/// else packed.
pub(super) fn mirror_package(
    base: &Path,
    provider: &ProviderAddress,
    version: &str,
    platform: &str,
) -> Option<Package> {
    if let Some(binary) = unpacked_binary(base, provider, version, platform) {
        return Some(Package::Binary(binary));
    }
    let dir = base.join(provider.directory());
    let mut archives: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name();
            let parsed = name
                .to_str()
                .and_then(|n| packed_package_name(n, &provider.type_name));
            parsed.is_some_and(|(v, p)| v == version && p == platform)
        })
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    archives.sort();
    archives.into_iter().next().map(Package::Archive)
}

/// The version and platform (`linux_amd64`) a packed package's file name states, when
/// it is one for `type_name`: `terraform-provider-<type>_<version>_<os>_<arch>.zip`,
/// lowercased first; parts after the architecture are ignored, as Terraform ignores them.
pub fn packed_package_name(file_name: &str, type_name: &str) -> Option<(String, String)> {
    let name = file_name.to_lowercase();
    let prefix = format!("terraform-provider-{type_name}_");
    let info = name.strip_prefix(&prefix)?.strip_suffix(".zip")?;
    let parts: Vec<&str> = info.split('_').collect();
    match parts.as_slice() {
        [version, os, arch, ..] if [version, os, arch].iter().all(|p| !p.is_empty()) => {
            Some((version.to_string(), format!("{os}_{arch}")))
        }
        _ => None,
    }
}

/// The implied local mirror directories `dialect` searches for the root module at `root`,
/// in order, each with where it is (only `terraform.d/plugins` is the workspace's).
/// Directories that do not exist are listed too: nothing is found in them.
pub fn implied_mirrors(
    root: &Path,
    env: &dyn Environment,
    dialect: Dialect,
) -> Vec<(PathBuf, Origin)> {
    let mut dirs = vec![(root.join("terraform.d").join("plugins"), Origin::Workspace)];
    let user = cli_data_dirs(env, dialect)
        .into_iter()
        .chain(platform_data_dirs(env))
        .map(|d| (d.join("plugins"), Origin::ImpliedMirror));
    dirs.extend(user);
    dirs
}

/// The CLI's own data directories: `~/.terraform.d` (`%APPDATA%\terraform.d` on
/// Windows); OpenTofu adds `$XDG_DATA_HOME/opentofu` when it is set.
fn cli_data_dirs(env: &dyn Environment, dialect: Dialect) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    let config_dir = if cfg!(windows) {
        env.var("APPDATA")
            .map(|d| PathBuf::from(d).join("terraform.d"))
    } else {
        env.home().map(|h| h.join(".terraform.d"))
    };
    dirs.extend(config_dir);
    if dialect == Dialect::OpenTofu && !cfg!(windows) {
        dirs.extend(
            env.var("XDG_DATA_HOME")
                .map(|d| PathBuf::from(d).join("opentofu")),
        );
    }
    dirs
}

/// The platform's data directories of the application "Terraform", as go-userdirs
/// names them (both dialects use Terraform's): XDG on Linux and other Unixes, Apple's
/// `Application Support` on macOS, the roaming application data's `HashiCorp\Terraform`
/// on Windows (`%APPDATA%`, which is that known folder).
fn platform_data_dirs(env: &dyn Environment) -> Vec<PathBuf> {
    if cfg!(target_os = "macos") {
        let bundle = "io.terraform";
        let user = env
            .home()
            .map(|h| h.join("Library/Application Support").join(bundle));
        let global = Path::new("/Library/Application Support").join(bundle);
        return user.into_iter().chain([global]).collect();
    }
    if cfg!(windows) {
        let roaming = env.var("APPDATA").map(PathBuf::from);
        return roaming
            .map(|d| d.join("HashiCorp").join("Terraform"))
            .into_iter()
            .collect();
    }
    // Relative values are ignored, as the XDG specification says.
    let home_data = env
        .var("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|d| d.is_absolute())
        .or_else(|| env.home().map(|h| h.join(".local/share")));
    let others: Vec<PathBuf> = match env.var("XDG_DATA_DIRS") {
        Some(list) => std::env::split_paths(&list)
            .filter(|d| d.is_absolute())
            .collect(),
        None => vec!["/usr/local/share".into(), "/usr/share".into()],
    };
    home_data
        .into_iter()
        .chain(others)
        .map(|d| d.join("terraform"))
        .collect()
}

#[cfg(test)]
#[path = "mirrors_tests.rs"]
mod tests;
