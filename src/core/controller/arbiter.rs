//! The clock and the arbiter's rules: presses (6.7, E2.3), flags and
//! warnings (6.9, A4d), penalties (7.4b, 9.5b), the quickplay finish and
//! the arbiter's ruling on it (10.2), pausing and setting the clock (6.12,
//! 6.13).

use super::*;
use crate::core::said::Said;

impl Controller {
    /// The clock's state at `t` as a `clock` event.
    pub(super) fn clock_event(&self, t: u64, cause: ClockCause, out: &mut Vec<Stamped>) {
        if let Some(clock) = &self.clock {
            out.push(Stamped {
                t,
                event: Event::clock(cause, &clock.face(t)),
            });
        }
    }

    /// Both times at `t` and the moves to the next control of the player
    /// to move, as said aloud (E2.9d); `None` without a clock.
    pub(super) fn times_said(&self, t: u64) -> Option<crate::core::said::Said> {
        let clock = self.clock.as_ref()?;
        let face = clock.face(t);
        let to_move = clock.running().unwrap_or(self.game.turn());
        // The moves completed, as the clock counts them (the arbiter can
        // set its counters, 6.13).
        let completed = clock.moves(Color::White).max(clock.moves(Color::Black));
        Some(crate::core::said::Said::Times {
            completed,
            white_ms: face.remaining(Color::White),
            black_ms: face.remaining(Color::Black),
            moves_to_control: clock.moves_to_control(to_move),
        })
    }

    /// `color` presses his clock at `t` (6.7): a hand on the clock, which
    /// a paused clock ignores.
    pub(super) fn press(&mut self, t: u64, color: Color, out: &mut Vec<Stamped>) {
        self.press_as(t, color, false, out);
    }

    /// `color`'s move is complete at `t` (E2.3: executed and announced)
    /// and pegboard presses for him, counted even while the clocks are
    /// held. His time stops at `from`, up to `t` earlier (when pegboard
    /// judged the move later than it was made, by that wait), never
    /// earlier than his stretch began; the opponent's starts at `t`, with
    /// the announcement (E2.3): pegboard's wait is nobody's time. A flag
    /// due by `from` falls first.
    pub(super) fn complete_from(
        &mut self,
        t: u64,
        from: u64,
        color: Color,
        out: &mut Vec<Stamped>,
    ) {
        if from < t {
            while let Some(signal) = self.clock.as_mut().and_then(|c| c.fire(from)) {
                self.clock_signal(t, signal, out);
            }
        }
        let from = self
            .clock
            .as_ref()
            .map_or(t, |c| from.max(c.stretch_since()).min(t));
        self.press_at(t, from, color, true, out);
    }

    fn press_as(&mut self, t: u64, color: Color, through_pause: bool, out: &mut Vec<Stamped>) {
        self.press_at(t, t, color, through_pause, out);
    }

    /// A press at `t`; for pegboard's own press (`through_pause`) the
    /// presser's time stops at `at`, no later than `t`.
    fn press_at(
        &mut self,
        t: u64,
        at: u64,
        color: Color,
        through_pause: bool,
        out: &mut Vec<Stamped>,
    ) {
        if self.game.is_over() {
            return;
        }
        let first = self.game.start_position().turn();
        let Some(clock) = self.clock.as_mut() else {
            return;
        };
        let pressed = if through_pause {
            clock.complete_between(at, t, color, first)
        } else {
            clock.press(t, color, first)
        };
        let cause = match pressed {
            crate::core::clock::Press::Switched { new_period: true } => ClockCause::Period,
            crate::core::clock::Press::Switched { new_period: false } => ClockCause::Press,
            crate::core::clock::Press::Started => ClockCause::Start,
            crate::core::clock::Press::Ignored => return,
        };
        self.clock_event(t, cause, out);
    }

    /// A flag fell or a warning is due.
    pub(super) fn clock_signal(&mut self, t: u64, signal: Signal, out: &mut Vec<Stamped>) {
        let Some(clock) = &self.clock else { return };
        match signal {
            Signal::Warning(color, ms) => out.push(Stamped {
                t,
                event: Event::TimeWarning {
                    color: Side(color),
                    remaining_ms: ms,
                    say: Said::TimeWarning { color, ms },
                },
            }),
            // Online, the server keeps the time: only its `outoftime`
            // ends the game.
            Signal::Flag(_) if self.online.is_some() => {
                self.clock_event(t, ClockCause::Flag, out);
            }
            Signal::Flag(color) => {
                // A4d: in rapid and blitz without adequate supervision the
                // flag counts only on a claim; otherwise at once (6.9).
                let on_claim = self.settings.clock.flag == FlagRule::Claim
                    && clock.control().class(self.settings.laws) != Class::Standard;
                let both = clock.flag(!color).is_some();
                self.clock_event(t, ClockCause::Flag, out);
                let say = Said::Flag(color);
                out.push(Stamped {
                    t,
                    event: Event::Flag {
                        color: Side(color),
                        say,
                    },
                });
                if !on_claim {
                    self.flag_counts(t, color, out);
                } else if both {
                    // A4d(3): where a flag counts only on a claim, both
                    // flags fallen before a claim is a draw, in any period
                    // (today likewise, the rapid appendix's play without
                    // adequate supervision).
                    if let Some(ending) = self.game.draw(Reason::BothFlags) {
                        self.game_over(t, ending, out);
                    }
                }
            }
        }
    }

