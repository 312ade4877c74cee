//! How the server runs work off the request path: long analyses of one module
//! (contained, cancellable, superseded by a newer edit of that module), requests of its
//! own to the client (given up when the session ends), and background loads of the
//! provider schemas.

use std::future::Future;
use std::path::Path;

use tokio::sync::broadcast;
use tower_lsp_server::jsonrpc::{self, Result};

use super::{schemas, Server};

impl Server {
    /// A load of the provider schemas, to run in the background.
    pub(super) fn schema_load(
        &self,
        reload: schemas::Reload,
    ) -> impl Future<Output = ()> + Send + 'static {
        let load = self.schemas.clone().reload(
            reload,
            self.workspace.clone(),
            self.publisher.clone(),
            self.client.clone(),
            self.session.clone(),
        );
        let (schemas, client, session) = (
            self.schemas.clone(),
            self.client.clone(),
            self.session.clone(),
        );
        let watch = self.state.client_watches_files();
        let refresher = self.refresher.clone();
        async move {
            load.await;
            // Plans, lenses and `deprecated` tokens read the schemas.
            refresher.request();
            // The roots just resolved may keep their providers where no glob looks.
            if watch {
                schemas.watch_data_dirs(&client, &session).await;
            }
        }
    }

    /// Loads the provider schemas again in the background.
    pub(super) fn reload_schemas(&self, reload: schemas::Reload) {
        tokio::spawn(self.schema_load(reload));
    }

    /// Awaits the client's answer to a request of the server's own; `None` once the
    /// session has ended (the answer can never come).
    pub(super) async fn ask<T>(&self, request: impl Future<Output = T>) -> Option<T> {
        tokio::select! {
            answer = request => Some(answer),
            () = self.session.cancelled() => None,
        }
    }

    /// Runs a long analysis of the module of `dir`: contained, cancellable, and answered
    /// with ContentModified as soon as the client changes that module (its result would
    /// be stale); either way the computation itself stops. Indexing reading the same
    /// files again is no change.
    pub(super) async fn analyse_module<T, F>(&self, dir: &Path, what: String, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let mut edits = self.edits.subscribe();
        let superseded = async {
            loop {
                match edits.recv().await {
                    Ok(edited) if edited != dir => {}
                    // That module, or too many edits to tell.
                    Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => return,
                    Err(broadcast::error::RecvError::Closed) => std::future::pending().await,
                }
            }
        };
        // Superseded, or the handler dropped by `$/cancelRequest`: dropping `run`'s future
        // stops the computation.
        tokio::select! {
            biased;
            result = self.heavy.run(what, f) => result.map_err(Into::into),
            () = superseded => Err(jsonrpc::Error::content_modified()),
        }
    }
}
