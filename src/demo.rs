//! `pegboard demo`: a famous game played through the whole pipeline in real
//! time, by simulated hands with human timing and the occasional bounce.

use std::io::Write;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};

use crate::announce::Phrasebook;
use crate::core::clock::Face;
use crate::core::{BLIND_BOARD, Controller, Event, Input, Settings, Stamped};
use crate::display::TerminalDisplay;
use crate::pgn::read_games;
use crate::replay::feed;
use crate::sim::{Style, simulate};
use crate::speech::{
    Delivery, Kind, READY_WITHIN, Report, Speaker, SpeechConfig, TextOutput, Utterance,
    VoiceLanguage, build_chain,
};
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
}

/// What the demo speaks with.
#[derive(Debug, Clone)]
pub struct SpeechSetup {
    pub config: SpeechConfig,
    pub language: VoiceLanguage,
    pub delivery: Delivery,
}

impl SpeechSetup {
    /// Starts the speaker thread on these voices, and waits (at most
    /// [`READY_WITHIN`]) for them to open. The caller prints every line: the
    /// printed line is the text voice's announcement. Returns the speaker,
    /// its reports, and how events become utterances.
    pub fn spawn(self) -> (Speaker, Receiver<Report>, Delivery) {
        let (tx, rx) = crossbeam_channel::unbounded();
        let SpeechSetup {
            config,
            language,
            delivery,
        } = self;
        let speaker = Speaker::spawn(
            move || build_chain(&config, &language, TextOutput::PrintedByCaller),
            tx,
        );
        // The first words are to be heard: give the voices a moment to open.
        speaker.wait_ready(READY_WITHIN);
        (speaker, rx, delivery)
    }
}

fn clock(t: u64) -> String {
    format!("{:02}:{:02}.{:03}", t / 60_000, (t / 1000) % 60, t % 1000)
}

/// The clock as an event shows it.
fn face_of(event: &Event) -> Option<Face> {
    match event {
        Event::Clock {
            running,
            paused,
            white,
            black,
            ..
        } => Some(Face {
            running: running.map(|s| s.0),
            paused: *paused,
            remaining: [white.remaining_ms, black.remaining_ms],
            moves: [white.moves, black.moves],
            periods: [white.period, black.period],
            flags: [white.flag, black.flag],
        }),
        _ => None,
    }
}

pub(crate) fn print_event(out: &mut dyn Write, e: &Stamped, json: bool) -> std::io::Result<()> {
    if json {
        writeln!(out, "{}", serde_json::to_string(e).unwrap_or_default())?;
    }
    let t = clock(e.t);
    match &e.event {
        Event::Ready { .. } => Ok(()),
        Event::Clock { .. } => match face_of(&e.event) {
            Some(face) => {
                let line = TerminalDisplay::new(std::io::sink(), "White", "Black").line(&face);
                writeln!(out, "[{t}]   ({line})")
            }
            None => Ok(()),
        },
        Event::Touch { square, piece, .. } => {
            writeln!(out, "[{t}]   (touched {piece} on {square})")
        }
        Event::Move { ply, san, say, .. } => {
            let number = ply.div_ceil(2);
            let dots = if ply % 2 == 1 { "." } else { "..." };
            writeln!(out, "[{t}] {number}{dots} {san:<8} « {say} »")
        }
        other => match other.spoken() {
            Some(text) => writeln!(out, "[{t}] {:<12} « {text} »", other.name()),
            None => Ok(()),
        },
    }
}

/// The demo game's trace: the game played by simulated hands.
pub fn demo_trace(seed: u64) -> Result<Vec<Entry>, String> {
    let games = read_games(GAME.as_bytes()).map_err(|e| e.to_string())?;
    let game = games.first().ok_or("the demo game is missing")?;
    let style = Style {
        think: (1500, 4000),
        hand: (400, 1200),
        ..Style::default()
    };
    simulate(&game.record, seed, style)
}

/// The demo's link to its speaker: utterances out, start reports back.
struct Voices {
    speaker: Speaker,
    reports: Receiver<Report>,
    delivery: Delivery,
    /// The voices that have spoken so far, each noted once on the transcript.
    used: Vec<&'static str>,
    /// Whether "no voice works" has been noted.
    unsaid_noted: bool,
}

