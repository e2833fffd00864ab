//! What a trace says: its lines' readings, the header, and an entry with
//! its instant and line number.

use shakmaty::{Bitboard, Square};

use crate::core::clock::TimeControl;
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
    /// player's board: a board's name, "relay" or "engine" (overrides
    /// `[game]`).
    pub white_moves_on: Option<String>,
    pub black_moves_on: Option<String>,
    /// The edition of the Laws the game is played under (overrides
    /// `[game] laws`); a journal's header always says it.
    pub laws: Option<crate::core::laws::Edition>,
    /// This game's start is for it alone (a mistake's position the review
    /// set up): the start the game after it begins from (a FEN or
    /// `startpos`, of the same variant). A board that does not show this
    /// game's start when it begins is guided to it before a move counts.
    pub after: Option<String>,
}

impl Header {
    /// `settings` with what this header fixes for its game: the time
    /// control and where each player moves.
    pub fn apply(&self, settings: &mut crate::core::Settings) {
        use crate::core::Seat;
        use crate::core::settings::{Opponent, Strength};
        use shakmaty::Color;
        if self.time_control.is_some() {
            settings.clock.control = self.time_control.clone();
            settings.preferences.control = self.time_control.clone();
        }
        let seat = Seat::parse;
        if let Some(w) = &self.white_moves_on {
            settings.seats.white = seat(w);
        }
        if let Some(b) = &self.black_moves_on {
            settings.seats.black = seat(b);
        }
        // The next game (after `new_game`) is what the spoken menu starts
        // from, which follows this game's seats, as `play` makes it from
        // the configuration that gave them: against the engine (at its
        // default step when the settings name none), the blind player
        // the other colour.
        let engine = [Color::White, Color::Black]
            .into_iter()
            .find(|c| *settings.seats.of(*c) == Seat::Engine);
        if let Some(engine) = engine
            && !matches!(settings.preferences.opponent, Opponent::Engine(_))
        {
            settings.preferences.opponent =
                Opponent::Engine(Strength::configured(None, None, None));
            settings.preferences.color = !engine;
        }
        if let Some(laws) = self.laws {
            settings.laws = laws;
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

/// The latest instant a trace line may have: 10^12 ms, about 31 years.
/// Every sum of an instant and a clock time stays far inside 64 bits.
pub const MAX_T_MS: u64 = 1_000_000_000_000;
