//! A game played online (on lichess): who plays whom, where, at what time
//! control, and how the server says it ended. Pure: the runtime's online
//! seat reads the server's streams and hands these in as inputs, which
//! the journal keeps, so that a replay needs no server.
//!
//! The server keeps the time (its clock is the clock) and says when the
//! game ended; pegboard's own clock runs between the server's readings
//! and never flags a player on its own.

use serde::{Deserialize, Serialize};
use shakmaty::{Color, KnownOutcome};

use super::StartPosition;
use super::clock::control::{Bonus, TimeControl};
use super::laws::Reason;
use super::settings::{BLIND_BOARD, Seat, Seats};

/// One player of an online game, as the server names him.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OnlinePlayer {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<u32>,
    /// The server's AI at this level, not a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai: Option<u8>,
}

/// The online game found: its id on the server, its address, the blind
/// player's colour in it, both players, the clock.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OnlineGame {
    pub id: String,
    /// The game's page (`Site` in the PGN).
    pub site: String,
    /// The blind player's colour, as the server gave it.
    #[serde(with = "color_name")]
    pub color: Color,
    pub white: OnlinePlayer,
    pub black: OnlinePlayer,
    /// The time each player starts with, none for a game without a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_ms: Option<u64>,
    #[serde(default)]
    pub increment_ms: u64,
    #[serde(default)]
    pub rated: bool,
    /// The start position, when the server's game does not begin from
    /// the standard one: a Chess960 game's, or a game's from a set
    /// position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_fen: Option<String>,
    /// Chess960's castling rules (Appendix F).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chess960: bool,
    /// Days a move, in a correspondence game (no clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
}

/// A game under way on the server that the player may take up (a
/// correspondence game of days a move): its id, the opponent's name, and
/// whether it is the player's move in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OnlineChoice {
    pub id: String,
    pub opponent: String,
    #[serde(default)]
    pub my_turn: bool,
}

impl OnlineChoice {
    /// Whether its fields are within reason; else what is wrong.
    pub(crate) fn check(&self) -> Result<(), String> {
        for (field, text) in [("id", &self.id), ("opponent", &self.opponent)] {
            if text.is_empty() || text.len() > MAX_TEXT || text.chars().any(char::is_control) {
                return Err(format!(
                    "`games[].{field}` must be 1 to {MAX_TEXT} bytes of text without control characters"
                ));
            }
        }
        Ok(())
    }
}

/// The most games under way an `online_games` input may list.
pub const MAX_CHOICES: usize = 50;

/// The largest name or address an online game's input may carry.
const MAX_TEXT: usize = 200;

impl OnlineGame {
    /// Whether its fields are within reason (names and addresses short, a
    /// clock under 100 hours); else what is wrong.
    pub(crate) fn check(&self) -> Result<(), String> {
        for (field, text) in [
            ("id", &self.id),
            ("site", &self.site),
            ("white.name", &self.white.name),
            ("black.name", &self.black.name),
        ] {
            if text.len() > MAX_TEXT || text.chars().any(char::is_control) {
                return Err(format!(
                    "`game.{field}` must be at most {MAX_TEXT} bytes of text without control characters"
                ));
            }
        }
        if self.id.is_empty() {
            return Err("`game.id` must not be empty".to_string());
        }
        if let Some(fen) = &self.initial_fen
            && (fen.len() > MAX_TEXT || fen.chars().any(char::is_control))
        {
            return Err(format!(
                "`game.initial_fen` must be at most {MAX_TEXT} bytes of text without control characters"
            ));
        }
        self.start()
            .position()
            .map_err(|e| format!("`game.initial_fen`: {e}"))?;
        if self.days.is_some_and(|d| d == 0 || d > 365) {
            return Err("`game.days` must be from 1 to 365".into());
        }
        let hours_100 = 360_000_000;
        if self.initial_ms.is_some_and(|ms| ms > hours_100) || self.increment_ms > hours_100 {
            return Err("`game.initial_ms` and `game.increment_ms` must be under 100 hours".into());
        }
        Ok(())
    }

    /// The position the game starts from, with its castling rules.
    pub fn start(&self) -> StartPosition {
        StartPosition {
            start: self
                .initial_fen
                .clone()
                .unwrap_or_else(|| "startpos".to_string()),
            chess960: self.chess960,
        }
    }

    /// How the server writes castling in UCI: the king to the squares
    /// it reaches in standard chess (`e1g1`), or onto its rook (`e1h1`)
    /// in Chess960 and in a game from a set position (lila's `UciDump`
    /// keeps the first for standard chess alone).
    pub fn castling_uci(&self) -> shakmaty::CastlingMode {
        if self.chess960 || self.initial_fen.is_some() {
            shakmaty::CastlingMode::Chess960
        } else {
            shakmaty::CastlingMode::Standard
        }
    }