/// The demo in progress: the controller, the real-time pacing, and the
/// speaker.
struct Session<'a> {
    c: Controller,
    events: Vec<Stamped>,
    voices: Option<Voices>,
    out: &'a mut dyn Write,
    json: bool,
    began: Instant,
    speed: f64,
    /// The simulated instant reached.
    now: u64,
}

impl Session<'_> {
    /// Prints (and says) every event concluded so far.
    fn emit(&mut self) -> Result<(), String> {
        let io = |e: std::io::Error| e.to_string();
        while !self.events.is_empty() {
            let events: Vec<Stamped> = self.events.drain(..).collect();
            for e in events {
                print_event(self.out, &e, self.json).map_err(io)?;
                match self.voices.as_ref() {
                    Some(v) => {
                        if let Some(u) = Utterance::of(&e, &v.delivery) {
                            v.speaker.say(u);
                        }
                    }
                    // Printing only, the printed line is the announcement.
                    None => {
                        if let Event::Move { ply, .. } = e.event {
                            self.c.input(e.t, Input::Announced(ply), &mut self.events);
                        }
                    }
                }
            }
        }
        self.out.flush().map_err(io)
    }

    /// Waits until simulated instant `t`, feeding the speaker's start
    /// reports to the controller as `announced` inputs on the way.
    fn wait_until(&mut self, t: u64) -> Result<(), String> {
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
            match v.reports.recv_timeout(target - elapsed) {
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
}

/// Plays the demo, writing what is spoken to `out` and, with
/// `options.speech`, saying it.
pub fn run(options: DemoOptions, out: &mut dyn Write) -> Result<(), String> {
    let trace = demo_trace(options.seed)?;
    writeln!(
        out,
        "pegboard demo: the Opera Game, Morphy vs. the Duke of Brunswick, Paris 1858.\n\
         Simulated hands play it on the pegged board; each line is what pegboard says.\n"
    )
    .map_err(|e| e.to_string())?;
    let voices = options.speech.clone().map(|setup| {
        let (speaker, rx, delivery) = setup.spawn();
        Voices {
            speaker,
            reports: rx,
            delivery,
            used: Vec::new(),
            unsaid_noted: false,
        }
    });
    let mut c = Controller::new(
        &crate::core::StartPosition::default(),
        options.settings.clone(),
        options.words.clone(),
        &[BLIND_BOARD],
    )
    .map_err(|e| e.to_string())?;
    let mut events = Vec::new();
    c.start(0, &mut events);
    let mut s = Session {
        events,
        c,
        voices,
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
    // The header (the start position) is what the controller began with.
    for entry in trace
        .iter()
        .filter(|e| !matches!(e.reading, crate::trace::Reading::Header(_)))
    {
        // Fire timers (debounce, settle) at their own instants, in real time.
        while let Some(d) = s.c.next_deadline().filter(|&d| d <= entry.t) {
            s.wait_until(d)?;
            s.c.advance(d, &mut s.events);
            s.emit()?;
        }
        s.wait_until(entry.t)?;
        feed(&mut s.c, entry, &mut s.events)?;
        s.emit()?;
    }
    s.c.finish(&mut s.events);
    s.emit()?;
    // Let the last words be heard.
    if let Some(v) = s.voices.take() {
        v.speaker.wait_idle(Duration::from_secs(15));
        v.speaker.quit();
    }
    Ok(())
}

/// What a speaker report means for the controller (a move announced), and
/// a note on the transcript the first time a voice speaks or fails.
fn report_input(
    report: &Report,
    v: &mut Voices,
    out: &mut dyn Write,
) -> Result<Option<Input>, String> {
    let io = |e: std::io::Error| e.to_string();
    match report {
        Report::Started {
            kind, ply, voice, ..
        } => {
            if !v.used.contains(voice) {
                v.used.push(voice);
                writeln!(out, "          (speaking with the {voice} voice)").map_err(io)?;
            }
            Ok(match (kind, ply) {
                (Kind::Move, Some(p)) => Some(Input::Announced(*p)),
                _ => None,
            })
        }
        Report::VoiceFailed(f) => {
            eprintln!("pegboard: voice {}: {}", f.voice, f.error);
            Ok(None)
        }
        Report::Unsaid(_) => {
            if !v.unsaid_noted {
                v.unsaid_noted = true;
                writeln!(out, "          (no voice works: text only)").map_err(io)?;
            }
            Ok(None)
        }
        Report::Idle => Ok(None),
    }
}
