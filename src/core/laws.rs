//! The vocabulary of the Laws that the game and its words share: why a
//! game ended. A leaf: the core decides it, the phrasebook says it, and
//! neither reaches into the other for it.

use serde::Serialize;

/// Why a game ended. The names are those of the event stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    ThreefoldRepetition,
    FiftyMoves,
    /// The same position for the fifth time (9.6.1): drawn, no claim needed.
    FivefoldRepetition,
    /// 75 moves by each player without a pawn move or a capture, the last
    /// not mating (9.6.2): drawn, no claim needed.
    SeventyFiveMoves,
    Resignation,
    Agreement,
    /// A flag fell (6.9): lost, or drawn if the opponent cannot mate.
    Flag,
    /// Both flags fell in the last period (6.11b).
    BothFlags,
    /// A third completed illegal move (7.4b): lost, or drawn if the
    /// opponent cannot mate.
    IllegalMoves,
    /// Online: the opponent left the game and the player claimed the win
    /// (lichess's `timeout`).
    Abandoned,
    /// Online: the server ended the game for a reason of its own.
    Server,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::InsufficientMaterial => "insufficient_material",
            Reason::ThreefoldRepetition => "threefold_repetition",
            Reason::FiftyMoves => "fifty_moves",
            Reason::FivefoldRepetition => "fivefold_repetition",
            Reason::SeventyFiveMoves => "seventy_five_moves",
            Reason::Resignation => "resignation",
            Reason::Agreement => "agreement",
            Reason::Flag => "flag",
            Reason::BothFlags => "both_flags",
            Reason::IllegalMoves => "illegal_moves",
            Reason::Abandoned => "abandoned",
            Reason::Server => "server",
        }
    }
}
