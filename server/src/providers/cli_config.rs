//! The parts of the user's Terraform / OpenTofu CLI configuration that say where providers
//! are installed: `plugin_cache_dir` (or `TF_PLUGIN_CACHE_DIR`), and in
//! `provider_installation` the `filesystem_mirror` directories (with their `include` /
//! `exclude` patterns) and `dev_overrides`, or that there is no such block (the implied
//! local mirrors are searched then). The file is `TF_CLI_CONFIG_FILE`, else
//! `~/.terraformrc` for Terraform and `~/.tofurc` for OpenTofu.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::eval::constant;
use crate::schema::Dialect;
use crate::schema::{default_registry, ProviderAddress};
use crate::syntax::{self, Body, Syntax};

/// Where the user's CLI configuration places providers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CliConfig {
    /// The file it was read from, if any.
    pub file: Option<PathBuf>,
    /// The shared plugin cache.
    pub plugin_cache_dir: Option<PathBuf>,
    /// Whether the file has a `provider_installation` block: without one, Terraform
    /// searches the implied local mirror directories instead of `filesystem_mirrors`.
    pub provider_installation: bool,
    /// Filesystem mirrors, in the order the file lists them.
    pub filesystem_mirrors: Vec<FilesystemMirror>,
    /// Directories holding a development build of a provider, which wins over any
    /// installed version.
    pub dev_overrides: Vec<(ProviderAddress, PathBuf)>,
}

/// One `filesystem_mirror` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilesystemMirror {
    /// The mirror directory.
    pub path: PathBuf,
    /// Only providers matching one of these patterns (all when empty).
    pub include: Vec<String>,
    /// Never providers matching one of these patterns.
    pub exclude: Vec<String>,
}

impl FilesystemMirror {
    /// Whether the mirror serves `provider`.
    pub fn serves(&self, provider: &ProviderAddress, dialect: Dialect) -> bool {
        let matches = |p: &String| pattern_matches(p, provider, dialect);
        (self.include.is_empty() || self.include.iter().any(matches))
            && !self.exclude.iter().any(matches)
    }
}

/// Whether an `include` / `exclude` pattern (`hashicorp/*`, `example.com/*/*`) matches:
/// each part is a name or `*`, and a pattern without a host names the public registry.
fn pattern_matches(pattern: &str, provider: &ProviderAddress, dialect: Dialect) -> bool {
    let pattern = pattern.to_lowercase();
    let parts: Vec<&str> = pattern.split('/').collect();
    let parts = match parts.as_slice() {
        [ns, t] => [default_registry(dialect), ns, t],
        [host, ns, t] => [*host, ns, t],
        _ => return false,
    };
    let actual = [&provider.hostname, &provider.namespace, &provider.type_name];
    parts
        .iter()
        .zip(actual)
        .all(|(p, a)| *p == "*" || *p == a.as_str())
}

/// The environment the configuration is found from (so tests need not touch the real one).
pub trait Environment {
    /// An environment variable.
    fn var(&self, name: &str) -> Option<String>;
    /// The user's home directory.
    fn home(&self) -> Option<PathBuf>;
}

/// The process's own environment.
pub struct ProcessEnvironment;

impl Environment for ProcessEnvironment {
    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok().filter(|v| !v.is_empty())
    }

    fn home(&self) -> Option<PathBuf> {
        self.var("HOME").map(PathBuf::from)
    }
}

/// Why the CLI configuration cannot be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CliConfigError {
    /// The file exists but cannot be read.
    #[error("cannot read the CLI configuration {0}: {1}")]
    Read(PathBuf, String),
    /// The file is not valid HCL.
    #[error("the CLI configuration {0} has syntax errors")]
    Syntax(PathBuf),
}

/// The CLI configuration file `dialect` reads, whether or not it exists.
pub fn config_file(env: &dyn Environment, dialect: Dialect) -> Option<PathBuf> {
    if let Some(file) = env.var("TF_CLI_CONFIG_FILE") {
        return Some(file.into());
    }
    let name = match dialect {
        Dialect::Terraform => ".terraformrc",
        Dialect::OpenTofu => ".tofurc",
    };
    Some(env.home()?.join(name))
}

