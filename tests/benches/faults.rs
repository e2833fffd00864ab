//! What a failing voice backend costs, and what `play` costs to keep
//! running, against a real speech-dispatcher (espeak-ng) on a private
//! PulseAudio null sink:
//!
//! - the move → next voice speaking time when speech-dispatcher is frozen
//!   (SIGSTOP) between two utterances, and in the middle of one with the
//!   next move waiting behind it (target: the start bound + 50 ms);
//! - how long `demo`, `say` and `play` take to exit after their end with
//!   speech-dispatcher frozen from the start (target: 2 s);
//! - the peak resident memory of `play` over a long game (target: 30 MB).
//!
//! Run with: cargo bench --bench faults. The smoke run
//! (`PEGBOARD_BENCH_SMOKE=1`) freezes it twice each way, exits each
//! command once, and plays the shortest game of the collection for the
//! memory figure.

#[path = "../support/audio.rs"]
mod audio;
#[path = "../support/bench.rs"]
mod bench;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use audio::AudioEnv;
use crossbeam_channel::Receiver;
use pegboard::config::Config;
use pegboard::record::pgn::read_games;
use pegboard::sim::{Style, playable_moves, simulate};
use pegboard::speech::{
    Kind, Report, Speaker, SpeechConfig, TextOutput, Utterance, VoiceName, build_chain,
};
use pegboard::trace::write_line;

