//! Reading `Content-Length` frames from a byte stream that may be hostile.
//!
//! Every limit here bounds memory: a header block longer than `MAX_HEADER_BYTES` (a line
//! with no end included) and a `Content-Length` above `MAX_BODY_BYTES` are refused before
//! anything is buffered. After a broken frame the reader resynchronises: it skips to the
//! next `Content-Length:` it sees, so one bad frame costs one error and never desyncs the
//! messages after it. A body the caller finds malformed (a `Content-Length` shorter or
//! longer than the body it announced) can be rescanned the same way from its first byte,
//! because the next message's header may be inside it.

use memchr::memmem;
use tokio::io::{AsyncRead, AsyncReadExt};

/// Bodies larger than this are refused rather than buffered.
pub const MAX_BODY_BYTES: u64 = 256 * 1024 * 1024;

/// The longest header block read (LSP sends one or two short header lines).
pub const MAX_HEADER_BYTES: usize = 8 * 1024;

/// What resynchronisation looks for: the header every LSP message starts with.
const RESYNC_MARK: &[u8] = b"Content-Length:";

/// How much is read from the input at a time.
const READ_CHUNK: usize = 64 * 1024;

/// Consumed bytes are dropped from the buffer once this many have piled up.
const COMPACT_AT: usize = 1024 * 1024;

/// One step of reading.
#[derive(Debug)]
pub enum Frame<'a> {
    /// The body of a well-framed message, valid until the next call.
    Body(&'a [u8]),
    /// A frame that could not be read; the reader resynchronises on the next call.
    Broken(FramingError),
    /// The input ended.
    End,
}

/// Why a frame could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FramingError {
    /// The header block did not end within the limit.
    #[error("the header block is longer than {MAX_HEADER_BYTES} bytes")]
    HeaderTooLong,
    /// A header line holds a byte that is not UTF-8.
    #[error("a header line is not valid UTF-8")]
    HeaderNotUtf8,
    /// A header line is not `Name: value`.
    #[error("invalid header line {0:?}")]
    NotAHeader(String),
    /// `Content-Length` is not a number.
    #[error("invalid Content-Length {0:?}")]
    InvalidLength(String),
    /// `Content-Length` is above `MAX_BODY_BYTES`.
    #[error("Content-Length {0} is above the limit of {MAX_BODY_BYTES} bytes")]
    TooLarge(u64),
    /// Two `Content-Length` headers disagree.
    #[error("two different Content-Length headers")]
    ConflictingLength,
    /// The header block has no `Content-Length`.
    #[error("missing Content-Length header")]
    MissingLength,
}

/// Reads frames from `input` through one growable buffer.
pub struct FrameReader<R> {
    input: R,
    buf: Vec<u8>,
    /// Everything before this is consumed.
    pos: usize,
    /// The last body handed out (start, end), still in `buf`.
    last_body: Option<(usize, usize)>,
    /// Skip to the next `Content-Length:` before reading the next frame.
    resync: bool,
    /// Rescan the last body for the next header instead of skipping it.
    rescan: bool,
}

impl<R: AsyncRead + Unpin> FrameReader<R> {
    /// A reader over `input`.
    pub fn new(input: R) -> Self {
        Self {
            input,
            buf: Vec::with_capacity(READ_CHUNK),
            pos: 0,
            last_body: None,
            resync: false,
            rescan: false,
        }
    }

    /// Resynchronises from the first byte of the last body on the next call: that body
    /// was malformed, and a `Content-Length` longer than the real body means the next
    /// message's header is inside it.
    pub fn rescan_last_body(&mut self) {
        self.rescan = true;
    }

