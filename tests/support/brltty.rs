//! A real brltty (Debian's, installed by `.ci/setup.sh`) driving its
//! Virtual display driver, which the test plays: brltty connects to a Unix
//! socket the test listens on, is told the display's size (`cells N`),
//! sends what the display shows (`Braille "1|12| |…"`, dots per cell), and
//! takes the display's keys as brltty's commands (`route 3`). Its BrlAPI
//! listens on a host number of the test's own (TCP port 4101 + N), with no
//! authorization, so that it meets no other brltty.
//!
//! The Virtual driver is in brltty 6.5 to 6.8 (Debian 12 has 6.5); brltty
//! 6.9 removed it. Without it this test fails and says so: it does not
//! skip.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// Where Debian's brltty keeps its Virtual driver.
pub const VIRTUAL_DRIVER: &str = "/lib/brltty/libbrlttybvr.so";

/// A brltty with a Virtual display of `cells` cells, played by the test.
pub struct Brltty {
    child: Child,
    peer: UnixStream,
    /// Where brltty connects to the display (again, after it is
    /// unplugged).
    listener: UnixListener,
    /// The display's size, told again when it is plugged in again.
    cells: usize,
    lines: Receiver<(Instant, String)>,
    sent: std::sync::mpsc::Sender<(Instant, String)>,
    /// The BrlAPI host to connect to ("127.0.0.1:N").
    pub host: String,
    dir: PathBuf,
}