    /// `color` is given `ms` as a penalty for the opponent.
    pub(super) fn penalty(&mut self, t: u64, color: Color, ms: u64, out: &mut Vec<Stamped>) {
        let Some(clock) = self.clock.as_mut() else {
            return;
        };
        if self.game.is_over() {
            return;
        }
        clock.add(t, color, ms);
        self.clock_event(t, ClockCause::Penalty, out);
        let text = Said::TimeAdded { color, ms };
        self.say(t, text, out);
    }

    pub(super) fn set_clock(&mut self, t: u64, setting: ClockSetting, out: &mut Vec<Stamped>) {
        let Some(clock) = self.clock.as_mut() else {
            self.notice(t, Notice::NoClock, out);
            return;
        };
        for (color, ms, moves) in [
            (Color::White, setting.white_ms, setting.white_moves),
            (Color::Black, setting.black_ms, setting.black_moves),
        ] {
            if let Some(moves) = moves {
                clock.set_moves(t, color, moves);
            }
            if let Some(ms) = ms {
                clock.set_time(t, color, ms);
            }
        }
        let times = self.times_said(t).map(Box::new);
        self.clock_event(t, ClockCause::Set, out);
        self.say(t, Said::ClockSet(times), out);
    }

    /// 7.4b: a completed illegal move, as the arbiter rules it.
    pub(super) fn illegal_move(&mut self, t: u64, color: Color, out: &mut Vec<Stamped>) {
        if self.game.is_over() {
            self.notice(t, Notice::GameOverAlready, out);
            return;
        }
        let count = self.game.record_penalized_illegal_move(color);
        let laws = self.settings.laws;
        // 2008 blitz without adequate supervision: the opponent's claim
        // of an illegal move wins the game (B3c).
        let blitz_claim = laws == crate::core::laws::Edition::Laws2008
            && self.settings.clock.flag == FlagRule::Claim
            && self
                .clock
                .as_ref()
                .is_some_and(|c| c.control().class(laws) == Class::Blitz);
        let loses = laws.illegal_moves_that_lose();
        if blitz_claim || (count >= loses && self.settings.clock.illegal_moves_lose) {
            if let Some(ending) = self.game.lose(color, Reason::IllegalMoves) {
                self.game_over(t, ending, out);
            }
        } else {
            let ms = self.penalty_ms(TWO_MINUTES);
            self.penalty(t, !color, ms, out);
        }
    }

    /// A penalty of Article 7 or 9 of `standard_ms` (two minutes for an
    /// illegal move; for an incorrect claim, two today and three in 2008),
    /// as this game's Laws give it: today's rapid and blitz chess halve it
    /// to one minute (A.3, B.2).
    pub(super) fn penalty_ms(&self, standard_ms: u64) -> u64 {
        let laws = self.settings.laws;
        let halved = laws.rapid_penalties_halved()
            && self
                .clock
                .as_ref()
                .is_some_and(|c| c.control().class(laws) != Class::Standard);
        if halved { standard_ms / 2 } else { standard_ms }
    }

    /// The time an incorrect draw claim gives the opponent (9.5).
    pub(super) fn incorrect_claim_ms(&self) -> u64 {
        self.penalty_ms(self.settings.laws.incorrect_claim_ms())
    }

