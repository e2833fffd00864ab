//! The controller: raw scans and inputs in, events out.
//!
//! A pure state machine. Time is a value passed in with every call; timers
//! (debounce windows, settle and castling waits) fire at exact simulated
//! instants through [`Controller::advance`], so a replay is deterministic
//! and every rule can be tested from a trace.

use shakmaty::{Bitboard, ByColor, CastlingMode, Color, Piece, Position, Square};

use super::clock::{Class, Clock, Signal};
use super::debounce::{Debouncer, SquareChange};
use super::event::{ClockCause, Event, MissingPiece, Side, Stamped, piece_letter};
use super::game::{ClaimOutcome, Ending, Game, Reason, StartError, StartPosition};
use super::input::{ClockSetting, Input};
use super::settings::{ClockStart, FlagRule, Settings};
use super::touch::{Duty, Obligation};
use super::tracker::{Tracker, Verdict};
use crate::announce::phrases::{Notice, Phrasebook};

/// The name of the visually handicapped player's board.
pub const BLIND_BOARD: &str = "blind";

#[derive(Debug, Clone)]
struct BoardView {
    name: String,
    debounce: Debouncer,
    tracker: Tracker,
}

#[derive(Debug, Clone)]
pub struct Controller {
    settings: Settings,
    words: Phrasebook,
    game: Game,
    boards: Vec<BoardView>,
    /// The earliest instant at which any timer fires.
    deadline: Option<u64>,
    changes: Vec<SquareChange>,
    /// The highest ply whose announcement has started (E2.3c).
    announced: u32,
    /// The clock, if a time control is set.
    clock: Option<Clock>,
}

/// Penalty times (7.4b, 10.2; 9.5b).
const TWO_MINUTES: u64 = 120_000;
const THREE_MINUTES: u64 = 180_000;

impl Controller {
    /// A controller for a game from `start`, with one board per name.
    /// Every board is believed to show the start position until it is read.
    pub fn new(
        start: &StartPosition,
        settings: Settings,
        words: Phrasebook,
        board_names: &[&str],
    ) -> Result<Controller, StartError> {
        let game = Game::from_start(start)?;
        let boards = board_names
            .iter()
            .map(|&name| BoardView {
                name: name.to_string(),
                debounce: Debouncer::new(settings.debounce_ms, game.occupied()),
                tracker: Tracker::new(game.occupied(), &game),
            })
            .collect();
        let clock = settings.clock.control.clone().map(|control| {
            let warn = settings.clock.warn;
            Clock::new(control)
                .with_increment(settings.clock.increment)
                .with_warnings(
                    &settings.clock.warnings_ms,
                    ByColor::new_with(|c| warn.includes(c)),
                )
        });
        Ok(Controller {
            settings,
            words,
            game,
            boards,
            deadline: None,
            changes: Vec::new(),
            announced: 0,
            clock,
        })
    }

    /// Opens the event stream at `t`: the `ready` event, then, with a
    /// clock that starts with the game, the first player's clock (6.5).
    pub fn start(&mut self, t: u64, out: &mut Vec<Stamped>) {
        out.push(self.ready(t));
        let first = self.game.turn();
        let starts_now = self.settings.clock.start == ClockStart::Game;
        if let Some(clock) = self.clock.as_mut().filter(|_| starts_now)
            && !self.game.is_over()
        {
            clock.start(t, first);
            self.clock_event(t, ClockCause::Start, out);
        }
        self.recompute_deadline();
    }

