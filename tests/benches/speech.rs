//! Speech benchmarks, measured into a real PulseAudio null sink:
//!
//! - time from a `move` event to the first audio sample, for the clip voice
//!   (rodio) and for speech-dispatcher with espeak-ng;
//! - the spoken length of the announcements of a real game, by style.
//!
//! The first sample is timed twice: when the voice reports it (the audio
//! output took the first sample, or speech-dispatcher's begin report), and
//! when it arrives, audible, at the null sink's monitor (read with parec
//! in 5 ms fragments, so that figure includes up to ~5 ms of the reader's
//! own buffering). The first figure counts only starts the voice
//! confirmed (a report that is not confirmed is the hand-over instant of
//! an utterance that ended without a start report, not its first sample);
//! how many were not is printed.
//!
//! Targets: the median first audible sample at the sink ≤ 15 ms after the
//! `move` event with the clips, ≤ 150 ms with speech-dispatcher.
//!
//! Run with: cargo bench --bench speech. The smoke run
//! (`PEGBOARD_BENCH_SMOKE=1`) says 8 announcements in the short style with
//! each voice and does not measure the spoken lengths.

#[path = "../support/audio.rs"]
mod audio;
#[path = "../support/bench.rs"]
mod bench;

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pegboard::announce::Phrasebook;
use pegboard::announce::phrases::{Style, Styles};
use pegboard::record::pgn::read_games;
use pegboard::runtime::demo::GAME;
use pegboard::sim::playable_moves;
use pegboard::speech::{
    Kind, Report, Speaker, SpeechConfig, TextOutput, Utterance, VoiceLanguage, VoiceName,
    build_chain,
};
use shakmaty::Position;

const CHILD: &str = "PEGBOARD_SPEECH_BENCH_CHILD";
const RATE: usize = 16_000;

/// The announcements of the demo game's moves in one style.
fn announcements(style: Style) -> Vec<String> {
    let games = read_games(GAME.as_bytes()).expect("demo game");
    let words = Phrasebook::default().with_styles(Styles::both(style));
    let (mut pos, _, moves, _) = playable_moves(&games[0].record).expect("playable");
    let mut out = Vec::new();
    for m in moves {
        out.push(words.move_text(&pos, m));
        pos.play_unchecked(m);
    }
    out
}

/// Samples read from the monitor, with the instant they arrived.
type Chunks = Arc<Mutex<Vec<(Instant, Vec<i16>)>>>;

/// The null sink's monitor, read continuously: chunks with their arrival.
struct Monitor {
    chunks: Chunks,
    child: std::process::Child,
}

impl Monitor {
    fn start() -> Monitor {
        let mut child = Command::new("parec")
            .args([
                "--device=pegboard_null.monitor",
                "--raw",
                "--format=s16le",
                "--rate=16000",
                "--channels=1",
                "--latency-msec=5",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("parec");
        let mut stdout = child.stdout.take().expect("parec output");
        let chunks = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&chunks);
        std::thread::spawn(move || {
            let mut buf = [0u8; 320];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let now = Instant::now();
                let samples = buf[..n & !1]
                    .chunks_exact(2)
                    .map(|b| i16::from_le_bytes([b[0], b[1]]))
                    .collect();
                if let Ok(mut c) = sink.lock() {
                    c.push((now, samples));
                }
            }
        });
        std::thread::sleep(Duration::from_millis(300));
        Monitor { chunks, child }
    }

    /// The first and last audible instants after `from`.
    fn audible_after(&self, from: Instant) -> Option<(Instant, Instant)> {
        let chunks = self.chunks.lock().ok()?;
        let loud = |s: &i16| (*s as i32).abs() > (i16::MAX as i32) / 50;
        let at = |arrived: Instant, len: usize, i: usize| {
            arrived - Duration::from_secs_f64((len - i) as f64 / RATE as f64)
        };
        let mut first = None;
        let mut last = None;
        for (arrived, samples) in chunks.iter().filter(|(t, _)| *t >= from) {
            if let Some(i) = samples.iter().position(loud) {
                first.get_or_insert(at(*arrived, samples.len(), i));
            }
            if let Some(i) = samples.iter().rposition(loud) {
                last = Some(at(*arrived, samples.len(), i));
            }
        }
        Some((first?, last?))
    }
}

