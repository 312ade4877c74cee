//! `strata check`: diagnostics of every module under a directory, as text like
//! `terraform validate`, as JSON in the exact shape of `terraform validate -json`, or in
//! the formats CI systems read (SARIF, GitHub Actions annotations).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use serde::Serialize;

pub use super::text::Colour;
use super::text::{Place, TextDiagnostic};
use super::CheckFormat;
use crate::check::{validate_module, Diagnostic, Severity};
use crate::module::{Dialect, Module};
use crate::text::{SourcePos, SourcePositions};
use crate::workspace::{discover_modules, CallCycles, ModuleRoles, Workspace};

/// Checks every module under `dir` with the provider schemas the store finds (schema
/// files first) and prints the result; exit status 1 when any error.
pub fn run(
    dir: &Path,
    format: CheckFormat,
    dialect: Option<Dialect>,
    core_version: Option<String>,
    (schema_files, no_plugins): (&[PathBuf], bool),
    colour: Colour,
) -> Result<ExitCode> {
    let dir = readable_dir(dir)?;

    let ws = Workspace::new();
    ws.set_dialect(dialect);
    ws.set_core_version(core_version);
    let dirs = discover_modules(&dir);
    ws.index_dirs(&dirs, &|_| {});
    super::schemas::load_store(&ws, schema_files, no_plugins)?;
    let modules = ws.modules();
    let roles = ModuleRoles::of(&ws, &modules);
    let mut diagnostics: Vec<Diagnostic> = modules
        .iter()
        .flat_map(|m| module_diagnostics(&ws, m, &roles))
        .collect();
    diagnostics.extend(call_cycles(&ws, &modules, &roles));
    // Terraform reports no notes: only the text format, for people, shows Strata's own.
    diagnostics.retain(|d| d.severity != Severity::Information || format == CheckFormat::Text);

    let mut report = Report::new(&ws, &dir, &diagnostics);
    let mut out = std::io::stdout().lock();
    match format {
        CheckFormat::Json => {
            serde_json::to_writer_pretty(&mut out, &report.json)?;
            writeln!(out)?;
        }
        CheckFormat::Text => {
            let text = std::mem::take(&mut report.text);
            out.write_all(super::text::render(text, colour).as_bytes())?
        }
        CheckFormat::Sarif => {
            let log = super::sarif::log(&report.findings, &current_dir());
            serde_json::to_writer_pretty(&mut out, &log)?;
            writeln!(out)?;
        }
        CheckFormat::Github => {
            let commands = super::annotations::workflow_commands(&report.findings, &current_dir());
            out.write_all(commands.as_bytes())?
        }
    }
    Ok(if report.json.error_count > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The diagnostics of module `m` as `strata check` reports them, without the call
/// cycles its calls close (those are reported once for the whole set).
pub(super) fn module_diagnostics(
    ws: &Workspace,
    m: &Module,
    roles: &ModuleRoles,
) -> Vec<Diagnostic> {
    let children = |source: &str| {
        crate::workspace::local_child_dir(&m.dir, source).and_then(|d| ws.merged(&d))
    };
    let role = roles.role(&m.dir);
    ws.check_in_root_roles(m, &|merged, schemas| {
        validate_module(m, merged, &children, schemas, role)
    })
}

/// The module call cycles of the set, each reported once: walked from the modules
/// checked as root modules, then from any module none of them reaches (modules that
/// only call each other).
fn call_cycles(
    ws: &Workspace,
    modules: &[std::sync::Arc<crate::module::Module>],
    roles: &ModuleRoles,
) -> Vec<Diagnostic> {
    let child = |from: &Path, source: &str| ws.read_child(from, source);
    let mut cycles = CallCycles::new();
    let (roots, rest): (Vec<_>, Vec<_>) = modules.iter().partition(|m| !roles.is_called(&m.dir));
    let mut out = Vec::new();
    for m in roots.into_iter().chain(rest) {
        if !cycles.reached(&m.dir) {
            out.extend(cycles.walk(&m.dir, ws.merged_of(m), &child));
        }
    }
    out
}

/// The directory CI formats name files against: the current one, as the checkout's root
/// in a CI job, made canonical like the checked directory so that prefixes match.
fn current_dir() -> PathBuf {
    std::env::current_dir()
        .and_then(|d| d.canonicalize())
        .unwrap_or_default()
}

/// `dir` made absolute, or an error saying why it cannot be read as a directory.
pub fn readable_dir(dir: &Path) -> Result<std::path::PathBuf> {
    let meta = std::fs::metadata(dir)
        .with_context(|| format!("cannot read directory {}", dir.display()))?;
    if !meta.is_dir() {
        bail!("{} is not a directory", dir.display());
    }
    std::fs::read_dir(dir).with_context(|| format!("cannot read directory {}", dir.display()))?;
    dir.canonicalize()
        .with_context(|| format!("cannot resolve {}", dir.display()))
}

/// `terraform validate -json`.
#[derive(Debug, Serialize)]
struct ValidateJson {
    format_version: &'static str,
    valid: bool,
    error_count: usize,
    warning_count: usize,
    diagnostics: Vec<JsonDiagnostic>,
}

#[derive(Debug, Serialize)]
struct JsonDiagnostic {
    severity: &'static str,
    summary: String,
    detail: String,
    /// Absent for a diagnostic Terraform gives no range.
    #[serde(skip_serializing_if = "Option::is_none")]
    range: Option<JsonRange>,
}

#[derive(Debug, Serialize)]
struct JsonRange {
    filename: String,
    start: SourcePos,
    end: SourcePos,
}

struct Report {
    json: ValidateJson,
    /// The diagnostics as the text format shows them.
    text: Vec<TextDiagnostic>,
    /// The same diagnostics with their codes and places, for the CI formats.
    findings: Vec<Finding>,
}

/// One diagnostic as the CI formats (SARIF, workflow annotations) write it.
pub(super) struct Finding {
    /// How serious.
    pub severity: Severity,
    /// The rule's stable code.
    pub code: &'static str,
    /// Terraform's summary.
    pub summary: String,
    /// Terraform's detail.
    pub detail: String,
    /// Where; `None` for a diagnostic Terraform gives no range.
    pub location: Option<Location>,
    /// The other places that explain it, each with what it is.
    pub related: Vec<(Location, String)>,
}

/// A range of one file.
pub(super) struct Location {
    /// The file: absolute, as the workspace names it.
    pub path: PathBuf,
    /// Start and end as Terraform counts them (columns in grapheme clusters).
    pub start: SourcePos,
    /// See `start`.
    pub end: SourcePos,
    /// The start and end columns in UTF-16 code units, 1-based.
    pub utf16_columns: (usize, usize),
}

impl Location {
    fn new(pos: &SourcePositions, path: &Path, span: crate::syntax::Span) -> Self {
        let (start, end) = pos.range(span.start as usize, span.end as usize);
        // `range` widens an empty range at the end of the text by one byte, as HCL does.
        let widened = end.byte.saturating_sub(span.end as usize);
        Location {
            path: path.to_path_buf(),
            start,
            end,
            utf16_columns: (
                pos.utf16_column(span.start as usize),
                pos.utf16_column(span.end as usize) + widened,
            ),
        }
    }
}

impl Report {
    fn new(ws: &Workspace, root: &Path, diagnostics: &[Diagnostic]) -> Self {
        let mut positions: HashMap<PathBuf, SourcePositions> = HashMap::new();
        let mut out = Vec::new();
        let mut text = Vec::new();
        let mut findings = Vec::new();
        for d in diagnostics {
            let related = d
                .related
                .iter()
                .filter(|r| !r.path.as_os_str().is_empty())
                .map(|r| {
                    let pos = positions_of(&mut positions, ws, &r.path);
                    (Location::new(pos, &r.path, r.span), r.message.clone())
                })
                .collect();
            let pos = positions_of(&mut positions, ws, &d.path);
            findings.push(Finding {
                severity: d.severity,
                code: d.code,
                summary: d.summary.clone(),
                detail: d.detail.clone(),
                location: (!d.is_placeless()).then(|| Location::new(pos, &d.path, d.span)),
                related,
            });
            let (start, end) = if d.path.as_os_str().is_empty() {
                // A diagnostic without a place: Terraform prints the zero range.
                let at = |n| SourcePos {
                    line: 0,
                    column: n,
                    byte: n,
                };
                (at(0), at(1))
            } else {
                pos.range(d.span.start as usize, d.span.end as usize)
            };
            let filename = d
                .path
                .strip_prefix(root)
                .unwrap_or(&d.path)
                .to_string_lossy()
                .into_owned();
            text.push(TextDiagnostic {
                severity: d.severity,
                summary: d.summary.clone(),
                detail: d.detail.clone(),
                place: (!d.is_placeless() && d.has_range()).then(|| Place {
                    filename: filename.clone(),
                    line: start.line,
                    context: block_context(ws, d),
                    text: pos.line_text(start.line),
                    // To the end of the line when the range goes on past it.
                    columns: (
                        start.column,
                        if end.line == start.line {
                            end.column
                        } else {
                            usize::MAX
                        },
                    ),
                    bytes: (start.byte, end.byte),
                }),
            });
            out.push(JsonDiagnostic {
                severity: match d.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Information => "info",
                },
                summary: d.summary.clone(),
                detail: d.detail.clone(),
                range: d.has_range().then_some(JsonRange {
                    filename,
                    start,
                    end,
                }),
            });
        }
        let error_count = out.iter().filter(|d| d.severity == "error").count();
        let warning_count = out.iter().filter(|d| d.severity == "warning").count();
        Self {
            json: ValidateJson {
                format_version: "1.0",
                valid: error_count == 0,
                error_count,
                warning_count,
                diagnostics: out,
            },
            text,
            findings,
        }
    }
}

/// The positions of the file at `path`, built once per file.
fn positions_of<'a>(
    positions: &'a mut HashMap<PathBuf, SourcePositions>,
    ws: &Workspace,
    path: &Path,
) -> &'a SourcePositions {
    positions.entry(path.to_path_buf()).or_insert_with(|| {
        ws.file(path)
            .map_or_else(|| SourcePositions::new(""), |f| f.positions())
    })
}

/// `, in resource "a" "b"` when the diagnostic lies inside a top-level block.
fn block_context(ws: &Workspace, d: &Diagnostic) -> String {
    let Some(file) = ws.file(&d.path) else {
        return String::new();
    };
    // Top-level blocks are in source order: the one that may hold the diagnostic is the
    // last to start before it (a search per diagnostic, not a scan).
    let blocks = &file.syntax.body.blocks;
    let after = blocks.partition_point(|b| b.kind.span.start < d.span.start);
    after
        .checked_sub(1)
        .and_then(|i| blocks.get(i))
        .filter(|b| b.span.contains(d.span.start as usize))
        .map(|b| format!(", in {}", b.header()))
        .unwrap_or_default()
}
