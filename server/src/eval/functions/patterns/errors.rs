//! An invalid pattern in Go's words: the code of Go's `regexp/syntax` error and the part
//! of the pattern it names, which Terraform prints (`regex` and `regexall`: "invalid
//! regexp pattern: missing closing ) in (", `replace`: "error parsing regexp: missing
//! closing ): `(`"). regex-syntax reports the same mistakes with its own kinds and spans;
//! each is mapped to the code Go gives it and the text Go quotes (recorded in
//! `fixtures/functions/regex-results.json`).

use regex_syntax::ast::{self, ErrorKind as AstKind};
use regex_syntax::hir::{self, ErrorKind as HirKind};

/// Why a pattern could not be compiled.
pub(in crate::eval::functions) enum PatternError {
    /// The pattern is not valid RE2: Go's error code and the part of the pattern it names.
    Syntax { code: &'static str, expr: String },
    /// The budget ran out, or the compiled pattern is too big: the message as it is.
    Other(String),
}

impl PatternError {
    /// The reason `regex` and `regexall` give (an argument error about the pattern).
    pub(in crate::eval::functions) fn for_regex(self) -> String {
        match self {
            PatternError::Syntax { code, expr } => {
                format!("invalid regexp pattern: {code} in {expr}")
            }
            PatternError::Other(reason) => reason,
        }
    }

    /// The reason `replace` gives (Go's error as it prints itself).
    pub(in crate::eval::functions) fn for_replace(self) -> String {
        match self {
            PatternError::Syntax { code, expr } => {
                format!("error parsing regexp: {code}: `{expr}`")
            }
            PatternError::Other(reason) => reason,
        }
    }
}

impl From<String> for PatternError {
    fn from(reason: String) -> Self {
        PatternError::Other(reason)
    }
}

/// Go's codes (`regexp/syntax.ErrorCode`) that Strata reports.
const MISSING_PAREN: &str = "missing closing )";
const UNEXPECTED_PAREN: &str = "unexpected )";
const MISSING_BRACKET: &str = "missing closing ]";
const INVALID_CHAR_RANGE: &str = "invalid character class range";
const INVALID_ESCAPE: &str = "invalid escape sequence";
const TRAILING_BACKSLASH: &str = "trailing backslash at end of expression";
const MISSING_REPEAT_ARGUMENT: &str = "missing argument to repetition operator";
pub(super) const INVALID_REPEAT_OP: &str = "invalid nested repetition operator";
pub(super) const INVALID_REPEAT_SIZE: &str = "invalid repeat count";
const INVALID_PERL_OP: &str = "invalid or unsupported Perl syntax";
const INVALID_NAMED_CAPTURE: &str = "invalid named capture";
const NESTING_DEPTH: &str = "expression nests too deeply";
const LARGE: &str = "expression too large";

/// A parse error of `pattern` in Go's words.
pub(super) fn from_parse(pattern: &str, error: &ast::Error) -> PatternError {
    let span = error.span();
    let text = || pattern[span.start.offset..span.end.offset].to_string();
    let from_start = || pattern[span.start.offset..].to_string();
    // Flags and group names: from the `(?` that opens them.
    let opened = |to: usize| {
        let open = pattern[..span.start.offset]
            .rfind("(?")
            .unwrap_or(span.start.offset);
        pattern[open..to.max(open)].to_string()
    };
    let (code, expr) = match error.kind() {
        AstKind::GroupUnclosed => (MISSING_PAREN, pattern.to_string()),
        AstKind::GroupUnopened => (UNEXPECTED_PAREN, pattern.to_string()),
        AstKind::ClassUnclosed => (MISSING_BRACKET, from_start()),
        AstKind::ClassRangeInvalid | AstKind::ClassRangeLiteral | AstKind::UnicodeClassInvalid => {
            (INVALID_CHAR_RANGE, text())
        }
        AstKind::EscapeUnexpectedEof => (TRAILING_BACKSLASH, String::new()),
        AstKind::ClassEscapeInvalid
        | AstKind::EscapeHexEmpty
        | AstKind::EscapeHexInvalid
        | AstKind::EscapeHexInvalidDigit
        | AstKind::EscapeUnrecognized
        | AstKind::UnsupportedBackreference
        | AstKind::SpecialWordBoundaryUnclosed
        | AstKind::SpecialWordBoundaryUnrecognized
        | AstKind::SpecialWordOrRepetitionUnexpectedEof => (INVALID_ESCAPE, text()),
        AstKind::RepetitionMissing => (
            MISSING_REPEAT_ARGUMENT,
            operator(&pattern[span.start.offset..]),
        ),
        AstKind::RepetitionCountInvalid
        | AstKind::RepetitionCountDecimalEmpty
        | AstKind::RepetitionCountUnclosed
        | AstKind::DecimalEmpty
        | AstKind::DecimalInvalid => (INVALID_REPEAT_SIZE, text()),
        AstKind::GroupNameUnexpectedEof => (INVALID_NAMED_CAPTURE, opened(pattern.len())),
        AstKind::GroupNameEmpty
        | AstKind::GroupNameInvalid
        | AstKind::GroupNameDuplicate { .. } => (INVALID_NAMED_CAPTURE, opened(span.end.offset)),
        AstKind::FlagUnexpectedEof => (INVALID_PERL_OP, opened(pattern.len())),
        AstKind::FlagUnrecognized
        | AstKind::FlagDanglingNegation
        | AstKind::FlagDuplicate { .. }
        | AstKind::FlagRepeatedNegation { .. }
        | AstKind::UnsupportedLookAround => (INVALID_PERL_OP, opened(span.end.offset)),
        AstKind::NestLimitExceeded(_) => (NESTING_DEPTH, pattern.to_string()),
        AstKind::CaptureLimitExceeded => (LARGE, pattern.to_string()),
        _ => (INVALID_PERL_OP, text()),
    };
    PatternError::Syntax { code, expr }
}

/// The repetition operator `rest` starts with (`*`, `+`, `?` or a `{…}` count).
fn operator(rest: &str) -> String {
    match rest.chars().next() {
        Some('{') => rest.find('}').map_or(rest, |end| &rest[..=end]).to_string(),
        Some(c) => c.to_string(),
        None => String::new(),
    }
}

/// A translation error of `pattern` (an unknown Unicode class) in Go's words.
pub(super) fn from_translate(pattern: &str, error: &hir::Error) -> PatternError {
    let span = error.span();
    let text = pattern[span.start.offset..span.end.offset].to_string();
    let code = match error.kind() {
        HirKind::UnicodePropertyNotFound
        | HirKind::UnicodePropertyValueNotFound
        | HirKind::UnicodePerlClassNotFound => INVALID_CHAR_RANGE,
        _ => INVALID_ESCAPE,
    };
    PatternError::Syntax { code, expr: text }
}
