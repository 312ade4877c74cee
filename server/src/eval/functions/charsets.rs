//! `textencodebase64` and `textdecodebase64`: text in a character encoding named as the
//! IANA registry names it (Go's `ianaindex`, names and aliases in any case).
//!
//! Strata knows UTF-8, UTF-16 (with its byte-order mark), UTF-16BE, UTF-16LE and
//! ISO-8859-1. Terraform knows more (other code pages, Japanese, Chinese and Korean
//! encodings); for any other name the value is unknown rather than an error Terraform
//! might not give, and so a name Terraform does not know either is not reported.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

use super::{text, Function};
use crate::eval::value::Value;

pub(super) fn lookup(name: &str) -> Option<Function> {
    Some(match name {
        "textencodebase64" => |a, _| {
            let Some(charset) = Charset::named(&text(a, 1)?) else {
                return Ok(Value::Unknown);
            };
            let bytes = charset.encode(&text(a, 0)?).ok_or_else(|| {
                format!(
                    "the given string contains characters that cannot be represented in {}",
                    charset.name()
                )
            })?;
            super::size_limit(bytes.len().saturating_mul(4) / 3)?;
            Ok(Value::String(STANDARD.encode(bytes)))
        },
        "textdecodebase64" => |a, _| {
            let Some(charset) = Charset::named(&text(a, 1)?) else {
                return Ok(Value::Unknown);
            };
            let source = text(a, 0)?;
            let bytes = decode_base64(&source)?;
            charset
                .decode(&bytes)
                .filter(|s| !s.contains('\u{fffd}'))
                .map(Value::String)
                .ok_or_else(|| {
                    format!(
                        "the given string contains symbols that are not defined for {}",
                        charset.name()
                    )
                })
        },
        _ => return None,
    })
}

/// Go's `base64.StdEncoding.DecodeString`, failing at the offset Go's
/// `CorruptInputError` names. Line breaks are skipped anywhere.
fn decode_base64(s: &str) -> Result<Vec<u8>, String> {
    let corrupt =
        |at: usize| format!("the given value is has an invalid base64 symbol at offset {at}");
    let src = s.as_bytes();
    let newline = |c: u8| c == b'\n' || c == b'\r';
    let skip_newlines = |mut si: usize| {
        while si < src.len() && newline(src[si]) {
            si += 1;
        }
        si
    };
    let mut out = Vec::new();
    let mut si = 0;
    loop {
        let mut quantum = [0u32; 4];
        let mut j = 0;
        let mut end = false;
        while j < 4 {
            if si == src.len() {
                if j == 0 {
                    return Ok(out);
                }
                // Standard base64 is padded: a short final quantum is corrupt.
                return Err(corrupt(si - j));
            }
            let c = src[si];
            si += 1;
            if newline(c) {
                continue;
            }
            if c == b'=' {
                if j < 2 {
                    return Err(corrupt(si - 1));
                }
                if j == 2 {
                    si = skip_newlines(si);
                    if si == src.len() {
                        return Err(corrupt(src.len()));
                    }
                    if src[si] != b'=' {
                        return Err(corrupt(si - 1));
                    }
                    si += 1;
                }
                si = skip_newlines(si);
                if si < src.len() {
                    return Err(corrupt(si));
                }
                end = true;
                break;
            }
            quantum[j] = sextet(c).ok_or_else(|| corrupt(si - 1))?;
            j += 1;
        }
        let bits = quantum[0] << 18 | quantum[1] << 12 | quantum[2] << 6 | quantum[3];
        let bytes = [(bits >> 16) as u8, (bits >> 8) as u8, bits as u8];
        out.extend_from_slice(&bytes[..j - 1]);
        if end {
            return Ok(out);
        }
    }
}

/// The value of a character of the standard base64 alphabet.
fn sextet(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    } as u32)
}

/// A character encoding Strata can apply.
#[derive(Clone, Copy)]
enum Charset {
    Utf8,
    /// Big-endian, with a byte-order mark written, and read when present.
    Utf16,
    Utf16Be,
    Utf16Le,
    Latin1,
}

impl Charset {
    /// The encoding an IANA name or alias names, compared without case or surrounding
    /// space.
    fn named(name: &str) -> Option<Charset> {
        let n = name.trim().to_lowercase();
        Some(match n.as_str() {
            "utf-8" | "csutf8" => Charset::Utf8,
            "utf-16" | "csutf16" => Charset::Utf16,
            "utf-16be" | "csutf16be" => Charset::Utf16Be,
            "utf-16le" | "csutf16le" => Charset::Utf16Le,
            "iso-8859-1" | "iso_8859-1:1987" | "iso-ir-100" | "iso_8859-1" | "latin1" | "l1"
            | "ibm819" | "cp819" | "csisolatin1" => Charset::Latin1,
            _ => return None,
        })
    }

    /// The registry's name for the encoding.
    fn name(self) -> &'static str {
        match self {
            Charset::Utf8 => "UTF-8",
            Charset::Utf16 => "UTF-16",
            Charset::Utf16Be => "UTF-16BE",
            Charset::Utf16Le => "UTF-16LE",
            Charset::Latin1 => "ISO_8859-1:1987",
        }
    }

    /// The bytes of `s`, or `None` when a character has none in this encoding.
    fn encode(self, s: &str) -> Option<Vec<u8>> {
        let units = || s.encode_utf16();
        Some(match self {
            Charset::Utf8 => s.as_bytes().to_vec(),
            Charset::Utf16 => [0xfe, 0xff]
                .into_iter()
                .chain(units().flat_map(u16::to_be_bytes))
                .collect(),
            Charset::Utf16Be => units().flat_map(u16::to_be_bytes).collect(),
            Charset::Utf16Le => units().flat_map(u16::to_le_bytes).collect(),
            Charset::Latin1 => s
                .chars()
                .map(|c| u8::try_from(u32::from(c)).ok())
                .collect::<Option<_>>()?,
        })
    }

    /// The text of `bytes`, with U+FFFD where they are not valid.
    fn decode(self, bytes: &[u8]) -> Option<String> {
        let utf16 = |bytes: &[u8], big: bool| {
            let units = bytes.chunks(2).map(|p| match p {
                [a, b] if big => u16::from_be_bytes([*a, *b]),
                [a, b] => u16::from_le_bytes([*a, *b]),
                _ => 0xfffd,
            });
            char::decode_utf16(units)
                .map(|c| c.unwrap_or('\u{fffd}'))
                .collect::<String>()
        };
        Some(match self {
            Charset::Utf8 => String::from_utf8_lossy(bytes).into_owned(),
            Charset::Utf16 => match bytes {
                [0xff, 0xfe, rest @ ..] => utf16(rest, false),
                [0xfe, 0xff, rest @ ..] => utf16(rest, true),
                _ => utf16(bytes, true),
            },
            Charset::Utf16Be => utf16(bytes, true),
            Charset::Utf16Le => utf16(bytes, false),
            Charset::Latin1 => bytes.iter().map(|&b| char::from(b)).collect(),
        })
    }
}
