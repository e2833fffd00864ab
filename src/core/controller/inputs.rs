//! The inputs: keys, keypad, console and arbiter actions, and the
//! questions they ask (`repeat`, `times`, `position` …), each answered
//! with the facts its words are made of (`core::said`).

use super::*;
use crate::core::input::Relayed;
use crate::core::said::{Joint, Said};

impl Controller {
    /// A button, keypad or console action at `t`.
    pub fn input(&mut self, t: u64, input: Input, out: &mut Vec<Stamped>) {
        self.advance(t, out);
        // Online, some of the player's inputs are requests to the server.
        if self.online.is_some() && self.online_request(t, &input, out) {
            self.recompute_deadline();
            return;
        }
        match input {
            Input::Promote(role) => {
                for i in 0..self.boards.len() {
                    let mut verdicts = Vec::new();
                    self.boards[i].tracker.promote(
                        t,
                        role,
                        &self.game,
                        &self.settings,
                        &mut verdicts,
                    );
                    self.apply(t, i, verdicts, out);
                }
            }
            Input::Adjust(color) => {
                // 4.2 (today 4.2.1): only the player having the move
                // adjusts, on the boards he plays on.
                if let Some(refused) = self.refusal(t, &input) {
                    out.push(refused);
                } else {
                    let color = color.unwrap_or(self.game.turn());
                    for b in &mut self.boards {
                        if b.tracker.moves_for(color) {
                            b.tracker.adjust(&self.game);
                        }
                    }
                }
            }
            // 6.7: a player (or his assistant, E2.9c) presses the clock.
            Input::Clock(color) => self.press(t, color, out),
            Input::Repeat(n) => {
                let numbered = self
                    .game
                    .last_moves(n as usize)
                    .iter()
                    .map(|(before, pm)| Said::NumberedMove {
                        number: pm.number,
                        before: Box::new(before.clone()),
                        m: pm.m,
                    })
                    .collect();
                self.answer_privately(t, Said::MovesAgain(numbered), out);
            }
            // One move again, where it stands in the game (a ply not played
            // is answered as no move).
            Input::RepeatPly(ply) => {
                let played = self.game.moves().len();
                let back = if ply as usize <= played {
                    played + 1 - ply as usize
                } else {
                    0
                };
                let numbered = self
                    .game
                    .last_moves(back)
                    .first()
                    .map(|(before, pm)| Said::NumberedMove {
                        number: pm.number,
                        before: Box::new(before.clone()),
                        m: pm.m,
                    })
                    .into_iter()
                    .collect();
                self.answer_privately(t, Said::MovesAgain(numbered), out);
            }
            Input::MoveNumber => {
                let here = Box::new(self.game.position().clone());
                self.answer_privately(t, Said::MoveNumber(here), out);
            }
            Input::Rank(rank) => {
                let position = Box::new(self.game.position().clone());
                self.answer_privately(t, Said::Rank { position, rank }, out);
            }
            Input::File(file) => {
                let position = Box::new(self.game.position().clone());
                self.answer_privately(t, Said::File { position, file }, out);
            }
            Input::Announced(ply) => self.announce(t, ply, out),
            Input::Times => {
                let text = self.times_said(t).unwrap_or(Notice::NoClock.into());
                self.answer_privately(t, text, out);
            }
            Input::Position => {
                let here = Box::new(self.game.position().clone());
                self.answer_privately(t, Said::Position(here), out);
            }
            Input::Material => {
                let balance = crate::core::material::Balance::of(self.game.position().board());
                self.answer_privately(t, Said::Material(balance), out);
            }
            Input::Square(square) => {
                let position = Box::new(self.game.position().clone());
                self.answer_privately(t, Said::Square { position, square }, out);
            }
            // 6.12: a player calls the arbiter (the clock paused with the
            // `pause` key when he wants it stopped); the blind player cannot
            // look round for him: his key calls, the console answers.
            Input::CallArbiter => out.push(Stamped {
                t,
                event: Event::ArbiterCalled {
                    say: Notice::ArbiterCalled.into(),
                },
            }),
            Input::ArbiterComing => out.push(Stamped {
                t,
                event: Event::ArbiterComing {
                    say: Notice::ArbiterComing.into(),
                },
            }),
            Input::DrawOffer(color) => {
                if self.game.is_over() {
                    self.notice(t, Notice::GameOverAlready, out);
                } else if let Some(refused) = self.refusal(t, &input) {
                    // Today's 5.2.3: not before both players have moved.
                    out.push(refused);
                } else if let Some(ending) = self.game.offer_draw(color) {
                    self.game_over(t, ending, out);
                } else {
                    out.push(Stamped {
                        t,
                        event: Event::DrawOffer {
                            color: Side(color),
                            say: Said::DrawOffer(color),
                        },
                    });
                    // Against the engine, its judgement answers.
                    self.ask_engine(t, &input, out);
                }
            }
            Input::DrawClaim(color) => {
                // 9.4: a player who touched a piece has lost the right to
                // claim on this move.
                if let Some(refused) = self.refusal(t, &input) {
                    out.push(refused);
                    self.recompute_deadline();
                    return;
                }
                let offered = self.game.draw_offer() == Some(color);
                let notice = match self.game.claim_draw(color) {
                    ClaimOutcome::Drawn(ending) => {
                        self.game_over(t, ending, out);
                        self.recompute_deadline();
                        return;
                    }
                    ClaimOutcome::Pending => Notice::ClaimPending,
                    ClaimOutcome::Incorrect => {
                        self.notice(t, Notice::ClaimIncorrect, out);
                        let ms = self.incorrect_claim_ms();
                        self.penalty(t, !color, ms, out);
                        self.claim_offers(t, color, offered, out);
                        self.recompute_deadline();
                        return;
                    }
                    ClaimOutcome::NotYourMove => Notice::ClaimNotYourMove,
                    ClaimOutcome::GameOver => Notice::GameOverAlready,
                };
                self.notice(t, notice, out);
                if notice == Notice::ClaimPending {
                    self.claim_offers(t, color, offered, out);
                }
            }
            Input::ResignKey(color) => self.resign_when_asked_twice(t, color, false, out),
            Input::ConsoleResign(color) => self.resign_when_asked_twice(t, color, true, out),
            Input::Resign(color) => match self.game.resign(color) {
                Some(ending) => self.game_over(t, ending, out),
                None => self.notice(t, Notice::GameOverAlready, out),
            },
            Input::Pause => {
                if self.clock.as_mut().is_some_and(|c| c.pause(t)) {
                    self.clock_event(t, ClockCause::Pause, out);
                    self.notice(t, Notice::ClockPaused, out);
                }
            }
            Input::Resume => {
                if self.clock.as_mut().is_some_and(|c| c.resume(t)) {
                    self.clock_event(t, ClockCause::Resume, out);
                    self.notice(t, Notice::ClockResumed, out);
                }
            }
            Input::SetClock(setting) => self.set_clock(t, setting, out),
            Input::IllegalMove(color) => self.illegal_move(t, color, out),
            Input::QuickplayClaim(color) => self.quickplay_claim(t, color, out),
            Input::QuickplayRuling(ruling) => {
                if let Some(refused) = self.refusal(t, &input) {
                    out.push(refused);
                } else {
                    self.quickplay_ruling(t, ruling, out);
                }
            }
            Input::DrawDecline(color) => {
                if self.game.is_over() {
                    self.notice(t, Notice::GameOverAlready, out);
                } else if let Some(refused) = self.refusal(t, &input) {
                    out.push(refused);
                } else if self.game.decline_draw() {
                    // 9.1b(1) (today 9.1.2.1): rejected orally.
                    out.push(self.draw_declined(t, color));
                }
            }
            Input::FlagClaim(color) => self.flag_claim(t, color, out),
            Input::OnlineGame(game) => self.go_online(t, *game, out),
            Input::OnlineGames(games) => self.online_games(t, games, out),
            Input::OnlineClock { white_ms, black_ms } => {
                self.online_clock(t, white_ms, black_ms, out)
            }
            Input::OnlineEnd { status, winner } => self.online_end(t, &status, winner, out),
            Input::OnlineLost => self.online_link(t, false, out),
            Input::OnlineBack => self.online_link(t, true, out),
            Input::OnlineTakeback => self.online_takeback(t, out),
            Input::OnlineRematch => self.online_rematch(t, out),
            Input::OnlineGone { seconds } => self.online_gone(t, seconds, out),
            Input::OnlineChat { name, text } => self.online_chat(t, name, text, out),
            Input::OnlineNotice(notice) => self.online_notice(t, &notice, out),
            Input::EngineTrouble(trouble) => out.push(Stamped {
                t,
                event: Event::EngineTrouble {
                    trouble: trouble.name(),
                    say: Said::EngineTrouble(trouble),
                },
            }),
            // The blind player's board, whose sensors `play` watches.
            Input::BoardLost => {
                if let Some(b) = self.boards.first_mut() {
                    b.tracker.board_lost();
                }
                out.push(Stamped {
                    t,
                    event: Event::SensorsLost {
                        say: Notice::BoardLost.into(),
                    },
                });
            }
            Input::BoardBack => {
                out.push(Stamped {
                    t,
                    event: Event::SensorsBack {
                        say: Notice::BoardBack.into(),
                    },
                });
                if !self.boards.is_empty() {
                    self.board_back(t, 0, out);
                }
            }
            // His Braille display: told once each way; the game is not
            // touched.
            Input::BrailleLost => out.push(Stamped {
                t,
                event: Event::BrailleLost {
                    say: Notice::BrailleLost.into(),
                },
            }),
            Input::BrailleBack => out.push(Stamped {
                t,
                event: Event::BrailleBack {
                    say: Notice::BrailleBack.into(),
                },
            }),
            Input::Restarted { hold } => self.restarted(t, hold, out),
            Input::Move(relayed) => self.relayed(t, relayed, out),
            Input::Retrace(ply) => self.retrace(t, ply, out),
            Input::TakeBack(ply) => self.take_back(t, ply, out),
            Input::ToReplicate => {
                let text = match self.board_index(BLIND_BOARD) {
                    Some(b) => self.replication_said(b),
                    None => Notice::BoardMatches.into(),
                };
                self.answer_privately(t, text, out);
            }
            // The arbiter sets up a position: this game ends, the next
            // begins from there (its `ready` says which). A game under way
            // or adjourned ends only when the same set-up comes again
            // within the time a new game is confirmed in.
            Input::Setup(setup) => {
                if let Some(start) = setup.start().filter(|s| s.position().is_ok()) {
                    let confirmed = self.setup_asked.as_ref().is_some_and(|(asked, same)| {
                        *same == setup && t.saturating_sub(*asked) <= NEW_GAME_CONFIRM_WITHIN
                    });
                    if self.game_stands() && !confirmed {
                        self.setup_asked = Some((t, setup));
                        self.notice(t, Notice::NewGameConfirm, out);
                    } else {
                        self.setup_asked = None;
                        self.next_start = Some(start);
                        self.next_start_once = false;
                        self.new_game(t, out);
                    }
                }
            }
            Input::TouchReport(color) => out.push(Stamped {
                t,
                event: Event::TouchReported { color: Side(color) },
            }),
            Input::Adjourn(relayed) => {
                if let Some(refused) = self.refusal(t, &Input::Adjourn(relayed)) {
                    out.push(refused);
                } else if let Some(m) = self.relayed_move(relayed) {
                    self.sealed = Some(m);
                    if self.clock.as_mut().is_some_and(|c| c.pause(t)) {
                        self.clock_event(t, ClockCause::Pause, out);
                    }
                    out.push(Stamped {
                        t,
                        event: Event::Adjourned {
                            color: Side(self.game.turn()),
                            say: Notice::Adjourned.into(),
                        },
                    });
                }
            }
            Input::Unseal => {
                if let Some(refused) = self.refusal(t, &Input::Unseal) {
                    out.push(refused);
                } else if let Some(m) = self.sealed.take() {
                    if self.clock.as_mut().is_some_and(|c| c.resume(t)) {
                        self.clock_event(t, ClockCause::Resume, out);
                    }
                    self.play(t, None, m, false, out);
                }
            }
            Input::Evaluation(ply) if self.review_evaluation(t, ply, out) => {}
            Input::Hint | Input::Evaluation(_) => self.ask_engine(t, &input, out),
            Input::Analysis(a) => self.analysis(t, a, out),
            Input::ReviewAnalysis(a) => self.review_analysis(t, a, out),
            Input::Threat => self.ask_threat(t, out),
            Input::Opening => self.ask_opening(),
            Input::OpeningClassified { ply, eco, family } => {
                self.opening_classified(t, ply, (eco, family), out)
            }
            Input::ThreatAnalysis(a) => self.threat_analysis(t, a, out),
            Input::PastGame(review) => self.past_game(*review),
            Input::PracticeTakeBack => self.practice_take_back(t, out),
            Input::Review => self.review(t, out),
            // In the review, the menu's keys step through it (the menu
            // key leaves it).
            Input::Menu(step) if !self.menu.is_open() && self.stepping_review() => {
                self.review_key(t, step, out)
            }
            Input::Menu(step) => self.menu_step(t, step, out),
            // A key that is also a menu key: its menu step while the menu
            // is open or the player is in the review, its own input
            // otherwise.
            Input::Keyed { menu, input } => {
                if self.menu.is_open() || self.online_choice.is_some() {
                    self.menu_step(t, menu, out);
                } else if self.stepping_review() {
                    self.review_key(t, menu, out);
                } else {
                    self.input(t, *input, out);
                }
            }
            Input::Differences => {
                let text = self.differences_said(BLIND_BOARD);
                self.answer_privately(t, text, out);
            }
            Input::NewGame => {
                let confirmed = self
                    .new_game_asked
                    .is_some_and(|asked| t.saturating_sub(asked) <= NEW_GAME_CONFIRM_WITHIN);
                if self.game_stands() && !confirmed {
                    self.new_game_asked = Some(t);
                    self.notice(t, Notice::NewGameConfirm, out);
                } else {
                    self.leave_online_game(t, out);
                    self.new_game(t, out);
                }
            }
        }
        self.recompute_deadline();
    }

