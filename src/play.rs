//! `pegboard play`: the daemon. The configured sensors and keys feed the
//! controller at the scan rate; its events are printed (and, with
//! `--events`, written as JSON lines for a mirror display) and spoken, and
//! the speaker's start reports come back as `announced` inputs, which is
//! when a move counts as announced and the clock is pressed (E2.3).
//!
//! While the sensors are away (a serial scanner unplugged, stale data) the
//! controller is not fed: the last good reading stands, nothing is
//! concluded from the gap, and the game goes on when the readings return.
//! [`Presence`] decides when the board counts as lost and as back; the
//! controller hears it as the `board_lost` and `board_back` inputs, tells
//! the player, and judges a board that changed meanwhile as a mismatch to
//! put right, never as an illegal move.

use std::io::Write;

use crate::config::{Config, FaceKind};
use crate::core::{BLIND_BOARD, Controller, Event, Input, Stamped, StartPosition};
use crate::demo::{SpeechSetup, print_event};
use crate::display::Faces;
use crate::hwtools::{Station, Stop, Trouble};
use crate::notify::Notifier;
use crate::speech::{Kind, Report, Utterance};

/// How long the last words may go on after `play` is told to stop (the
/// service is stopped within 2 s of SIGTERM).
pub const FINAL_WORDS_WITHIN: std::time::Duration = std::time::Duration::from_millis(1500);

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

/// The clock faces the configuration names: the TM1637 pair (on a build
/// with Raspberry Pi support), and the status line when `terminal` (standard
/// output is a terminal).
pub fn open_faces(config: &Config, terminal: bool) -> Result<Faces, String> {
    let mut faces = Faces::default();
    for kind in &config.display.faces {
        match kind {
            FaceKind::Terminal if terminal => faces = faces.with_status_line(),
            FaceKind::Terminal => {}
            #[cfg(feature = "rpi")]
            FaceKind::Tm1637 => faces.add(
                "tm1637",
                crate::display::rpi::open_tm1637(&config.display.tm1637)?,
            ),
            #[cfg(not(feature = "rpi"))]
            FaceKind::Tm1637 => {
                return Err(config.check_sensors().err().map_or_else(
                    || "tm1637 needs Raspberry Pi support".into(),
                    |e| e.to_string(),
                ));
            }
        }
    }
    Ok(faces)
}

/// Plays one game from `start` until `stop`, showing the clock on `faces`.
pub fn play(
    config: &Config,
    start: &StartPosition,
    speech: Option<SpeechSetup>,
    json: bool,
    stop: &Stop,
    mut faces: Faces,
    out: &mut dyn Write,
) -> Result<(), String> {
    let words = config.phrasebook().map_err(|e| e.to_string())?;
    let mut c = Controller::new(start, config.settings(), words, &[BLIND_BOARD])
        .map_err(|e| e.to_string())?;
    // The voices first (they may take a moment to open), then the sensors,
    // so that no reading waits in the meantime.
    let voices = speech.map(SpeechSetup::spawn);
    let mut station = Station::open(config)?;
    let io = |e: std::io::Error| format!("cannot write: {e}");
    let mut events: Vec<Stamped> = Vec::new();
    let mut trouble = Trouble::default();
    let mut presence = None;
    let mut service = Notifier::from_env();
    while !stop.now() {
        let tick = station.tick();
        service.alive(std::time::Instant::now());
        let presence = presence.get_or_insert_with(|| {
            c.start(tick.t, &mut events);
            service.ready();
            Presence::new(tick.t)
        });
        c.advance(tick.t, &mut events);
        let notes = trouble.update(&tick);
        if let Some(change) = presence.update(tick.t, tick.board.is_ok()) {
            let input = match change {
                PresenceChange::Lost => Input::BoardLost,
                PresenceChange::Back => Input::BoardBack,
            };
            c.input(tick.t, input, &mut events);
        }
        if let Ok(board) = tick.board
            && presence.feeds()
        {
            c.scan(tick.t, 0, board, &mut events);
        }
        for input in tick.inputs {
            c.input(tick.t, input, &mut events);
        }
        if let Some((_, reports, _)) = &voices {
            for report in reports.try_iter() {
                if let Report::Started {
                    kind: Kind::Move,
                    ply: Some(ply),
                    ..
                } = report
                {
                    c.input(tick.t, Input::Announced(ply), &mut events);
                }
            }
        }
        // Events may lead to more (the printed announcement, below).
        let printed = !events.is_empty() || !notes.is_empty();
        if printed {
            faces.pause(out).map_err(io)?;
        }
        for message in notes {
            writeln!(out, "pegboard: {message}").map_err(io)?;
        }
        while !events.is_empty() {
            for e in std::mem::take(&mut events) {
                print_event(out, &e, json).map_err(io)?;
                match &voices {
                    Some((speaker, _, delivery)) => {
                        if let Some(u) = Utterance::of(&e, delivery) {
                            speaker.say(u);
                        }
                    }
                    // Printing only: the printed line is the announcement.
                    None => {
                        if let Event::Move { ply, .. } = e.event {
                            c.input(e.t, Input::Announced(ply), &mut events);
                        }
                    }
                }
            }
        }
        if printed {
            faces.resume(out).map_err(io)?;
        }
        if let Some(clock) = c.clock() {
            for message in faces.show(tick.t, &clock.face(tick.t), out).map_err(io)? {
                faces.pause(out).map_err(io)?;
                writeln!(out, "pegboard: {message}").map_err(io)?;
                faces.resume(out).map_err(io)?;
            }
        }
        out.flush().map_err(io)?;
    }
    faces.finish(out).map_err(io)?;
    service.stopping();
    out.flush().map_err(io)?;
    if let Some((speaker, _, _)) = voices {
        speaker.wait_idle(FINAL_WORDS_WITHIN);
        speaker.quit();
    }
    Ok(())
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
