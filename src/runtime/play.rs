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
use crate::core::{BLIND_BOARD, Controller, Input, Stamped, StartPosition};
use crate::display::Faces;
use crate::runtime::error::{Error, Result};
use crate::runtime::notify::Notifier;
use crate::runtime::outputs::emit;
use crate::runtime::presence::{Presence, PresenceChange, Trouble};
use crate::runtime::station::{Station, Stop};
use crate::runtime::voices::{FINAL_WORDS_WITHIN, SpeechSetup, announced};
use crate::speech::Report;

/// The clock faces the configuration names: the TM1637 pair (on a build
/// with Raspberry Pi support), and the status line when `terminal` (standard
/// output is a terminal).
pub fn open_faces(config: &Config, terminal: bool) -> Result<Faces> {
    let mut faces = Faces::default();
    for kind in &config.display.faces {
        match kind {
            FaceKind::Terminal if terminal => faces = faces.with_status_line(),
            FaceKind::Terminal => {}
            #[cfg(feature = "rpi")]
            FaceKind::Tm1637 => faces.add(
                "tm1637",
                crate::runtime::rpi::open_tm1637(&config.display.tm1637)?,
            ),
            #[cfg(not(feature = "rpi"))]
            FaceKind::Tm1637 => {
                return Err(config.check_sensors().err().map_or_else(
                    || Error::Hardware("tm1637 needs Raspberry Pi support".into()),
                    Error::Config,
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
) -> Result<()> {
    let words = config.phrasebook()?;
    let mut c = Controller::new(start, config.settings(), words, &[BLIND_BOARD])
        .map_err(|e| Error::Game(e.to_string()))?;
    // The voices first (they may take a moment to open), then the sensors,
    // so that no reading waits in the meantime.
    let voices = speech.map(SpeechSetup::spawn);
    let mut station = Station::open(config)?;
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
        let mut notes = trouble.update(&tick);
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
        if let Some(v) = &voices {
            for report in v.reports() {
                // A voice's failure goes to the log (once; the speaker
                // says each once); a move's start is its announcement.
                if let Report::VoiceFailed(f) = &report {
                    notes.push(format!("voice {}: {}", f.voice, f.error));
                }
                if let Some(input) = announced(&report) {
                    c.input(tick.t, input, &mut events);
                }
            }
        }
        // Events may lead to more (the printed announcement).
        let printed = !events.is_empty() || !notes.is_empty();
        if printed {
            faces.pause(out)?;
        }
        for message in notes {
            writeln!(out, "pegboard: {message}")?;
        }
        emit(&mut c, &mut events, voices.as_ref(), out, json)?;
        if printed {
            faces.resume(out)?;
        }
        if let Some(clock) = c.clock() {
            for message in faces.show(tick.t, &clock.face(tick.t), out)? {
                faces.pause(out)?;
                writeln!(out, "pegboard: {message}")?;
                faces.resume(out)?;
            }
        }
        out.flush()?;
    }
    faces.finish(out)?;
    service.stopping();
    out.flush()?;
    if let Some(v) = voices {
        v.finish(FINAL_WORDS_WITHIN);
    }
    Ok(())
}