    /// 10.2: a draw claim with less than two minutes left, for the arbiter.
    pub(super) fn quickplay_claim(&mut self, t: u64, color: Color, out: &mut Vec<Stamped>) {
        if self.game.is_over() {
            self.notice(t, Notice::GameOverAlready, out);
            return;
        }
        let laws = self.settings.laws;
        let unsupervised = self.settings.clock.flag == FlagRule::Claim;
        // Does the rule serve this game at all? Today the Guidelines serve
        // games without increment, never blitz (III.2.2); in 2008 blitz
        // without adequate supervision had no 10.2 (B3).
        let applies = self.clock.as_ref().is_none_or(|c| {
            let blitz = c.control().class(laws) == Class::Blitz;
            let increment = matches!(
                c.control().period_after(c.moves(color)).1.bonus,
                crate::core::clock::Bonus::Increment(_)
            );
            match laws {
                crate::core::laws::Edition::Laws2023 => !blitz && !increment,
                crate::core::laws::Edition::Laws2008 => !(blitz && unsupervised),
            }
        });
        if !applies {
            self.notice(t, Notice::QuickplayClaimNotHere, out);
            return;
        }
        let valid = self.clock.as_ref().is_some_and(|c| {
            c.running() == Some(color)
                && !c.is_paused()
                && c.flag(color).is_none()
                && c.in_last_period(color)
                && c.remaining(t, color) < TWO_MINUTES
        });
        if !valid {
            self.notice(t, Notice::QuickplayClaimIncorrect, out);
            return;
        }
        // The arbiter decides (`quickplay_draw`, `_postpone`, `_reject`).
        if self.quickplay.is_none() {
            self.quickplay = Some(QuickplayClaim {
                color,
                extra_given: false,
                flag: None,
            });
        }
        // The 2008 Laws count this claim as an offer of a draw too
        // (9.1b(3)); today's only those of 9.2 and 9.3 (9.1.2.3).
        if self.settings.laws.quickplay_claim_offers_draw() {
            let offered = self.game.draw_offer() == Some(color);
            if let Some(ending) = self.game.offer_draw(color) {
                self.game_over(t, ending, out);
                return;
            }
            self.notice(t, Notice::QuickplayClaim, out);
            self.claim_offers(t, color, offered, out);
            return;
        }
        self.notice(t, Notice::QuickplayClaim, out);
    }

    /// The arbiter rules on the standing quickplay-finish claim (10.2a–c;
    /// today III.5.1–III.5.3). [`Controller::refusal`] has turned away a
    /// ruling without a claim, and a postponement after a flag fell.
    pub(super) fn quickplay_ruling(
        &mut self,
        t: u64,
        ruling: QuickplayRuling,
        out: &mut Vec<Stamped>,
    ) {
        if self.game.is_over() {
            self.notice(t, Notice::GameOverAlready, out);
            return;
        }
        let Some(claim) = self.quickplay else { return };
        let opponent = !claim.color;
        match ruling {
            QuickplayRuling::Draw => {
                self.quickplay = None;
                if let Some(ending) = self.game.draw(Reason::QuickplayFinish) {
                    self.game_over(t, ending, out);
                }
            }
            QuickplayRuling::Postpone => {
                self.notice(t, Notice::QuickplayPostponed, out);
                if !claim.extra_given {
                    self.penalty(t, opponent, TWO_MINUTES, out);
                }
                self.quickplay = Some(QuickplayClaim {
                    extra_given: true,
                    ..claim
                });
            }
            QuickplayRuling::Reject => {
                self.quickplay = None;
                self.notice(t, Notice::QuickplayRejected, out);
                if let Some(fallen) = claim.flag {
                    if let Some(ending) = self.game.lose(fallen, Reason::Flag) {
                        self.game_over(t, ending, out);
                    }
                } else if !claim.extra_given {
                    self.penalty(t, opponent, TWO_MINUTES, out);
                }
            }
        }
    }

    /// `color`'s flag has fallen and counts (at once, or on a valid
    /// claim): the game is lost (or drawn, 6.9), unless a quickplay-finish
    /// claim stands, when the arbiter's ruling decides (10.2b; III.5.2).
    fn flag_counts(&mut self, t: u64, color: Color, out: &mut Vec<Stamped>) {
        if let Some(claim) = self.quickplay.as_mut() {
            claim.flag.get_or_insert(color);
            self.notice(t, Notice::QuickplayWaits, out);
            return;
        }
        if let Some(ending) = self.game.lose(color, Reason::Flag) {
            self.game_over(t, ending, out);
        }
    }

    /// A4d, E2.9e: `color` claims that the opponent's flag has fallen. The
    /// claim holds only while the claimant's own flag is up (2008 A4d(2);
    /// today the rapid appendix likewise).
    pub(super) fn flag_claim(&mut self, t: u64, color: Color, out: &mut Vec<Stamped>) {
        if self.game.is_over() {
            self.notice(t, Notice::GameOverAlready, out);
            return;
        }
        if self
            .clock
            .as_ref()
            .is_some_and(|c| c.flag(!color).is_some() && c.flag(color).is_none())
        {
            self.flag_counts(t, !color, out);
        } else {
            self.notice(t, Notice::FlagClaimIncorrect, out);
        }
    }
}