/// How often speech-dispatcher is frozen each way.
fn rounds() -> usize {
    bench::pick(10, 2)
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_pegboard")
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn speaker(env: &AudioEnv) -> (Speaker, Receiver<Report>) {
    // The speaker reads where speech-dispatcher and PulseAudio are from the
    // environment, as the binaries do.
    for (k, v) in env.vars() {
        // SAFETY: set before the speaker's threads start, and the bench is
        // single-threaded until then.
        unsafe { std::env::set_var(k, v) };
    }
    let defaults = Config::default();
    let language = pegboard::runtime::parts::voice_language(
        &defaults,
        &pegboard::runtime::parts::phrasebook(&defaults).expect("words"),
    );
    let config = SpeechConfig {
        voices: vec![VoiceName::SpeechDispatcher, VoiceName::Text],
        ..SpeechConfig::default()
    };
    let (tx, rx) = crossbeam_channel::unbounded();
    let s = Speaker::spawn(
        move || build_chain(&config, &language, TextOutput::PrintedByCaller),
        tx,
    );
    s.wait_ready(Duration::from_secs(5));
    (s, rx)
}

fn words(ply: u32, text: &str) -> Utterance {
    Utterance {
        kind: Kind::Move,
        earcon: None,
        text: text.into(),
        ply: Some(ply),
        volume: 100,
        private: false,
    }
}

/// Waits for the start of `ply`; which voice said it and when.
fn started(rx: &Receiver<Report>, ply: u32) -> (&'static str, Instant) {
    loop {
        match rx.recv_timeout(Duration::from_secs(10)) {
            Ok(Report::Started {
                ply: Some(p),
                voice,
                ..
            }) if p == ply => return (voice, Instant::now()),
            Ok(_) => {}
            Err(_) => panic!("move {ply} was never started"),
        }
    }
}

/// Frozen between utterances, or in the middle of one (`mid`).
fn failover(mid: bool) -> Vec<Duration> {
    let mut took = Vec::new();
    for round in 0..rounds() {
        let env = AudioEnv::start(&format!("failover-{mid}-{round}"), true);
        let (s, rx) = speaker(&env);
        s.say(words(1, "Springer Felix drei, und ein langer Satz danach"));
        let (voice, _) = started(&rx, 1);
        assert_eq!(voice, "speech-dispatcher");
        if !mid {
            assert!(s.wait_idle(Duration::from_secs(10)));
        }
        env.freeze_speechd();
        let said = Instant::now();
        s.say(words(2, "Bauer Eva fünf"));
        let (voice, at) = started(&rx, 2);
        assert_eq!(voice, "text");
        took.push(at - said);
        drop(s);
        drop(env);
    }
    took
}

/// Lines of output with their arrival; the exit instant.
fn timed(mut cmd: Command) -> (Vec<(Instant, String)>, Instant) {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("pegboard");
    let out = child.stdout.take().expect("stdout");
    let lines: Vec<(Instant, String)> = BufReader::new(out)
        .lines()
        .map_while(Result::ok)
        .map(|l| (Instant::now(), l))
        .collect();
    let _ = child.wait();
    (lines, Instant::now())
}

fn frozen_env(name: &str) -> AudioEnv {
    let env = AudioEnv::start(name, true);
    env.freeze_speechd();
    env
}

fn exits() -> [(&'static str, Vec<Duration>); 3] {
    let mut demo = Vec::new();
    let mut say = Vec::new();
    let mut play = Vec::new();
    for round in 0..bench::pick(3, 1) {
        // The next voice is the printed text, so the end of the words is
        // the last line (clips would still be speaking a fast demo).
        let env = frozen_env(&format!("exit-demo-{round}"));
        let config = env.dir.join("text-next.toml");
        std::fs::write(
            &config,
            "[speech]\nvoices = [\"speech-dispatcher\", \"text\"]\n",
        )
        .expect("config");
        let mut cmd = Command::new(bin());
        cmd.args(["demo", "--speed", "50", "--config"])
            .arg(&config)
            .envs(env.vars());
        let (lines, exited) = timed(cmd);
        demo.push(exited - lines.last().expect("output").0);

        let env = frozen_env(&format!("exit-say-{round}"));
        let mut cmd = Command::new(bin());
        cmd.args(["say", "--voice", "speech-dispatcher", "--move", "e2e4"])
            .envs(env.vars());
        // say's end: the text fallback printed the words.
        let (lines, exited) = timed(cmd);
        let printed = lines.last().map(|(t, _)| *t).expect("words");
        say.push(exited - printed);

        // play on a trace of 1. Nf3, its move to say with the voices'
        // first frozen.
        let env = frozen_env(&format!("exit-play-{round}"));
        let trace = env.dir.join("nf3.jsonl");
        std::fs::write(
            &trace,
            "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n\
             {\"t\":300,\"lift\":\"g1\"}\n{\"t\":700,\"place\":\"f3\"}\n",
        )
        .expect("trace");
        let config = env.dir.join("nf3.toml");
        std::fs::write(
            &config,
            format!(
                "[mirror]\nlisten = \"\"\n[sensors]\nsource = \"trace\"\n\
                 [sensors.trace]\nfile = \"{}\"\n",
                trace.display()
            ),
        )
        .expect("config");
        let mut cmd = Command::new(bin());
        cmd.args(["play", "--seconds", "3", "--config"])
            .arg(&config)
            .envs(env.vars())
            .env("XDG_STATE_HOME", env.dir.join("state"));
        let (lines, exited) = timed(cmd);
        // Its seconds count from when it is ready, as it says where the
        // game is kept.
        let ready = lines
            .iter()
            .find(|(_, l)| l.starts_with("pegboard: game "))
            .map(|(t, _)| *t)
            .expect("play says where its game is kept");
        play.push((exited - ready).saturating_sub(Duration::from_secs(3)));
    }
    [("demo", demo), ("say", say), ("play", play)]
}

/// Peak resident memory of `play` (VmHWM) over a long game at speed: the
/// longest game of the collection (the shortest in a smoke run), every ply,
/// by fast simulated hands.
fn play_memory() -> (u64, usize, u64) {
    let env = AudioEnv::start("memory", true);
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/games/immortal-games.pgn"
    ))
    .expect("the game collection");
    let games = read_games(text.as_bytes()).expect("games");
    let style = Style {
        think: (150, 300),
        hand: (100, 200),
        ..Style::default()
    };
    let playable = games.iter().filter_map(|g| {
        let plies = playable_moves(&g.record).ok()?.2.len();
        Some((plies, simulate(&g.record, 1, style).ok()?))
    });
    let (plies, trace) = if bench::smoke() {
        playable.min_by_key(|(n, _)| *n)
    } else {
        playable.max_by_key(|(n, _)| *n)
    }
    .expect("a playable game");
    let path = env.dir.join("long.jsonl");
    let mut lines = String::new();
    for e in &trace {
        lines.push_str(&write_line(e.t, &e.reading));
        lines.push('\n');
    }
    std::fs::write(&path, lines).expect("trace");
    let config = env.dir.join("long.toml");
    std::fs::write(
        &config,
        format!(
            "[sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"{}\"\n",
            path.display()
        ),
    )
    .expect("config");
    let seconds = trace.last().map_or(0, |e| e.t) / 1000 + 3;
    let mut child = Command::new(bin())
        .args(["play", "--seconds", &seconds.to_string(), "--config"])
        .arg(&config)
        .envs(env.vars())
        .env("XDG_STATE_HOME", env.dir.join("state"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("play");
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    while child.try_wait().ok().flatten().is_none() {
        if let Ok(s) = std::fs::read_to_string(&status)
            && let Some(kb) = s
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse::<u64>().ok())
        {
            peak = peak.max(kb);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    (peak, plies, seconds)
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let mut targets = bench::Targets::new("faults");
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let between = failover(false);
    let mid = failover(true);
    println!("move -> next voice speaking, speech-dispatcher frozen (start bound 500 ms):");
    for (way, took) in [
        ("between utterances", between),
        ("in the middle of one, next move waiting", mid),
    ] {
        let max = ms(*took.iter().max().expect("rounds"));
        println!(
            "  {way}: median {:.0} ms, max {max:.0} ms ({} rounds)",
            ms(median(took)),
            rounds()
        );
        targets.at_most(
            &format!("move → next voice speaking, frozen {way}, the longest"),
            max,
            550.0,
            "ms",
        );
    }
    println!(
        "exit after the end, speech-dispatcher frozen from the start ({} runs):",
        bench::pick(3, 1)
    );
    for (name, took) in exits() {
        let max = ms(*took.iter().max().expect("runs"));
        println!("  {name}: max {max:.0} ms");
        targets.at_most(
            &format!("{name} exits after its end, speech-dispatcher frozen, the longest"),
            max,
            2000.0,
            "ms",
        );
    }
    let (kb, plies, seconds) = play_memory();
    let mb = kb as f64 / 1024.0;
    println!(
        "play, a {plies}-ply game in {seconds} s with speech: peak resident memory {mb:.1} MB"
    );
    targets.at_most("play's peak resident memory over a game", mb, 30.0, "MB");
    targets.finish();
}
