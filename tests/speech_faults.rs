//! A voice backend that fails must never silence the game. Each test runs
//! the real `demo`, `say` or `play` binary against a real speech-dispatcher
//! that is frozen (SIGSTOP) in the middle of a game, one left without its
//! sound server, a fake socket that accepts and never answers, or the
//! `text` voice alone, and checks that every move is still announced (by
//! the next voice) and that the command exits on time.

#[path = "support/audio.rs"]
mod audio;
mod common;

use std::io::{BufRead, BufReader, Read};
use std::os::unix::net::UnixListener;
use std::process::{Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use audio::AudioEnv;

/// The plies of the demo's Opera Game.
const OPERA_PLIES: usize = 33;
/// How soon after its end each command must have exited.
const EXIT_WITHIN: Duration = Duration::from_secs(2);

/// One sound system at a time: the tests share the machine's audio tools.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}

/// A finished run: standard output's lines with the instant each arrived.
struct Run {
    lines: Vec<(Instant, String)>,
    stderr: String,
    exited: Instant,
    success: bool,
}

impl Run {
    fn events(&self, kind: &str) -> Vec<serde_json::Value> {
        self.lines
            .iter()
            .filter(|(_, l)| l.starts_with('{'))
            .filter_map(|(_, l)| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|e| e["event"] == kind)
            .collect()
    }

    fn text(&self) -> String {
        let out: Vec<&str> = self.lines.iter().map(|(_, l)| l.as_str()).collect();
        format!("{}\n--- stderr\n{}", out.join("\n"), self.stderr)
    }

    /// The instant each ply's event of this kind arrived.
    fn instants(&self, kind: &str) -> std::collections::HashMap<u64, Instant> {
        self.lines
            .iter()
            .filter(|(_, l)| l.starts_with('{'))
            .filter_map(|(t, l)| {
                let e: serde_json::Value = serde_json::from_str(l).ok()?;
                (e["event"] == kind).then_some((e["ply"].as_u64()?, *t))
            })
            .collect()
    }
}

/// Runs `cmd`, calling `on_line` with each line of standard output as it
/// comes. A command still running after `limit` is killed and the test
/// fails: it never exited.
fn run(mut cmd: Command, limit: Duration, mut on_line: impl FnMut(&str)) -> Run {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pegboard starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let errors = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let began = Instant::now();
    let pid = child.id();
    let watchdog = std::thread::spawn(move || {
        let deadline = began + limit;
        loop {
            match child.try_wait() {
                Ok(Some(status)) => return Some((Instant::now(), status.success())),
                Ok(None) if Instant::now() > deadline => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return None;
                }
                _ => std::thread::sleep(Duration::from_millis(5)),
            }
        }
    });
    let mut lines = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let Ok(line) = line else { break };
        on_line(&line);
        lines.push((Instant::now(), line));
    }
    let ended = watchdog.join().expect("watchdog");
    let stderr = errors.join().unwrap_or_default();
    let Some((exited, success)) = ended else {
        let out: Vec<String> = lines.into_iter().map(|(_, l)| l).collect();
        panic!(
            "pegboard (pid {pid}) had not exited after {limit:?}:\n{}\n--- stderr\n{stderr}",
            out.join("\n")
        );
    };
    Run {
        lines,
        stderr,
        exited,
        success,
    }
}

fn write_config(env: &AudioEnv, name: &str, text: &str) -> String {
    let path = env.dir.join(name);
    std::fs::write(&path, text).expect("config");
    path.display().to_string()
}

