//! The words HCL's JSON parser and decoder use more than once: the root that is not an
//! object, an invalid keyword (with HCL's suggestion), and the error constructor.

use super::{Span, SyntaxDiagnostic, SyntaxSeverity};

/// HCL's summary and detail for a JSON value that is neither an object nor an array at
/// the root of a file.
pub(super) const ROOT_NOT_OBJECT: (&str, &str) = (
    "Root value must be object",
    "The root value in a JSON-based configuration must be either a JSON object or a JSON \
     array of objects.",
);

/// HCL's summary and detail for a bare word that is not `true`, `false` or `null`.
pub(super) fn keyword(word: &str) -> (&'static str, String) {
    let detail = if matches!(word, "undefined" | "NaN" | "Infinity") {
        format!("The JavaScript identifier \"{word}\" cannot be used in JSON.")
    } else {
        let hint = crate::text::names::first_close_name(word, &["false", "true", "null"])
            .map(|s| format!(" Did you mean \"{s}\"?"))
            .unwrap_or_default();
        format!("\"{word}\" is not a valid JSON keyword.{hint}")
    };
    ("Invalid JSON keyword", detail)
}

/// An error diagnostic.
pub(super) fn error(summary: &str, detail: &str, span: Span) -> SyntaxDiagnostic {
    SyntaxDiagnostic {
        severity: SyntaxSeverity::Error,
        summary: summary.into(),
        detail: detail.into(),
        span,
        cited: None,
    }
}
