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

use std::borrow::Cow;
use std::fmt;
use std::io::BufRead;

use serde::Deserialize;
use shakmaty::{Bitboard, Square};

use crate::core::clock::TimeControl;
use crate::core::input::InputFields;
use crate::core::{Input, StartPosition};

/// What one trace line says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// The optional header: how the game starts.
    Header(Header),
    /// A raw reading of every square of a board.
    Scan {
        board: String,
        occ: Bitboard,
    },
    /// Shorthand: the previous raw reading with one square emptied.
    Lift {
        board: String,
        square: Square,
    },
    /// Shorthand: the previous raw reading with one square filled.
    Place {
        board: String,
        square: Square,
    },
    Input(Input),
    /// The keys held down from this instant, as bits (bit 0 the first
    /// key), as a scanner reports them beside the squares. The runtime
    /// reads them through its `[buttons]` keys, as from real keys; a
    /// replay has their inputs already, as `input` lines.
    Keys(u16),
}

/// The header line: the start position and, if the game is played with a
/// clock, its time control.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Header {
    pub start: StartPosition,
    /// Overrides the configuration's `[clock]` control for this trace.
    pub time_control: Option<TimeControl>,
    /// The game's PGN tags (Event, Site, Date, Round, White, Black), as a
    /// journal's header keeps them for its scoresheet.
    pub tags: std::collections::BTreeMap<String, String>,
    /// Where White's and Black's moves are made, when not on the blind
    /// player's board: a board's name or "relay" (overrides `[game]`).
    pub white_moves_on: Option<String>,
    pub black_moves_on: Option<String>,
}

impl Header {
    /// `settings` with what this header fixes for its game: the time
    /// control and where each player moves.
    pub fn apply(&self, settings: &mut crate::core::Settings) {
        if self.time_control.is_some() {
            settings.clock.control = self.time_control.clone();
        }
        let seat = |name: &str| match name {
            "relay" => crate::core::Seat::Relay,
            board => crate::core::Seat::Board(board.to_string()),
        };
        if let Some(w) = &self.white_moves_on {
            settings.seats.white = seat(w);
        }
        if let Some(b) = &self.black_moves_on {
            settings.seats.black = seat(b);
        }
    }
}

/// One line of a trace, with its time and line number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Milliseconds since the trace began.
    pub t: u64,
    /// 1-based line number in the file (0 for entries made in memory).
    pub line: usize,
    pub reading: Reading,
}

/// The longest line a trace may have, in bytes. The longest real line
/// (a header with a long FEN and time control) is a few hundred bytes.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// The latest instant a trace line may have: 10^12 ms, about 31 years.
/// Every sum of an instant and a clock time stays far inside 64 bits.
pub const MAX_T_MS: u64 = 1_000_000_000_000;

/// How far past a damaged line the reader looks for more lines before it
/// calls the damage a torn end: NUL padding beyond this is not a power cut.
const MAX_PADDING_BYTES: u64 = 64 * 1024 * 1024;

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

/// A line's `t`: whole milliseconds from 0 to [`MAX_T_MS`], with an error
/// that says so for anything else (a fraction, a negative number, a number
/// past 64 bits, which JSON readers see as a float).
struct Millis(u64);

impl<'de> Deserialize<'de> for Millis {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        fn range<E: serde::de::Error>(what: std::fmt::Arguments) -> E {
            E::custom(format!(
                "`t` must be a whole number of milliseconds from 0 to {MAX_T_MS}, not {what}"
            ))
        }
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Millis;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "a whole number of milliseconds from 0 to {MAX_T_MS}")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Millis, E> {
                if v <= MAX_T_MS {
                    Ok(Millis(v))
                } else {
                    Err(range(format_args!("{v}")))
                }
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Millis, E> {
                match u64::try_from(v) {
                    Ok(v) => self.visit_u64(v),
                    Err(_) => Err(range(format_args!("{v}"))),
                }
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Millis, E> {
                Err(range(format_args!("{v}")))
            }
        }
        d.deserialize_u64(Visitor)
    }
}

