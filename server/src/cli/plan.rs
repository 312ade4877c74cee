//! `strata plan`: the plan preview of the module in a directory, as text that reads like
//! `terraform plan` or as JSON (DESIGN.md's shape). Exit status 1 when planning reports
//! errors; 2 when the directory or the state cannot be read. A `--state` or
//! `--var-file` path is resolved against the module directory.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;

use super::Format;
use crate::module::Dialect;
use crate::plan::{plan_json, render_text, PlanOptions};
use crate::syntax::Span;
use crate::workspace::PlanPositions;

/// Plans the module in `dir` and prints the plan.
pub fn run(
    dir: &Path,
    state: Option<&Path>,
    options: &PlanOptions,
    format: Format,
    dialect: Option<Dialect>,
    schema_files: &[PathBuf],
) -> Result<ExitCode> {
    let (dir, ws, module) = super::load_module(dir, dialect, schema_files)?;
    // Against DIR, as --var-file paths are (and as `terraform -chdir=DIR` reads both).
    let state = state.map(|s| dir.join(s));
    if let Some(path) = state.as_deref().filter(|p| p.symlink_metadata().is_err()) {
        eprintln!(
            "strata: warning: the state file {} does not exist; planning against an empty state",
            path.display()
        );
    }
    let plan = ws.plan_module(&dir, state.as_deref(), options)?;
    let positions = PlanPositions::new(&ws, &dir);
    let mut out = std::io::stdout().lock();
    match format {
        Format::Json => {
            let range = |path: &Path, span: Span| positions.range(path, span);
            serde_json::to_writer_pretty(&mut out, &plan_json(&plan, &range))?;
            writeln!(out)?;
        }
        Format::Text => {
            let place = |path: &Path, span: Span| positions.snippet(path, span);
            out.write_all(render_text(&plan, module.dialect, &place).as_bytes())?;
        }
    }
    Ok(if plan.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