    /// The clock, if a time control is set.
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    /// The `ready` event that opens every event stream.
    pub fn ready(&self, t: u64) -> Stamped {
        Stamped {
            t,
            event: Event::Ready {
                fen: self.game.fen(),
                variant: match self.game.castling_mode() {
                    CastlingMode::Standard => "standard",
                    CastlingMode::Chess960 => "chess960",
                },
            },
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The highest ply whose announcement has started (0: none yet).
    pub fn announced_ply(&self) -> u32 {
        self.announced
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn board_index(&self, name: &str) -> Option<usize> {
        self.boards.iter().position(|b| b.name == name)
    }

    pub fn board_names(&self) -> impl Iterator<Item = &str> {
        self.boards.iter().map(|b| b.name.as_str())
    }

    /// The last raw reading of a board.
    pub fn raw(&self, board: usize) -> Bitboard {
        self.boards[board].debounce.raw()
    }

    /// The debounced occupancy of a board.
    pub fn stable(&self, board: usize) -> Bitboard {
        self.boards[board].tracker.occupied()
    }

    /// When the next timer fires, if any.
    #[inline]
    pub fn next_deadline(&self) -> Option<u64> {
        self.deadline
    }

    fn recompute_deadline(&mut self) {
        let clock = self.clock.as_ref().and_then(Clock::next_deadline);
        self.deadline = self
            .boards
            .iter()
            .flat_map(|b| [b.debounce.next_deadline(), b.tracker.next_deadline()])
            .chain([clock])
            .flatten()
            .min();
    }

    /// Fires every timer due at or before `t`, in time order.
    pub fn advance(&mut self, t: u64, out: &mut Vec<Stamped>) {
        while let Some(d) = self.deadline.filter(|&d| d <= t) {
            self.fire(d, out);
        }
    }

    /// Fires every timer there is: the end of a trace.
    pub fn finish(&mut self, out: &mut Vec<Stamped>) {
        // Each firing either clears a timer or reports and clears it, so
        // this ends; the bound guards against a future timer that re-arms.
        for _ in 0..10_000 {
            match self.deadline {
                Some(d) => self.fire(d, out),
                None => break,
            }
        }
    }

    fn fire(&mut self, d: u64, out: &mut Vec<Stamped>) {
        for i in 0..self.boards.len() {
            let mut changes = std::mem::take(&mut self.changes);
            changes.clear();
            while self.boards[i].debounce.advance(d, &mut changes).is_some() {}
            if !changes.is_empty() {
                let mut verdicts = Vec::new();
                let b = &mut self.boards[i];
                b.tracker
                    .changes(d, &changes, &self.game, &self.settings, &mut verdicts);
                self.apply(d, i, verdicts, out);
            }
            self.changes = changes;
            if self.boards[i]
                .tracker
                .next_deadline()
                .is_some_and(|x| x <= d)
            {
                let mut verdicts = Vec::new();
                let b = &mut self.boards[i];
                b.tracker
                    .on_timer(d, &self.game, &self.settings, &mut verdicts);
                self.apply(d, i, verdicts, out);
            }
        }
        if let Some(signal) = self.clock.as_mut().and_then(|c| c.fire(d)) {
            self.clock_signal(d, signal, out);
        }
        self.recompute_deadline();
    }

    /// A raw reading of every square of `board` at `t`.
    #[inline]
    pub fn scan(&mut self, t: u64, board: usize, occ: Bitboard, out: &mut Vec<Stamped>) {
        if occ == self.boards[board].debounce.raw() && self.deadline.is_none_or(|d| d > t) {
            return;
        }
        self.advance(t, out);
        self.boards[board].debounce.scan(t, occ);
        self.recompute_deadline();
        self.advance(t, out);
    }

    /// Trace shorthand: the previous raw reading with `sq` emptied.
    pub fn lift(&mut self, t: u64, board: usize, sq: Square, out: &mut Vec<Stamped>) {
        let occ = self.raw(board).without(sq);
        self.scan(t, board, occ, out);
    }

    /// Trace shorthand: the previous raw reading with `sq` filled.
    pub fn place(&mut self, t: u64, board: usize, sq: Square, out: &mut Vec<Stamped>) {
        let occ = self.raw(board).with(sq);
        self.scan(t, board, occ, out);
    }

    /// Says a notice without values.
    fn notice(&self, t: u64, notice: Notice, out: &mut Vec<Stamped>) {
        self.say(t, self.words.notice(notice), out);
    }

    fn say(&self, t: u64, text: String, out: &mut Vec<Stamped>) {
        out.push(Stamped {
            t,
            event: Event::Say { text },
        });
    }

    /// A button, keypad or console action at `t`.
    pub fn input(&mut self, t: u64, input: Input, out: &mut Vec<Stamped>) {
        self.advance(t, out);
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
            Input::Adjust => {
                for b in &mut self.boards {
                    b.tracker.adjust(&self.game);
                }
            }
            // 6.7: a player (or his assistant, E2.9c) presses the clock.
            Input::Clock(color) => self.press(t, color, out),
            Input::Repeat(n) => {
                let numbered: Vec<String> = self
                    .game
                    .last_moves(n as usize)
                    .iter()
                    .map(|(before, pm)| self.words.numbered_move(pm.number, before, pm.m))
                    .collect();
                let text = self.words.moves_again(&numbered);
                self.say(t, text, out);
            }
            Input::MoveNumber => {
                let text = self.words.move_number(self.game.position());
                self.say(t, text, out);
            }
            Input::Rank(rank) => {
                let text = self.words.rank_scan(self.game.position(), rank);
                self.say(t, text, out);
            }
            Input::File(file) => {
                let text = self.words.file_scan(self.game.position(), file);
                self.say(t, text, out);
            }
            Input::Announced(ply) => {
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
                        if self.settings.clock.controller_presses.includes(color) {
                            self.press(t, color, out);
                        }
                    }
                }
            }
            Input::Times => {
                let text = self
                    .times_text(t)
                    .unwrap_or_else(|| self.words.notice(Notice::NoClock));
                self.say(t, text, out);
            }
            Input::Position => {
                let text = self.words.position(self.game.position());
                self.say(t, text, out);
            }
            Input::Square(sq) => {
                let text = self.words.square_query(self.game.position(), sq);
                self.say(t, text, out);
            }
            Input::DrawOffer(color) => {
                if self.game.is_over() {
                    self.notice(t, Notice::GameOverAlready, out);
                } else if let Some(ending) = self.game.offer_draw(color) {
                    self.game_over(t, ending, out);
                } else {
                    let text = self.words.draw_offer(color);
                    self.say(t, text, out);
                }
            }
            Input::DrawClaim(color) => {
                let notice = match self.game.claim_draw(color) {
                    ClaimOutcome::Drawn(ending) => {
                        self.game_over(t, ending, out);
                        self.recompute_deadline();
                        return;
                    }
                    ClaimOutcome::Pending => Notice::ClaimPending,
                    ClaimOutcome::Incorrect => {
                        self.notice(t, Notice::ClaimIncorrect, out);
                        self.penalty(t, !color, THREE_MINUTES, out);
                        self.recompute_deadline();
                        return;
                    }
                    ClaimOutcome::NotYourMove => Notice::ClaimNotYourMove,
                    ClaimOutcome::GameOver => Notice::GameOverAlready,
                };
                self.notice(t, notice, out);
            }
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
            Input::FlagClaim(color) => self.flag_claim(t, color, out),
            Input::BoardLost => self.notice(t, Notice::BoardLost, out),
            Input::BoardBack => {
                for b in &mut self.boards {
                    b.tracker.board_back();
                }
                self.notice(t, Notice::BoardBack, out);
            }
        }
        self.recompute_deadline();
    }