    /// Whether a game stands that a new game or a set-up would end: one
    /// under way, or adjourned with a sealed move.
    fn game_stands(&self) -> bool {
        (!self.game.is_over() && self.game.ply() > 0) || self.sealed.is_some()
    }

    /// A claim that did not end the game stands as `color`'s offer of a
    /// draw (9.1b; today 9.1.2.3), which the opponent may accept: the
    /// `draw_offer` event, unless his offer stood already.
    pub(super) fn claim_offers(
        &mut self,
        t: u64,
        color: Color,
        offered: bool,
        out: &mut Vec<Stamped>,
    ) {
        if offered || self.game.draw_offer() != Some(color) {
            return;
        }
        out.push(Stamped {
            t,
            event: Event::DrawOffer {
                color: Side(color),
                say: Said::DrawOffer(color),
            },
        });
        // Against the engine, its judgement answers, as to any offer.
        self.ask_engine(t, &Input::DrawOffer(color), out);
    }

    /// Has `color` touched a piece on this move, on a board he plays on
    /// (4.3; j'adoube is no touch)?
    fn touched_this_move(&self, color: Color) -> bool {
        self.game.turn() == color
            && self
                .boards
                .iter()
                .any(|b| b.tracker.moves_for(color) && !b.tracker.touches().is_empty())
    }

