//! A round in a hall for the tests and the benchmark: each board a real
//! `pegboard play` on loopback, playing a real game from a trace of
//! simulated hands (with its own journal and its mirror on a port of its
//! own), and hubs following them.
#![allow(dead_code)]

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use pegboard::record::pgn::PgnGame;
use pegboard::sim::Style;

/// Quick hands, though no quicker than a person's: a move about every
/// second, a piece in the hand for a fifth to two fifths of a second;
/// clean switches (no chatter, no glitch: what the round tests is the
/// hall, and 24 boards on two cores may leave a scan loop late past a
/// switch's bounce, which a board's own real-time place prevents on a Pi).
pub fn quick() -> Style {
    Style {
        chatter: 0,
        glitch: 0,
        think: (400, 1000),
        hand: (200, 400),
        scan_period: 0,
    }
}

/// A port free now on loopback.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A child process killed and reaped when let go of.
pub struct Process(pub Child);

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// `pegboard` with a state directory of its own.
fn pegboard(state: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pegboard"));
    c.env("XDG_STATE_HOME", state).env_remove("STATE_DIRECTORY");
    c
}

/// The moves of `game` a board can play: all, or those before the first
/// its record gets wrong.
pub fn plies(game: &PgnGame) -> u64 {
    pegboard::sim::playable_moves(&game.record).map_or(0, |(_, _, m, _)| m.len() as u64)
}

/// The trace of `game` played whole (as far as it can be) by hands of `seed` and `style`, its
/// lines shifted by `shift` ms, with `extra` lines (`"t":…` left out: each
/// given its time) put in at their times.
pub fn trace(game: &PgnGame, seed: u64, style: Style, shift: u64, extra: &[(u64, &str)]) -> String {
    let (start, mode, moves, _) = pegboard::sim::playable_moves(&game.record).expect("a game");
    let entries = pegboard::sim::simulate_moves(&game.record, &start, mode, &moves, seed, style);
    let mut lines: Vec<(u64, String)> = Vec::new();
    for e in &entries {
        let t = if e.t == 0 { 0 } else { e.t + shift };
        match &e.reading {
            // At a board, the promoted piece is named with a key (`play`'s
            // trace source takes keys, not inputs): pressed and let go.
            pegboard::trace::Reading::Input(pegboard::core::Input::Promote(role)) => {
                let bit = match role {
                    shakmaty::Role::Rook => 2,
                    shakmaty::Role::Bishop => 3,
                    shakmaty::Role::Knight => 4,
                    _ => 1,
                };
                lines.push((t, format!("{{\"t\":{t},\"keys\":{}}}", 1u16 << bit)));
                lines.push((t + 150, format!("{{\"t\":{},\"keys\":0}}", t + 150)));
            }
            // A resignation or a draw agreed at the end is the players'
            // word, which the board does not carry: the game stays open.
            pegboard::trace::Reading::Input(_) => {}
            reading => lines.push((t, pegboard::trace::write_line(t, reading))),
        }
    }
    for (t, line) in extra {
        lines.push((*t, format!("{{\"t\":{t},{line}}}")));
    }
    // The header first; then by time, each extra line after what the
    // hands did at the same instant.
    lines[1..].sort_by_key(|(t, _)| *t);
    lines.into_iter().map(|(_, l)| l + "\n").collect()
}

/// One board of the round.
pub struct Board {
    pub number: usize,
    pub port: u16,
    pub dir: PathBuf,
    pub config: PathBuf,
    pub process: Option<Process>,
}

impl Board {
    /// Board `number` playing `trace` on the clock `control` (PGN's
    /// `TimeControl`, in seconds), its
    /// players' names `white` and `black`, its mirror on `port`.
    pub fn start(
        root: &Path,
        number: usize,
        trace: &str,
        control: &str,
        (white, black): (&str, &str),
    ) -> Board {
        let dir = root.join(format!("board-{number}"));
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::write(dir.join("game.jsonl"), trace).expect("trace");
        let port = free_port();
        let config = dir.join("board.toml");
        let escape = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
        std::fs::write(
            &config,
            format!(
                "[clock]\npgn_control = \"{control}\"\n[game]\ntournament = true\n\
                 white = \"{}\"\nblack = \"{}\"\nround = \"1\"\n\
                 [[buttons.key]]\nbit = 0\npress = \"call_arbiter\"\n\
                 [[buttons.key]]\nbit = 1\npress = \"promote_queen\"\n\
                 [[buttons.key]]\nbit = 2\npress = \"promote_rook\"\n\
                 [[buttons.key]]\nbit = 3\npress = \"promote_bishop\"\n\
                 [[buttons.key]]\nbit = 4\npress = \"promote_knight\"\n\
                 [mirror]\nlisten = \"127.0.0.1:{port}\"\n[journal]\ndir = \"{}\"\n\
                 [sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"{}\"\n",
                escape(white),
                escape(black),
                dir.join("games").display(),
                dir.join("game.jsonl").display()
            ),
        )
        .expect("config");
        let mut board = Board {
            number,
            port,
            dir,
            config,
            process: None,
        };
        board.run();
        board
    }