    /// The clock's state at `t` as a `clock` event.
    fn clock_event(&self, t: u64, cause: ClockCause, out: &mut Vec<Stamped>) {
        if let Some(clock) = &self.clock {
            out.push(Stamped {
                t,
                event: Event::clock(cause, &clock.face(t)),
            });
        }
    }

    /// Both times at `t` and the moves to the next control of the player
    /// to move, as said aloud (E2.9d); `None` without a clock.
    fn times_text(&self, t: u64) -> Option<String> {
        let clock = self.clock.as_ref()?;
        let face = clock.face(t);
        let to_move = clock.running().unwrap_or(self.game.turn());
        Some(self.words.times(
            face.remaining(Color::White),
            face.remaining(Color::Black),
            clock.moves_to_control(to_move),
        ))
    }

    /// `color`'s clock is pressed at `t` (6.7, E2.3).
    fn press(&mut self, t: u64, color: Color, out: &mut Vec<Stamped>) {
        if self.game.is_over() {
            return;
        }
        let first = self.game.start_position().turn();
        let Some(clock) = self.clock.as_mut() else {
            return;
        };
        let cause = match clock.press(t, color, first) {
            super::clock::Press::Switched { new_period: true } => ClockCause::Period,
            super::clock::Press::Switched { new_period: false } => ClockCause::Press,
            super::clock::Press::Started => ClockCause::Start,
            super::clock::Press::Ignored => return,
        };
        self.clock_event(t, cause, out);
    }

