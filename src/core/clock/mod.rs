//! The chess clock (Art. 6): two times, only one running, pressed when a
//! move is complete.
//!
//! Pure, like the rest of the core: every call takes the instant `t` (in
//! milliseconds) and nothing reads a real clock, so every rule can be
//! tested to the millisecond and a replay is exact. All arithmetic is in
//! integer milliseconds: no drift, however long the game.
//!
//! Every value that enters is bounded where it enters (a control's periods
//! by [`TimeControl::new`], a time the arbiter sets by [`MAX_TIME_MS`]),
//! and every sum inside saturates, so no input can wrap a time around.

pub mod control;

use shakmaty::{ByColor, Color};

pub use control::{
    Bonus, Class, ControlError, MAX_BONUS_MS, MAX_PERIOD_MOVES, MAX_PERIOD_MS, MAX_PERIODS, Period,
    TimeControl,
};

/// The most time a clock can show for one player: 100 hours. A time the
/// arbiter sets is refused above it; penalties and bonuses stop there.
pub const MAX_TIME_MS: u64 = 100 * 60 * 60 * 1000;
/// The highest move counter the arbiter may set.
pub const MAX_MOVES: u32 = 10_000;

/// When a Fischer increment is given (6.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IncrementTiming {
    /// Before each move, as the hall's electronic clocks in their FIDE
    /// modes do: both clocks show the first increment at the start
    /// (1:30:30 for 90+30), and each press adds the next move's.
    #[default]
    Before,
    /// After each move, as the Laws word it: the clocks start at the bare
    /// period time and each press adds the increment of the move just made.
    After,
}

/// One player's side of the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Side {
    /// Main time left; for the running side, as of [`Clock::since`].
    remaining: u64,
    /// Simple delay still unused for the current move (6.2b).
    delay_left: u64,
    /// Time the current move has used so far (for Bronstein).
    move_used: u64,
    /// Moves completed (clock presses that counted).
    moves: u32,
    /// The period in force (0-based, counting repeats of the last one).
    period: usize,
    /// The instant this side's flag fell in the current period.
    flag: Option<u64>,
    /// The next low-time warning to give, as an index into the thresholds.
    next_warning: usize,
}

/// One side of the clock as it stood before that side's move, to go back
/// to should the move be taken back ([`Clock::take_back`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Before {
    side: Side,
    started: bool,
    running: Option<Color>,
    ticked: u64,
    arbiter: i64,
}

/// What a press did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Press {
    /// The press counted: the presser's clock stopped, the other started.
    Switched {
        /// The presser entered a new period, whose time was added.
        new_period: bool,
    },
    /// The first press of a clock that starts at the first move: the
    /// opponent's clock started.
    Started,
    /// The presser's clock was not running (or the clock is paused or
    /// stopped): nothing changed, as on a real clock.
    Ignored,
}

/// A timer of the clock that fired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// The running side's time reached zero at this instant (6.1).
    Flag(Color),
    /// The running side's time reached this low-time threshold.
    Warning(Color, u64),
}

/// The clock as a display shows it at one instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Face {
    pub running: Option<Color>,
    pub paused: bool,
    /// Remaining time.
    pub remaining: ByColor<u64>,
    /// Moves completed.
    pub moves: ByColor<u32>,
    /// The period in force, 1-based.
    pub periods: ByColor<u32>,
    pub flags: ByColor<bool>,
}

