//! Provider schemas in the language server: loaded in the background (a blocking thread,
//! never a request) once indexing is done, again when the settings
//! `strata.providerSchemas.files` / `strata.providerSchemas.runPlugins` change; when a
//! dependency lock file or the providers `terraform init` installs change (watched
//! files: `.terraform.lock.hcl`, `.terraform/providers/**`, `terraform.d/plugins/**`,
//! and the `providers` directory wherever `TF_DATA_DIR` puts a root module's data, even
//! outside the workspace), only the affected root modules are resolved again, once the
//! burst of events settles.
//! Then every module's diagnostics are published again.
//! The outcome is one `window/logMessage` line, the `strata/providerSchemaStatus`
//! notification and the `strata.providerSchemaStatus` command's answer. Settings that do
//! not mention `providerSchemas` mean its defaults.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use tower_lsp_server::ls_types::MessageType;
use tower_lsp_server::Client;
use tracing::{info, warn};

use super::publisher::Publisher;
use crate::providers::{
    data_dir, Cache, Environment, ProcessEnvironment, ProviderStatus, SchemaStore, StoreOptions,
};
use crate::schema::ProviderSchemaSource;
use crate::text::read::normalize;
use crate::workspace::Workspace;

/// The command that answers the provider schemas' status.
pub const PROVIDER_SCHEMA_STATUS: &str = "strata.providerSchemaStatus";

/// The notification sent after every load, with the command's answer, so that editors
/// can show the status without asking.
enum StatusNotification {}

impl tower_lsp_server::ls_types::notification::Notification for StatusNotification {
    type Params = Value;
    const METHOD: &'static str = "strata/providerSchemaStatus";
}

/// The settings under `strata.providerSchemas`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaSettings {
    /// Schema files to use first.
    pub files: Vec<PathBuf>,
    /// Whether provider binaries inside the workspace may be started.
    pub run_plugins: bool,
}

impl Default for SchemaSettings {
    fn default() -> Self {
        Self {
            files: Vec::new(),
            run_plugins: true,
        }
    }
}

/// `providerSchemas` from settings (`{"strata": {"providerSchemas": {...}}}` or without
/// the `strata` level); `None` when the settings do not mention it.
pub fn schema_settings(settings: &Value) -> Option<SchemaSettings> {
    let section = settings
        .get("strata")
        .and_then(|s| s.get("providerSchemas"))
        .or_else(|| settings.get("providerSchemas"))?;
    let files = section
        .get("files")
        .and_then(Value::as_array)
        .map(|files| {
            files
                .iter()
                .filter_map(Value::as_str)
                .filter(|f| !f.is_empty())
                .map(PathBuf::from)
                .collect()
        })
        .unwrap_or_default();
    let run_plugins = section
        .get("runPlugins")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    Some(SchemaSettings { files, run_plugins })
}

/// How long a reload for changed files waits for more events: `terraform init` writes
/// a lock file and many files of each provider package.
const SETTLE: Duration = Duration::from_millis(300);

/// The server's provider schemas: settings, the load in progress, the last outcome.
#[derive(Debug, Default)]
pub struct ProviderSchemas {
    settings: Mutex<SchemaSettings>,
    /// The load requests not applied yet.
    requests: Mutex<Requests>,
    loading: AtomicBool,
    last: Mutex<Option<Arc<SchemaStore>>>,
    /// Where `TF_DATA_DIR` puts the last store's root modules' providers.
    moved: Mutex<MovedDataDirs>,
}

/// The providers directories of root modules whose data directory `TF_DATA_DIR` moves
/// away from `.terraform` (anywhere, even outside the workspace), which the workspace's
/// globs do not see: Terraform installs into `$TF_DATA_DIR/providers`.
#[derive(Debug, Default)]
struct MovedDataDirs {
    /// Each providers directory (lexically normal, as the client names files) with the
    /// root module whose it is.
    dirs: Vec<(PathBuf, PathBuf)>,
    /// The data directories the client was last asked to watch.
    watched: BTreeSet<PathBuf>,
}

