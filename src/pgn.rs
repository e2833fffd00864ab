//! Reading games from PGN, for the demo and for building test traces.

use std::io;
use std::ops::ControlFlow;

use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::san::San;

use crate::core::StartPosition;
use crate::sim::GameRecord;

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
        }
    }
}

/// Every game in a PGN text.
pub fn read_games(pgn: &[u8]) -> io::Result<Vec<PgnGame>> {
    let mut reader = Reader::new(io::Cursor::new(pgn));
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut Collector)? {
        games.push(game);
    }
    Ok(games)
}
