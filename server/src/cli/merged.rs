//! `strata merged`: the effective configuration of a module, as JSON in the shape of the
//! `configuration` object of `terraform show -json`, or as HCL text with the origin of
//! every overridden piece. Like `strata check`, exit status 1 when the module has errors
//! (the merged form is printed all the same, and stderr says so).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::Format;
use crate::check::Severity;
use crate::jsonconfig;
use crate::merge::{merge_with, render};
use crate::module::Dialect;
use crate::workspace::ModuleRoles;

/// Prints the merged module in `dir`.
pub fn run(
    dir: &Path,
    format: Format,
    dialect: Option<Dialect>,
    schema_files: &[PathBuf],
) -> Result<ExitCode> {
    let (dir, ws, module) = super::load_module(dir, dialect, schema_files)?;
    let merged = merge_with(&module, &*ws.provider_schemas_for(&module.dir));
    let mut out = std::io::stdout().lock();
    match format {
        Format::Text => out.write_all(render::render_module(&merged).as_bytes())?,
        Format::Json => {
            let tree = ws.configuration_tree(merged, &dir);
            let document = jsonconfig::to_json(&tree);
            serde_json::to_writer_pretty(&mut out, &document).context("writing JSON")?;
            writeln!(out)?;
        }
    }
    let roles = ModuleRoles::of(&ws, std::slice::from_ref(&module));
    let errors = super::check::module_diagnostics(&ws, &module, &roles)
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    if errors == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    let noun = if errors == 1 { "error" } else { "errors" };
    eprintln!(
        "strata: the module in {} has {errors} {noun}, so Terraform would not accept this \
         configuration; `strata check {}` shows them",
        dir.display(),
        dir.display()
    );
    Ok(ExitCode::from(1))
}
