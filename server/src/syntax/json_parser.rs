//! HCL's JSON parser, followed step by step: its lax scanner (a keyword is any run of
//! letters, a number any run of digits, signs, dots and exponents, so that the parser
//! can say what is wrong with it), its recursive descent, and its recovery. A value that
//! does not parse becomes [`JsonKind::Invalid`] at the token where it started, and the
//! object or array around it goes on, exactly where HCL's does: the tree and the errors
//! are those Terraform decodes and reports, cascades included.

use super::json_errors::{error, keyword};
use super::{Ident, JsonKind, JsonValue, Span, SyntaxDiagnostic};

/// What a token of HCL's JSON scanner is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    BraceOpen,
    BraceClose,
    BracketOpen,
    BracketClose,
    Comma,
    Colon,
    /// `=`, scanned only to remind the user that JSON uses a colon.
    Equals,
    Keyword,
    String,
    Number,
    /// A byte no token starts with; the scanner stops after it.
    Invalid,
    End,
}

#[derive(Debug, Clone, Copy)]
struct Token {
    kind: Kind,
    span: Span,
}

/// The tokens of `text`, ending with an end token (right after an invalid byte, where
/// HCL's scanner gives up).
fn scan(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    loop {
        while i < bytes.len() && matches!(bytes[i], b' ' | b'\n' | b'\r' | b'\t') {
            i += 1;
        }
        let Some(&first) = bytes.get(i) else {
            tokens.push(Token {
                kind: Kind::End,
                span: Span::new(i, i),
            });
            return tokens;
        };
        let start = i;
        let kind = match first {
            b'{' => Kind::BraceOpen,
            b'}' => Kind::BraceClose,
            b'[' => Kind::BracketOpen,
            b']' => Kind::BracketClose,
            b',' => Kind::Comma,
            b':' => Kind::Colon,
            b'=' => Kind::Equals,
            b'"' => Kind::String,
            b'-' | b'+' | b'.' | b'0'..=b'9' => Kind::Number,
            b if b.is_ascii_alphabetic() => Kind::Keyword,
            _ => Kind::Invalid,
        };
        i = match kind {
            Kind::String => string_end(bytes, i),
            Kind::Number => run_end(bytes, i, |b| {
                matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
            }),
            Kind::Keyword => run_end(bytes, i, |b| b.is_ascii_alphabetic() || b == b'_'),
            _ => i + 1,
        };
        tokens.push(Token {
            kind,
            span: Span::new(start, i),
        });
        if kind == Kind::Invalid {
            tokens.push(Token {
                kind: Kind::End,
                span: Span::new(i, i),
            });
            return tokens;
        }
    }
}

fn run_end(bytes: &[u8], start: usize, more: impl Fn(u8) -> bool) -> usize {
    start + bytes[start..].iter().take_while(|b| more(**b)).count()
}

/// Where the string token starting at `start` ends: after its closing quote, or before
/// the first control character or the end of the text (the parser finds the string
/// unterminated then). Escapes matter only for finding the closing quote.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    let mut escaping = false;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => escaping = !escaping,
            b'"' if !escaping => return i + 1,
            b'"' => escaping = false,
            0..=31 => return i,
            _ => escaping = false,
        }
        i += 1;
    }
    i
}

/// A parsed JSON text: its value and HCL's errors.
pub(super) struct Parsed {
    /// The value (`Invalid` where nothing could be read).
    pub value: JsonValue,
    /// HCL's parse errors, in the order HCL reports them.
    pub diagnostics: Vec<SyntaxDiagnostic>,
}

/// Parses `text` as HCL parses a JSON configuration file's content.
pub(super) fn parse(text: &str) -> Parsed {
    let mut p = Parser {
        text,
        tokens: scan(text),
        at: 0,
        diagnostics: Vec::new(),
    };
    let value = p.value();
    if p.diagnostics.is_empty() && p.peek().kind != Kind::End {
        let span = p.peek().span;
        p.error(
            "Extraneous data after value",
            "Extra characters appear after the JSON value.",
            span,
        );
    }
    Parsed {
        value,
        diagnostics: p.diagnostics,
    }
}

const VALUE_START: &str =
    "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.";

struct Parser<'a> {
    text: &'a str,
    tokens: Vec<Token>,
    at: usize,
    diagnostics: Vec<SyntaxDiagnostic>,
}

