//! Whether the board is there, as the player is told ([`Presence`]: lost
//! once, back once when it holds), and what the log is told of a source's
//! trouble (`Trouble`: each change of state, and what it lost).

use super::station::Tick;
use crate::sensors::SourceError;

/// How long the sensors may take to give a first reading before the player
/// is told the board is not connected (a serial scanner's handshake takes a
/// moment; a missing one should not go unmentioned).
pub const FIRST_READING_GRACE_MS: u64 = 2_000;

/// How long readings must come without a gap before a lost board counts as
/// back. A link that flaps (a loose plug, a scanner that answers and falls
/// silent again) is told once as lost, and as back only when it holds.
pub const BACK_STABLE_MS: u64 = 1_500;

/// Whether the board's sensors are there, as the player is told: once when
/// they are lost, once when they are back for good.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// No reading yet since `since` (the start).
    Awaited {
        since: u64,
    },
    Present,
    /// Lost, and the player told so.
    Lost,
    /// Lost, and readings come again since `since`, not yet for long
    /// enough to count as back.
    Returning {
        since: u64,
    },
}

/// What the player is to be told of the sensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PresenceChange {
    Lost,
    Back,
}

impl Presence {
    pub fn new(start: u64) -> Presence {
        Presence::Awaited { since: start }
    }

    /// Whether readings are handed to the controller: only while the board
    /// is present, so that nothing is judged from a link that is not yet
    /// back for good.
    pub fn feeds(&self) -> bool {
        matches!(self, Presence::Present | Presence::Awaited { .. })
    }

    /// Takes whether this scan gave a reading at `t`.
    pub fn update(&mut self, t: u64, reading: bool) -> Option<PresenceChange> {
        let (next, change) = match (*self, reading) {
            (Presence::Awaited { .. } | Presence::Present, true) => (Presence::Present, None),
            (Presence::Lost, true) => (Presence::Returning { since: t }, None),
            (Presence::Returning { since }, true) if t.saturating_sub(since) >= BACK_STABLE_MS => {
                (Presence::Present, Some(PresenceChange::Back))
            }
            (Presence::Returning { .. }, true) => (*self, None),
            // A flap: lost again before it was back. Said once already.
            (Presence::Returning { .. }, false) => (Presence::Lost, None),
            (Presence::Awaited { since }, false)
                if t.saturating_sub(since) < FIRST_READING_GRACE_MS =>
            {
                (*self, None)
            }
            (Presence::Awaited { .. } | Presence::Present, false) => {
                (Presence::Lost, Some(PresenceChange::Lost))
            }
            (Presence::Lost, false) => (Presence::Lost, None),
        };
        *self = next;
        change
    }
}

/// Reports a source's trouble once when it starts and once when it ends,
/// and what it lost on the way (rate-limited by the station).
#[derive(Default)]
pub(crate) struct Trouble {
    now: Option<String>,
}

impl Trouble {
    /// The messages to show for this tick: a change of state, and losses.
    pub fn update(&mut self, tick: &Tick) -> Vec<String> {
        let change = match &tick.board {
            Ok(_) if self.now.take().is_some() => Some("sensors are back".to_string()),
            Ok(_) => None,
            Err(e) => {
                // Stale and disconnected messages vary in their numbers: report the kind.
                let kind = match e {
                    SourceError::Stale { .. } => "stale".to_string(),
                    other => other.to_string(),
                };
                (self.now.as_deref() != Some(&kind)).then(|| {
                    self.now = Some(kind);
                    e.to_string()
                })
            }
        };
        change.into_iter().chain(tick.losses.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_unplugged_in_play_is_said_once_and_its_return_once() {
        let mut p = Presence::new(0);
        assert_eq!(p.update(5, true), None, "present from the start");
        assert_eq!(p.update(10, false), Some(PresenceChange::Lost));
        assert_eq!(p.update(15, false), None, "said once, not at every scan");
        assert_eq!(p.update(5_000, false), None);
        assert_eq!(p.update(5_005, true), None, "back only when it holds");
        assert!(!p.feeds(), "nothing is judged until then");
        assert_eq!(p.update(5_005 + BACK_STABLE_MS - 1, true), None);
        assert_eq!(
            p.update(5_005 + BACK_STABLE_MS, true),
            Some(PresenceChange::Back)
        );
        assert!(p.feeds());
        assert_eq!(p.update(8_000, true), None);
    }

    #[test]
    fn a_flapping_link_is_said_lost_once_and_back_once_when_it_holds() {
        // Ten seconds of a scanner that answers for a moment twice a
        // second and falls silent again.
        let mut p = Presence::new(0);
        let mut said = Vec::new();
        for t in (0..10_000).step_by(5) {
            let reading = t < 100 || (t % 500) < 40;
            said.extend(p.update(t, reading));
        }
        assert_eq!(said, [PresenceChange::Lost]);
        // Then it holds.
        for t in (10_000..12_000).step_by(5) {
            said.extend(p.update(t, true));
        }
        assert_eq!(said, [PresenceChange::Lost, PresenceChange::Back]);
    }

    #[test]
    fn a_board_slow_to_answer_at_the_start_is_said_only_after_the_grace() {
        let mut p = Presence::new(1_000);
        assert_eq!(p.update(1_000, false), None);
        assert_eq!(p.update(1_000 + FIRST_READING_GRACE_MS - 1, false), None);
        assert_eq!(p.update(3_004, true), None, "in time: nothing to say");
        let mut p = Presence::new(1_000);
        assert_eq!(
            p.update(1_000 + FIRST_READING_GRACE_MS, false),
            Some(PresenceChange::Lost)
        );
        assert_eq!(p.update(4_000, true), None);
        assert_eq!(
            p.update(4_000 + BACK_STABLE_MS, true),
            Some(PresenceChange::Back)
        );
    }
}
