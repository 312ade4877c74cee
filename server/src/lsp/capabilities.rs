//! What the server tells the client it can do, and what it takes from the client's
//! capabilities and `initializationOptions`. Only implemented features are advertised.

use serde_json::Value;
use tower_lsp_server::ls_types::*;

use crate::module::Dialect;
use crate::text::PositionEncoding;

/// The outcome of negotiation.
#[derive(Debug, Clone)]
pub struct Setup {
    /// UTF-8 when the client offers it, else UTF-16.
    pub encoding: PositionEncoding,
    /// The forced dialect, from `initializationOptions.dialect`.
    pub dialect: Option<Dialect>,
    /// The client can register file watchers dynamically.
    pub client_watches_files: bool,
    /// The client shows work-done progress.
    pub work_done_progress: bool,
    /// The client expands snippets in completion items.
    pub snippets: bool,
    /// The refresh requests the client accepts.
    pub refresh: super::refresh::RefreshSupport,
}

/// Reads the client's capabilities and options.
pub fn negotiate(params: &InitializeParams) -> Setup {
    let caps = &params.capabilities;
    let offered = caps
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref());
    let encoding = if offered.is_some_and(|e| e.contains(&PositionEncodingKind::UTF8)) {
        PositionEncoding::Utf8
    } else {
        PositionEncoding::Utf16
    };
    Setup {
        encoding,
        dialect: params
            .initialization_options
            .as_ref()
            .and_then(dialect_setting),
        client_watches_files: caps
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|d| d.dynamic_registration)
            .unwrap_or(false),
        work_done_progress: caps
            .window
            .as_ref()
            .and_then(|w| w.work_done_progress)
            .unwrap_or(false),
        snippets: super::completion::snippet_support(params),
        refresh: super::refresh::RefreshSupport::of(params),
    }
}

/// `dialect` from settings, accepted at the top level or under `strata`
/// (`{"strata": {"dialect": "opentofu"}}`, as `didChangeConfiguration` sends it).
pub fn dialect_setting(settings: &Value) -> Option<Dialect> {
    let value = settings
        .get("strata")
        .and_then(|s| s.get("dialect"))
        .or_else(|| settings.get("dialect"))?;
    value.as_str()?.parse().ok()
}

/// `terraformVersion` from settings (`{"strata": {"terraformVersion": "1.9.8"}}` or
/// without the `strata` level), when it is an exact version.
pub fn core_version_setting(settings: &Value) -> Option<String> {
    let value = settings
        .get("strata")
        .and_then(|s| s.get("terraformVersion"))
        .or_else(|| settings.get("terraformVersion"))?;
    let version = value.as_str()?.trim_start_matches('v');
    crate::module::is_exact_version(version).then(|| version.to_string())
}

/// `plan.statePath` from settings (`{"strata": {"plan": {"statePath": "..."}}}` or
/// without the `strata` level).
pub fn state_path_setting(settings: &Value) -> Option<String> {
    let plan = settings
        .get("strata")
        .and_then(|s| s.get("plan"))
        .or_else(|| settings.get("plan"))?;
    Some(plan.get("statePath")?.as_str()?.to_string())
}

/// `inlayHints` from settings (`{"strata": {"inlayHints": {"variables": false}}}` or
/// without the `strata` level): each kind is on unless set to `false`.
pub fn inlay_hints_setting(settings: &Value) -> crate::ide::inlay_hints::Kinds {
    let hints = settings
        .get("strata")
        .and_then(|s| s.get("inlayHints"))
        .or_else(|| settings.get("inlayHints"));
    let on = |name: &str| {
        hints
            .and_then(|h| h.get(name))
            .and_then(Value::as_bool)
            .unwrap_or(true)
    };
    crate::ide::inlay_hints::Kinds {
        overrides: on("overrides"),
        variables: on("variables"),
        instances: on("instances"),
        planned_actions: on("plannedActions"),
    }
}

