//! The JSON-RPC framing in front of the language server (`lsp::transport`): whatever
//! bytes a client sends, what reaches tower-lsp-server is a sequence of whole frames,
//! each `Content-Length: N` and N bytes of JSON, and the guard ends when the input does.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tokio::io::AsyncReadExt;
use tokio::runtime::Runtime;
use tokio_util::sync::CancellationToken;

use strata::lsp::transport::Transport;

fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a tokio runtime")
    })
}

/// Checks that `out` is whole frames of JSON bodies.
fn assert_frames(mut out: &[u8]) {
    while !out.is_empty() {
        let end = out
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("a header ends");
        let header = std::str::from_utf8(&out[..end]).expect("an ASCII header");
        let length: usize = header
            .strip_prefix("Content-Length: ")
            .and_then(|n| n.parse().ok())
            .expect("one Content-Length header");
        let body = out.get(end + 4..end + 4 + length).expect("a whole body");
        serde_json::from_slice::<serde_json::Value>(body).expect("a JSON body");
        out = &out[end + 4 + length..];
    }
}

fuzz_target!(|data: &[u8]| {
    let input = std::io::Cursor::new(data.to_vec());
    let out = runtime().block_on(async {
        // The answers the transport writes itself go to `answers`, which is large enough
        // for any input the fuzzer makes; what reaches tower-lsp-server is `input`.
        let (answers, _client) = tokio::io::duplex(64 << 20);
        let transport = Transport::start(input, answers, CancellationToken::new());
        let mut passed = transport.input;
        let mut out = Vec::new();
        passed.read_to_end(&mut out).await.expect("the pipe reads");
        out
    });
    assert_frames(&out);
});