impl Parser<'_> {
    fn peek(&self) -> Token {
        self.tokens[self.at]
    }

    /// The next token, consumed unless it is the end.
    fn read(&mut self) -> Token {
        let token = self.tokens[self.at];
        if token.kind != Kind::End {
            self.at += 1;
        }
        token
    }

    fn error(&mut self, summary: &str, detail: &str, span: Span) {
        self.diagnostics.push(error(summary, detail, span));
    }

    /// One value; `Invalid` at its first token when it does not parse.
    fn value(&mut self) -> JsonValue {
        let first = self.peek();
        let parsed = match first.kind {
            Kind::BraceOpen => self.object(),
            Kind::BracketOpen => self.array(),
            Kind::Number => self.number(),
            Kind::String => self.string().map(|(s, span)| JsonValue {
                span,
                kind: JsonKind::String(s.into()),
            }),
            Kind::Keyword => self.keyword(),
            kind => {
                let (summary, detail) = match kind {
                    Kind::BraceClose => ("Missing JSON value", VALUE_START),
                    Kind::BracketClose => ("Missing array element value", VALUE_START),
                    Kind::End => ("Missing value", "The JSON data ends prematurely."),
                    _ => ("Invalid start of value", VALUE_START),
                };
                let span = first.span;
                self.error(summary, detail, span);
                None
            }
        };
        parsed.unwrap_or(JsonValue {
            span: first.span,
            kind: JsonKind::Invalid,
        })
    }

    /// After an error inside an object: skips to what seems its end, starting with
    /// `token` (already read). Like HCL, it stops at the first closing brace that brings
    /// the nesting back to one level, which for a nested object is that object's end.
    fn skip_object(&mut self, mut token: Token) {
        self.skip(&mut token, Kind::BraceOpen, Kind::BraceClose);
    }

    /// The same after an error inside an array, counting brackets.
    fn skip_array(&mut self, mut token: Token) {
        self.skip(&mut token, Kind::BracketOpen, Kind::BracketClose);
    }

    fn skip(&mut self, token: &mut Token, open: Kind, close: Kind) {
        let mut depth = 1;
        loop {
            if token.kind == open {
                depth += 1;
            } else if token.kind == close {
                depth -= 1;
                if depth <= 1 {
                    return;
                }
            } else if token.kind == Kind::End {
                return;
            }
            *token = self.read();
        }
    }

    fn object(&mut self) -> Option<JsonValue> {
        let open = self.read();
        let mut props = Vec::new();
        loop {
            if self.peek().kind == Kind::BraceClose {
                break;
            }
            let key = self.value();
            let JsonKind::String(name) = key.kind else {
                let span = match key.kind {
                    JsonKind::Object(_) | JsonKind::Array(_) => first_char(key.span),
                    _ => key.span,
                };
                self.error(
                    "Invalid object property name",
                    "A JSON object property name must be a string",
                    span,
                );
                return None;
            };
            let colon = self.read();
            if colon.kind != Kind::Colon {
                self.skip_object(colon);
                let (summary, detail) = match colon.kind {
                    Kind::BraceClose | Kind::Comma => (
                        "Missing object value",
                        "A JSON object attribute must have a value, introduced by a colon.",
                    ),
                    Kind::Equals => (
                        "Missing property value colon",
                        "JSON uses a colon as its name/value delimiter, not an equals sign.",
                    ),
                    _ => (
                        "Missing property value colon",
                        "A colon must appear between an object property's name and its value.",
                    ),
                };
                let span = colon.span;
                self.error(summary, detail, span);
                return None;
            }
            let value = self.value();
            props.push((
                Ident {
                    name,
                    span: key.span,
                },
                value,
            ));
            match self.peek().kind {
                Kind::Comma => {
                    let comma = self.read();
                    if self.peek().kind == Kind::BraceClose {
                        self.error(
                            "Trailing comma in object",
                            "JSON does not permit a trailing comma after the final property in an object.",
                            comma.span,
                        );
                        return None;
                    }
                }
                Kind::End => {
                    self.error(
                        "Unclosed object",
                        "No closing brace was found for this JSON object.",
                        open.span,
                    );
                    return None;
                }
                Kind::BracketClose => {
                    self.read();
                    let span = self.peek().span;
                    self.error(
                        "Mismatched braces",
                        "A JSON object must be closed with a brace, not a bracket.",
                        span,
                    );
                    return None;
                }
                Kind::BraceClose => break,
                _ => {
                    let next = self.read();
                    self.skip_object(next);
                    let span = self.peek().span;
                    self.error(
                        "Missing attribute seperator comma",
                        "A comma must appear between each property definition in an object.",
                        span,
                    );
                    return None;
                }
            }
        }
        let close = self.read();
        Some(JsonValue {
            span: Span::new(open.span.start as usize, close.span.end as usize),
            kind: JsonKind::Object(props),
        })
    }

    fn array(&mut self) -> Option<JsonValue> {
        let open = self.read();
        let mut items = Vec::new();
        loop {
            if self.peek().kind == Kind::BracketClose {
                break;
            }
            items.push(self.value());
            let (summary, detail) = match self.peek().kind {
                Kind::Comma => {
                    let comma = self.read();
                    if self.peek().kind == Kind::BracketClose {
                        self.error(
                            "Trailing comma in array",
                            "JSON does not permit a trailing comma after the final value in an array.",
                            comma.span,
                        );
                        return None;
                    }
                    continue;
                }
                Kind::BracketClose => break,
                Kind::End => {
                    let next = self.read();
                    self.skip_array(next);
                    self.error(
                        "Unclosed object",
                        "No closing bracket was found for this JSON array.",
                        open.span,
                    );
                    return None;
                }
                Kind::Colon => (
                    "Invalid array value",
                    "A colon is not used to introduce values in a JSON array.",
                ),
                Kind::BraceClose => (
                    "Mismatched brackets",
                    "A JSON array must be closed with a bracket, not a brace.",
                ),
                _ => (
                    "Missing attribute seperator comma",
                    "A comma must appear between each value in an array.",
                ),
            };
            let next = self.read();
            self.skip_array(next);
            let span = self.peek().span;
            self.error(summary, detail, span);
            return None;
        }
        let close = self.read();
        Some(JsonValue {
            span: Span::new(open.span.start as usize, close.span.end as usize),
            kind: JsonKind::Array(items),
        })
    }

    fn number(&mut self) -> Option<JsonValue> {
        let token = self.read();
        let written = &self.text[token.span.range()];
        if !is_json_number(written) {
            self.error(
                "Invalid JSON number",
                "There is a syntax error in the given JSON number.",
                token.span,
            );
            return None;
        }
        Some(JsonValue {
            span: token.span,
            kind: JsonKind::Number(written.into()),
        })
    }

    /// A string token's value, or HCL's error placed where Go's JSON decoder stopped.
    fn string(&mut self) -> Option<(String, Span)> {
        let token = self.read();
        let written = &self.text[token.span.range()];
        match unquote(written) {
            Ok(value) => Some((value, token.span)),
            Err(offset) => {
                let at = token.span.start as usize + offset;
                self.error(
                    "Invalid JSON string",
                    "There is a syntax error in the given JSON string.",
                    Span::new(at, at + 1),
                );
                None
            }
        }
    }

    fn keyword(&mut self) -> Option<JsonValue> {
        let token = self.read();
        let kind = match &self.text[token.span.range()] {
            "true" => JsonKind::Bool(true),
            "false" => JsonKind::Bool(false),
            "null" => JsonKind::Null,
            word => {
                let (summary, detail) = keyword(word);
                self.error(summary, &detail, token.span);
                return None;
            }
        };
        Some(JsonValue {
            span: token.span,
            kind,
        })
    }
}