    /// Why the game would refuse `input` now, as the `refused` event it
    /// would give; `None` when it would be carried out. The runtime asks
    /// before a console's input is journaled, so a refused one leaves no
    /// record.
    pub fn refusal(&self, t: u64, input: &Input) -> Option<Stamped> {
        let adjourned = || Said::from(Notice::Adjourned);
        let mut article = None;
        let laws = self.settings.laws;
        let (given, reason, say) = match *input {
            // 4.2 (today 4.2.1): only the player having the move adjusts.
            Input::Adjust(Some(color)) if color != self.game.turn() && !self.game.is_over() => {
                article = Some(laws.cite(Article::Adjust));
                (
                    "adjust".to_string(),
                    "not_your_move",
                    Said::AdjustRefused(color),
                )
            }
            // Today's 5.2.3: no draw agreed before both players have moved,
            // nor offered when it could not be agreed.
            Input::DrawOffer(color) if !self.game.is_over() && !self.game.offer_allowed(color) => {
                article = Some(laws.cite(Article::Agreement));
                ("draw_offer".to_string(), "too_early", Said::DrawTooEarly)
            }
            // 10.2 (today III.5): a ruling needs a claim to rule on; a
            // decision postponed past a flag is the arbiter's to make now.
            Input::QuickplayRuling(ruling) if !self.game.is_over() => match self.quickplay {
                None => (
                    ruling.name().to_string(),
                    "no_claim",
                    Notice::NoQuickplayClaim.into(),
                ),
                Some(claim) if ruling == QuickplayRuling::Postpone && claim.flag.is_some() => (
                    ruling.name().to_string(),
                    "flag_fallen",
                    Notice::QuickplayWaits.into(),
                ),
                Some(_) => return None,
            },
            // 9.1b(1): only an offer that stands can be rejected.
            Input::DrawDecline(color)
                if !self.game.is_over() && self.game.draw_offer() != Some(!color) =>
            {
                (
                    "draw_decline".to_string(),
                    "no_offer",
                    Said::NoDrawOffer(!color),
                )
            }
            // 9.4: touching a piece loses the right to claim on this move.
            Input::DrawClaim(color) if self.touched_this_move(color) => {
                article = Some(laws.cite(Article::ClaimAfterTouch));
                ("draw_claim".to_string(), "touched", Said::ClaimAfterTouch)
            }
            Input::Move(relayed) | Input::Adjourn(relayed) if self.sealed.is_some() => {
                let given = match relayed {
                    Relayed::Uci(u) => u.to_string(),
                    Relayed::San(s) => s.to_string(),
                };
                (given, "adjourned", adjourned())
            }
            Input::Unseal if self.sealed.is_none() => (
                "unseal".to_string(),
                "not_adjourned",
                Said::MoveNumber(Box::new(self.game.position().clone())),
            ),
            Input::Move(relayed) | Input::Adjourn(relayed) => {
                let given = match relayed {
                    Relayed::Uci(u) => u.to_string(),
                    Relayed::San(s) => s.to_string(),
                };
                if self.game.is_over() {
                    (given, "game_over", Notice::GameOverAlready.into())
                } else if self.relayed_move(relayed).is_none() {
                    let pos = self.game.position();
                    let why = match relayed {
                        Relayed::Uci(u) => crate::core::relay::uci(pos, &u),
                        Relayed::San(s) => crate::core::relay::san(pos, &s),
                    };
                    article = why.article().map(|a| laws.cite(a));
                    (
                        given,
                        why.reason(),
                        Said::Unplayable {
                            why,
                            to_move: pos.turn(),
                        },
                    )
                } else {
                    return None;
                }
            }
            Input::Retrace(ply) if ply > self.game.ply() => (
                ply.to_string(),
                "no_such_ply",
                Said::MoveNumber(Box::new(self.game.position().clone())),
            ),
            // Once the game has ended, nothing is taken back: its end
            // stands (a resignation, a fallen flag).
            Input::TakeBack(ply) if self.game.is_over() => {
                (ply.to_string(), "game_over", Notice::GameOverAlready.into())
            }
            Input::TakeBack(ply)
                if self.relayed_last.as_ref().is_none_or(|r| {
                    r.ply != ply
                        || self.game.ply() != ply
                        || t.saturating_sub(r.t) > super::TAKE_BACK_WITHIN
                }) =>
            {
                (ply.to_string(), "not_takeable", Said::TakeBackRefused)
            }
            _ => return None,
        };
        Some(Stamped {
            t,
            event: Event::Refused {
                given,
                reason,
                article,
                say,
            },
        })
    }

