//! Files a plan did not read: a file function whose path resolves outside the root
//! module's directory (written so, or through a symlink) returns an unknown value
//! (`eval::functions::files`), and the plan says so with a warning at the call.
//!
//! Why a warning and not silence: Terraform reads such a file, so the plan would show its
//! contents where Strata shows "known after apply"; without a word the preview looks like
//! Terraform's plan and is not. Why not an error: the configuration is valid, and
//! `file("../shared/policy.json")` is a common layout; only Strata declines to read it.
//! The warning is the plan's (the preview and `strata plan`), never a diagnostic in the
//! editor's problems list: `check` reads no files at all.

use std::path::Path;

use super::Planner;
use crate::merge::Origin;
use crate::plan::PlanDiagnostic;
use crate::syntax::Span;

/// The summary of the warning.
const FILE_NOT_READ: &str = "File outside the module not read";

impl Planner<'_> {
    /// Warns, once per call, that the file function called at `span` of `file` in module
    /// instance `node` did not read `path`, which resolves to `real`.
    pub(super) fn file_outside(&self, node: usize, file: u32, path: &str, real: &Path, span: Span) {
        let m = self.node(node).merged.clone();
        let at = m.file(file).path.clone();
        if !self.files_outside.borrow_mut().insert((at, span)) {
            return;
        }
        self.warnings.borrow_mut().push(PlanDiagnostic::at(
            &m,
            Origin { file, span },
            FILE_NOT_READ,
            format!(
                "Strata does not read files outside the module: {path:?} resolves to {}, \
                 outside {}. The value of this call, and every value that depends on it, \
                 is shown as unknown; Terraform would read the file.",
                real.display(),
                self.config.root_dir.display()
            ),
        ));
    }
}
