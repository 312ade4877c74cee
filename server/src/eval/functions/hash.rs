//! Hashing functions (hex and base64 digests of a string's UTF-8 bytes).

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha256, Sha512};

use super::{text, Function};
use crate::eval::value::Value;

pub(super) fn lookup(name: &str) -> Option<Function> {
    Some(match name {
        "md5" => |a, _| Ok(Value::String(hex(&Md5::digest(text(a, 0)?)))),
        "sha1" => |a, _| Ok(Value::String(hex(&Sha1::digest(text(a, 0)?)))),
        "sha256" => |a, _| Ok(Value::String(hex(&Sha256::digest(text(a, 0)?)))),
        "sha512" => |a, _| Ok(Value::String(hex(&Sha512::digest(text(a, 0)?)))),
        "base64sha256" => |a, _| Ok(Value::String(STANDARD.encode(Sha256::digest(text(a, 0)?)))),
        "base64sha512" => |a, _| Ok(Value::String(STANDARD.encode(Sha512::digest(text(a, 0)?)))),
        _ => return None,
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
