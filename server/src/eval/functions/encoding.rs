//! Encoding functions: JSON, base64, URL encoding.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

use super::{arg, text, Function};
use crate::eval::value::Value;

pub(super) fn lookup(name: &str) -> Option<Function> {
    Some(match name {
        "jsonencode" => |a, _| Ok(Value::String(arg(a, 0)?.to_json().to_string())),
        "jsondecode" => |a, _| {
            let s = text(a, 0)?;
            serde_json::from_str::<serde_json::Value>(&s)
                .map(|j| Value::from_json(&j))
                .map_err(|e| format!("invalid JSON: {e}"))
        },
        "base64encode" => |a, _| Ok(Value::String(STANDARD.encode(text(a, 0)?))),
        "base64decode" => |a, _| {
            let s = text(a, 0)?;
            let bytes = STANDARD
                .decode(&s)
                .map_err(|_| format!("failed to decode base64 data {s:?}"))?;
            String::from_utf8(bytes)
                .map(Value::String)
                .map_err(|_| "the result of decoding the provided string is not valid UTF-8".into())
        },
        "urlencode" => |a, _| Ok(Value::String(urlencode(&text(a, 0)?))),
        _ => return None,
    })
}

/// Go's `url.QueryEscape`: unreserved bytes kept, space as `+`, the rest `%XX`.
fn urlencode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}
