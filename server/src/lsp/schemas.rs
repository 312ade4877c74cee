//! Provider schemas in the language server: loaded in the background (a blocking thread,
//! never a request) once indexing is done, again when the settings
//! `strata.providerSchemas.files` / `strata.providerSchemas.runPlugins` change or a
//! dependency lock file does; then every module's diagnostics are published again.
//! The outcome is one `window/logMessage` line, the `strata/providerSchemaStatus`
//! notification and the `strata.providerSchemaStatus` command's answer. Settings that do
//! not mention `providerSchemas` mean its defaults.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde::Serialize;
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use tower_lsp_server::ls_types::MessageType;
use tower_lsp_server::Client;
use tracing::{info, warn};

use super::diagnostics::Publisher;
use crate::providers::{Cache, ProviderStatus, SchemaStore, StoreOptions};
use crate::schema::ProviderSchemaSource;
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

/// The server's provider schemas: settings, the load in progress, the last outcome.
#[derive(Debug, Default)]
pub struct ProviderSchemas {
    settings: Mutex<SchemaSettings>,
    /// Bumped by every load request; a load applies its result only if still current.
    generation: AtomicU64,
    loading: AtomicBool,
    last: Mutex<Option<Arc<SchemaStore>>>,
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
    /// Records settings; whether they changed.
    pub fn configure(&self, settings: SchemaSettings) -> bool {
        let mut current = self.settings.lock().unwrap_or_else(|e| e.into_inner());
        let changed = *current != settings;
        *current = settings;
        changed
    }

    /// Loads the schemas of every module now indexed on a blocking thread, makes them
    /// the workspace's, publishes every module again, and logs the outcome.
    pub async fn reload(
        self: Arc<Self>,
        workspace: Arc<Workspace>,
        publisher: Publisher,
        client: Client,
        session: CancellationToken,
    ) {
        let generation = self.generation.fetch_add(1, Ordering::SeqCst) + 1;
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
            let store = Arc::new(ws.provider_schema_store(&options));
            if this.generation.load(Ordering::SeqCst) != generation {
                return None;
            }
            // No schema before and none now: checking every module again would change
            // nothing (a workspace without lock files, right after indexing).
            let before = this.last.lock().unwrap_or_else(|e| e.into_inner()).clone();
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
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Some(store.clone());
        self.loading.store(false, Ordering::SeqCst);
        if changed {
            for module in workspace.modules() {
                publisher.publish(module);
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
