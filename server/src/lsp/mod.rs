//! The language server: tower-lsp-server handlers over the workspace store.
//!
//! Ordering invariant: every document notification applies its edit to the workspace
//! synchronously, before the handler's first `.await`. tower-lsp-server polls handlers
//! in arrival order, so edits are applied in the order the client sent them even though
//! handlers run concurrently.
//!
//! Robustness: the transport (`transport`) answers what tower-lsp-server could not read;
//! every analysis runs contained (`isolation`), so a panic fails one request or one
//! module's diagnostics; long ones (planning) are cancellable and superseded by a newer
//! edit of their module; a request of the server's own to the client is given up when
//! the session ends, so `exit` or the end of input always ends the process.

mod background;
mod capabilities;
mod code_actions;
mod completion;
mod convert;
mod diagnostics;
mod documents;
mod formatting;
mod hover;
mod hover_versions;
mod indexer;
mod inlay_hints;
mod isolation;
mod links;
mod navigation;
mod plan;
mod publisher;
mod references;
mod refresh;
mod running;
mod schemas;
mod semantic_tokens;
mod state;
mod structure;
pub mod transport;
mod workspace_symbols;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;
use tower_lsp_server::jsonrpc::{self, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer, LspService};
use tracing::warn;

use crate::workspace::Workspace;
use isolation::{contain, Heavy};
use state::State;
use transport::Transport;

/// How long requests still running when the input ends may take to answer.
const DRAIN: Duration = Duration::from_secs(5);

/// How many edits a long request may fall behind before it counts as superseded.
const EDITS_QUEUE: usize = 256;

/// Serves LSP over standard input and output until `exit` or the end of the input;
/// returns whether `shutdown` came first (the exit status LSP asks for depends on it).
pub async fn serve_stdio() -> bool {
    isolation::log_panics();
    let session = CancellationToken::new();
    let Transport {
        input,
        output,
        writer,
        prepared,
    } = Transport::start(tokio::io::stdin(), tokio::io::stdout(), session.clone());
    let (service, socket) =
        LspService::build(|client| Server::new(client, session.clone(), prepared)).finish();
    let state = service.inner().state.clone();
    let served = tower_lsp_server::Server::new(input, output, socket).serve(service);
    // tower-lsp-server returns once every handler is done; one that waits for something
    // that cannot come must not keep the process alive.
    tokio::select! {
        () = served => {}
        () = async { session.cancelled().await; tokio::time::sleep(DRAIN).await } => {
            warn!("requests still running {DRAIN:?} after the end of the input: stopping");
        }
    }
    writer.finish().await;
    state.shut_down()
}

/// The language server's handlers and shared state.
pub struct Server {
    client: Client,
    workspace: Arc<Workspace>,
    state: Arc<State>,
    publisher: publisher::Publisher,
    /// Cancelled when the input ends or after `exit`.
    session: CancellationToken,
    /// Long analyses, run off the async threads.
    heavy: Heavy,
    /// The directory of every module the client changed, for requests that a newer
    /// edit supersedes.
    edits: broadcast::Sender<PathBuf>,
    /// Provider schemas: settings, background loads, status.
    schemas: Arc<schemas::ProviderSchemas>,
    /// The last semantic tokens sent for each document, for deltas.
    tokens: semantic_tokens::Results,
    /// Every file's declarations, kept for workspace symbol queries.
    symbols: crate::ide::workspace_symbols::Index,
    /// Long completion lists, prepared and serialised once.
    completions: completion::Lists,
    /// The last outline of each document.
    outlines: structure::Outlines,
    /// Answers serialised ahead of time, which the transport puts in their stand-ins'
    /// place.
    prepared: Arc<transport::Prepared>,
    /// Asks the client to request code lenses and semantic tokens again.
    refresher: refresh::Refresher,
}