    /// The opponent: the player of the other colour.
    pub fn opponent(&self) -> &OnlinePlayer {
        match self.color {
            Color::White => &self.black,
            Color::Black => &self.white,
        }
    }

    /// The time control the server plays: sudden death with a Fischer
    /// increment, or none.
    pub fn control(&self) -> Option<TimeControl> {
        let initial = self.initial_ms?;
        let bonus = if self.increment_ms > 0 {
            Bonus::Increment(self.increment_ms)
        } else {
            Bonus::None
        };
        Some(TimeControl::sudden_death(initial, bonus))
    }

    /// The seats of this game, from `base`: the blind player moves on his
    /// board (the board his colour had, or the blind player's board), the
    /// other colour's moves come from the server.
    pub fn seats(&self, base: &Seats) -> Seats {
        let board = [&base.white, &base.black]
            .into_iter()
            .find(|s| matches!(s, Seat::Board(_)))
            .cloned()
            .unwrap_or_else(|| Seat::Board(BLIND_BOARD.to_string()));
        let mine = match base.of(self.color) {
            Seat::Board(_) => base.of(self.color).clone(),
            _ => board,
        };
        match self.color {
            Color::White => Seats {
                white: mine,
                black: Seat::Lichess,
            },
            Color::Black => Seats {
                white: Seat::Lichess,
                black: mine,
            },
        }
    }
}

/// How the server says the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    /// The game is over: its outcome, why, and who resigned, lost on time
    /// or left.
    Over {
        outcome: KnownOutcome,
        reason: Reason,
        by: Option<Color>,
    },
    /// The game was aborted before it began: no result.
    Aborted,
}

/// The reasons every language file words (`[online.reasons]`): a
/// notice's `why` is one of these, else the server's own words. The first
/// eleven are why a challenge was declined (lichess's keys); the others
/// why lichess refused a request.
pub const REASONS: [&str; 19] = [
    "generic",
    "later",
    "too_fast",
    "too_slow",
    "time_control",
    "rated",
    "casual",
    "standard",
    "variant",
    "no_bot",
    "only_bot",
    "board_time_control",
    "too_many_games",
    "not_your_turn",
    "illegal_move",
    "no_claim",
    "no_claim_draw",
    "no_game",
    "no_user",
];

/// What the server said that the player is to hear, beyond the game's
/// moves, offers and end: each told once, as it happens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerNotice {
    /// Another game of the account's is under way on the server, against
    /// `opponent`; it is not played here.
    OtherGame { opponent: String },
    /// The server refused to find a game as the configuration asks, for
    /// `why` (one of [`REASONS`], else the server's own words): nothing
    /// more is asked until the game is changed.
    FindRefused { why: String },
    /// The player's challenge was declined by `by`, for `why` (one of
    /// [`REASONS`], else the server's words).
    Declined { by: String, why: String },
    /// The server refused the player's last move, for `why` (as above):
    /// the game goes on as the server has it.
    MoveRefused { why: String },
    /// The server refused the player's claim, for `why` (as above).
    ClaimRefused { why: String },
    /// The game is aborted, and counted against the player, unless he
    /// makes his first move within `seconds`.
    FirstMove { seconds: u32 },
    /// No game came of the rematch against `opponent` (no answer, the
    /// offer withdrawn, no opponent to ask): nothing more is asked until
    /// a new game.
    NoRematch { opponent: String },
    /// No lichess token is kept: no game can be found there until one
    /// is (`pegboard lichess-token`).
    NoToken,
    /// lichess refused the token kept (revoked, deleted): nothing reaches
    /// lichess until a new one is kept.
    TokenRefused,
    /// lichess knows the game played here no more (its stream answered
    /// that there is no such game): nothing of it reaches lichess.
    GameGone,
    /// A correspondence seek made before still waits in lichess's lobby
    /// for an opponent: no other is made.
    SeekWaiting,
}

impl ServerNotice {
    /// The notices' names, as the trace writes them.
    pub const NAMES: [&'static str; 11] = [
        "other_game",
        "find_refused",
        "declined",
        "move_refused",
        "claim_refused",
        "first_move",
        "no_rematch",
        "no_token",
        "token_refused",
        "game_gone",
        "seek_waiting",
    ];

