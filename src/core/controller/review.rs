//! The review after a game against the engine, as the controller takes
//! it: asked for, the engine's answers taken in, the player stepping
//! through his mistakes with the menu's keys (next, back), the evaluation
//! after any move, and a mistake's position set up (select) to play the
//! better line against the engine from there. The menu key leaves it.

use shakmaty::EnPassantMode;
use shakmaty::san::SanPlus;

use super::*;
use crate::core::analysis::{Analysis, Score, Standing};
use crate::core::input::MenuStep;
use crate::core::notices::PracticeNotice;
use crate::core::review::{Mistake, Review};
use crate::core::said::Said;

impl Controller {
    /// The review there is now: of this game once it is over, or of the
    /// game before until the person's first move in this one.
    pub(super) fn review_now(&self) -> Option<&Review> {
        let p = &self.practice;
        self.review_open().then_some(p.review.as_ref()).flatten()
    }

    fn review_open(&self) -> bool {
        if self.practice.review_of_this_game {
            self.game.is_over()
        } else {
            self.past_still_open()
        }
    }

    /// The game before this one is still to be reviewed: the person has
    /// made no move in this one (the engine, playing White, may have).
    fn past_still_open(&self) -> bool {
        let Some(past) = self.practice.review.as_ref() else {
            return false;
        };
        let person = self.engine_color().map_or(past.player(), |e| !e);
        self.game.moves().iter().all(|m| m.color != person)
    }

    /// This game's own review is the one to give: it is a game against the
    /// engine that is over, and has moves or no game before to review (a
    /// flag fallen before the first move leaves the game before's review
    /// as it was).
    fn this_game_reviewed(&self) -> bool {
        self.game.is_over()
            && self.engine_color().is_some()
            && (self.game.ply() > 0 || self.practice.review_of_this_game || !self.past_still_open())
    }

    fn review_now_mut(&mut self) -> Option<&mut Review> {
        if self.review_open() {
            self.practice.review.as_mut()
        } else {
            None
        }
    }

    /// The player is stepping through a review: the menu's keys are its.
    pub(super) fn stepping_review(&self) -> bool {
        self.practice.reviewing && self.review_now().is_some()
    }

    /// The game before this one, handed over for its review (the
    /// `past_game` input): taken before this game's first move only.
    pub(super) fn past_game(&mut self, review: Review) {
        if self.game.ply() > 0 || self.game.is_over() {
            return;
        }
        let p = &mut self.practice;
        p.review = Some(review);
        p.review_of_this_game = false;
        p.review_asked = false;
        p.reviewing = false;
        p.review_held = false;
        p.evaluation_after = None;
    }

    /// The review to hand to the next game: this game's, when it was a
    /// game against the engine and is over (with what the engine has
    /// judged of it so far), else the one this game was handed, while it
    /// has no move.
    pub fn review_to_keep(&self) -> Option<Review> {
        if self.this_game_reviewed() {
            return Some(self.this_games_review());
        }
        self.review_now().cloned()
    }

    /// This game's review: the one under way, or a new one.
    fn this_games_review(&self) -> Review {
        match (&self.practice.review, self.practice.review_of_this_game) {
            (Some(r), true) => r.clone(),
            _ => {
                let moves: Vec<shakmaty::Move> = self.game.moves().iter().map(|m| m.m).collect();
                let player = self.engine_color().map_or(Color::White, |e| !e);
                Review::of(
                    self.game.start_position(),
                    self.game.castling_mode(),
                    &moves,
                    player,
                )
            }
        }
    }

    /// The player asks for the review: of the game just over, or of the
    /// game before while this one has no move. Once the engine has judged
    /// every position, it begins at the first mistake; asked again, the
    /// mistake he is at is said again.
    pub(super) fn review(&mut self, t: u64, out: &mut Vec<Stamped>) {
        if self.this_game_reviewed() && !self.practice.review_of_this_game {
            let review = self.this_games_review();
            let p = &mut self.practice;
            p.review = Some(review);
            p.review_of_this_game = true;
            p.review_asked = false;
            p.reviewing = false;
            p.review_held = false;
        }
        let Some(review) = self.review_now() else {
            let notice = if self.engine_color().is_none() {
                PracticeNotice::NotPractice
            } else {
                PracticeNotice::ReviewAfterGame
            };
            self.say(t, notice, out);
            return;
        };
        if self.practice.reviewing {
            let at = review.at().unwrap_or(0);
            self.review_go(t, at, out);
            return;
        }
        let complete = review.complete();
        if complete {
            self.practice.review_asked = true;
            self.review_begins(t, out);
        } else if self.engine_color().is_none() {
            // No engine in this game to judge the game before.
            self.say(t, PracticeNotice::NotPractice, out);
        } else {
            self.practice.review_asked = true;
            self.say(t, PracticeNotice::Reviewing, out);
        }
    }

    /// The engine's judgement of a position of the game under review.
    pub(super) fn review_analysis(&mut self, t: u64, a: Analysis, out: &mut Vec<Stamped>) {
        let asked = self.practice.review_asked && !self.practice.reviewing;
        let Some(review) = self.review_now_mut() else {
            return;
        };
        let was_complete = review.complete();
        if review.take(a).is_err() {
            return;
        }
        let complete = review.complete();
        // An evaluation asked after a move not yet judged is answered.
        if let Some(ply) = self.practice.evaluation_after
            && self.review_now().and_then(|r| r.score_at(ply)).is_some()
        {
            self.practice.evaluation_after = None;
            self.review_evaluation(t, Some(ply), out);
        }
        if asked && !was_complete && complete {
            if self.menu.is_open() {
                self.practice.review_held = true;
            } else {
                self.review_begins(t, out);
            }
        }
    }

