//! Background indexing of every module under the workspace folders, reported with
//! `$/progress`. Open documents never wait for it: their modules are read on `didOpen`.

use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use tower_lsp_server::ls_types::ProgressToken;
use tower_lsp_server::Client;
use tracing::{info, warn};

use super::publisher::Publisher;
use super::state::State;
use crate::workspace::{discover_modules, Workspace};

/// How many modules are indexed between two progress reports.
const BATCH: usize = 32;

/// How long indexing waits for the client to accept a progress token before it goes on
/// without reporting progress.
const PROGRESS_ANSWER: Duration = Duration::from_secs(5);

/// Indexes the workspace once, after `initialized`.
pub struct Indexer {
    /// To report progress and publish diagnostics.
    pub client: Client,
    /// Where modules go.
    pub workspace: Arc<Workspace>,
    /// Roots and client abilities.
    pub state: Arc<State>,
    /// Where diagnostics go.
    pub publisher: Publisher,
    /// Cancelled when the session ends: the client answers nothing after that.
    pub session: CancellationToken,
}

impl Indexer {
    /// Discovers and indexes every module, then publishes what they report.
    pub async fn run(self) {
        let roots = self.state.roots();
        let dirs = match tokio::task::spawn_blocking(move || {
            roots
                .iter()
                .flat_map(|r| discover_modules(r))
                .collect::<Vec<_>>()
        })
        .await
        {
            Ok(dirs) => dirs,
            Err(err) => {
                warn!("module discovery failed: {err}");
                return;
            }
        };
        let progress = if self.state.work_done_progress() {
            let token = ProgressToken::String("strata-index".into());
            let created = tokio::select! {
                created = self.client.create_work_done_progress(token.clone()) => created.ok(),
                () = tokio::time::sleep(PROGRESS_ANSWER) => None,
                () = self.session.cancelled() => None,
            };
            match created {
                Some(()) => Some(
                    self.client
                        .progress(token, "Indexing")
                        .with_message(format!("0/{} modules", dirs.len()))
                        .with_percentage(0)
                        .begin()
                        .await,
                ),
                None => None,
            }
        } else {
            None
        };
        let total = dirs.len().max(1);
        let mut done = 0;
        for batch in dirs.chunks(BATCH) {
            let ws = self.workspace.clone();
            done += batch.len();
            // Modules of documents opened meanwhile are already read.
            let batch: Vec<_> = batch
                .iter()
                .filter(|d| ws.module(d).is_none())
                .cloned()
                .collect();
            let indexed = tokio::task::spawn_blocking(move || ws.index_dirs(&batch, &|_| {}));
            if let Err(err) = indexed.await {
                warn!("indexing failed: {err}");
            }
            if let Some(p) = &progress {
                p.report_with_message(
                    format!("{done}/{} modules", dirs.len()),
                    (done * 100 / total) as u32,
                )
                .await;
            }
        }
        for module in self.workspace.modules() {
            self.publisher.publish_later(module);
        }
        if let Some(p) = progress {
            p.finish_with_message(format!("{} modules", dirs.len()))
                .await;
        }
        info!("indexed {} modules", dirs.len());
    }
}
