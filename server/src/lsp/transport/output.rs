//! The one writer of standard output. tower-lsp-server writes its frames into a pipe;
//! a relay reads them back whole and queues them with the answers the transport gives
//! itself (to messages tower-lsp-server never sees), so that the two never interleave
//! inside a frame. On the way, a stand-in's frame gets its prepared answer (`prepared`).

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncWrite, AsyncWriteExt, DuplexStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tracing::warn;

use super::framing::{Frame, FrameReader};
use super::prepared::Prepared;

/// How many frames may wait for the client to read them before writers wait too.
const QUEUE: usize = 64;

/// The pipe between tower-lsp-server and the relay.
const PIPE_BYTES: usize = 1 << 20;

/// How long the end of a session waits for queued frames to be written.
const FLUSH_TIMEOUT: Duration = Duration::from_secs(2);

/// Where frames for the client go.
#[derive(Clone)]
pub struct Output {
    queue: mpsc::Sender<Vec<u8>>,
}

impl Output {
    /// Queues one message body; false once the writer has stopped.
    pub async fn send(&self, body: Vec<u8>) -> bool {
        self.queue.send(body).await.is_ok()
    }
}

/// The writer task, to wait for at the end of the session.
pub struct Writer(JoinHandle<()>);

impl Writer {
    /// Waits (a bounded time: the client may have stopped reading) until every queued
    /// frame is written. Every `Output` and the server's pipe must be dropped first.
    pub async fn finish(self) {
        if tokio::time::timeout(FLUSH_TIMEOUT, self.0).await.is_err() {
            warn!("the client did not read the last messages");
        }
    }
}

/// Starts writing to `out`, filling stand-ins from `prepared`; returns the queue, the pipe
/// tower-lsp-server writes to, and the writer.
pub fn start<W>(out: W, prepared: Arc<Prepared>) -> (Output, DuplexStream, Writer)
where
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (queue, frames) = mpsc::channel(QUEUE);
    let (server_side, relay_side) = tokio::io::duplex(PIPE_BYTES);
    let output = Output { queue };
    tokio::spawn(relay(relay_side, output.clone(), prepared));
    let writer = Writer(tokio::spawn(write(out, frames)));
    (output, server_side, writer)
}

/// Moves tower-lsp-server's frames, whole, into the queue.
async fn relay(pipe: DuplexStream, output: Output, prepared: Arc<Prepared>) {
    let mut frames = FrameReader::new(pipe);
    loop {
        let body = match frames.next().await {
            Frame::Body(body) => prepared.fill(body).unwrap_or_else(|| body.to_vec()),
            Frame::Broken(err) => {
                // tower-lsp-server's own framing: never broken.
                warn!("unreadable frame from the server: {err}");
                continue;
            }
            Frame::End => return,
        };
        if !output.send(body).await {
            return;
        }
    }
}

/// Writes queued bodies as frames, flushing whenever the queue is empty.
async fn write<W: AsyncWrite + Unpin>(mut out: W, mut frames: mpsc::Receiver<Vec<u8>>) {
    while let Some(body) = frames.recv().await {
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        if out.write_all(header.as_bytes()).await.is_err() || out.write_all(&body).await.is_err() {
            return;
        }
        if frames.is_empty() && out.flush().await.is_err() {
            return;
        }
    }
    let _ = out.flush().await;
}
