//! `pegboard demo`: a famous game played through the whole pipeline in real
//! time, by simulated hands with human timing and the occasional bounce.

use std::io::Write;
use std::time::{Duration, Instant};

use crossbeam_channel::RecvTimeoutError;

use crate::announce::Phrasebook;
use crate::core::{BLIND_BOARD, Controller, Input, Settings, Stamped};
use crate::record::pgn::read_games;
use crate::runtime::error::{Error, Result};
use crate::runtime::outputs::emit;
use crate::runtime::replay::feed;
use crate::runtime::voices::{SpeechSetup, Voices, announced};
use crate::sim::{Style, simulate};
use crate::speech::Report;
use crate::trace::Entry;

/// The Opera Game, Paris 1858: Morphy against the Duke of Brunswick and
/// Count Isouard, seventeen moves to a famous mate.
pub const GAME: &str = include_str!("demo_game.pgn");

/// Demo options.
#[derive(Debug, Clone)]
pub struct DemoOptions {
    /// How many times faster than real time.
    pub speed: f64,
    pub seed: u64,
    /// Print every event as JSON as well.
    pub events: bool,
    pub words: Phrasebook,
    /// The controller's settings, the clock's among them.
    pub settings: Settings,
    /// Speak through these voices; `None`: print only.
    pub speech: Option<SpeechSetup>,
    /// Serve the mirror on this address while the demo plays; the blind
    /// player's colour and the side the board is seen from.
    /// (The address, the host names it answers to besides IP addresses,
    /// the view.)
    pub mirror: Option<(String, Vec<String>, crate::mirror::View)>,
    /// Play a short game against this engine instead of the Opera Game.
    pub engine: Option<crate::engine::EngineConfig>,
}

/// The demo game's trace: the game played by simulated hands.
pub fn demo_trace(seed: u64) -> Result<Vec<Entry>> {
    let games = read_games(GAME.as_bytes()).map_err(|e| Error::Game(e.to_string()))?;
    let game = games
        .first()
        .ok_or_else(|| Error::Game("the demo game is missing".into()))?;
    let style = Style {
        think: (1500, 4000),
        hand: (400, 1200),
        ..Style::default()
    };
    simulate(&game.record, seed, style).map_err(|e| Error::Game(e.to_string()))
}

/// The demo's voices, and what it has noted of them on the transcript.
struct Spoken {
    voices: Voices,
    /// The voices that have spoken so far, each noted once.
    used: Vec<&'static str>,
    /// Whether "no voice works" has been noted.
    unsaid_noted: bool,
}

/// The demo in progress: the controller, the real-time pacing, and the
/// speaker.
struct Session<'a> {
    c: Controller,
    narrator: crate::announce::Narrator,
    events: Vec<Stamped>,
    voices: Option<Spoken>,
    mirror: Option<crate::mirror::Mirror>,
    out: &'a mut dyn Write,
    json: bool,
    began: Instant,
    speed: f64,
    /// The simulated instant reached.
    now: u64,
}

impl Session<'_> {
    /// Prints (and says) every event concluded so far.
    fn emit(&mut self) -> Result<()> {
        let voices = self.voices.as_ref().map(|s| &s.voices);
        emit(
            &mut crate::runtime::outputs::Narrated {
                controller: &mut self.c,
                narrator: &mut self.narrator,
            },
            &mut self.events,
            voices,
            self.mirror.as_ref(),
            None,
            self.out,
            self.json,
        )?;
        Ok(self.out.flush()?)
    }

    /// Waits until simulated instant `t`, feeding the speaker's start
    /// reports to the controller as `announced` inputs on the way.
    fn wait_until(&mut self, t: u64) -> Result<()> {
        loop {
            let target = Duration::from_secs_f64(t as f64 / 1000.0 / self.speed);
            let elapsed = self.began.elapsed();
            if elapsed >= target {
                break;
            }
            let Some(v) = self.voices.as_mut() else {
                std::thread::sleep(target - elapsed);
                break;
            };
            match v.voices.next_report(target - elapsed) {
                Ok(report) => {
                    if let Some(input) = report_input(&report, v, self.out)? {
                        let at = ((self.began.elapsed().as_secs_f64() * self.speed * 1000.0)
                            as u64)
                            .clamp(self.now, t);
                        self.now = at;
                        self.c.input(at, input, &mut self.events);
                        self.emit()?;
                    }
                }
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => self.voices = None,
            }
        }
        self.now = t;
        Ok(())
    }

    /// Feeds one line of the simulated hands at its instant, the timers
    /// due before it fired at theirs, in real time.
    fn feed_entry(&mut self, entry: &Entry) -> Result<()> {
        self.settle_until(entry.t)?;
        feed(&mut self.c, entry, &mut self.events).map_err(Error::Game)?;
        self.emit()
    }

    /// Waits until `t`, firing the timers (debounce, settle) due on the
    /// way at their own instants.
    fn settle_until(&mut self, t: u64) -> Result<()> {
        while let Some(d) = self.c.next_deadline().filter(|&d| d <= t) {
            self.wait_until(d)?;
            self.c.advance(d, &mut self.events);
            self.emit()?;
        }
        self.wait_until(t)
    }

    /// The game against the engine: each White move made by the hands,
    /// each engine move given as it would be after its think time, and
    /// then made on the board by the same hands.
    fn engine_game(&mut self, config: &crate::engine::EngineConfig, seed: u64) -> Result<()> {
        use crate::runtime::demo_engine::{MOVES, Sides, engine_input, hands};
        use shakmaty::{CastlingMode, Chess, Color, Position};
        let mut sides = Sides::open(config, seed)?;
        let mut hands = hands(seed);
        let mut fed = 0;
        let mut pos = Chess::default();
        let mut moves: Vec<String> = Vec::new();
        while !pos.is_game_over() && moves.len() < 2 * MOVES {
            let (m, think) = sides.choose(&pos, &moves)?;
            hands.wait_until(self.now);
            if pos.turn() == Color::White {
                hands.play(&pos, m, CastlingMode::Standard);
            } else {
                let at = self.now + think.as_millis() as u64;
                self.settle_until(at)?;
                self.c.input(at, engine_input(m), &mut self.events);
                self.emit()?;
                hands.wait_until(at + 1500);
                hands.replicate(&pos, m, CastlingMode::Standard);
            }
            hands.wait(400);
            for entry in &hands.entries()[fed..] {
                self.feed_entry(entry)?;
            }
            fed = hands.entries().len();
            moves.push(m.to_uci(CastlingMode::Standard).to_string());
            pos.play_unchecked(m);
        }
        Ok(())
    }
}

