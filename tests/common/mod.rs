//! Helpers shared by the integration tests.
#![allow(dead_code)]

use pegboard::announce::Phrasebook;
use pegboard::core::{BLIND_BOARD, Settings, Stamped};
use pegboard::runtime::replay::{Until, replay};
use pegboard::trace::{self, Entry};
use serde_json::Value;

/// Reads a trace written inline in a test.
pub fn parse(text: &str) -> Vec<Entry> {
    match trace::read(text.as_bytes(), "test") {
        Ok(entries) => entries,
        Err(e) => panic!("test trace is malformed: {e}"),
    }
}

/// The events of `entries` replayed with `settings` until all is idle.
pub fn replayed(entries: &[Entry], settings: Settings) -> Vec<Stamped> {
    replayed_in(entries, settings, Phrasebook::default())
}

/// The same, said with `words`.
pub fn replayed_in(entries: &[Entry], settings: Settings, words: Phrasebook) -> Vec<Stamped> {
    match replay(
        entries,
        "test",
        settings,
        words,
        &[BLIND_BOARD],
        Until::Idle,
    ) {
        Ok(events) => events,
        Err(e) => panic!("replay failed: {e}"),
    }
}

pub fn run_with(entries: &[Entry], settings: Settings) -> Vec<Value> {
    to_json(&replayed(entries, settings))
}

/// The scoresheet (PGN, no tags given) kept from `events`.
pub fn scoresheet_of(events: &[Stamped]) -> String {
    let mut sheet = pegboard::record::scoresheet::Scoresheet::new(&Default::default(), None);
    for e in events {
        sheet.observe(e);
    }
    sheet.pgn()
}

pub fn run(text: &str) -> Vec<Value> {
    run_with(&parse(text), Settings::default())
}

pub fn to_json(events: &[Stamped]) -> Vec<Value> {
    events
        .iter()
        .map(|e| serde_json::to_value(e).expect("events serialize"))
        .collect()
}

/// Events of one kind.
pub fn of<'a>(events: &'a [Value], name: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["event"] == name).collect()
}

