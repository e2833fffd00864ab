//! Sensor traces, format 1 (`docs/trace-format.md`): reading and writing.
//!
//! A trace is JSON Lines: one object per line, blank lines and `#` lines
//! are comments. Every malformed line is an error that names the line and
//! says what is wrong with it.

use std::fmt;
use std::io::BufRead;

use serde::Deserialize;
use shakmaty::{Bitboard, Color, File, Rank, Role, Square};

use crate::core::clock::TimeControl;
use crate::core::{ClockSetting, Input, StartPosition};

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
}

/// The header line: the start position and, if the game is played with a
/// clock, its time control.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Header {
    pub start: StartPosition,
    /// Overrides the configuration's `[clock]` control for this trace.
    pub time_control: Option<TimeControl>,
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

/// A trace that cannot be read: which file, which line, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceError {
    pub file: String,
    pub line: usize,
    pub message: String,
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

/// The fields a trace line may have.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line<'a> {
    t: Option<u64>,
    trace: Option<u64>,
    start: Option<String>,
    variant: Option<&'a str>,
    board: Option<&'a str>,
    occ: Option<&'a str>,
    lift: Option<&'a str>,
    place: Option<&'a str>,
    input: Option<&'a str>,
    piece: Option<&'a str>,
    color: Option<&'a str>,
    square: Option<&'a str>,
    count: Option<u32>,
    rank: Option<u32>,
    file: Option<&'a str>,
    ply: Option<u32>,
    time_control: Option<&'a str>,
    white_ms: Option<u64>,
    black_ms: Option<u64>,
    white_moves: Option<u32>,
    black_moves: Option<u32>,
}

/// Writes an occupancy word as 16 lowercase hexadecimal digits.
pub fn occ_to_hex(occ: Bitboard) -> String {
    format!("{:016x}", occ.0)
}

/// Reads an occupancy word: exactly 16 lowercase hexadecimal digits.
pub fn occ_from_hex(s: &str) -> Result<Bitboard, String> {
    let valid = s.len() == 16
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if !valid {
        return Err(format!(
            "`occ` must be exactly 16 lowercase hexadecimal digits, not \"{s}\""
        ));
    }
    u64::from_str_radix(s, 16)
        .map(Bitboard)
        .map_err(|e| format!("`occ` \"{s}\": {e}"))
}

fn square(field: &str, s: &str) -> Result<Square, String> {
    s.parse::<Square>()
        .map_err(|_| format!("`{field}` must be a square from a1 to h8, not \"{s}\""))
}

fn color(input: &str, c: Option<&str>) -> Result<Color, String> {
    match c {
        Some("white") => Ok(Color::White),
        Some("black") => Ok(Color::Black),
        Some(other) => Err(format!(
            "input `{input}`: `color` must be \"white\" or \"black\", not \"{other}\""
        )),
        None => Err(format!(
            "input `{input}` needs a `color` (\"white\" or \"black\")"
        )),
    }
}