/// What the load requests since the last applied load ask for.
#[derive(Debug, Default)]
struct Requests {
    /// Bumped by every request; a load applies its result only if still current.
    generation: u64,
    /// A full load: nothing of the last store may be kept (settings changed, first load).
    full: bool,
    /// The root modules whose installed providers changed.
    roots: BTreeSet<PathBuf>,
}

/// What one load does: everything, or only what changed since the last store.
#[derive(Debug, Clone)]
pub enum Reload {
    /// Resolve every root module again.
    Full,
    /// Keep what the last store resolved, except for these root modules (and those whose
    /// lock file or providers changed).
    Roots(BTreeSet<PathBuf>),
}

/// The root module whose installed providers a watched file belongs to: the directory
/// holding the `.terraform/providers` or `terraform.d/plugins` directory it is in, or
/// holding a changed lock file. `None` for any other file (modules `terraform init`
/// downloads into `.terraform/modules` are configuration files).
pub fn installation_root(path: &Path) -> Option<PathBuf> {
    if path.file_name() == Some(crate::providers::LOCK_FILE_NAME.as_ref()) {
        return path.parent().map(Path::to_path_buf);
    }
    let mut root = PathBuf::new();
    let mut parts = path.components().peekable();
    while let Some(part) = parts.next() {
        let next = parts.peek().map(|p| p.as_os_str());
        let installed = match part {
            Component::Normal(name) if name == ".terraform" => next == Some("providers".as_ref()),
            Component::Normal(name) if name == "terraform.d" => next == Some("plugins".as_ref()),
            _ => false,
        };
        if installed {
            return Some(root);
        }
        root.push(part);
    }
    None
}

/// Whether a watched file is part of an installed provider (not a workspace file).
pub fn is_installed_provider(path: &Path) -> bool {
    installation_root(path).is_some()
        && path.file_name() != Some(crate::providers::LOCK_FILE_NAME.as_ref())
}

/// What `strata.providerSchemaStatus` answers.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusAnswer {
    /// A load is running.
    pub loading: bool,
    /// The one-line summary, as logged.
    pub summary: String,
    /// Every provider's status.
    pub providers: Vec<ProviderStatus>,
    /// Schema files that could not be read.
    pub errors: Vec<String>,
    /// Each status as a line of text.
    pub lines: Vec<String>,
}

impl ProviderSchemas {
    /// The root modules whose installed providers a watched file belongs to: the one
    /// `installation_root` names, and those whose moved providers directory holds it.
    pub fn installation_roots(&self, path: &Path) -> BTreeSet<PathBuf> {
        let mut roots: BTreeSet<PathBuf> = installation_root(path).into_iter().collect();
        let moved = self.lock_moved();
        let holding = moved.dirs.iter().filter(|(dir, _)| path.starts_with(dir));
        roots.extend(holding.map(|(_, root)| root.clone()));
        roots
    }

    /// Whether a watched file is part of an installed provider (not a workspace file).
    pub fn is_installed(&self, path: &Path) -> bool {
        is_installed_provider(path)
            || self
                .lock_moved()
                .dirs
                .iter()
                .any(|(dir, _)| path.starts_with(dir))
    }