impl Face {
    pub fn remaining(&self, color: Color) -> u64 {
        *self.remaining.get(color)
    }
    pub fn flag(&self, color: Color) -> bool {
        *self.flags.get(color)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    sides: ByColor<Side>,
    running: Option<Color>,
    paused: bool,
    /// Whether the clock has ever been started.
    started: bool,
    /// The instant the running side's current stretch began (start, press
    /// or resume). Its elapsed time is folded in by [`Clock::settle`].
    since: u64,
    /// Low-time warning thresholds, largest first; warnings are given for
    /// the sides marked in `warned`.
    thresholds: Vec<u64>,
    warned: ByColor<bool>,
    increment: IncrementTiming,
    /// Each side's first move is free (lichess's clock): the clock starts
    /// when both are complete, not at the first.
    first_moves_free: bool,
    /// The time that has run on either side, all told (never while
    /// paused or stopped).
    ticked: u64,
    /// What the arbiter has added to or set on each side's time, all told
    /// (a penalty, a correction), as a change.
    arbiter: ByColor<i64>,
}

/// How far above a warning's mark the time must stand for the warning
/// to be given when it falls past it: a fifth of the mark, at least 10 s.
pub fn warning_margin(mark_ms: u64) -> u64 {
    (mark_ms / 5).max(10_000)
}

impl Clock {
    /// A clock set for `control`, not yet running, that gives increments
    /// after each move (see [`Clock::with_increment`]).
    pub fn new(control: TimeControl) -> Clock {
        let first = control.periods()[0];
        let side = Side {
            remaining: first.ms,
            delay_left: 0,
            move_used: 0,
            moves: 0,
            period: 0,
            flag: None,
            next_warning: 0,
        };
        Clock {
            control,
            sides: ByColor::new_with(|_| side),
            running: None,
            paused: false,
            started: false,
            since: 0,
            thresholds: Vec::new(),
            warned: ByColor::new_with(|_| false),
            increment: IncrementTiming::After,
            first_moves_free: false,
            ticked: 0,
            arbiter: ByColor::new_with(|_| 0),
        }
    }

    /// Leaves each side's first move free, not only the first player's:
    /// a clock not started starts when both first moves are complete (the
    /// first player's clock then runs), as lichess's does.
    pub fn with_first_moves_free(mut self, free: bool) -> Clock {
        self.first_moves_free = free;
        self
    }

    /// Gives Fischer increments before or after each move. Before: each
    /// side gets the first move's increment now, at the setting.
    pub fn with_increment(mut self, timing: IncrementTiming) -> Clock {
        if timing == IncrementTiming::Before && self.increment == IncrementTiming::After {
            for c in [Color::White, Color::Black] {
                let side = self.sides.get_mut(c);
                side.remaining = side
                    .remaining
                    .saturating_add(self.control.increment_for(side.moves));
                self.rearm_warnings(c);
            }
        }
        self.increment = timing;
        self
    }

    /// Gives a low-time warning to the sides in `warned` when their time
    /// reaches each of `thresholds` (in ms) from above.
    pub fn with_warnings(mut self, thresholds: &[u64], warned: ByColor<bool>) -> Clock {
        let mut t: Vec<u64> = thresholds.iter().copied().filter(|&ms| ms > 0).collect();
        t.sort_unstable_by(|a, b| b.cmp(a));
        t.dedup();
        let all = t.len();
        self.thresholds = t;
        self.warned = warned;
        for c in [Color::White, Color::Black] {
            self.sides.get_mut(c).next_warning = all;
            self.rearm_warnings(c);
        }
        self
    }

    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    pub fn running(&self) -> Option<Color> {
        self.running
    }

    pub fn is_paused(&self) -> bool {
        self.paused
    }

    pub fn is_started(&self) -> bool {
        self.started
    }

    pub fn moves(&self, color: Color) -> u32 {
        self.sides.get(color).moves
    }

    pub fn flag(&self, color: Color) -> Option<u64> {
        self.sides.get(color).flag
    }

    /// Whether `color` plays in the last period, for all remaining moves.
    pub fn in_last_period(&self, color: Color) -> bool {
        self.control.is_last_period(self.moves(color))
    }

    /// Moves `color` still has to complete before the next control, the
    /// current one included; `None` in a period for all remaining moves.
    pub fn moves_to_control(&self, color: Color) -> Option<u32> {
        let moves = self.moves(color);
        self.control.control_at(moves).map(|at| at - moves)
    }

    fn delay(&self, side: &Side) -> u64 {
        match self.control.period_after(side.moves).1.bonus {
            Bonus::Delay(ms) => ms,
            _ => 0,
        }
    }

    /// How the running side's `since` state splits `elapsed`: (from the
    /// delay, from the main time).
    fn split(side: &Side, elapsed: u64) -> (u64, u64) {
        let from_delay = elapsed.min(side.delay_left);
        (from_delay, elapsed - from_delay)
    }

    fn ticking(&self) -> Option<Color> {
        self.running.filter(|_| !self.paused)
    }

    /// The time `color` has left at `t` (never below zero).
    pub fn remaining(&self, t: u64, color: Color) -> u64 {
        let side = self.sides.get(color);
        if self.ticking() != Some(color) {
            return side.remaining;
        }
        let (_, main) = Clock::split(side, t.saturating_sub(self.since));
        side.remaining.saturating_sub(main)
    }

