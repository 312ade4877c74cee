//! `uuidv5`: a name-based (SHA-1) UUID in a namespace, the namespace read as Terraform's
//! UUID library (`github.com/google/uuid`) reads it.

use sha1::{Digest, Sha1};

use super::{text, Function};
use crate::eval::value::Value;

pub(super) fn lookup(name: &str) -> Option<Function> {
    Some(match name {
        "uuidv5" => |a, _| {
            let space = text(a, 0)?;
            let namespace = match space.as_str() {
                "dns" => parse("6ba7b810-9dad-11d1-80b4-00c04fd430c8"),
                "url" => parse("6ba7b811-9dad-11d1-80b4-00c04fd430c8"),
                "oid" => parse("6ba7b812-9dad-11d1-80b4-00c04fd430c8"),
                "x500" => parse("6ba7b814-9dad-11d1-80b4-00c04fd430c8"),
                other => parse(other),
            }
            .map_err(|e| format!("uuidv5() doesn't support namespace {space} ({e})"))?;
            Ok(Value::String(v5(&namespace, text(a, 1)?.as_bytes())))
        },
        _ => return None,
    })
}

/// The byte of two hex digits.
fn byte(hi: u8, lo: u8) -> Option<u8> {
    let digit = |c: u8| (c as char).to_digit(16);
    Some((digit(hi)? * 16 + digit(lo)?) as u8)
}

/// `uuid.Parse`: 36 characters with dashes, in braces (38), after `urn:uuid:` (45), or
/// 32 hex digits.
fn parse(s: &str) -> Result<[u8; 16], String> {
    let b = s.as_bytes();
    let mut uuid = [0u8; 16];
    let invalid = || "invalid UUID format".to_string();
    let dashed = match b.len() {
        36 => b,
        45 => {
            if !b[..9].eq_ignore_ascii_case(b"urn:uuid:") {
                let prefix = String::from_utf8_lossy(&b[..9]);
                return Err(format!("invalid urn prefix: {prefix:?}"));
            }
            &b[9..]
        }
        // The braces themselves are not checked.
        38 => &b[1..],
        32 => {
            for (i, out) in uuid.iter_mut().enumerate() {
                *out = byte(b[i * 2], b[i * 2 + 1]).ok_or_else(invalid)?;
            }
            return Ok(uuid);
        }
        n => return Err(format!("invalid UUID length: {n}")),
    };
    if [8, 13, 18, 23].iter().any(|&i| dashed[i] != b'-') {
        return Err(invalid());
    }
    const STARTS: [usize; 16] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
    for (out, x) in uuid.iter_mut().zip(STARTS) {
        *out = byte(dashed[x], dashed[x + 1]).ok_or_else(invalid)?;
    }
    Ok(uuid)
}

/// RFC 4122's version 5 UUID of `name` in `namespace`, lower-case with dashes.
fn v5(namespace: &[u8; 16], name: &[u8]) -> String {
    let hash = Sha1::new()
        .chain_update(namespace)
        .chain_update(name)
        .finalize();
    let mut u = [0u8; 16];
    u.copy_from_slice(&hash[..16]);
    u[6] = (u[6] & 0x0f) | 0x50;
    u[8] = (u[8] & 0x3f) | 0x80;
    let hex: String = u.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}
