//! `pegboard play`: the daemon. The configured sensors and keys feed the
//! controller at the scan rate; its events are printed (and, with
//! `--events`, written as JSON lines for a mirror display) and spoken, and
//! the speaker's start reports come back as `announced` inputs, which is
//! when a move counts as announced and the clock is pressed (E2.3).
//!
//! While the sensors are away (a serial scanner unplugged, stale data) the
//! controller is simply not fed: the last good reading stands, nothing is
//! concluded from the gap, and the game goes on when the readings return.

use std::io::Write;

use crate::config::Config;
use crate::core::{BLIND_BOARD, Controller, Event, Input, Stamped, StartPosition};
use crate::demo::{SpeechSetup, print_event};
use crate::hwtools::{Station, Stop, Trouble};
use crate::speech::{Kind, Report, Utterance};

/// Plays one game from `start` until `stop`.
pub fn play(
    config: &Config,
    start: &StartPosition,
    speech: Option<SpeechSetup>,
    json: bool,
    stop: &Stop,
    out: &mut dyn Write,
) -> Result<(), String> {
    let words = config.phrasebook().map_err(|e| e.to_string())?;
    let mut station = Station::open(config)?;
    let mut c = Controller::new(start, config.settings(), words, &[BLIND_BOARD])
        .map_err(|e| e.to_string())?;
    let voices = speech.map(SpeechSetup::spawn);
    let io = |e: std::io::Error| format!("cannot write: {e}");
    let mut events: Vec<Stamped> = Vec::new();
    let mut trouble = Trouble::default();
    let mut first = true;
    while !stop.now() {
        let tick = station.tick();
        if first {
            c.start(tick.t, &mut events);
            first = false;
        }
        c.advance(tick.t, &mut events);
        if let Some(message) = trouble.update(&tick.board) {
            writeln!(out, "pegboard: {message}").map_err(io)?;
        }
        if let Ok(board) = tick.board {
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
        out.flush().map_err(io)?;
    }
    if let Some((speaker, _, _)) = voices {
        speaker.wait_idle(std::time::Duration::from_secs(5));
        speaker.quit();
    }
    Ok(())
}
