//! What an event says: the words, or the facts they are made of.
//!
//! The core decides what the player is told and says it as facts
//! ([`Said::Notice`] …); the words are made at the edge, in the configured
//! language, by `announce`'s narrator, before any output sees
//! the event, which then carries them as [`Said::Text`].

use serde::{Serialize, Serializer};
use shakmaty::{Chess, Color, KnownOutcome, Move, Piece, Role, Square};

use crate::core::analysis::{Loss, Standing};
use crate::core::clock::TimeControl;
use crate::core::laws::Reason;
use crate::core::notices::{MenuSaid, Notice, OnlineNotice, PracticeNotice, Rematch};
use crate::core::online::{OnlineGame, ServerNotice};
use crate::core::opening::{Eco, Family};
use crate::core::relay::Unplayable;
use crate::core::settings::Opponent;

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
    /// `Color` may not adjust a piece: it is not his move (4.2).
    AdjustRefused(Color),
    /// A draw offered before both players have moved (today's 5.2.3).
    DrawTooEarly,
    /// There is no draw offer of `Color`'s to decline (9.1).
    NoDrawOffer(Color),
    /// A claim made after the claimant touched a piece (9.4).
    ClaimAfterTouch,
    /// A relayed move that cannot be played, `to_move` having the move.
    Unplayable { why: Unplayable, to_move: Color },
    /// A relayed move that can no longer be taken back.
    TakeBackRefused,
    /// A touched piece (`role` on `square`) must be moved, or, `capture`,
    /// taken (4.3).
    TouchViolation {
        role: Role,
        square: Square,
        capture: bool,
    },
    /// A piece (`role`) let go on `square` must stay there (4.6).
    ReleasedViolation { role: Role, square: Square },
    /// The arbiter set the clocks, to these times (a [`Said::Times`]) if
    /// there are any.
    ClockSet(Option<Box<Said>>),
    /// What the game is, as it begins.
    GameBegins {
        opponent: Opponent,
        color: Color,
        control: Option<TimeControl>,
    },
    /// How the game ended.
    GameOver {
        reason: Reason,
        outcome: KnownOutcome,
        by: Option<Color>,
    },
    /// The opening played: its code and family, as far as they are known.
    Opening {
        eco: Option<Eco>,
        family: Option<Family>,
    },
    /// The engine's hint: the whole move.
    Hint { before: Box<Chess>, m: Move },
    /// The engine's hint: the piece to move only.
    HintPiece(Move),
    /// What the opponent threatens.
    Threat { position: Box<Chess>, m: Move },
    /// Who stands better.
    Standing(Standing),
    /// Who stands better after move `number` of `mover`'s.
    AfterMove {
        number: u32,
        mover: Color,
        standing: Standing,
    },
    /// Mistake `index` (from 1) of `count` in a review: move `number`,
    /// `played` in `before`, what it gave away, the engine's better move
    /// and its line after it.
    ReviewStep {
        index: usize,
        count: usize,
        number: u32,
        before: Box<Chess>,
        played: Move,
        loss: Loss,
        better: Option<Move>,
        line: Vec<Move>,
    },
    /// The review's position before move `number` is set up to play on.
    ReviewPosition(u32),
    /// A game online begins: the opponent, the colour, the start.
    OnlineGame(Box<OnlineGame>),
    /// The games online to choose from: how many, and the first.
    OnlineGames { count: usize, first: Box<Said> },
    /// Game `number` of those to choose from.
    OnlineGameItem {
        number: usize,
        name: Option<String>,
        my_turn: bool,
    },
    /// The game online chosen (its [`Said::OnlineGameItem`]).
    OnlineGameChosen(Box<Said>),
    /// The server's news of the game.
    OnlineServerNotice(ServerNotice),
    /// The player may claim (a draw, `draw`, or the win) in `seconds`.
    OnlineClaimIn { seconds: u64, draw: bool },
    /// What becomes of a rematch with `name`.
    OnlineRematch { rematch: Rematch, name: String },
    /// `Color` offers to take a move back.
    OnlineTakeback(Color),
    /// `Color` left (and may claim in `seconds`), or is back (`None`).
    OnlineOpponent { color: Color, seconds: Option<u32> },
    /// A chat line of `name`'s.
    OnlineChat { name: String, text: String },
    /// A step of the spoken menu.
    Menu(MenuSaid),
    /// Parts said together.
    Joined(Vec<Said>, Joint),
    /// Nothing: the events around it say what there is to say.
    Nothing,
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
