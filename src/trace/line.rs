//! One line read: its JSON object taken apart into a [`Reading`], or an
//! error that says what is wrong with it in the line's own terms.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use shakmaty::{Bitboard, Square};

use super::explain::explain;
use super::reading::{Header, MAX_T_MS, Reading};
use crate::core::clock::TimeControl;
use crate::core::input::InputFields;
use crate::core::{Input, StartPosition};

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
    cp: Option<i64>,
    mate: Option<i64>,
    depth: Option<u32>,
    #[serde(borrow)]
    line: Option<Cow<'a, str>>,
    #[serde(borrow)]
    eco: Option<Cow<'a, str>>,
    #[serde(borrow)]
    family: Option<Cow<'a, str>>,
    #[serde(borrow)]
    moves: Option<Cow<'a, str>>,
    analyses: Option<Vec<crate::core::input::WrittenAnalysis>>,
    #[serde(borrow)]
    menu: Option<Cow<'a, str>>,
    game: Option<crate::core::online::OnlineGame>,
    games: Option<Vec<crate::core::online::OnlineChoice>>,
    #[serde(borrow)]
    status: Option<Cow<'a, str>>,
    seconds: Option<u32>,
    #[serde(borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(borrow)]
    notice: Option<Cow<'a, str>>,
    #[serde(borrow)]
    trouble: Option<Cow<'a, str>>,
    tags: Option<std::collections::BTreeMap<String, String>>,
    white_moves_on: Option<String>,
    black_moves_on: Option<String>,
    #[serde(borrow)]
    laws: Option<Cow<'a, str>>,
    after: Option<String>,
    keys: Option<u16>,
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
            cp: line.cp,
            mate: line.mate,
            depth: line.depth,
            line: line.line.as_deref(),
            eco: line.eco.as_deref(),
            family: line.family.as_deref(),
            moves: line.moves.as_deref(),
            analyses: line.analyses.as_deref(),
            menu: line.menu.as_deref(),
            game: line.game.as_ref(),
            games: line.games.as_deref(),
            status: line.status.as_deref(),
            seconds: line.seconds,
            name: line.name.as_deref(),
            text: line.text.as_deref(),
            notice: line.notice.as_deref(),
            trouble: line.trouble.as_deref(),
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
            || line.black_moves_on.is_some()
            || line.laws.is_some()
            || line.after.is_some())
    {
        return Err(
            "`start`, `variant`, `time_control`, `tags`, `white_moves_on`, `black_moves_on`, \
             `laws` and `after` belong to the header line"
                .to_string(),
        );
    }
    if line.input.is_none()
        && (line.piece.is_some()
            || line.color.is_some()
            || line.square.is_some()
            || line.menu.is_some())
    {
        return Err("`piece`, `color`, `square` and `menu` belong to `input` lines".to_string());
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
        let laws = match line.laws.as_deref() {
            None => None,
            Some(name) => Some(crate::core::laws::Edition::parse(name).ok_or_else(|| {
                format!(
                    "`laws` must be \"2023\" or \"2008\" (the edition of the FIDE Laws), not \"{}\"",
                    crate::text::quote::short(name)
                )
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
            laws,
            after: line.after.clone(),
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
