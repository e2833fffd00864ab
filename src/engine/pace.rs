//! How long the engine takes over a move (pure): the time a person of its
//! strength would take, not the engine's own.
//!
//! An engine finds its move at a weak step in a few milliseconds, and at
//! full strength thinks as long as it is let. A person takes a few seconds
//! over an opening move, more over a hard position, little over a forced
//! one, and keeps a share of his clock for the moves to come. pegboard
//! waits that long before the engine's move is made (its clock runs
//! meanwhile, as a person's does) and lets a full-strength search use that
//! time.
//!
//! The shape follows lichess's own AI, which waits a share of its clock
//! before it answers (lila's `FishnetPlayer.delayFor`: about 1 % of the
//! clock, less late in the game, more random than not, halved in the
//! opening), with a fairer share for long games and a look at the
//! position:
//!
//! - **the share**: the engine's time over the moves it may still have to
//!   make (at least [`MOVES_AHEAD_LEAST`]), plus most of its increment;
//! - **the opening**: a book move takes 1 to 3 s; out of the book, the
//!   first [`OPENING_PLIES`] plies take a quarter of the share, never
//!   past [`OPENING_MOST`];
//! - **the position**: a forced move takes a second; an obvious one (the
//!   best [`OBVIOUS_CP`] ahead of the next) a third of the time; a close
//!   choice (three candidates within [`CLOSE_CP`]) half as long again;
//! - **the player**: a weaker step thinks less than a stronger one;
//! - **chance**: each time is spread from half to twice the middle;
//! - **the bounds**: never under [`LEAST`], never over twice the share,
//!   [`CLOCK_SHARE_MOST`] of what is left plus most of the increment, half
//!   of what is left, or the step's own cap; so the engine's flag never
//!   falls by its thinking, whenever its increment comes.

use std::time::Duration;

use super::strength::{Candidate, Random, centipawns};

/// The engine's clock as the game stands, for its own move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// Its time left, in ms.
    pub remaining_ms: u64,
    /// What each of its moves gains, in ms.
    pub increment_ms: u64,
}

/// What the think time is made from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Situation {
    /// The engine's clock; `None` when the game has none.
    pub clock: Option<Clock>,
    /// The moves made in the game (plies), this one not yet.
    pub ply: u32,
    /// The step it plays at (1 to 8); a strength pegboard does not set
    /// itself counts as the strongest.
    pub step: u8,
    /// How many legal moves it has.
    pub legal_moves: usize,
}

/// How many moves ahead a player keeps time for, at the least.
pub const MOVES_AHEAD_LEAST: u64 = 25;
/// ...and at the start of the game.
pub const MOVES_AHEAD_START: u64 = 40;
/// The share of the time left that a move may take at the most…
pub const CLOCK_SHARE_MOST: f64 = 0.05;
/// …and never more than this share of it, whatever the increment (one
/// given after the move is not there yet).
pub const CLOCK_SHARE_EVER: f64 = 0.5;
/// How long a move takes when the game has no clock, in the middle.
pub const UNTIMED_MIDDLE: Duration = Duration::from_secs(6);
/// The shortest think time.
pub const LEAST: Duration = Duration::from_millis(800);
/// The plies counted as the opening.
pub const OPENING_PLIES: u32 = 16;
/// The longest an opening move takes out of the book.
pub const OPENING_MOST: Duration = Duration::from_secs(8);
/// A forced move takes this long.
pub const FORCED: Duration = Duration::from_secs(1);
/// A move this far ahead of the next best is obvious.
pub const OBVIOUS_CP: i32 = 150;
/// Candidates this close are a hard choice.
pub const CLOSE_CP: i32 = 30;

/// The longest a step thinks over one move, whatever the clock: from 30 s
/// for the beginner to 100 s at full strength.
pub fn step_most(step: u8) -> Duration {
    Duration::from_secs(20 + 10 * u64::from(step.clamp(1, 8)))
}