impl Drop for Monitor {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Prints the figures of `v`; returns its median.
fn stats(name: &str, mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    assert!(!v.is_empty(), "{name}: no samples");
    let pick = |q: f64| bench::quantile(&v, q);
    println!(
        "{name:<58} median {:>7.1}  p95 {:>7.1}  max {:>7.1}   (n = {})",
        pick(0.5),
        pick(0.95),
        v[v.len() - 1],
        v.len()
    );
    pick(0.5)
}

/// What saying a list of texts measured, in ms (lengths in s).
struct Measured {
    /// `move` → the start the voice confirmed.
    reported: Vec<f64>,
    /// Starts reported without confirmation, not counted in `reported`.
    unconfirmed: usize,
    /// `move` → the first audible sample at the sink.
    sunk: Vec<f64>,
    /// First to last audible sample.
    lengths: Vec<f64>,
}

/// Speaks every text through `voice`, one at a time, and measures.
fn measure(voice: VoiceName, texts: &[String], monitor: &Monitor) -> Measured {
    let config = SpeechConfig {
        voices: vec![voice],
        ..SpeechConfig::default()
    };
    let language = VoiceLanguage {
        clips: "fide".into(),
        synthesizer: "de".into(),
        spoken: pegboard::announce::Vocabulary::fide().spoken,
    };
    let (tx, rx) = crossbeam_channel::unbounded();
    let speaker = Speaker::spawn(
        move || build_chain(&config, &language, TextOutput::PrintedByCaller),
        tx,
    );
    // Warm up: the voice opens, the synthesizer loads.
    assert!(
        speaker.wait_ready(Duration::from_secs(10)),
        "{} did not open within 10 s",
        voice.as_str()
    );
    speaker.say(Utterance::words(Kind::Answer, "Anna"));
    speaker.wait_idle(Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(300));
    for r in rx.try_iter() {
        if let Report::VoiceFailed(why) = r {
            panic!("{} failed to say its first words: {why:?}", voice.as_str());
        }
    }
    let (mut reported, mut sunk, mut lengths) = (Vec::new(), Vec::new(), Vec::new());
    let mut unconfirmed = 0;
    for (i, text) in texts.iter().enumerate() {
        rx.try_iter().for_each(drop);
        let event = Instant::now();
        speaker.say(Utterance {
            kind: Kind::Move,
            earcon: None,
            text: text.clone(),
            ply: Some(i as u32 + 1),
            volume: 100,
            private: false,
        });
        // Its start, or what came instead within 10 s.
        let mut instead = Vec::new();
        let started = loop {
            match rx.recv_timeout(Duration::from_secs(10)) {
                Ok(Report::Started {
                    at,
                    voice: v,
                    confirmed,
                    ..
                }) if v == voice.as_str() => break (at, confirmed),
                Ok(Report::Unsaid(_)) => panic!("{} could not say \"{text}\"", voice.as_str()),
                Ok(other) => instead.push(format!("{other:?}")),
                Err(_) => panic!(
                    "{} did not start \"{text}\" within 10 s; reported instead: {instead:?}",
                    voice.as_str()
                ),
            }
        };
        speaker.wait_idle(Duration::from_secs(10));
        std::thread::sleep(Duration::from_millis(250));
        match started {
            (at, true) => reported.push((at - event).as_secs_f64() * 1000.0),
            (_, false) => unconfirmed += 1,
        }
        if let Some((first, last)) = monitor.audible_after(event) {
            sunk.push((first.saturating_duration_since(event)).as_secs_f64() * 1000.0);
            lengths.push((last - first).as_secs_f64());
        }
    }
    speaker.quit();
    Measured {
        reported,
        unconfirmed,
        sunk,
        lengths,
    }
}

fn child() {
    let mut targets = bench::Targets::new("speech");
    let said = bench::pick(usize::MAX, 8);
    let short: Vec<String> = announcements(Style::Short).into_iter().take(said).collect();
    let long = announcements(Style::Long);
    let monitor = Monitor::start();
    println!(
        "speech benchmarks: {} announcements of the demo game per run\n",
        short.len()
    );
    for (voice, target) in [
        (VoiceName::Clips, 15.0),
        (VoiceName::SpeechDispatcher, 150.0),
    ] {
        let m = measure(voice, &short, &monitor);
        let name = voice.as_str();
        println!(
            "{name}: {} of {} starts confirmed by the voice",
            m.reported.len(),
            m.reported.len() + m.unconfirmed
        );
        if !m.reported.is_empty() {
            stats(
                &format!("{name}: move event -> first sample taken by output, ms"),
                m.reported,
            );
        }
        let at_sink = stats(
            &format!("{name}: move event -> first audible sample at sink, ms"),
            m.sunk,
        );
        targets.at_most(
            &format!("{name}: move event → first audible sample at the sink, median"),
            at_sink,
            target,
            "ms",
        );
        if !bench::smoke() {
            let long = measure(voice, &long, &monitor);
            stats(&format!("{name}: spoken length, short style, s"), m.lengths);
            stats(
                &format!("{name}: spoken length, long style, s"),
                long.lengths,
            );
        }
        println!();
    }
    targets.finish();
}

fn main() {
    // `cargo bench` passes --bench; there is nothing to filter.
    audio::in_own_sound_system(CHILD, "bench", true, child);
}
