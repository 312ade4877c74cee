//! Hashing functions (hex and base64 digests of a string's UTF-8 bytes); `files.rs`
//! applies the same digests to files.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha256, Sha512};

use super::{text, Function};
use crate::eval::value::Value;

pub(super) fn lookup(name: &str) -> Option<Function> {
    Some(match name {
        "md5" => |a, _| Ok(Value::String(md5(text(a, 0)?.as_bytes()))),
        "sha1" => |a, _| Ok(Value::String(sha1(text(a, 0)?.as_bytes()))),
        "sha256" => |a, _| Ok(Value::String(sha256(text(a, 0)?.as_bytes()))),
        "sha512" => |a, _| Ok(Value::String(sha512(text(a, 0)?.as_bytes()))),
        "base64sha256" => |a, _| Ok(Value::String(base64sha256(text(a, 0)?.as_bytes()))),
        "base64sha512" => |a, _| Ok(Value::String(base64sha512(text(a, 0)?.as_bytes()))),
        _ => return None,
    })
}

/// Hex MD5 (`md5`, `filemd5`).
pub(super) fn md5(bytes: &[u8]) -> String {
    hex(&Md5::digest(bytes))
}

/// Hex SHA-1 (`sha1`, `filesha1`).
pub(super) fn sha1(bytes: &[u8]) -> String {
    hex(&Sha1::digest(bytes))
}

/// Hex SHA-256 (`sha256`, `filesha256`).
pub(super) fn sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Hex SHA-512 (`sha512`, `filesha512`).
pub(super) fn sha512(bytes: &[u8]) -> String {
    hex(&Sha512::digest(bytes))
}

/// Base64 SHA-256 (`base64sha256`, `filebase64sha256`).
pub(super) fn base64sha256(bytes: &[u8]) -> String {
    STANDARD.encode(Sha256::digest(bytes))
}

/// Base64 SHA-512 (`base64sha512`, `filebase64sha512`).
pub(super) fn base64sha512(bytes: &[u8]) -> String {
    STANDARD.encode(Sha512::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
