//! The nesting limit of the syntax layer ([`MAX_NESTING_DEPTH`]): the diagnostic that
//! names it. hcl-edit refuses deeper nesting in a file it parses whole; recovery and the
//! diagnosis of HCL's errors stop at the same depth, so that every later layer may walk
//! syntax trees recursively.

use super::{Span, SyntaxDiagnostic, SyntaxSeverity};
use crate::limits::{beyond_terraform, MAX_NESTING_DEPTH};

/// hcl-edit's message for input past its nesting limit (blocks, expressions, templates).
const HCL_EDIT_NESTING: &str = "nesting depth";

/// The summary of [`nested_too_deeply`].
pub const NESTED_TOO_DEEPLY: &str = "Configuration nested too deeply";

/// The error for an item nested deeper than [`MAX_NESTING_DEPTH`], at `span` (where the
/// level past the limit starts); the item is left out of analysis.
pub(super) fn nested_too_deeply(span: Span) -> SyntaxDiagnostic {
    SyntaxDiagnostic {
        severity: SyntaxSeverity::Error,
        summary: NESTED_TOO_DEEPLY.into(),
        detail: format!(
            "Blocks, brackets, templates and operators here are nested more than \
             {MAX_NESTING_DEPTH} levels deep, more than Strata reads, so this item is left \
             out of analysis. {}",
            beyond_terraform()
        ),
        span,
        cited: None,
    }
}

/// Whether an hcl-edit error message is its nesting limit.
pub(super) fn is_nesting_error(message: &str) -> bool {
    message.contains(HCL_EDIT_NESTING)
}