/// Loads the configuration `dialect` would use; no file is an empty configuration.
pub fn load(env: &dyn Environment, dialect: Dialect) -> Result<CliConfig, CliConfigError> {
    let mut config = match config_file(env, dialect) {
        Some(file) if file.is_file() => {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| CliConfigError::Read(file.clone(), e.to_string()))?;
            let mut config = parse(&text, dialect).ok_or(CliConfigError::Syntax(file.clone()))?;
            config.file = Some(file);
            config
        }
        _ => CliConfig::default(),
    };
    if let Some(dir) = env.var("TF_PLUGIN_CACHE_DIR") {
        config.plugin_cache_dir = Some(dir.into());
    }
    if let Some(home) = env.home() {
        config.plugin_cache_dir = config.plugin_cache_dir.map(|d| expand_home(&d, &home));
    }
    Ok(config)
}

/// `~/x` with the home directory, as Terraform expands `plugin_cache_dir`.
fn expand_home(dir: &Path, home: &Path) -> PathBuf {
    dir.strip_prefix("~")
        .map_or_else(|_| dir.to_path_buf(), |rest| home.join(rest))
}

/// Reads a configuration's text; `None` on syntax errors.
///
/// The CLI configuration is HCL 1, which also takes quoted names before `=` (the form
/// `dev_overrides` entries are documented in: `"hashicorp/aws" = "/dir"`); they are read
/// as placeholders that `quoted_keys` maps back.
pub fn parse(text: &str, dialect: Dialect) -> Option<CliConfig> {
    let (text, quoted_keys) = unquote_keys(text);
    let file = syntax::parse(&text, Syntax::Native, None);
    if file.has_errors() {
        return None;
    }
    let key = |name: &str| -> String {
        let index = name
            .strip_prefix(QUOTED_KEY)
            .and_then(|i| i.parse::<usize>().ok());
        index
            .and_then(|i| quoted_keys.get(i).cloned())
            .unwrap_or_else(|| name.to_string())
    };
    let mut config = CliConfig {
        plugin_cache_dir: string(&file.body, "plugin_cache_dir").map(PathBuf::from),
        ..CliConfig::default()
    };
    for installation in file.body.blocks_of("provider_installation") {
        config.provider_installation = true;
        for mirror in installation.body.blocks_of("filesystem_mirror") {
            let Some(path) = string(&mirror.body, "path") else {
                continue;
            };
            config.filesystem_mirrors.push(FilesystemMirror {
                path: path.into(),
                include: strings(&mirror.body, "include"),
                exclude: strings(&mirror.body, "exclude"),
            });
        }
        for overrides in installation.body.blocks_of("dev_overrides") {
            for a in &overrides.body.attributes {
                let dir = constant(&a.expr);
                let (Some(address), Some(Value::String(dir))) =
                    (ProviderAddress::parse(&key(&a.name.name), dialect), dir)
                else {
                    continue;
                };
                config.dev_overrides.push((address, dir.into()));
            }
        }
    }
    Some(config)
}

/// The prefix of the placeholder names of quoted keys.
const QUOTED_KEY: &str = "strata_quoted_key_";

/// `"name" =` at the start of a line becomes `strata_quoted_key_<n> =`; returns the text
/// and the names in order.
fn unquote_keys(text: &str) -> (String, Vec<String>) {
    static KEY: std::sync::LazyLock<Option<regex::Regex>> =
        std::sync::LazyLock::new(|| regex::Regex::new(r#"(?m)^([ \t]*)"([^"\n]*)"([ \t]*=)"#).ok());
    let Some(key) = &*KEY else {
        return (text.to_string(), Vec::new());
    };
    let mut names = Vec::new();
    let replaced = key.replace_all(text, |c: &regex::Captures<'_>| {
        names.push(c[2].to_string());
        format!("{}{QUOTED_KEY}{}{}", &c[1], names.len() - 1, &c[3])
    });
    (replaced.into_owned(), names)
}

fn string(body: &Body, name: &str) -> Option<String> {
    match constant(&body.attribute(name)?.expr)? {
        Value::String(s) => Some(s),
        _ => None,
    }
}

fn strings(body: &Body, name: &str) -> Vec<String> {
    match body.attribute(name).and_then(|a| constant(&a.expr)) {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|i| i.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}
