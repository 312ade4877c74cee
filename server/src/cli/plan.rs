//! `strata plan`: the plan preview of the module in a directory, as text that reads like
//! `terraform plan` or as JSON (DESIGN.md's shape). Exit status 1 when planning reports
//! errors; 2 when the directory or the state cannot be read.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};
use serde_json::json;

use super::Format;
use crate::module::Dialect;
use crate::plan::{plan_json, render_text, PlanOptions};
use crate::syntax::Span;
use crate::text::SourcePositions;
use crate::workspace::Workspace;

/// Plans the module in `dir` and prints the plan.
pub fn run(
    dir: &Path,
    state: Option<&Path>,
    options: &PlanOptions,
    format: Format,
    dialect: Option<Dialect>,
) -> Result<ExitCode> {
    let dir = super::check::readable_dir(dir)?;
    let ws = Workspace::new();
    ws.set_dialect(dialect);
    let module = ws.index_dir(&dir);
    if module.sources.is_empty() {
        bail!("{} holds no Terraform configuration files", dir.display());
    }
    let plan = ws.plan_module(&dir, state, options)?;
    let positions = Positions::new(&ws, &dir);
    let mut out = std::io::stdout().lock();
    match format {
        Format::Json => {
            let range = |path: &Path, span: Span| positions.range(path, span);
            serde_json::to_writer_pretty(&mut out, &plan_json(&plan, &range))?;
            writeln!(out)?;
        }
        Format::Text => {
            let place = |path: &Path, span: Span| {
                let r = positions.range(path, span);
                format!(
                    "{} line {}",
                    r["filename"].as_str().unwrap_or(""),
                    r["start"]["line"]
                )
            };
            out.write_all(render_text(&plan, module.dialect, &place).as_bytes())?;
        }
    }
    Ok(if plan.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Line and column of places in the workspace's files, names relative to the root.
struct Positions<'a> {
    ws: &'a Workspace,
    root: PathBuf,
    cache: std::cell::RefCell<HashMap<PathBuf, SourcePositions>>,
}

impl<'a> Positions<'a> {
    fn new(ws: &'a Workspace, root: &Path) -> Self {
        Self {
            ws,
            root: root.to_path_buf(),
            cache: Default::default(),
        }
    }

    /// A `range` object like `terraform validate -json` writes.
    fn range(&self, path: &Path, span: Span) -> serde_json::Value {
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
        json!({
            "filename": filename,
            "start": pos.at(span.start as usize),
            "end": pos.at(span.end as usize),
        })
    }
}
