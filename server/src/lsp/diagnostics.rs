//! Publishing a module's diagnostics: every file of the module, each tagged with the
//! version of the text it was computed from.
//!
//! All publishing goes through one task (`Publisher`), in the order the requests were
//! made, so an older snapshot can never be sent after a newer one; handlers only queue a
//! snapshot and never wait for the client.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::mpsc;

use ropey::Rope;
use tower_lsp_server::ls_types::{self as lsp, NumberOrString};
use tower_lsp_server::Client;

use super::convert;
use super::state::State;
use crate::check::{check_module, Diagnostic, Severity};
use crate::module::Module;
use crate::workspace::Workspace;

/// Publishes diagnostics for every file of `module`, unless the module was rebuilt since
/// (the newer rebuild publishes its own). A file whose problems are gone is published
/// empty so that they disappear.
async fn publish_module(client: &Client, ws: &Workspace, state: &State, module: &Module) {
    let current = ws.module(&module.dir);
    if current.is_some_and(|c| c.revision != module.revision) {
        return;
    }
    let encoding = state.encoding();
    let mut by_file: HashMap<&std::path::Path, Vec<&Diagnostic>> = HashMap::new();
    let children = |source: &str| {
        crate::workspace::local_child_dir(&module.dir, source).and_then(|d| ws.merged(&d))
    };
    let all = check_module(module, &ws.merged_of(module), &children);
    for d in &all {
        by_file.entry(d.path.as_path()).or_default().push(d);
    }
    for source in &module.sources {
        let Some(uri) = convert::uri_of(&source.path) else {
            continue;
        };
        if source.version.is_none() && ws.is_open(&source.path) {
            // The disk text of a file opened since this snapshot was taken: stale.
            continue;
        }
        let found = by_file.remove(source.path.as_path()).unwrap_or_default();
        let had_some = state.set_has_diagnostics(&source.path, !found.is_empty());
        if found.is_empty() && !had_some && !ws.is_open(&source.path) {
            // A closed file that had and has nothing to report needs no notification.
            continue;
        }
        let rope = Rope::from_str(&source.text);
        let diagnostics = found
            .into_iter()
            .map(|d| to_lsp(d, &rope, encoding, module))
            .collect();
        client
            .publish_diagnostics(uri, diagnostics, source.version)
            .await;
    }
}

fn to_lsp(
    d: &Diagnostic,
    rope: &Rope,
    encoding: crate::text::PositionEncoding,
    module: &Module,
) -> lsp::Diagnostic {
    let related: Vec<lsp::DiagnosticRelatedInformation> = d
        .related
        .iter()
        .filter_map(|r| {
            let source = module.sources.iter().find(|s| s.path == r.path)?;
            let rope = Rope::from_str(&source.text);
            Some(lsp::DiagnosticRelatedInformation {
                location: lsp::Location {
                    uri: convert::uri_of(&r.path)?,
                    range: convert::range(&rope, r.span, encoding),
                },
                message: r.message.clone(),
            })
        })
        .collect();
    lsp::Diagnostic {
        range: convert::range(rope, d.span, encoding),
        severity: Some(match d.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
            Severity::Information => lsp::DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(d.code.into())),
        source: Some("strata".into()),
        message: format!("{}\n\n{}", d.summary, d.detail),
        related_information: (!related.is_empty()).then_some(related),
        ..Default::default()
    }
}

/// The one task that publishes diagnostics, fed by a queue of module snapshots.
#[derive(Debug, Clone)]
pub struct Publisher {
    queue: mpsc::UnboundedSender<Arc<Module>>,
}

impl Publisher {
    /// Starts the task; it ends when every `Publisher` clone is dropped.
    pub fn start(client: Client, ws: Arc<Workspace>, state: Arc<State>) -> Self {
        let (queue, mut requests) = mpsc::unbounded_channel::<Arc<Module>>();
        tokio::spawn(async move {
            while let Some(module) = requests.recv().await {
                publish_module(&client, &ws, &state, &module).await;
            }
        });
        Self { queue }
    }

    /// Queues the diagnostics of this module snapshot for publishing.
    pub fn publish(&self, module: Arc<Module>) {
        let _ = self.queue.send(module);
    }
}
