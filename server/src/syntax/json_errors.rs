//! JSON syntax errors in the words of HCL's JSON parser.
//!
//! jsonc-parser finds the error; this says it as HCL does (`Trailing comma in object`,
//! `Missing property value colon`, `Unclosed object`, `Invalid JSON keyword`, ...), at
//! HCL's place where the two agree. HCL also drops the broken object from its tree, which
//! makes Terraform report a follow-on `Incorrect JSON value type` on the property that held
//! it; Strata, having no tree for a file that does not parse, does not.

use jsonc_parser::errors::{ParseError, ParseErrorKind};

use super::{Span, SyntaxDiagnostic, SyntaxSeverity};

/// HCL's summary and detail for a JSON value that is neither an object nor an array at
/// the root of a file.
pub(super) const ROOT_NOT_OBJECT: (&str, &str) = (
    "Root value must be object",
    "The root value in a JSON-based configuration must be either a JSON object or a JSON \
     array of objects.",
);

/// HCL's errors for the jsonc-parser error `e` in `text`.
pub(super) fn hcl_words(text: &str, e: &ParseError) -> Vec<SyntaxDiagnostic> {
    let r = e.range();
    let span = Span::new(r.start, r.end.max(r.start + 1).min(text.len().max(r.start)));
    let at_start = Span::new(r.start, (r.start + 1).min(text.len().max(r.start)));
    let word = text.get(r.start..r.end).unwrap_or("");
    let (summary, detail, span) = match e.kind() {
        ParseErrorKind::TrailingCommasNotAllowed => {
            let next = text[r.end.min(text.len())..].trim_start().chars().next();
            if next == Some(']') {
                (
                    "Trailing comma in array".into(),
                    "JSON does not permit a trailing comma after the final value in an array."
                        .to_string(),
                    span,
                )
            } else {
                (
                    "Trailing comma in object".into(),
                    "JSON does not permit a trailing comma after the final property in an \
                     object."
                        .to_string(),
                    span,
                )
            }
        }
        ParseErrorKind::ExpectedColonAfterObjectKey => (
            "Missing property value colon".into(),
            "A colon must appear between an object property's name and its value.".into(),
            span,
        ),
        ParseErrorKind::MultipleRootJsonValues => (
            "Extraneous data after value".into(),
            "Extra characters appear after the JSON value.".into(),
            span,
        ),
        ParseErrorKind::UnterminatedObject => {
            let mut out = vec![error(
                "Unclosed object",
                "No closing brace was found for this JSON object.",
                at_start,
            )];
            if text[..r.start].trim().is_empty() {
                let (summary, detail) = ROOT_NOT_OBJECT;
                out.push(error(summary, detail, at_start));
            }
            return out;
        }
        ParseErrorKind::UnterminatedArray => (
            "Unclosed object".into(),
            "No closing bracket was found for this JSON array.".into(),
            at_start,
        ),
        ParseErrorKind::UnexpectedWord => keyword(word, span),
        ParseErrorKind::UnexpectedToken if is_word(word) => keyword(word, span),
        ParseErrorKind::String(_) => (
            "Invalid JSON string".into(),
            "There is a syntax error in the given JSON string.".into(),
            // HCL points just past the bad escape.
            Span::new(r.end, (r.end + 1).min(text.len().max(r.end))),
        ),
        ParseErrorKind::ExpectedDigit
        | ParseErrorKind::ExpectedDigitFollowingNegativeSign
        | ParseErrorKind::ExpectedPlusMinusOrDigitInNumberLiteral => (
            "Invalid JSON number".into(),
            "There is a syntax error in the given JSON number.".into(),
            span,
        ),
        other => ("Invalid JSON syntax".into(), format!("{other}."), span),
    };
    vec![error(&summary, &detail, span)]
}

fn is_word(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// HCL's words for a bare word that is not `true`, `false` or `null`.
fn keyword(word: &str, span: Span) -> (String, String, Span) {
    let detail = if matches!(word, "undefined" | "NaN" | "Infinity") {
        format!("The JavaScript identifier \"{word}\" cannot be used in JSON.")
    } else {
        let hint = crate::text::names::first_close_name(word, &["false", "true", "null"])
            .map(|s| format!(" Did you mean \"{s}\"?"))
            .unwrap_or_default();
        format!("\"{word}\" is not a valid JSON keyword.{hint}")
    };
    ("Invalid JSON keyword".into(), detail, span)
}

/// An error diagnostic.
pub(super) fn error(summary: &str, detail: &str, span: Span) -> SyntaxDiagnostic {
    SyntaxDiagnostic {
        severity: SyntaxSeverity::Error,
        summary: summary.into(),
        detail: detail.into(),
        span,
    }
}
