//! The language server: tower-lsp-server handlers over the workspace store.
//!
//! Ordering invariant: every document notification applies its edit to the workspace
//! synchronously, before the handler's first `.await`. tower-lsp-server polls handlers
//! in arrival order, so edits are applied in the order the client sent them even though
//! handlers run concurrently.

mod capabilities;
mod convert;
mod diagnostics;
mod hover;
mod indexer;
mod navigation;
mod plan;
mod state;
pub mod transport;

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer, LspService, Server as Transport};
use tracing::warn;

use crate::workspace::Workspace;
use state::State;

/// Serves LSP over standard input and output until `exit`; returns whether `shutdown`
/// came first (the exit status LSP asks for depends on it).
pub async fn serve_stdio() -> bool {
    let (service, socket) = LspService::build(Server::new)
        .custom_method(transport::MALFORMED_METHOD, Server::malformed)
        .finish();
    let state = service.inner().state.clone();
    let input = transport::guard(tokio::io::stdin());
    Transport::new(input, tokio::io::stdout(), socket)
        .serve(service)
        .await;
    state.shut_down()
}

/// The language server's handlers and shared state.
pub struct Server {
    client: Client,
    workspace: Arc<Workspace>,
    state: Arc<State>,
    publisher: diagnostics::Publisher,
}

impl Server {
    fn new(client: Client) -> Self {
        let workspace = Arc::new(Workspace::new());
        let state = Arc::new(State::default());
        let publisher =
            diagnostics::Publisher::start(client.clone(), workspace.clone(), state.clone());
        Self {
            client,
            workspace,
            state,
            publisher,
        }
    }

    /// Answers a message the transport guard could not pass on (see `transport`).
    async fn malformed(&self, params: serde_json::Value) -> Result<()> {
        let mut error = tower_lsp_server::jsonrpc::Error::parse_error();
        error.data = params.get("reason").cloned();
        Err(error)
    }

    /// Queues the diagnostics of the module for publishing (stale snapshots are skipped).
    fn publish(&self, module: Arc<crate::module::Module>) {
        self.publisher.publish(module);
    }
}

impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let setup = capabilities::negotiate(&params);
        self.state.configure(&setup, &params);
        self.workspace.set_dialect(setup.dialect);
        self.workspace.set_core_version(
            params
                .initialization_options
                .as_ref()
                .and_then(capabilities::core_version_setting),
        );
        self.state.set_state_path(
            params
                .initialization_options
                .as_ref()
                .and_then(capabilities::state_path_setting),
        );
        Ok(capabilities::result(&setup))
    }

    async fn initialized(&self, _: InitializedParams) {
        if self.state.client_watches_files() {
            if let Err(err) = self
                .client
                .register_capability(vec![capabilities::file_watch_registration()])
                .await
            {
                warn!("client refused file watching: {err}");
            }
        }
        let indexer = indexer::Indexer {
            client: self.client.clone(),
            workspace: self.workspace.clone(),
            state: self.state.clone(),
            publisher: self.publisher.clone(),
        };
        tokio::spawn(indexer.run());
    }

    async fn shutdown(&self) -> Result<()> {
        self.state.mark_shut_down();
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let doc = params.text_document;
        let Some(path) = convert::path_of(&doc.uri) else {
            return;
        };
        if let Some(dir) = path.parent() {
            if self.workspace.module(dir).is_none() {
                // Open documents first: their module is read now, not by the indexer.
                self.workspace.index_dir(dir);
            }
        }
        let module = self.workspace.open_document(&path, &doc.text, doc.version);
        self.publish(module);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let Some(path) = convert::path_of(&params.text_document.uri) else {
            return;
        };
        let changes: Vec<_> = params
            .content_changes
            .into_iter()
            .map(convert::text_change)
            .collect();
        let result = self.workspace.change_document(
            &path,
            &changes,
            params.text_document.version,
            self.state.encoding(),
        );
        match result {
            Ok(module) => self.publish(module),
            Err(err) => {
                warn!("{err}");
                self.client
                    .log_message(MessageType::ERROR, format!("strata: {err}"))
                    .await;
            }
        }
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        let Some(path) = convert::path_of(&params.text_document.uri) else {
            return;
        };
        // The editor's text already won; a save of a file that is not open (some clients
        // send one after a rename) is read from disk.
        let module = if self.workspace.is_open(&path) {
            path.parent().and_then(|d| self.workspace.module(d))
        } else {
            self.workspace.disk_changed(&path)
        };
        if let Some(module) = module {
            self.publish(module);
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let Some(path) = convert::path_of(&params.text_document.uri) else {
            return;
        };
        if let Some(module) = self.workspace.close_document(&path) {
            self.publish(module);
        }
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        let mut touched = Vec::new();
        for change in params.changes {
            let Some(path) = convert::path_of(&change.uri) else {
                continue;
            };
            let module = if change.typ == FileChangeType::DELETED {
                self.workspace.disk_deleted(&path)
            } else {
                self.workspace.disk_changed(&path)
            };
            touched.extend(module);
        }
        touched.sort_by(|a, b| a.dir.cmp(&b.dir));
        touched.dedup_by(|a, b| a.dir == b.dir);
        for module in touched {
            if let Some(current) = self.workspace.module(&module.dir) {
                self.publish(current);
            }
        }
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        self.state
            .set_state_path(capabilities::state_path_setting(&params.settings));
        let dialect = capabilities::dialect_setting(&params.settings);
        self.workspace.set_dialect(dialect);
        self.workspace
            .set_core_version(capabilities::core_version_setting(&params.settings));
        for module in self.workspace.modules() {
            self.publish(module);
        }
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let at = params.text_document_position_params;
        let Some(path) = convert::path_of(&at.text_document.uri) else {
            return Ok(None);
        };
        Ok(hover::hover(
            &self.workspace,
            &path,
            at.position,
            self.state.encoding(),
        ))
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let Some(path) = convert::path_of(&params.text_document.uri) else {
            return Ok(None);
        };
        let encoding = self.state.encoding();
        let mut lenses = navigation::code_lenses(&self.workspace, &path, encoding);
        lenses.extend(plan::code_lenses(
            &self.workspace,
            &path,
            self.state.state_path().as_deref(),
            encoding,
        ));
        Ok(Some(lenses))
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let at = params.text_document_position_params;
        let Some(path) = convert::path_of(&at.text_document.uri) else {
            return Ok(None);
        };
        Ok(navigation::definition(
            &self.workspace,
            &path,
            at.position,
            self.state.encoding(),
        ))
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        let argument = params.arguments.into_iter().next().unwrap_or_default();
        let invalid = |e: serde_json::Error| {
            tower_lsp_server::jsonrpc::Error::invalid_params(format!(
                "{}: expected one object argument: {e}",
                params.command
            ))
        };
        match params.command.as_str() {
            navigation::MERGED_BLOCK => {
                let args: navigation::PositionArgs =
                    serde_json::from_value(argument).map_err(invalid)?;
                Ok(Some(navigation::merged_block(
                    &self.workspace,
                    &args,
                    self.state.encoding(),
                )))
            }
            plan::PLAN_PREVIEW => {
                let args: plan::PlanArgs = serde_json::from_value(argument).map_err(invalid)?;
                let state = self.state.state_path();
                plan::plan_preview(&self.workspace, args, state.as_deref())
                    .map(Some)
                    .map_err(|e| {
                        tower_lsp_server::jsonrpc::Error::invalid_params(format!(
                            "{PLAN_PREVIEW_NAME}: {e}",
                            PLAN_PREVIEW_NAME = plan::PLAN_PREVIEW
                        ))
                    })
            }
            navigation::SHOW_OVERRIDE => {
                let target: Location = serde_json::from_value(argument).map_err(invalid)?;
                let shown = self
                    .client
                    .show_document(ShowDocumentParams {
                        uri: target.uri,
                        external: Some(false),
                        take_focus: Some(true),
                        selection: Some(target.range),
                    })
                    .await;
                if let Err(err) = shown {
                    warn!("client could not show the override: {err}");
                }
                Ok(None)
            }
            other => Err(tower_lsp_server::jsonrpc::Error::invalid_params(format!(
                "unknown command {other}"
            ))),
        }
    }
}
