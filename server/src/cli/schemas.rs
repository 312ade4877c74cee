//! Provider schemas on the command line: the store `strata check` uses, and
//! `strata schemas import | export | status`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use clap::Subcommand;

use super::check::readable_dir;
use crate::module::Dialect;
use crate::providers::{
    import_schema_file, read_lock_file, Cache, ProviderAddress, SchemaStore, StoreOptions,
    LOCK_FILE_NAME,
};
use crate::workspace::{discover_modules, Workspace};

/// `strata schemas` subcommands.
#[derive(Debug, Subcommand)]
pub enum SchemasCommand {
    /// Put the providers of a schema file (`terraform providers schema -json`) into the
    /// cache, so that later runs use them where no binary can be run.
    #[command(
        after_help = "Example:\n  terraform providers schema -json > schemas.json && strata schemas import schemas.json"
    )]
    Import {
        /// The schema file.
        file: PathBuf,
        /// The version to file them under (default: the version the lock file of --dir
        /// pins; without one, any version of the provider that nothing else serves).
        #[arg(long)]
        version: Option<String>,
        /// The root module whose lock file gives the versions (default: the current
        /// directory).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Write the schemas Strata finds for the modules under --dir to DIR/schemas.json,
    /// in the format of `terraform providers schema -json` (one version of each
    /// provider: the first root module's); a provider the root modules lock at several
    /// versions also gets DIR/<host>/<namespace>/<type>/<version>/schemas.json for each.
    #[command(after_help = "Example:\n  strata schemas export --dir infra provider-schemas")]
    Export {
        /// Where to write schemas.json.
        out: PathBuf,
        #[command(flatten)]
        sources: Sources,
    },
    /// Print where the schema of each provider the modules under --dir need comes from,
    /// or why there is none.
    #[command(after_help = "Example:\n  strata schemas status --dir infra --no-plugins")]
    Status {
        #[command(flatten)]
        sources: Sources,
    },
}

/// Where schemas may come from, shared by the commands that load them.
#[derive(Debug, Clone, clap::Args)]
pub struct Sources {
    /// The directory of the modules (default: the current one); sub-directories holding
    /// modules count too.
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Never start a provider binary found inside the workspace (its .terraform
    /// directory); the cache, plugin cache and mirrors are still used.
    #[arg(long)]
    pub no_plugins: bool,
    /// A file of provider schemas in the format of `terraform providers schema -json`
    /// (repeatable); its providers win over the cache and binaries.
    #[arg(long = "provider-schemas", value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// Loads the schemas of the workspace's modules into it; a schema file that cannot be
/// read is an error.
pub fn load_store(ws: &Workspace, files: &[PathBuf], no_plugins: bool) -> Result<Arc<SchemaStore>> {
    let options = StoreOptions {
        files: files.to_vec(),
        run_plugins: !no_plugins,
        cache: Cache::user(),
    };
    let store = Arc::new(ws.provider_schema_store(&options));
    ws.set_provider_schemas(store.clone());
    if let Some(error) = store.file_errors().first() {
        bail!("{error}");
    }
    Ok(store)
}

/// Runs a `strata schemas` subcommand.
pub fn run(command: SchemasCommand) -> Result<ExitCode> {
    match command {
        SchemasCommand::Import { file, version, dir } => import(&file, version, dir),
        SchemasCommand::Export { out, sources } => {
            let store = store_of(&sources)?;
            export(&store, &out)
        }
        SchemasCommand::Status { sources } => {
            let store = store_of(&sources)?;
            for status in store.statuses() {
                println!("{status}");
            }
            if store.statuses().is_empty() {
                println!("no provider is needed");
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Indexes the modules under `--dir` and loads their schemas.
fn store_of(sources: &Sources) -> Result<Arc<SchemaStore>> {
    let dir = readable_dir(sources.dir.as_deref().unwrap_or(Path::new(".")))?;
    let ws = Workspace::new();
    ws.index_dirs(&discover_modules(&dir), &|_| {});
    load_store(&ws, &sources.files, sources.no_plugins)
}

fn export(store: &SchemaStore, out: &Path) -> Result<ExitCode> {
    let json = store
        .to_schema_file()
        .context("a cached schema is damaged; run the command again")?;
    let count = json["provider_schemas"].as_object().map_or(0, |p| p.len());
    if count == 0 {
        bail!("no provider schema found (see strata schemas status)");
    }
    let file = out.join("schemas.json");
    write_schema_file(&file, &json)?;
    println!("wrote {count} provider schemas to {}", file.display());
    let versioned = store
        .to_versioned_schema_files()
        .context("a cached schema is damaged; run the command again")?;
    for (address, version, json) in versioned {
        // The version comes from a lock file: it must stay one directory name.
        let plain = matches!(
            Path::new(&version).components().collect::<Vec<_>>()[..],
            [std::path::Component::Normal(_)]
        );
        if !plain {
            eprintln!("strata: skipped {address} at the version {version:?}, not a directory name");
            continue;
        }
        let file = out
            .join(&address.hostname)
            .join(&address.namespace)
            .join(&address.type_name)
            .join(&version)
            .join("schemas.json");
        write_schema_file(&file, &json)?;
        println!("wrote {address} {version} to {}", file.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes `json` to `file` as Terraform writes a schema file, creating its directory.
fn write_schema_file(file: &Path, json: &serde_json::Value) -> Result<()> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let text = super::schema_json::terraform_text(json);
    std::fs::write(file, text).with_context(|| format!("cannot write {}", file.display()))
}

fn import(file: &Path, version: Option<String>, dir: Option<PathBuf>) -> Result<ExitCode> {
    let cache = Cache::user().context("this system has no cache directory")?;
    let dir = dir.unwrap_or_else(|| PathBuf::from("."));
    let lock_path = dir.join(LOCK_FILE_NAME);
    let locked = match std::fs::read_to_string(&lock_path) {
        Ok(text) => read_lock_file(&text, Dialect::Terraform)
            .with_context(|| format!("cannot read {}", lock_path.display()))?,
        Err(_) => Default::default(),
    };
    let version_of = |address: &ProviderAddress| {
        version
            .clone()
            .or_else(|| locked.get(address).map(|l| l.version.clone()))
    };
    let imported = import_schema_file(&cache, file, &version_of)?;
    for (address, version, path) in imported {
        let version = version.as_deref().unwrap_or("(any version)");
        println!("imported {address} {version} into {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
