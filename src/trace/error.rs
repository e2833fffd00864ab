//! A trace that cannot be read: which file, which line, and why.

use std::fmt;

/// What kind of trouble a [`TraceError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A line says something that is not a trace line; lines follow it.
    Malformed,
    /// The last line is damaged (cut short, or NUL bytes), and nothing but
    /// NUL bytes or blanks follows: what a power cut in the middle of a
    /// write leaves. Every line before it is good.
    Torn,
    /// The file could not be read.
    Unreadable,
}

/// A trace that cannot be read: which file, which line, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceError {
    pub file: String,
    pub line: usize,
    pub message: String,
    pub kind: ErrorKind,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

impl std::error::Error for TraceError {}