/// The first character of an object or array: where HCL's start range of it is.
fn first_char(span: Span) -> Span {
    Span::new(span.start as usize, span.start as usize + 1)
}

/// Whether `s` is a number in JSON's grammar: `-`? (`0` | [1-9][0-9]*) (`.` [0-9]+)?
/// ([eE] [+-]? [0-9]+)?
fn is_json_number(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |i: usize| b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = usize::from(b.first() == Some(&b'-'));
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i += digits(i),
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        let n = digits(i + 1);
        if n == 0 {
            return false;
        }
        i += 1 + n;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let n = digits(i);
        if n == 0 {
            return false;
        }
        i += n;
    }
    i == b.len()
}

/// A JSON string token's value, or the offset Go's decoder reports for it: the number
/// of bytes it read before it failed, which is one past the offending byte (the token's
/// length when the string is unterminated).
fn unquote(written: &str) -> Result<String, usize> {
    let b = written.as_bytes();
    let mut out = String::new();
    let mut i = 1;
    let mut literal_from = 1;
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => {
                out.push_str(&written[literal_from..i]);
                return if i + 1 == b.len() {
                    Ok(out)
                } else {
                    Err(i + 2)
                };
            }
            0..=31 => return Err(i + 1),
            b'\\' => {
                out.push_str(&written[literal_from..i]);
                let escape = *b.get(i + 1).ok_or(b.len())?;
                i += 2;
                match escape {
                    b'"' => out.push('"'),
                    b'\\' => out.push('\\'),
                    b'/' => out.push('/'),
                    b'b' => out.push('\u{8}'),
                    b'f' => out.push('\u{c}'),
                    b'n' => out.push('\n'),
                    b'r' => out.push('\r'),
                    b't' => out.push('\t'),
                    b'u' => {
                        let unit = hex4(b, i)?;
                        i += 4;
                        out.push(utf16_char(unit, b, &mut i));
                    }
                    _ => return Err(i),
                }
                literal_from = i;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Err(b.len())
}

/// The four hex digits at `i`, or the offset past the first that is not one.
fn hex4(b: &[u8], i: usize) -> Result<u16, usize> {
    let mut unit = 0u16;
    for k in i..i + 4 {
        let c = *b.get(k).ok_or(b.len())?;
        let digit = (c as char).to_digit(16).ok_or(k + 1)?;
        unit = unit * 16 + digit as u16;
    }
    Ok(unit)
}

/// The character of the UTF-16 unit `unit`, joined with a low surrogate `\uXXXX` that
/// follows a high one (moving `i` past it); a lone surrogate is U+FFFD, as in Go.
fn utf16_char(unit: u16, b: &[u8], i: &mut usize) -> char {
    if (0xD800..0xDC00).contains(&unit) && b.get(*i) == Some(&b'\\') && b.get(*i + 1) == Some(&b'u')
    {
        if let Ok(low @ 0xDC00..=0xDFFF) = hex4(b, *i + 2) {
            *i += 6;
            let c = 0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
            return char::from_u32(c).unwrap_or('\u{fffd}');
        }
    }
    char::from_u32(u32::from(unit)).unwrap_or('\u{fffd}')
}