    /// The clock at `t`, as a display shows it.
    pub fn face(&self, t: u64) -> Face {
        Face {
            running: self.running,
            paused: self.paused,
            remaining: ByColor::new_with(|c| self.remaining(t, c)),
            moves: self.sides.map(|s| s.moves),
            periods: self.sides.map(|s| s.period as u32 + 1),
            flags: self.sides.map(|s| s.flag.is_some()),
        }
    }

    /// Folds the running side's time since `since` into its state.
    fn settle(&mut self, t: u64) {
        let Some(color) = self.ticking() else {
            self.since = t;
            return;
        };
        let elapsed = t.saturating_sub(self.since);
        let side = self.sides.get_mut(color);
        let (from_delay, main) = Clock::split(side, elapsed);
        side.delay_left -= from_delay;
        side.remaining = side.remaining.saturating_sub(main);
        side.move_used = side.move_used.saturating_add(elapsed);
        self.ticked = self.ticked.saturating_add(elapsed);
        self.since = t;
    }

    /// `color` begins a move at `t`: its delay is fresh, nothing used yet.
    fn begin_move(&mut self, t: u64, color: Color) {
        let delay = self.delay(self.sides.get(color));
        let side = self.sides.get_mut(color);
        side.delay_left = delay;
        side.move_used = 0;
        self.running = Some(color);
        self.since = t;
    }

    /// Starts `color`'s clock at `t` (6.5: White's, at the start of the
    /// game).
    pub fn start(&mut self, t: u64, color: Color) {
        self.started = true;
        self.paused = false;
        self.begin_move(t, color);
    }

    /// `color` presses the clock at `t` (6.7): if its clock runs, the move
    /// is complete, the bonus is applied, the period may change, and the
    /// opponent's clock starts. `first` is the side that moves first, for
    /// a clock that starts at the first move.
    pub fn press(&mut self, t: u64, color: Color, first: Color) -> Press {
        self.press_as(t, t, color, first, false)
    }

    /// `color`'s move is complete at `t` (E2.3: executed and announced),
    /// and pegboard presses for him. Unlike a hand on a paused clock,
    /// this counts while the clock is paused (6.12, or held after a
    /// restart): his move is made, so the move is counted, its bonus and
    /// period applied, and the opponent's time is the one that runs when
    /// the clock is resumed. The clock stays paused.
    pub fn complete(&mut self, t: u64, color: Color, first: Color) -> Press {
        self.press_as(t, t, color, first, true)
    }

    /// [`Clock::complete`] for a move whose time stopped at `stop` (the
    /// moment it was made, when pegboard had to wait to be sure of it)
    /// while the opponent's starts at `t` (its announcement, E2.3): the
    /// time between is nobody's.
    pub fn complete_between(&mut self, stop: u64, t: u64, color: Color, first: Color) -> Press {
        self.press_as(stop.min(t), t, color, first, true)
    }

