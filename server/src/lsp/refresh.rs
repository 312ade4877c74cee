//! Asking the client to request code lenses, semantic tokens and inlay hints again
//! (`workspace/codeLens/refresh`, `workspace/semanticTokens/refresh`,
//! `workspace/inlayHint/refresh`) when what they show
//! changed without the client's own document changing: a plan's inputs (settings, the
//! state file, provider schemas) or another file of the module (an override changes its
//! base file's "overridden by" lenses, `overridden` tokens and `←` value hints). Clients
//! such as Neovim ask for code lenses only when told to, so without these they stay stale.
//!
//! Only what the client advertises (`refreshSupport`) is sent. Requests are coalesced:
//! a burst of changes (typing, a `terraform init` writing many files) gives one refresh
//! of each kind once the changes settle.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tower_lsp_server::ls_types::InitializeParams;
use tower_lsp_server::Client;
use tracing::debug;

/// How long the changes must pause before the refresh is sent.
const SETTLE: Duration = Duration::from_millis(200);

/// How long a client may take to answer one refresh request: one that never answers
/// must not hold back the refreshes after it.
const ANSWER: Duration = Duration::from_secs(10);

/// Which refresh requests the client accepts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RefreshSupport {
    /// `workspace.codeLens.refreshSupport`.
    pub code_lens: bool,
    /// `workspace.semanticTokens.refreshSupport`.
    pub semantic_tokens: bool,
    /// `workspace.inlayHint.refreshSupport`.
    pub inlay_hint: bool,
}

impl RefreshSupport {
    /// What the client's capabilities advertise.
    pub fn of(params: &InitializeParams) -> Self {
        let workspace = params.capabilities.workspace.as_ref();
        RefreshSupport {
            code_lens: workspace
                .and_then(|w| w.code_lens.as_ref())
                .and_then(|c| c.refresh_support)
                .unwrap_or(false),
            semantic_tokens: workspace
                .and_then(|w| w.semantic_tokens.as_ref())
                .and_then(|s| s.refresh_support)
                .unwrap_or(false),
            inlay_hint: workspace
                .and_then(|w| w.inlay_hint.as_ref())
                .and_then(|h| h.refresh_support)
                .unwrap_or(false),
        }
    }
}

/// The handle to ask for a refresh, and the one task that sends them.
#[derive(Debug, Clone, Default)]
pub struct Refresher {
    wanted: Arc<Notify>,
}

impl Refresher {
    /// Starts sending the refreshes a client that accepts `support` asked for (once it is
    /// initialized); with a client that accepts none, requests are only recorded.
    pub fn start(&self, client: Client, support: RefreshSupport, session: CancellationToken) {
        if support == RefreshSupport::default() {
            return;
        }
        let wanted = self.wanted.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    () = wanted.notified() => {}
                    () = session.cancelled() => return,
                }
                // Settle: every further request restarts the wait.
                loop {
                    tokio::select! {
                        () = wanted.notified() => {}
                        () = tokio::time::sleep(SETTLE) => break,
                        () = session.cancelled() => return,
                    }
                }
                // Each is answered (or given up after `ANSWER`) before the next is sent;
                // a session that ends meanwhile gives up waiting.
                let sent = async {
                    if support.code_lens {
                        answered("workspace/codeLens/refresh", client.code_lens_refresh()).await;
                    }
                    if support.semantic_tokens {
                        let request = client.semantic_tokens_refresh();
                        answered("workspace/semanticTokens/refresh", request).await;
                    }
                    if support.inlay_hint {
                        let request = client.inlay_hint_refresh();
                        answered("workspace/inlayHint/refresh", request).await;
                    }
                };
                tokio::select! {
                    () = sent => {}
                    () = session.cancelled() => return,
                }
            }
        });
    }

    /// Asks for a refresh once the changes settle.
    pub fn request(&self) {
        // Stores a permit when the task is not waiting (sending, or settling), so a
        // change made meanwhile is never lost.
        self.wanted.notify_one();
    }
}

/// Awaits the client's answer to one refresh request, for [`ANSWER`] at most.
async fn answered(
    method: &str,
    request: impl std::future::Future<Output = tower_lsp_server::jsonrpc::Result<()>>,
) {
    match tokio::time::timeout(ANSWER, request).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => debug!("{method}: {e}"),
        Err(_) => debug!("{method}: no answer within {ANSWER:?}"),
    }
}