    /// Its name, as the trace writes it.
    pub fn name(&self) -> &'static str {
        match self {
            ServerNotice::OtherGame { .. } => "other_game",
            ServerNotice::FindRefused { .. } => "find_refused",
            ServerNotice::Declined { .. } => "declined",
            ServerNotice::MoveRefused { .. } => "move_refused",
            ServerNotice::ClaimRefused { .. } => "claim_refused",
            ServerNotice::FirstMove { .. } => "first_move",
            ServerNotice::NoRematch { .. } => "no_rematch",
            ServerNotice::NoToken => "no_token",
            ServerNotice::TokenRefused => "token_refused",
            ServerNotice::GameGone => "game_gone",
            ServerNotice::SeekWaiting => "seek_waiting",
        }
    }

    /// Its `name` (a player) and `text` (the server's words), as the
    /// trace writes them.
    pub fn fields(&self) -> (Option<&str>, Option<&str>, Option<u32>) {
        match self {
            ServerNotice::OtherGame { opponent } | ServerNotice::NoRematch { opponent } => {
                (Some(opponent), None, None)
            }
            ServerNotice::FindRefused { why }
            | ServerNotice::MoveRefused { why }
            | ServerNotice::ClaimRefused { why } => (None, Some(why), None),
            ServerNotice::Declined { by, why } => (Some(by), Some(why), None),
            ServerNotice::FirstMove { seconds } => (None, None, Some(*seconds)),
            ServerNotice::NoToken
            | ServerNotice::TokenRefused
            | ServerNotice::GameGone
            | ServerNotice::SeekWaiting => (None, None, None),
        }
    }

    /// The notice `name` with its fields; else what is missing.
    pub(crate) fn from_fields(
        name: &str,
        who: Option<&str>,
        text: Option<&str>,
        seconds: Option<u32>,
    ) -> Result<ServerNotice, String> {
        let short = |s: Option<&str>, most: usize| {
            s.filter(|s| s.len() <= most && !s.chars().any(char::is_control))
                .map(str::to_string)
        };
        let (who, text) = (short(who, MAX_TEXT), short(text, 1000));
        Ok(match (name, who, text, seconds) {
            ("other_game", Some(opponent), None, None) => ServerNotice::OtherGame { opponent },
            ("find_refused", None, Some(why), None) => ServerNotice::FindRefused { why },
            ("declined", Some(by), Some(why), None) => ServerNotice::Declined { by, why },
            ("move_refused", None, Some(why), None) => ServerNotice::MoveRefused { why },
            ("claim_refused", None, Some(why), None) => ServerNotice::ClaimRefused { why },
            ("first_move", None, None, Some(seconds)) => ServerNotice::FirstMove { seconds },
            ("no_rematch", Some(opponent), None, None) => ServerNotice::NoRematch { opponent },
            ("no_token", None, None, None) => ServerNotice::NoToken,
            ("token_refused", None, None, None) => ServerNotice::TokenRefused,
            ("game_gone", None, None, None) => ServerNotice::GameGone,
            ("seek_waiting", None, None, None) => ServerNotice::SeekWaiting,
            _ => {
                return Err(format!(
                    "input `online_notice` needs a `notice` ({}) with its fields: `name` (at most \
                     {MAX_TEXT} bytes) for other_game, declined and no_rematch, `text` (at most 1000) for \
                     the refusals and declined, `seconds` for first_move; no control characters",
                    ServerNotice::NAMES.join(", ")
                ));
            }
        })
    }
}

/// The server's statuses for a game that ended (lichess's
/// `GameStatusName`), each with what pegboard makes of it.
pub const STATUSES: [&str; 12] = [
    "mate",
    "resign",
    "stalemate",
    "timeout",
    "draw",
    "outoftime",
    "insufficientMaterialClaim",
    "aborted",
    "noStart",
    "cheat",
    "variantEnd",
    "unknownFinish",
];

impl Finish {
    /// What the server's `status` and `winner` say; `None` for a status
    /// that is not an end (`started`, `created`) or not known.
    pub fn of(status: &str, winner: Option<Color>) -> Option<Finish> {
        let over = |reason: Reason| {
            Some(Finish::Over {
                outcome: match winner {
                    Some(w) => KnownOutcome::Decisive { winner: w },
                    None => KnownOutcome::Draw,
                },
                reason,
                by: winner.map(|w| !w),
            })
        };
        match status {
            "mate" => over(Reason::Checkmate),
            "resign" => over(Reason::Resignation),
            "stalemate" => over(Reason::Stalemate),
            "timeout" => over(Reason::Abandoned),
            // lila's `draw` is any draw: agreed, repeated, the 50 moves,
            // too little material. Only the game knows which (`online_end`).
            "draw" => over(Reason::Server),
            "outoftime" => over(Reason::Flag),
            "insufficientMaterialClaim" => over(Reason::InsufficientMaterial),
            "cheat" | "variantEnd" | "unknownFinish" => over(Reason::Server),
            "aborted" | "noStart" => Some(Finish::Aborted),
            _ => None,
        }
    }
}