/// The fields a trace line may have. Strings are borrowed from the line
/// where they can be, and copied where JSON escapes make them differ.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line<'a> {
    t: Option<Millis>,
    trace: Option<u64>,
    start: Option<String>,
    #[serde(borrow)]
    variant: Option<Cow<'a, str>>,
    #[serde(borrow)]
    board: Option<Cow<'a, str>>,
    #[serde(borrow)]
    occ: Option<Cow<'a, str>>,
    #[serde(borrow)]
    lift: Option<Cow<'a, str>>,
    #[serde(borrow)]
    place: Option<Cow<'a, str>>,
    #[serde(borrow)]
    input: Option<Cow<'a, str>>,
    #[serde(borrow)]
    piece: Option<Cow<'a, str>>,
    #[serde(borrow)]
    color: Option<Cow<'a, str>>,
    #[serde(borrow)]
    square: Option<Cow<'a, str>>,
    count: Option<u32>,
    rank: Option<u32>,
    #[serde(borrow)]
    file: Option<Cow<'a, str>>,
    ply: Option<u32>,
    #[serde(borrow)]
    time_control: Option<Cow<'a, str>>,
    white_ms: Option<u64>,
    black_ms: Option<u64>,
    white_moves: Option<u32>,
    black_moves: Option<u32>,
    #[serde(borrow)]
    clocks: Option<Cow<'a, str>>,
    #[serde(borrow)]
    uci: Option<Cow<'a, str>>,
    #[serde(borrow)]
    san: Option<Cow<'a, str>>,
    #[serde(borrow)]
    fen: Option<Cow<'a, str>>,
    chess960: Option<u32>,
    tags: Option<std::collections::BTreeMap<String, String>>,
    white_moves_on: Option<String>,
    black_moves_on: Option<String>,
    keys: Option<u16>,
}

/// What each field of a trace line holds, for errors about a value of the
/// wrong kind.
const FIELD_KINDS: &[(&str, &str)] = &[
    ("t", "a whole number of milliseconds, like 1500"),
    ("trace", "the format number 1"),
    ("start", "\"startpos\" or a FEN, in quotes"),
    ("variant", "\"standard\" or \"chess960\""),
    ("board", "a board's name in quotes, like \"blind\""),
    ("occ", "16 lowercase hexadecimal digits in quotes"),
    (
        "keys",
        "the keys held, as a whole number of bits from 0 to 65535, like 8 for the fourth key",
    ),
    ("lift", "a square in quotes, like \"e2\""),
    ("place", "a square in quotes, like \"e4\""),
    ("input", "an input's name in quotes, like \"clock\""),
    ("piece", "q, r, b or n in quotes"),
    ("color", "\"white\" or \"black\""),
    ("square", "a square in quotes, like \"e4\""),
    ("count", "a whole number, 1 or more"),
    ("rank", "a number from 1 to 8"),
    ("file", "a file from \"a\" to \"h\""),
    ("ply", "a whole number, 1 or more"),
    (
        "time_control",
        "a PGN TimeControl in quotes, like \"5400+30\"",
    ),
    ("white_ms", "a whole number of milliseconds"),
    ("black_ms", "a whole number of milliseconds"),
    ("white_moves", "a whole number of moves"),
    ("black_moves", "a whole number of moves"),
    ("clocks", "\"held\" or \"running\""),
    ("uci", "a move in UCI in quotes, like \"g8f6\""),
    ("san", "a move in SAN in quotes, like \"Nf6\""),
    ("fen", "a FEN in quotes"),
    ("chess960", "a Chess960 start number, 0 to 959"),
    (
        "tags",
        "an object of PGN tags and their texts, like {\"White\":\"Anna\"}",
    ),
    ("white_moves_on", "a board's name or \"relay\", in quotes"),
    ("black_moves_on", "a board's name or \"relay\", in quotes"),
];

