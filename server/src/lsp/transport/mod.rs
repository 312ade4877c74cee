//! The JSON-RPC transport in front of tower-lsp-server, which must never die or desync.
//!
//! tower-lsp-server reads its input through tokio-util's `FramedRead`, which ends the
//! stream after one undecodable message: one malformed message from a client would stop
//! the server. So the input is read here first (`framing`: bounded headers and bodies,
//! resynchronisation after a broken frame) and each body judged (`message`): a message
//! tower-lsp-server decodes goes on unchanged; anything else is answered here with a
//! JSON-RPC error, written by the one output writer (`output`), or dropped when it is a
//! notification. The input ending, or `exit`, ends the session (`session` is cancelled),
//! which releases whatever still waits for the client. Answers a handler serialised
//! ahead of time (`prepared`) take the place of their stand-ins on the way out.

mod framing;
mod message;
mod output;
mod prepared;

use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, DuplexStream};
use tokio_util::sync::CancellationToken;
use tower_lsp_server::jsonrpc::{self, Id};
use tracing::{info, warn};

use framing::{Frame, FrameReader};
use message::Verdict;
use output::Output;
pub use output::Writer;
pub use prepared::Prepared;

/// The pipe that carries checked messages to tower-lsp-server.
const PIPE_BYTES: usize = 1 << 20;

/// The two pipes tower-lsp-server is served over, and the writer behind them.
pub struct Transport {
    /// What tower-lsp-server reads: only messages it can decode.
    pub input: DuplexStream,
    /// What tower-lsp-server writes.
    pub output: DuplexStream,
    /// The writer of standard output, to wait for once tower-lsp-server has stopped.
    pub writer: Writer,
    /// Answers serialised ahead of time, for the handlers to give stand-ins of.
    pub prepared: Arc<Prepared>,
}

impl Transport {
    /// Starts reading `input` and writing `out`. `session` is cancelled when the input
    /// ends or after `exit`.
    pub fn start<R, W>(input: R, out: W, session: CancellationToken) -> Self
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let prepared = Arc::new(Prepared::default());
        let (answers, server_output, writer) = output::start(out, prepared.clone());
        let (to_server, server_input) = tokio::io::duplex(PIPE_BYTES);
        tokio::spawn(async move {
            guard(FrameReader::new(input), to_server, answers).await;
            session.cancel();
        });
        Self {
            input: server_input,
            output: server_output,
            writer,
            prepared,
        }
    }
}

/// Copies the messages tower-lsp-server can decode to `to_server` and answers the rest,
/// until the input ends or `exit` has been passed on.
async fn guard<R: AsyncRead + Unpin>(
    mut frames: FrameReader<R>,
    mut to_server: DuplexStream,
    answers: Output,
) {
    loop {
        let answer = match frames.next().await {
            Frame::End => {
                info!("the client closed the input");
                return;
            }
            Frame::Broken(err) => {
                warn!("unreadable message from the client: {err}");
                let mut error = jsonrpc::Error::parse_error();
                error.data = Some(err.to_string().into());
                message::error_response(Id::Null, error)
            }
            Frame::Body(body) => match message::judge(body) {
                Verdict::Forward { exit } => {
                    let header = format!("Content-Length: {}\r\n\r\n", body.len());
                    if to_server.write_all(header.as_bytes()).await.is_err()
                        || to_server.write_all(body).await.is_err()
                        || exit
                    {
                        return;
                    }
                    continue;
                }
                Verdict::Drop(reason) => {
                    warn!("ignored a message from the client: {reason}");
                    continue;
                }
                Verdict::Answer {
                    response,
                    resync,
                    reason,
                } => {
                    warn!("malformed message from the client: {reason}");
                    if resync {
                        frames.rescan_last_body();
                    }
                    response
                }
            },
        };
        if !answers.send(answer).await {
            return;
        }
    }
}
