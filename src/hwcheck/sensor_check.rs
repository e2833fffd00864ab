//! `pegboard hw-test`'s judgement of the sensors, without the terminal:
//! which squares were lifted and placed, and which never changed, flicker
//! or stay stuck. Pure: scans and their times come in as values.

use shakmaty::{Bitboard, File, Rank, Square};

use crate::core::debounce::{Debouncer, SquareChange};

/// A debounced change the check saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seen {
    Lifted(Square),
    Placed(Square),
}

/// What the check concludes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CheckReport {
    /// Squares that never changed, with the state they stayed in.
    pub never_changed: Vec<(Square, bool)>,
    /// Squares whose reading left its state and came back on its own,
    /// within the debounce window: a loose magnet, a worn switch, a bad
    /// joint. With the number of such flickers.
    pub flickering: Vec<(Square, u32)>,
    /// Squares that changed at least once.
    pub working: usize,
}

pub struct SensorCheck {
    debouncer: Debouncer,
    started: bool,
    changes: [u32; 64],
    flickers: [u32; 64],
    /// Squares whose raw reading left the stable state and has not yet
    /// settled either way.
    episode: u64,
    /// Since when a square in an episode has read its stable state again.
    back_since: [Option<u64>; 64],
    scratch: Vec<SquareChange>,
}

impl SensorCheck {
    pub fn new(window_ms: u64) -> SensorCheck {
        SensorCheck {
            debouncer: Debouncer::new(window_ms, Bitboard::EMPTY),
            started: false,
            changes: [0; 64],
            flickers: [0; 64],
            episode: 0,
            back_since: [None; 64],
            scratch: Vec::new(),
        }
    }

    /// The debounced board.
    pub fn board(&self) -> Bitboard {
        self.debouncer.stable()
    }

    /// A scan at `t`; the lifts and placings it completes.
    pub fn scan(&mut self, t: u64, board: Bitboard, out: &mut Vec<Seen>) {
        if !self.started {
            self.debouncer = Debouncer::new(self.debouncer.window(), board);
            self.started = true;
            return;
        }
        self.settle(t, out);
        self.debouncer.scan(t, board);
        let stable = self.debouncer.stable().0;
        let off = board.0 ^ stable;
        let window = self.debouncer.window();
        for i in 0..64 {
            let mask = 1u64 << i;
            if off & mask != 0 {
                // Back long enough before this new departure: that was one
                // flicker, and this is the start of another episode.
                if let Some(since) = self.back_since[i]
                    && t.saturating_sub(since) >= window
                {
                    self.flickers[i] += 1;
                }
                self.episode |= mask;
                self.back_since[i] = None;
            } else if self.episode & mask != 0 {
                let since = *self.back_since[i].get_or_insert(t);
                if t.saturating_sub(since) >= window {
                    self.flickers[i] += 1;
                    self.episode &= !mask;
                    self.back_since[i] = None;
                }
            }
        }
        self.settle(t, out);
    }

    fn settle(&mut self, t: u64, out: &mut Vec<Seen>) {
        self.scratch.clear();
        while self.debouncer.advance(t, &mut self.scratch).is_some() {}
        for c in &self.scratch {
            let i = c.square as usize;
            self.changes[i] += 1;
            self.episode &= !(1 << i);
            self.back_since[i] = None;
            out.push(if c.occupied {
                Seen::Placed(c.square)
            } else {
                Seen::Lifted(c.square)
            });
        }
    }

    pub fn report(&self) -> CheckReport {
        let stable = self.debouncer.stable();
        CheckReport {
            never_changed: Square::ALL
                .into_iter()
                .filter(|&sq| self.changes[sq as usize] == 0)
                .map(|sq| (sq, stable.contains(sq)))
                .collect(),
            flickering: Square::ALL
                .into_iter()
                .filter(|&sq| self.flickers[sq as usize] > 0)
                .map(|sq| (sq, self.flickers[sq as usize]))
                .collect(),
            working: self.changes.iter().filter(|&&c| c > 0).count(),
        }
    }
}