impl Server {
    fn new(client: Client, session: CancellationToken, prepared: Arc<transport::Prepared>) -> Self {
        let workspace = Arc::new(Workspace::new());
        let state = Arc::new(State::default());
        let publisher =
            publisher::Publisher::start(client.clone(), workspace.clone(), state.clone());
        Self {
            client,
            workspace,
            state,
            publisher,
            session,
            heavy: Heavy::default(),
            edits: broadcast::Sender::new(EDITS_QUEUE),
            schemas: Arc::default(),
            tokens: Default::default(),
            symbols: Default::default(),
            completions: Default::default(),
            outlines: Default::default(),
            prepared,
            refresher: Default::default(),
        }
    }

    /// The semantic tokens of a document, kept per version.
    fn semantic_tokens(&self, uri: &Uri) -> Result<Option<Arc<semantic_tokens::Tokens>>> {
        let Some(path) = convert::path_of(uri) else {
            return Ok(None);
        };
        let encoding = self.state.encoding();
        Ok(contain(
            format!("semantic tokens of {}", path.display()),
            || semantic_tokens::tokens(&self.tokens, &self.workspace, &path, encoding),
        )?)
    }

    /// A full semantic tokens result: a stand-in for its prepared JSON.
    fn full_semantic_tokens(&self, uri: &Uri, tokens: &semantic_tokens::Tokens) -> SemanticTokens {
        let json = semantic_tokens::full(&self.tokens, uri, tokens);
        semantic_tokens::stand_in(self.prepared.stand_in(json))
    }

    /// Queues the diagnostics of a module whose document the client opened, changed,
    /// saved or closed for publishing, ahead of background work (stale snapshots are
    /// skipped), and tells running requests that the workspace changed.
    fn publish(&self, module: Arc<crate::module::Module>) {
        let _ = self.edits.send(module.dir.clone()); // Err: no request is listening.
        self.publisher.publish(module);
    }

    /// Queues the diagnostics of a module that changed without an edit of the client's
    /// (on disk, by the settings) behind the edits, and tells running requests that the
    /// workspace changed.
    fn publish_later(&self, module: Arc<crate::module::Module>) {
        let _ = self.edits.send(module.dir.clone());
        self.publisher.publish_later(module);
    }

    /// Answers a formatting request; a document that does not parse gets no edits and a
    /// message saying why.
    async fn format(
        &self,
        uri: &Uri,
        request: formatting::Request,
    ) -> Result<Option<Vec<TextEdit>>> {
        let Some(path) = convert::path_of(uri) else {
            return Ok(None);
        };
        let encoding = self.state.encoding();
        let result = contain(format!("formatting {}", path.display()), || {
            formatting::edits(&self.workspace, &path, request, encoding)
        })?;
        match result {
            Ok(edits) => Ok(edits),
            Err(message) => {
                self.client
                    .show_message(MessageType::WARNING, message)
                    .await;
                Ok(None)
            }
        }
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
        if let Some(options) = &params.initialization_options {
            self.state
                .set_inlay_hints(capabilities::inlay_hints_setting(options));
        }
        let schema_settings = params
            .initialization_options
            .as_ref()
            .and_then(schemas::schema_settings);
        self.schemas.configure(schema_settings.unwrap_or_default());
        Ok(capabilities::result(&setup))
    }

    async fn initialized(&self, _: InitializedParams) {
        let indexer = indexer::Indexer {
            client: self.client.clone(),
            workspace: self.workspace.clone(),
            state: self.state.clone(),
            publisher: self.publisher.clone(),
            session: self.session.clone(),
        };
        self.refresher.start(
            self.client.clone(),
            self.state.refresh_support(),
            self.session.clone(),
        );
        // Provider schemas follow the modules indexing finds.
        let schemas = self.schema_load(schemas::Reload::Full);
        let refresher = self.refresher.clone();
        tokio::spawn(async move {
            indexer.run().await;
            // The lenses of documents opened while indexing may lack other modules.
            refresher.request();
            schemas.await;
        });
        if self.state.client_watches_files() {
            let registration = vec![capabilities::file_watch_registration()];
            match self
                .ask(self.client.register_capability(registration))
                .await
            {
                Some(Err(err)) => warn!("client refused file watching: {err}"),
                Some(Ok(())) => {}
                None => warn!("the session ended before the client answered registerCapability"),
            }
        }
    }