/// A JSON value, named for an error message, quoting at most a short
/// prefix of a long string.
fn describe(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => "null".into(),
        serde_json::Value::Bool(b) => b.to_string(),
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::String(s) => format!("\"{}\"", crate::text::quote::short(s)),
        serde_json::Value::Array(_) => "a list".into(),
        serde_json::Value::Object(_) => "an object".into(),
    }
}

/// Says what is wrong with a line the typed reading refused, in terms of
/// the line rather than of the parser: it is not JSON, not an object, or
/// which field holds what kind of value instead of what it should.
/// Run only for a line that failed, so it costs nothing on good lines.
fn explain(text: &str, parser: String) -> String {
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let what = if text.contains('\0') {
                "holds NUL bytes".to_string()
            } else if e.to_string().contains("surrogate") || e.to_string().contains("hex escape") {
                "has a \\u escape that is half of a UTF-16 pair (a lone surrogate)".to_string()
            } else if e.is_eof() {
                "is cut short".to_string()
            } else {
                format!("is not valid JSON ({parser})")
            };
            return format!(
                "the line {what}; a trace line is one JSON object, like {{\"t\":900,\"lift\":\"g1\"}}"
            );
        }
    };
    let Some(object) = value.as_object() else {
        return format!(
            "the line is {}, not a JSON object like {{\"t\":900,\"lift\":\"g1\"}}",
            describe(&value)
        );
    };
    for (field, value) in object {
        if let Some((_, kind)) = FIELD_KINDS.iter().find(|(f, _)| f == field) {
            let fits = match field.as_str() {
                "t" => value.as_u64().is_some_and(|t| t <= MAX_T_MS),
                "trace" | "white_ms" | "black_ms" => value.is_u64(),
                "count" | "rank" | "ply" | "white_moves" | "black_moves" => {
                    value.as_u64().is_some_and(|n| u32::try_from(n).is_ok())
                }
                "tags" => value
                    .as_object()
                    .is_some_and(|o| o.values().all(|v| v.is_string())),
                _ => value.is_string(),
            };
            if !fits {
                return format!("`{field}` must be {kind}, not {}", describe(value));
            }
        }
    }
    parser
}

/// Writes an occupancy word as 16 lowercase hexadecimal digits.
pub fn occ_to_hex(occ: Bitboard) -> String {
    format!("{:016x}", occ.0)
}

/// Reads an occupancy word: exactly 16 lowercase hexadecimal digits.
pub(crate) fn occ_from_hex(s: &str) -> Result<Bitboard, String> {
    let valid = s.len() == 16
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if !valid {
        return Err(format!(
            "`occ` must be exactly 16 lowercase hexadecimal digits, not \"{}\"",
            crate::text::quote::short(s)
        ));
    }
    u64::from_str_radix(s, 16)
        .map(Bitboard)
        .map_err(|e| format!("`occ` \"{s}\": {e}"))
}

fn square(field: &str, s: &str) -> Result<Square, String> {
    s.parse::<Square>().map_err(|_| {
        format!(
            "`{field}` must be a square from a1 to h8, not \"{}\"",
            crate::text::quote::short(s)
        )
    })
}

/// The input on a line, read through the one codec of inputs.
fn input(line: &Line) -> Result<Input, String> {
    Input::decode(
        line.input.as_deref().unwrap_or_default(),
        &InputFields {
            piece: line.piece.as_deref(),
            color: line.color.as_deref(),
            square: line.square.as_deref(),
            count: line.count,
            rank: line.rank,
            file: line.file.as_deref(),
            ply: line.ply,
            white_ms: line.white_ms,
            black_ms: line.black_ms,
            white_moves: line.white_moves,
            black_moves: line.black_moves,
            clocks: line.clocks.as_deref(),
            uci: line.uci.as_deref(),
            san: line.san.as_deref(),
            fen: line.fen.as_deref(),
            chess960: line.chess960,
        },
    )
    .map_err(|e| e.to_string())
}

