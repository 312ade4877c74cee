//! The document and configuration notifications: each applies its change to the
//! workspace synchronously (see the ordering invariant in `lsp/mod.rs`: these are plain
//! functions, so nothing can run between a notification's arrival and its edit) and
//! publishes the diagnostics of the modules it changed.

use std::collections::BTreeSet;

use tower_lsp_server::ls_types::*;

use super::isolation::contain;
use super::{capabilities, convert, schemas, Server};

impl Server {
    pub(super) fn open_document(&self, params: DidOpenTextDocumentParams) {
        let doc = params.text_document;
        let Some(path) = convert::path_of(&doc.uri) else {
            return;
        };
        let opened = contain("opening a document", || {
            if let Some(dir) = path.parent() {
                if self.workspace.module(dir).is_none() {
                    // Open documents first: their module is read now, not by the indexer.
                    self.workspace.index_dir(dir);
                }
            }
            self.workspace.open_document(&path, &doc.text, doc.version)
        });
        if let Ok(module) = opened {
            self.publish(module);
        }
    }

    /// Applies an edit; the error to tell the user when it could not be applied.
    pub(super) fn change_document(&self, params: DidChangeTextDocumentParams) -> Option<String> {
        let path = convert::path_of(&params.text_document.uri)?;
        let changes: Vec<_> = params
            .content_changes
            .into_iter()
            .map(convert::text_change)
            .collect();
        let result = contain("applying an edit", || {
            self.workspace.change_document(
                &path,
                &changes,
                params.text_document.version,
                self.state.encoding(),
            )
        });
        match result {
            Ok(Ok(module)) => {
                self.refresh_others(&path, &module);
                self.publish(module);
                None
            }
            Ok(Err(err)) => Some(err.to_string()),
            Err(_) => None, // Logged where it was contained.
        }
    }

    pub(super) fn save_document(&self, params: DidSaveTextDocumentParams) {
        let Some(path) = convert::path_of(&params.text_document.uri) else {
            return;
        };
        // The editor's text already won; a save of a file that is not open (some clients
        // send one after a rename) is read from disk.
        let module = contain("reading a saved file", || {
            if self.workspace.is_open(&path) {
                path.parent().and_then(|d| self.workspace.module(d))
            } else {
                self.workspace.disk_changed(&path)
            }
        });
        if let Ok(Some(module)) = module {
            self.publish(module);
        }
        // A saved file is what plans and other modules' lenses read.
        self.refresher.request();
    }

    pub(super) fn close_document(&self, params: DidCloseTextDocumentParams) {
        let path = convert::path_of(&params.text_document.uri);
        self.tokens
            .forget(&params.text_document.uri, path.as_deref());
        let Some(path) = path else {
            return;
        };
        self.outlines.forget(&path);
        let Ok(module) = contain("closing a document", || {
            self.workspace.close_document(&path)
        }) else {
            return;
        };
        let Some(dir) = path.parent() else {
            return;
        };
        if !self.state.in_workspace(dir) {
            // Read only for its open documents: forgotten with the last of them.
            let mut forgotten = self.workspace.forget_dir(dir);
            if !forgotten.is_empty() || self.workspace.module(dir).is_none() {
                let _ = self.edits.send(dir.to_path_buf());
                forgotten.push(path);
                self.publisher.clear(forgotten);
                return;
            }
        }
        if let Some(module) = module {
            let gone = !module.sources.iter().any(|s| s.path == path);
            // Back to its text on disk, or gone.
            self.refresh_others(&path, &module);
            self.publish(module);
            if gone {
                // Closed and not on disk: its diagnostics go with it.
                self.publisher.clear(vec![path]);
            }
        }
    }

    pub(super) fn watched_files_changed(&self, params: DidChangeWatchedFilesParams) {
        let mut touched = Vec::new();
        let mut installed = BTreeSet::new();
        for change in params.changes {
            let Some(path) = convert::path_of(&change.uri) else {
                continue;
            };
            installed.extend(self.schemas.installation_roots(&path));
            if self.schemas.is_installed(&path) {
                continue; // Not a workspace file: only its root's schemas change.
            }
            if let Ok(Some(modules)) = contain("reading a version file", || {
                self.workspace.version_file_changed(&path)
            }) {
                touched.extend(modules);
                continue;
            }
            let module = contain("reading a changed file", || {
                if change.typ == FileChangeType::DELETED {
                    self.workspace.disk_deleted(&path)
                } else {
                    self.workspace.disk_changed(&path)
                }
            });
            touched.extend(module.ok().flatten());
        }
        if !installed.is_empty() {
            self.reload_schemas(schemas::Reload::Roots(installed));
        }
        // A configuration file, a state file or `.tfvars`: what lenses and tokens show.
        self.refresher.request();
        touched.sort_by(|a, b| a.dir.cmp(&b.dir));
        touched.dedup_by(|a, b| a.dir == b.dir);
        for module in touched {
            if let Some(current) = self.workspace.module(&module.dir) {
                self.publish_later(current);
            }
        }
    }

    pub(super) fn configuration_changed(&self, params: DidChangeConfigurationParams) {
        self.state
            .set_state_path(capabilities::state_path_setting(&params.settings));
        self.state
            .set_inlay_hints(capabilities::inlay_hints_setting(&params.settings));
        let dialect = capabilities::dialect_setting(&params.settings);
        let applied = contain("applying the settings", || {
            self.workspace.set_dialect(dialect);
            self.workspace
                .set_core_version(capabilities::core_version_setting(&params.settings));
        });
        if applied.is_ok() {
            for module in self.workspace.modules() {
                self.publish_later(module);
            }
        }
        // The state path, the dialect and the version change plans and lenses.
        self.refresher.request();
        let schema_settings = schemas::schema_settings(&params.settings).unwrap_or_default();
        if self.schemas.configure(schema_settings) {
            self.reload_schemas(schemas::Reload::Full);
        }
    }

    /// Asks for a refresh when another document of `module` is open: a change of `path`
    /// changes that document's lenses and tokens (overrides and their bases), which its
    /// client does not ask for again by itself.
    fn refresh_others(&self, path: &std::path::Path, module: &crate::module::Module) {
        let others_open = module
            .sources
            .iter()
            .any(|s| s.path != path && self.workspace.is_open(&s.path));
        if others_open {
            self.refresher.request();
        }
    }
}
