use super::*;

/// Reads every frame of `input`: bodies as text, errors as their message.
async fn frames(input: &[u8]) -> Vec<String> {
    let mut reader = FrameReader::new(input);
    let mut out = Vec::new();
    loop {
        match reader.next().await {
            Frame::Body(b) => out.push(String::from_utf8_lossy(b).into_owned()),
            Frame::Broken(e) => out.push(format!("error: {e}")),
            Frame::End => return out,
        }
    }
}

fn frame(body: &str) -> String {
    format!("Content-Length: {}\r\n\r\n{body}", body.len())
}

#[tokio::test]
async fn reads_frames_back_to_back_with_other_headers_and_blank_lines() {
    let input = format!(
        "{}\r\n{}Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 2\r\n\r\n[]",
        frame("{}"),
        frame("{\"a\":1}")
    );
    assert_eq!(frames(input.as_bytes()).await, ["{}", "{\"a\":1}", "[]"]);
}

#[tokio::test]
async fn a_header_line_with_no_end_is_refused_within_the_limit() {
    let mut input = vec![b'x'; 10 * MAX_HEADER_BYTES];
    input.extend(frame("{}").as_bytes());
    assert_eq!(
        frames(&input).await,
        [
            format!("error: the header block is longer than {MAX_HEADER_BYTES} bytes"),
            "{}".to_string()
        ]
    );
}

#[tokio::test]
async fn an_endless_header_line_keeps_memory_bounded() {
    let mut input = vec![b'x'; 8 * 1024 * 1024];
    input.extend(frame("{}").as_bytes());
    let mut reader = FrameReader::new(&input[..]);
    assert!(matches!(
        reader.next().await,
        Frame::Broken(FramingError::HeaderTooLong)
    ));
    assert!(matches!(reader.next().await, Frame::Body(b"{}")));
    assert!(reader.buf.capacity() < 2 * COMPACT_AT + 2 * READ_CHUNK);
}

#[tokio::test]
async fn a_length_above_the_limit_is_refused_and_skipped() {
    let input = format!("Content-Length: 300000000\r\n\r\n{{}}{}", frame("[1]"));
    assert_eq!(
        frames(input.as_bytes()).await,
        [
            format!("error: Content-Length 300000000 is above the limit of {MAX_BODY_BYTES} bytes"),
            "[1]".to_string()
        ]
    );
}

#[tokio::test]
async fn a_non_utf8_header_byte_is_an_error() {
    let mut input = b"Content-Length: 2\xff\r\n\r\n{}".to_vec();
    input.extend(frame("[1]").as_bytes());
    assert_eq!(
        frames(&input).await,
        ["error: a header line is not valid UTF-8", "[1]"]
    );
}

#[tokio::test]
async fn an_invalid_length_with_a_body_skips_the_body() {
    let input = format!("Content-Length: abc\r\n\r\n{{\"x\":1}}{}", frame("[1]"));
    assert_eq!(
        frames(input.as_bytes()).await,
        ["error: invalid Content-Length \"abc\"", "[1]"]
    );
}

#[tokio::test]
async fn missing_and_conflicting_lengths_and_garbage_lines() {
    let input = format!(
        "X-Other: 1\r\n\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabcgarbage\r\n\r\n{}",
        frame("[1]")
    );
    assert_eq!(
        frames(input.as_bytes()).await,
        [
            "error: missing Content-Length header",
            "error: two different Content-Length headers",
            "[1]"
        ]
    );
}

#[tokio::test]
async fn a_rescanned_body_finds_the_header_inside_it() {
    // A Content-Length longer than the body swallows the start of the next message.
    let input = format!("Content-Length: 30\r\n\r\n{{\"a\":1}}{}", frame("[1,2,3]"));
    let mut reader = FrameReader::new(input.as_bytes());
    let Frame::Body(body) = reader.next().await else {
        panic!("a body")
    };
    assert!(body.starts_with(b"{\"a\":1}Content-Length"));
    reader.rescan_last_body();
    assert!(matches!(reader.next().await, Frame::Body(b"[1,2,3]")));
    assert!(matches!(reader.next().await, Frame::End));
}

#[tokio::test]
async fn a_short_body_rescanned_skips_its_rest() {
    let input = format!("Content-Length: 3\r\n\r\n{{\"a\":1}}{}", frame("[1]"));
    let mut reader = FrameReader::new(input.as_bytes());
    assert!(matches!(reader.next().await, Frame::Body(b"{\"a")));
    reader.rescan_last_body();
    assert!(matches!(reader.next().await, Frame::Body(b"[1]")));
}

#[tokio::test]
async fn input_ending_inside_a_frame_is_the_end() {
    assert!(frames(b"Content-Length: 10\r\n\r\n{}").await.is_empty());
    assert!(frames(b"Content-Len").await.is_empty());
}