/// The middle of a move's think time before the position is looked at:
/// the share of the clock, the opening's and the player's part.
fn middle(s: &Situation) -> f64 {
    let share = match s.clock {
        Some(c) => {
            let ahead = MOVES_AHEAD_START
                .saturating_sub(u64::from(s.ply / 2))
                .max(MOVES_AHEAD_LEAST);
            c.remaining_ms as f64 / ahead as f64 + 0.8 * c.increment_ms as f64
        }
        None => UNTIMED_MIDDLE.as_millis() as f64,
    };
    let opening = if s.ply < OPENING_PLIES { 0.25 } else { 1.0 };
    // A beginner thinks about half as long as full strength.
    let player = 0.5 + 0.0625 * f64::from(s.step.clamp(1, 8));
    share * opening * player
}

/// The longest this move may take: the bound of its search, and of the
/// wait for an engine that hangs.
pub fn most(s: &Situation) -> Duration {
    let mut most = step_most(s.step).as_millis() as f64;
    if let Some(c) = s.clock {
        let ahead = MOVES_AHEAD_START
            .saturating_sub(u64::from(s.ply / 2))
            .max(MOVES_AHEAD_LEAST);
        let share = c.remaining_ms as f64 / ahead as f64 + 0.8 * c.increment_ms as f64;
        let clock_most = CLOCK_SHARE_MOST * c.remaining_ms as f64 + 0.8 * c.increment_ms as f64;
        let ever = CLOCK_SHARE_EVER * c.remaining_ms as f64;
        most = most.min(2.0 * share).min(clock_most).min(ever);
    }
    if s.ply < OPENING_PLIES {
        most = most.min(OPENING_MOST.as_millis() as f64);
    }
    Duration::from_millis(most.max(0.0) as u64)
}

/// The time to take over a book move: 1 to 3 s, never past [`most`].
pub fn book_move(s: &Situation, random: &mut Random) -> Duration {
    let ms = 1000.0 + 2000.0 * random.unit();
    Duration::from_millis(ms as u64).min(most(s))
}

/// The time to take over this move, before the engine has looked at it
/// (`spread` a fresh random number from 0 to 1): the search may use it
/// all.
pub fn before_search(s: &Situation, spread: f64) -> Duration {
    if s.legal_moves <= 1 {
        return FORCED.min(most(s));
    }
    // From half to twice the middle, as likely shorter as longer; the
    // middle at most half the longest, so that a long game's moves vary
    // and do not all take the longest.
    let middle = middle(s).min(most(s).as_millis() as f64 / 2.0);
    let ms = middle * 2f64.powf(2.0 * spread - 1.0);
    bounded(s, ms)
}

/// The time to take over this move once the engine's candidates (best
/// first) are known: `planned` (from [`before_search`]) made shorter for
/// an obvious move and longer for a close choice.
pub fn after_search(s: &Situation, planned: Duration, candidates: &[Candidate]) -> Duration {
    if s.legal_moves <= 1 {
        return planned;
    }
    let scores: Vec<i32> = candidates.iter().map(|c| centipawns(c.score)).collect();
    let factor = match scores.as_slice() {
        [best, second, ..] if best - second >= OBVIOUS_CP => 1.0 / 3.0,
        [best, _, third, ..] if best - third <= CLOSE_CP => 1.5,
        _ => 1.0,
    };
    bounded(s, planned.as_millis() as f64 * factor)
}