    /// Asks the client to watch the data directories `TF_DATA_DIR` gives the last
    /// store's root modules when they changed since it last asked (a moved data
    /// directory is out of the workspace's globs, often out of the workspace).
    pub async fn watch_data_dirs(&self, client: &Client, session: &CancellationToken) {
        let (old, new) = {
            let mut moved = self.lock_moved();
            let new: BTreeSet<PathBuf> = moved
                .dirs
                .iter()
                .filter_map(|(dir, _)| dir.parent().map(Path::to_path_buf))
                .collect();
            if new == moved.watched {
                return;
            }
            (std::mem::replace(&mut moved.watched, new.clone()), new)
        };
        let ask = async {
            if !old.is_empty() {
                let gone = vec![super::capabilities::data_dir_unregistration()];
                if let Err(e) = client.unregister_capability(gone).await {
                    warn!("client refused to stop watching data directories: {e}");
                }
            }
            if let Some(registration) = super::capabilities::data_dir_registration(&new) {
                if let Err(e) = client.register_capability(vec![registration]).await {
                    warn!("client refused to watch data directories: {e}");
                }
            }
        };
        tokio::select! {
            () = ask => {}
            () = session.cancelled() => {}
        }
    }

    fn lock_moved(&self) -> std::sync::MutexGuard<'_, MovedDataDirs> {
        self.moved.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records settings; whether they changed.
    pub fn configure(&self, settings: SchemaSettings) -> bool {
        let mut current = self.settings.lock().unwrap_or_else(|e| e.into_inner());
        let changed = *current != settings;
        *current = settings;
        changed
    }

    /// Loads the schemas of every module now indexed on a blocking thread (all of them,
    /// or only the roots `reload` names, after the events settle), makes them the
    /// workspace's, publishes every module again, and logs the outcome.
    pub async fn reload(
        self: Arc<Self>,
        reload: Reload,
        workspace: Arc<Workspace>,
        publisher: Publisher,
        client: Client,
        session: CancellationToken,
    ) {
        let generation = self.request(&reload);
        if matches!(reload, Reload::Roots(_)) {
            tokio::time::sleep(SETTLE).await;
            if self.lock_requests().generation != generation {
                return; // A newer request does the work.
            }
        }
        self.loading.store(true, Ordering::SeqCst);
        let settings = self
            .settings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let options = StoreOptions {
            files: settings.files,
            run_plugins: settings.run_plugins,
            cache: Cache::user(),
        };
        let (ws, this) = (workspace.clone(), self.clone());
        // Loading and applying (which rebuilds every module) both block: off the async
        // threads. A newer load's result wins.
        let loaded = tokio::task::spawn_blocking(move || {
            // What the last applied load left, and what was asked since, read together:
            // a load applies (and records itself as the last) under the same lock.
            let (before, full, changed) = {
                let requests = this.lock_requests();
                let before = this.last.lock().unwrap_or_else(|e| e.into_inner()).clone();
                (before, requests.full, requests.roots.clone())
            };
            let previous = before.as_deref().filter(|_| !full);
            let store = Arc::new(ws.reload_provider_schema_store(&options, previous, &changed));
            // Held while applying, so that an older load never replaces a newer one.
            let mut requests = this.lock_requests();
            if requests.generation != generation {
                return None;
            }
            *requests = Requests {
                generation,
                ..Requests::default()
            };
            *this.last.lock().unwrap_or_else(|e| e.into_inner()) = Some(store.clone());
            this.lock_moved().dirs = moved_providers_dirs(&store, &ProcessEnvironment);
            // No schema before and none now: checking every module again would change
            // nothing (a workspace without lock files, right after indexing).
            let had_schemas = before.is_some_and(|b| !b.providers().is_empty());
            let changed = had_schemas || !store.providers().is_empty();
            if changed {
                ws.set_provider_schemas(store.clone());
            }
            Some((store, changed))
        })
        .await;
        let (store, changed) = match loaded {
            Ok(Some(loaded)) => loaded,
            Ok(None) => return,
            Err(e) => {
                warn!("loading provider schemas failed: {e}");
                self.loading.store(false, Ordering::SeqCst);
                return;
            }
        };
        self.loading.store(false, Ordering::SeqCst);
        if changed {
            for module in workspace.modules() {
                publisher.publish_later(module);
            }
        }
        let summary = summary(&store);
        info!("{summary}");
        if session.is_cancelled() {
            return; // Nobody listens any more.
        }
        for line in store.file_errors() {
            client
                .log_message(MessageType::ERROR, format!("strata: {line}"))
                .await;
        }
        client
            .log_message(MessageType::INFO, format!("strata: {summary}"))
            .await;
        match serde_json::to_value(self.status()) {
            Ok(status) => client.send_notification::<StatusNotification>(status).await,
            Err(e) => warn!("cannot send the provider schema status: {e}"),
        }
    }