/// The `initialize` answer.
pub fn result(setup: &Setup) -> InitializeResult {
    let encoding = match setup.encoding {
        PositionEncoding::Utf8 => PositionEncodingKind::UTF8,
        PositionEncoding::Utf16 => PositionEncodingKind::UTF16,
        PositionEncoding::Utf32 => PositionEncodingKind::UTF32,
    };
    InitializeResult {
        capabilities: ServerCapabilities {
            position_encoding: Some(encoding),
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                        include_text: Some(false),
                    })),
                    ..Default::default()
                },
            )),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            completion_provider: Some(CompletionOptions {
                trigger_characters: Some(
                    super::completion::TRIGGERS
                        .iter()
                        .map(|c| c.to_string())
                        .collect(),
                ),
                ..Default::default()
            }),
            signature_help_provider: Some(SignatureHelpOptions {
                trigger_characters: Some(
                    super::completion::SIGNATURE_TRIGGERS
                        .iter()
                        .map(|c| c.to_string())
                        .collect(),
                ),
                retrigger_characters: None,
                work_done_progress_options: Default::default(),
            }),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(super::code_actions::kinds()),
                resolve_provider: Some(false),
                work_done_progress_options: Default::default(),
            })),
            inlay_hint_provider: Some(OneOf::Left(true)),
            code_lens_provider: Some(CodeLensOptions {
                resolve_provider: Some(false),
            }),
            definition_provider: Some(OneOf::Left(true)),
            document_symbol_provider: Some(OneOf::Left(true)),
            references_provider: Some(OneOf::Left(true)),
            semantic_tokens_provider: Some(
                SemanticTokensServerCapabilities::SemanticTokensOptions(SemanticTokensOptions {
                    legend: super::semantic_tokens::legend(),
                    range: Some(true),
                    full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
                    work_done_progress_options: Default::default(),
                }),
            ),
            document_link_provider: Some(DocumentLinkOptions {
                resolve_provider: Some(false),
                work_done_progress_options: Default::default(),
            }),
            workspace_symbol_provider: Some(OneOf::Left(true)),
            document_highlight_provider: Some(OneOf::Left(true)),
            rename_provider: Some(OneOf::Right(RenameOptions {
                prepare_provider: Some(true),
                work_done_progress_options: Default::default(),
            })),
            folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
            selection_range_provider: Some(SelectionRangeProviderCapability::Simple(true)),
            document_formatting_provider: Some(OneOf::Left(true)),
            document_range_formatting_provider: Some(OneOf::Left(true)),
            document_on_type_formatting_provider: Some(DocumentOnTypeFormattingOptions {
                first_trigger_character: "}".into(),
                more_trigger_character: Some(vec!["\n".into()]),
            }),
            execute_command_provider: Some(ExecuteCommandOptions {
                commands: vec![
                    super::navigation::MERGED_BLOCK.into(),
                    super::navigation::SHOW_OVERRIDE.into(),
                    super::plan::PLAN_PREVIEW.into(),
                    super::plan::SHOW_PLANNED_CHANGE.into(),
                    super::schemas::PROVIDER_SCHEMA_STATUS.into(),
                ],
                ..Default::default()
            }),
            ..Default::default()
        },
        server_info: Some(ServerInfo {
            name: "strata".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
        offset_encoding: None,
    }
}

/// The dynamic registration of the files whose changes on disk matter.
pub fn file_watch_registration() -> Registration {
    let watchers = [
        "**/*.{tf,tf.json,tofu,tofu.json,tfvars}",
        "**/terraform.tfstate",
        "**/.terraform.lock.hcl",
        // The providers `terraform init` installs, and the implied mirror a root vendors.
        "**/.terraform/providers/**",
        "**/terraform.d/plugins/**",
        // The version files that set the Terraform or OpenTofu version in effect.
        "**/{.terraform-version,.opentofu-version,.tool-versions}",
    ]
    .into_iter()
    .map(|glob| FileSystemWatcher {
        glob_pattern: GlobPattern::String(glob.into()),
        kind: None,
    })
    .collect();
    Registration {
        id: "strata-watch-files".into(),
        method: "workspace/didChangeWatchedFiles".into(),
        register_options: serde_json::to_value(DidChangeWatchedFilesRegistrationOptions {
            watchers,
        })
        .ok(),
    }
}

/// The id of the registration watching moved data directories.
const DATA_DIRS: &str = "strata-watch-data-dirs";

/// The dynamic registration of the providers `terraform init` installs into data
/// directories `TF_DATA_DIR` moves (`dirs`), each watched from its parent, which exists
/// before the first `terraform init` creates it; `None` for no directory.
pub fn data_dir_registration(
    dirs: &std::collections::BTreeSet<std::path::PathBuf>,
) -> Option<Registration> {
    let watchers: Vec<FileSystemWatcher> = dirs
        .iter()
        .filter_map(|dir| {
            let (parent, name) = (dir.parent()?, dir.file_name()?.to_str()?);
            let base = super::convert::uri_of(parent)?;
            Some(FileSystemWatcher {
                glob_pattern: GlobPattern::Relative(RelativePattern {
                    base_uri: OneOf::Right(base),
                    pattern: format!("{name}/providers/**"),
                }),
                kind: None,
            })
        })
        .collect();
    if watchers.is_empty() {
        return None;
    }
    Some(Registration {
        id: DATA_DIRS.into(),
        method: "workspace/didChangeWatchedFiles".into(),
        register_options: serde_json::to_value(DidChangeWatchedFilesRegistrationOptions {
            watchers,
        })
        .ok(),
    })
}

/// Undoes `data_dir_registration`.
pub fn data_dir_unregistration() -> Unregistration {
    Unregistration {
        id: DATA_DIRS.into(),
        method: "workspace/didChangeWatchedFiles".into(),
    }
}
