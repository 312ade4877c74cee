//! What the server learnt at `initialize` and keeps for the whole session.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::RwLock;

use dashmap::DashSet;

use tower_lsp_server::ls_types::InitializeParams;

use super::capabilities::Setup;
use super::convert;
use super::refresh::RefreshSupport;
use crate::text::PositionEncoding;

/// Session-wide settings and flags; cheap to read from any handler.
#[derive(Debug, Default)]
pub struct State {
    encoding: RwLock<PositionEncoding>,
    roots: RwLock<Vec<PathBuf>>,
    watch_files: AtomicBool,
    work_done_progress: AtomicBool,
    /// The client expands snippets in completion items.
    snippets: AtomicBool,
    /// The refresh requests the client accepts.
    refresh: RwLock<RefreshSupport>,
    shut_down: AtomicBool,
    /// The `strata.plan.statePath` setting.
    state_path: RwLock<Option<String>>,
    /// The `strata.inlayHints` settings.
    inlay_hints: RwLock<crate::ide::inlay_hints::Kinds>,
    /// Files whose last published diagnostics were not empty.
    with_diagnostics: DashSet<PathBuf>,
}

impl State {
    /// Records the negotiated setup and the workspace folders.
    pub fn configure(&self, setup: &Setup, params: &InitializeParams) {
        if let Ok(mut e) = self.encoding.write() {
            *e = setup.encoding;
        }
        let mut roots: Vec<PathBuf> = params
            .workspace_folders
            .iter()
            .flatten()
            .filter_map(|f| convert::path_of(&f.uri))
            .collect();
        #[allow(deprecated)] // root_uri is what older clients send
        if roots.is_empty() {
            roots.extend(params.root_uri.as_ref().and_then(convert::path_of));
        }
        if let Ok(mut r) = self.roots.write() {
            *r = roots;
        }
        self.watch_files
            .store(setup.client_watches_files, Ordering::Relaxed);
        self.work_done_progress
            .store(setup.work_done_progress, Ordering::Relaxed);
        self.snippets.store(setup.snippets, Ordering::Relaxed);
        if let Ok(mut r) = self.refresh.write() {
            *r = setup.refresh;
        }
    }

    /// The refresh requests the client accepts.
    pub fn refresh_support(&self) -> RefreshSupport {
        self.refresh.read().map(|r| *r).unwrap_or_default()
    }

    /// Whether the client expands snippets in completion items.
    pub fn snippets(&self) -> bool {
        self.snippets.load(Ordering::Relaxed)
    }

    /// Records the `strata.plan.statePath` setting.
    pub fn set_state_path(&self, path: Option<String>) {
        if let Ok(mut s) = self.state_path.write() {
            *s = path;
        }
    }

    /// The `strata.plan.statePath` setting.
    pub fn state_path(&self) -> Option<String> {
        self.state_path.read().ok().and_then(|s| s.clone())
    }

    /// Records the `strata.inlayHints` settings.
    pub fn set_inlay_hints(&self, kinds: crate::ide::inlay_hints::Kinds) {
        if let Ok(mut k) = self.inlay_hints.write() {
            *k = kinds;
        }
    }

    /// The kinds of inlay hint the client wants.
    pub fn inlay_hints(&self) -> crate::ide::inlay_hints::Kinds {
        self.inlay_hints.read().map(|k| *k).unwrap_or_default()
    }

    /// The position encoding in force.
    pub fn encoding(&self) -> PositionEncoding {
        self.encoding.read().map(|e| *e).unwrap_or_default()
    }

    /// The workspace folders.
    pub fn roots(&self) -> Vec<PathBuf> {
        self.roots.read().map(|r| r.clone()).unwrap_or_default()
    }

    /// Whether `dir` is inside a workspace folder (the background indexer reads those;
    /// any other directory is read only for the documents open in it).
    pub fn in_workspace(&self, dir: &std::path::Path) -> bool {
        self.roots
            .read()
            .is_ok_and(|roots| roots.iter().any(|r| dir.starts_with(r)))
    }

    /// Whether the client can register file watchers dynamically.
    pub fn client_watches_files(&self) -> bool {
        self.watch_files.load(Ordering::Relaxed)
    }

    /// Whether the client shows `$/progress`.
    pub fn work_done_progress(&self) -> bool {
        self.work_done_progress.load(Ordering::Relaxed)
    }

    /// `shutdown` was received.
    pub fn mark_shut_down(&self) {
        self.shut_down.store(true, Ordering::Relaxed);
    }

    /// Whether `shutdown` was received.
    pub fn shut_down(&self) -> bool {
        self.shut_down.load(Ordering::Relaxed)
    }

    /// Records whether `path` now has diagnostics; returns whether it had some before.
    pub fn set_has_diagnostics(&self, path: &std::path::Path, has: bool) -> bool {
        if has {
            !self.with_diagnostics.insert(path.to_path_buf())
        } else {
            self.with_diagnostics.remove(path).is_some()
        }
    }
}
