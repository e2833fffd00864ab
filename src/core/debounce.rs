//! From raw scans to stable square changes.
//!
//! A reed switch chatters when a magnet arrives or leaves, and a long cable
//! picks up the odd false reading. The rule here is simple and exact: a
//! square's stable state changes when its raw reading has differed from the
//! stable state *continuously* for the debounce window. The change is dated
//! at the instant the window was completed, so the result depends only on
//! the readings and their times, never on how often the scanner polls.
//!
//! With the default window of 20 ms this absorbs switch chatter of up to
//! 15 ms on any transition (no bounce inside the chatter lasts a full
//! window, so the stable state flips once, 20 ms after the last bounce) and
//! glitches of up to 10 ms on any square (they end before the window does).

use shakmaty::{Bitboard, Square};

/// Default debounce window in milliseconds.
pub const DEFAULT_WINDOW_MS: u64 = 20;

/// A square whose stable state changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SquareChange {
    /// Simulated time of the change, in milliseconds.
    pub t: u64,
    pub square: Square,
    /// `true`: a piece is now in the aperture; `false`: it left.
    pub occupied: bool,
}

#[derive(Debug, Clone)]
pub struct Debouncer {
    window: u64,
    raw: u64,
    stable: u64,
    /// Squares whose raw reading differs from the stable state.
    pending: u64,
    /// For each pending square: since when the raw reading has differed.
    since: [u64; 64],
    /// Earliest instant at which a pending square becomes stable.
    deadline: Option<u64>,
}

impl Debouncer {
    /// A debouncer whose board is believed to read `initial`.
    pub fn new(window_ms: u64, initial: Bitboard) -> Debouncer {
        Debouncer {
            window: window_ms,
            raw: initial.0,
            stable: initial.0,
            pending: 0,
            since: [0; 64],
            deadline: None,
        }
    }

    pub fn window(&self) -> u64 {
        self.window
    }

    /// The last raw reading.
    pub fn raw(&self) -> Bitboard {
        Bitboard(self.raw)
    }

    /// The debounced state.
    pub fn stable(&self) -> Bitboard {
        Bitboard(self.stable)
    }

    /// When [`Debouncer::advance`] next has something to do.
    #[inline]
    pub fn next_deadline(&self) -> Option<u64> {
        self.deadline
    }

    /// Records a raw reading taken at `t`. Changes that became stable before
    /// `t` must have been collected with [`Debouncer::advance`] first.
    #[inline]
    pub fn scan(&mut self, t: u64, raw: Bitboard) {
        let changed = self.raw ^ raw.0;
        if changed == 0 {
            return;
        }
        self.raw = raw.0;
        let mut bits = changed;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let mask = 1u64 << i;
            if (self.raw ^ self.stable) & mask == 0 {
                // Back to the stable state: whatever started is cancelled.
                self.pending &= !mask;
            } else {
                self.pending |= mask;
                self.since[i] = t;
            }
        }
        self.recompute_deadline();
    }

    fn recompute_deadline(&mut self) {
        let mut bits = self.pending;
        let mut earliest: Option<u64> = None;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let d = self.since[i].saturating_add(self.window);
            earliest = Some(earliest.map_or(d, |e: u64| e.min(d)));
        }
        self.deadline = earliest;
    }

    /// Collects the changes that become stable at the earliest deadline, if
    /// it is not later than `t`. Returns the instant, with the changes
    /// appended to `out` in square order. Call repeatedly until `None`.
    pub fn advance(&mut self, t: u64, out: &mut Vec<SquareChange>) -> Option<u64> {
        let due = self.deadline.filter(|&d| d <= t)?;
        let mut bits = self.pending;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if self.since[i].saturating_add(self.window) == due {
                let mask = 1u64 << i;
                self.pending &= !mask;
                self.stable ^= mask;
                out.push(SquareChange {
                    t: due,
                    square: Square::new(i as u32),
                    occupied: self.stable & mask != 0,
                });
            }
        }
        self.recompute_deadline();
        Some(due)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(d: &mut Debouncer, readings: &[(u64, u64)], until: u64) -> Vec<SquareChange> {
        let mut out = Vec::new();
        for &(t, raw) in readings {
            while d.advance(t, &mut out).is_some() {}
            d.scan(t, Bitboard(raw));
        }
        while d.advance(until, &mut out).is_some() {}
        out
    }

    const E2: u64 = 1 << 12;

    #[test]
    fn a_clean_lift_is_reported_one_window_later() {
        let mut d = Debouncer::new(20, Bitboard(E2));
        let out = run(&mut d, &[(100, 0)], 1000);
        assert_eq!(
            out,
            vec![SquareChange {
                t: 120,
                square: Square::E2,
                occupied: false
            }]
        );
    }

    #[test]
    fn chatter_of_15_ms_gives_one_change_after_the_last_bounce() {
        let mut d = Debouncer::new(DEFAULT_WINDOW_MS, Bitboard(E2));
        // Bounces every 1-5 ms for 15 ms, some of them 12 ms long.
        let readings = [(100, 0), (101, E2), (113, 0), (114, E2), (115, 0)];
        let out = run(&mut d, &readings, 1000);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].t, 135);
        assert!(!out[0].occupied);
    }

    #[test]
    fn a_glitch_of_10_ms_is_ignored() {
        let mut d = Debouncer::new(DEFAULT_WINDOW_MS, Bitboard(E2));
        let out = run(
            &mut d,
            &[(100, 0), (110, E2), (500, E2 | 1), (510, E2)],
            1000,
        );
        assert!(out.is_empty(), "{out:?}");
        assert_eq!(d.stable(), Bitboard(E2));
    }

    #[test]
    fn simultaneous_changes_come_in_square_order() {
        let mut d = Debouncer::new(20, Bitboard(0));
        let out = run(&mut d, &[(0, (1 << 40) | (1 << 3))], 100);
        let squares: Vec<Square> = out.iter().map(|c| c.square).collect();
        assert_eq!(squares, vec![Square::D1, Square::A6]);
        assert!(out.iter().all(|c| c.t == 20 && c.occupied));
    }
}