    /// The legal move a relayed move names in the game's position. A
    /// promotion piece given with a move that is no promotion (a keypad
    /// relaying by squares adds one to every move to the last rank) is
    /// left out.
    fn relayed_move(&self, relayed: Relayed) -> Option<shakmaty::Move> {
        let pos = self.game.position();
        match relayed {
            Relayed::Uci(u) => u.to_move(pos).ok().or_else(|| match u {
                shakmaty::uci::UciMove::Normal {
                    from,
                    to,
                    promotion: Some(_),
                } => shakmaty::uci::UciMove::Normal {
                    from,
                    to,
                    promotion: None,
                }
                .to_move(pos)
                .ok(),
                _ => None,
            }),
            Relayed::San(s) => s.to_move(pos).ok(),
        }
        .filter(|&m| pos.is_legal(m))
    }

    /// A move relayed from a board pegboard does not read (E2.9a): played
    /// if legal here and now, else refused with the game unchanged.
    fn relayed(&mut self, t: u64, relayed: Relayed, out: &mut Vec<Stamped>) {
        if let Some(refused) = self.refusal(t, &Input::Move(relayed)) {
            out.push(refused);
        } else if let Some(m) = self.relayed_move(relayed) {
            let mover = self.game.position().turn();
            // Only a person's relayed move can be taken back: never the
            // engine's reply nor a move the server sent.
            let by_a_person =
                !matches!(self.settings.seats.of(mover), Seat::Engine | Seat::Lichess);
            let before = self.clock.as_ref().map(|c| c.before_move(t, mover));
            let ply = self.game.ply();
            self.play(t, None, m, false, out);
            if by_a_person && self.game.ply() > ply {
                self.relayed_last = Some(super::RelayedLast {
                    ply: self.game.ply(),
                    t,
                    mover,
                    before,
                });
            }
        }
    }