    /// A flag fell or a warning is due.
    fn clock_signal(&mut self, t: u64, signal: Signal, out: &mut Vec<Stamped>) {
        let Some(clock) = &self.clock else { return };
        match signal {
            Signal::Warning(color, ms) => out.push(Stamped {
                t,
                event: Event::TimeWarning {
                    color: Side(color),
                    remaining_ms: ms,
                    say: self.words.time_warning(color, ms),
                },
            }),
            Signal::Flag(color) => {
                // A4d: in rapid and blitz without adequate supervision the
                // flag counts only on a claim; otherwise at once (6.9).
                let on_claim = self.settings.clock.flag == FlagRule::Claim
                    && clock.control().class() != Class::Standard;
                let both = clock.flag(!color).is_some();
                let last_period = clock.in_last_period(color) && clock.in_last_period(!color);
                self.clock_event(t, ClockCause::Flag, out);
                let say = self.words.flag(color);
                out.push(Stamped {
                    t,
                    event: Event::Flag {
                        color: Side(color),
                        say,
                    },
                });
                if !on_claim {
                    if let Some(ending) = self.game.lose(color, Reason::Flag) {
                        self.game_over(t, ending, out);
                    }
                } else if both {
                    // 6.11: both flags fell and no claim told which first.
                    if last_period {
                        if let Some(ending) = self.game.draw(Reason::BothFlags) {
                            self.game_over(t, ending, out);
                        }
                    } else {
                        self.notice(t, Notice::BothFlags, out);
                    }
                }
            }
        }
    }

    /// `color` is given `ms` as a penalty for the opponent.
    fn penalty(&mut self, t: u64, color: Color, ms: u64, out: &mut Vec<Stamped>) {
        let Some(clock) = self.clock.as_mut() else {
            return;
        };
        if self.game.is_over() {
            return;
        }
        clock.add(t, color, ms);
        self.clock_event(t, ClockCause::Penalty, out);
        let text = self.words.time_added(color, ms);
        self.say(t, text, out);
    }

    fn set_clock(&mut self, t: u64, setting: ClockSetting, out: &mut Vec<Stamped>) {
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
        let times = self.times_text(t).unwrap_or_default();
        self.clock_event(t, ClockCause::Set, out);
        let text = self.words.clock_set(&times);
        self.say(t, text, out);
    }

    /// 7.4b: a completed illegal move, as the arbiter rules it.
    fn illegal_move(&mut self, t: u64, color: Color, out: &mut Vec<Stamped>) {
        if self.game.is_over() {
            self.notice(t, Notice::GameOverAlready, out);
            return;
        }
        let count = self.game.record_penalized_illegal_move(color);
        if count >= 3 && self.settings.clock.third_illegal_move_loses {
            if let Some(ending) = self.game.lose(color, Reason::IllegalMoves) {
                self.game_over(t, ending, out);
            }
        } else {
            self.penalty(t, !color, TWO_MINUTES, out);
        }
    }

    /// 10.2: a draw claim with less than two minutes left, for the arbiter.
    fn quickplay_claim(&mut self, t: u64, color: Color, out: &mut Vec<Stamped>) {
        if self.game.is_over() {
            self.notice(t, Notice::GameOverAlready, out);
            return;
        }
        let valid = self.clock.as_ref().is_some_and(|c| {
            c.running() == Some(color)
                && !c.is_paused()
                && c.flag(color).is_none()
                && c.in_last_period(color)
                && c.remaining(t, color) < TWO_MINUTES
        });
        if valid {
            self.notice(t, Notice::QuickplayClaim, out);
            self.penalty(t, !color, TWO_MINUTES, out);
        } else {
            self.notice(t, Notice::QuickplayClaimIncorrect, out);
        }
    }

    /// A4d, E2.9e: `color` claims that the opponent's flag has fallen.
    fn flag_claim(&mut self, t: u64, color: Color, out: &mut Vec<Stamped>) {
        if self.game.is_over() {
            self.notice(t, Notice::GameOverAlready, out);
            return;
        }
        if self
            .clock
            .as_ref()
            .is_some_and(|c| c.flag(!color).is_some())
        {
            if let Some(ending) = self.game.lose(!color, Reason::Flag) {
                self.game_over(t, ending, out);
            }
        } else {
            self.notice(t, Notice::FlagClaimIncorrect, out);
        }
    }

    /// The game ended at `t`: say so, and stop the clock.
    fn game_over(&mut self, t: u64, ending: Ending, out: &mut Vec<Stamped>) {
        let say = self
            .words
            .game_over(ending.reason, ending.outcome, ending.by);
        out.push(Stamped {
            t,
            event: Event::GameOver {
                result: ending.outcome.as_str(),
                reason: ending.reason,
                say,
            },
        });
        if let Some(clock) = self.clock.as_mut()
            && clock.running().is_some()
        {
            clock.stop(t);
            self.clock_event(t, ClockCause::Stop, out);
        }
    }

    fn missing_list(&self, missing: &[(Square, Piece)]) -> Vec<MissingPiece> {
        missing
            .iter()
            .map(|&(sq, p)| MissingPiece {
                square: sq.to_string(),
                piece: piece_letter(p.color, p.role),
            })
            .collect()
    }