impl Brltty {
    /// Starts brltty on a display of `cells` cells, its BrlAPI on host
    /// number `number`, and waits until it has connected to the display.
    pub fn start(name: &str, number: u16, cells: usize) -> Brltty {
        assert!(
            std::path::Path::new(VIRTUAL_DRIVER).exists(),
            "brltty's Virtual driver ({VIRTUAL_DRIVER}) is missing: these tests need brltty 6.5 to \
             6.8 with it (Debian 12's brltty package; .ci/setup.sh installs it). Upstream removed \
             the driver in 6.9."
        );
        let dir =
            std::env::temp_dir().join(format!("pegboard-brltty-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let socket = dir.join("vr.sock");
        let listener = UnixListener::bind(&socket).expect("the display's socket");
        let host = format!("127.0.0.1:{number}");
        let child = Command::new("brltty")
            .args(["-n", "-e", "-q", "-l", "warning", "-f", "/dev/null"])
            .arg("-U")
            .arg(&dir)
            .arg("-W")
            .arg(&dir)
            .args(["-b", "vr", "-d"])
            .arg(format!("client:{}", socket.display()))
            .args(["-x", "no", "-s", "no", "-t", "en-nabcc"])
            .arg("-A")
            .arg(format!("auth=none,host={host}"))
            .args(["-o", "show-screen-cursor=no,alert-tunes=no"])
            .env_remove("DISPLAY")
            .env_remove("WINDOWPATH")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("brltty runs (.ci/setup.sh installs Debian's brltty)");
        listener.set_nonblocking(true).expect("nonblocking");
        let began = Instant::now();
        let peer = connected(&listener, cells);
        // BrlAPI listens on TCP port 4101 + N once brltty has started it,
        // which may be a moment after the display is connected.
        let port = 4101 + number;
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                began.elapsed() < Duration::from_secs(20),
                "brltty's BrlAPI never listened on port {port}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        let (sent, lines) = channel();
        read_lines(&peer, sent.clone());
        // brltty's core writes its first screen (its own "no screen") a
        // moment after the driver is up: until then nothing reaches the
        // display, a client's cells included.
        let brltty = Brltty {
            child,
            peer,
            listener,
            cells,
            lines,
            sent,
            host,
            dir,
        };
        brltty.shown_until(Duration::from_secs(20), |_| true);
        // And its BrlAPI names the display's size only a moment later (up
        // to a second): a client connecting before waits that long for
        // its first cells. Asked once here, so that what is measured is
        // brltty running, not brltty starting.
        let began = Instant::now();
        while pegboard::braille::brlapi::Display::size(&brltty.host, "none", Duration::from_secs(5))
            .is_err()
        {
            assert!(
                began.elapsed() < Duration::from_secs(20),
                "brltty's BrlAPI never named the display's size"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        brltty
    }

    /// The next cells the display shows that `wanted` accepts, as dot
    /// numbers per cell (an empty string for a blank cell), within `within`.
    pub fn shown_until(&self, within: Duration, wanted: impl Fn(&[String]) -> bool) -> Vec<String> {
        self.shown_at(within, wanted).1
    }

    /// The same, with the instant the display had them.
    pub fn shown_at(
        &self,
        within: Duration,
        wanted: impl Fn(&[String]) -> bool,
    ) -> (Instant, Vec<String>) {
        let began = Instant::now();
        let mut seen = Vec::new();
        loop {
            let left = within.saturating_sub(began.elapsed());
            match self.lines.recv_timeout(left) {
                Ok((at, line)) => {
                    if let Some(cells) = braille_line(&line) {
                        if wanted(&cells) {
                            return (at, cells);
                        }
                        seen.push(line);
                    }
                }
                Err(_) => panic!("the display never showed what was wanted; it showed {seen:?}"),
            }
        }
    }

    /// Everything the display showed since the last look, each with the
    /// instant it came, without waiting.
    pub fn shown_so_far(&self) -> Vec<(Instant, Vec<String>)> {
        self.lines
            .try_iter()
            .filter_map(|(at, line)| braille_line(&line).map(|cells| (at, cells)))
            .collect()
    }

    /// Presses a key on the display: one of brltty's commands (`route 3`).
    pub fn press(&mut self, command: &str) {
        writeln!(self.peer, "{command}").expect("the key is sent");
    }

    /// Pulls the display's cable: its end of the connection closed. brltty
    /// goes on, and tries the display again every few seconds.
    pub fn unplug(&mut self) {
        let _ = self.peer.shutdown(std::net::Shutdown::Both);
    }

    /// Plugs the display in again: brltty's next try finds it.
    pub fn plug(&mut self) {
        self.peer = connected(&self.listener, self.cells);
        read_lines(&self.peer, self.sent.clone());
    }

    /// Stops brltty as `systemctl stop` would.
    pub fn stop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }
}

impl Drop for Brltty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// brltty connected to the display's socket (within 20 s), and told the
/// display's size.
fn connected(listener: &UnixListener, cells: usize) -> UnixStream {
    let began = Instant::now();
    let mut peer = loop {
        match listener.accept() {
            Ok((s, _)) => break s,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                assert!(
                    began.elapsed() < Duration::from_secs(20),
                    "brltty never connected to its Virtual display"
                );
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => panic!("the display's socket: {e}"),
        }
    };
    peer.set_nonblocking(false).expect("blocking");
    writeln!(peer, "cells {cells}").expect("the display's size is told");
    peer
}

/// Every line brltty sends the display, with the instant it came.
fn read_lines(peer: &UnixStream, sent: std::sync::mpsc::Sender<(Instant, String)>) {
    let reader = peer.try_clone().expect("a reading end");
    std::thread::spawn(move || {
        for line in BufReader::new(reader).lines().map_while(Result::ok) {
            if sent.send((Instant::now(), line)).is_err() {
                return;
            }
        }
    });
}

/// The pegboard binary as a command, through the test runner when there
/// is one (`PEGBOARD_TEST_RUNNER`, qemu-aarch64 for the Pi's build), its
/// state kept beside `config`.
pub fn pegboard(config: &std::path::Path) -> Command {
    let program = env!("CARGO_BIN_EXE_pegboard");
    let mut c = match std::env::var("PEGBOARD_TEST_RUNNER") {
        Ok(runner) if !runner.trim().is_empty() => {
            let mut words = runner.split_whitespace();
            let mut c = Command::new(words.next().unwrap_or_default());
            c.args(words).arg(program);
            c
        }
        _ => Command::new(program),
    };
    let state = config
        .parent()
        .unwrap_or(std::path::Path::new("."))
        .join("state");
    c.env("XDG_STATE_HOME", state).env_remove("STATE_DIRECTORY");
    c
}

/// The cells of a `Braille "…"` line: each cell's dot numbers, `|` between
/// cells, a space for a blank cell.
fn braille_line(line: &str) -> Option<Vec<String>> {
    let inner = line.strip_prefix("Braille \"")?.strip_suffix('"')?;
    Some(inner.split('|').map(|c| c.trim().to_string()).collect())
}

/// `text` as liblouis's own `lou_translate` writes it in `table`, as dot
/// numbers per cell (six dots: a Braille display shows the page's cells).
pub fn lou_dots(table: &str, text: &str) -> Vec<String> {
    let mut child = Command::new("lou_translate")
        .arg(format!("unicode.dis,{table}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("lou_translate runs (.ci/setup.sh installs liblouis-bin)");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(format!("{text}\n").as_bytes())
        .expect("written");
    let out = child.wait_with_output().expect("lou_translate ends");
    assert!(out.status.success(), "lou_translate {table} failed");
    String::from_utf8_lossy(&out.stdout)
        .trim_end_matches('\n')
        .chars()
        .map(|c| {
            let bits = u32::from(c).wrapping_sub(0x2800) & 0x3f;
            (0..6)
                .filter(|b| bits & 1 << b != 0)
                .map(|b| char::from(b'1' + b as u8))
                .collect()
        })
        .collect()
}

/// The cells of the display's line that `parts` make: each part's text in
/// its table, a blank between parts, blanks to the display's end.
pub fn line_dots(parts: &[(&str, &str)], cells: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, (table, text)) in parts.iter().enumerate() {
        if i > 0 {
            out.push(String::new());
        }
        out.extend(lou_dots(table, text));
    }
    out.resize(cells.max(out.len()), String::new());
    out.truncate(cells);
    out
}

/// `pegboard play --events` running, with every line it prints and the
/// instant it came.
pub struct Play {
    pub child: Child,
    pub lines: Receiver<(Instant, String)>,
}

impl Play {
    /// `pegboard play --events --config config`, with `args` before.
    pub fn start(args: &[&str], config: &std::path::Path) -> Play {
        let mut child = pegboard(config)
            .arg("play")
            .arg("--events")
            .args(args)
            .arg("--config")
            .arg(config)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("play starts");
        let out = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send((Instant::now(), line)).is_err() {
                    return;
                }
            }
        });
        Play { child, lines }
    }

    /// The next event line (JSON) that `wanted` accepts, with its instant,
    /// within `within`; every line read on the way is kept in `seen`.
    pub fn event_until(
        &self,
        within: Duration,
        seen: &mut Vec<(Instant, serde_json::Value)>,
        wanted: impl Fn(&serde_json::Value) -> bool,
    ) -> (Instant, serde_json::Value) {
        let began = Instant::now();
        loop {
            let left = within.saturating_sub(began.elapsed());
            match self.lines.recv_timeout(left) {
                Ok((at, line)) => {
                    let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) else {
                        continue;
                    };
                    seen.push((at, v.clone()));
                    if wanted(&v) {
                        return (at, v);
                    }
                }
                Err(_) => panic!(
                    "play never printed the event wanted; it printed {:?}",
                    seen.iter().map(|(_, v)| v.to_string()).collect::<Vec<_>>()
                ),
            }
        }
    }

