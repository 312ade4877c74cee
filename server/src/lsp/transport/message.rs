//! Judging one message body before tower-lsp-server sees it.
//!
//! tower-lsp-server stops reading its input at the first body it cannot decode (its
//! framed reader ends after one error), so only bodies that decode as its own message
//! types are passed on. Everything else is answered here, as JSON-RPC asks: invalid JSON
//! is a Parse error, anything else an Invalid Request, with the request's `id` when it
//! can be read and `null` when it cannot (an object, array, boolean, fraction or number
//! out of range, or two `id` members). An invalid notification or response is dropped:
//! no one waits for an answer to it.

use std::fmt;

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;
use tower_lsp_server::jsonrpc::{self, Id};

/// What to do with a message body.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Pass it on; `exit` says it is the `exit` notification.
    Forward {
        /// The message is `exit`: nothing after it is read.
        exit: bool,
    },
    /// Answer it with this error response instead.
    Answer {
        /// The serialized response.
        response: Vec<u8>,
        /// The body is not JSON at all: its `Content-Length` may be wrong, so the next
        /// message's header is looked for inside it.
        resync: bool,
        /// Why, for the log.
        reason: String,
    },
    /// Ignore it (an invalid notification or response); why, for the log.
    Drop(String),
}

/// A message as tower-lsp-server decodes it (the same types, in the same order).
#[derive(Deserialize)]
#[serde(untagged)]
enum Incoming {
    Response(#[allow(dead_code)] jsonrpc::Response),
    Request(jsonrpc::Request),
}

/// Judges one message body.
pub fn judge(body: &[u8]) -> Verdict {
    match serde_json::from_slice::<Incoming>(body) {
        Ok(Incoming::Request(request)) => Verdict::Forward {
            exit: request.method() == "exit",
        },
        Ok(Incoming::Response(_)) => Verdict::Forward { exit: false },
        Err(_) => explain(body),
    }
}

/// Why a body that tower-lsp-server would refuse is refused, and the answer to it.
fn explain(body: &[u8]) -> Verdict {
    if let Err(err) = serde_json::from_slice::<IgnoredAny>(body) {
        let reason = format!("invalid JSON: {err}");
        return answer(Id::Null, jsonrpc::Error::parse_error(), reason, true);
    }
    let Ok(members) = serde_json::from_slice::<Members>(body) else {
        let reason = "a JSON-RPC message must be a JSON object".to_string();
        return answer(Id::Null, jsonrpc::Error::invalid_request(), reason, false);
    };
    let id = match members.ids.as_slice() {
        [] => None,
        [one] => Some(
            Id::deserialize(one)
                .map_err(|_| format!("the id {one} is neither an integer (64-bit) nor a string")),
        ),
        many => Some(Err(format!("the message has {} id members", many.len()))),
    };
    let reason = match &id {
        Some(Err(reason)) => reason.clone(),
        _ => serde_json::from_slice::<jsonrpc::Request>(body)
            .err()
            .map_or_else(|| "not a JSON-RPC 2.0 message".into(), |e| e.to_string()),
    };
    match id {
        None if members.method => Verdict::Drop(format!("invalid notification: {reason}")),
        _ if members.reply && !members.method => {
            Verdict::Drop(format!("invalid response from the client: {reason}"))
        }
        Some(Ok(id)) => answer(id, jsonrpc::Error::invalid_request(), reason, false),
        _ => answer(Id::Null, jsonrpc::Error::invalid_request(), reason, false),
    }
}

fn answer(id: Id, mut error: jsonrpc::Error, reason: String, resync: bool) -> Verdict {
    error.data = Some(Value::String(reason.clone()));
    Verdict::Answer {
        response: error_response(id, error),
        resync,
        reason,
    }
}

/// The body of an error response.
pub fn error_response(id: Id, error: jsonrpc::Error) -> Vec<u8> {
    let response = jsonrpc::Response::from_error(id, error);
    // Serializing these types cannot fail: string keys and plain values only.
    serde_json::to_vec(&response).unwrap_or_default()
}

/// The top-level members of a JSON object that say what kind of message it is, every
/// `id` kept (a map would keep only the last of duplicates).
#[derive(Default)]
struct Members {
    ids: Vec<Value>,
    method: bool,
    reply: bool,
}

impl<'de> Deserialize<'de> for Members {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(MembersVisitor)
    }
}

struct MembersVisitor;

impl<'de> Visitor<'de> for MembersVisitor {
    type Value = Members;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members, A::Error> {
        let mut members = Members::default();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "id" => members.ids.push(map.next_value()?),
                "method" => {
                    members.method = true;
                    map.next_value::<IgnoredAny>()?;
                }
                "result" | "error" => {
                    members.reply = true;
                    map.next_value::<IgnoredAny>()?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(members)
    }
}

#[cfg(test)]
mod tests;
