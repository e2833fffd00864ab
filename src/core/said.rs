//! What an event says: the words, or the facts they are made of.
//!
//! The core decides what the player is told and says it as facts
//! ([`Said::Notice`] …); the words are made at the edge, in the configured
//! language, by `announce` (`Phrasebook::tell`), before any output sees
//! the event. Where the core still makes its own words, they come as
//! [`Said::Text`].

use serde::{Serialize, Serializer};
use shakmaty::{Chess, Move, Piece, Square};

use crate::core::notices::{Notice, OnlineNotice, PracticeNotice};

/// How the parts of a [`Said::Joined`] are put together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Joint {
    /// With a space between them.
    Space,
    /// As sentences: each ends with a full stop (unless it ends with one,
    /// or `!` or `?`), a space between them.
    Sentences,
    /// With a full stop and a space between them (moves said in turn).
    Stops,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// The words, made.
    Text(String),
    /// A notice of the game, the clock or the board.
    Notice(Notice),
    /// A notice of practice against the engine.
    Practice(PracticeNotice),
    /// A notice of a game online.
    Online(OnlineNotice),
    /// The move number and who is to move in `position`.
    MoveNumber(Box<Chess>),
    /// A move with its number, by the player to move in `before`.
    NumberedMove {
        number: u32,
        before: Box<Chess>,
        m: Move,
    },
    /// A move in the style its player's moves are said in, in `before`.
    Move { before: Box<Chess>, m: Move },
    /// A move in the long form (from where to where), in `before`.
    LongMove { before: Box<Chess>, m: Move },
    /// Both clocks' times; the moves completed and, in a period with a
    /// move count, the moves left to the control.
    Times {
        completed: u32,
        white_ms: u64,
        black_ms: u64,
        moves_to_control: Option<u32>,
    },
    /// What differs between a board and the game: pieces missing where
    /// they belong, and squares to empty.
    Mismatch {
        missing: Vec<(Square, Piece)>,
        extra: Vec<Square>,
    },
    /// The last moves again, each a [`Said::NumberedMove`], oldest first.
    MovesAgain(Vec<Said>),
    /// What stands on each square of `rank` in `position`, a- to h-file.
    Rank {
        position: Box<Chess>,
        rank: shakmaty::Rank,
    },
    /// What stands on each square of `file`, from the first rank up.
    File {
        position: Box<Chess>,
        file: shakmaty::File,
    },
    /// What stands on `square`.
    Square {
        position: Box<Chess>,
        square: Square,
    },
    /// The whole position, as piece lists.
    Position(Box<Chess>),
    /// The material balance.
    Material(crate::core::material::Balance),
    /// `Color` offers a draw (9.1).
    DrawOffer(shakmaty::Color),
    /// The engine is in trouble.
    EngineTrouble(crate::core::notices::EngineTrouble),
    /// `Color`'s time is low: `ms` left (12.6's warning).
    TimeWarning { color: shakmaty::Color, ms: u64 },
    /// `Color`'s flag has fallen.
    Flag(shakmaty::Color),
    /// `ms` added to `Color`'s time (a penalty of the opponent's).
    TimeAdded { color: shakmaty::Color, ms: u64 },
    /// `Color`, offered a draw, touched a piece: the offer lapsed.
    DrawDeclined(shakmaty::Color),
    /// A pawn on its last rank without its new piece yet.
    PromotionPending(Square),
    /// The new piece put on the promotion square before the pawn was taken
    /// off (2008's 4.6c): not yet a move.
    PromotionUnmade(Square),
    /// An illegal move: what the board must become again.
    Illegal {
        missing: Vec<(Square, Piece)>,
        extra: Vec<Square>,
    },
    /// Moves that may have been made unseen, from `before`.
    Unconfirmed {
        before: Box<Chess>,
        moves: Vec<Move>,
    },
    /// Parts said together.
    Joined(Vec<Said>, Joint),
}

impl Said {
    /// The words, once made at the edge; empty while they are facts.
    pub fn as_str(&self) -> &str {
        match self {
            Said::Text(words) => words,
            _ => "",
        }
    }

    /// Whether the words are made.
    pub fn is_words(&self) -> bool {
        matches!(self, Said::Text(_))
    }
}

impl From<String> for Said {
    fn from(words: String) -> Said {
        Said::Text(words)
    }
}

impl From<&str> for Said {
    fn from(words: &str) -> Said {
        Said::Text(words.to_string())
    }
}

impl From<Notice> for Said {
    fn from(notice: Notice) -> Said {
        Said::Notice(notice)
    }
}

impl From<PracticeNotice> for Said {
    fn from(notice: PracticeNotice) -> Said {
        Said::Practice(notice)
    }
}

impl From<OnlineNotice> for Said {
    fn from(notice: OnlineNotice) -> Said {
        Said::Online(notice)
    }
}

/// Its words; a fact not yet put in words shows as its name in braces.
impl std::fmt::Display for Said {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Said::Text(words) => f.write_str(words),
            fact => write!(f, "{{{fact:?}}}"),
        }
    }
}

/// Written as its words. Facts never reach an output unmade; should one,
/// it is written as the fact's name in braces, for the error to be seen.
impl Serialize for Said {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Said::Text(words) => s.serialize_str(words),
            fact => s.serialize_str(&fact.to_string()),
        }
    }
}