/// Parses one line. `Ok(None)` for blank and comment lines. `first` is true
/// until the first non-comment line has been read; `prev_t` is that of the
/// line before.
pub(crate) fn parse_line(
    text: &str,
    first: bool,
    prev_t: u64,
) -> Result<Option<(u64, Reading)>, String> {
    let trimmed = text.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(None);
    }
    let line: Line = serde_json::from_str(trimmed).map_err(|e| {
        let msg = e.to_string();
        // serde_json appends " at line 1 column N"; the line is ours to name.
        let msg = match msg.rfind(" at line ") {
            Some(i) => msg[..i].to_string(),
            None => msg,
        };
        if msg.starts_with("`t` must be") || msg.starts_with("unknown field") {
            msg
        } else {
            explain(trimmed, msg)
        }
    })?;
    let t = line
        .t
        .as_ref()
        .ok_or("every line needs `t`, an integer number of milliseconds ≥ 0")?
        .0;
    if t < prev_t {
        return Err(format!(
            "`t` goes backwards: {t} is smaller than {prev_t} on the line before"
        ));
    }
    let kinds = [
        line.trace.is_some(),
        line.occ.is_some(),
        line.lift.is_some(),
        line.place.is_some(),
        line.input.is_some(),
        line.keys.is_some(),
    ]
    .iter()
    .filter(|&&k| k)
    .count();
    if kinds == 0 {
        return Err(
            "the line is none of header (`trace`), raw scan (`occ`), `lift`, `place`, `input` or `keys`"
                .to_string(),
        );
    }
    if kinds > 1 {
        return Err(
            "a line may be only one of header (`trace`), raw scan (`occ`), `lift`, `place`, `input` or `keys`"
                .to_string(),
        );
    }
    if line.trace.is_none()
        && (line.start.is_some()
            || line.variant.is_some()
            || line.time_control.is_some()
            || line.tags.is_some()
            || line.white_moves_on.is_some()
            || line.black_moves_on.is_some())
    {
        return Err(
            "`start`, `variant`, `time_control`, `tags`, `white_moves_on` and `black_moves_on` \
             belong to the header line"
                .to_string(),
        );
    }
    if line.input.is_none()
        && (line.piece.is_some() || line.color.is_some() || line.square.is_some())
    {
        return Err("`piece`, `color` and `square` belong to `input` lines".to_string());
    }
    if (line.trace.is_some() || line.input.is_some() || line.keys.is_some()) && line.board.is_some()
    {
        return Err("`board` belongs to `occ`, `lift` and `place` lines".to_string());
    }
    let board = || {
        line.board
            .as_deref()
            .unwrap_or(crate::core::BLIND_BOARD)
            .to_string()
    };
    let reading = if let Some(version) = line.trace {
        if !first {
            return Err("the header (`trace`) may only be the first line".to_string());
        }
        if version != 1 {
            return Err(format!(
                "trace format {version} is not supported; this pegboard reads format 1"
            ));
        }
        let chess960 = match line.variant.as_deref() {
            None | Some("standard") => false,
            Some("chess960") => true,
            Some(other) => {
                return Err(format!(
                    "`variant` must be \"standard\" or \"chess960\", not \"{}\"",
                    crate::text::quote::short(other)
                ));
            }
        };
        let time_control = match line.time_control.as_deref() {
            None => None,
            Some(text) => Some(TimeControl::parse_pgn(text).map_err(|e| {
                format!("`time_control` (the PGN TimeControl form, in seconds): {e}")
            })?),
        };
        Reading::Header(Header {
            start: StartPosition {
                start: line.start.clone().unwrap_or_else(|| "startpos".to_string()),
                chess960,
            },
            time_control,
            tags: line.tags.clone().unwrap_or_default(),
            white_moves_on: line.white_moves_on.clone(),
            black_moves_on: line.black_moves_on.clone(),
        })
    } else if let Some(occ) = line.occ.as_deref() {
        Reading::Scan {
            board: board(),
            occ: occ_from_hex(occ)?,
        }
    } else if let Some(sq) = line.lift.as_deref() {
        Reading::Lift {
            board: board(),
            square: square("lift", sq)?,
        }
    } else if let Some(sq) = line.place.as_deref() {
        Reading::Place {
            board: board(),
            square: square("place", sq)?,
        }
    } else if let Some(keys) = line.keys {
        Reading::Keys(keys)
    } else {
        Reading::Input(input(&line)?)
    };
    Ok(Some((t, reading)))
}

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