    /// Records a load request; its generation.
    fn request(&self, reload: &Reload) -> u64 {
        let mut requests = self.lock_requests();
        requests.generation += 1;
        match reload {
            Reload::Full => requests.full = true,
            Reload::Roots(roots) => requests.roots.extend(roots.iter().cloned()),
        }
        requests.generation
    }

    fn lock_requests(&self) -> std::sync::MutexGuard<'_, Requests> {
        self.requests.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The answer of `strata.providerSchemaStatus`.
    pub fn status(&self) -> StatusAnswer {
        let last = self.last.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let loading = self.loading.load(Ordering::SeqCst);
        match last {
            Some(store) => StatusAnswer {
                loading,
                summary: summary(&store),
                providers: store.statuses().to_vec(),
                errors: store.file_errors().to_vec(),
                lines: store.statuses().iter().map(|s| s.to_string()).collect(),
            },
            None => StatusAnswer {
                loading,
                summary: "provider schemas: not loaded yet".into(),
                providers: Vec::new(),
                errors: Vec::new(),
                lines: Vec::new(),
            },
        }
    }
}

/// The providers directory of each root module of `store` when `TF_DATA_DIR` moves it,
/// with its root.
fn moved_providers_dirs(store: &SchemaStore, env: &dyn Environment) -> Vec<(PathBuf, PathBuf)> {
    if env.var("TF_DATA_DIR").is_none() {
        return Vec::new();
    }
    store
        .roots()
        .map(|root| {
            (
                normalize(&data_dir(root, env).join("providers")),
                root.to_path_buf(),
            )
        })
        .collect()
}

/// One line: how many providers have schemas, and the first that has none with why.
fn summary(store: &SchemaStore) -> String {
    let statuses = store.statuses();
    let loaded = statuses.iter().filter(|s| s.is_loaded()).count();
    let mut line = format!("provider schemas: {loaded} of {} loaded", statuses.len());
    let missing: Vec<&ProviderStatus> = statuses.iter().filter(|s| !s.is_loaded()).collect();
    if let Some(first) = missing.first() {
        line.push_str(&format!("; {first}"));
        if missing.len() > 1 {
            line.push_str(&format!(" (and {} more)", missing.len() - 1));
        }
    }
    if !store.file_errors().is_empty() {
        line.push_str(&format!(
            "; {} schema files unreadable",
            store.file_errors().len()
        ));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watched_files_name_the_root_whose_providers_changed() {
        let root = |p: &str| installation_root(Path::new(p)).map(|r| r.display().to_string());
        let lock = "/w/live/.terraform.lock.hcl";
        let installed = "/w/live/.terraform/providers/registry.terraform.io/hashicorp/aws/5.1.0/linux_amd64/terraform-provider-aws_v5.1.0_x5";
        let vendored = "/w/live/terraform.d/plugins/registry.terraform.io/hashicorp/aws/terraform-provider-aws_5.1.0_linux_amd64.zip";
        for path in [lock, installed, vendored] {
            assert_eq!(root(path).as_deref(), Some("/w/live"), "{path}");
        }
        assert!(!is_installed_provider(Path::new(lock)));
        assert!(is_installed_provider(Path::new(installed)));
        assert!(is_installed_provider(Path::new(vendored)));
        let downloaded = "/w/live/.terraform/modules/vpc/main.tf";
        for other in ["/w/live/main.tf", "/w/terraform.d/other/x.tf", downloaded] {
            assert_eq!(root(other), None, "{other}");
        }
    }
}