/// Plays the demo, writing what is spoken to `out` and, with
/// `options.speech`, saying it.
pub fn run(options: DemoOptions, out: &mut dyn Write) -> Result<()> {
    let trace = demo_trace(options.seed)?;
    let settings = match &options.engine {
        Some(engine) => {
            writeln!(
                out,
                "pegboard demo: a short game against the engine ({}, {}).\n\
                 Simulated hands play White on the pegged board, and make the engine's moves\n\
                 on it too; each line is what pegboard says.\n",
                engine.command,
                engine.strength()
            )?;
            crate::runtime::demo_engine::settings(&options.settings, engine)
        }
        None => {
            writeln!(
                out,
                "pegboard demo: the Opera Game, Morphy vs. the Duke of Brunswick, Paris 1858.\n\
                 Simulated hands play it on the pegged board; each line is what pegboard says.\n"
            )?;
            options.settings.clone()
        }
    };
    let voices = options.speech.clone().map(|setup| Spoken {
        voices: setup.spawn(),
        used: Vec::new(),
        unsaid_noted: false,
    });
    let narrator =
        crate::announce::Narrator::new(options.words.clone(), &settings.preferences.language);
    let mut c = Controller::new(
        &crate::core::StartPosition::default(),
        settings,
        &[BLIND_BOARD],
    )
    .map_err(|e| Error::Game(e.to_string()))?;
    let mirror = match &options.mirror {
        Some((listen, hosts, view)) => {
            let serving = crate::runtime::outputs::Serving::plain(listen, hosts);
            crate::runtime::outputs::open_mirror(&serving, view.clone(), None, &[], out)?
        }
        None => None,
    };
    let mut events = Vec::new();
    c.start(0, &mut events);
    let mut s = Session {
        events,
        c,
        narrator,
        voices,
        mirror,
        out,
        json: options.events,
        began: Instant::now(),
        speed: if options.speed > 0.0 {
            options.speed
        } else {
            1.0
        },
        now: 0,
    };
    match &options.engine {
        Some(engine) => s.engine_game(engine, options.seed)?,
        // The header (the start position) is what the controller began
        // with.
        None => {
            for entry in trace
                .iter()
                .filter(|e| !matches!(e.reading, crate::trace::Reading::Header(_)))
            {
                s.feed_entry(entry)?;
            }
        }
    }
    s.c.finish(&mut s.events);
    s.emit()?;
    // Let the last words be heard.
    if let Some(v) = s.voices.take() {
        v.voices.finish(Duration::from_secs(15));
    }
    if let Some(m) = s.mirror.take() {
        m.stop();
    }
    Ok(())
}

/// What a speaker report means for the controller (a move announced), and
/// a note on the transcript the first time a voice speaks or fails.
fn report_input(report: &Report, v: &mut Spoken, out: &mut dyn Write) -> Result<Option<Input>> {
    match report {
        Report::Started { voice, .. } => {
            if !v.used.contains(voice) {
                v.used.push(voice);
                writeln!(out, "          (speaking with the {voice} voice)")?;
            }
        }
        Report::VoiceFailed(f) => eprintln!("pegboard: voice {}: {}", f.voice, f.error),
        Report::Unsaid(_) => {
            if !v.unsaid_noted {
                v.unsaid_noted = true;
                writeln!(out, "          (no voice works: text only)")?;
            }
        }
        Report::Idle => {}
    }
    Ok(announced(report))
}
