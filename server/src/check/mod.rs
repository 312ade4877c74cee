//! Diagnostics of a module, one file per family. So far: syntax (errors, unreadable
//! files, expressions Strata could not analyse). Every diagnostic names its file, range,
//! Terraform-style summary and detail, and a stable code.

mod syntax;

use std::path::PathBuf;

use crate::module::Module;
use crate::syntax::Span;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Terraform would refuse the configuration.
    Error,
    /// Terraform would accept it, but it is almost certainly a mistake.
    Warning,
    /// Something the user should know about Strata's own analysis.
    Information,
}

/// One problem in one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// How serious.
    pub severity: Severity,
    /// Terraform's summary text.
    pub summary: String,
    /// The detail text.
    pub detail: String,
    /// The file it is in.
    pub path: PathBuf,
    /// Where in that file.
    pub span: Span,
    /// A stable identifier of the rule, for suppression and documentation.
    pub code: &'static str,
}

/// Every diagnostic of a module, in file load order and then by position.
pub fn check_module(module: &Module) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    syntax::check(module, &mut out);
    out
}
