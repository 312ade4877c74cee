//! The transport never dies and never desyncs: every malformed message gets a JSON-RPC
//! error (or is ignored, for a notification), and the next message is read as usual.

use serde_json::{json, Value};

use crate::server::{assert_hover_works, error_with, hover_params, resident_kib, start_demo};
use crate::support::Client;

/// A framed message with `body` and a correct `Content-Length`.
fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

/// A hover request with id `id`, framed, to follow a broken message.
fn hover_frame(id: i64) -> Vec<u8> {
    let main = crate::server::demo().join("main.tf");
    let request = json!({
        "jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
        "params": hover_params(&main, "variable \"replicas\"")
    });
    frame(request.to_string().as_bytes())
}

/// Sends `bytes` as they are, expects an error with `code` and a null id whose data
/// mentions `reason`, then a normal hover.
fn refused(client: &mut Client, bytes: &[u8], code: i64, reason: &str) {
    client.send_raw_with_header(bytes);
    let error = error_with(client, code, Value::Null);
    let data = error["error"]["data"].as_str().unwrap_or_default();
    assert!(data.contains(reason), "{reason:?} in {error}");
    assert_hover_works(client);
}

#[test]
fn ids_that_cannot_be_read_get_invalid_request_with_a_null_id() {
    let mut client = start_demo();
    for id in [
        "{}",
        "[1]",
        "true",
        "1.5",
        "18446744073709551616",
        "9223372036854775808",
    ] {
        let body =
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"textDocument/hover","params":{{}}}}"#);
        refused(
            &mut client,
            &frame(body.as_bytes()),
            -32600,
            "neither an integer",
        );
    }
}

#[test]
fn a_duplicate_id_gets_invalid_request_with_a_null_id() {
    let mut client = start_demo();
    let body = br#"{"jsonrpc":"2.0","id":1,"id":2,"method":"textDocument/hover","params":{}}"#;
    refused(&mut client, &frame(body), -32600, "2 id members");
}

#[test]
fn an_invalid_request_with_a_readable_id_is_answered_with_that_id() {
    let mut client = start_demo();
    client.send_raw(br#"{"jsonrpc":"1.0","id":41,"method":"textDocument/hover"}"#);
    error_with(&mut client, -32600, json!(41));
    assert_hover_works(&mut client);
}

#[test]
fn an_invalid_notification_is_ignored() {
    let mut client = start_demo();
    client.send_raw(br#"{"jsonrpc":"2.0","method":5,"params":{}}"#);
    client.send_raw(br#"{"jsonrpc":"1.0","method":"initialized"}"#);
    assert_hover_works(&mut client);
    let errors: Vec<&Value> = client
        .backlog
        .iter()
        .filter(|m| m.get("error").is_some())
        .collect();
    assert!(errors.is_empty(), "no answer to a notification: {errors:?}");
}

#[test]
fn invalid_json_and_non_messages_are_refused() {
    let mut client = start_demo();
    refused(
        &mut client,
        &frame(b"{ this is not json"),
        -32700,
        "invalid JSON",
    );
    refused(
        &mut client,
        &frame(b"[1, 2]"),
        -32600,
        "must be a JSON object",
    );
    let deep = format!("{}{}", "[".repeat(50_000), "]".repeat(50_000));
    refused(&mut client, &frame(deep.as_bytes()), -32600, "JSON object");
}

#[test]
fn a_content_length_above_256_mib_is_refused() {
    let mut client = start_demo();
    refused(
        &mut client,
        b"Content-Length: 268435457\r\n\r\n{}",
        -32700,
        "above the limit of 268435456 bytes",
    );
    refused(
        &mut client,
        b"Content-Length: 99999999999999999999999\r\n\r\n{}",
        -32700,
        "invalid Content-Length",
    );
}

#[test]
fn a_non_utf8_header_byte_is_refused() {
    let mut client = start_demo();
    refused(
        &mut client,
        b"Content-Length: 2\xff\r\n\r\n{}",
        -32700,
        "not valid UTF-8",
    );
    refused(
        &mut client,
        b"Content-Type: \xc3\x28\r\nContent-Length: 2\r\n\r\n{}",
        -32700,
        "not valid UTF-8",
    );
}

#[test]
fn a_header_line_with_no_end_is_refused_with_bounded_memory() {
    let mut client = start_demo();
    let before = resident_kib(client.pid());
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..64 {
        client.send_raw_with_header(&chunk);
    }
    let error = error_with(&mut client, -32700, Value::Null);
    assert!(error["error"]["data"]
        .as_str()
        .unwrap()
        .contains("header block is longer than 8192 bytes"));
    // The 64 MiB were skipped, not kept.
    client.send_raw_with_header(b"\r\n");
    assert_hover_works(&mut client);
    if let (Some(before), Some(after)) = (before, resident_kib(client.pid())) {
        assert!(
            after < before + 32 * 1024,
            "RSS grew from {before} KiB to {after} KiB"
        );
    }
}

/// Sends `broken` followed by a hover with id `id`; expects a Parse error with a null
/// id (returned) and then the hover's answer: the reader found the next message.
fn resynchronises(client: &mut Client, broken: &[u8], id: i64) -> Value {
    let mut bytes = broken.to_vec();
    bytes.extend(hover_frame(id));
    client.send_raw_with_header(&bytes);
    let error = error_with(client, -32700, Value::Null);
    let hover = client.response(id);
    assert!(hover["result"]["contents"]["value"].is_string(), "{hover}");
    error
}

/// A hover request with a wrong `Content-Length` (the real one plus `delta`).
fn misframed(delta: isize) -> Vec<u8> {
    let body = br#"{"jsonrpc":"2.0","id":77,"method":"textDocument/hover","params":{}}"#;
    let length = body.len().checked_add_signed(delta).unwrap();
    let mut bytes = format!("Content-Length: {length}\r\n\r\n").into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

#[test]
fn a_content_length_shorter_than_the_body_resynchronises() {
    let mut client = start_demo();
    resynchronises(&mut client, &misframed(-20), 78);
    assert_hover_works(&mut client);
}

#[test]
fn a_content_length_longer_than_the_body_resynchronises() {
    let mut client = start_demo();
    // The length swallows the start of the next message.
    resynchronises(&mut client, &misframed(30), 78);
    assert_hover_works(&mut client);
}

#[test]
fn an_invalid_content_length_with_a_body_resynchronises() {
    let mut client = start_demo();
    let broken = b"Content-Length: twelve\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"x\"}";
    let error = resynchronises(&mut client, broken, 79);
    let data = error["error"]["data"].as_str().unwrap();
    assert!(data.contains("invalid Content-Length \"twelve\""), "{data}");
    // The body of the broken message was skipped, not answered.
    assert!(!client.backlog.iter().any(|m| m["id"] == 5));
}

#[test]
fn garbage_between_messages_is_refused_once_and_skipped() {
    let mut client = start_demo();
    resynchronises(&mut client, b"hello there\r\n\r\nX-Custom: 1\r\n\r\n", 80);
    assert!(!client.backlog.iter().any(|m| m.get("error").is_some()));
}