impl CheckReport {
    /// The report in words, one finding per line.
    pub fn text(&self) -> String {
        let mut lines = vec![format!(
            "{} of 64 squares changed at least once.",
            self.working
        )];
        let list = |v: Vec<String>| v.join(" ");
        let stuck_full: Vec<String> = self
            .never_changed
            .iter()
            .filter(|(_, occ)| *occ)
            .map(|(sq, _)| sq.to_string())
            .collect();
        let stuck_empty: Vec<String> = self
            .never_changed
            .iter()
            .filter(|(_, occ)| !*occ)
            .map(|(sq, _)| sq.to_string())
            .collect();
        if !stuck_full.is_empty() {
            lines.push(format!(
                "Never changed, always occupied (stuck closed, or never lifted): {}",
                list(stuck_full)
            ));
        }
        if !stuck_empty.is_empty() {
            lines.push(format!(
                "Never changed, always empty (stuck open, or never filled): {}",
                list(stuck_empty)
            ));
        }
        if !self.flickering.is_empty() {
            lines.push(format!(
                "Flickering (read a change that undid itself): {}",
                list(
                    self.flickering
                        .iter()
                        .map(|(sq, n)| format!("{sq} ({n}×)"))
                        .collect()
                )
            ));
        }
        if self.never_changed.is_empty() && self.flickering.is_empty() {
            lines.push("Every square works.".to_string());
        }
        lines.join("\n")
    }
}

/// The board as 8 lines of text, rank 8 at the top: `#` a peg, `.` none.
pub fn map_text(board: Bitboard) -> String {
    let mut s = String::new();
    for rank in Rank::ALL.into_iter().rev() {
        s.push_str(&format!("{} ", rank.char()));
        for file in File::ALL {
            let sq = Square::from_coords(file, rank);
            s.push_str(if board.contains(sq) { " #" } else { " ." });
        }
        s.push('\n');
    }
    s.push_str("   a b c d e f g h\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(check: &mut SensorCheck, scans: &[(u64, u64)]) -> Vec<Seen> {
        let mut out = Vec::new();
        for &(t, occ) in scans {
            check.scan(t, Bitboard(occ), &mut out);
        }
        out
    }

    const E2: u64 = 1 << 12;
    const A1: u64 = 1;

    #[test]
    fn lifts_and_placings_are_seen_after_the_debounce_window() {
        let mut c = SensorCheck::new(20);
        let seen = run(
            &mut c,
            &[
                (0, A1 | E2),
                (5, A1),
                (30, A1),
                (40, A1 | E2),
                (65, A1 | E2),
            ],
        );
        assert_eq!(
            seen,
            vec![Seen::Lifted(Square::E2), Seen::Placed(Square::E2)]
        );
        let r = c.report();
        assert_eq!(r.working, 1);
        assert!(r.never_changed.contains(&(Square::A1, true)));
        assert!(r.never_changed.contains(&(Square::H8, false)));
        assert!(r.flickering.is_empty());
    }

    #[test]
    fn a_short_pulse_is_a_flicker_but_switch_bounce_on_a_real_lift_is_not() {
        let mut c = SensorCheck::new(20);
        // a1 drops out for 5 ms twice; e2 bounces while being lifted.
        run(
            &mut c,
            &[
                (0, A1 | E2),
                (100, E2),
                (105, A1 | E2),
                (200, E2),
                (205, A1 | E2),
                (300, A1),
                (302, A1 | E2),
                (304, A1),
                (400, A1),
            ],
        );
        let r = c.report();
        assert_eq!(r.flickering, vec![(Square::A1, 2)]);
        assert!(!r.never_changed.iter().any(|(sq, _)| *sq == Square::E2));
        assert!(r.text().contains("a1 (2×)"), "{}", r.text());
    }

    #[test]
    fn the_map_has_rank_8_on_top() {
        let text = map_text(Bitboard(A1 | 1 << 63));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "8  . . . . . . . #");
        assert_eq!(lines[7], "1  # . . . . . . .");
    }
}
