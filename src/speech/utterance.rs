//! What the speech output is given: words, an optional earcon, and how
//! urgent it is.

use serde::Deserialize;

use crate::core::{Event, Stamped};

/// Short sounds that say what happened before any word is spoken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Earcon {
    Touched,
    Illegal,
    Mismatch,
    Restored,
    Promotion,
    LowTime,
    Flag,
    GameOver,
}

impl Earcon {
    pub const ALL: [Earcon; 8] = [
        Earcon::Touched,
        Earcon::Illegal,
        Earcon::Mismatch,
        Earcon::Restored,
        Earcon::Promotion,
        Earcon::LowTime,
        Earcon::Flag,
        Earcon::GameOver,
    ];

    /// The name used in the configuration and for the sound file
    /// (`sounds/earcons/NAME.wav`).
    pub fn name(self) -> &'static str {
        match self {
            Earcon::Touched => "touched",
            Earcon::Illegal => "illegal",
            Earcon::Mismatch => "mismatch",
            Earcon::Restored => "restored",
            Earcon::Promotion => "promotion",
            Earcon::LowTime => "low_time",
            Earcon::Flag => "flag",
            Earcon::GameOver => "game_over",
        }
    }
}

/// Which earcons are played (`[earcons]` in the configuration).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EarconSwitches {
    pub touched: bool,
    pub illegal: bool,
    pub mismatch: bool,
    pub restored: bool,
    pub promotion: bool,
    pub low_time: bool,
    pub flag: bool,
    pub game_over: bool,
}

impl Default for EarconSwitches {
    fn default() -> Self {
        EarconSwitches {
            touched: true,
            illegal: true,
            mismatch: true,
            restored: true,
            promotion: true,
            low_time: true,
            flag: true,
            game_over: true,
        }
    }
}

impl EarconSwitches {
    pub fn all_off() -> EarconSwitches {
        EarconSwitches {
            touched: false,
            illegal: false,
            mismatch: false,
            restored: false,
            promotion: false,
            low_time: false,
            flag: false,
            game_over: false,
        }
    }

    pub fn on(&self, e: Earcon) -> bool {
        match e {
            Earcon::Touched => self.touched,
            Earcon::Illegal => self.illegal,
            Earcon::Mismatch => self.mismatch,
            Earcon::Restored => self.restored,
            Earcon::Promotion => self.promotion,
            Earcon::LowTime => self.low_time,
            Earcon::Flag => self.flag,
            Earcon::GameOver => self.game_over,
        }
    }
}

/// What an utterance is about; it decides what may interrupt what
/// (see [`super::queue`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A move announcement (E2.3c).
    Move,
    /// Other game talk that must be heard: illegal move, touch-move breach,
    /// promotion question, game over.
    Game,
    /// The board differs from the game, or matches again: newer guidance
    /// replaces older.
    Board,
    /// An answer to the player's question.
    Answer,
    /// Anything else: a touch, a draw offer.
    Notice,
    /// A clock readout.
    Time,
}

impl Kind {
    /// Move, game and board talk is never dropped for other talk.
    pub fn urgent(self) -> bool {
        matches!(self, Kind::Move | Kind::Game | Kind::Board)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Utterance {
    pub kind: Kind,
    pub earcon: Option<Earcon>,
    /// The words; may be empty when only the earcon is played.
    pub text: String,
    /// The ply of the move announced, for [`Kind::Move`].
    pub ply: Option<u32>,
    /// Loudness in percent of the voice's own volume (12.6: clock warnings
    /// may be quieter so as not to disturb the opponent).
    pub volume: u8,
    /// Words for the player's ears only (the console's secret): no report
    /// of a voice's failure repeats any of them.
    pub private: bool,
}

/// How events become utterances: which earcons play, and how loud the
/// clock's warnings are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivery {
    pub earcons: EarconSwitches,
    /// Percent of the voice's volume for low-time warnings.
    pub warning_volume: u8,
}

impl Default for Delivery {
    fn default() -> Self {
        Delivery {
            earcons: EarconSwitches::default(),
            warning_volume: 100,
        }
    }
}

impl Utterance {
    /// Plain words, e.g. for `pegboard say`.
    pub fn words(kind: Kind, text: impl Into<String>) -> Utterance {
        Utterance {
            kind,
            earcon: None,
            text: text.into(),
            ply: None,
            volume: 100,
            private: false,
        }
    }

    /// Words for the player's ears only: said like any, but a voice's
    /// failure to say them is told without them.
    pub fn private(kind: Kind, text: impl Into<String>) -> Utterance {
        Utterance {
            private: true,
            ..Utterance::words(kind, text)
        }
    }

    /// The loudness as a factor of the voice's own volume.
    pub fn gain(&self) -> f32 {
        f32::from(self.volume.min(100)) / 100.0
    }