    fn press_as(
        &mut self,
        stop: u64,
        t: u64,
        color: Color,
        first: Color,
        through_pause: bool,
    ) -> Press {
        if !self.started {
            if self.first_moves_free
                && color != first
                && self.sides.get(first).moves == 1
                && self.sides.get(color).moves == 0
            {
                // The second free move: the first player's clock starts.
                let side = self.sides.get_mut(color);
                side.moves = 1;
                if self.increment == IncrementTiming::Before {
                    side.remaining = side
                        .remaining
                        .saturating_add(self.control.increment_for(side.moves))
                        .min(MAX_TIME_MS);
                }
                self.start(t, first);
                return Press::Started;
            }
            if color != first || (self.first_moves_free && self.sides.get(color).moves > 0) {
                return Press::Ignored;
            }
            // The first move is free; the opponent's clock starts now.
            let side = self.sides.get_mut(color);
            side.moves = side.moves.saturating_add(1);
            if self.increment == IncrementTiming::Before {
                side.remaining = side
                    .remaining
                    .saturating_add(self.control.increment_for(side.moves))
                    .min(MAX_TIME_MS);
            }
            if self.first_moves_free {
                // Free too: nobody's clock runs yet.
                return Press::Ignored;
            }
            self.start(t, !color);
            return Press::Started;
        }
        let held = through_pause && self.paused && self.running == Some(color);
        if self.ticking() != Some(color) && !held {
            return Press::Ignored;
        }
        self.settle(stop);
        let control = &self.control;
        let side = self.sides.get_mut(color);
        let period = control.period_after(side.moves).1;
        // A fallen flag stays fallen: no bonus brings the time back.
        if side.flag.is_none() {
            let bonus = match (period.bonus, self.increment) {
                (Bonus::Increment(ms), IncrementTiming::After) => ms,
                (Bonus::Bronstein(ms), _) => side.move_used.min(ms),
                _ => 0,
            };
            side.remaining = side.remaining.saturating_add(bonus).min(MAX_TIME_MS);
        }
        side.moves = side.moves.saturating_add(1);
        let (now, next) = control.period_after(side.moves);
        let new_period = now != side.period;
        if new_period {
            // 6.2/6.3: the next period's time is added; unused time
            // carries over. A flag of the old period is done with.
            side.period = now;
            side.remaining = side.remaining.saturating_add(next.ms).min(MAX_TIME_MS);
            side.flag = None;
        }
        if self.increment == IncrementTiming::Before && side.flag.is_none() {
            // The increment for the move to come, of the period it is in.
            side.remaining = side
                .remaining
                .saturating_add(control.increment_for(side.moves))
                .min(MAX_TIME_MS);
        }
        self.rearm_warnings(color);
        self.begin_move(t, !color);
        Press::Switched { new_period }
    }

    /// `color`'s side as it stands at `t`, before his move: his time,
    /// moves, period and delay.
    pub fn before_move(&self, t: u64, color: Color) -> Before {
        let mut now = self.clone();
        now.settle(t);
        Before {
            side: *now.sides.get(color),
            started: self.started,
            running: self.running,
            ticked: now.ticked,
            arbiter: *now.arbiter.get(color),
        }
    }

    /// `color`'s move taken back at `t`, as though he had never pressed:
    /// his moves completed, period and bonus as they stood when he made it
    /// (`before`), his time as it was then less all the time that has run
    /// since (on his clock, or on the opponent's after the press), plus
    /// what the arbiter has added or set since; his clock the one that
    /// runs (or runs on resuming, when paused). The opponent's time and a
    /// pause stay as they are. A move that started the clock leaves it
    /// unstarted again.
    pub fn take_back(&mut self, t: u64, color: Color, before: Before) {
        self.settle(t);
        let mut side = before.side;
        let ran = self.ticked.saturating_sub(before.ticked);
        let (from_delay, main) = Clock::split(&side, ran);
        side.delay_left -= from_delay;
        side.remaining = side.remaining.saturating_sub(main);
        side.move_used = side.move_used.saturating_add(ran);
        let added = self.arbiter.get(color).saturating_sub(before.arbiter);
        side.remaining = side.remaining.saturating_add_signed(added).min(MAX_TIME_MS);
        *self.sides.get_mut(color) = side;
        if !before.started {
            self.started = false;
            self.running = before.running;
        } else if self.running.is_some() {
            self.running = Some(color);
        }
        self.since = t;
        self.rearm_warnings(color);
    }

    /// Stops both times at `t` (6.12: to call the arbiter).
    pub fn pause(&mut self, t: u64) -> bool {
        if self.running.is_none() || self.paused {
            return false;
        }
        self.settle(t);
        self.paused = true;
        true
    }

    /// Restarts the time that was running when the clock was paused.
    pub fn resume(&mut self, t: u64) -> bool {
        if self.running.is_none() || !self.paused {
            return false;
        }
        self.paused = false;
        self.since = t;
        true
    }

    /// Stops the clock for good (the game is over).
    pub fn stop(&mut self, t: u64) {
        self.settle(t);
        self.running = None;
        self.paused = false;
    }

    /// Adds `ms` to `color`'s time at `t` (a penalty for the opponent,
    /// 7.4b, 9.5b, 10.2).
    pub fn add(&mut self, t: u64, color: Color, ms: u64) {
        self.settle(t);
        let side = self.sides.get_mut(color);
        let was = side.remaining;
        side.remaining = side.remaining.saturating_add(ms).min(MAX_TIME_MS);
        self.arbiter_changed(color, was);
    }

