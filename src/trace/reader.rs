//! Reading a trace a line at a time, with the bounds that keep a damaged
//! or hostile file from filling memory, and a torn end told apart from
//! damage inside.

use std::io::BufRead;

use super::error::{ErrorKind, TraceError};
use super::line::parse_line;
use super::reading::Entry;

/// The longest line a trace may have, in bytes. The longest real line
/// (a header with a long FEN and time control) is a few hundred bytes.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// How far past a damaged line the reader looks for more lines before it
/// calls the damage a torn end: NUL padding beyond this is not a power cut.
const MAX_PADDING_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a trace a line at a time: each call to `next` reads one more
/// line, so memory does not grow with the trace. After an error the
/// reader yields nothing more.
pub struct Reader<R> {
    inner: R,
    file: String,
    /// The number of the line read last (1-based).
    line: usize,
    prev_t: u64,
    /// No entry has been read yet (the header may only be the first).
    first: bool,
    buf: Vec<u8>,
    /// The line read last ended with a newline.
    terminated: bool,
    done: bool,
}

impl<R: BufRead> Reader<R> {
    /// A reader of `inner`; `file` names it in errors.
    pub fn new(inner: R, file: &str) -> Reader<R> {
        Reader {
            inner,
            file: file.to_string(),
            line: 0,
            prev_t: 0,
            first: true,
            buf: Vec::new(),
            terminated: false,
            done: false,
        }
    }

    fn error(&mut self, kind: ErrorKind, message: String) -> TraceError {
        self.done = true;
        TraceError {
            file: self.file.clone(),
            line: self.line,
            message,
            kind,
        }
    }

    /// Reads the next line's bytes into `buf`, without its newline.
    /// `Ok(false)` at the end of the file.
    fn read_line(&mut self) -> Result<bool, TraceError> {
        self.buf.clear();
        self.terminated = false;
        let mut any = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.line += 1;
                    return Err(self.error(ErrorKind::Unreadable, format!("cannot be read: {e}")));
                }
            };
            if chunk.is_empty() {
                if any {
                    self.line += 1;
                }
                return Ok(any);
            }
            any = true;
            let (take, newline) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            let room = MAX_LINE_BYTES.saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&chunk[..take.min(room)]);
            self.inner.consume(take + usize::from(newline));
            if take > room {
                self.line += 1;
                return Err(self.error(
                    ErrorKind::Malformed,
                    format!(
                        "the line is longer than {MAX_LINE_BYTES} bytes; a trace line is one \
                         short JSON object"
                    ),
                ));
            }
            if newline {
                self.line += 1;
                self.terminated = true;
                return Ok(true);
            }
        }
    }

    /// Whether the line read last looks cut in the middle of a write: no
    /// newline at its end, NUL bytes in it, or JSON that stops short. A
    /// whole line that merely says something wrong does not.
    fn looks_cut(&self) -> bool {
        !self.terminated
            || self.buf.contains(&0)
            || serde_json::from_slice::<serde::de::IgnoredAny>(&self.buf).is_err_and(|e| e.is_eof())
    }

    /// Whether nothing but NUL bytes and blanks follows: then a damaged
    /// line is the torn end of the recording.
    fn only_padding_follows(&mut self) -> bool {
        let mut seen = 0u64;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok([]) => return true,
                Ok(c) => c,
                Err(_) => return false,
            };
            if !chunk.iter().all(|&b| b == 0 || b.is_ascii_whitespace()) {
                return false;
            }
            let n = chunk.len();
            self.inner.consume(n);
            seen += n as u64;
            if seen > MAX_PADDING_BYTES {
                return false;
            }
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Entry, TraceError>;

    fn next(&mut self) -> Option<Result<Entry, TraceError>> {
        while !self.done {
            match self.read_line() {
                Ok(true) => {}
                Ok(false) => {
                    self.done = true;
                    return None;
                }
                Err(e) => return Some(Err(e)),
            }
            let mut bytes = self.buf.as_slice();
            if self.line == 1 {
                // A byte-order mark, as some Windows editors write one.
                bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
            }
            let parsed = match std::str::from_utf8(bytes) {
                Ok(text) => parse_line(text, self.first, self.prev_t),
                Err(_) => Err("the line is not UTF-8 text".to_string()),
            };
            match parsed {
                Ok(Some((t, reading))) => {
                    self.first = false;
                    self.prev_t = t;
                    return Some(Ok(Entry {
                        t,
                        line: self.line,
                        reading,
                    }));
                }
                Ok(None) => {}
                Err(message) => {
                    let kind = if self.looks_cut() && self.only_padding_follows() {
                        ErrorKind::Torn
                    } else {
                        ErrorKind::Malformed
                    };
                    return Some(Err(self.error(kind, message)));
                }
            }
        }
        None
    }
}

/// Reads a whole trace into memory (for short traces and tests; a replay
/// streams with [`Reader`]). `file` names it in errors.
pub fn read<R: BufRead>(reader: R, file: &str) -> Result<Vec<Entry>, TraceError> {
    Reader::new(reader, file).collect()
}
