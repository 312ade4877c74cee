//! What HCL's scanner itself refuses (`checkInvalidTokens` in `hclsyntax/token.go`):
//! characters the language does not use, bitwise operators, quoted strings split over
//! lines, bytes that are not UTF-8. HCL checks the tokens of the whole file at once, and
//! repeats some of these errors only so often per file (one `;`, four bitwise operators,
//! the first and third backtick or apostrophe, one bad byte): Strata reports them item by
//! item as it parses, then [`count_per_file`] counts them over the file as HCL does.

use super::lexer::{Lexer, Tok, Token};
use super::{Span, SyntaxDiagnostic, SyntaxSeverity};

/// The details of the errors HCL tells only so often per file.
const BACKTICK: &str = "The \"`\" character is not valid. To create a multi-line string, use \
                        the \"heredoc\" syntax, like \"<<EOT\".";
const APOSTROPHE: &str = "Single quotes are not valid. Use double quotes (\") to enclose strings.";
const SEMICOLON: &str = "The \";\" character is not valid. Use newlines to separate arguments \
                         and blocks, and commas to separate items in collection values.";
const BITWISE: &str = "Bitwise operators are not supported.";

/// Replaces the counted errors among `diagnostics` (those of the file `text`, whose bytes
/// at `invalid` were not UTF-8) with those HCL's count over the whole file leaves: an item
/// parsed on its own would count from zero again.
pub(super) fn count_per_file(
    text: &str,
    invalid: &[usize],
    diagnostics: &mut Vec<SyntaxDiagnostic>,
) {
    if !diagnostics.iter().any(is_counted) {
        return;
    }
    let tokens = Lexer::new(text, 0..text.len())
        .with_invalid(invalid)
        .remaining_tokens();
    let told: Vec<SyntaxDiagnostic> = token_errors(text, &tokens)
        .into_iter()
        .filter(is_counted)
        .collect();
    let same =
        |a: &SyntaxDiagnostic, b: &SyntaxDiagnostic| a.span == b.span && a.detail == b.detail;
    diagnostics.retain(|d| !is_counted(d) || told.iter().any(|t| same(t, d)));
    for t in told {
        if !diagnostics.iter().any(|d| same(&t, d)) {
            // Before the parser's errors at the same place, as HCL lists the scanner's first.
            let at = diagnostics.partition_point(|d| d.span.start < t.span.start);
            diagnostics.insert(at, t);
        }
    }
}

fn is_counted(d: &SyntaxDiagnostic) -> bool {
    [BACKTICK, APOSTROPHE, SEMICOLON].contains(&d.detail.as_str())
        || d.detail.starts_with(BITWISE)
        || d.summary == INVALID_ENCODING
}

/// What HCL's scanner refuses among `tokens`, in HCL's words and with its limits on
/// repeating itself (one `;`, four bitwise operators, every other quote character).
pub(super) fn token_errors(text: &str, tokens: &[Token]) -> Vec<SyntaxDiagnostic> {
    let mut out = Vec::new();
    let (mut bitwise, mut backticks, mut apostrophes, mut semicolons) = (0, 0, 0, 0);
    let mut bad_bytes = 0;
    for token in tokens {
        let detail: Option<(&str, String)> = match token.kind {
            Tok::BitwiseAnd | Tok::BitwiseOr | Tok::BitwiseXor | Tok::BitwiseNot if bitwise < 4 => {
                bitwise += 1;
                let suggestion = match token.kind {
                    Tok::BitwiseAnd => " Did you mean boolean AND (\"&&\")?",
                    Tok::BitwiseOr => " Did you mean boolean OR (\"||\")?",
                    Tok::BitwiseNot => " Did you mean boolean NOT (\"!\")?",
                    _ => "",
                };
                Some(("Unsupported operator", format!("{BITWISE}{suggestion}")))
            }
            Tok::Backtick => {
                let report = backticks % 2 == 0;
                if backticks <= 2 {
                    backticks += 1;
                }
                report.then(|| ("Invalid character", BACKTICK.into()))
            }
            Tok::Apostrophe => {
                let report = apostrophes % 2 == 0;
                if apostrophes <= 2 {
                    apostrophes += 1;
                }
                report.then(|| ("Invalid character", APOSTROPHE.into()))
            }
            Tok::Semicolon if semicolons < 1 => {
                semicolons += 1;
                Some(("Invalid character", SEMICOLON.into()))
            }
            Tok::QuotedNewline => Some((
                "Invalid multi-line string",
                "Quoted strings may not be split over multiple lines. To produce a multi-line \
                 string, either use the \\n escape to represent a newline character or use the \
                 \"heredoc\" multi-line template syntax."
                    .into(),
            )),
            Tok::Invalid => Some((
                "Invalid character",
                invalid_character(&text[token.span.clone()]),
            )),
            Tok::BadUtf8 if bad_bytes < 1 => {
                bad_bytes += 1;
                Some((
                INVALID_ENCODING,
                "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected \
                 in your editor."
                    .into(),
            ))
            }
            _ => None,
        };
        if let Some((summary, detail)) = detail {
            out.push(SyntaxDiagnostic {
                severity: SyntaxSeverity::Error,
                summary: summary.into(),
                detail,
                span: Span::new(token.span.start, token.span.end),
                cited: None,
            });
        }
    }
    out
}

/// HCL's summary for a byte that is not UTF-8, which it reports once per file.
pub(super) const INVALID_ENCODING: &str = "Invalid character encoding";

fn invalid_character(chars: &str) -> String {
    if chars == "“" || chars == "”" {
        "\"Curly quotes\" are not valid here. These can sometimes be inadvertently introduced \
         when sharing code via documents or discussion forums. It might help to replace the \
         character with a \"straight quote\"."
            .into()
    } else {
        "This character is not used within the language.".into()
    }
}