/// A colour as the server and the trace write it: `white`, `black`.
mod color_name {
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Color;

    pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match c {
            Color::White => "white",
            Color::Black => "black",
        })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        match String::deserialize(d)?.as_str() {
            "white" => Ok(Color::White),
            "black" => Ok(Color::Black),
            other => Err(serde::de::Error::custom(format!(
                "`color` must be \"white\" or \"black\", not \"{}\"",
                crate::text::quote::short(other)
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(color: Color) -> OnlineGame {
        OnlineGame {
            id: "abcd1234".into(),
            site: "https://lichess.org/abcd1234".into(),
            color,
            white: OnlinePlayer {
                name: "Anna".into(),
                rating: Some(1650),
                ai: None,
            },
            black: OnlinePlayer {
                name: "Bert".into(),
                rating: None,
                ai: None,
            },
            initial_ms: Some(900_000),
            increment_ms: 10_000,
            rated: false,
            initial_fen: None,
            chess960: false,
            days: None,
        }
    }

    #[test]
    fn a_start_that_is_no_legal_position_is_refused_and_castling_follows_lila() {
        let standard = game(Color::White);
        assert!(standard.check().is_ok());
        assert_eq!(standard.castling_uci(), shakmaty::CastlingMode::Standard);
        let c960 = OnlineGame {
            initial_fen: Some("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1".into()),
            chess960: true,
            ..game(Color::White)
        };
        assert!(c960.check().is_ok());
        assert_eq!(c960.castling_uci(), shakmaty::CastlingMode::Chess960);
        let (_, mode) = c960.start().position().expect("a Chess960 start");
        assert_eq!(mode, shakmaty::CastlingMode::Chess960);
        let from = OnlineGame {
            initial_fen: Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1".into()),
            ..game(Color::White)
        };
        assert_eq!(from.castling_uci(), shakmaty::CastlingMode::Chess960);
        let broken = OnlineGame {
            initial_fen: Some("8/8/8/8/8/8/8/8 w - - 0 1".into()),
            ..game(Color::White)
        };
        assert!(broken.check().unwrap_err().contains("initial_fen"));
    }

    #[test]
    fn the_server_gives_the_colour_and_the_seats_follow() {
        let base = Seats {
            white: Seat::Board(BLIND_BOARD.into()),
            black: Seat::Lichess,
        };
        let black = game(Color::Black).seats(&base);
        assert_eq!(black.white, Seat::Lichess);
        assert_eq!(black.black, Seat::Board(BLIND_BOARD.into()));
        assert_eq!(game(Color::White).seats(&base), base);
        assert_eq!(game(Color::Black).opponent().name, "Anna");
    }

    #[test]
    fn the_servers_clock_is_sudden_death_with_its_increment() {
        let control = game(Color::White).control().expect("a clock");
        assert_eq!(control.to_pgn(), "900+10");
        let none = OnlineGame {
            initial_ms: None,
            ..game(Color::White)
        };
        assert!(none.control().is_none());
    }

    #[test]
    fn each_end_the_server_names_is_an_ending_and_no_other_status_is() {
        for status in STATUSES {
            assert!(Finish::of(status, Some(Color::White)).is_some(), "{status}");
        }
        assert_eq!(Finish::of("started", None), None);
        assert_eq!(Finish::of("created", None), None);
        assert_eq!(
            Finish::of("resign", Some(Color::Black)),
            Some(Finish::Over {
                outcome: KnownOutcome::Decisive {
                    winner: Color::Black
                },
                reason: Reason::Resignation,
                by: Some(Color::White),
            })
        );
        assert_eq!(Finish::of("aborted", None), Some(Finish::Aborted));
    }

    #[test]
    fn an_online_game_reads_back_as_it_was_written_and_refuses_nonsense() {
        let g = game(Color::Black);
        let text = serde_json::to_string(&g).expect("written");
        assert_eq!(serde_json::from_str::<OnlineGame>(&text).expect("read"), g);
        assert!(serde_json::from_str::<OnlineGame>(&text.replace("black\"", "blue\"")).is_err());
        let long = OnlineGame {
            site: "x".repeat(500),
            ..game(Color::White)
        };
        assert!(long.check().is_err());
        assert!(g.check().is_ok());
    }
}
