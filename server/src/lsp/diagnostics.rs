//! A module's diagnostics as the editor gets them: the check of one module snapshot (in
//! the role `strata check` gives it, with its open variable definitions files), then one
//! notification per file of the module, each tagged with the version of the text it was
//! computed from. The check runs contained: if it panics, the module gets one diagnostic
//! saying so, and every other module goes on as before. When, and in which order,
//! snapshots are checked and sent is the publisher's (`publisher.rs`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tower_lsp_server::ls_types::{self as lsp, NumberOrString};
use tower_lsp_server::Client;

use super::convert;
use super::isolation::{contain, Panicked};
use super::state::State;
use crate::cancel::Cancel;
use crate::check::{check_module, Diagnostic, Severity};
use crate::module::Module;
use crate::syntax::Span;
use crate::text::lines::LineIndex;
use crate::workspace::{CallCycles, ChildLookup, ModuleRoles, Workspace};

/// Whether `module` is still the current snapshot of its directory.
pub(super) fn is_current(ws: &Workspace, module: &Module) -> bool {
    ws.module(&module.dir)
        .is_some_and(|c| c.revision == module.revision)
}

/// What checking one module snapshot found, and the roles of the workspace's modules it
/// was checked with.
pub(super) struct Checked {
    pub diagnostics: Vec<Diagnostic>,
    pub roles: Arc<ModuleRoles>,
}

/// Checks `module` as the editor shows it (off the async threads: this is long work):
/// in the role `strata check` gives it (a module another one calls is its child), with
/// the problems of a root module's open variable definitions files; `cancel` stops it.
pub(super) fn check_snapshot(
    ws: &Workspace,
    module: &Module,
    cancel: &Cancel,
    lookup: ChildLookup,
) -> Checked {
    let roles = ws.module_roles();
    let mut diagnostics = cancel.run(|| check(ws, module, &roles, lookup));
    if roles.paths_of(&module.dir).is_none() {
        diagnostics.extend(tfvars(ws, module));
    }
    Checked { diagnostics, roles }
}

/// Publishes the diagnostics `all` found in `module` for every file of the module; the
/// caller made sure that `module` is still current. A file whose problems are gone is
/// published empty so that they disappear.
pub(super) async fn send(
    client: &Client,
    ws: &Workspace,
    state: &State,
    module: &Module,
    all: Vec<Diagnostic>,
) {
    let encoding = state.encoding();
    let all: Vec<Diagnostic> = all.into_iter().filter_map(|d| placed(d, module)).collect();
    let mut by_file: HashMap<&std::path::Path, Vec<&Diagnostic>> = HashMap::new();
    let tfvars_files = open_tfvars(ws, &module.dir);
    let mut lines = Lines {
        files: HashMap::new(),
        tfvars: tfvars_files.clone(),
    };
    for d in &all {
        by_file.entry(d.path.as_path()).or_default().push(d);
    }
    for source in module.sources.iter().chain(&tfvars_files) {
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
        let diagnostics = found
            .into_iter()
            .map(|d| to_lsp(d, &mut lines, encoding, module))
            .collect();
        client
            .publish_diagnostics(uri, diagnostics, source.version)
            .await;
    }
}

/// A diagnostic in no file (`Diagnostic::is_placeless`) shown somewhere an editor can: at
/// its first related place (the reference an unnamed lookup follows), or else on the first
/// character of the module's first file. `None` when the module has no file.
fn placed(d: Diagnostic, module: &Module) -> Option<Diagnostic> {
    if !d.is_placeless() {
        return Some(d);
    }
    let (path, span) = match d.related.first() {
        Some(r) => (r.path.clone(), r.span),
        None => (module.sources.first()?.path.clone(), Span::new(0, 0)),
    };
    Some(Diagnostic { path, span, ..d })
}

/// The line starts of the module's files, each found once per publish: a module's
/// diagnostics point into its files many times (related places among them).
struct Lines {
    files: HashMap<PathBuf, LineIndex>,
    /// The open variable definitions files of the module, which no module holds.
    tfvars: Vec<Arc<crate::module::SourceFile>>,
}

impl Lines {
    /// `span` of the module's file at `path` as an LSP range; `None` for a path that is
    /// not one of the module's files.
    fn range(
        &mut self,
        module: &Module,
        path: &Path,
        span: Span,
        encoding: crate::text::PositionEncoding,
    ) -> Option<lsp::Range> {
        let source = module
            .sources
            .iter()
            .chain(&self.tfvars)
            .find(|s| s.path == path)?;
        let lines = self
            .files
            .entry(path.to_path_buf())
            .or_insert_with(|| LineIndex::new(&source.text));
        Some(convert::range_by_lines(lines, &source.text, span, encoding))
    }
}

