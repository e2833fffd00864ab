//! Sensor traces, format 1 (`docs/trace-format.md`): reading and writing.
//!
//! A trace is JSON Lines: one object per line, blank lines and `#` lines
//! are comments. Every malformed line is an error that names the line and
//! says what is wrong with it.
//!
//! [`Reader`] reads a trace a line at a time, so that a replay's memory
//! does not grow with the trace. A line is at most [`MAX_LINE_BYTES`]
//! long; a longer one is refused before it is held in memory whole. A
//! damaged last line, with nothing but NUL bytes or blanks after it (what
//! a power cut leaves), is reported as [`ErrorKind::Torn`]: everything
//! before it is good.
//!
//! - [`reading`]: what a line says ([`Reading`], [`Header`], [`Entry`]);
//! - [`line`]: one line taken apart, and [`explain`]: why a bad one is
//!   wrong, in the line's terms;
//! - [`reader`]: the file read a line at a time, within bounds;
//! - [`write`]: a line written;
//! - [`error`]: [`TraceError`], with file and line.

pub mod error;
mod explain;
pub mod line;
pub mod reader;
pub mod reading;
pub mod write;

pub use error::{ErrorKind, TraceError};
pub(crate) use line::parse_line;
pub use reader::{MAX_LINE_BYTES, Reader, read};
pub use reading::{Entry, Header, MAX_T_MS, Reading};
pub use write::{occ_to_hex, write_line};

#[cfg(test)]
mod tests;