    fn violation_text(&self, ob: &Obligation) -> String {
        let role = |sq: Square| {
            self.game
                .position()
                .board()
                .role_at(sq)
                .unwrap_or(shakmaty::Role::Pawn)
        };
        match ob.duty {
            Duty::Move(sq) | Duty::KingMove(sq) => self.words.touch_violation(role(sq), sq, false),
            Duty::Capture(sq) => self.words.touch_violation(role(sq), sq, true),
            Duty::Castle(_) => self.words.notice(Notice::TouchViolationCastle),
        }
    }

    fn touch_violation(
        &self,
        t: u64,
        board: &str,
        m: shakmaty::Move,
        ob: &Obligation,
        rejected: bool,
        out: &mut Vec<Stamped>,
    ) {
        out.push(Stamped {
            t,
            event: Event::TouchViolation {
                board: board.to_string(),
                color: Side(self.game.turn()),
                touched: ob.duty.square().to_string(),
                moved: m.from().unwrap_or(m.to()).to_string(),
                article: ob.article,
                rejected,
                say: self.violation_text(ob),
            },
        });
    }

    fn apply(&mut self, t: u64, board: usize, verdicts: Vec<Verdict>, out: &mut Vec<Stamped>) {
        let name = self.boards[board].name.clone();
        for verdict in verdicts {
            match verdict {
                Verdict::Touch(touch) => out.push(Stamped {
                    t,
                    event: Event::Touch {
                        board: name.clone(),
                        color: Side(self.game.turn()),
                        square: touch.square.to_string(),
                        piece: piece_letter(touch.piece.color, touch.piece.role),
                    },
                }),
                Verdict::Execute {
                    m,
                    violation,
                    settled,
                } => {
                    if let Some(ob) = &violation {
                        self.touch_violation(t, &name, m, ob, false, out);
                    }
                    let before = self.game.position().clone();
                    let color: Color = before.turn();
                    let claim_was_pending = self.game.pending_claim() == Some(color);
                    let say = self.words.move_text(&before, m);
                    let Some(played) = self.game.play(m) else {
                        continue;
                    };
                    out.push(Stamped {
                        t,
                        event: Event::Move {
                            board: name.clone(),
                            ply: played.ply,
                            color: Side(played.color),
                            uci: played.uci.clone(),
                            san: played.san.clone(),
                            say,
                            fen: played.fen.clone(),
                        },
                    });
                    if let Some(ending) = self.game.ending() {
                        self.game_over(t, ending, out);
                    } else if claim_was_pending {
                        self.notice(t, Notice::ClaimIncorrect, out);
                        self.penalty(t, !color, THREE_MINUTES, out);
                    }
                    for i in 0..self.boards.len() {
                        let mut more = Vec::new();
                        let s = if i == board { settled } else { false };
                        self.boards[i].tracker.after_move(
                            t,
                            s,
                            &self.game,
                            &self.settings,
                            &mut more,
                        );
                        self.apply(t, i, more, out);
                    }
                }
                Verdict::Rejected { m, obligation } => {
                    self.touch_violation(t, &name, m, &obligation, true, out);
                }
                Verdict::PromotionPending(sq) => {
                    let say = self.words.promotion_pending(sq);
                    out.push(Stamped {
                        t,
                        event: Event::PromotionPending {
                            board: name.clone(),
                            square: sq.to_string(),
                            say,
                        },
                    });
                }
                Verdict::Illegal { missing, extra } => {
                    let color = self.game.turn();
                    let count = self.game.record_illegal_move(color);
                    out.push(Stamped {
                        t,
                        event: Event::Illegal {
                            board: name.clone(),
                            color: Side(color),
                            count,
                            missing: self.missing_list(&missing),
                            extra: extra.iter().map(|s| s.to_string()).collect(),
                            say: self.words.illegal(&missing, &extra),
                        },
                    });
                }
                Verdict::Mismatch { missing, extra } => out.push(Stamped {
                    t,
                    event: Event::Mismatch {
                        board: name.clone(),
                        missing: self.missing_list(&missing),
                        extra: extra.iter().map(|s| s.to_string()).collect(),
                        say: self.words.mismatch(&missing, &extra),
                    },
                }),
                Verdict::Restored => out.push(Stamped {
                    t,
                    event: Event::Restored {
                        board: name.clone(),
                        say: self.words.notice(Notice::Restored),
                    },
                }),
            }
        }
    }
}
