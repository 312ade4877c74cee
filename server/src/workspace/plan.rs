//! Planning a module of the workspace: the configuration checks first (a configuration
//! with errors plans nothing, as `terraform plan` does), then the prior state, then the
//! planner with local child modules found through the store. The CLI and the language
//! server both plan through here (the server through the kept plans of `plans.rs`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::plans::{Calls, PlanInputs};
use super::{local_child_dir, ChildLookup, Workspace};
use crate::check::{Role, Severity};
use crate::merge::MergedModule;
use crate::module::Module;
use crate::plan::{plan, snippet, Configuration, Plan, PlanDiagnostic, PlanOptions, StateError};
use crate::reads::Reads;
use crate::syntax::{parse, Span, Syntax};
use crate::text::read::{read_bounded, MAX_FILE_BYTES};
use crate::text::SourcePositions;

/// The state file of the module in `dir`: `setting` (the `strata.plan.statePath`
/// setting; relative to `dir` unless absolute), else `terraform.tfstate` in `dir`.
pub fn state_file(dir: &Path, setting: Option<&str>) -> PathBuf {
    match setting {
        Some(s) if !s.is_empty() => dir.join(s),
        _ => dir.join("terraform.tfstate"),
    }
}

impl Workspace {
    /// Plans the module of `dir` against the state at `state` (default:
    /// `terraform.tfstate` in `dir`; a missing file is an empty state).
    pub fn plan_module(
        &self,
        dir: &Path,
        state: Option<&Path>,
        options: &PlanOptions,
    ) -> Result<Plan, StateError> {
        self.plan_recording(dir, state, options).0
    }

    /// Plans as [`Workspace::plan_module`] does, and tells which modules it read, at
    /// which revisions (the files it read are recorded by `crate::reads`).
    pub(super) fn plan_recording(
        &self,
        dir: &Path,
        state: Option<&Path>,
        options: &PlanOptions,
    ) -> (Result<Plan, StateError>, PlanInputs) {
        let module = match self.module(dir) {
            Some(m) => m,
            None => self.index_dir(dir),
        };
        let calls = RefCell::new(Calls::new());
        let plan = self.plan_snapshot(&module, state, options, &calls);
        let inputs = PlanInputs {
            root: Some((module.dir.clone(), module.revision)),
            calls: calls.into_inner(),
            reads: Reads::default(),
        };
        (plan, inputs)
    }

    /// Plans the module snapshot `module`, noting each local module call it looks up in
    /// `calls`.
    fn plan_snapshot(
        &self,
        module: &Module,
        state: Option<&Path>,
        options: &PlanOptions,
        calls: &RefCell<Calls>,
    ) -> Result<Plan, StateError> {
        let dir = module.dir.as_path();
        let merged = self.merged_of(module);
        let children = |from: &Path, source: &str| {
            let found = self.child(from, source);
            calls
                .borrow_mut()
                .entry((from.to_path_buf(), source.to_string()))
                .or_insert_with(|| found.as_ref().map(|(d, _, rev)| (d.clone(), *rev)));
            found.map(|(d, m, _)| (d, m))
        };
        // The check the editor's diagnostics share (`checks.rs`). The plan depends on the
        // child modules it looked at: they are looked up again as the plan's own calls.
        let (checked, sources) = self.checked_calls(module, Role::Root, ChildLookup::Index);
        for source in &sources {
            children(dir, source);
        }
        let schemas = self.provider_schemas_for(dir);
        let errors: Vec<PlanDiagnostic> = checked
            .iter()
            .cloned()
            .chain(crate::check::plan_time_errors(&merged, &*schemas))
            .filter(|d| d.severity == Severity::Error)
            .map(|d| PlanDiagnostic {
                summary: d.summary,
                detail: d.detail,
                // Some follow-up errors have no place in any file.
                place: (!d.path.as_os_str().is_empty()).then_some((d.path, d.span)),
                values: d.values,
                address: None,
                function_call: None,
            })
            .collect();
        if !errors.is_empty() {
            return Ok(Plan {
                errors,
                ..Plan::default()
            });
        }
        let state_path = state.map_or_else(|| state_file(dir, None), Path::to_path_buf);
        // Read through a cache that may not read the file: recorded here.
        crate::reads::record(&state_path);
        let state = self.states.get(&state_path)?;
        let config = Configuration {
            root_dir: dir.to_path_buf(),
            root: merged,
            child: &children,
            schemas: &*schemas,
        };
        Ok(plan(&config, &state, options))
    }

    /// The prior state at `path` (an empty state when there is no file), read again only
    /// when the file changed.
    pub fn prior_state(&self, path: &Path) -> Result<Arc<crate::plan::State>, StateError> {
        self.states.get(path)
    }

    /// The local module a `source` names from `dir`, indexed on first use, with the
    /// revision it was merged from.
    fn child(&self, dir: &Path, source: &str) -> Option<(PathBuf, Arc<MergedModule>, u64)> {
        let child = local_child_dir(dir, source)?;
        let module = match self.module(&child) {
            Some(m) => m,
            None => self.index_dir(&child),
        };
        Some((child, self.merged_of(&module), module.revision))
    }
}

/// Line and column of places in the workspace's files, for plan output: names relative to
/// the planned module's directory, positions counted once per file.
pub struct PlanPositions<'a> {
    ws: &'a Workspace,
    root: PathBuf,
    cache: RefCell<HashMap<PathBuf, SourcePositions>>,
}

impl<'a> PlanPositions<'a> {
    /// Positions for a plan of the module in `root`.
    pub fn new(ws: &'a Workspace, root: &Path) -> Self {
        Self {
            ws,
            root: root.to_path_buf(),
            cache: RefCell::default(),
        }
    }

    /// A `range` object as `terraform validate -json` writes it.
    pub fn range(&self, path: &Path, span: Span) -> serde_json::Value {
        let mut cache = self.cache.borrow_mut();
        let pos = cache.entry(path.to_path_buf()).or_insert_with(|| {
            let text = self
                .ws
                .file(path)
                .map(|f| f.text.clone())
                .unwrap_or_default();
            SourcePositions::new(&text)
        });
        let filename = path
            .strip_prefix(&self.root)
            .unwrap_or(path)
            .to_string_lossy();
        serde_json::json!({
            "filename": filename,
            "start": pos.at(span.start as usize),
            "end": pos.at(span.end as usize),
        })
    }

    /// The source lines of a place as Terraform prints them under a diagnostic.
    pub fn snippet(&self, path: &Path, span: Span) -> String {
        let name = path
            .strip_prefix(&self.root)
            .unwrap_or(path)
            .to_string_lossy();
        if let Some(f) = self.ws.file(path) {
            return snippet(&name, &f.text, &f.syntax, span);
        }
        // A file the workspace does not hold (a variables file) is read as Terraform
        // reads it; a value given on the command line has no file.
        let text = read_bounded(path, MAX_FILE_BYTES)
            .ok()
            .and_then(|b| String::from_utf8(b).ok());
        match text {
            Some(text) => {
                let json = path.extension().is_some_and(|e| e == "json");
                let syntax = if json { Syntax::Json } else { Syntax::Native };
                let file = parse(&text, syntax, None);
                snippet(&name, &text, &file, span)
            }
            None => format!("  on {name} line 1:\n  (source code not available)\n\n"),
        }
    }

    /// A place as text output names it: `main.tf line 3`.
    pub fn place(&self, path: &Path, span: Span) -> String {
        let r = self.range(path, span);
        format!(
            "{} line {}",
            r["filename"].as_str().unwrap_or(""),
            r["start"]["line"]
        )
    }
}