    async fn shutdown(&self) -> Result<()> {
        self.state.mark_shut_down();
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        self.open_document(params);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        if let Some(err) = self.change_document(params) {
            warn!("{err}");
            self.client
                .log_message(MessageType::ERROR, format!("strata: {err}"))
                .await;
        }
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        self.save_document(params);
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        self.close_document(params);
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        self.watched_files_changed(params);
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        self.configuration_changed(params);
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let at = params.text_document_position_params;
        let Some(path) = convert::path_of(&at.text_document.uri) else {
            return Ok(None);
        };
        let encoding = self.state.encoding();
        Ok(contain(format!("hover of {}", path.display()), || {
            hover::hover(&self.workspace, &path, at.position, encoding)
        })?)
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let at = params.text_document_position;
        let Some(path) = convert::path_of(&at.text_document.uri) else {
            return Ok(None);
        };
        let encoding = self.state.encoding();
        let options = crate::ide::completion::Options {
            snippets: self.state.snippets(),
            state_path: self.state.state_path(),
        };
        let json = contain(format!("completion in {}", path.display()), || {
            completion::completion(
                &self.completions,
                &self.workspace,
                &path,
                at.position,
                encoding,
                options,
            )
        })?;
        Ok(json.map(|json| completion::stand_in(self.prepared.stand_in(json))))
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        let at = params.text_document_position_params;
        let Some(path) = convert::path_of(&at.text_document.uri) else {
            return Ok(None);
        };
        let encoding = self.state.encoding();
        Ok(contain(
            format!("signature help in {}", path.display()),
            || completion::signature(&self.workspace, &path, at.position, encoding),
        )?)
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let Some(path) = convert::path_of(&params.text_document.uri) else {
            return Ok(None);
        };
        let Some(dir) = path.parent().map(Path::to_path_buf) else {
            return Ok(None);
        };
        // Checking the module (and planning it, when it has a prior state) is long work.
        let (ws, state) = (self.workspace.clone(), self.state.state_path());
        let encoding = self.state.encoding();
        let what = format!("code actions of {}", path.display());
        self.analyse_module(&dir, what, move || {
            let (range, only) = (params.range, params.context.only.as_deref());
            let mut actions = code_actions::actions(&ws, &path, range, only, encoding)?;
            if code_actions::wanted(only, CodeActionKind::QUICKFIX.as_str()) {
                let state = state.as_deref();
                actions.extend(code_actions::moves(&ws, &path, range, state, encoding));
            }
            Some(actions)
        })
        .await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let Some(path) = convert::path_of(&params.text_document.uri) else {
            return Ok(None);
        };
        let Some(dir) = path.parent().map(Path::to_path_buf) else {
            return Ok(None);
        };
        let (ws, state) = (self.workspace.clone(), self.state.state_path());
        let (encoding, kinds) = (self.state.encoding(), self.state.inlay_hints());
        let what = format!("inlay hints of {}", path.display());
        self.analyse_module(&dir, what, move || {
            inlay_hints::hints(&ws, &path, params.range, kinds, state.as_deref(), encoding)
        })
        .await
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let Some(path) = convert::path_of(&params.text_document.uri) else {
            return Ok(None);
        };
        let encoding = self.state.encoding();
        let mut lenses = contain(format!("code lens of {}", path.display()), || {
            navigation::code_lenses(&self.workspace, &path, encoding)
        })?;
        if let Some(dir) = path.parent() {
            let (ws, state) = (self.workspace.clone(), self.state.state_path());
            let what = format!("plan code lens of {}", dir.display());
            let file = path.clone();
            let planned = self
                .analyse_module(dir, what, move || {
                    plan::code_lenses(&ws, &file, state.as_deref(), encoding)
                })
                .await?;
            lenses.extend(planned);
        }
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
        let encoding = self.state.encoding();
        Ok(contain(
            format!("definition in {}", path.display()),
            || navigation::definition(&self.workspace, &path, at.position, encoding),
        )?)
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let Some(path) = convert::path_of(&params.text_document.uri) else {
            return Ok(None);
        };
        let encoding = self.state.encoding();
        let json = contain(format!("outline of {}", path.display()), || {
            structure::document_symbols(&self.outlines, &self.workspace, &path, encoding)
        })?;
        Ok(json.map(|json| structure::stand_in(self.prepared.stand_in(json))))
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let Some(path) = convert::path_of(&params.text_document.uri) else {
            return Ok(None);
        };
        Ok(contain(
            format!("folding ranges of {}", path.display()),
            || structure::folding_ranges(&self.workspace, &path),
        )?)
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> Result<Option<Vec<SelectionRange>>> {
        let Some(path) = convert::path_of(&params.text_document.uri) else {
            return Ok(None);
        };
        let encoding = self.state.encoding();
        Ok(contain(
            format!("selection ranges in {}", path.display()),
            || structure::selection_ranges(&self.workspace, &path, &params.positions, encoding),
        )?)
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let at = params.text_document_position;
        let Some(path) = convert::path_of(&at.text_document.uri) else {
            return Ok(None);
        };
        let encoding = self.state.encoding();
        let declarations = params.context.include_declaration;
        Ok(contain(
            format!("references in {}", path.display()),
            || references::references(&self.workspace, &path, at.position, declarations, encoding),
        )?)
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        let at = params.text_document_position_params;
        let Some(path) = convert::path_of(&at.text_document.uri) else {
            return Ok(None);
        };
        let encoding = self.state.encoding();
        Ok(contain(
            format!("highlights in {}", path.display()),
            || references::document_highlights(&self.workspace, &path, at.position, encoding),
        )?)
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        let Some(path) = convert::path_of(&params.text_document.uri) else {
            return Ok(None);
        };
        let encoding = self.state.encoding();
        Ok(contain(
            format!("prepare rename in {}", path.display()),
            || references::prepare_rename(&self.workspace, &path, params.position, encoding),
        )?)
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let at = params.text_document_position;
        let Some(path) = convert::path_of(&at.text_document.uri) else {
            return Ok(None);
        };
        let encoding = self.state.encoding();
        let result = contain(format!("rename in {}", path.display()), || {
            references::rename(
                &self.workspace,
                &path,
                at.position,
                &params.new_name,
                encoding,
            )
        })?;
        // A refused rename is an error the editor shows, in the user's words.
        result.map_err(|e| jsonrpc::Error::invalid_params(e.to_string()))
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        let encoding = self.state.encoding();
        let found = contain(format!("workspace symbols {:?}", params.query), || {
            workspace_symbols::symbols(&self.symbols, &self.workspace, &params.query, encoding)
        })?;
        Ok(Some(WorkspaceSymbolResponse::Flat(found)))
    }

    async fn document_link(&self, params: DocumentLinkParams) -> Result<Option<Vec<DocumentLink>>> {
        let Some(path) = convert::path_of(&params.text_document.uri) else {
            return Ok(None);
        };
        let encoding = self.state.encoding();
        Ok(contain(format!("links of {}", path.display()), || {
            links::links(&self.workspace, &path, encoding)
        })?)
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let uri = params.text_document.uri;
        let Some(tokens) = self.semantic_tokens(&uri)? else {
            return Ok(None);
        };
        let full = self.full_semantic_tokens(&uri, &tokens);
        Ok(Some(SemanticTokensResult::Tokens(full)))
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        let uri = params.text_document.uri;
        let Some(tokens) = self.semantic_tokens(&uri)? else {
            return Ok(None);
        };
        let previous = params.previous_result_id;
        Ok(Some(
            match semantic_tokens::delta(&self.tokens, &uri, &previous, &tokens) {
                Some(delta) => SemanticTokensFullDeltaResult::TokensDelta(delta),
                None => {
                    SemanticTokensFullDeltaResult::Tokens(self.full_semantic_tokens(&uri, &tokens))
                }
            },
        ))
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        let tokens = self.semantic_tokens(&params.text_document.uri)?;
        let encoding = self.state.encoding();
        Ok(tokens.map(|tokens| {
            SemanticTokensRangeResult::Tokens(SemanticTokens {
                result_id: None,
                data: semantic_tokens::in_range(&tokens, params.range, encoding),
            })
        }))
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        self.format(&params.text_document.uri, formatting::Request::Document)
            .await
    }

    async fn range_formatting(
        &self,
        params: DocumentRangeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        let request = formatting::Request::Range(params.range);
        self.format(&params.text_document.uri, request).await
    }

    async fn on_type_formatting(
        &self,
        params: DocumentOnTypeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        let at = params.text_document_position;
        let request = formatting::Request::OnType(at.position, params.ch);
        self.format(&at.text_document.uri, request).await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        let argument = params.arguments.into_iter().next().unwrap_or_default();
        let invalid = |e: serde_json::Error| {
            jsonrpc::Error::invalid_params(format!(
                "{}: expected one object argument: {e}",
                params.command
            ))
        };
        match params.command.as_str() {
            schemas::PROVIDER_SCHEMA_STATUS => {
                let status = serde_json::to_value(self.schemas.status())
                    .map_err(|e| jsonrpc::Error::invalid_params(e.to_string()))?;
                Ok(Some(status))
            }
            navigation::MERGED_BLOCK => {
                let args: navigation::PositionArgs =
                    serde_json::from_value(argument).map_err(invalid)?;
                let encoding = self.state.encoding();
                Ok(Some(contain(navigation::MERGED_BLOCK, || {
                    navigation::merged_block(&self.workspace, &args, encoding)
                })?))
            }
            plan::PLAN_PREVIEW => {
                let args: plan::PlanArgs = serde_json::from_value(argument).map_err(invalid)?;
                let dir = convert::path_of(&args.uri)
                    .and_then(|p| p.parent().map(Path::to_path_buf))
                    .unwrap_or_default();
                let (ws, state) = (self.workspace.clone(), self.state.state_path());
                let encoding = self.state.encoding();
                let what = format!("{} of {}", plan::PLAN_PREVIEW, dir.display());
                self.analyse_module(&dir, what, move || {
                    plan::plan_preview(&ws, args, state.as_deref(), encoding)
                })
                .await?
                .map(Some)
                .map_err(|e| jsonrpc::Error::invalid_params(format!("{}: {e}", plan::PLAN_PREVIEW)))
            }
            plan::SHOW_PLANNED_CHANGE => {
                let args: plan::PlannedChangeArgs =
                    serde_json::from_value(argument).map_err(invalid)?;
                let dir = convert::path_of(&args.uri)
                    .and_then(|p| p.parent().map(Path::to_path_buf))
                    .unwrap_or_default();
                let (ws, state) = (self.workspace.clone(), self.state.state_path());
                let what = format!("{} of {}", plan::SHOW_PLANNED_CHANGE, dir.display());
                let text = self
                    .analyse_module(&dir, what, move || {
                        plan::planned_change_text(&ws, &args, state.as_deref())
                    })
                    .await?;
                self.client.show_message(MessageType::INFO, text).await;
                Ok(None)
            }
            navigation::SHOW_OVERRIDE => {
                let target: Location = serde_json::from_value(argument).map_err(invalid)?;
                let shown = self
                    .ask(self.client.show_document(ShowDocumentParams {
                        uri: target.uri,
                        external: Some(false),
                        take_focus: Some(true),
                        selection: Some(target.range),
                    }))
                    .await;
                if let Some(Err(err)) = shown {
                    warn!("client could not show the override: {err}");
                }
                Ok(None)
            }
            other => Err(jsonrpc::Error::invalid_params(format!(
                "unknown command {other}"
            ))),
        }
    }
}
