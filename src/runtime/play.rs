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

use crate::config::Config;
use crate::console::Answer;
use crate::core::{Input, Stamped, StartPosition};
use crate::display::FaceKind;
use crate::display::Faces;
use crate::runtime::error::Result;
use crate::runtime::keeper::Keeper;
use crate::runtime::notify::Notifier;
use crate::runtime::outputs::Door as _;
use crate::runtime::outputs::emit;
use crate::runtime::parts;
use crate::runtime::presence::{Presence, PresenceChange, Trouble};
use crate::runtime::station::{Station, Stop, Tick};
use crate::runtime::voices::{FINAL_WORDS_WITHIN, SpeechSetup, announced};
use crate::sensors::poller::Lateness;
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
                return Err(crate::runtime::open::usable(config).err().map_or_else(
                    || crate::runtime::Error::Hardware("tm1637 needs Raspberry Pi support".into()),
                    crate::runtime::Error::Config,
                ));
            }
        }
    }
    Ok(faces)
}

/// One turn of the scan loop, as the game sees it: the tick and its
/// instant in game time.
struct Turn {
    t: u64,
    tick: Tick,
    /// When the tick was taken, for [`LoopTiming::handled`].
    taken: std::time::Instant,
}

/// How the scan loop kept time: how late after they were due its scans
/// were taken, and how long after they were taken they were handled (a
/// turn that follows a change of the game waits until the journal has it
/// on the disk).
#[derive(Clone, Debug)]
pub struct LoopTiming {
    pub taken: Lateness,
    pub handled: Lateness,
}