    /// Every position is judged: the `review` event, with the first
    /// mistake, and the player is in the review.
    pub(super) fn review_begins(&mut self, t: u64, out: &mut Vec<Stamped>) {
        self.practice.review_held = false;
        let Some(review) = self.review_now_mut() else {
            return;
        };
        let moves = review.reviewed();
        let mistakes = review.mistakes();
        let first = review.go_to(0);
        let past = !self.practice.review_of_this_game;
        let say = match &first {
            None => PracticeNotice::NoMistakes.into(),
            Some(m) => self.step_said(0, mistakes.len(), m),
        };
        self.practice.reviewing = first.is_some();
        out.push(Stamped {
            t,
            event: Event::Review {
                moves,
                mistakes: mistakes.len(),
                past,
                say,
            },
        });
    }

    /// What is said of mistake `index` of `count`.
    fn step_said(&self, index: usize, count: usize, m: &Mistake) -> Said {
        Said::ReviewStep {
            index: index + 1,
            count,
            number: m.number,
            before: Box::new(m.before.clone()),
            played: m.played,
            loss: m.loss,
            better: m.better,
            line: m.line.clone(),
        }
    }

    /// Steps to mistake `index`; past the last, says there are no more.
    fn review_go(&mut self, t: u64, index: usize, out: &mut Vec<Stamped>) {
        let Some(review) = self.review_now_mut() else {
            return;
        };
        let count = review.mistakes().len();
        let Some(m) = review.go_to(index) else {
            self.say(t, PracticeNotice::NoMoreMistakes, out);
            return;
        };
        let san = |before: &shakmaty::Chess, mv: shakmaty::Move| {
            SanPlus::from_move(before.clone(), mv).to_string()
        };
        let mut line = Vec::new();
        if let Some(b) = m.better {
            let mut pos = m.before.clone();
            line.push(san(&pos, b));
            pos.play_unchecked(b);
            for &mv in &m.line {
                line.push(san(&pos, mv));
                pos.play_unchecked(mv);
            }
        }
        let say = self.step_said(index, count, &m);
        out.push(Stamped {
            t,
            event: Event::ReviewStep {
                index: index + 1,
                mistakes: count,
                ply: m.ply,
                san: san(&m.before, m.played),
                mark: m.mark.as_str(),
                better: line.first().cloned(),
                line: line.into_iter().skip(1).collect(),
                say,
            },
        });
    }

    /// A menu key while the player is in the review: next and back step
    /// through the mistakes, select sets the mistake's position up as a
    /// new game against the engine, the menu key leaves the review.
    pub(super) fn review_key(&mut self, t: u64, step: MenuStep, out: &mut Vec<Stamped>) {
        let Some(at) = self.review_now().map(|r| r.at().unwrap_or(0)) else {
            return;
        };
        match step {
            MenuStep::Next => self.review_go(t, at + 1, out),
            MenuStep::Back => self.review_go(t, at.saturating_sub(1), out),
            MenuStep::Open => {
                self.practice.reviewing = false;
                self.say(t, PracticeNotice::ReviewEnded, out);
            }
            MenuStep::Select => self.review_set_up(t, at, out),
        }
    }

    /// The position the mistake `index` was made in becomes the next
    /// game's start (for that game only): the player is guided to set it
    /// up, and plays on from it against the engine.
    fn review_set_up(&mut self, t: u64, index: usize, out: &mut Vec<Stamped>) {
        let Some(review) = self.review_now() else {
            return;
        };
        let Some(m) = review.mistakes().into_iter().nth(index) else {
            return;
        };
        let chess960 = review.castling_mode() == shakmaty::CastlingMode::Chess960;
        let person = review.player();
        let fen = shakmaty::fen::Fen::from_position(&m.before, EnPassantMode::Legal).to_string();
        self.practice.reviewing = false;
        self.next_start = Some(StartPosition {
            start: fen,
            chess960,
        });
        self.next_start_once = true;
        self.next_start_person = Some(person);
        self.say(t, Said::ReviewPosition(m.number), out);
        self.new_game(t, out);
    }

    /// The evaluation after the move that made ply `ply` of the game under
    /// review, or after the mistake the player is at: `false` when there
    /// is no review to answer from.
    pub(super) fn review_evaluation(
        &mut self,
        t: u64,
        ply: Option<u32>,
        out: &mut Vec<Stamped>,
    ) -> bool {
        let Some(review) = self.review_now() else {
            return false;
        };
        let ply = match (ply, self.practice.reviewing) {
            (Some(ply), _) => ply,
            (None, true) => match review
                .at()
                .and_then(|i| review.mistakes().into_iter().nth(i))
            {
                Some(m) => m.ply,
                None => return false,
            },
            (None, false) => return false,
        };
        // A ply the game does not reach, or a mate or stalemate on the
        // board: nothing to judge (the game's end is said instead).
        let (Some(before), Some(after)) = (
            review
                .position_at(ply.saturating_sub(1))
                .filter(|_| ply > 0),
            review.position_at(ply),
        ) else {
            return false;
        };
        if after.is_checkmate() || after.is_stalemate() {
            return false;
        }
        let number = before.fullmoves().get();
        let Some(score) = review.score_at(ply) else {
            // Answered when the engine has judged it.
            self.practice.evaluation_after = Some(ply);
            self.practice.review_asked = true;
            self.say(t, PracticeNotice::Reviewing, out);
            return true;
        };
        let (cp, mate) = match score {
            Score::Cp(cp) => (Some(cp), None),
            Score::Mate(n) => (None, Some(n)),
        };
        out.push(Stamped {
            t,
            event: Event::Evaluation {
                ply,
                cp,
                mate,
                say: Said::AfterMove {
                    number,
                    mover: before.turn(),
                    standing: Standing::of(score),
                },
            },
        });
        true
    }
}
