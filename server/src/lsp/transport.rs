//! Framing guard in front of tower-lsp-server. tower-lsp-server reads stdin through
//! tokio-util's `FramedRead`, which ends the stream after one undecodable message: one
//! malformed message from a client would stop the server. This layer reads the frames
//! itself. Each well-formed JSON-RPC message goes on unchanged. Anything else becomes a
//! `strata/malformed` request, which the server answers with a JSON-RPC parse error and
//! then goes on serving.

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tracing::warn;

/// The method a malformed message is turned into.
pub const MALFORMED_METHOD: &str = "strata/malformed";

/// Messages larger than this are refused rather than buffered.
const MAX_MESSAGE_BYTES: usize = 256 * 1024 * 1024;

/// Starts copying `input` to the returned reader, frame by frame.
pub fn guard<R>(input: R) -> DuplexStream
where
    R: AsyncRead + Unpin + Send + 'static,
{
    let (mut writer, reader) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let mut input = BufReader::new(input);
        let mut malformed = 0u64;
        loop {
            let body = match read_frame(&mut input).await {
                Frame::Message(body) => body,
                Frame::Malformed(reason) => {
                    malformed += 1;
                    warn!("malformed message from the client: {reason}");
                    replacement(malformed, &reason)
                }
                Frame::End => break,
            };
            let header = format!("Content-Length: {}\r\n\r\n", body.len());
            if writer.write_all(header.as_bytes()).await.is_err()
                || writer.write_all(&body).await.is_err()
            {
                break;
            }
        }
    });
    reader
}

enum Frame {
    Message(Vec<u8>),
    Malformed(String),
    End,
}

async fn read_frame<R: AsyncRead + Unpin>(input: &mut BufReader<R>) -> Frame {
    let mut length: Option<usize> = None;
    let mut bad_header = None;
    let mut saw_header = false;
    loop {
        let mut line = String::new();
        match input.read_line(&mut line).await {
            Ok(0) | Err(_) => return Frame::End,
            Ok(_) => {}
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if saw_header {
                break;
            }
            continue; // Blank lines between messages.
        }
        saw_header = true;
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                match value.trim().parse::<usize>() {
                    Ok(n) => length = Some(n),
                    Err(_) => bad_header = Some(format!("invalid Content-Length {value:?}")),
                }
            }
        } else {
            bad_header = Some(format!("invalid header line {line:?}"));
        }
    }
    let Some(length) = length else {
        return Frame::Malformed(bad_header.unwrap_or_else(|| "missing Content-Length".into()));
    };
    if length > MAX_MESSAGE_BYTES {
        return Frame::End;
    }
    let mut body = vec![0; length];
    if input.read_exact(&mut body).await.is_err() {
        return Frame::End;
    }
    if let Some(reason) = bad_header {
        return Frame::Malformed(reason);
    }
    match serde_json::from_slice::<Value>(&body) {
        Ok(value) if is_message(&value) => Frame::Message(body),
        Ok(_) => Frame::Malformed("not a JSON-RPC 2.0 message".into()),
        Err(e) => Frame::Malformed(format!("invalid JSON: {e}")),
    }
}

fn is_message(v: &Value) -> bool {
    let Some(obj) = v.as_object() else {
        return false;
    };
    let request = obj.get("method").is_some_and(Value::is_string);
    let response =
        obj.contains_key("id") && (obj.contains_key("result") || obj.contains_key("error"));
    obj.get("jsonrpc") == Some(&json!("2.0")) && (request || response)
}

fn replacement(n: u64, reason: &str) -> Vec<u8> {
    json!({
        "jsonrpc": "2.0",
        "id": format!("strata-malformed-{n}"),
        "method": MALFORMED_METHOD,
        "params": { "reason": reason },
    })
    .to_string()
    .into_bytes()
}
