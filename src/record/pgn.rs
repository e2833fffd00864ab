//! Reading games from PGN, for the demo and for building test traces.

use std::io;
use std::ops::ControlFlow;

use pgn_reader::{Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::san::San;
use shakmaty::{Chess, Move};

use crate::core::StartPosition;

/// A game as a PGN gives it: its start and its moves (what the simulated
/// hands play).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    pub start: crate::core::StartPosition,
    pub sans: Vec<String>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// A game read from PGN, with its tags of interest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnGame {
    pub white: String,
    pub black: String,
    pub event: String,
    pub date: String,
    pub record: GameRecord,
    /// The main line stopped at a null move (`--`, `Z0`), which no board can
    /// play; `record` holds the moves before it.
    pub truncated: bool,
    /// The mover's clock after each move of `record`, in ms, where the
    /// comment after it gives one (`{ [%clk 1:30:55] }`).
    pub clocks: Vec<Option<u64>>,
}

/// The clock reading in a move's comment, `[%clk h:mm:ss]` (seconds may
/// have a fraction, `[%clk 0:00:07.3]`), in ms. `None` if the comment has
/// no `%clk` command or its value is not a time.
pub fn clk_of(comment: &str) -> Option<u64> {
    let at = comment.find("[%clk")?;
    let rest = &comment[at + "[%clk".len()..];
    let value = rest[..rest.find(']')?].trim();
    let mut parts = value.split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let whole = |t: &str| -> Option<u64> {
        (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse().ok())
            .flatten()
    };
    let (h, m) = (whole(h)?, whole(m)?);
    let (secs, fraction) = s.split_once('.').unwrap_or((s, ""));
    let secs = whole(secs)?;
    if m >= 60 || secs >= 60 || (s.contains('.') && whole(fraction).is_none()) {
        return None;
    }
    // Tenths, hundredths or thousandths: the first three digits are ms.
    let ms: u64 = fraction
        .bytes()
        .chain(std::iter::repeat(b'0'))
        .take(3)
        .fold(0, |acc, b| acc * 10 + u64::from(b - b'0'));
    Some(((h * 60 + m) * 60 + secs) * 1000 + ms)
}

/// A SAN from a game record that names no legal move where it stands:
/// the SAN, and why (shakmaty's words: illegal, ambiguous, not SAN).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnplayableSan {
    pub san: String,
    pub why: String,
}

impl std::fmt::Display for UnplayableSan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.san, self.why)
    }
}

impl std::error::Error for UnplayableSan {}

/// Resolves a SAN from a game record. Records written by hand sometimes
/// leave out the capture sign (`Nd7` for `Nxd7`); that is accepted when the
/// move it can only mean is legal.
pub fn resolve_san(pos: &Chess, san: &str) -> Result<Move, UnplayableSan> {
    let unplayable = |why: String| UnplayableSan {
        san: san.to_string(),
        why,
    };
    let parsed = san.parse::<San>().map_err(|e| unplayable(e.to_string()))?;
    match parsed.to_move(pos) {
        Ok(m) => Ok(m),
        Err(e) => {
            if let San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } = parsed
            {
                let other = San::Normal {
                    role,
                    file,
                    rank,
                    capture: !capture,
                    to,
                    promotion,
                };
                if let Ok(m) = other.to_move(pos) {
                    return Ok(m);
                }
            }
            Err(unplayable(e.to_string()))
        }
    }
}

#[derive(Default)]
struct Tags {
    white: String,
    black: String,
    event: String,
    date: String,
    fen: Option<String>,
    chess960: bool,
    result: String,
}

struct Movetext {
    tags: Tags,
    sans: Vec<String>,
    clocks: Vec<Option<u64>>,
    truncated: bool,
    outcome: Option<String>,
}

struct Collector;

impl Visitor for Collector {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = PgnGame;