fn input(line: &Line) -> Result<Input, String> {
    let name = line.input.unwrap_or_default();
    let uses_piece = name == "promote";
    let uses_color = matches!(
        name,
        "clock"
            | "draw_offer"
            | "draw_claim"
            | "resign"
            | "illegal_move"
            | "quickplay_claim"
            | "flag_claim"
    );
    let sets_clock = name == "set_clock";
    let uses_square = name == "square";
    for (field, present, used) in [
        ("piece", line.piece.is_some(), uses_piece),
        ("color", line.color.is_some(), uses_color),
        ("square", line.square.is_some(), uses_square),
        ("count", line.count.is_some(), name == "repeat"),
        ("rank", line.rank.is_some(), name == "rank"),
        ("file", line.file.is_some(), name == "file"),
        ("ply", line.ply.is_some(), name == "announced"),
        ("white_ms", line.white_ms.is_some(), sets_clock),
        ("black_ms", line.black_ms.is_some(), sets_clock),
        ("white_moves", line.white_moves.is_some(), sets_clock),
        ("black_moves", line.black_moves.is_some(), sets_clock),
    ] {
        if present && !used {
            return Err(format!("field `{field}` does not belong to input `{name}`"));
        }
    }
    Ok(match name {
        "promote" => Input::Promote(match line.piece {
            Some("q") => Role::Queen,
            Some("r") => Role::Rook,
            Some("b") => Role::Bishop,
            Some("n") => Role::Knight,
            Some(other) => {
                return Err(format!(
                    "input `promote`: `piece` must be q, r, b or n, not \"{other}\""
                ));
            }
            None => return Err("input `promote` needs a `piece` (q, r, b or n)".to_string()),
        }),
        "adjust" => Input::Adjust,
        "clock" => Input::Clock(color(name, line.color)?),
        "repeat" => match line.count {
            None => Input::Repeat(1),
            Some(n @ 1..) => Input::Repeat(n),
            Some(0) => return Err("input `repeat`: `count` must be at least 1".to_string()),
        },
        "move_number" => Input::MoveNumber,
        "rank" => match line.rank {
            Some(r @ 1..=8) => Input::Rank(Rank::new(r - 1)),
            Some(other) => {
                return Err(format!(
                    "input `rank`: `rank` must be a number from 1 to 8, not {other}"
                ));
            }
            None => return Err("input `rank` needs a `rank` (1 to 8)".to_string()),
        },
        "file" => match line.file.and_then(|f| {
            let mut chars = f.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => File::from_char(c),
                _ => None,
            }
        }) {
            Some(f) => Input::File(f),
            None => {
                return Err(format!(
                    "input `file` needs a `file` from \"a\" to \"h\"{}",
                    line.file
                        .map(|f| format!(", not \"{f}\""))
                        .unwrap_or_default()
                ));
            }
        },
        "announced" => match line.ply {
            Some(p @ 1..) => Input::Announced(p),
            _ => return Err("input `announced` needs a `ply` (1 or more)".to_string()),
        },
        "times" => Input::Times,
        "position" => Input::Position,
        "square" => match line.square {
            Some(s) => Input::Square(square("square", s)?),
            None => return Err("input `square` needs a `square`".to_string()),
        },
        "draw_offer" => Input::DrawOffer(color(name, line.color)?),
        "draw_claim" => Input::DrawClaim(color(name, line.color)?),
        "resign" => Input::Resign(color(name, line.color)?),
        "pause" => Input::Pause,
        "resume" => Input::Resume,
        "set_clock" => {
            let setting = ClockSetting {
                white_ms: line.white_ms,
                black_ms: line.black_ms,
                white_moves: line.white_moves,
                black_moves: line.black_moves,
            };
            if setting == ClockSetting::default() {
                return Err(
                    "input `set_clock` needs at least one of `white_ms`, `black_ms`, \
                     `white_moves`, `black_moves`"
                        .to_string(),
                );
            }
            Input::SetClock(setting)
        }
        "illegal_move" => Input::IllegalMove(color(name, line.color)?),
        "quickplay_claim" => Input::QuickplayClaim(color(name, line.color)?),
        "flag_claim" => Input::FlagClaim(color(name, line.color)?),
        other => {
            return Err(format!(
                "unknown input \"{other}\" (known: promote, adjust, clock, repeat, move_number, \
                 times, position, square, rank, file, draw_offer, draw_claim, resign, announced, \
                 pause, resume, set_clock, illegal_move, quickplay_claim, flag_claim)"
            ));
        }
    })
}