    /// Reads the next frame.
    pub async fn next(&mut self) -> Frame<'_> {
        if let Some((start, end)) = self.last_body.take() {
            self.pos = if std::mem::take(&mut self.rescan) {
                self.resync = true;
                start
            } else {
                end
            };
        }
        self.compact();
        if std::mem::take(&mut self.resync) && !self.skip_to_mark().await {
            return Frame::End;
        }
        let length = match self.header().await {
            Ok(Some(length)) => length,
            Ok(None) => return Frame::End,
            Err(err) => {
                self.resync = true;
                return Frame::Broken(err);
            }
        };
        while self.buf.len() - self.pos < length {
            let missing = length - (self.buf.len() - self.pos);
            if !self.fill(missing).await {
                return Frame::End;
            }
        }
        let (start, end) = (self.pos, self.pos + length);
        self.last_body = Some((start, end));
        Frame::Body(&self.buf[start..end])
    }

    /// Reads a header block; `None` when the input ends first.
    async fn header(&mut self) -> Result<Option<usize>, FramingError> {
        let start = self.pos;
        let mut length: Option<u64> = None;
        let mut lines = 0;
        loop {
            let Some(newline) = memchr::memchr(b'\n', &self.buf[self.pos..]) else {
                if self.buf.len() - start > MAX_HEADER_BYTES {
                    // Keep the tail: the next header may start in it.
                    self.pos = self.buf.len().saturating_sub(RESYNC_MARK.len() - 1);
                    return Err(FramingError::HeaderTooLong);
                }
                if !self.fill(1).await {
                    return Ok(None);
                }
                continue;
            };
            let line_end = self.pos + newline;
            let line = &self.buf[self.pos..line_end];
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            self.pos = line_end + 1;
            if self.pos - start > MAX_HEADER_BYTES {
                return Err(FramingError::HeaderTooLong);
            }
            if line.is_empty() {
                if lines == 0 {
                    continue; // Blank lines between messages.
                }
                break;
            }
            lines += 1;
            let line = std::str::from_utf8(line).map_err(|_| FramingError::HeaderNotUtf8)?;
            let Some((name, value)) = line.split_once(':') else {
                return Err(FramingError::NotAHeader(line.into()));
            };
            // Other headers (Content-Type) carry nothing Strata needs: bodies are UTF-8.
            if name.trim().eq_ignore_ascii_case("content-length") {
                let value = value.trim();
                let n: u64 = value
                    .parse()
                    .map_err(|_| FramingError::InvalidLength(value.into()))?;
                if n > MAX_BODY_BYTES {
                    return Err(FramingError::TooLarge(n));
                }
                if length.is_some_and(|l| l != n) {
                    return Err(FramingError::ConflictingLength);
                }
                length = Some(n);
            }
        }
        // Within MAX_BODY_BYTES, so it fits a usize on every platform Strata builds for.
        let length = length.ok_or(FramingError::MissingLength)?;
        usize::try_from(length)
            .map(Some)
            .map_err(|_| FramingError::TooLarge(length))
    }

    /// Skips to the next `Content-Length:`; false when the input ends first. Only the
    /// last few bytes are kept while skipping, so memory stays bounded.
    async fn skip_to_mark(&mut self) -> bool {
        loop {
            if let Some(found) = memmem::find(&self.buf[self.pos..], RESYNC_MARK) {
                self.pos += found;
                return true;
            }
            self.pos = self
                .pos
                .max(self.buf.len().saturating_sub(RESYNC_MARK.len() - 1));
            self.compact();
            if !self.fill(1).await {
                return false;
            }
        }
    }

    /// Reads at least `want` more bytes (at most `READ_CHUNK` beyond); false at the end
    /// of the input (or on a read error, which ends it too).
    async fn fill(&mut self, want: usize) -> bool {
        self.buf.reserve(want.max(READ_CHUNK));
        let target = self.buf.len() + want;
        while self.buf.len() < target {
            match self.input.read_buf(&mut self.buf).await {
                Ok(0) | Err(_) => return false,
                Ok(_) => {}
            }
        }
        true
    }

    /// Drops consumed bytes once enough have piled up (or all are consumed, which is
    /// free), so that a long session does not keep its whole input.
    fn compact(&mut self) {
        if self.pos == self.buf.len() {
            self.buf.clear();
            self.pos = 0;
        } else if self.pos >= COMPACT_AT {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
    }
}

#[cfg(test)]
mod tests;
