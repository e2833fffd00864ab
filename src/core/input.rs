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
    /// The arbiter stops both times (6.12).
    Pause,
    /// The arbiter restarts the time that was running.
    Resume,
    /// The arbiter sets times and move counters (6.10b, 6.13); what is not
    /// given stays as it is.
    SetClock(ClockSetting),
    /// The arbiter rules that this player completed an illegal move (7.4b):
    /// the opponent gets two minutes; the third loses.
    IllegalMove(Color),
    /// This player, to move with less than two minutes, claims a draw
    /// under 10.2: the opponent gets two minutes, the arbiter decides.
    QuickplayClaim(Color),
    /// This player claims that the opponent's flag has fallen (A4d, E2.9e).
    FlagClaim(Color),
    /// The board's sensors stopped answering (a cable pulled, a scanner
    /// silent). The game is kept; the player is told.
    BoardLost,
    /// The sensors answer again. What changed meanwhile was not seen
    /// happening: a board that no single move explains is a mismatch with
    /// guidance, never an illegal move.
    BoardBack,
}

/// What the arbiter sets on the clock; `None` leaves a value as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClockSetting {
    pub white_ms: Option<u64>,
    pub black_ms: Option<u64>,
    pub white_moves: Option<u32>,
    pub black_moves: Option<u32>,
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
            Input::Pause => "pause",
            Input::Resume => "resume",
            Input::SetClock(_) => "set_clock",
            Input::IllegalMove(_) => "illegal_move",
            Input::QuickplayClaim(_) => "quickplay_claim",
            Input::FlagClaim(_) => "flag_claim",
            Input::BoardLost => "board_lost",
            Input::BoardBack => "board_back",
        }
    }
}