fn demo(env: &AudioEnv, config: &str, extra: &[&str]) -> Command {
    let mut cmd = common::pegboard_command();
    cmd.args(["demo", "--speed", "20", "--events", "--config", config])
        .args(extra)
        .envs(env.vars())
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// Every ply of the game was announced, each once.
fn assert_every_move_announced(r: &Run, plies: usize) {
    let moves = r.events("move");
    assert_eq!(moves.len(), plies, "{}", r.text());
    let mut announced: Vec<u64> = r
        .events("announced")
        .iter()
        .filter_map(|e| e["ply"].as_u64())
        .collect();
    announced.sort_unstable();
    let expected: Vec<u64> = (1..=plies as u64).collect();
    assert_eq!(announced, expected, "{}", r.text());
}

/// The demo exited within [`EXIT_WITHIN`] of its last line.
fn assert_exits_on_time(r: &Run) {
    assert!(r.success, "{}", r.text());
    let last = r.lines.last().map(|(t, _)| *t).expect("output");
    let after = r.exited.saturating_duration_since(last);
    assert!(
        after <= EXIT_WITHIN,
        "exited {after:?} after its last line:\n{}",
        r.text()
    );
}

#[test]
fn demo_goes_on_with_the_next_voice_when_speech_dispatcher_freezes_mid_game() {
    let _turn = one_at_a_time();
    let env = AudioEnv::start("frozen", true);
    let config = write_config(
        &env,
        "frozen.toml",
        "[speech]\nvoices = [\"speech-dispatcher\", \"text\"]\n",
    );
    let mut frozen = false;
    let r = run(demo(&env, &config, &[]), Duration::from_secs(60), |line| {
        // Frozen in the middle of the game, after White's third move.
        if !frozen && line.contains("3. d4") {
            env.freeze_speechd();
            frozen = true;
        }
    });
    assert!(frozen, "{}", r.text());
    assert_every_move_announced(&r, OPERA_PLIES);
    let out = r.text();
    assert!(
        out.contains("(speaking with the speech-dispatcher voice)"),
        "{out}"
    );
    assert!(out.contains("(speaking with the text voice)"), "{out}");
    // Told once, not at every move.
    assert_eq!(
        r.stderr.matches("voice speech-dispatcher").count(),
        1,
        "{out}"
    );
    // Every move after the freeze is announced within the start bound
    // (500 ms) of its printing, with half as much again to spare for a
    // busy machine running a debug build (`cargo bench --bench faults`
    // measures the bound itself); waiting out a frozen utterance took
    // 3.9 s.
    let printed = r.instants("move");
    let announced = r.instants("announced");
    for ply in 6..=OPERA_PLIES as u64 {
        let delay = announced[&ply].saturating_duration_since(printed[&ply]);
        assert!(
            delay <= Duration::from_millis(750),
            "move {ply} announced {delay:?} after it was printed:\n{out}"
        );
    }
    assert_exits_on_time(&r);
}

#[test]
fn demo_goes_on_when_speech_dispatcher_has_no_sound_server() {
    let _turn = one_at_a_time();
    let mut env = AudioEnv::start("no-sound", true);
    env.stop_pulse();
    let config = write_config(
        &env,
        "nosound.toml",
        "[speech]\nvoices = [\"speech-dispatcher\", \"text\"]\n",
    );
    let r = run(demo(&env, &config, &[]), Duration::from_secs(60), |_| {});
    assert_every_move_announced(&r, OPERA_PLIES);
    assert!(
        r.text().contains("(speaking with the text voice)"),
        "{}",
        r.text()
    );
    assert_exits_on_time(&r);
}

/// A speech-dispatcher socket that accepts every connection and never
/// answers, as a daemon hung before its first reply does.
struct Silent {
    path: std::path::PathBuf,
    _listener: UnixListener,
    _accepted: std::thread::JoinHandle<()>,
}

impl Silent {
    fn at(env: &AudioEnv) -> Silent {
        let path = env.dir.join("silent.sock");
        let listener = UnixListener::bind(&path).expect("socket");
        let accepting = listener.try_clone().expect("socket");
        let accepted = std::thread::spawn(move || {
            let mut held = Vec::new();
            for stream in accepting.incoming() {
                match stream {
                    Ok(s) => held.push(s),
                    Err(_) => break,
                }
            }
        });
        Silent {
            path,
            _listener: listener,
            _accepted: accepted,
        }
    }

    fn address(&self) -> String {
        format!("unix_socket:{}", self.path.display())
    }
}

#[test]
fn say_with_a_speech_dispatcher_that_never_answers_speaks_with_the_next_voice_and_exits() {
    let _turn = one_at_a_time();
    let env = AudioEnv::start("silent-say", false);
    let silent = Silent::at(&env);
    // A voice may take 3 s to open here (20 s by default): then it is left
    // alone, and `say` goes on with the next voice.
    let config = write_config(&env, "open.toml", "[speech]\nopen_within_ms = 3000\n");
    let mut cmd = common::pegboard_command();
    cmd.args(["say", "--move", "e2e4", "--config", &config])
        .envs(env.vars())
        .env("SPEECHD_ADDRESS", silent.address())
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    let began = Instant::now();
    let r = run(cmd, Duration::from_secs(30), |_| {});
    assert!(r.success, "{}", r.text());
    assert!(
        r.stderr
            .contains("voice speech-dispatcher: not working: did not open within 3 s"),
        "{}",
        r.text()
    );
    assert!(r.stderr.contains("spoken by: clips"), "{}", r.text());
    // The 3 s, then the clips say it (about a second), then it exits.
    let took = r.exited - began;
    assert!(
        took < Duration::from_secs(10),
        "took {took:?}: {}",
        r.text()
    );
}

#[test]
fn play_with_a_speech_dispatcher_that_never_answers_announces_every_move_and_presses_the_clock() {
    let _turn = one_at_a_time();
    let env = AudioEnv::start("silent-play", false);
    let silent = Silent::at(&env);
    let trace = env.dir.join("game.jsonl");
    std::fs::write(
        &trace,
        "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n\
         {\"t\":500,\"lift\":\"e2\"}\n{\"t\":900,\"place\":\"e4\"}\n\
         {\"t\":1500,\"lift\":\"e7\"}\n{\"t\":1900,\"place\":\"e5\"}\n\
         {\"t\":2500,\"lift\":\"g1\"}\n{\"t\":2900,\"place\":\"f3\"}\n",
    )
    .expect("trace");
    let config = write_config(
        &env,
        "silent.toml",
        &format!(
            "[speech]\nvoices = [\"speech-dispatcher\", \"text\"]\n\
             [clock]\ncontrol = \"5+3\"\n\
             [sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"{}\"\n",
            trace.display()
        ),
    );
    let mut cmd = common::pegboard_command();
    // The voices are waited for up to 3 s before the sensors start (the
    // silent socket takes all of it); the 9 s count from then, and the
    // moves take 3 s of them: room for a slow machine.
    cmd.args(["play", "--events", "--seconds", "9", "--config", &config])
        .envs(env.vars())
        .env("SPEECHD_ADDRESS", silent.address())
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    let r = run(cmd, Duration::from_secs(30), |_| {});
    assert!(r.success, "{}", r.text());
    assert_every_move_announced(&r, 3);
    // The log says once why speech-dispatcher did not speak.
    assert_eq!(
        r.text()
            .matches("pegboard: voice speech-dispatcher: not ready")
            .count(),
        1,
        "{}",
        r.text()
    );
    // The clock was pressed at each announcement: Black's clock runs after
    // White's move, and so on.
    let running: Vec<String> = r
        .events("clock")
        .iter()
        .filter_map(|e| e["running"].as_str().map(str::to_string))
        .collect();
    for side in ["white", "black"] {
        assert!(running.iter().any(|s| s == side), "{}", r.text());
    }
    // Ready when it says where the game is kept: its seconds count from
    // there.
    let ready = r
        .lines
        .iter()
        .find(|(_, l)| l.starts_with("pegboard: game "))
        .map(|(at, _)| *at)
        .unwrap_or_else(|| panic!("play says where its game is kept: {}", r.text()));
    let took = r.exited - ready;
    assert!(
        (Duration::from_secs(9)..=Duration::from_secs(9) + EXIT_WITHIN).contains(&took),
        "play --seconds 9 took {took:?} from when it was ready: {}",
        r.text()
    );
}

#[test]
fn demo_with_the_text_voice_and_a_clock_announces_every_move_and_exits() {
    let _turn = one_at_a_time();
    let env = AudioEnv::start("text", false);
    let config = write_config(&env, "text.toml", "[speech]\nvoices = [\"text\"]\n");
    let r = run(
        demo(&env, &config, &["--clock", "5+3"]),
        Duration::from_secs(60),
        |_| {},
    );
    assert_every_move_announced(&r, OPERA_PLIES);
    // Each announcement pressed the clock, but the mate: it ends the game,
    // which stops the clock (5.1a) with 16 moves on each side.
    let presses = r
        .events("clock")
        .iter()
        .filter(|e| e["cause"] == "press")
        .count();
    assert_eq!(presses, OPERA_PLIES - 1, "{}", r.text());
    let last = r.events("clock").last().cloned().expect("clock events");
    assert_eq!(last["cause"], "stop", "{}", r.text());
    assert_eq!(last["white"]["moves"], 16, "{}", r.text());
    assert_eq!(last["black"]["moves"], 16, "{}", r.text());
    assert_exits_on_time(&r);
}

#[test]
fn alsa_noise_never_reaches_the_user_and_one_line_says_why_a_voice_failed() {
    // No sound server at all: the clips voice falls back to ALSA, which on
    // a machine without a sound card prints dozens of `ALSA lib …` lines.
    let _turn = one_at_a_time();
    let mut env = AudioEnv::start("no-alsa", false);
    env.stop_pulse();
    let mut cmd = common::pegboard_command();
    cmd.args(["say", "--voice", "clips", "--move", "e2e4"])
        .envs(env.vars())
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    let r = run(cmd, Duration::from_secs(30), |_| {});
    let all = r.text();
    assert!(r.success, "{all}");
    assert!(!all.contains("ALSA lib"), "{all}");
    assert_eq!(
        r.stderr.matches("voice clips: not working").count(),
        1,
        "{all}"
    );
    assert!(r.stderr.contains("spoken by: text"), "{all}");
}
