//! Practice against the engine: the player's hint, evaluation, takeback
//! and draw offer, and the review after the game. The controller says
//! which position it wants the engine's judgement of
//! ([`Controller::wanted_analysis`]); the runtime asks the engine and
//! hands the answer in as the `analysis` input, so that everything said
//! here is decided from inputs alone, and a replay says the same.

use shakmaty::{Color, Position};

use super::*;
use crate::core::analysis::{Analysis, Score, Standing};
use crate::core::notices::PracticeNotice;
use crate::core::review::Review;
use crate::core::said::Said;
use crate::core::settings::Seat;

/// What practice keeps beside the game.
#[derive(Debug, Clone, Default)]
pub(super) struct Practice {
    /// The player asked at this ply for a hint, an evaluation, or the
    /// engine's answer to his draw offer.
    asked_at: Option<u32>,
    hint: bool,
    evaluation: bool,
    draw: bool,
    /// The player asked at this ply what the engine threatens.
    threat_at: Option<u32>,
    /// The ply at which the first hint (the piece alone) was given: a
    /// second there gives the whole move.
    hinted: Option<u32>,
    /// The engine's last judgement of the position now, kept so that a
    /// second hint needs no second search.
    known: Option<Analysis>,
    /// The review: of this game once it is over, or of the game before
    /// (the `past_game` input) until this one's first move.
    pub(super) review: Option<Review>,
    /// The review is of this game (else of the one before).
    pub(super) review_of_this_game: bool,
    /// The player asked for the review: the engine judges its positions,
    /// and the review begins when it has.
    pub(super) review_asked: bool,
    /// The player is stepping through the review's mistakes: the menu's
    /// next and back keys step, select sets the mistake's position up.
    pub(super) reviewing: bool,
    /// The review was judged whole while the spoken menu was open: it
    /// begins when the menu closes, not over it.
    pub(super) review_held: bool,
    /// The evaluation after this ply of the game under review was asked
    /// before the engine had judged it.
    pub(super) evaluation_after: Option<u32>,
    /// The clock as it stood when each move was made (before it), with
    /// the instant: index `p` is the move that made ply `p + 1`.
    clocks: Vec<Option<(u64, Clock)>>,
}

/// How far behind the engine must stand, in centipawns from its own side,
/// to accept a draw at once.
const ACCEPT_WHEN_WORSE: i32 = -50;
/// In a level position (within this), the engine accepts a draw once
/// this many moves (plies) are made.
const LEVEL: i32 = 20;
const LEVEL_AFTER_PLIES: u32 = 60;

impl Controller {
    /// The engine's colour, in a game where one player is the engine and
    /// the other a person: a practice game.
    pub fn engine_color(&self) -> Option<Color> {
        let seats = &self.settings.seats;
        match (&seats.white, &seats.black) {
            (Seat::Engine, Seat::Engine) => None,
            (Seat::Engine, _) => Some(Color::White),
            (_, Seat::Engine) => Some(Color::Black),
            _ => None,
        }
    }

    /// The position the game wants the engine's judgement of: the
    /// position now, when the player asked something of it there; else,
    /// when the player asked for the review, the first of its positions
    /// not yet judged.
    pub fn wanted_analysis(&self) -> Option<Wanted> {
        let p = &self.practice;
        let ply = self.game.ply();
        if p.asked_at == Some(ply) && (p.hint || p.evaluation || p.draw) {
            return Some(Wanted {
                ply,
                of: Judged::Game,
            });
        }
        if p.threat_at == Some(ply) {
            return Some(Wanted {
                ply,
                of: Judged::Threat,
            });
        }
        let review = self.review_now().filter(|_| p.review_asked)?;
        review.wanted().map(|ply| Wanted {
            ply,
            of: Judged::Review,
        })
    }

    /// The position `wanted` names, as its start, castling rules and the
    /// moves played from there to it.
    pub fn analysis_position(
        &self,
        wanted: Wanted,
    ) -> Option<(shakmaty::Chess, shakmaty::CastlingMode, Vec<shakmaty::Move>)> {
        let n = wanted.ply as usize;
        match wanted.of {
            Judged::Review => {
                let r = self.review_now()?;
                Some((
                    r.start().clone(),
                    r.castling_mode(),
                    r.moves().get(..n)?.to_vec(),
                ))
            }
            Judged::Game => {
                let moves = self.game.moves().get(..n)?.iter().map(|m| m.m).collect();
                Some((
                    self.game.start_position().clone(),
                    self.game.castling_mode(),
                    moves,
                ))
            }
            Judged::Threat => Some((
                self.threat_position()?,
                self.game.castling_mode(),
                Vec::new(),
            )),
        }
    }