    /// What an event gives the speech output, if anything. Events that are
    /// not spoken (`ready`, `announced`) and a touch with its earcon off
    /// give nothing.
    pub fn of(stamped: &Stamped, delivery: &Delivery) -> Option<Utterance> {
        let mut volume = 100;
        // What happens on another board is for its own player (the mirror
        // shows it); the blind player hears the moves made there.
        if stamped
            .event
            .board()
            .is_some_and(|b| b != crate::core::BLIND_BOARD)
            && !matches!(stamped.event, Event::Move { .. })
        {
            return None;
        }
        let (kind, earcon, ply) = match &stamped.event {
            Event::Ready { say: None, .. } | Event::Announced { .. } | Event::Clock { .. } => {
                return None;
            }
            // What the game is: a move never waits behind it.
            Event::Ready { say: Some(_), .. } => (Kind::Notice, None, None),
            Event::Flag { .. } => (Kind::Game, Some(Earcon::Flag), None),
            Event::TimeWarning { .. } => {
                volume = delivery.warning_volume;
                (Kind::Time, Some(Earcon::LowTime), None)
            }
            Event::Touch { .. } => (Kind::Notice, Some(Earcon::Touched), None),
            Event::Move { ply, .. } => (Kind::Move, None, Some(*ply)),
            Event::PromotionPending { .. } | Event::PromotionUnmade { .. } => {
                (Kind::Game, Some(Earcon::Promotion), None)
            }
            Event::TouchViolation { .. } => (Kind::Game, Some(Earcon::Illegal), None),
            Event::Illegal { .. } => (Kind::Game, Some(Earcon::Illegal), None),
            Event::Mismatch { .. } => (Kind::Board, Some(Earcon::Mismatch), None),
            Event::Restored { .. } => (Kind::Board, Some(Earcon::Restored), None),
            Event::Unconfirmed { .. } => (Kind::Board, Some(Earcon::Mismatch), None),
            Event::GameOver { .. } => (Kind::Game, Some(Earcon::GameOver), None),
            Event::ArbiterCalled { .. } | Event::ArbiterComing { .. } => (Kind::Game, None, None),
            Event::SensorsLost { .. } | Event::SensorsBack { .. } => (Kind::Board, None, None),
            Event::BrailleLost { .. } | Event::BrailleBack { .. } => (Kind::Board, None, None),
            Event::Say { .. }
            | Event::Answer { .. }
            | Event::Hint { .. }
            | Event::Evaluation { .. }
            | Event::Review { .. }
            | Event::ReviewStep { .. }
            | Event::Threat { .. }
            | Event::Opening { .. }
            | Event::Menu { .. }
            | Event::OnlineGames { .. }
            | Event::OnlineChosen { .. }
            | Event::Choices { .. } => (Kind::Answer, None, None),
            Event::DrawOffer { .. }
            | Event::DrawDeclined { .. }
            | Event::Resumed { .. }
            | Event::NewGame { .. } => (Kind::Game, None, None),
            // The moves to repeat were each said as the move, in the long
            // form; after a retrace the squares are said.
            Event::Replicate { moves, .. } if !moves.is_empty() => return None,
            Event::Replicate { .. } => (Kind::Board, None, None),
            Event::Replicated { .. } | Event::TouchReported { .. } => return None,
            Event::Diverged { .. } => (Kind::Board, Some(Earcon::Mismatch), None),
            Event::Retraced { .. } | Event::Adjourned { .. } => (Kind::Game, None, None),
            Event::Refused { .. } => (Kind::Game, Some(Earcon::Illegal), None),
            Event::OnlineGame { .. }
            | Event::Online { .. }
            | Event::OnlineOffer { .. }
            | Event::OnlineOpponent { .. } => (Kind::Game, None, None),
            Event::OnlineRequest { .. } => (Kind::Answer, None, None),
            Event::OnlineNotice { .. } | Event::EngineTrouble { .. } => (Kind::Game, None, None),
            Event::OnlineChat { .. } => (Kind::Notice, None, None),
        };
        let earcon = earcon.filter(|&e| delivery.earcons.on(e));
        let text = stamped.event.spoken().unwrap_or_default().to_string();
        if text.is_empty() && earcon.is_none() {
            return None;
        }
        Some(Utterance {
            kind,
            earcon,
            text,
            ply,
            volume,
            private: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::event::MissingPiece;
    use crate::core::said::Said;

    fn said(event: Event) -> Option<String> {
        Utterance::of(&Stamped { t: 0, event }, &Delivery::default()).map(|u| u.text)
    }

    fn replicate(board: &str, moves: &[&str]) -> Event {
        Event::Replicate {
            board: board.into(),
            ply: 2,
            moves: moves.iter().map(|m| m.to_string()).collect(),
            missing: Vec::new(),
            extra: Vec::new(),
            say: Said::Text("Springer Gustav acht nach Felix sechs".into()),
        }
    }

    #[test]
    fn e2_7_the_blind_player_hears_his_own_board_and_every_move() {
        let diverged = |board: &str| Event::Diverged {
            board: board.into(),
            missing: vec![MissingPiece {
                square: "f3".into(),
                piece: "N".into(),
            }],
            extra: vec!["h3".into()],
            say: Said::Text("Brett stimmt nicht.".into()),
        };
        assert_eq!(
            said(diverged("blind")).as_deref(),
            Some("Brett stimmt nicht.")
        );
        // The sighted player's board is his (the mirror shows it).
        assert_eq!(said(diverged("sighted")), None);
        let moved_there = Event::Move {
            board: "sighted".into(),
            ply: 2,
            color: crate::core::event::Side(shakmaty::Color::Black),
            uci: "g8f6".into(),
            san: "Nf6".into(),
            say: Said::Text("Springer Gustav acht nach Felix sechs".into()),
            fen: String::new(),
            made: None,
        };
        assert!(
            said(moved_there).is_some(),
            "a move on any board is announced"
        );
        // Moves to repeat were said as the moves; a retrace is said.
        assert_eq!(said(replicate("blind", &["g8f6"])), None);
        assert_eq!(said(replicate("blind", &["e2e4", "e7e5"])), None);
        assert!(said(replicate("blind", &[])).is_some());
        assert_eq!(said(replicate("sighted", &[])), None);
    }
}