fn json_str(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// Writes one entry as a trace line (without the newline).
pub fn write_line(t: u64, reading: &Reading) -> String {
    match reading {
        Reading::Header(Header {
            start,
            time_control,
            tags,
            white_moves_on,
            black_moves_on,
        }) => {
            let variant = if start.chess960 {
                r#","variant":"chess960""#
            } else {
                ""
            };
            let control = time_control
                .as_ref()
                .map(|c| format!(r#","time_control":"{}""#, c.to_pgn()))
                .unwrap_or_default();
            let tags = if tags.is_empty() {
                String::new()
            } else {
                format!(
                    r#","tags":{}"#,
                    serde_json::to_string(tags).unwrap_or_default()
                )
            };
            let seats: String = [
                ("white_moves_on", white_moves_on),
                ("black_moves_on", black_moves_on),
            ]
            .into_iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| format!(r#","{k}":{}"#, json_str(v))))
            .collect();
            format!(
                r#"{{"t":{t},"trace":1,"start":{}{variant}{control}{tags}{seats}}}"#,
                json_str(&start.start)
            )
        }
        Reading::Scan { board, occ } => format!(
            r#"{{"t":{t},"board":{},"occ":"{}"}}"#,
            json_str(board),
            occ_to_hex(*occ)
        ),
        Reading::Lift { board, square } => {
            format!(
                r#"{{"t":{t},"board":{},"lift":"{square}"}}"#,
                json_str(board)
            )
        }
        Reading::Place { board, square } => {
            format!(
                r#"{{"t":{t},"board":{},"place":"{square}"}}"#,
                json_str(board)
            )
        }
        Reading::Input(input) => {
            format!(
                r#"{{"t":{t},"input":"{}"{}}}"#,
                input.name(),
                input.fields()
            )
        }
        Reading::Keys(keys) => format!(r#"{{"t":{t},"keys":{keys}}}"#),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        read(text.as_bytes(), "x.jsonl").unwrap_err().to_string()
    }

    #[test]
    fn start_position_hex_is_as_specified() {
        assert_eq!(
            occ_to_hex(shakmaty::Bitboard(0xffff00000000ffff)),
            "ffff00000000ffff"
        );
        assert!(occ_from_hex("FFFF00000000FFFF").is_err());
        assert!(occ_from_hex("ffff00000000fff").is_err());
    }

    #[test]
    fn every_kind_of_line_round_trips() {
        let text = r#"{"t":0,"trace":1,"start":"startpos","variant":"chess960","time_control":"40/5400+30:1800+30"}
# a comment

{"t":120,"board":"blind","occ":"ffff00000000efff"}
{"t":900,"board":"blind","lift":"e2"}
{"t":1500,"place":"e4"}
{"t":2000,"input":"promote","piece":"n"}
{"t":2001,"input":"square","square":"e4"}
{"t":2002,"input":"resign","color":"black"}
{"t":2003,"input":"repeat"}
{"t":2004,"input":"set_clock","white_ms":60000,"black_moves":12}
{"t":2005,"input":"flag_claim","color":"white"}
{"t":2006,"input":"pause"}"#;
        let entries = read(text.as_bytes(), "x").expect("valid");
        assert_eq!(entries.len(), 11);
        assert_eq!(entries[1].line, 4);
        for e in &entries {
            let again = write_line(e.t, &e.reading);
            let back = parse_line(&again, e.line == 1, 0)
                .expect("ok")
                .expect("entry");
            assert_eq!(back, (e.t, e.reading.clone()), "{again}");
        }
    }

    #[test]
    fn errors_name_file_line_and_reason() {
        assert_eq!(
            err("{\"t\":5,\"lift\":\"e2\"}\n{\"t\":4,\"lift\":\"e4\"}"),
            "x.jsonl:2: `t` goes backwards: 4 is smaller than 5 on the line before"
        );
        assert!(
            err("\n\n{\"t\":1,\"lift\":\"e9\"}").starts_with("x.jsonl:3: `lift` must be a square")
        );
        assert!(err("{\"t\":1,\"input\":\"dance\"}").contains("unknown input \"dance\""));
        assert!(err("{\"t\":1,\"occ\":\"zz\"}").contains("16 lowercase hexadecimal"));
        assert!(err("{\"t\":1,\"ocupied\":\"e2\"}").contains("unknown field `ocupied`"));
        assert_eq!(
            err("{\"t\":-1,\"lift\":\"e2\"}"),
            "x.jsonl:1: `t` must be a whole number of milliseconds from 0 to 1000000000000, not -1"
        );
        assert!(err("{\"lift\":\"e2\"}").contains("needs `t`"));
        assert!(err("not json").starts_with("x.jsonl:1: "));
        assert!(
            err("{\"t\":1,\"lift\":\"e2\"}\n{\"t\":2,\"trace\":1}")
                .contains("only be the first line")
        );
        assert!(err("{\"t\":1,\"input\":\"promote\"}").contains("needs a `piece`"));
        assert!(err("{\"t\":1,\"input\":\"resign\",\"piece\":\"q\"}").contains("does not belong"));
        assert!(err("{\"t\":1,\"lift\":\"e2\",\"place\":\"e4\"}").contains("only one of"));
        assert!(
            err("{\"t\":0,\"trace\":1,\"time_control\":\"90+30min\"}")
                .starts_with("x.jsonl:1: `time_control`")
        );
        assert!(err("{\"t\":1,\"input\":\"set_clock\"}").contains("needs at least one"));
    }

    fn error(text: &[u8]) -> TraceError {
        match read(text, "x.jsonl") {
            Err(e) => e,
            Ok(entries) => panic!("expected an error, read {entries:?}"),
        }
    }

    #[test]
    fn errors_say_what_the_line_should_have_held() {
        // A byte-order mark is skipped.
        let with_bom = read(&b"\xef\xbb\xbf{\"t\":0,\"lift\":\"e2\"}"[..], "x").expect("BOM");
        assert_eq!(with_bom.len(), 1);
        assert_eq!(
            error(br#"{"t":0,"lift":6}"#).message,
            r#"`lift` must be a square in quotes, like "e2", not 6"#
        );
        assert_eq!(
            error(b"null").message,
            r#"the line is null, not a JSON object like {"t":900,"lift":"g1"}"#
        );
        assert_eq!(
            error(br#"{"t":18446744073709551616,"lift":"e2"}"#).message,
            "`t` must be a whole number of milliseconds from 0 to 1000000000000, \
             not 18446744073709552000"
        );
        assert_eq!(
            error(br#"{"t":1000000000001,"lift":"e2"}"#).message,
            "`t` must be a whole number of milliseconds from 0 to 1000000000000, \
             not 1000000000001"
        );
        assert!(
            error(br#"{"t":0,"lift":"\ud800"}"#)
                .message
                .contains("lone surrogate"),
        );
        assert!(
            error(br#"{"t":0,"lift":"e2""#)
                .message
                .contains("cut short")
        );
        assert!(
            error(br#"{"t":0,"count":"x","input":"repeat"}"#)
                .message
                .starts_with("`count` must be a whole number, 1 or more, not \"x\"")
        );
        // A JSON escape in a string is read, not refused.
        let escaped = read(&br#"{"t":0,"lift":"e\u0032"}"#[..], "x").expect("escape");
        assert_eq!(
            escaped[0].reading,
            Reading::Lift {
                board: "blind".into(),
                square: Square::E2
            }
        );
        // A huge value is named by its beginning only.
        let long = format!(r#"{{"t":0,"input":"{}"}}"#, "x".repeat(50_000));
        let message = error(long.as_bytes()).message;
        assert!(message.len() < 400, "{message}");
    }

    #[test]
    fn set_clock_values_past_their_range_are_refused_with_the_line() {
        let e = error(b"{\"t\":0,\"lift\":\"e2\"}\n{\"t\":900,\"input\":\"set_clock\",\"white_ms\":18446744073709551000}");
        assert_eq!(e.line, 2);
        assert!(
            e.message.contains("`white_ms` must be at most 360000000"),
            "{e}"
        );
        let e = error(br#"{"t":0,"input":"set_clock","black_moves":4000000000}"#);
        assert!(
            e.message.contains("`black_moves` must be at most 10000"),
            "{e}"
        );
        assert!(
            read(
                &br#"{"t":0,"input":"set_clock","white_ms":360000000}"#[..],
                "x"
            )
            .is_ok()
        );
    }

    #[test]
    fn a_line_longer_than_the_bound_is_refused_without_reading_it_whole() {
        // Endless NUL bytes, as /dev/zero gives: refused at the bound.
        let zeros = std::io::BufReader::new(std::io::repeat(0));
        let e = Reader::new(zeros, "/dev/zero")
            .next()
            .expect("an item")
            .expect_err("an error");
        assert_eq!(e.line, 1);
        assert_eq!(e.kind, ErrorKind::Malformed);
        assert!(e.message.contains("longer than 65536 bytes"), "{e}");
        // A line of exactly the bound is still read; one byte more is not.
        let line = r#"{"t":0,"lift":"e2"}"#;
        let text = format!("{line}{}\n", " ".repeat(MAX_LINE_BYTES - line.len()));
        assert!(read(text.as_bytes(), "x").is_ok());
        let text = format!("{line}{}\n", " ".repeat(MAX_LINE_BYTES + 1 - line.len()));
        assert!(error(text.as_bytes()).message.contains("longer than"));
    }

    #[test]
    fn a_torn_last_line_is_told_apart_from_damage_inside() {
        let good = "{\"t\":0,\"lift\":\"e2\"}\n{\"t\":500,\"place\":\"e4\"}\n";
        for tail in [
            "{\"t\":900,\"lif".to_string(),
            "{\"t\":900,\"lift\":\"g1\"}".replace('}', "") + "\n",
            "\0\0\0\0\0\0\0\0".to_string(),
            "{\"t\":900,\"li\0\0\0\0\n\0\0\0\n\n".to_string(),
        ] {
            let text = format!("{good}{tail}");
            let items: Vec<_> = Reader::new(text.as_bytes(), "x").collect();
            assert_eq!(items.len(), 3, "{tail:?}");
            assert!(items[..2].iter().all(Result::is_ok));
            let e = items[2].as_ref().expect_err("the torn line");
            assert_eq!((e.kind, e.line), (ErrorKind::Torn, 3), "{tail:?}");
        }
        // A whole last line that says something wrong is no power cut.
        let e = error(format!("{good}{{\"t\":900,\"lift\":\"e9\"}}\n").as_bytes());
        assert_eq!((e.kind, e.line), (ErrorKind::Malformed, 3));
        // Damage followed by more lines is no power cut either.
        let text = format!("{good}\0\0\0\n{{\"t\":900,\"lift\":\"g1\"}}\n");
        let e = error(text.as_bytes());
        assert_eq!((e.kind, e.line), (ErrorKind::Malformed, 3));
    }
}