    /// Stops play as a service is stopped (SIGTERM).
    pub fn stop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }
}

impl Drop for Play {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The Opera Game (Morphy, Paris 1858: 17 moves), its first `plies`
/// moves played by quick simulated hands (`seed`), as a trace `play`
/// reads, in `dir`; with the game's moves in standard notation.
pub fn opera_trace(dir: &std::path::Path, seed: u64, plies: usize) -> (PathBuf, Vec<String>) {
    let games = pegboard::record::pgn::read_games(pegboard::runtime::demo::GAME.as_bytes())
        .expect("the demo game");
    let mut record = games[0].record.clone();
    // Clean hands: the trace source samples the trace when the scan loop
    // runs, so on a busy machine a late scan could take a glitch for a
    // piece. The display, not the sensors, is under test here.
    let style = pegboard::sim::Style {
        chatter: 0,
        glitch: 0,
        think: (300, 700),
        hand: (200, 400),
        scan_period: 0,
    };
    let (start, mode, moves, _) = pegboard::sim::playable_moves(&record).expect("playable");
    let plies = plies.min(moves.len());
    if plies < moves.len() {
        record.sans.truncate(plies);
        record.result = "*".into();
    }
    let entries =
        pegboard::sim::simulate_moves(&record, &start, mode, &moves[..plies], seed, style);
    let text: String = entries
        .iter()
        .map(|e| pegboard::trace::write_line(e.t, &e.reading) + "\n")
        .collect();
    let trace = dir.join("opera.jsonl");
    std::fs::write(&trace, text).expect("trace");
    (trace, record.sans)
}

/// A configuration for `play` on `trace` with the display of brltty at
/// `host`, its journal in `dir`, `extra` lines in `[braille]`.
pub fn play_config(
    dir: &std::path::Path,
    trace: &std::path::Path,
    host: &str,
    extra: &str,
) -> PathBuf {
    let config = dir.join("play.toml");
    std::fs::write(
        &config,
        format!(
            "language = \"en\"\n[journal]\ndir = \"{}\"\n[sensors]\nsource = \"trace\"\n\
             realtime = true\n[sensors.trace]\nfile = \"{}\"\n[speech]\nvoices = [\"text\"]\n\
             [braille]\ndisplay = true\nhost = \"{host}\"\nauth = \"none\"\n{extra}",
            dir.join("journal").display(),
            trace.display()
        ),
    )
    .expect("config");
    config
}