fn bounded(s: &Situation, ms: f64) -> Duration {
    let most = most(s);
    Duration::from_millis(ms.max(0.0) as u64)
        .max(LEAST)
        .min(most)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::uci::Score;

    fn at(remaining_s: u64, increment_s: u64, ply: u32) -> Situation {
        Situation {
            clock: Some(Clock {
                remaining_ms: remaining_s * 1000,
                increment_ms: increment_s * 1000,
            }),
            ply,
            step: 3,
            legal_moves: 30,
        }
    }

    fn cands(scores: &[i32]) -> Vec<Candidate> {
        scores
            .iter()
            .map(|&cp| Candidate {
                uci: "e2e4".parse().expect("uci"),
                score: Score::Cp(cp),
            })
            .collect()
    }

    #[test]
    fn an_opening_move_takes_a_few_seconds_whatever_the_clock() {
        for (rem, inc) in [(300, 3), (5400, 30), (900, 10)] {
            for spread in [0.0, 0.5, 0.999] {
                let t = before_search(&at(rem, inc, 6), spread);
                assert!(t >= LEAST && t <= OPENING_MOST, "{rem}+{inc}: {t:?}");
            }
        }
        // At 5+3 the middle is about 1.6 s.
        let t = before_search(&at(300, 3, 6), 0.5);
        assert!((1200..2200).contains(&t.as_millis()), "{t:?}");
    }

    #[test]
    fn a_middlegame_move_takes_a_fair_share_and_never_much_of_the_clock() {
        // 5+3, move 20, four minutes left: 240/25 + 2.4 = 12 s a move,
        // times 0.69 for step 3: 8.25 s, but at most half of the longest
        // (5 % of 240 s and 80 % of 3 s, 14.4 s): 7.2 s in the middle.
        let s = at(240, 3, 40);
        let t = before_search(&s, 0.5);
        assert!((6000..8500).contains(&t.as_millis()), "{t:?}");
        // At most 5 % of the time left plus 80 % of the increment, and
        // never more than half the time left: an increment given after
        // the move (1 s left, 2 s to come) is no time to think in.
        for spread in [0.0, 0.3, 0.7, 0.999] {
            for (rem, inc) in [(240, 3), (30, 3), (5, 0), (4000, 30), (1, 0), (1, 2)] {
                let s = at(rem, inc, 40);
                let t = before_search(&s, spread);
                let bound = (0.05 * (rem * 1000) as f64 + 0.8 * (inc * 1000) as f64) as u128;
                assert!(t.as_millis() <= bound.max(1), "{rem}+{inc}: {t:?}");
                assert!(t.as_millis() <= rem as u128 * 500, "{rem}+{inc}: {t:?}");
            }
        }
    }

    #[test]
    fn a_long_game_gives_longer_thought_within_the_steps_cap() {
        let long = before_search(&at(5000, 30, 40), 0.5);
        let short = before_search(&at(240, 3, 40), 0.5);
        assert!(long > 3 * short, "{long:?} {short:?}");
        assert!(long <= step_most(3), "{long:?}");
        assert_eq!(step_most(1), Duration::from_secs(30));
        assert_eq!(step_most(8), Duration::from_secs(100));
    }

    #[test]
    fn a_forced_move_takes_a_second_and_an_obvious_one_a_third() {
        let forced = Situation {
            legal_moves: 1,
            ..at(240, 3, 40)
        };
        assert_eq!(before_search(&forced, 0.9), FORCED);
        let s = at(240, 3, 40);
        let planned = before_search(&s, 0.5);
        let obvious = after_search(&s, planned, &cands(&[300, 0, -20]));
        assert_eq!(obvious.as_millis(), planned.as_millis() / 3);
        let close = after_search(&s, planned, &cands(&[20, 10, 0, -100]));
        assert_eq!(close.as_millis(), planned.as_millis() * 3 / 2);
        let plain = after_search(&s, planned, &cands(&[60, 0, -50]));
        assert_eq!(plain, planned);
    }

    #[test]
    fn a_weaker_step_thinks_less() {
        let weak = before_search(
            &Situation {
                step: 1,
                ..at(900, 10, 40)
            },
            0.5,
        );
        let strong = before_search(
            &Situation {
                step: 8,
                ..at(900, 10, 40)
            },
            0.5,
        );
        assert!(weak < strong, "{weak:?} {strong:?}");
    }

    #[test]
    fn without_a_clock_a_move_takes_a_few_seconds() {
        let s = Situation {
            clock: None,
            ..at(0, 0, 40)
        };
        let t = before_search(&s, 0.5);
        assert!((3000..6000).contains(&t.as_millis()), "{t:?}");
        let mut r = Random::new(1);
        let b = book_move(&s, &mut r);
        assert!(b >= Duration::from_secs(1) && b <= Duration::from_secs(3));
    }
}
