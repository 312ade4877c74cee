//! Helpers for the server sections: a server on `fixtures/demo` and the normal hover
//! that every case checks the server still answers afterwards.

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::support::{fixtures, uri, Client};

/// `fixtures/demo`.
pub fn demo() -> PathBuf {
    fixtures().join("demo")
}

/// A server initialized on `fixtures/demo`, started with `env`, with `main.tf` open and
/// checked.
pub fn start_demo_with_env(env: &[(&str, &str)]) -> Client {
    let (mut client, _) = Client::start_with_env(env).initialize(Some(&demo()), json!({}));
    let main = demo().join("main.tf");
    let u = client.open(&main, &std::fs::read_to_string(&main).unwrap(), 1);
    client.diagnostics_for(&u, |p| p["version"] == 1);
    client
}

/// A server initialized on `fixtures/demo`.
pub fn start_demo() -> Client {
    start_demo_with_env(&[])
}

/// The zero-based line and column of the first `needle` in `text`.
pub fn position_of(text: &str, needle: &str) -> Value {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not found"));
    let line = text[..at].matches('\n').count();
    let character = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    json!({ "line": line, "character": character })
}

/// A hover request on `needle` in the file at `path` (opened by the caller or on disk).
pub fn hover_params(path: &std::path::Path, needle: &str) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    json!({ "textDocument": { "uri": uri(path) }, "position": position_of(&text, needle) })
}

/// Asserts that a normal hover on `fixtures/demo/main.tf` still answers with the
/// effective block (the server is alive and in step with the client).
pub fn assert_hover_works(client: &mut Client) {
    let main = demo().join("main.tf");
    let text = std::fs::read_to_string(&main).unwrap();
    client.open(&main, &text, 1);
    let result = client.request(
        "textDocument/hover",
        hover_params(&main, "variable \"replicas\""),
    );
    let shown = result["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        shown.contains("default = 3"),
        "hover shows the override: {result}"
    );
}

/// Waits for the error response with `code` whose `id` is `id`.
pub fn error_with(client: &mut Client, code: i64, id: Value) -> Value {
    client.wait_for(|m| m["error"]["code"] == code && m["id"] == id && m.get("method").is_none())
}

/// The resident memory of a process in KiB, where the system tells it (Linux).
pub fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}