    /// Starts its `play` (again), and waits until its mirror answers.
    pub fn run(&mut self) {
        let child = pegboard(&self.dir.join("state"))
            .args(["play", "--silent", "--config"])
            .arg(&self.config)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("play starts");
        self.process = Some(Process(child));
        let began = Instant::now();
        while TcpStream::connect(self.addr()).is_err() {
            assert!(
                began.elapsed() < Duration::from_secs(60),
                "board {} never listened",
                self.number
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn addr(&self) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, 1], self.port))
    }

    /// Kills its `play` with SIGKILL, as a power cut would.
    pub fn kill(&mut self) {
        if let Some(mut p) = self.process.take() {
            let _ = p.0.kill();
            let _ = p.0.wait();
        }
    }

    /// Its scoresheet as its journal keeps it (`pegboard pgn`).
    pub fn journal_pgn(&self) -> String {
        let out = pegboard(&self.dir.join("state"))
            .args(["pgn", "--config"])
            .arg(&self.config)
            .output()
            .expect("pgn runs");
        String::from_utf8_lossy(&out.stdout).to_string()
    }
}

/// A hub following `boards`, with `more` in its `[hall]` table and
/// `tables` after it; its state in `dir`.
pub struct Hub {
    pub addr: SocketAddr,
    pub config: PathBuf,
    pub process: Option<Process>,
}

impl Hub {
    pub fn start(dir: &Path, boards: &[Board], more: &str, tables: &str) -> Hub {
        std::fs::create_dir_all(dir).expect("dir");
        let mut text = format!(
            "language = \"en\"\n[hall]\nlisten = \"127.0.0.1:0\"\nevent = \"IBCA Open\"\n\
             round = \"1\"\n{more}\n"
        );
        for b in boards {
            text.push_str(&format!(
                "[[hall.boards]]\nnumber = {}\naddress = \"127.0.0.1:{}\"\n",
                b.number, b.port
            ));
        }
        text.push_str(tables);
        let config = dir.join("hall.toml");
        std::fs::write(&config, text).expect("config");
        let mut hub = Hub {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            config,
            process: None,
        };
        hub.run();
        hub
    }

    /// Starts the hub (again); its address is read from what it says.
    pub fn run(&mut self) {
        let state = self.config.with_file_name("state");
        let mut child = Process(
            pegboard(&state)
                .args(["hall", "--config"])
                .arg(&self.config)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("the hub starts"),
        );
        let mut err = BufReader::new(child.0.stderr.take().expect("stderr"));
        let mut seen = String::new();
        let addr = loop {
            let mut line = String::new();
            assert!(err.read_line(&mut line).expect("a line") > 0, "{seen}");
            seen.push_str(&line);
            if let Some((_, rest)) = line.split_once("the hall view is at http://") {
                break rest
                    .split('/')
                    .next()
                    .unwrap_or_default()
                    .parse()
                    .expect("an address");
            }
        };
        std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
        self.addr = addr;
        self.process = Some(child);
    }

    /// Kills it with SIGKILL.
    pub fn kill(&mut self) {
        if let Some(mut p) = self.process.take() {
            let _ = p.0.kill();
            let _ = p.0.wait();
        }
    }

    pub fn view(&self) -> serde_json::Value {
        serde_json::from_str(&get(self.addr, "/state")).unwrap_or(serde_json::Value::Null)
    }

    pub fn round_pgn(&self) -> String {
        get(self.addr, "/round.pgn")
    }

    /// The hub's event stream, read a view at a time.
    pub fn stream(&self) -> Views {
        let mut s = TcpStream::connect(self.addr).expect("connects");
        let _ = s.set_read_timeout(Some(Duration::from_secs(30)));
        write!(
            s,
            "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
        )
        .expect("asked");
        Views(BufReader::new(s))
    }
}

/// A stream of views.
pub struct Views(BufReader<TcpStream>);

impl Views {
    /// The next view, or none when the stream ended.
    pub fn next_view(&mut self) -> Option<serde_json::Value> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.0.read_line(&mut line).ok()? == 0 {
                return None;
            }
            if let Some(json) = line.trim_end().strip_prefix("data: ")
                && let Ok(v) = serde_json::from_str(json)
            {
                return Some(v);
            }
        }
    }
}

/// The broadcast token `token`, kept in `dir/broadcast-token` as pegboard
/// keeps a token: readable by its owner only.
pub fn token_file(dir: &Path, token: &str) -> PathBuf {
    use std::os::unix::fs::OpenOptionsExt as _;
    let path = dir.join("broadcast-token");
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&path)
        .expect("token file");
    writeln!(f, "{token}").expect("written");
    path
}

/// The body of `GET path`.
pub fn get(addr: SocketAddr, path: &str) -> String {
    let Ok(mut s) = TcpStream::connect(addr) else {
        return String::new();
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(20)));
    let _ = write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    );
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    text.split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_string())
}

/// A game's movetext: what stands after its tags, white space made one.
pub fn movetext(pgn: &str) -> String {
    pgn.lines()
        .filter(|l| !l.trim_start().starts_with('['))
        .flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The games of a round's PGN, in order.
pub fn games_of(round: &str) -> Vec<String> {
    round
        .split("[Event ")
        .skip(1)
        .map(|g| format!("[Event {g}"))
        .collect()
}
