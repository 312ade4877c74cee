//! Answers serialised ahead of time.
//!
//! tower-lsp-server turns every result into a `serde_json::Value` and then into text. For
//! the largest answers (the outline of a big file, its semantic tokens, long completion
//! lists) building that tree of values costs more than computing the answer, and a kept
//! answer would pay it again on every request. So a handler holding its answer as JSON
//! text returns a small stand-in naming that text instead, and the output relay, which
//! sees every frame tower-lsp-server writes, puts the text in the stand-in's place.
//!
//! A stand-in is a string holding a marker with a number drawn once per process, then a
//! serial: no text of the client's can pass for one. Only small frames are searched for
//! it, and a prepared answer whose stand-in never comes back (its request was cancelled
//! after answering) is forgotten once newer ones have taken its place.

use std::collections::hash_map::RandomState;
use std::collections::VecDeque;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use memchr::memmem;
use serde_json::Value;

/// How many prepared answers may wait for their frame at once.
const WAITING: usize = 64;

/// The longest frame that can carry a stand-in: one result holding one marker.
const STAND_IN_FRAME_BYTES: usize = 4096;

/// Prepared answers waiting for the frames of their stand-ins.
#[derive(Debug)]
pub struct Prepared {
    /// The start of every stand-in: a NUL, a name, this process's number.
    marker: String,
    /// `marker` as serde_json writes it inside a JSON string.
    escaped: Vec<u8>,
    next: AtomicU64,
    waiting: Mutex<VecDeque<(u64, Arc<[u8]>)>>,
}

impl Default for Prepared {
    fn default() -> Self {
        let drawn = RandomState::new().build_hasher().finish();
        let name = format!("strata-prepared-{drawn:016x}-");
        Self {
            marker: format!("\u{0}{name}"),
            escaped: format!("\\u0000{name}").into_bytes(),
            next: AtomicU64::new(0),
            waiting: Mutex::new(VecDeque::new()),
        }
    }
}

impl Prepared {
    /// Keeps `json` (one JSON value) for the next frame holding the stand-in returned,
    /// which the handler puts in a string of its result.
    pub fn stand_in(&self, json: Arc<[u8]>) -> String {
        let serial = self.next.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut waiting) = self.waiting.lock() {
            if waiting.len() == WAITING {
                waiting.pop_front();
            }
            waiting.push_back((serial, json));
        }
        format!("{}{serial}", self.marker)
    }

    /// The frame `body` with its result replaced by the prepared answer its stand-in
    /// names; `None` for any other frame, which goes out as it is.
    pub fn fill(&self, body: &[u8]) -> Option<Vec<u8>> {
        if body.len() > STAND_IN_FRAME_BYTES {
            return None;
        }
        let at = memmem::find(body, &self.escaped)? + self.escaped.len();
        let digits = body[at..].iter().take_while(|b| b.is_ascii_digit()).count();
        let serial: u64 = std::str::from_utf8(&body[at..at + digits])
            .ok()?
            .parse()
            .ok()?;
        let response: Value = serde_json::from_slice(body).ok()?;
        // The marker must be in a response's result, not in an id the client chose.
        let result = serde_json::to_vec(response.get("result")?).ok()?;
        memmem::find(&result, &self.escaped)?;
        let id = serde_json::to_vec(response.get("id")?).ok()?;
        let json = {
            let mut waiting = self.waiting.lock().ok()?;
            let index = waiting.iter().position(|(s, _)| *s == serial)?;
            waiting.remove(index)?.1
        };
        let mut filled = Vec::with_capacity(json.len() + id.len() + 40);
        filled.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
        filled.extend_from_slice(&id);
        filled.extend_from_slice(b",\"result\":");
        filled.extend_from_slice(&json);
        filled.push(b'}');
        Some(filled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(id: &str, result: &serde_json::Value) -> Vec<u8> {
        format!("{{\"jsonrpc\":\"2.0\",\"result\":{result},\"id\":{id}}}").into_bytes()
    }

    #[test]
    fn a_stand_in_frame_gets_its_prepared_answer() {
        let prepared = Prepared::default();
        let marker = prepared.stand_in(Arc::from(&b"[{\"name\":\"a\"}]"[..]));
        let body = frame("7", &serde_json::json!([{ "name": marker, "kind": 5 }]));
        let filled = prepared.fill(&body).expect("filled");
        let value: serde_json::Value = serde_json::from_slice(&filled).expect("JSON");
        assert_eq!(
            value,
            serde_json::json!({ "jsonrpc": "2.0", "id": 7, "result": [{ "name": "a" }] })
        );
        // Used once.
        assert_eq!(prepared.fill(&body), None);
    }

    #[test]
    fn other_frames_go_out_as_they_are() {
        let prepared = Prepared::default();
        let marker = prepared.stand_in(Arc::from(&b"1"[..]));
        // Another process's marker, the marker's name without the number, a client's id.
        let other = Prepared::default().stand_in(Arc::from(&b"2"[..]));
        assert_eq!(prepared.fill(&frame("1", &serde_json::json!(other))), None);
        let name = marker.trim_end_matches(char::is_numeric);
        assert_eq!(prepared.fill(&frame("1", &serde_json::json!(name))), None);
        let id = serde_json::to_string(&marker).expect("JSON");
        assert_eq!(prepared.fill(&frame(&id, &serde_json::json!(null))), None);
        assert!(prepared
            .fill(&frame("1", &serde_json::json!(marker)))
            .is_some());
    }

    #[test]
    fn unclaimed_answers_are_forgotten() {
        let prepared = Prepared::default();
        let first = prepared.stand_in(Arc::from(&b"0"[..]));
        for _ in 0..WAITING {
            prepared.stand_in(Arc::from(&b"1"[..]));
        }
        assert_eq!(prepared.fill(&frame("1", &serde_json::json!(first))), None);
        assert_eq!(prepared.waiting.lock().map(|w| w.len()).ok(), Some(WAITING));
    }
}