    fn begin_tags(&mut self) -> ControlFlow<PgnGame, Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<PgnGame> {
        let value = value.decode_utf8_lossy().to_string();
        match name {
            b"White" => tags.white = value,
            b"Black" => tags.black = value,
            b"Event" => tags.event = value,
            b"Date" => tags.date = value,
            b"FEN" => tags.fen = Some(value),
            b"Result" => tags.result = value,
            b"Variant" => {
                let v = value.to_ascii_lowercase();
                tags.chess960 = v.contains("960") || v.contains("fischer");
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<PgnGame, Movetext> {
        ControlFlow::Continue(Movetext {
            tags,
            sans: Vec::new(),
            clocks: Vec::new(),
            truncated: false,
            outcome: None,
        })
    }

    fn san(&mut self, movetext: &mut Movetext, san_plus: SanPlus) -> ControlFlow<PgnGame> {
        if movetext.truncated {
            return ControlFlow::Continue(());
        }
        if san_plus.san == San::Null {
            movetext.truncated = true;
        } else {
            movetext.sans.push(san_plus.san.to_string());
            movetext.clocks.push(None);
        }
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        movetext: &mut Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<PgnGame> {
        // A comment after a move of the main line (variations are skipped).
        if !movetext.truncated
            && let Some(last) = movetext.clocks.last_mut()
            && let Some(ms) = clk_of(&String::from_utf8_lossy(comment.as_bytes()))
        {
            *last = Some(ms);
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _movetext: &mut Movetext) -> ControlFlow<PgnGame, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, movetext: &mut Movetext, outcome: Outcome) -> ControlFlow<PgnGame> {
        movetext.outcome = Some(outcome.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, m: Movetext) -> PgnGame {
        let result = m
            .outcome
            .filter(|o| o != "*")
            .unwrap_or_else(|| m.tags.result.clone());
        PgnGame {
            white: m.tags.white,
            black: m.tags.black,
            event: m.tags.event,
            date: m.tags.date,
            record: GameRecord {
                start: StartPosition {
                    start: m.tags.fen.unwrap_or_else(|| "startpos".to_string()),
                    chess960: m.tags.chess960,
                },
                sans: m.sans,
                result: if result.is_empty() {
                    "*".to_string()
                } else {
                    result
                },
            },
            truncated: m.truncated,
            clocks: m.clocks,
        }
    }
}

/// A tag pair line whose value holds quotes left unescaped, as some
/// exporters write them (`[Source "... test "andre game" ..."]`), with
/// those quotes escaped: the value runs to the line's last quote, as
/// python-chess reads it. Other lines are kept as they are.
fn escape_tag_quotes(line: &str) -> Option<String> {
    let trimmed = line.trim_end();
    let inner = trimmed.strip_prefix('[')?.strip_suffix(']')?.trim_end();
    let open = inner.find('"')?;
    let name = &inner[..open];
    if name.trim().is_empty()
        || !name
            .trim()
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return None;
    }
    let value = inner[open + 1..].strip_suffix('"')?;
    let mut escaped = String::with_capacity(value.len() + 8);
    let mut chars = value.chars();
    let mut changed = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                escaped.push(c);
                if let Some(next) = chars.next() {
                    escaped.push(next);
                }
            }
            '"' => {
                escaped.push_str("\\\"");
                changed = true;
            }
            _ => escaped.push(c),
        }
    }
    changed.then(|| format!("[{name}\"{escaped}\"]"))
}

/// Every game in a PGN text.
pub fn read_games(pgn: &[u8]) -> io::Result<Vec<PgnGame>> {
    let text = String::from_utf8_lossy(pgn);
    let mut repaired = None::<String>;
    for (at, line) in text.split_inclusive('\n').scan(0, |at, l| {
        let here = *at;
        *at += l.len();
        Some((here, l))
    }) {
        if let Some(fixed) = escape_tag_quotes(line) {
            let r = repaired.get_or_insert_with(|| text[..at].to_string());
            r.push_str(&fixed);
            r.push('\n');
        } else if let Some(r) = repaired.as_mut() {
            r.push_str(line);
        }
    }
    let pgn = repaired.as_deref().map_or(pgn, str::as_bytes);
    // Tag values and comments longer than the PGN standard's 255 bytes are
    // read whole, as python-chess reads them.
    let mut reader = Reader::build(io::Cursor::new(pgn))
        .set_supported_tag_line_length(16 * 1024)
        .set_supported_comment_length(64 * 1024)
        .finish();
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut Collector)? {
        games.push(game);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clk_reads_hours_minutes_seconds_and_fractions() {
        assert_eq!(clk_of("[%clk 1:30:55]"), Some(5_455_000));
        assert_eq!(clk_of(" [%eval 0.3] [%clk 0:00:07.3] "), Some(7_300));
        assert_eq!(clk_of("[%clk 0:00:07.25]"), Some(7_250));
        assert_eq!(clk_of("[%clk 12:00:00]"), Some(43_200_000));
        assert_eq!(clk_of("no clock here"), None);
        assert_eq!(clk_of("[%clk 1:60:00]"), None);
        assert_eq!(clk_of("[%clk 1:30]"), None);
        assert_eq!(clk_of("[%clk 1:30:x5]"), None);
        assert_eq!(clk_of("[%clk 1:30:05"), None);
    }

    #[test]
    fn clocks_belong_to_the_move_before_them() {
        let pgn = b"1. e4 { [%clk 1:30:55] } 1... c5 2. Nf3 { ok (=) [%clk 0:01:02] } (2. Nc3 { [%clk 0:00:01] }) *\n";
        let games = read_games(pgn).expect("reads");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].record.sans, ["e4", "c5", "Nf3"]);
        assert_eq!(games[0].clocks, [Some(5_455_000), None, Some(62_000)]);
    }

    #[test]
    fn a_tag_value_with_unescaped_quotes_is_read_to_its_last_quote() {
        let pgn = b"[White \"A\"]\n[Source \"test \"andre game\" here\"]\n[Black \"B \\\"C\\\"\"]\n\n1. e4 *\n\n[White \"D\"]\n\n1. d4 *\n";
        let games = read_games(pgn).expect("reads");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].white, "A");
        assert_eq!(games[0].black, "B \"C\"");
        assert_eq!(games[0].record.sans, ["e4"]);
        assert_eq!(games[1].white, "D");
    }
}