/// Plays game after game until `stop`, showing the clock on `faces`: the
/// unfinished game in the journal directory if there is one, else a new
/// game from `start`. Returns how the scan loop kept time.
pub fn play(
    config: &Config,
    start: &StartPosition,
    speech: Option<SpeechSetup>,
    json: bool,
    stop: &Stop,
    mut faces: Faces,
    out: &mut dyn Write,
) -> Result<LoopTiming> {
    // The voices first (they may take a moment to open), then the sensors,
    // so that no reading waits in the meantime.
    let voices = speech.map(SpeechSetup::spawn);
    let mut station = Station::open(config)?;
    let mut events: Vec<Stamped> = Vec::new();
    let mut trouble = Trouble::default();
    let mut service = Notifier::from_env();
    // The first tick opens the game; its instant in game time is where
    // the journal's game stands (time pegboard was off is nobody's).
    let first = station.tick();
    let boards = config.board_names();
    let (mut keeper, game_t0) = Keeper::open(config, start, &boards, first.t, &mut events)?;
    let view = parts::mirror_view(config, &parts::phrasebook(config)?.words);
    // The console's inputs come in over this channel, to this loop only.
    let (door, requests) = if config.console.enabled && !config.mirror.listen.trim().is_empty() {
        let (tx, rx) = crossbeam_channel::bounded(64);
        match crate::runtime::console::secret(config) {
            Ok(secret) => (
                Some(crate::console::Door {
                    requests: tx,
                    secret: secret.into_bytes(),
                }),
                Some(rx),
            ),
            Err(e) => {
                writeln!(out, "pegboard: {e}; the console is closed")?;
                (None, None)
            }
        }
    } else {
        (None, None)
    };
    // The secret spelt out, one character a word, for the key that says it.
    let spoken_secret = door.as_ref().map(|d| {
        String::from_utf8_lossy(&d.secret)
            .chars()
            .map(|c| c.to_ascii_uppercase().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    });
    let mirror = crate::runtime::outputs::open_mirror(&config.mirror.listen, view, door, out)?;
    if let Some(files) = keeper.files() {
        writeln!(
            out,
            "pegboard: game {} is kept in {}",
            files.number,
            files.journal.display()
        )?;
    }
    let first_t = first.t;
    let to_game = |tick_t: u64| game_t0 + tick_t.saturating_sub(first_t);
    service.ready();
    let mut presence = Presence::new(to_game(first.t));
    let mut waiting: std::collections::VecDeque<Turn> = std::collections::VecDeque::new();
    waiting.push_back(Turn {
        t: to_game(first.t),
        tick: first,
        taken: std::time::Instant::now(),
    });
    let mut handled = Lateness::new(station.lateness().period());
    let mut now = game_t0;
    let mut other_lost: Vec<Option<u64>> = vec![None; config.boards.len()];
    while !stop.now() {
        service.alive(std::time::Instant::now());
        // A turn that follows a change of the game waits until that is on
        // the disk; the readings go on being taken meanwhile, on time.
        while keeper.ready()
            && let Some(turn) = waiting.pop_front()
        {
            let Turn { t, tick, taken } = turn;
            handled.record(taken.elapsed());
            keeper.advance(t, &mut events);
            let mut notes = trouble.update(&tick);
            if let Some(change) = presence.update(t, tick.board.is_ok()) {
                let input = match change {
                    PresenceChange::Lost => Input::BoardLost,
                    PresenceChange::Back => Input::BoardBack,
                };
                keeper.input(t, input, &mut events);
            }
            if let Ok(board) = tick.board
                && presence.feeds()
            {
                keeper.scan(t, 0, board, &mut events);
            }
            // The other boards: a reading that fails is skipped (the board
            // is believed to show what it last showed) and told once.
            for (i, other) in tick.others.iter().enumerate() {
                match other {
                    Ok(board) => {
                        if other_lost[i].take().is_some() {
                            notes.push(format!("board {}: read again", boards[i + 1]));
                        }
                        if let Some(index) = keeper.controller().board_index(boards[i + 1]) {
                            keeper.scan(t, index, *board, &mut events);
                        }
                    }
                    Err(e) => {
                        if other_lost[i].is_none() {
                            notes.push(format!("board {}: {e}; its readings wait", boards[i + 1]));
                            other_lost[i] = Some(t);
                        }
                    }
                }
            }
            for input in tick.inputs {
                keeper.input(t, input, &mut events);
            }
            // The console's secret, asked for with a key: to the voices
            // only, spelt out, never as an event.
            if tick.token_asked
                && let (Some(v), Some(secret)) = (&voices, &spoken_secret)
            {
                v.say_words(secret);
            }
            // The console's inputs: one refused is answered and said, and
            // not journaled; one carried out is journaled like any other.
            for request in requests.iter().flat_map(|r| r.try_iter()) {
                let answer = match keeper.controller().refusal(t, &request.input) {
                    Some(refused) => {
                        events.push(refused.clone());
                        Answer::Refused(refused)
                    }
                    None => {
                        let from = events.len();
                        keeper.input(t, request.input, &mut events);
                        Answer::Done(events[from..].to_vec())
                    }
                };
                let _ = request.reply.send(answer);
            }
            if let Some(v) = &voices {
                for report in v.reports() {
                    // A voice's failure goes to the log (once; the speaker
                    // says each once); a move's start is its announcement.
                    if let Report::VoiceFailed(f) = &report {
                        notes.push(format!("voice {}: {}", f.voice, f.error));
                    }
                    if let Some(input) = announced(&report) {
                        keeper.input(t, input, &mut events);
                    }
                }
            }
            notes.extend(keeper.notes());
            // Events may lead to more (the printed announcement).
            let printed = !events.is_empty() || !notes.is_empty();
            if printed {
                faces.pause(out)?;
            }
            for message in notes {
                writeln!(out, "pegboard: {message}")?;
            }
            emit(
                &mut keeper,
                &mut events,
                voices.as_ref(),
                mirror.as_ref(),
                out,
                json,
            )?;
            keeper.end_tick(t);
            if let (Some(m), Some(pgn)) = (&mirror, keeper.changed_scoresheet()) {
                m.scoresheet(pgn);
            }
            if printed {
                faces.resume(out)?;
            }
            now = t;
        }
        if let Some(clock) = keeper.controller().clock() {
            for message in faces.show(now, &clock.face(now), out)? {
                faces.pause(out)?;
                writeln!(out, "pegboard: {message}")?;
                faces.resume(out)?;
            }
        }
        out.flush()?;
        let tick = station.tick();
        waiting.push_back(Turn {
            t: to_game(tick.t),
            tick,
            taken: std::time::Instant::now(),
        });
    }
    faces.finish(out)?;
    service.stopping();
    if let Some(m) = mirror {
        m.stop();
    }
    // Everything fed reaches the disk before the exit.
    for message in keeper.finish(now) {
        writeln!(out, "pegboard: {message}")?;
    }
    out.flush()?;
    if let Some(v) = voices {
        v.finish(FINAL_WORDS_WITHIN);
    }
    Ok(LoopTiming {
        taken: station.lateness().clone(),
        handled,
    })
}