    /// The position now with the engine to move: as it is on the engine's
    /// turn, else with the turn passed to it (none when the player is in
    /// check: his king is what is threatened).
    fn threat_position(&self) -> Option<shakmaty::Chess> {
        let engine = self.engine_color()?;
        let pos = self.game.position();
        if pos.turn() == engine {
            return Some(pos.clone());
        }
        let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
        setup.turn = engine;
        setup.ep_square = None;
        setup.position(self.game.castling_mode()).ok()
    }

    /// The player asks what the engine threatens: answered when the
    /// engine has judged the position with itself to move; at once when he
    /// is in check.
    pub(super) fn ask_threat(&mut self, t: u64, out: &mut Vec<Stamped>) {
        if self.engine_color().is_none() {
            self.say(t, PracticeNotice::NotPractice, out);
        } else if self.game.is_over() {
            self.notice(t, Notice::GameOverAlready, out);
        } else if self.threat_position().is_none() {
            self.say(t, PracticeNotice::InCheck, out);
        } else {
            self.practice.threat_at = Some(self.game.ply());
        }
    }

    /// The engine's judgement of the position now with itself to move:
    /// its best move there is the threat, when it takes something or
    /// gives check; else there is none worth the name.
    pub(super) fn threat_analysis(&mut self, t: u64, a: Analysis, out: &mut Vec<Stamped>) {
        if self.practice.threat_at != Some(a.ply) || a.ply != self.game.ply() {
            return;
        }
        self.practice.threat_at = None;
        let Some(pos) = self.threat_position() else {
            return;
        };
        let best = a
            .best
            .and_then(|u| u.to_move(&pos).ok())
            .filter(|&m| pos.is_legal(m));
        let threat = best.filter(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            m.is_capture() || after.is_check()
        });
        let say = match threat {
            Some(m) => Said::Threat {
                position: Box::new(pos.clone()),
                m,
            },
            None => PracticeNotice::NoThreat.into(),
        };
        out.push(Stamped {
            t,
            event: Event::Threat {
                ply: a.ply,
                uci: threat.map(|m| m.to_uci(self.game.castling_mode()).to_string()),
                san: threat.map(|m| shakmaty::san::SanPlus::from_move(pos.clone(), m).to_string()),
                say,
            },
        });
    }

    /// Keeps the clock as it stands before a move is made, for a takeback.
    pub(super) fn keep_clock(&mut self, t: u64) {
        if self.engine_color().is_none() {
            return;
        }
        let ply = self.game.ply() as usize;
        self.practice.clocks.truncate(ply);
        self.practice.clocks.resize(ply, None);
        self.practice
            .clocks
            .push(self.clock.clone().map(|c| (t, c)));
    }

    /// The game went back (a retrace or a takeback): what was asked of
    /// the later positions is void.
    pub(super) fn practice_retraced(&mut self, ply: u32) {
        let p = &mut self.practice;
        p.asked_at = None;
        p.threat_at = None;
        p.hinted = None;
        p.known = None;
        p.clocks.truncate(ply as usize);
        if p.review_of_this_game {
            p.review = None;
            p.review_of_this_game = false;
            p.review_asked = false;
            p.reviewing = false;
            p.review_held = false;
        }
    }

    /// The player asks for a hint, an evaluation, or offered a draw (the
    /// engine judges it).
    pub(super) fn ask_engine(&mut self, t: u64, input: &Input, out: &mut Vec<Stamped>) {
        let Some(engine) = self.engine_color() else {
            if !matches!(input, Input::DrawOffer(_)) {
                self.say(t, PracticeNotice::NotPractice, out);
            }
            return;
        };
        if self.game.is_over() {
            if !matches!(input, Input::DrawOffer(_)) {
                self.notice(t, Notice::GameOverAlready, out);
            }
            return;
        }
        if matches!(input, Input::Hint) && self.game.turn() == engine {
            self.say(t, PracticeNotice::EngineToMove, out);
            return;
        }
        let ply = self.game.ply();
        // The engine has judged this position already: a hint is answered
        // from that at once.
        if matches!(input, Input::Hint)
            && let Some(a) = self.practice.known.clone().filter(|a| a.ply == ply)
        {
            self.hint_answer(t, &a, out);
            return;
        }
        if self.practice.asked_at != Some(ply) {
            self.practice.asked_at = Some(ply);
            self.practice.hint = false;
            self.practice.evaluation = false;
            self.practice.draw = false;
        }
        match input {
            Input::Hint => self.practice.hint = true,
            Input::Evaluation(_) => self.practice.evaluation = true,
            Input::DrawOffer(c) if *c != engine => self.practice.draw = true,
            _ => {}
        }
    }

    /// The hint from the engine's judgement `a` of the position now, in
    /// two steps: first the piece to move, on its square; asked again in
    /// the same position, the whole move.
    fn hint_answer(&mut self, t: u64, a: &Analysis, out: &mut Vec<Stamped>) {
        let pos = self.game.position().clone();
        let Some(m) = a
            .best
            .and_then(|u| u.to_move(&pos).ok())
            .filter(|&m| pos.is_legal(m))
        else {
            return;
        };
        let whole = self.practice.hinted == Some(a.ply);
        self.practice.hinted = Some(a.ply);
        let san = shakmaty::san::SanPlus::from_move(pos.clone(), m).to_string();
        out.push(Stamped {
            t,
            event: Event::Hint {
                ply: a.ply,
                part: if whole { "move" } else { "piece" },
                uci: m.to_uci(self.game.castling_mode()).to_string(),
                san,
                say: if whole {
                    Said::Hint {
                        before: Box::new(pos.clone()),
                        m,
                    }
                } else {
                    Said::HintPiece(m)
                },
            },
        });
    }

    /// The engine's judgement of the position after `a.ply` moves: what
    /// the player asked there is answered, and a review of this game
    /// takes it in.
    pub(super) fn analysis(&mut self, t: u64, a: Analysis, out: &mut Vec<Stamped>) {
        if self.game.is_over() && self.practice.review_of_this_game {
            self.review_analysis(t, a.clone(), out);
        }
        if a.ply == self.game.ply() && self.practice.asked_at == Some(a.ply) {
            self.answer(t, a, out);
        }
    }

    /// Answers what the player asked in this position.
    fn answer(&mut self, t: u64, a: Analysis, out: &mut Vec<Stamped>) {
        let asked = (
            self.practice.hint,
            self.practice.evaluation,
            self.practice.draw,
        );
        let (hint, evaluation, draw) = asked;
        self.practice.asked_at = None;
        self.practice.hint = false;
        self.practice.evaluation = false;
        self.practice.draw = false;
        self.practice.known = Some(a.clone());
        if hint {
            self.hint_answer(t, &a, out);
        }
        if evaluation {
            let (cp, mate) = match a.score {
                Score::Cp(cp) => (Some(cp), None),
                Score::Mate(n) => (None, Some(n)),
            };
            out.push(Stamped {
                t,
                event: Event::Evaluation {
                    ply: a.ply,
                    cp,
                    mate,
                    say: Said::Standing(Standing::of(a.score)),
                },
            });
        }
        if draw
            && let Some(engine) = self.engine_color()
            && self.game.draw_offer() == Some(!engine)
        {
            let own = a.score.for_side(engine).centipawns();
            let accepts = own <= ACCEPT_WHEN_WORSE
                || (own.abs() <= LEVEL && self.game.ply() >= LEVEL_AFTER_PLIES);
            match accepts.then(|| self.game.offer_draw(engine)).flatten() {
                Some(ending) => self.game_over(t, ending, out),
                None => {
                    // Rejected in words (9.1b): the offer lapses now.
                    self.game.decline_draw();
                    self.say(t, PracticeNotice::DrawDeclined, out)
                }
            }
        }
    }

    /// Practice: the player's last move and the engine's reply are taken
    /// back. The boards are guided back as after a retrace; the clocks
    /// show what they showed when the player made that move, and his own
    /// runs.
    pub(super) fn practice_take_back(&mut self, t: u64, out: &mut Vec<Stamped>) {
        let Some(engine) = self.engine_color() else {
            self.say(t, PracticeNotice::NotPractice, out);
            return;
        };
        let player = !engine;
        let Some(last) = self.game.moves().iter().rev().find(|m| m.color == player) else {
            self.say(t, PracticeNotice::NothingToTakeBack, out);
            return;
        };
        let back_to = last.ply - 1;
        let kept = self
            .practice
            .clocks
            .get(back_to as usize)
            .cloned()
            .flatten();
        self.retrace(t, back_to, out);
        if let (Some((then, before)), Some(clock)) = (kept, self.clock.as_mut()) {
            let paused = clock.is_paused();
            let mut restored = before.clone();
            for c in [Color::White, Color::Black] {
                restored.set_time(then, c, before.remaining(then, c));
            }
            restored.start(t, player);
            if paused {
                restored.pause(t);
            }
            *clock = restored;
            self.clock_event(t, ClockCause::Set, out);
        }
    }
}

/// A position the game wants the engine's judgement of: after `ply`
/// moves of the game, or of the game under review.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wanted {
    pub ply: u32,
    pub of: Judged,
}

/// Which position a [`Wanted`] names, and which input answers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judged {
    /// The game's position after `ply` moves (an `analysis`).
    Game,
    /// The position after `ply` moves of the game under review (a
    /// `review_analysis`).
    Review,
    /// The game's position now as if the engine were to move there (a
    /// `threat_analysis`): what it threatens.
    Threat,
}
