use serde_json::json;

use super::*;

fn answered(body: &str) -> (Value, bool) {
    match judge(body.as_bytes()) {
        Verdict::Answer {
            response, resync, ..
        } => (serde_json::from_slice(&response).unwrap(), resync),
        other => panic!("{body}: expected an answer, got {other:?}"),
    }
}

#[test]
fn well_formed_messages_go_on() {
    for body in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
        r#"{"jsonrpc":"2.0","id":"a","method":"x"}"#,
        r#"{"jsonrpc":"2.0","id":null,"method":"x"}"#,
        r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
        r#"{"jsonrpc":"2.0","id":3,"result":null}"#,
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"no"}}"#,
    ] {
        assert_eq!(
            judge(body.as_bytes()),
            Verdict::Forward { exit: false },
            "{body}"
        );
    }
    assert_eq!(
        judge(br#"{"jsonrpc":"2.0","method":"exit"}"#),
        Verdict::Forward { exit: true }
    );
}

#[test]
fn unreadable_ids_are_answered_with_a_null_id() {
    // tests/hostile.rs sends every kind to the server; here the edges of the integer range.
    for id in ["-9223372036854775809", "9223372036854775808", "1e3", "-0.0"] {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"textDocument/hover"}}"#);
        let (response, resync) = answered(&body);
        assert_eq!(response["id"], Value::Null, "{body}");
        assert_eq!(response["error"]["code"], -32600, "{body}");
        assert!(!resync);
        assert!(response["error"]["data"]
            .as_str()
            .unwrap()
            .contains("neither an integer"));
    }
}

#[test]
fn duplicate_ids_are_answered_with_a_null_id() {
    let (response, _) = answered(r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"x"}"#);
    assert_eq!(response["id"], Value::Null);
    assert_eq!(response["error"]["code"], -32600);
    assert_eq!(response["error"]["data"], "the message has 2 id members");
}

#[test]
fn a_readable_id_is_kept_in_the_answer() {
    let (response, _) = answered(r#"{"jsonrpc":"1.0","id":7,"method":"x"}"#);
    assert_eq!(response["id"], 7);
    assert_eq!(response["error"]["code"], -32600);
    let (response, _) = answered(r#"{"jsonrpc":"2.0","id":"k","method":"x","method":"y"}"#);
    assert_eq!(response["id"], "k");
}

#[test]
fn invalid_json_is_a_parse_error_that_resyncs() {
    let (response, resync) = answered("{ this is not json");
    assert_eq!(response["error"]["code"], -32700);
    assert_eq!(response["id"], Value::Null);
    assert!(resync);
    let (_, resync) = answered("");
    assert!(resync);
}

#[test]
fn json_that_is_not_a_message_is_an_invalid_request() {
    for body in ["[1, 2]", "3", "\"x\"", "{}", r#"{"id":[],"params":{}}"#] {
        let (response, resync) = answered(body);
        assert_eq!(response["error"]["code"], -32600, "{body}");
        assert_eq!(response["id"], Value::Null, "{body}");
        assert!(!resync);
    }
}

#[test]
fn invalid_notifications_and_responses_are_dropped() {
    for body in [
        r#"{"jsonrpc":"1.0","method":"initialized"}"#,
        r#"{"jsonrpc":"2.0","method":5}"#,
        r#"{"jsonrpc":"2.0","id":{},"result":null}"#,
        r#"{"jsonrpc":"2.0","id":1.5,"error":{"code":1,"message":"x"}}"#,
    ] {
        assert!(matches!(judge(body.as_bytes()), Verdict::Drop(_)), "{body}");
    }
}

#[test]
fn deep_nesting_is_refused_without_overflow_and_keeps_the_id() {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"x","params":{}{}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let (response, resync) = answered(&body);
    assert_eq!(response["error"]["code"], -32600);
    assert_eq!(response["id"], json!(1));
    assert!(!resync, "valid JSON, only too deep to decode");
}
