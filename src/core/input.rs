//! Button, keypad and console actions (the trace's `input` lines).

use shakmaty::{Color, Role, Square};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// The promotion piece chosen (announced) for the pawn being promoted.
    Promote(Role),
    /// "J'adoube": the next lift-and-return is an adjustment (4.2).
    Adjust,
    /// That player presses the clock.
    Clock(Color),
    /// Say the last move again.
    Repeat,
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
            Input::Repeat => "repeat",
            Input::Times => "times",
            Input::Position => "position",
            Input::Square(_) => "square",
            Input::DrawOffer(_) => "draw_offer",
            Input::DrawClaim(_) => "draw_claim",
            Input::Resign(_) => "resign",
        }
    }
}