/// The `san` of every move event.
pub fn sans(events: &[Value]) -> Vec<String> {
    of(events, "move")
        .iter()
        .map(|e| e["san"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// The text of every `say` event, and of every `answer` to a question.
pub fn says(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .filter(|e| e["event"] == "say" || e["event"] == "answer")
        .filter_map(|e| e["text"].as_str())
        .collect()
}

pub fn names(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .map(|e| e["event"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// The `pegboard` binary as a command. When the tests run under an
/// emulator (the aarch64 build under qemu-aarch64, see
/// `docs/cross-build.md`), `PEGBOARD_TEST_RUNNER` names it, and the binary
/// is started through it too.
///
/// Each command keeps its games in a journal directory of its own
/// (`XDG_STATE_HOME`), so that no test resumes another's game; a test
/// that wants a journal of its own names `[journal] dir`.
pub fn pegboard_command() -> std::process::Command {
    program_command(std::path::Path::new(env!("CARGO_BIN_EXE_pegboard")))
}

/// A command running `program` (the pegboard binary, or a copy of it)
/// through the test runner when there is one (`PEGBOARD_TEST_RUNNER`,
/// qemu-aarch64 for the Pi's build), with a fresh state directory.
pub fn program_command(program: &std::path::Path) -> std::process::Command {
    let mut c = match std::env::var("PEGBOARD_TEST_RUNNER") {
        Ok(runner) if !runner.trim().is_empty() => {
            let mut words = runner.split_whitespace();
            let mut c = std::process::Command::new(words.next().unwrap_or_default());
            c.args(words).arg(program);
            c
        }
        _ => std::process::Command::new(program),
    };
    c.env("XDG_STATE_HOME", fresh_state_dir())
        .env_remove("STATE_DIRECTORY");
    c
}

/// An empty directory `pegboard-NAME-PID` in the temporary folder, made
/// anew.
pub fn empty_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pegboard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

/// A directory no other command of this test run has used.
pub fn fresh_state_dir() -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("pegboard-state-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `play` on the configuration at `config` for `seconds`, silent,
/// printing its events: once it has ended well, all it wrote (standard
/// output, then error) and the events among it.
pub fn play_events(config: &str, seconds: &str) -> (String, Vec<Value>) {
    let out = pegboard_command()
        .args([
            "play",
            "--silent",
            "--events",
            "--seconds",
            seconds,
            "--config",
            config,
        ])
        .output()
        .expect("play runs");
    let printed = String::from_utf8_lossy(&out.stdout).to_string();
    let logged = format!("{printed}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{logged}");
    let events = printed
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    (logged, events)
}

/// Writes into `dir` a trace of one move, 1. Nf3 (g1 lifted at 0.3 s, f3
/// filled at 0.7 s), and a configuration that plays it as the sensor
/// source, `before` being put at the top of the file (a `[clock]` table,
/// say). Returns the configuration's path.
pub fn nf3_play_config(dir: &std::path::Path, before: &str) -> String {
    nf3_play_config_sensing(dir, before, "")
}

/// `pegboard play` (silent, two seconds) on the one-move trace in `dir`,
/// `before` at the top of its configuration and its journal in
/// `dir/journal` with `journal` (lines of its own) in that table. Returns
/// what it printed (standard output, then error) once it has ended well.
pub fn play_nf3_journaled(dir: &std::path::Path, before: &str, journal: &str) -> String {
    let config = nf3_play_config(dir, before);
    let mut text = std::fs::read_to_string(&config).expect("config");
    text.push_str(&format!(
        "[journal]\ndir = \"{}\"\n{journal}",
        dir.join("journal").display()
    ));
    std::fs::write(&config, text).expect("config");
    let out = pegboard_command()
        .args(["play", "--silent", "--seconds", "2", "--config", &config])
        .output()
        .expect("play runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    said
}

/// A trace of 1. Nf3 (g1 lifted at 0.3 s, f3 placed at 0.7 s, then
/// nothing), written as `nf3.jsonl` in `dir`; its path.
pub fn nf3_trace(dir: &std::path::Path) -> std::path::PathBuf {
    let trace = dir.join("nf3.jsonl");
    std::fs::write(
        &trace,
        "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n\
         {\"t\":300,\"lift\":\"g1\"}\n{\"t\":700,\"place\":\"f3\"}\n",
    )
    .expect("trace");
    trace
}

/// The same, with `sensors` (lines of its own) in its `[sensors]` table.
pub fn nf3_play_config_sensing(dir: &std::path::Path, before: &str, sensors: &str) -> String {
    let trace = nf3_trace(dir);
    let config = dir.join("nf3.toml");
    std::fs::write(
        &config,
        format!(
            "{before}[sensors]\nsource = \"trace\"\n{sensors}[sensors.trace]\nfile = \"{}\"\n",
            trace.display()
        ),
    )
    .expect("config");
    config.display().to_string()
}

/// A child process that is killed and reaped when the test lets go of it,
/// so a failing assertion leaves no daemon behind.
pub struct Reaped(pub std::process::Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// Reads a command's output until the line naming the mirror's address
/// (`pegboard: the mirror is at http://ADDR/`, or `replay`'s "the mirror
/// shows … at http://ADDR/"); what it read is added to `seen`.
pub fn mirror_of(out: &mut impl std::io::BufRead, seen: &mut String) -> std::net::SocketAddr {
    loop {
        let mut line = String::new();
        assert!(
            out.read_line(&mut line).expect("a line") > 0,
            "no line names the mirror: {seen}"
        );
        seen.push_str(&line);
        if line.contains("the mirror")
            && let Some((_, rest)) = line.split_once("http://")
        {
            let addr = rest.split('/').next().unwrap_or_default();
            return addr.parse().expect("an address");
        }
    }
}

/// The occupancy of the position `fen` (read with `mode`'s castling rules)
/// with the squares `empty` emptied and `full` filled, written as a trace
/// writes it.
pub fn occ(fen: &str, mode: shakmaty::CastlingMode, empty: &[&str], full: &[&str]) -> String {
    use shakmaty::Position as _;
    let pos: shakmaty::Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .expect("a FEN")
        .into_position(mode)
        .expect("a legal position");
    let mut bb = pos.board().occupied();
    for s in empty {
        bb.discard(s.parse::<shakmaty::Square>().expect("a square"));
    }
    for s in full {
        bb.add(s.parse::<shakmaty::Square>().expect("a square"));
    }
    format!("{:016x}", bb.0)
}

/// The default settings with touch-move enforced: a move that breaks it
/// is refused until it is taken back.
pub fn enforce() -> Settings {
    Settings {
        touch_policy: pegboard::core::TouchPolicy::Enforce,
        ..Settings::default()
    }
}

/// A trace's header starting from the position `fen` ("startpos" too).
pub fn header(fen: &str) -> String {
    format!(r#"{{"t":0,"trace":1,"start":"{fen}"}}"#)
}

/// The default settings with a clock of `control`, in the PGN
/// `TimeControl` form ("300+0", "40/5400+30:1800+30").
pub fn with_clock(control: &str) -> Settings {
    let mut s = Settings::default();
    s.clock.control =
        Some(pegboard::core::clock::TimeControl::parse_pgn(control).expect("a PGN time control"));
    s
}

/// Runs `program` with `args`, `input` on its standard input; what it
/// wrote, once it has ended (whether it ended well is the caller's to
/// judge).
pub fn piped(program: &str, args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut child = std::process::Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} runs (.ci/setup.sh installs it): {e}"));
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .unwrap_or_else(|e| panic!("{program} reads its input: {e}"));
    child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("{program} ends: {e}"))
}

/// [`piped`], which must end well: the lines it printed.
pub fn piped_lines(program: &str, args: &[&str], input: &str) -> Vec<String> {
    let out = piped(program, args, input);
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}