    /// The last move a person relayed, which made ply `ply`, is taken back
    /// at once (the assistant relayed a wrong move): the game goes back one
    /// ply as in a retrace, and the mover's time to what it was when he
    /// moved; his clock runs again. Nothing else of the clock changes: the
    /// opponent's time, an arbiter's pause, a time added.
    fn take_back(&mut self, t: u64, ply: u32, out: &mut Vec<Stamped>) {
        if let Some(refused) = self.refusal(t, &Input::TakeBack(ply)) {
            out.push(refused);
            return;
        }
        let Some(last) = self.relayed_last.take() else {
            return;
        };
        self.retrace(t, ply.saturating_sub(1), out);
        if let (Some(clock), Some(before)) = (self.clock.as_mut(), last.before) {
            clock.take_back(t, last.mover, before);
            self.clock_event(t, ClockCause::Set, out);
        }
    }

    /// The arbiter takes the game back to the position after `ply` moves
    /// (E2.8). The clocks stay as they are until he sets them; every board
    /// is guided back, square by square.
    pub(super) fn retrace(&mut self, t: u64, ply: u32, out: &mut Vec<Stamped>) {
        if let Some(refused) = self.refusal(t, &Input::Retrace(ply)) {
            out.push(refused);
            return;
        }
        let shown: Vec<shakmaty::Chess> = self
            .boards
            .iter()
            .map(|b| b.tracker.shown(&self.game))
            .collect();
        self.game.retrace(ply);
        self.practice_retraced(ply);
        self.relayed_last = None;
        self.announced = self.announced.min(ply);
        self.new_game_asked = None;
        let say = Said::Joined(
            vec![
                Notice::Retraced.into(),
                Said::MoveNumber(Box::new(self.game.position().clone())),
            ],
            Joint::Space,
        );
        out.push(Stamped {
            t,
            event: Event::Retraced {
                ply,
                fen: self.game.fen(),
                say,
            },
        });
        for (i, shown) in shown.into_iter().enumerate() {
            let lagging = self.boards[i].tracker.lag().is_some();
            if lagging || !super::super::replica::differing(&shown, self.game.position()).is_empty()
            {
                self.boards[i].tracker.fall_behind(shown, None);
                self.replicate(t, i, out);
            }
        }
        for i in 0..self.boards.len() {
            let mut more = Vec::new();
            self.boards[i]
                .tracker
                .after_move(t, false, &self.game, &self.settings, &mut more);
            self.apply(t, i, more, out);
        }
    }

