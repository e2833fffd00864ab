//! Button, keypad and console actions (the trace's `input` lines).

use shakmaty::{Color, File, Rank, Role, Square};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// The promotion piece chosen (announced) for the pawn being promoted.
    Promote(Role),
    /// "J'adoube": the next lift-and-return is an adjustment (4.2).
    Adjust,
    /// That player presses the clock.
    Clock(Color),
    /// Say the last move again, or the last N moves (oldest first).
    Repeat(u32),
    /// Say the move number and who is to move.
    MoveNumber,
    /// Read out one rank, a-file to h-file.
    Rank(Rank),
    /// Read out one file, first rank to eighth.
    File(File),
    /// The speech output has started to announce the move of this ply
    /// (E2.3c): the move counts as announced from this instant.
    Announced(u32),
    /// Say both clock times.
    Times,
    /// Read out the position.
    Position,
    /// Say what stands on a square.
    Square(Square),
    DrawOffer(Color),
    DrawClaim(Color),
    Resign(Color),
}

impl Input {
    /// The input's name as written in a trace.
    pub fn name(&self) -> &'static str {
        match self {
            Input::Promote(_) => "promote",
            Input::Adjust => "adjust",
            Input::Clock(_) => "clock",
            Input::Repeat(_) => "repeat",
            Input::MoveNumber => "move_number",
            Input::Rank(_) => "rank",
            Input::File(_) => "file",
            Input::Announced(_) => "announced",
            Input::Times => "times",
            Input::Position => "position",
            Input::Square(_) => "square",
            Input::DrawOffer(_) => "draw_offer",
            Input::DrawClaim(_) => "draw_claim",
            Input::Resign(_) => "resign",
        }
    }
}
