//! Practice against the engine: the player's hint, evaluation, takeback
//! and draw offer, and the review after the game. The controller says
//! which position it wants the engine's judgement of
//! ([`Controller::wanted_analysis`]); the runtime asks the engine and
//! hands the answer in as the `analysis` input, so that everything said
//! here is decided from inputs alone, and a replay says the same.

use std::collections::BTreeMap;

use shakmaty::{Color, Position};

use super::*;
use crate::announce::phrases::PracticeNotice;
use crate::core::analysis::{Analysis, Score, Standing, judge};
use crate::core::event::Reviewed;
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
    /// The ply at which the first hint (the piece alone) was given: a
    /// second there gives the whole move.
    hinted: Option<u32>,
    /// The engine's last judgement of the position now, kept so that a
    /// second hint needs no second search.
    known: Option<Analysis>,
    /// The review under way or done: the engine's answers by ply.
    review: Option<BTreeMap<u32, Analysis>>,
    /// The review event has gone out.
    reviewed: bool,
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

    /// The ply of the position the game wants the engine's judgement of:
    /// the position now, when the player asked something of it there;
    /// else, during a review, the first position not yet analysed.
    pub fn wanted_analysis(&self) -> Option<u32> {
        let p = &self.practice;
        if p.asked_at == Some(self.game.ply()) && (p.hint || p.evaluation || p.draw) {
            return Some(self.game.ply());
        }
        let review = p.review.as_ref().filter(|_| !p.reviewed)?;
        (0..=self.game.ply()).find(|ply| !review.contains_key(ply) && !self.ended_at(*ply))
    }

    /// Whether the position after `ply` moves is mate or stalemate: no
    /// engine is asked about it.
    fn ended_at(&self, ply: u32) -> bool {
        self.game
            .position_at(ply)
            .is_some_and(|pos| pos.is_checkmate() || pos.is_stalemate())
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
        p.hinted = None;
        p.known = None;
        p.clocks.truncate(ply as usize);
        p.review = None;
        p.reviewed = false;
    }

    /// The player asks for a hint, an evaluation, or offered a draw (the
    /// engine judges it).
    pub(super) fn ask_engine(&mut self, t: u64, input: &Input, out: &mut Vec<Stamped>) {
        let Some(engine) = self.engine_color() else {
            if !matches!(input, Input::DrawOffer(_)) {
                self.say(t, self.words.practice(PracticeNotice::NotPractice), out);
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
            self.say(t, self.words.practice(PracticeNotice::EngineToMove), out);
            return;
        }
        let ply = self.game.ply();
        // The engine has judged this position already: a hint is answered
        // from that at once.
        if matches!(input, Input::Hint)
            && let Some(a) = self.practice.known.filter(|a| a.ply == ply)
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
            Input::Evaluation => self.practice.evaluation = true,
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
                    self.words.hint(&pos, m)
                } else {
                    self.words.hint_piece(m)
                },
            },
        });
    }

    /// The engine's judgement of the position after `a.ply` moves: what
    /// the player asked there is answered, and a review takes it in.
    pub(super) fn analysis(&mut self, t: u64, a: Analysis, out: &mut Vec<Stamped>) {
        if a.ply == self.game.ply() && self.practice.asked_at == Some(a.ply) {
            self.answer(t, a, out);
        }
        if a.ply <= self.game.ply()
            && !self.practice.reviewed
            && let Some(review) = self.practice.review.as_mut()
        {
            review.insert(a.ply, a);
            if self.wanted_analysis().is_none() {
                self.review_done(t, out);
            }
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
        self.practice.known = Some(a);
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
                    say: self.words.standing(Standing::of(a.score)),
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
                    self.say(t, self.words.practice(PracticeNotice::DrawDeclined), out)
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
            self.say(t, self.words.practice(PracticeNotice::NotPractice), out);
            return;
        };
        let player = !engine;
        let Some(last) = self.game.moves().iter().rev().find(|m| m.color == player) else {
            self.say(
                t,
                self.words.practice(PracticeNotice::NothingToTakeBack),
                out,
            );
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

    /// The player asks for the review of the game just over.
    pub(super) fn review(&mut self, t: u64, out: &mut Vec<Stamped>) {
        if self.engine_color().is_none() {
            self.say(t, self.words.practice(PracticeNotice::NotPractice), out);
        } else if !self.game.is_over() {
            self.say(t, self.words.practice(PracticeNotice::ReviewAfterGame), out);
        } else if self.practice.reviewed {
            // Asked again: said again.
            self.review_done(t, out);
        } else {
            self.practice.review.get_or_insert_with(BTreeMap::new);
            self.say(t, self.words.practice(PracticeNotice::Reviewing), out);
            if self.wanted_analysis().is_none() {
                self.review_done(t, out);
            }
        }
    }

    /// Every position is analysed: the review, each of the player's
    /// serious mistakes said with the better move.
    fn review_done(&mut self, t: u64, out: &mut Vec<Stamped>) {
        let Some(review) = self.practice.review.as_ref() else {
            return;
        };
        let engine = self.engine_color();
        let score_at = |ply: u32| -> Option<Score> {
            if let Some(a) = review.get(&ply) {
                return Some(a.score);
            }
            // Mate or stalemate: no engine was asked.
            let pos = self.game.position_at(ply)?;
            Some(if pos.is_checkmate() {
                Score::Mate(1).for_side(!pos.turn())
            } else {
                Score::Cp(0)
            })
        };
        let mut moves = Vec::new();
        let mut said = Vec::new();
        for pm in self.game.moves() {
            let (Some(before), Some(after)) = (score_at(pm.ply - 1), score_at(pm.ply)) else {
                continue;
            };
            let mut reviewed = Reviewed {
                ply: pm.ply,
                // A mate or stalemate on the board needs no score.
                eval: review.get(&pm.ply).map(|a| a.score.pgn()),
                mark: None,
                better: None,
            };
            if Some(pm.color) != engine
                && let Some((mark, loss)) = judge(pm.color, before, after)
                && let Some(pos) = self.game.position_at(pm.ply - 1)
            {
                let better = review
                    .get(&(pm.ply - 1))
                    .and_then(|a| a.best)
                    .and_then(|u| u.to_move(&pos).ok())
                    .filter(|&b| pos.is_legal(b) && b != pm.m);
                reviewed.mark = Some(mark.as_str());
                reviewed.better =
                    better.map(|b| shakmaty::san::SanPlus::from_move(pos.clone(), b).to_string());
                said.push(self.words.mistake(pm.number, &pos, pm.m, loss, better));
            }
            moves.push(reviewed);
        }
        let say = if said.is_empty() {
            self.words.practice(PracticeNotice::NoMistakes)
        } else {
            said.join(" ")
        };
        self.practice.reviewed = true;
        out.push(Stamped {
            t,
            event: Event::Review { moves, say },
        });
    }
}