fn to_lsp(
    d: &Diagnostic,
    lines: &mut Lines,
    encoding: crate::text::PositionEncoding,
    module: &Module,
) -> lsp::Diagnostic {
    let related: Vec<lsp::DiagnosticRelatedInformation> = d
        .related
        .iter()
        .filter_map(|r| {
            Some(lsp::DiagnosticRelatedInformation {
                location: lsp::Location {
                    uri: convert::uri_of(&r.path)?,
                    range: lines.range(module, &r.path, r.span, encoding)?,
                },
                message: r.message.clone(),
            })
        })
        .collect();
    lsp::Diagnostic {
        range: lines
            .range(module, &d.path, d.span, encoding)
            .unwrap_or_default(),
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

/// The variable definitions files of the module in `dir` that are open.
fn open_tfvars(ws: &Workspace, dir: &Path) -> Vec<Arc<crate::module::SourceFile>> {
    let mut files = crate::ide::tfvars::tfvars_files(ws, dir);
    files.retain(|f| ws.is_open(&f.path));
    files
}

/// The problems of the open variable definitions files of a root module, which a plan
/// reads (`ide::tfvars_diagnostics`).
fn tfvars(ws: &Workspace, module: &Module) -> Vec<Diagnostic> {
    open_tfvars(ws, &module.dir)
        .iter()
        .flat_map(|f| crate::ide::tfvars_diagnostics::diagnostics(ws, &f.path))
        .collect()
}

/// The diagnostics of `module` (with the module call cycles its calls close), or one
/// saying that checking it failed. The check with the module's own provider schemas is
/// the workspace's kept one (`Workspace::checked`), which the plan and code actions share;
/// `lookup` says whether this one may wait for another running.
pub(super) fn check(
    ws: &Workspace,
    module: &Module,
    roles: &ModuleRoles,
    lookup: ChildLookup,
) -> Vec<Diagnostic> {
    let children = |source: &str| ws.read_child(&module.dir, source).map(|(_, m)| m);
    let what = format!("diagnostics of {}", module.dir.display());
    contain(what, || {
        let role = roles.role(&module.dir);
        let mut all = ws.checked(module, role, lookup).as_ref().clone();
        ws.check_in_other_root_roles(module, &mut all, &|merged, schemas| {
            check_module(module, merged, &children, schemas, role)
        });
        let child = |from: &std::path::Path, source: &str| ws.read_child(from, source);
        all.extend(CallCycles::new().walk(&module.dir, ws.merged_of(module), &child));
        all
    })
    .unwrap_or_else(|panicked| failure(module, panicked))
}

/// The diagnostic that stands for a module whose check panicked, on its first file.
fn failure(module: &Module, panicked: Panicked) -> Vec<Diagnostic> {
    let Some(first) = module.sources.first() else {
        return Vec::new();
    };
    vec![Diagnostic {
        severity: Severity::Error,
        summary: "Strata could not check this module".into(),
        detail: format!(
            "{panicked}. This is a bug in Strata; the other modules are checked as usual."
        ),
        path: first.path.clone(),
        span: Span::new(0, 0),
        code: "internal-error",
        related: Vec::new(),
        values: Vec::new(),
    }]
}

/// Clears the diagnostics of files that no longer belong to any module (closed and gone
/// from disk, or in a directory Strata stopped reading).
pub(super) async fn clear(client: &Client, state: &State, paths: &[PathBuf]) {
    for path in paths {
        if !state.set_has_diagnostics(path, false) {
            continue;
        }
        if let Some(uri) = convert::uri_of(path) {
            client.publish_diagnostics(uri, Vec::new(), None).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Related;
    use crate::module::{CoreVersion, FileSet, SourceFile};
    use crate::schema::Dialect;

    fn module() -> Module {
        let path = PathBuf::from("/m/main.tf");
        let source = SourceFile::parse(path, "variable \"a\" {}\n".into(), None, None);
        Module {
            dir: PathBuf::from("/m"),
            dialect: Dialect::Terraform,
            files: FileSet::from_names(&["main.tf"], Dialect::Terraform),
            sources: vec![Arc::new(source)],
            core_version: CoreVersion::target(Dialect::Terraform),
            revision: 0,
        }
    }

    fn placeless() -> Diagnostic {
        Diagnostic::without_range(Severity::Error, "c", "s".into(), "d".into())
    }

    #[test]
    fn a_placeless_diagnostic_is_shown_at_its_related_place_or_the_first_file() {
        let m = module();
        let shown = placed(placeless(), &m).expect("placed");
        assert_eq!(
            (shown.path, shown.span),
            (PathBuf::from("/m/main.tf"), Span::new(0, 0))
        );
        let mut related = placeless();
        related.related.push(Related {
            path: PathBuf::from("/m/other.tf"),
            span: Span::new(3, 7),
            message: "the reference".into(),
        });
        let shown = placed(related, &m).expect("placed");
        assert_eq!(
            (shown.path, shown.span),
            (PathBuf::from("/m/other.tf"), Span::new(3, 7))
        );
        let zero = placeless().at_zero_range();
        assert_eq!(
            placed(zero, &m).expect("placed").path,
            PathBuf::from("/m/main.tf")
        );
    }
}
