//! Why a run could not start or went wrong, as callers can branch on it.

use std::fmt;

use crate::config::ConfigError;
use crate::sensors::SourceError;
use crate::trace::TraceError;

#[derive(Debug)]
pub enum Error {
    /// The configuration cannot be used: its file, line and key.
    Config(ConfigError),
    /// The sensor source failed as it was opened (a chip that does not
    /// answer keeps the bus's error kind).
    Source(SourceError),
    /// A trace to play (the trace source) cannot be read.
    Trace(TraceError),
    /// The Pi's GPIO or I²C cannot be opened (a pin in use, no permission,
    /// I²C not enabled), or this build has no Raspberry Pi support.
    Hardware(String),
    /// The start position or the game to play is not playable.
    Game(String),
    /// A file could not be read or written.
    File { path: String, error: std::io::Error },
    /// The output (standard output, the log) could not be written.
    Write(std::io::Error),
    /// The journal directory holds no such game, or cannot be read.
    Journal(String),
    /// The lichess token cannot be kept or read (never the token itself).
    Token(crate::lichess::token::TokenError),
    /// A server (the mirror's, the hall's) cannot listen or start.
    Serve(crate::net::Error),
    /// The HTTPS certificate cannot serve.
    Tls(crate::net::tls::TlsError),
    /// A scoresheet cannot be put into Braille.
    Braille(crate::braille::SheetError),
}

pub type Result<T> = std::result::Result<T, Error>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Config(e) => write!(f, "{e}"),
            Error::Source(e) => write!(f, "{e}"),
            Error::Trace(e) => write!(f, "{e}"),
            Error::Hardware(why) | Error::Game(why) | Error::Journal(why) => f.write_str(why),
            Error::File { path, error } => write!(f, "{path}: {error}"),
            Error::Write(e) => write!(f, "cannot write: {e}"),
            Error::Token(e) => write!(f, "{e}"),
            Error::Serve(e) => write!(f, "{e}"),
            Error::Tls(e) => write!(f, "{e}"),
            Error::Braille(e) => write!(f, "the Braille scoresheet: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Config(e) => Some(e),
            Error::Source(e) => Some(e),
            Error::Trace(e) => Some(e),
            Error::File { error, .. } | Error::Write(error) => Some(error),
            Error::Token(e) => Some(e),
            Error::Serve(e) => Some(e),
            Error::Tls(e) => Some(e),
            Error::Braille(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ConfigError> for Error {
    fn from(e: ConfigError) -> Error {
        Error::Config(e)
    }
}

impl From<SourceError> for Error {
    fn from(e: SourceError) -> Error {
        Error::Source(e)
    }
}

impl From<TraceError> for Error {
    fn from(e: TraceError) -> Error {
        Error::Trace(e)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::Write(e)
    }
}

impl From<crate::braille::SheetError> for Error {
    fn from(e: crate::braille::SheetError) -> Error {
        Error::Braille(e)
    }
}