    /// What differs between the board `name` and the game.
    fn differences_said(&self, name: &str) -> Said {
        let Some(b) = self.board_index(name) else {
            return Notice::BoardMatches.into();
        };
        let (missing, extra) =
            super::super::replica::against(self.game.position(), self.boards[b].tracker.occupied());
        if missing.is_empty() && extra.is_empty() {
            return Notice::BoardMatches.into();
        }
        Said::Mismatch { missing, extra }
    }

    /// The speech output has begun to say the move of `ply` (E2.3c).
    fn announce(&mut self, t: u64, ply: u32, out: &mut Vec<Stamped>) {
        // Only the newest executed move can become announced; a late
        // or unknown report changes nothing.
        if ply > self.announced && ply <= self.game.ply() {
            let skipped = self.announced + 1..ply;
            self.announced = ply;
            let color = self.game.moves()[ply as usize - 1].color;
            out.push(Stamped {
                t,
                event: Event::Announced {
                    ply,
                    color: Side(color),
                },
            });
            // E2.3: executed and announced, the move is complete;
            // the controller presses the clock for the players it
            // presses for. A move whose report never came is
            // complete too, since a later one was announced.
            for p in skipped.chain([ply]) {
                let color = self.game.moves()[p as usize - 1].color;
                let player = self.settings.preferences.color;
                // The engine has no hand: pegboard presses for it always.
                let engine = *self.settings.seats.of(color) == Seat::Engine;
                let presses = self.settings.clock.controller_presses;
                if engine || presses.includes(color, player) {
                    // A move pegboard judged later than it was made is
                    // counted from when it was made (4.6, E2.3): what
                    // pegboard waited is nobody's time.
                    // The engine's time stops when its move is made:
                    // the wait for the voices is not its to spend.
                    let late = self.judged_late.filter(|late| late.ply == p);
                    let from = match late {
                        Some(late) if late.engine => late.made,
                        Some(late) => t.saturating_sub(late.judged - late.made),
                        None => t,
                    };
                    self.complete_from(t, from, color, out);
                }
            }
            self.apply_server_clock(t, out);
        }
    }