    /// The arbiter sets `color`'s time (6.13), at most [`MAX_TIME_MS`].
    pub fn set_time(&mut self, t: u64, color: Color, ms: u64) {
        self.settle(t);
        let side = self.sides.get_mut(color);
        let was = side.remaining;
        side.remaining = ms.min(MAX_TIME_MS);
        side.flag = None;
        self.arbiter_changed(color, was);
    }

    /// The arbiter changed `color`'s time from `was`: kept, for a move
    /// taken back later.
    fn arbiter_changed(&mut self, color: Color, was: u64) {
        let now = self.sides.get(color).remaining;
        let change = now as i64 - was as i64;
        let total = self.arbiter.get_mut(color);
        *total = total.saturating_add(change);
        self.rearm_warnings(color);
    }

    /// The arbiter sets the move counter (6.13), at most [`MAX_MOVES`];
    /// the period follows it.
    pub fn set_moves(&mut self, t: u64, color: Color, moves: u32) {
        let moves = moves.min(MAX_MOVES);
        self.settle(t);
        let period = self.control.period_after(moves).0;
        let side = self.sides.get_mut(color);
        side.moves = moves;
        side.period = period;
    }

    /// Marks the warnings at or above `color`'s present time as passed,
    /// and those it stands well above ([`warning_margin`]) as to come: a
    /// warning is given when the time falls past it from above, never
    /// because the game began just above it (5 minutes at 5+3, its
    /// increment given), and once however often the increments lift the
    /// time back just above it.
    fn rearm_warnings(&mut self, color: Color) {
        let side = self.sides.get_mut(color);
        let all = self.thresholds.len();
        let passed = self
            .thresholds
            .iter()
            .position(|&ms| ms < side.remaining)
            .unwrap_or(all);
        let armed = self
            .thresholds
            .iter()
            .position(|&ms| ms.saturating_add(warning_margin(ms)) < side.remaining)
            .unwrap_or(all);
        side.next_warning = side.next_warning.min(armed).max(passed);
    }

    /// The instant of the running side's next warning, and its threshold.
    fn next_warning(&self) -> Option<(u64, u64)> {
        let color = self.ticking()?;
        if !*self.warned.get(color) {
            return None;
        }
        let side = self.sides.get(color);
        let &ms = self.thresholds.get(side.next_warning)?;
        let until = side
            .delay_left
            .saturating_add(side.remaining.checked_sub(ms)?);
        Some((self.since.saturating_add(until), ms))
    }

    /// The instant the running side's flag falls, if it has not yet.
    fn next_flag(&self) -> Option<u64> {
        let color = self.ticking()?;
        let side = self.sides.get(color);
        if side.flag.is_some() {
            return None;
        }
        Some(
            self.since
                .saturating_add(side.delay_left)
                .saturating_add(side.remaining),
        )
    }

    /// The side whose flag falls next, and the instant it falls, if a
    /// time runs that has not yet fallen.
    pub fn next_fall(&self) -> Option<(Color, u64)> {
        Some((self.ticking()?, self.next_flag()?))
    }

    /// The instant the running side's stretch began (its start, its
    /// opponent's press, a resume), or the last timer it gave: a press
    /// counted from an earlier instant counts from here at the earliest.
    pub fn stretch_since(&self) -> u64 {
        self.since
    }

    /// When the next timer fires, if any.
    pub fn next_deadline(&self) -> Option<u64> {
        [self.next_flag(), self.next_warning().map(|(t, _)| t)]
            .into_iter()
            .flatten()
            .min()
    }

    /// Fires the timer due at `t`, if any: a flag falls before a warning
    /// of the same instant is given (a warning at zero is not given).
    pub fn fire(&mut self, t: u64) -> Option<Signal> {
        let color = self.ticking()?;
        if let Some(d) = self.next_flag().filter(|&d| d <= t) {
            self.settle(d);
            let side = self.sides.get_mut(color);
            side.flag = Some(d);
            side.next_warning = self.thresholds.len();
            return Some(Signal::Flag(color));
        }
        if let Some((d, ms)) = self.next_warning().filter(|&(d, _)| d <= t) {
            self.settle(d);
            self.sides.get_mut(color).next_warning += 1;
            return Some(Signal::Warning(color, ms));
        }
        None
    }
}

#[cfg(test)]
mod tests;