/// Parses one line. `Ok(None)` for blank and comment lines. `first` is true
/// until the first non-comment line has been read; `prev_t` is that of the
/// line before.
pub fn parse_line(text: &str, first: bool, prev_t: u64) -> Result<Option<(u64, Reading)>, String> {
    let trimmed = text.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(None);
    }
    let line: Line = serde_json::from_str(trimmed).map_err(|e| {
        let msg = e.to_string();
        // serde_json appends " at line 1 column N"; the line is ours to name.
        match msg.rfind(" at line ") {
            Some(i) => msg[..i].to_string(),
            None => msg,
        }
    })?;
    let t = line
        .t
        .ok_or("every line needs `t`, an integer number of milliseconds ≥ 0")?;
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
    ]
    .iter()
    .filter(|&&k| k)
    .count();
    if kinds == 0 {
        return Err(
            "the line is none of header (`trace`), raw scan (`occ`), `lift`, `place` or `input`"
                .to_string(),
        );
    }
    if kinds > 1 {
        return Err(
            "a line may be only one of header (`trace`), raw scan (`occ`), `lift`, `place` or `input`"
                .to_string(),
        );
    }
    if line.trace.is_none()
        && (line.start.is_some() || line.variant.is_some() || line.time_control.is_some())
    {
        return Err("`start`, `variant` and `time_control` belong to the header line".to_string());
    }
    if line.input.is_none()
        && (line.piece.is_some() || line.color.is_some() || line.square.is_some())
    {
        return Err("`piece`, `color` and `square` belong to `input` lines".to_string());
    }
    if (line.trace.is_some() || line.input.is_some()) && line.board.is_some() {
        return Err("`board` belongs to `occ`, `lift` and `place` lines".to_string());
    }
    let board = || line.board.unwrap_or(crate::core::BLIND_BOARD).to_string();
    let reading = if let Some(version) = line.trace {
        if !first {
            return Err("the header (`trace`) may only be the first line".to_string());
        }
        if version != 1 {
            return Err(format!(
                "trace format {version} is not supported; this pegboard reads format 1"
            ));
        }
        let chess960 = match line.variant {
            None | Some("standard") => false,
            Some("chess960") => true,
            Some(other) => {
                return Err(format!(
                    "`variant` must be \"standard\" or \"chess960\", not \"{other}\""
                ));
            }
        };
        let time_control = match line.time_control {
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
        })
    } else if let Some(occ) = line.occ {
        Reading::Scan {
            board: board(),
            occ: occ_from_hex(occ)?,
        }
    } else if let Some(sq) = line.lift {
        Reading::Lift {
            board: board(),
            square: square("lift", sq)?,
        }
    } else if let Some(sq) = line.place {
        Reading::Place {
            board: board(),
            square: square("place", sq)?,
        }
    } else {
        Reading::Input(input(&line)?)
    };
    Ok(Some((t, reading)))
}

/// Reads a whole trace. `file` names it in errors.
pub fn read<R: BufRead>(reader: R, file: &str) -> Result<Vec<Entry>, TraceError> {
    let mut entries = Vec::new();
    let mut prev_t = 0;
    for (i, text) in reader.lines().enumerate() {
        let line = i + 1;
        let text = text.map_err(|e| TraceError {
            file: file.to_string(),
            line,
            message: format!("cannot be read: {e}"),
        })?;
        match parse_line(&text, entries.is_empty(), prev_t) {
            Ok(Some((t, reading))) => {
                prev_t = t;
                entries.push(Entry { t, line, reading });
            }
            Ok(None) => {}
            Err(message) => {
                return Err(TraceError {
                    file: file.to_string(),
                    line,
                    message,
                });
            }
        }
    }
    Ok(entries)
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
            format!(
                r#"{{"t":{t},"trace":1,"start":{}{variant}{control}}}"#,
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
            let extra = match input {
                Input::Promote(role) => format!(r#","piece":"{}""#, role.char()),
                Input::Clock(c)
                | Input::DrawOffer(c)
                | Input::DrawClaim(c)
                | Input::Resign(c)
                | Input::IllegalMove(c)
                | Input::QuickplayClaim(c)
                | Input::FlagClaim(c) => {
                    format!(
                        r#","color":"{}""#,
                        match c {
                            Color::White => "white",
                            Color::Black => "black",
                        }
                    )
                }
                Input::Square(sq) => format!(r#","square":"{sq}""#),
                Input::Repeat(1) => String::new(),
                Input::Repeat(n) => format!(r#","count":{n}"#),
                Input::Rank(r) => format!(r#","rank":{}"#, u32::from(*r) + 1),
                Input::File(f) => format!(r#","file":"{}""#, f.char()),
                Input::Announced(ply) => format!(r#","ply":{ply}"#),
                Input::SetClock(c) => [
                    c.white_ms.map(|v| format!(r#","white_ms":{v}"#)),
                    c.black_ms.map(|v| format!(r#","black_ms":{v}"#)),
                    c.white_moves.map(|v| format!(r#","white_moves":{v}"#)),
                    c.black_moves.map(|v| format!(r#","black_moves":{v}"#)),
                ]
                .into_iter()
                .flatten()
                .collect(),
                _ => String::new(),
            };
            format!(r#"{{"t":{t},"input":"{}"{extra}}}"#, input.name())
        }
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
        assert!(err("{\"t\":-1,\"lift\":\"e2\"}").starts_with("x.jsonl:1: invalid value"));
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
}