    /// pegboard started again on this game (the `restarted` input): the
    /// last move counts as announced (the summary says it), the clocks
    /// stop unless told to run on (`hold` false), and what happened while
    /// pegboard was off is judged as after an outage.
    fn restarted(&mut self, t: u64, hold: bool, out: &mut Vec<Stamped>) {
        // Online, the server's clock ran on meanwhile: its next reading
        // sets pegboard's, which is not held.
        let hold = hold && self.online.is_none();
        let ply = self.game.ply();
        if ply > self.announced {
            self.announce(t, ply, out);
        }
        if hold && !self.game.is_over() && self.clock.as_mut().is_some_and(|c| c.pause(t)) {
            self.clock_event(t, ClockCause::Pause, out);
        }
        let mut parts: Vec<Said> = vec![Notice::Resumed.into()];
        if self.game.is_over() {
            parts.push(Notice::GameOverAlready.into());
        } else {
            let pos = self.game.position();
            parts.push(Said::MoveNumber(Box::new(pos.clone())));
            if let Some((before, pm)) = self.game.last_moves(1).first() {
                parts.push(Said::NumberedMove {
                    number: pm.number,
                    before: Box::new(before.clone()),
                    m: pm.m,
                });
            }
            parts.extend(self.times_said(t));
            if self.clock.as_ref().is_some_and(|c| c.is_paused()) {
                parts.push(Notice::ClocksHeld.into());
            }
        }
        // Each part a sentence of its own.
        let say = Said::Joined(parts, Joint::Sentences);
        out.push(Stamped {
            t,
            event: Event::Resumed { ply, say },
        });
        for i in 0..self.boards.len() {
            self.board_back(t, i, out);
        }
    }
}

impl Controller {
    /// A resignation asked for `color` by the key or by the console
    /// (`console`): done when the same asked within its time before, else
    /// asked whether he means it.
    fn resign_when_asked_twice(
        &mut self,
        t: u64,
        color: Color,
        console: bool,
        out: &mut Vec<Stamped>,
    ) {
        let within = super::super::input::RESIGN_CONFIRM_WITHIN_MS;
        let asked = if console {
            self.console_resign_asked.get_mut(color)
        } else {
            self.resign_asked.get_mut(color)
        };
        let confirmed = asked.is_some_and(|at| t.saturating_sub(at) <= within);
        if self.game.is_over() {
            self.notice(t, Notice::GameOverAlready, out);
        } else if confirmed {
            *asked = None;
            self.input(t, Input::Resign(color), out);
        } else {
            *asked = Some(t);
            self.notice(t, Notice::ResignConfirm, out);
        }
    }
}
