//! Online games through `pegboard play` against the test lichess: the
//! blind player's board is a simulated serial scanner (a socat pty) with
//! his keys on it; simulated hands make his moves (a real game's) and
//! repeat the opponent's, which come from the server's script. Checked:
//! every move sent once and announced, every opponent's move replicated,
//! the server's game and the PGN (read by python-chess) the real game,
//! pegboard's clocks the server's, every request as lichess's OpenAPI
//! description has it, the token nowhere but in its file; a seek, a
//! challenge sent, one accepted, the AI; draws, takebacks, resigning,
//! aborting, the opponent gone and the win claimed, chat; the stream cut
//! with a move made meanwhile, 500s and garbage, and pegboard killed and
//! started again into the same game.

mod common;

#[path = "support/lichess.rs"]
mod lichess;
#[path = "support/scanner.rs"]
mod scanner;

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossbeam_channel::Receiver;
use pegboard::record::pgn::read_games;
use pegboard::sim::{Hands, Style};
use pegboard::trace::Reading;
use scanner::{Cable, Device};
use serde_json::Value;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

const TOKEN: &str = "lip_PlayToken0123456789abc";

/// The keys on the scanner, by bit.
const DRAW: u16 = 0;
const TAKEBACK: u16 = 1;
const CLAIM: u16 = 2;
const RESIGN: u16 = 3;
const DECLINE: u16 = 4;
const NEW_GAME: u16 = 5;
const DRAW_CLAIM: u16 = 6;
const MENU: u16 = 7;
/// The keys that are the menu's too: `next`, `select`, `back`.
const NEXT: u16 = DRAW;
const SELECT: u16 = DECLINE;

fn game_moves(pgn: &str, sans: &str) -> Vec<Move> {
    let games = if pgn.is_empty() {
        read_games(format!("[Event \"?\"]\n\n{sans} *\n").as_bytes())
    } else {
        read_games(&std::fs::read(pgn).expect("the game"))
    }
    .expect("read");
    pegboard::sim::moves_of(&games[0].record).expect("moves").2
}

/// The Opera Game (Morphy against the Duke and the Count, 1858).
fn opera() -> Vec<Move> {
    game_moves(
        &format!("{}/src/runtime/demo_game.pgn", env!("CARGO_MANIFEST_DIR")),
        "",
    )
}

fn uci(m: &Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// The scanner's end of the cable: streams the board's occupancy and the
/// keys as a scanner does (a frame every 20 ms) until dropped.
struct Scanner {
    occ: Arc<AtomicU64>,
    keys: Arc<AtomicU16>,
    stop: Arc<AtomicBool>,
    /// Scans sent so far.
    sent: Arc<AtomicU64>,
    _cable: Cable,
}

impl Scanner {
    fn start(dir: &Path) -> Scanner {
        let cable = Cable::plug(dir);
        let occ = Arc::new(AtomicU64::new(Chess::default().board().occupied().0));
        let keys = Arc::new(AtomicU16::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let sent = Arc::new(AtomicU64::new(0));
        let (o, k, s, d) = (occ.clone(), keys.clone(), stop.clone(), dir.to_path_buf());
        let n = sent.clone();
        std::thread::spawn(move || {
            let mut device = Device::open(&d);
            let mut seq: u16 = 0;
            while !s.load(Ordering::Relaxed) {
                device.answer_any_hello();
                device.try_send(&pegboard::sensors::serial::protocol::Message::Scan {
                    seq,
                    occ: o.load(Ordering::Relaxed),
                    buttons: k.load(Ordering::Relaxed),
                });
                seq = seq.wrapping_add(1);
                n.fetch_add(1, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        Scanner {
            occ,
            keys,
            stop,
            sent,
            _cable: cable,
        }
    }

    /// Plays the hands' scans from `from` on in real time; returns where
    /// it stopped.
    fn play(&self, hands: &Hands, from: usize) -> usize {
        let entries = hands.entries();
        let t0 = entries.get(from).map_or(0, |e| e.t);
        let began = Instant::now();
        for e in &entries[from..] {
            let due = Duration::from_millis(e.t - t0);
            if let Some(wait) = due.checked_sub(began.elapsed()) {
                std::thread::sleep(wait);
            }
            if let Reading::Scan { occ, .. } = &e.reading {
                self.occ.store(occ.0, Ordering::Relaxed);
            }
        }
        entries.len()
    }

    /// A key pressed briefly.
    fn press(&self, bit: u16) {
        self.keys.fetch_or(1 << bit, Ordering::Relaxed);
        self.hold(Duration::from_millis(150));
        self.keys.fetch_and(!(1 << bit), Ordering::Relaxed);
        self.hold(Duration::from_millis(100));
    }

    /// The keys left as they are for `at_least`, and for at least three
    /// scans sent (a busy machine may leave the scanner's thread asleep):
    /// a press and its release each reach pegboard whatever the load.
    fn hold(&self, at_least: Duration) {
        let from = self.sent.load(Ordering::Relaxed);
        let began = Instant::now();
        while began.elapsed() < at_least || self.sent.load(Ordering::Relaxed) < from + 3 {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Scanner {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// How the hands at the table move: quickly, read at the scanner's
/// pace.
fn table_style() -> Style {
    Style {
        think: (100, 300),
        hand: (120, 300),
        scan_period: 20,
        ..Style::default()
    }
}

/// A table with the pegged board, `pegboard play` on it, and the test
/// lichess: the blind player's hands, his keys, what play printed.
struct Table {
    dir: PathBuf,
    server: lichess::Lichess,
    scanner: Scanner,
    config: PathBuf,
    child: Option<common::Reaped>,
    events: Option<Receiver<Value>>,
    printed: Arc<Mutex<String>>,
    seen: Vec<Value>,
    hands: Hands,
    played: usize,
    pos: Chess,
    /// The castling rules the hands and the script write moves in.
    mode: CastlingMode,
}

impl Table {
    /// The server with the opponent's `script`, the board, the token kept,
    /// and `play` started with `lichess` as its `[lichess]` table.
    fn open(name: &str, lichess: &str, script: Vec<(String, u64)>) -> Table {
        Table::open_with(name, lichess, script, |_| {})
    }

    /// The same, the server made ready by `before` first.
    fn open_with(
        name: &str,
        lichess: &str,
        script: Vec<(String, u64)>,
        before: impl FnOnce(&lichess::Lichess),
    ) -> Table {
        let mut table = Table::prepared(name, lichess, script, before);
        table.start();
        table
    }

    /// The same, `play` not yet started.
    fn prepared(
        name: &str,
        lichess: &str,
        script: Vec<(String, u64)>,
        before: impl FnOnce(&lichess::Lichess),
    ) -> Table {
        let dir = common::empty_dir(name);
        let server = lichess::Lichess::start(TOKEN, lichess::LILA_KEEP_ALIVE);
        before(&server);
        server.state().script = script
            .into_iter()
            .map(|(s, ms)| (s, Duration::from_millis(ms)))
            .collect();
        let scanner = Scanner::start(&dir);
        let config = dir.join("play.toml");
        let keys: String = [
            (DRAW, "draw_offer"),
            (TAKEBACK, "takeback"),
            (CLAIM, "flag_claim"),
            (RESIGN, "resign"),
            (DECLINE, "draw_decline"),
            (NEW_GAME, "new_game"),
            (DRAW_CLAIM, "draw_claim"),
            (MENU, "menu"),
        ]
        .iter()
        .map(|(bit, action)| {
            // As on the example keypads, three keys are the menu's too.
            let role = match *bit {
                NEXT => "menu = \"next\"\n",
                SELECT => "menu = \"select\"\n",
                TAKEBACK => "menu = \"back\"\n",
                _ => "",
            };
            format!("[[buttons.key]]\nbit = {bit}\npress = \"{action}\"\n{role}")
        })
        .collect();
        // The simulated scanner's thread shares a machine that runs many
        // tests at once: asleep past the usual 500 ms, it is no unplugged
        // board here (tests/serial_scanner.rs tries a stale scanner).
        std::fs::write(
            &config,
            format!(
                "[game]\nwhite_moves_on = \"blind\"\nblack_moves_on = \"lichess\"\n\
                 [lichess]\nserver = \"{}\"\n{lichess}\n[journal]\ndir = \"{}\"\n\
                 [sensors]\nsource = \"serial\"\n[sensors.serial]\nport = \"{}\"\nstale_ms = 5000\n\
                 [mirror]\nlisten = \"127.0.0.1:0\"\n[buttons]\nplayer = \"white\"\n{keys}",
                server.url(),
                dir.join("games").display(),
                dir.join("host").display()
            ),
        )
        .expect("config");
        keep_token(&config);
        Table {
            hands: Hands::new(3, table_style(), Chess::default().board().occupied()),
            dir,
            server,
            scanner,
            config,
            child: None,
            events: None,
            printed: Arc::new(Mutex::new(String::new())),
            seen: Vec::new(),
            played: 0,
            pos: Chess::default(),
            mode: CastlingMode::Standard,
        }
    }

    /// `play` started (again).
    fn start(&mut self) {
        let mut child = common::pegboard_command()
            .args([
                "play",
                "--silent",
                "--events",
                "--seconds",
                "120",
                "--config",
            ])
            .arg(&self.config)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("play starts");
        let out = child.stdout.take().expect("stdout");
        // The log is kept with the output: the token must be in neither.
        let err = child.stderr.take().expect("stderr");
        let log = self.printed.clone();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(err).lines().map_while(Result::ok) {
                if let Ok(mut p) = log.lock() {
                    p.push_str(&line);
                    p.push('\n');
                }
            }
        });
        let (tx, rx) = crossbeam_channel::unbounded();
        let all = self.printed.clone();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
                if let Ok(mut p) = all.lock() {
                    p.push_str(&line);
                    p.push('\n');
                }
                if let Ok(v) = serde_json::from_str::<Value>(&line) {
                    let _ = tx.send(v);
                }
            }
        });
        self.child = Some(common::Reaped(child));
        self.events = Some(rx);
    }

    fn printed(&self) -> String {
        self.printed.lock().map(|p| p.clone()).unwrap_or_default()
    }

    /// Waits for the event `name` for which `ok` holds.
    /// The resign key pressed as the player resigns: once, the question
    /// whether he means it awaited, and once more.
    fn resign(&mut self) {
        self.scanner.press(RESIGN);
        self.wait_for("say", |v| {
            v["text"]
                .as_str()
                .is_some_and(|s| s.contains("aufgeben?") || s.contains("Resign"))
        });
        self.scanner.press(RESIGN);
    }

    /// The new-game key pressed twice in a game under way: once, and
    /// again when pegboard has asked whether the player means it (two
    /// presses at once, on a machine so busy that the scan loop slept
    /// through the release between them, were one long press).
    fn give_up_for_a_new_game(&mut self) {
        self.scanner.press(NEW_GAME);
        self.wait_for("say", |v| {
            v["text"]
                .as_str()
                .is_some_and(|t| t.contains("Partie abbrechen"))
        });
        self.scanner.press(NEW_GAME);
    }

    /// The next event `name` that is `ok`, waited for as long as a busy
    /// machine (eight games at once beside a build) may take: a slow
    /// machine makes the test longer, not its verdict different.
    fn wait_for(&mut self, name: &str, ok: impl Fn(&Value) -> bool) -> Value {
        self.wait_longer_for(name, Duration::from_secs(120), ok)
    }

    /// The same, waiting at most `within`.
    fn wait_longer_for(
        &mut self,
        name: &str,
        within: Duration,
        ok: impl Fn(&Value) -> bool,
    ) -> Value {
        let until = Instant::now() + within;
        let events = self.events.as_ref().expect("play runs");
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match events.recv_timeout(left) {
                Ok(v) => {
                    self.seen.push(v.clone());
                    if v["event"] == name && ok(&v) {
                        return v;
                    }
                }
                Err(_) => panic!("no {name} event came:\n{}", self.printed()),
            }
        }
    }

    /// The blind player's colour, from the game lichess started.
    fn mine(&self) -> Color {
        match self.seen.iter().find(|v| v["event"] == "online_game") {
            Some(v) if v["game"]["color"] == "black" => Color::Black,
            _ => Color::White,
        }
    }

    /// The game's next move `m`: the blind player's made by his hands and
    /// seen executed; the opponent's announced, then repeated by the hands
    /// and seen replicated.
    fn next(&mut self, m: Move) {
        let ply = u64::from(self.pos.fullmoves().get() - 1) * 2
            + u64::from(self.pos.turn() == Color::Black)
            + 1;
        let is_ply = move |v: &Value| v["ply"] == ply;
        if self.pos.turn() == self.mine() {
            self.hands.play(&self.pos, m, self.mode);
            self.played = self.scanner.play(&self.hands, self.played);
            self.wait_for("move", is_ply);
        } else {
            self.wait_for("move", is_ply);
            self.hands.replicate(&self.pos, m, self.mode);
            self.played = self.scanner.play(&self.hands, self.played);
            self.wait_for("replicated", |_| true);
        }
        self.pos.play_unchecked(m);
    }

    /// The board set to `pos` at once (the pieces put back after a
    /// takeback), and seen to match.
    fn set_board(&mut self, pos: Chess) {
        let occ = pos.board().occupied();
        self.hands = Hands::new(4, table_style(), occ);
        self.played = 0;
        self.scanner.occ.store(occ.0, Ordering::Relaxed);
        self.pos = pos;
    }

    /// `play` stopped as systemd stops it; what it said is kept.
    fn stop(&mut self) -> String {
        if let Some(mut child) = self.child.take() {
            let _ = std::process::Command::new("kill")
                .args(["-TERM", &child.0.id().to_string()])
                .status();
            let _ = child.0.wait();
        }
        if let Some(events) = self.events.take() {
            while let Ok(v) = events.recv_timeout(Duration::from_millis(300)) {
                self.seen.push(v);
            }
        }
        self.printed()
    }

    /// The mirror's and the console's pages as `play` serves them now.
    fn pages(&self) -> String {
        let printed = self.printed();
        let addr = printed
            .lines()
            .find_map(|l| l.strip_prefix("pegboard: the mirror is at http://"))
            .and_then(|a| a.strip_suffix('/'))
            .expect("the mirror's address")
            .to_string();
        let mut all = String::new();
        for path in ["/", "/state", "/pgn", "/console"] {
            let mut conn = std::net::TcpStream::connect(&addr).expect("the mirror answers");
            let _ = conn.set_read_timeout(Some(Duration::from_secs(5)));
            let _ = std::io::Write::write_all(
                &mut conn,
                format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")
                    .as_bytes(),
            );
            let mut page = String::new();
            let _ = std::io::Read::read_to_string(&mut conn, &mut page);
            assert!(page.starts_with("HTTP/1.1 200"), "{path}: {page}");
            all.push_str(&page);
        }
        all
    }

    /// The events named `name` seen so far.
    fn all(&self, name: &str) -> Vec<&Value> {
        self.seen.iter().filter(|v| v["event"] == name).collect()
    }

    /// The newest game's PGN.
    fn pgn(&self) -> (PathBuf, String) {
        let mut pgns: Vec<PathBuf> = std::fs::read_dir(self.dir.join("games"))
            .expect("the games")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
            .collect();
        pgns.sort();
        let path = pgns.pop().expect("a PGN");
        let text = std::fs::read_to_string(&path).expect("read");
        (path, text)
    }

    /// How many requests came whose `METHOD path` ends with `end`, those
    /// the server refused on request too (which `asked` leaves out).
    fn requests_ending(&self, end: &str) -> usize {
        let st = self.server.state();
        st.requests.iter().filter(|r| r.ends_with(end)).count()
    }

    /// The requests the server was asked whose path holds `part`.
    fn asked(&self, part: &str) -> Vec<(String, String)> {
        self.server
            .state()
            .asked
            .iter()
            .filter(|(_, path, _)| path.contains(part))
            .map(|(_, path, form)| (path.clone(), form.clone()))
            .collect()
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The token kept as the README says: `pegboard lichess-token`.
fn keep_token(config: &Path) {
    let mut keep = common::pegboard_command()
        .args(["lichess-token", "--config"])
        .arg(config)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("lichess-token runs");
    std::io::Write::write_all(
        keep.stdin.as_mut().expect("stdin"),
        format!("{TOKEN}\n").as_bytes(),
    )
    .expect("the token typed");
    assert!(keep.wait().expect("it ends").success());
}

/// The opponent's moves of `moves` (the other colour's than `mine`), each
/// `ms` after the move before.
fn script_of(moves: &[Move], mine: Color, ms: u64) -> Vec<(String, u64)> {
    let first = usize::from(mine == Color::White);
    moves
        .iter()
        .skip(first)
        .step_by(2)
        .map(|m| (uci(m), ms))
        .collect()
}

/// python-chess's reading of a PGN: its moves in UCI and its result.
fn python_chess(pgn: &Path) -> String {
    let read = std::process::Command::new("python3")
        .args([
            "-c",
            "import chess.pgn,sys; g=chess.pgn.read_game(open(sys.argv[1])); \
             print(' '.join(m.uci() for m in g.mainline_moves())); print(g.headers['Result'])",
        ])
        .arg(pgn)
        .output()
        .expect("python3 runs");
    String::from_utf8_lossy(&read.stdout).trim().to_string()
}

#[test]
fn play_on_lichess_a_whole_game_found_by_a_seek_every_move_sent_once_and_replicated() {
    let moves = opera();
    let mut table = Table::open("lichess-seek", "", script_of(&moves, Color::White, 150));
    let started = table.wait_for("online_game", |_| true);
    assert_eq!(started["game"]["color"], "white");
    assert_eq!(started["game"]["black"]["name"], "Bert");
    assert_eq!(started["game"]["black"]["rating"], 1702);
    assert!(started["say"].as_str().is_some_and(|s| s.contains("Bert")));
    for &m in &moves {
        table.next(m);
    }
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(over["result"], "1-0");
    // The server's last state reaches pegboard, then it stops.
    std::thread::sleep(Duration::from_millis(800));
    let pages = table.pages();
    assert!(pages.contains("Bert") && !pages.contains(TOKEN), "{pages}");
    let printed = table.stop();

    // The server's game is the real game; each of the blind player's moves
    // was sent once.
    let ucis: Vec<String> = moves.iter().map(uci).collect();
    let st = table.server.state();
    let game = st.games.values().next().expect("a game on the server");
    assert_eq!(game.moves, ucis, "{printed}");
    assert_eq!(game.status, "mate");
    let posted: Vec<&String> = st
        .requests
        .iter()
        .filter(|r| r.contains("/move/"))
        .collect();
    assert_eq!(
        posted.len(),
        ucis.len().div_ceil(2),
        "each sent once: {posted:?}"
    );
    // Each clock reading pegboard set is one the server sent, to the
    // millisecond.
    let states: Vec<(u64, u64)> = st
        .sent
        .iter()
        .filter_map(|(_, json)| serde_json::from_str::<Value>(json).ok())
        .map(|v| {
            if v["type"] == "gameFull" {
                v["state"].clone()
            } else {
                v
            }
        })
        .filter(|v| v["type"] == "gameState")
        .filter_map(|v| Some((v["wtime"].as_u64()?, v["btime"].as_u64()?)))
        .collect();
    drop(st);
    // Every move announced; every one of the opponent's replicated.
    assert_eq!(table.all("announced").len(), ucis.len(), "{printed}");
    assert_eq!(table.all("replicated").len(), ucis.len() / 2, "{printed}");
    let sets: Vec<&Value> = table
        .all("clock")
        .into_iter()
        .filter(|v| v["cause"] == "set")
        .collect();
    assert!(sets.len() >= ucis.len() / 2, "{printed}");
    for set in &sets {
        let (w, b) = (
            set["white"]["remaining_ms"].as_u64().unwrap_or(0),
            set["black"]["remaining_ms"].as_u64().unwrap_or(0),
        );
        assert!(states.contains(&(w, b)), "{w}/{b} not among {states:?}");
    }
    // Every request as lichess describes it.
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());

    // The PGN, as python-chess reads it: the game, its site and players.
    let (pgn, text) = table.pgn();
    assert!(text.contains("[Site \"http://127.0.0.1"), "{text}");
    assert!(
        text.contains("[Black \"Bert\"]") && text.contains("[BlackElo \"1702\"]"),
        "{text}"
    );
    assert!(text.contains("[TimeControl \"900+10\"]"), "{text}");
    assert_eq!(
        python_chess(&pgn),
        format!("{}\n1-0", ucis.join(" ")),
        "{text}"
    );

    // The token is in its file only, 0600: in no output, log, journal or
    // PGN, and on no page.
    let games = table.dir.join("games");
    let token_file = games.join(pegboard::lichess::token::TOKEN_FILE);
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(&token_file).expect("kept").permissions(),
    );
    assert_eq!(mode & 0o777, 0o600);
    assert!(!printed.contains(TOKEN));
    for entry in std::fs::read_dir(&games)
        .expect("games")
        .filter_map(Result::ok)
    {
        if entry.path() != token_file {
            let text = std::fs::read(entry.path()).unwrap_or_default();
            assert!(
                !String::from_utf8_lossy(&text).contains(TOKEN),
                "{}",
                entry.path().display()
            );
        }
    }
}

#[test]
fn play_on_lichess_against_its_ai_as_black_to_a_mate() {
    let moves = game_moves("", "1. f3 e5 2. g4 Qh4#");
    let mut table = Table::open(
        "lichess-ai",
        "find = \"ai\"\nlevel = 3\ncolor = \"black\"\ntime = 5\nincrement = 3",
        script_of(&moves, Color::Black, 150),
    );
    let started = table.wait_for("online_game", |_| true);
    assert_eq!(started["game"]["color"], "black");
    // lila's gameFull names its AI by `aiLevel` alone.
    assert_eq!(started["game"]["white"]["name"], "Stockfish level 3");
    // lichess's AI has no rating: none is said.
    let words = pegboard::announce::Phrasebook::default().words.online;
    let unrated = words
        .game_unrated
        .split('{')
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(
        started["say"]
            .as_str()
            .is_some_and(|s| s.starts_with(&unrated)),
        "{started}"
    );
    for &m in &moves {
        table.next(m);
    }
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(
        (&over["result"], &over["reason"]),
        (&"0-1".into(), &"checkmate".into())
    );
    std::thread::sleep(Duration::from_millis(500));
    table.stop();
    let asked = table.asked("/api/challenge/ai");
    assert_eq!(asked.len(), 1);
    for field in [
        "level=3",
        "color=black",
        "clock.limit=300",
        "clock.increment=3",
    ] {
        assert!(asked[0].1.contains(field), "{field}: {asked:?}");
    }
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
    let (pgn, text) = table.pgn();
    assert!(
        text.contains("[White \"Stockfish level 3\"]") && text.contains("[BlackElo \"1650\"]"),
        "{text}"
    );
    assert!(!text.contains("WhiteElo"), "{text}");
    assert_eq!(python_chess(&pgn), "f2f3 e7e5 g2g4 d8h4\n0-1");
}

#[test]
fn play_on_lichess_a_challenge_sent_and_the_blind_players_draw_offer_accepted() {
    let moves = game_moves("", "1. e4 Nc6 2. Nf3 Nf6");
    let mut script = script_of(&moves, Color::White, 150);
    script.push(("@draw".into(), 3000));
    script.push(("@wait".into(), 20_000));
    // lila starts the game before it ends the challenge's stream
    // (`{"done":"accepted"}`): here that line comes late. The challenge's
    // cancel would abort its game, so none is sent.
    let mut table = Table::open_with(
        "lichess-challenge",
        "find = \"challenge\"\nopponent = \"Bert\"",
        script,
        |server| server.state().challenge_done_after = Duration::from_millis(1500),
    );
    table.wait_for("online_game", |_| true);
    for &m in &moves {
        table.next(m);
    }
    table.scanner.press(DRAW);
    let offered = table.wait_for("draw_offer", |_| true);
    assert_eq!(offered["color"], "white");
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(
        (&over["result"], &over["reason"]),
        (&"1/2-1/2".into(), &"agreement".into())
    );
    std::thread::sleep(Duration::from_millis(300));
    table.stop();
    assert!(table.asked("/cancel").is_empty());
    let asked = table.asked("/api/challenge/");
    assert_eq!(asked[0].0, "/api/challenge/{username}");
    assert!(asked[0].1.contains("clock.limit=900"), "{asked:?}");
    assert!(
        table
            .server
            .state()
            .requests
            .iter()
            .any(|r| r == "POST /api/challenge/Bert")
    );
    assert_eq!(
        table
            .server
            .state()
            .games
            .values()
            .next()
            .map(|g| g.status.clone()),
        Some("draw".into())
    );
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_the_opponents_draw_offer_declined_is_declined_on_the_server() {
    // 9.1b: the blind player says no to the opponent's offer (his
    // draw_decline key): the offer lapses here and on the server, and the
    // game goes on.
    let moves = game_moves("", "1. e4 Nc6 2. Nf3 Nf6");
    let mut script = script_of(&moves, Color::White, 150);
    script.push(("@draw".into(), 1500));
    script.push(("@wait".into(), 20_000));
    let mut table = Table::open(
        "lichess-decline",
        "find = \"challenge\"\nopponent = \"Bert\"",
        script,
    );
    table.wait_for("online_game", |_| true);
    for &m in &moves {
        table.next(m);
    }
    let offered = table.wait_for("draw_offer", |_| true);
    assert_eq!(offered["color"], "black");
    table.scanner.press(DECLINE);
    let declined = table.wait_for("draw_declined", |_| true);
    assert_eq!(declined["color"], "white");
    let until = Instant::now() + Duration::from_secs(10);
    while !table
        .server
        .state()
        .requests
        .iter()
        .any(|r| r.starts_with("POST /api/board/game/") && r.ends_with("/draw/no"))
    {
        assert!(
            Instant::now() < until,
            "the decline never reached the server"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    table.stop();
    let game = table.server.state().games.values().next().cloned();
    assert_eq!(
        game.as_ref().map(|g| g.status.clone()),
        Some("started".into())
    );
    assert_eq!(game.and_then(|g| g.draw), None);
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_a_challenge_accepted_and_the_opponents_draw_offer_taken() {
    let moves = game_moves("", "1. e4 e5");
    let mut script = script_of(&moves, Color::Black, 150);
    script.push(("@draw".into(), 1500));
    script.push(("@wait".into(), 20_000));
    let mut table = Table::open(
        "lichess-accept",
        "find = \"accept\"\nopponent = \"bert\"",
        script,
    );
    // Once play listens on the event stream: a challenge from another
    // player (not taken), then Bert's.
    let until = Instant::now() + Duration::from_secs(10);
    while !table
        .server
        .state()
        .requests
        .iter()
        .any(|r| r.contains("/api/stream/event"))
    {
        assert!(Instant::now() < until, "play never opened the event stream");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    table.server.challenge_from("Carl", 15, 10, "white");
    std::thread::sleep(Duration::from_millis(300));
    let bert = table.server.challenge_from("Bert", 15, 10, "white");
    let started = table.wait_for("online_game", |_| true);
    assert_eq!(started["game"]["color"], "black");
    for &m in &moves {
        table.next(m);
    }
    let offered = table.wait_for("draw_offer", |_| true);
    assert_eq!(offered["color"], "white");
    table.scanner.press(DRAW);
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(
        (&over["result"], &over["reason"]),
        (&"1/2-1/2".into(), &"agreement".into())
    );
    std::thread::sleep(Duration::from_millis(300));
    table.stop();
    let accepted = table.asked("/accept");
    assert_eq!(accepted.len(), 1, "Bert's only: {accepted:?}");
    assert!(
        table
            .server
            .state()
            .requests
            .iter()
            .any(|r| r == &format!("POST /api/challenge/{bert}/accept"))
    );
    assert_eq!(
        table
            .server
            .state()
            .games
            .values()
            .next()
            .map(|g| g.status.clone()),
        Some("draw".into())
    );
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_takebacks_both_ways_put_the_board_back() {
    let moves = game_moves("", "1. e4 e5 2. Nf3");
    // The opponent asks to take back his e5; then, after his d5, agrees
    // to the blind player's request.
    let script = vec![
        ("e7e5".to_string(), 150),
        ("@takeback".to_string(), 1500),
        // (An act's delay counts from the last change of the game.)
        ("@wait".to_string(), 1500),
        ("d7d5".to_string(), 300),
        ("@takeback".to_string(), 3000),
        ("@wait".to_string(), 20_000),
    ];
    let mut table = Table::open("lichess-takeback", "", script);
    table.wait_for("online_game", |_| true);
    for &m in &moves {
        table.next(m);
    }
    let asked = table.wait_for("online_offer", |_| true);
    assert_eq!(
        (&asked["offer"], &asked["color"]),
        (&"takeback".into(), &"black".into())
    );
    table.scanner.press(TAKEBACK);
    table.wait_for("online_request", |v| v["request"] == "takeback");
    // Taken back on the server to 1. e4: the game goes back, the board too.
    let back = table.wait_for("retraced", |_| true);
    assert_eq!(back["ply"], 1, "{}", table.printed());
    let mut after_e4 = Chess::default();
    after_e4.play_unchecked(moves[0]);
    table.set_board(after_e4);
    let d5 = game_moves("", "1. e4 d5")[1];
    table.next(d5);
    table.scanner.press(TAKEBACK);
    table.wait_for("online_request", |v| v["request"] == "takeback");
    let back = table.wait_for("retraced", |_| true);
    assert_eq!(back["ply"], 0);
    table.set_board(Chess::default());
    // The game goes on from the start.
    let d4 = game_moves("", "1. d4")[0];
    table.next(d4);
    std::thread::sleep(Duration::from_millis(300));
    table.stop();
    let st = table.server.state();
    let game = st.games.values().next().expect("the game");
    assert_eq!(game.moves, vec!["d2d4".to_string()]);
    drop(st);
    let takebacks = table.asked("/takeback/");
    assert_eq!(takebacks.len(), 2, "{takebacks:?}");
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
    let (pgn, _) = table.pgn();
    assert!(python_chess(&pgn).starts_with("d2d4\n"));
}

#[test]
fn play_on_lichess_chat_read_out_the_opponent_gone_and_the_win_claimed() {
    // (lila grants the claim while the opponent who left is to move.)
    let moves = game_moves("", "1. e4 e5 2. Nf3");
    let script = vec![
        ("e7e5".to_string(), 150),
        // (Each after the game's last change: here the blind player's
        // 2. Nf3.)
        ("@chat:Viel Glück!".to_string(), 1500),
        ("@gone".to_string(), 2500),
        ("@wait".to_string(), 20_000),
    ];
    let mut table = Table::open("lichess-gone", "chat = true", script);
    table.wait_for("online_game", |_| true);
    for &m in &moves {
        table.next(m);
    }
    let chat = table.wait_for("online_chat", |_| true);
    assert_eq!(
        (&chat["name"], &chat["text"]),
        (&"Bert".into(), &"Viel Glück!".into())
    );
    assert!(
        chat["say"]
            .as_str()
            .is_some_and(|s| s.contains("Bert") && s.contains("Viel Glück!"))
    );
    // A claim while he is there is answered, not sent.
    let words = pegboard::announce::Phrasebook::default().words.online;
    table.scanner.press(CLAIM);
    table.wait_for("say", |v| v["text"] == words.claim_not_yet.as_str());
    let gone = table.wait_for("online_opponent", |_| true);
    assert_eq!((&gone["gone"], &gone["seconds"]), (&true.into(), &0.into()));
    // lila tells it again every 5 s while he is gone: the player hears it
    // once.
    std::thread::sleep(Duration::from_secs(11));
    table.scanner.press(CLAIM);
    table.wait_for("online_request", |v| v["request"] == "claim_victory");
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(
        (&over["result"], &over["reason"]),
        (&"1-0".into(), &"abandoned".into())
    );
    std::thread::sleep(Duration::from_millis(300));
    let printed = table.stop();
    assert_eq!(
        printed.matches(r#""event":"online_opponent""#).count(),
        1,
        "{printed}"
    );
    assert_eq!(table.asked("/claim-victory").len(), 1);
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
    let (_, text) = table.pgn();
    assert!(
        text.contains("[Termination \"abandoned\"]") && text.contains("1-0"),
        "{text}"
    );
}

#[test]
fn play_on_lichess_resigning_before_the_first_move_aborts_and_the_next_game_is_found() {
    let mut table = Table::open(
        "lichess-abort",
        "find = \"ai\"\ncolor = \"white\"",
        Vec::new(),
    );
    let first = table.wait_for("online_game", |_| true);
    table.resign();
    table.wait_for("online_request", |v| v["request"] == "abort");
    table.wait_for("new_game", |_| true);
    let second = table.wait_for("online_game", |_| true);
    assert_ne!(first["game"]["id"], second["game"]["id"]);
    table.stop();
    assert!(
        table.all("game_over").is_empty(),
        "an aborted game has no result"
    );
    assert_eq!(table.asked("/abort").len(), 1);
    assert_eq!(table.asked("/resign").len(), 0);
    assert_eq!(table.asked("/api/challenge/ai").len(), 2);
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_a_resignation_too_late_to_abort_resigns_the_game() {
    // The player resigns after his first move while the opponent's reply,
    // already made on lichess, has not reached him: pegboard asks to
    // abort, lila refuses ("This game can no longer be aborted"), and the
    // game is resigned, as the player asked.
    let moves = opera();
    let mut table = Table::open(
        "lichess-late-abort",
        "",
        script_of(&moves[..2], Color::White, 150),
    );
    table.wait_for("online_game", |_| true);
    table.server.state().silent = true;
    table.next(moves[0]);
    let until = Instant::now() + Duration::from_secs(10);
    while table
        .server
        .state()
        .games
        .values()
        .all(|g| g.moves.len() < 2)
    {
        assert!(Instant::now() < until, "the opponent never replied");
        std::thread::sleep(Duration::from_millis(50));
    }
    table.resign();
    table.wait_for("online_request", |v| v["request"] == "abort");
    let deadline = Instant::now() + Duration::from_secs(10);
    while table.asked("/resign").is_empty() {
        assert!(
            Instant::now() < deadline,
            "never resigned: {}",
            table.printed()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    table.server.state().silent = false;
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(over["result"], "0-1");
    let printed = table.stop();
    assert_eq!(table.asked("/abort").len(), 1, "{printed}");
    assert_eq!(table.asked("/resign").len(), 1, "{printed}");
}

#[test]
fn play_on_lichess_a_move_lichess_answers_with_500s_is_posted_again_ever_later() {
    // A server down a while (503s) is not asked every second: each wait
    // after a failure doubles (1, 2, 4 s), and the move reaches it.
    let moves = opera();
    let mut table = Table::open(
        "lichess-backoff",
        "",
        script_of(&moves[..2], Color::White, 150),
    );
    let game = table.wait_for("online_game", |_| true);
    let id = game["game"]["id"].as_str().unwrap_or_default().to_string();
    let path = format!("POST /api/board/game/{id}/move/");
    table
        .server
        .state()
        .path_faults
        .extend((0..3).map(|_| (path.clone(), 503)));
    table.next(moves[0]);
    table.next(moves[1]);
    let printed = table.stop();
    let tries: Vec<f64> = table
        .server
        .state()
        .received_at
        .iter()
        .filter(|(_, r)| r.starts_with(&path))
        .map(|(at, _)| *at)
        .collect();
    assert_eq!(tries.len(), 4, "three refused, then taken: {printed}");
    let gaps: Vec<f64> = tries.windows(2).map(|w| w[1] - w[0]).collect();
    for (gap, least) in gaps.iter().zip([0.9, 1.9, 3.9]) {
        assert!(*gap >= least, "waits {gaps:?}: {printed}");
    }
}

#[test]
fn play_on_lichess_the_streams_cut_500s_and_garbage_lose_no_move() {
    let moves = opera();
    let mut table = Table::open("lichess-faults", "", script_of(&moves, Color::White, 150));
    table.wait_for("online_game", |_| true);
    for &m in &moves[..4] {
        table.next(m);
    }
    // The network fails: both streams cut, their next four openings
    // answered 500, a garbage line waiting in the game's stream. The
    // blind player moves meanwhile.
    {
        let mut st = table.server.state();
        st.stream_faults.extend([500, 500, 500, 500]);
        st.garbage.push_back("{not json".into());
    }
    table.server.cut();
    for &m in &moves[4..10] {
        table.next(m);
    }
    // A move the server does not take (a 500) is posted again.
    table.server.state().faults.push_back(500);
    for &m in &moves[10..] {
        table.next(m);
    }
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(over["result"], "1-0");
    std::thread::sleep(Duration::from_millis(500));
    let printed = table.stop();
    let ucis: Vec<String> = moves.iter().map(uci).collect();
    let st = table.server.state();
    let game = st.games.values().next().expect("a game on the server");
    assert_eq!(game.moves, ucis, "{printed}");
    let posted = st.requests.iter().filter(|r| r.contains("/move/")).count();
    assert_eq!(
        posted,
        ucis.len().div_ceil(2) + 1,
        "each sent once, the refused one twice"
    );
    drop(st);
    // Told once lost and once back, in that order.
    let links: Vec<&Value> = table.all("online");
    let said: Vec<&str> = links
        .iter()
        .filter_map(|v| v["connection"].as_str())
        .collect();
    assert_eq!(said, ["lost", "back"], "{printed}");
    assert!(
        printed.contains("passed over"),
        "the garbage line: {printed}"
    );
    assert_eq!(table.all("announced").len(), ucis.len());
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_a_correspondence_game_under_way_is_passed_over_by_a_seek() {
    // lichess names every game under way when the event stream opens (a
    // correspondence game of days ago too): a seek for a rapid game takes
    // up only the rapid game it finds.
    let moves = game_moves("", "1. e4 e5 2. Nf3 Nc6");
    let mut old = String::new();
    let mut table = Table::open_with(
        "lichess-corr-passed",
        "",
        script_of(&moves, Color::White, 150),
        |server| old = server.correspondence_under_way(3),
    );
    let game = table.wait_for("online_game", |_| true);
    assert_ne!(game["game"]["id"], old.as_str());
    for &m in &moves {
        table.next(m);
    }
    std::thread::sleep(Duration::from_millis(300));
    let printed = table.stop();
    assert!(
        printed.contains(&format!(
            "game {old} passed over: it was made as a friend game"
        )),
        "{printed}"
    );
    // The player hears of it, once.
    let told: Vec<&Value> = table
        .all("online_notice")
        .into_iter()
        .filter(|v| v["notice"] == "other_game")
        .collect();
    assert_eq!(told.len(), 1, "{printed}");
    assert_eq!(told[0]["notice"], "other_game");
    let words = pegboard::announce::Phrasebook::default().words.online;
    assert_eq!(told[0]["say"], words.other_game.replace("{name}", "Bert"));
    let st = table.server.state();
    assert!(st.requests.iter().any(|r| r == "POST /api/board/seek"));
    assert!(st.games[&old].moves.is_empty(), "nothing played in it");
    drop(st);
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_a_429_on_the_seek_waits_a_minute_before_seeking_again() {
    // lichess asks for a full minute after any 429 (its API description:
    // "waiting one minute before retrying will be sufficient").
    let moves = game_moves("", "1. e4 e5");
    let mut table = Table::open_with(
        "lichess-seek-429",
        "",
        script_of(&moves, Color::White, 150),
        |server| {
            server
                .state()
                .path_faults
                .push_back(("POST /api/board/seek".into(), 429));
        },
    );
    table.wait_longer_for("online_game", Duration::from_secs(180), |_| true);
    let printed = table.stop();
    let st = table.server.state();
    let seeks: Vec<f64> = st
        .received_at
        .iter()
        .filter(|(_, r)| r == "POST /api/board/seek")
        .map(|(at, _)| *at)
        .collect();
    assert_eq!(seeks.len(), 2, "refused once, then sought: {printed}");
    assert!(seeks[1] - seeks[0] >= 59.0, "{seeks:?}");
    assert!(printed.contains("asking again in 60 s"), "{printed}");
}

#[test]
fn play_on_lichess_a_game_stream_closed_cleanly_mid_game_is_no_end_of_the_game() {
    // lila closes a game's stream cleanly when a newer one opens for the
    // same game, and for other reasons: only a final state ends the game.
    let moves = opera();
    let mut table = Table::open("lichess-clean", "", script_of(&moves, Color::White, 150));
    table.wait_for("online_game", |_| true);
    for &m in &moves[..4] {
        table.next(m);
    }
    let opened = table.server.state().game_streams_opened;
    table.server.close_cleanly();
    for &m in &moves[4..] {
        table.next(m);
    }
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(over["result"], "1-0");
    std::thread::sleep(Duration::from_millis(300));
    let printed = table.stop();
    let ucis: Vec<String> = moves.iter().map(uci).collect();
    let st = table.server.state();
    assert!(st.game_streams_opened > opened, "opened again: {printed}");
    let game = st.games.values().next().expect("a game on the server");
    assert_eq!(game.moves, ucis, "{printed}");
    assert_eq!(game.status, "mate", "{printed}");
    drop(st);
    // Nothing was lost: the player heard no word of the connection.
    assert!(table.all("online").is_empty(), "{printed}");
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_a_token_revoked_mid_game_is_told_once_and_nothing_more_asked() {
    // lila answers a revoked token with 401 on every request and stream:
    // the player hears it once, and nothing is asked again.
    let moves = opera();
    let mut table = Table::open("lichess-revoked", "", script_of(&moves, Color::White, 150));
    table.wait_for("online_game", |_| true);
    for &m in &moves[..2] {
        table.next(m);
    }
    table.server.state().token = "lip_SomeOtherToken987654".into();
    table.server.cut();
    table.next(moves[2]);
    let told = table.wait_for("online_notice", |v| v["notice"] == "token_refused");
    let words = pegboard::announce::Phrasebook::default().words.online;
    assert_eq!(told["say"], words.token_refused.as_str());
    let asked = table.server.state().requests.len();
    // An offer made after it is not sent either.
    table.scanner.press(DRAW);
    table.wait_for("draw_offer", |_| true);
    std::thread::sleep(Duration::from_secs(4));
    let printed = table.stop();
    let told = table.all("online_notice");
    let refusals = told.iter().filter(|v| v["notice"] == "token_refused");
    assert_eq!(refusals.count(), 1, "{printed}");
    // At most the requests already under way when the token was refused.
    assert!(table.asked("/draw/").is_empty(), "{printed}");
    let after = table.server.state().requests.len();
    assert!(
        after <= asked + 2,
        "{} more asked: {printed}",
        after - asked
    );
}

#[test]
fn play_on_lichess_a_game_lichess_knows_no_more_is_told_and_followed_no_more() {
    // lila answers a game's stream with 404 "No such game" once it has
    // none (PlayApi): the player hears it, and the stream is not opened
    // again and again.
    let moves = opera();
    let mut table = Table::open("lichess-gone", "", script_of(&moves, Color::White, 150));
    table.wait_for("online_game", |_| true);
    for &m in &moves[..2] {
        table.next(m);
    }
    let opened = table.server.state().game_streams_opened;
    table
        .server
        .state()
        .path_faults
        .push_back(("GET /api/board/game/stream/".into(), 404));
    table.server.cut();
    let told = table.wait_for("online_notice", |v| v["notice"] == "game_gone");
    let words = pegboard::announce::Phrasebook::default().words.online;
    assert_eq!(told["say"], words.game_gone.as_str());
    std::thread::sleep(Duration::from_secs(3));
    let printed = table.stop();
    assert_eq!(
        table.server.state().game_streams_opened,
        opened,
        "opened again: {printed}"
    );
}

#[test]
fn play_on_lichess_a_move_refused_because_the_game_had_ended_leaves_the_end_standing() {
    // The opponent resigns as the player makes his move: lila refuses the
    // move ("Not your turn, or game already over"). The player is told
    // the game's end, never that his move was refused and the game goes
    // on, and the board is not sent back.
    let moves = opera();
    let mut script = script_of(&moves[..2], Color::White, 150);
    script.push(("@resign".into(), 1500));
    let mut table = Table::open("lichess-late-move", "", script);
    table.wait_for("online_game", |_| true);
    table.next(moves[0]);
    table.next(moves[1]);
    // The end does not reach pegboard before the move is made.
    table.server.state().silent = true;
    let until = Instant::now() + Duration::from_secs(10);
    while !table
        .server
        .state()
        .games
        .values()
        .any(|g| g.status == "resign")
    {
        assert!(Instant::now() < until, "the opponent never resigned");
        std::thread::sleep(Duration::from_millis(50));
    }
    table.next(moves[2]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while table.asked("/move/").len() < 2 {
        assert!(Instant::now() < deadline, "the move was never posted");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    table.server.state().silent = false;
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(over["result"], "1-0");
    std::thread::sleep(Duration::from_secs(1));
    let printed = table.stop();
    let told = table.all("online_notice");
    assert!(
        told.iter().all(|v| v["notice"] != "move_refused"),
        "{printed}"
    );
    assert!(table.all("retraced").is_empty(), "{printed}");
}

#[test]
fn play_on_lichess_killed_and_started_again_goes_on_with_the_same_game() {
    let moves = opera();
    // The opponent answers the ninth ply after a while.
    let mut script = script_of(&moves, Color::White, 150);
    script[4].1 = 3000;
    let mut table = Table::open("lichess-kill", "", script);
    table.wait_for("online_game", |_| true);
    for &m in &moves[..9] {
        table.next(m);
    }
    // The power goes: kill -9 once the blind player's move is sent. The
    // opponent answers meanwhile.
    std::thread::sleep(Duration::from_millis(300));
    if let Some(mut child) = table.child.take() {
        let _ = std::process::Command::new("kill")
            .args(["-KILL", &child.0.id().to_string()])
            .status();
        let _ = child.0.wait();
    }
    std::thread::sleep(Duration::from_millis(500));
    table.start();
    for &m in &moves[9..] {
        table.next(m);
    }
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(over["result"], "1-0");
    std::thread::sleep(Duration::from_millis(500));
    let printed = table.stop();
    let ucis: Vec<String> = moves.iter().map(uci).collect();
    let st = table.server.state();
    let game = st.games.values().next().expect("a game on the server");
    assert_eq!(game.moves, ucis, "{printed}");
    let posted = st.requests.iter().filter(|r| r.contains("/move/")).count();
    assert_eq!(posted, ucis.len().div_ceil(2), "each sent once: {printed}");
    drop(st);
    // (A DELETE of the seek may cross lichess's pairing of it: no seek.)
    let seeks = table
        .server
        .state()
        .asked
        .iter()
        .filter(|(method, path, _)| method == "POST" && path == "/api/board/seek")
        .count();
    assert_eq!(seeks, 1, "the same game, no new seek: {printed}");
    let (pgn, _) = table.pgn();
    assert_eq!(python_chess(&pgn), format!("{}\n1-0", ucis.join(" ")));
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_an_illegal_move_on_the_board_is_never_sent_and_a_resignation_is() {
    let moves = game_moves("", "1. e4 e5 2. Nf3 Nc6");
    let mut script = script_of(&moves, Color::White, 150);
    script.push(("@wait".into(), 20_000));
    let mut table = Table::open("lichess-illegal", "", script);
    table.wait_for("online_game", |_| true);
    table.next(moves[0]);
    table.next(moves[1]);
    // The knight from g1 to g3: no knight's move. Put back, then Nf3.
    let start = table.scanner.occ.load(Ordering::Relaxed);
    let g1 = 1u64 << shakmaty::Square::G1 as u32;
    let g3 = 1u64 << shakmaty::Square::G3 as u32;
    table.scanner.occ.store(start & !g1, Ordering::Relaxed);
    std::thread::sleep(Duration::from_millis(300));
    table
        .scanner
        .occ
        .store((start & !g1) | g3, Ordering::Relaxed);
    table.wait_for("illegal", |_| true);
    table.scanner.occ.store(start & !g1, Ordering::Relaxed);
    std::thread::sleep(Duration::from_millis(300));
    table.scanner.occ.store(start, Ordering::Relaxed);
    std::thread::sleep(Duration::from_millis(500));
    table.next(moves[2]);
    table.next(moves[3]);
    table.resign();
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(
        (&over["result"], &over["reason"]),
        (&"0-1".into(), &"resignation".into())
    );
    std::thread::sleep(Duration::from_millis(300));
    let printed = table.stop();
    let st = table.server.state();
    assert!(!st.requests.iter().any(|r| r.contains("g1g3")), "{printed}");
    let game = st.games.values().next().expect("the game");
    assert_eq!(game.moves, moves.iter().map(uci).collect::<Vec<_>>());
    assert_eq!(
        (game.status.as_str(), game.winner),
        ("resign", Some(Color::Black))
    );
    drop(st);
    assert_eq!(table.asked("/resign").len(), 1);
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_a_flag_falls_on_lichess_clock_never_on_pegboards() {
    let moves = game_moves("", "1. e4 e5 2. Nf3");
    let mut script = script_of(&moves, Color::White, 150);
    script.push(("@wait".into(), 60_000));
    let mut table = Table::open("lichess-flag", "", script);
    table.wait_for("online_game", |_| true);
    for &m in &moves {
        table.next(m);
    }
    // lichess says Black has 0.6 s left; its own clock (lag given back)
    // lets him think 2.5 s before his flag falls.
    {
        let mut st = table.server.state();
        let game = st.games.values_mut().next().expect("the game");
        game.btime = 600;
        game.since = Instant::now();
        game.states += 1;
    }
    table.server.changed();
    std::thread::sleep(Duration::from_millis(100));
    let told = Instant::now();
    {
        let mut st = table.server.state();
        let game = st.games.values_mut().next().expect("the game");
        game.btime = 2_500;
        game.since = Instant::now();
    }
    // pegboard's clock runs out first, and ends nothing.
    let fell = table.wait_for("clock", |v| v["cause"] == "flag");
    assert_eq!(fell["black"]["remaining_ms"], 0);
    let over = table.wait_for("game_over", |_| true);
    assert!(
        told.elapsed() >= Duration::from_millis(2_000),
        "ended by pegboard's clock"
    );
    assert_eq!(
        (&over["result"], &over["reason"]),
        (&"1-0".into(), &"flag".into())
    );
    table.stop();
    assert!(table.all("flag").is_empty(), "no flag of pegboard's own");
    let st = table.server.state();
    assert_eq!(
        st.games.values().next().map(|g| g.status.clone()),
        Some("outoftime".into())
    );
    drop(st);
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

/// The same online game with the board read from a trace: the hands' scans
/// written beforehand, the opponent answering well before they repeat
/// his move. Unlike the games above it opens no serial port, so it runs
/// under qemu too: the Pi's own build plays online.
#[test]
fn an_online_game_read_from_a_trace_the_pis_build_plays_it_too() {
    let dir = common::empty_dir("lichess-traced");
    let moves = game_moves("", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6");
    let style = Style {
        think: (0, 1),
        hand: (150, 300),
        ..Style::default()
    };
    let mut hands = Hands::new(5, style, Chess::default().board().occupied());
    let mut pos = Chess::default();
    for (i, &m) in moves.iter().enumerate() {
        let at = 3000 + (i as u64 / 2) * 3000 + if i % 2 == 1 { 1800 } else { 0 };
        hands.wait_until(at);
        if i % 2 == 0 {
            hands.play(&pos, m, CastlingMode::Standard);
        } else {
            hands.replicate(&pos, m, CastlingMode::Standard);
        }
        pos.play_unchecked(m);
    }
    hands.wait_until(3000 + 4 * 3000);
    let mut text = String::from("{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n");
    for e in hands.entries() {
        text.push_str(&pegboard::trace::write_line(e.t, &e.reading));
        text.push('\n');
    }
    let trace = dir.join("game.jsonl");
    std::fs::write(&trace, text).expect("trace");
    let server = lichess::Lichess::start(TOKEN, lichess::LILA_KEEP_ALIVE);
    let mut script: std::collections::VecDeque<(String, Duration)> =
        script_of(&moves, Color::White, 300)
            .into_iter()
            .map(|(s, ms)| (s, Duration::from_millis(ms)))
            .collect();
    script.push_back(("@wait".into(), Duration::from_secs(60)));
    server.state().script = script;
    let config = dir.join("play.toml");
    std::fs::write(
        &config,
        format!(
            "[game]\nwhite_moves_on = \"blind\"\nblack_moves_on = \"lichess\"\n\
             [lichess]\nserver = \"{}\"\n[journal]\ndir = \"{}\"\n[mirror]\nlisten = \"\"\n\
             [sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"{}\"\n",
            server.url(),
            dir.join("games").display(),
            trace.display()
        ),
    )
    .expect("config");
    keep_token(&config);
    let (printed, events) = common::play_events(&config.to_string_lossy(), "16");
    let ucis: Vec<String> = moves.iter().map(uci).collect();
    let said: Vec<String> = events
        .iter()
        .filter(|v| v["event"] == "move")
        .filter_map(|v| v["uci"].as_str().map(str::to_string))
        .collect();
    assert_eq!(said, ucis, "{printed}");
    let replicated = events.iter().filter(|v| v["event"] == "replicated").count();
    assert_eq!(replicated, ucis.len() / 2, "{printed}");
    let st = server.state();
    assert_eq!(
        st.games.values().next().map(|g| g.moves.clone()),
        Some(ucis.clone())
    );
    let posted = st.requests.iter().filter(|r| r.contains("/move/")).count();
    assert_eq!(posted, ucis.len() / 2, "{printed}");
    drop(st);
    assert_eq!(server.openapi_problems(), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_on_lichess_a_minute_of_silence_and_a_429_lose_no_move() {
    let moves = game_moves("", "1. e4 e5 2. Nf3 Nc6 3. Bb5");
    let mut script = script_of(&moves, Color::White, 150);
    script.push(("@wait".into(), 60_000));
    let mut table = Table::open("lichess-silence", "", script);
    table.wait_for("online_game", |_| true);
    for &m in &moves[..2] {
        table.next(m);
    }
    // The server says nothing on its streams for a minute, not even its
    // keep-alive lines, and answers the blind player's move with a 429.
    {
        let mut st = table.server.state();
        st.silent = true;
        st.faults.push_back(429);
    }
    let silent = Instant::now();
    table.next(moves[2]);
    table.wait_for("online", |v| v["connection"] == "lost");
    assert!(
        silent.elapsed() >= Duration::from_secs(15),
        "lost only after its silence limit"
    );
    std::thread::sleep(Duration::from_secs(60).saturating_sub(silent.elapsed()));
    table.server.state().silent = false;
    table.server.changed();
    table.wait_for("online", |v| v["connection"] == "back");
    // The move goes again a minute after the 429, as lichess asks; the
    // opponent answers it.
    for &m in &moves[3..] {
        table.next(m);
    }
    std::thread::sleep(Duration::from_millis(300));
    let printed = table.stop();
    let st = table.server.state();
    let posts: Vec<f64> = st
        .received_at
        .iter()
        .filter(|(_, r)| r.contains("/move/g1f3"))
        .map(|(at, _)| *at)
        .collect();
    assert_eq!(posts.len(), 2, "refused once, then sent: {printed}");
    assert!(posts[1] - posts[0] >= 59.0, "{posts:?}");
    let game = st.games.values().next().expect("the game");
    assert_eq!(game.moves, moves.iter().map(uci).collect::<Vec<_>>());
    drop(st);
    let said: Vec<&str> = table
        .all("online")
        .iter()
        .filter_map(|v| v["connection"].as_str())
        .collect();
    assert_eq!(said, ["lost", "back"], "once each: {printed}");
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_a_move_lichess_refuses_is_told_and_the_game_put_back_as_lichess_has_it() {
    // A 400 on a move will not change if the move is posted again: the
    // player hears lichess's words, the game goes back to lichess's, and
    // the board is put back; the game goes on.
    let moves = game_moves("", "1. e4 e5 2. Nf3 Nc6");
    let mut script = script_of(&moves, Color::White, 150);
    script.push(("@wait".into(), 20_000));
    let mut table = Table::open_with("lichess-move-400", "", script, |server| {
        server
            .state()
            .path_faults
            .push_back(("POST /api/board/game/game0001/move/e2e4".into(), 400));
    });
    table.wait_for("online_game", |_| true);
    table
        .hands
        .play(&table.pos, moves[0], CastlingMode::Standard);
    table.played = table.scanner.play(&table.hands, table.played);
    let told = table.wait_for("online_notice", |v| v["notice"] == "move_refused");
    assert!(
        told["say"]
            .as_str()
            .is_some_and(|s| s.contains("Try again later")),
        "lichess's words: {told}"
    );
    let back = table.wait_for("retraced", |_| true);
    assert_eq!(back["ply"], 0, "{}", table.printed());
    table.set_board(Chess::default());
    table.wait_for("replicated", |v| v["ply"] == 0);
    for &m in &moves {
        table.next(m);
    }
    std::thread::sleep(Duration::from_millis(300));
    let printed = table.stop();
    let st = table.server.state();
    let game = st.games.values().next().expect("the game");
    assert_eq!(
        game.moves,
        moves.iter().map(uci).collect::<Vec<_>>(),
        "{printed}"
    );
    drop(st);
    let posted = table.requests_ending("/move/e2e4");
    assert_eq!(posted, 2, "refused once, then played");
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_a_seek_lichess_refuses_is_told_once_and_never_asked_again() {
    // A 400 on the seek (a clock lichess does not pair for the Board
    // API, say) would be the same answer at every asking.
    let mut table = Table::open_with("lichess-seek-400", "", Vec::new(), |server| {
        server
            .state()
            .path_faults
            .push_back(("POST /api/board/seek".into(), 400));
    });
    let told = table.wait_for("online_notice", |v| v["notice"] == "find_refused");
    assert!(
        told["say"]
            .as_str()
            .is_some_and(|s| s.ends_with("Try again later")),
        "{told}"
    );
    // Longer than the wait after a failure the network may mend (5 s).
    std::thread::sleep(Duration::from_secs(8));
    let printed = table.stop();
    let seeks = table.requests_ending("POST /api/board/seek");
    assert_eq!(seeks, 1, "{printed}");
    assert_eq!(
        printed.matches(r#""notice":"find_refused""#).count(),
        1,
        "told once: {printed}"
    );
    assert!(table.all("online_game").is_empty());
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_no_seek_before_the_event_stream_has_named_the_games_under_way() {
    // lichess's API description: open the event stream first; a seek made
    // before it has named the games under way could pair a second game.
    let moves = game_moves("", "1. e4 e5");
    let mut script = script_of(&moves, Color::White, 150);
    script.push(("@wait".into(), 20_000));
    let mut table = Table::open_with("lichess-events-first", "", script, |server| {
        server
            .state()
            .path_faults
            .push_back(("GET /api/stream/event".into(), 500));
    });
    table.wait_for("online_game", |_| true);
    for &m in &moves {
        table.next(m);
    }
    let printed = table.stop();
    let st = table.server.state();
    let at = |what: &str| -> Vec<f64> {
        st.received_at
            .iter()
            .filter(|(_, r)| r == what)
            .map(|(t, _)| *t)
            .collect()
    };
    let (events, seeks) = (at("GET /api/stream/event"), at("POST /api/board/seek"));
    assert!(events.len() >= 2, "refused once, then opened: {printed}");
    assert_eq!(seeks.len(), 1, "{printed}");
    assert!(seeks[0] > events[1], "{events:?} {seeks:?}\n{printed}");
    drop(st);
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_a_game_left_here_for_a_new_one_is_never_taken_up_again_once_over() {
    // The player begins a new game at his board while the online one
    // goes on: the online one is resigned on lichess (else it would go on
    // until his clock ran out, lichess counting him connected), its final
    // state ends pegboard's following of it, and the next game is found.
    // That finished game is never taken into the new one.
    let moves = game_moves("", "1. e4 e5");
    let mut script = script_of(&moves, Color::White, 150);
    script.push(("@wait".into(), 60_000));
    let mut table = Table::open("lichess-left-here", "", script);
    let first = table.wait_for("online_game", |_| true);
    for &m in &moves {
        table.next(m);
    }
    // The next game's opponent thinks long.
    table.server.state().script = [("@wait".to_string(), Duration::from_secs(30))].into();
    table.give_up_for_a_new_game();
    table.wait_for("new_game", |_| true);
    table.set_board(Chess::default());
    let next = table.wait_for("online_game", |_| true);
    assert_ne!(
        next["game"]["id"],
        first["game"]["id"],
        "{}",
        table.printed()
    );
    std::thread::sleep(Duration::from_millis(500));
    let printed = table.stop();
    let taken: Vec<&Value> = table.all("online_game");
    assert_eq!(taken.len(), 2, "{printed}");
    let st = table.server.state();
    let old = &st.games[first["game"]["id"].as_str().unwrap_or_default()];
    assert_eq!(
        (old.status.as_str(), old.winner),
        ("resign", Some(Color::Black)),
        "the first resigned on lichess: {printed}"
    );
    drop(st);
    assert_eq!(table.asked("/resign").len(), 1, "{printed}");
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_the_win_is_claimed_once_lichess_allows_it_the_seconds_left_said_before() {
    // lila's claim-victory wins only once the opponent has been gone for
    // `claimWinInSeconds`, while he is to move; before, it answers 400 (or
    // 200, and nothing happens). The claim made early is told how long is
    // left; the one made after wins.
    let moves = game_moves("", "1. e4 e5 2. Nf3");
    let mut script = script_of(&moves, Color::White, 150);
    // (After the game's last change: the blind player's 2. Nf3.)
    script.push(("@gone:4".into(), 1500));
    script.push(("@wait".into(), 30_000));
    let mut table = Table::open("lichess-claim-wait", "", script);
    table.wait_for("online_game", |_| true);
    for &m in &moves {
        table.next(m);
    }
    let gone = table.wait_for("online_opponent", |v| v["gone"] == true);
    assert_eq!(gone["seconds"], 4, "{}", table.printed());
    table.scanner.press(CLAIM);
    let wait = table.wait_for("online_notice", |v| v["notice"] == "claim_in");
    let left = wait["seconds"].as_u64().unwrap_or_default();
    assert!((1..=4).contains(&left), "{wait}");
    std::thread::sleep(Duration::from_secs(left + 1));
    table.scanner.press(CLAIM);
    table.wait_for("online_request", |v| v["request"] == "claim_victory");
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(
        (&over["result"], &over["reason"]),
        (&"1-0".into(), &"abandoned".into())
    );
    std::thread::sleep(Duration::from_millis(300));
    let printed = table.stop();
    assert_eq!(table.asked("/claim-victory").len(), 1, "{printed}");
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_the_first_moves_time_is_said_before_lichess_aborts_the_game() {
    // A game from the lobby is aborted, and counted against the player, if
    // he does not make his first move in time; lichess's `expiration`
    // says how long he has.
    let moves = game_moves("", "1. e4 e5");
    let mut script = script_of(&moves, Color::White, 150);
    script.push(("@wait".into(), 20_000));
    let mut table = Table::open("lichess-first-move", "", script);
    table.wait_for("online_game", |_| true);
    let told = table.wait_for("online_notice", |v| v["notice"] == "first_move");
    let seconds = told["seconds"].as_u64().unwrap_or_default();
    // lila gives 30 s for a rapid game's first move.
    assert!((20..=30).contains(&seconds), "{told}");
    let words = pegboard::announce::Phrasebook::default().words.online;
    assert_eq!(
        told["say"],
        words.first_move.replace("{n}", &seconds.to_string())
    );
    for &m in &moves {
        table.next(m);
    }
    std::thread::sleep(Duration::from_millis(300));
    let printed = table.stop();
    assert_eq!(
        printed.matches(r#""notice":"first_move""#).count(),
        1,
        "once: {printed}"
    );
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_a_draw_offer_to_its_ai_is_told_it_takes_none_and_not_sent() {
    let moves = game_moves("", "1. e4 e5 2. Nf3");
    let mut script = script_of(&moves, Color::White, 150);
    script.push(("@wait".into(), 20_000));
    let mut table = Table::open(
        "lichess-ai-draw",
        "find = \"ai\"\nlevel = 2\ncolor = \"white\"",
        script,
    );
    table.wait_for("online_game", |_| true);
    for &m in &moves {
        table.next(m);
    }
    table.scanner.press(DRAW);
    let told = table.wait_for("online_notice", |v| v["notice"] == "ai_no_draw");
    let words = pegboard::announce::Phrasebook::default().words.online;
    assert_eq!(told["say"], words.ai_no_draw.as_str());
    std::thread::sleep(Duration::from_millis(500));
    let printed = table.stop();
    assert!(table.asked("/draw/").is_empty(), "{printed}");
    assert!(table.all("draw_offer").is_empty(), "{printed}");
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_a_challenge_kept_alive_and_declined_is_told_with_the_reason_and_not_sent_again()
{
    // lila lets a challenge nobody keeps alive expire after 20 s and
    // counts each one against the day's 200: one is sent, kept alive, and
    // a decline is told with lichess's reason, in the player's words.
    let mut table = Table::open_with(
        "lichess-declined",
        "find = \"challenge\"\nopponent = \"Bert\"",
        Vec::new(),
        |server| {
            server
                .state()
                .challenge_answers
                .push_back(lichess::ChallengeAnswer::decline(
                    Duration::from_millis(1500),
                    "later",
                ));
        },
    );
    let told = table.wait_for("online_notice", |v| v["notice"] == "declined");
    let words = pegboard::announce::Phrasebook::default().words.online;
    assert_eq!(
        told["say"],
        words
            .declined
            .replace("{name}", "Bert")
            .replace("{text}", &words.reasons.later)
    );
    // Longer than a challenge not kept alive lasts, and than pegboard
    // waited before asking again.
    std::thread::sleep(Duration::from_secs(32));
    let printed = table.stop();
    let sent = table.asked("/api/challenge/");
    assert_eq!(sent.len(), 1, "{printed}");
    assert!(sent[0].1.contains("keepAliveStream=true"), "{sent:?}");
    assert!(table.all("online_game").is_empty(), "{printed}");
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_a_challenge_declined_only_on_its_own_stream_is_told_in_the_players_language() {
    // The event stream, which carries lichess's reason, was down as the
    // decline came: the challenge's own stream ends `{"done":"declined"}`,
    // and the player hears, in German, that Bert declined, with no reason
    // and no English; the challenge is not sent again.
    let mut table = Table::prepared(
        "lichess-declined-unsaid",
        "find = \"challenge\"\nopponent = \"Bert\"",
        Vec::new(),
        |server| {
            let mut st = server.state();
            st.declines_unsaid = true;
            st.challenge_answers
                .push_back(lichess::ChallengeAnswer::decline(
                    Duration::from_millis(500),
                    "tooFast",
                ));
        },
    );
    let config = std::fs::read_to_string(&table.config).expect("config");
    std::fs::write(&table.config, format!("language = \"de\"\n{config}")).expect("config");
    table.start();
    let told = table.wait_for("online_notice", |v| v["notice"] == "declined");
    assert_eq!(told["say"], "Bert lehnt die Partie ab.");
    std::thread::sleep(Duration::from_secs(4));
    let printed = table.stop();
    assert_eq!(table.asked("/api/challenge/").len(), 1, "{printed}");
    assert_eq!(table.all("online_notice").len(), 1, "{printed}");
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_a_repetition_claimed_is_lichess_to_grant_and_ends_the_game_only_then() {
    // lila's draw/yes claims a threefold repetition (its Drawer); the game
    // ends when lichess's state says it is drawn, and the player hears
    // which draw it is.
    let moves = game_moves("", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8");
    let mut script = script_of(&moves, Color::White, 150);
    script.push(("@wait".into(), 20_000));
    let mut table = Table::open("lichess-threefold", "", script);
    table.wait_for("online_game", |_| true);
    for &m in &moves {
        table.next(m);
    }
    table.scanner.press(DRAW_CLAIM);
    table.wait_for("online_request", |v| v["request"] == "draw_claim");
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(
        (&over["result"], &over["reason"]),
        (&"1/2-1/2".into(), &"threefold_repetition".into())
    );
    std::thread::sleep(Duration::from_millis(300));
    let printed = table.stop();
    let st = table.server.state();
    let game = st.games.values().next().expect("the game");
    assert_eq!(
        (game.status.as_str(), game.winner),
        ("draw", None),
        "lichess drew it: {printed}"
    );
    drop(st);
    let claims = table.requests_ending("/draw/yes");
    assert_eq!(claims, 1, "{printed}");
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

/// A short game the opponent resigns (his script has no move left after
/// 2. Nf3): over, 1-0, its id on lichess.
fn won_by_resignation(table: &mut Table) -> String {
    let game = table.wait_for("online_game", |_| true);
    for &m in &game_moves("", "1. e4 e5 2. Nf3") {
        table.next(m);
    }
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(over["result"], "1-0", "{}", table.printed());
    game["game"]["id"].as_str().unwrap_or_default().to_string()
}

/// The seeks `play` made (a DELETE of a seek left out).
fn seeks(table: &Table) -> usize {
    let st = table.server.state();
    st.asked
        .iter()
        .filter(|(method, path, _)| method == "POST" && path == "/api/board/seek")
        .count()
}

#[test]
fn play_on_lichess_a_draw_claimed_when_the_opponent_left_is_lichess_claim_draw_the_seconds_said_before()
 {
    // lila's claim-draw, like claim-victory, ends the game only once the
    // opponent has been gone for `claimWinInSeconds`, while he is to move
    // (its round `DrawForce`, status `timeout` without a winner). Claimed
    // early, the player hears how long is left; after, it is a draw.
    let moves = game_moves("", "1. e4 e5 2. Nf3");
    let mut script = script_of(&moves, Color::White, 150);
    script.push(("@gone:4".into(), 1500));
    script.push(("@wait".into(), 30_000));
    let mut table = Table::open("lichess-claim-draw", "", script);
    table.wait_for("online_game", |_| true);
    for &m in &moves {
        table.next(m);
    }
    table.wait_for("online_opponent", |v| v["gone"] == true);
    table.scanner.press(DRAW_CLAIM);
    let wait = table.wait_for("online_notice", |v| v["notice"] == "claim_draw_in");
    let left = wait["seconds"].as_u64().unwrap_or_default();
    assert!((1..=4).contains(&left), "{wait}");
    let words = pegboard::announce::Phrasebook::default().words.online;
    assert_eq!(
        wait["say"],
        words
            .claim_draw_in
            .replace("{n}", &left.to_string())
            .as_str()
    );
    std::thread::sleep(Duration::from_secs(left + 1));
    table.scanner.press(DRAW_CLAIM);
    let asked = table.wait_for("online_request", |v| v["request"] == "claim_draw");
    assert_eq!(asked["say"], words.claim_draw.as_str());
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(
        (&over["result"], &over["reason"]),
        (&"1/2-1/2".into(), &"abandoned".into())
    );
    // The one who left is named: Black.
    let said = pegboard::announce::Phrasebook::default().game_over(
        pegboard::core::laws::Reason::Abandoned,
        shakmaty::KnownOutcome::Draw,
        Some(Color::Black),
    );
    assert_eq!(over["say"], said.as_str());
    std::thread::sleep(Duration::from_millis(300));
    let printed = table.stop();
    let st = table.server.state();
    let game = st.games.values().next().expect("the game");
    assert_eq!((game.status.as_str(), game.winner), ("timeout", None));
    drop(st);
    assert_eq!(table.asked("/claim-draw").len(), 1, "{printed}");
    assert!(table.asked("/claim-victory").is_empty(), "{printed}");
    assert!(table.asked("/draw/").is_empty(), "{printed}");
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
    let (pgn, text) = table.pgn();
    assert!(text.contains("[Termination \"abandoned\"]"), "{text}");
    assert_eq!(python_chess(&pgn), "e2e4 e7e5 g1f3\n1/2-1/2");
}

#[test]
fn play_on_lichess_the_opponents_takeback_request_declined_by_key_is_declined_on_lichess() {
    // lila's takeback/no declines the opponent's proposal (its
    // Takebacker); the game goes on as it stands.
    let moves = game_moves("", "1. e4 e5 2. Nf3");
    let mut script = script_of(&moves, Color::White, 150);
    script.push(("@wait".into(), 60_000));
    let mut table = Table::open("lichess-takeback-no", "", script);
    table.wait_for("online_game", |_| true);
    for &m in &moves {
        table.next(m);
    }
    // Once the player's last move is on lichess (a move would decline
    // the request), the opponent asks to take his own back.
    let until = Instant::now() + Duration::from_secs(120);
    while table
        .server
        .state()
        .games
        .values()
        .all(|g| g.moves.len() < 3)
    {
        assert!(Instant::now() < until, "the move never reached lichess");
        std::thread::sleep(Duration::from_millis(20));
    }
    if let Some(g) = table.server.state().games.values_mut().next() {
        g.script = [
            ("@takeback".to_string(), Duration::ZERO),
            ("@wait".to_string(), Duration::from_secs(20)),
        ]
        .into();
    }
    table.server.changed();
    table.wait_for("online_offer", |v| v["offer"] == "takeback");
    assert!(
        table
            .server
            .state()
            .games
            .values()
            .any(|g| g.takeback == Some(Color::Black)),
        "the request stands on lichess"
    );
    table.scanner.press(DECLINE);
    let declined = table.wait_for("online_request", |v| v["request"] == "takeback_decline");
    let words = pegboard::announce::Phrasebook::default().words.online;
    assert_eq!(declined["say"], words.takeback_declined.as_str());
    std::thread::sleep(Duration::from_millis(500));
    let printed = table.stop();
    let st = table.server.state();
    let game = st.games.values().next().expect("the game");
    assert_eq!(game.takeback, None, "{printed}");
    assert_eq!(game.moves, moves.iter().map(uci).collect::<Vec<_>>());
    drop(st);
    assert_eq!(table.requests_ending("/takeback/no"), 1, "{printed}");
    assert!(table.asked("/draw/").is_empty(), "{printed}");
    assert!(table.all("retraced").is_empty(), "{printed}");
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_the_opponents_rematch_accepted_by_key_is_the_next_game_colours_swapped() {
    // After a game, lila's rematch offer is a challenge with `rematchOf`
    // on the event stream: the player hears it, his draw-offer key accepts
    // it, and the game it starts (the colours swapped) is taken up though
    // `[lichess]` seeks.
    let script = script_of(&game_moves("", "1. e4 e5 2. Nf3"), Color::White, 150);
    let mut table = Table::open("lichess-rematch-accepted", "", script);
    let first = won_by_resignation(&mut table);
    table.server.state().script = [("@wait".to_string(), Duration::from_secs(20))].into();
    let challenge = table.server.rematch_from(&first);
    let offer = table.wait_for("online_offer", |v| v["offer"] == "rematch");
    let words = pegboard::announce::Phrasebook::default().words.online;
    assert_eq!(
        offer["say"],
        words.rematch_offer.replace("{name}", "Bert").as_str()
    );
    table.scanner.press(DRAW);
    let accepted = table.wait_for("online_request", |v| v["request"] == "rematch_accept");
    assert_eq!(
        accepted["say"],
        words.rematch_accepted.replace("{name}", "Bert").as_str()
    );
    table.wait_for("new_game", |_| true);
    let second = table.wait_for("online_game", |_| true);
    assert_eq!(second["game"]["id"], challenge.as_str());
    assert_eq!(second["game"]["color"], "black");
    assert_eq!(second["game"]["white"]["name"], "Bert");
    std::thread::sleep(Duration::from_millis(500));
    let printed = table.stop();
    assert_eq!(table.asked("/accept").len(), 1, "{printed}");
    assert_eq!(seeks(&table), 1, "no seek for the rematch: {printed}");
    let st = table.server.state();
    let game = st.games.get(&challenge).expect("the rematch on lichess");
    // Made as the game it rematches was (a seek: the lobby).
    assert_eq!((game.mine, game.source), (Color::Black, "lobby"));
    drop(st);
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_the_opponents_rematch_declined_by_key_is_declined_on_lichess() {
    let script = script_of(&game_moves("", "1. e4 e5 2. Nf3"), Color::White, 150);
    let mut table = Table::open("lichess-rematch-declined", "", script);
    let first = won_by_resignation(&mut table);
    let challenge = table.server.rematch_from(&first);
    table.wait_for("online_offer", |v| v["offer"] == "rematch");
    table.scanner.press(DECLINE);
    let declined = table.wait_for("online_request", |v| v["request"] == "rematch_decline");
    let words = pegboard::announce::Phrasebook::default().words.online;
    assert_eq!(
        declined["say"],
        words.rematch_declined.replace("{name}", "Bert").as_str()
    );
    std::thread::sleep(Duration::from_secs(2));
    let printed = table.stop();
    assert_eq!(
        table.asked("/decline"),
        vec![(
            "/api/challenge/{challengeId}/decline".to_string(),
            String::new()
        )],
        "{printed}"
    );
    assert!(table.asked("/accept").is_empty(), "{printed}");
    assert_eq!(table.all("online_game").len(), 1, "{printed}");
    assert!(table.all("new_game").is_empty(), "{printed}");
    assert!(!table.server.state().challenges.contains_key(&challenge));
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_a_rematch_offered_by_key_challenges_the_opponent_at_the_same_clock_colours_swapped()
 {
    // lichess's Board API has no rematch of its own: the player's rematch
    // is a challenge to the same opponent, the same clock and rating, the
    // colours swapped, kept alive until he answers.
    let script = script_of(&game_moves("", "1. e4 e5 2. Nf3"), Color::White, 150);
    let mut table = Table::open("lichess-rematch-offered", "", script);
    won_by_resignation(&mut table);
    table.server.state().script = [("@wait".to_string(), Duration::from_secs(20))].into();
    table.scanner.press(DRAW);
    let asked = table.wait_for("online_request", |v| v["request"] == "rematch");
    let words = pegboard::announce::Phrasebook::default().words.online;
    assert_eq!(
        asked["say"],
        words.rematch_asked.replace("{name}", "Bert").as_str()
    );
    table.wait_for("new_game", |_| true);
    let second = table.wait_for("online_game", |_| true);
    assert_eq!(second["game"]["color"], "black", "{}", table.printed());
    assert_eq!(second["game"]["white"]["name"], "Bert");
    std::thread::sleep(Duration::from_millis(500));
    let printed = table.stop();
    let sent = table.asked("/api/challenge/");
    assert_eq!(sent.len(), 1, "{printed}");
    assert_eq!(sent[0].0, "/api/challenge/{username}");
    for part in [
        "rated=false",
        "clock.limit=900",
        "clock.increment=10",
        "color=black",
        "keepAliveStream=true",
    ] {
        assert!(sent[0].1.contains(part), "{part}: {sent:?}");
    }
    let st = table.server.state();
    assert!(
        st.requests
            .iter()
            .any(|r| r.to_ascii_lowercase().ends_with("/api/challenge/bert")),
        "{printed}"
    );
    drop(st);
    assert_eq!(seeks(&table), 1, "no seek for the rematch: {printed}");
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_a_rematch_of_its_ai_is_a_new_game_against_it_at_the_same_level() {
    let script = script_of(&game_moves("", "1. e4 e5 2. Nf3"), Color::White, 150);
    let mut table = Table::open(
        "lichess-rematch-ai",
        "find = \"ai\"\nlevel = 3\ncolor = \"white\"",
        script,
    );
    won_by_resignation(&mut table);
    table.server.state().script = [("@wait".to_string(), Duration::from_secs(20))].into();
    table.scanner.press(DRAW);
    table.wait_for("online_request", |v| v["request"] == "rematch");
    let second = table.wait_for("online_game", |v| v["game"]["color"] == "black");
    assert_eq!(second["game"]["white"]["ai"], 3, "{second}");
    std::thread::sleep(Duration::from_millis(500));
    let printed = table.stop();
    let ai = table.asked("/api/challenge/ai");
    assert_eq!(ai.len(), 2, "{printed}");
    assert_eq!(table.all("online_game").len(), 2, "{printed}");
    for part in [
        "level=3",
        "clock.limit=900",
        "clock.increment=10",
        "color=black",
    ] {
        assert!(ai[1].1.contains(part), "{part}: {ai:?}");
    }
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_a_rematch_nobody_answers_is_given_up_after_a_minute_and_told() {
    // lichess keeps a challenge alive while its stream is open: one to an
    // opponent who has gone would wait for ever. After a minute it is
    // withdrawn, the player told, and no other game looked for until he
    // asks.
    let script = script_of(&game_moves("", "1. e4 e5 2. Nf3"), Color::White, 150);
    let mut table = Table::open("lichess-rematch-unanswered", "", script);
    won_by_resignation(&mut table);
    table
        .server
        .state()
        .challenge_answers
        .push_back(lichess::ChallengeAnswer::Never);
    table.scanner.press(DRAW);
    let asked = table.wait_for("online_request", |v| v["request"] == "rematch");
    let told = table.wait_longer_for("online_notice", Duration::from_secs(180), |v| {
        v["notice"] == "no_rematch"
    });
    let waited = told["t"].as_u64().unwrap_or(0) - asked["t"].as_u64().unwrap_or(0);
    assert!((60_000..62_000).contains(&waited), "{waited} ms");
    let words = pegboard::announce::Phrasebook::default().words.online;
    assert_eq!(
        told["say"],
        words.rematch_none.replace("{name}", "Bert").as_str()
    );
    std::thread::sleep(Duration::from_secs(2));
    let printed = table.stop();
    let asked = table.asked("/api/challenge/");
    let (cancels, sent): (Vec<_>, Vec<_>) = asked.iter().partition(|(p, _)| p.ends_with("/cancel"));
    assert_eq!(sent.len(), 1, "{printed}");
    // Withdrawn on lichess too: it would keep it while the connection
    // stood, and notice it closed only 50 s later.
    assert_eq!(cancels.len(), 1, "{printed}");
    assert_eq!(seeks(&table), 1, "no seek after it: {printed}");
    assert_eq!(table.all("online_game").len(), 1, "{printed}");
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_the_players_rematch_declined_is_told_and_no_other_game_looked_for() {
    let script = script_of(&game_moves("", "1. e4 e5 2. Nf3"), Color::White, 150);
    let mut table = Table::open("lichess-rematch-refused", "", script);
    won_by_resignation(&mut table);
    table
        .server
        .state()
        .challenge_answers
        .push_back(lichess::ChallengeAnswer::decline(
            Duration::from_millis(500),
            "later",
        ));
    table.scanner.press(DRAW);
    table.wait_for("online_request", |v| v["request"] == "rematch");
    let told = table.wait_for("online_notice", |v| v["notice"] == "declined");
    assert!(
        told["say"].as_str().is_some_and(|s| s.contains("Bert")),
        "{told}"
    );
    std::thread::sleep(Duration::from_secs(3));
    let printed = table.stop();
    assert_eq!(table.asked("/api/challenge/").len(), 1, "{printed}");
    assert_eq!(seeks(&table), 1, "no seek after it: {printed}");
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_the_opponents_rematch_offered_while_the_players_waits_is_accepted() {
    // Both ask at once: lila's Rematcher makes the opponent's an offer
    // (a challenge with `rematchOf`), pegboard's is a challenge. The
    // offer is accepted, the player's own challenge withdrawn.
    let script = script_of(&game_moves("", "1. e4 e5 2. Nf3"), Color::White, 150);
    let mut table = Table::open("lichess-rematch-crossed", "", script);
    let first = won_by_resignation(&mut table);
    table.server.state().script = [("@wait".to_string(), Duration::from_secs(20))].into();
    table
        .server
        .state()
        .challenge_answers
        .push_back(lichess::ChallengeAnswer::Never);
    table.scanner.press(DRAW);
    table.wait_for("online_request", |v| v["request"] == "rematch");
    std::thread::sleep(Duration::from_secs(1));
    let offer = table.server.rematch_from(&first);
    let second = table.wait_for("online_game", |_| true);
    assert_eq!(second["game"]["id"], offer.as_str());
    assert_eq!(second["game"]["color"], "black");
    // No word of the offer: the player had asked for it.
    assert!(table.all("online_offer").is_empty());
    std::thread::sleep(Duration::from_millis(500));
    let printed = table.stop();
    assert_eq!(table.asked("/accept").len(), 1, "{printed}");
    // …and the player's withdrawn on lichess at once: lichess would keep
    // it until it next writes to its connection (50 s on).
    assert_eq!(table.asked("/cancel").len(), 1, "{printed}");
    let outcomes = table.server.state().challenge_outcomes.clone();
    assert!(
        outcomes.iter().any(|(_, o)| o == "canceled"),
        "{outcomes:?}"
    );
    assert!(
        table
            .all("online_notice")
            .iter()
            .all(|v| v["notice"] != "no_rematch")
    );
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

/// The moves `sans` from the position `fen` (read with Chess960's
/// castling rules, which read any FEN), and that position.
fn moves_from(fen: &str, sans: &str) -> (Chess, Vec<Move>) {
    let start: Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .expect("a FEN")
        .into_position(CastlingMode::Chess960)
        .expect("a legal position");
    let mut pos = start.clone();
    let moves = sans
        .split_whitespace()
        .map(|san| {
            let m = san
                .parse::<shakmaty::san::San>()
                .expect("SAN")
                .to_move(&pos)
                .expect("legal");
            pos.play_unchecked(m);
            m
        })
        .collect();
    (start, moves)
}

/// The opponent's moves of `moves` from `start`, written as lichess
/// writes them outside standard chess: castling as the king onto its
/// rook.
fn script_960(moves: &[Move], mine: Color, ms: u64) -> Vec<(String, u64)> {
    let first = usize::from(mine == Color::White);
    moves
        .iter()
        .skip(first)
        .step_by(2)
        .map(|m| (m.to_uci(CastlingMode::Chess960).to_string(), ms))
        .collect()
}

/// python-chess's reading of a PGN as the same game from its own tags
/// (`Variant`, `SetUp`, `FEN`): its moves in UCI (castling as its board's
/// rules write it) and its result.
fn python_chess_960(pgn: &Path) -> String {
    let read = std::process::Command::new("python3")
        .args([
            "-c",
            "import chess.pgn,sys; g=chess.pgn.read_game(open(sys.argv[1])); \
             b=g.board(); print(b.chess960, b.fen()); \
             print(' '.join(m.uci() for m in g.mainline_moves())); print(g.headers['Result'])",
        ])
        .arg(pgn)
        .output()
        .expect("python3 runs");
    String::from_utf8_lossy(&read.stdout).trim().to_string()
}

#[test]
fn play_on_lichess_a_chess960_seek_is_played_from_lichess_start_castling_king_onto_rook() {
    // Chess960 start 14: the kings on e1 and e8 and the rooks on d1 and
    // d8, so that castling queenside the king goes to c1 past a rook that
    // stays: lichess writes it e1d1, standard UCI e1c1.
    let fen = "qnnrkbbr/pppppppp/8/8/8/8/PPPPPPPP/QNNRKBBR w KQkq - 0 1";
    let (start, moves) = moves_from(fen, "Nd3 Nd6 O-O-O O-O-O e3 e6 f4");
    let mut table = Table::open_with(
        "lichess-960",
        "variant = \"chess960\"",
        script_960(&moves, Color::White, 150),
        |server| server.state().chess960_start = 14,
    );
    table.pos = start;
    table.mode = CastlingMode::Chess960;
    let started = table.wait_for("online_game", |_| true);
    assert_eq!(started["game"]["chess960"], true, "{started}");
    assert_eq!(started["game"]["initial_fen"], fen, "{started}");
    // The player hears that the start and the castling are other.
    let say = started["say"].as_str().unwrap_or_default();
    assert!(say.contains("die Rochade ist eine andere"), "{say}");
    // The game starts from lichess's start: every reader is told.
    let ready = table
        .seen
        .iter()
        .rev()
        .find(|v| v["event"] == "ready")
        .cloned()
        .expect("a ready before the online game");
    assert_eq!(
        (&ready["variant"], &ready["fen"]),
        (&"chess960".into(), &fen.into())
    );
    for &m in &moves {
        table.next(m);
    }
    // Out of moves, the opponent resigns.
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(over["result"], "1-0");
    std::thread::sleep(Duration::from_millis(500));
    let printed = table.stop();

    // The seek asked for Chess960; lichess has the game as played, the
    // castling written king onto rook, each move sent once.
    let seeks = table.asked("/api/board/seek");
    assert!(
        seeks
            .iter()
            .any(|(_, form)| form.contains("variant=chess960")),
        "{seeks:?}"
    );
    let lichess_ucis: Vec<String> = moves
        .iter()
        .map(|m| m.to_uci(CastlingMode::Chess960).to_string())
        .collect();
    assert_eq!(lichess_ucis[2], "e1d1");
    let st = table.server.state();
    let game = st.games.values().next().expect("a game on the server");
    assert_eq!(game.moves, lichess_ucis, "{printed}");
    let posted = st.requests.iter().filter(|r| r.contains("/move/")).count();
    assert_eq!(posted, 4, "{printed}");
    drop(st);
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());

    // The PGN sets up the Chess960 board: python-chess reads the same
    // game from it.
    let (pgn, text) = table.pgn();
    assert!(text.contains("[Variant \"Chess960\"]"), "{text}");
    assert_eq!(
        python_chess_960(&pgn),
        format!("True {fen}\n{}\n1-0", lichess_ucis.join(" ")),
        "{text}"
    );
}

#[test]
fn play_on_lichess_a_challenge_from_a_set_position_is_accepted_and_played_from_it() {
    // A friend's challenge from a set position (lichess's `fromPosition`):
    // standard chess from there, castling written as lichess writes it
    // outside standard chess (e1h1), the board set up as pegboard asks.
    let fen = "r3k2r/pppq1ppp/2npbn2/4p3/4P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1";
    let (start, moves) = moves_from(fen, "O-O O-O-O a3 Kb8 b4");
    let mut table = Table::open(
        "lichess-fen",
        "find = \"accept\"\nopponent = \"bert\"",
        script_960(&moves, Color::White, 150),
    );
    let until = Instant::now() + Duration::from_secs(10);
    while !table
        .server
        .state()
        .requests
        .iter()
        .any(|r| r.contains("/api/stream/event"))
    {
        assert!(Instant::now() < until, "play never opened the event stream");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    table
        .server
        .challenge_from_start("Bert", 15, 10, "black", lichess::Start::from_position(fen));
    let started = table.wait_for("online_game", |_| true);
    assert_eq!(started["game"]["initial_fen"], fen, "{started}");
    assert!(started["game"].get("chess960").is_none(), "{started}");
    // The board differs from the set position: pegboard says so, and it
    // is set up.
    table.wait_for("mismatch", |_| true);
    table.set_board(start.clone());
    for &m in &moves {
        table.next(m);
    }
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(over["result"], "1-0");
    std::thread::sleep(Duration::from_millis(500));
    let printed = table.stop();
    let lichess_ucis: Vec<String> = moves
        .iter()
        .map(|m| m.to_uci(CastlingMode::Chess960).to_string())
        .collect();
    assert_eq!(&lichess_ucis[..2], ["e1h1", "e8a8"]);
    let st = table.server.state();
    let game = st.games.values().next().expect("a game on the server");
    assert_eq!(game.moves, lichess_ucis, "{printed}");
    // No move of the player's was taken back for a castling written
    // otherwise than lichess writes it.
    assert_eq!(
        st.requests.iter().filter(|r| r.contains("/move/")).count(),
        3,
        "{printed}"
    );
    drop(st);
    assert!(!printed.contains("taken back to it"), "{printed}");
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
    let (pgn, text) = table.pgn();
    assert!(text.contains(&format!("[FEN \"{fen}\"]")), "{text}");
    let standard: Vec<String> = moves.iter().map(uci).collect();
    assert_eq!(
        python_chess_960(&pgn),
        format!("False {fen}\n{}\n1-0", standard.join(" ")),
        "{text}"
    );
}

#[test]
fn play_on_lichess_a_correspondence_game_chosen_by_keys_is_played_over_two_sessions() {
    // Two correspondence games under way when play starts: the first on
    // the opponent's move, the second on the player's. They are said,
    // and the player takes the second with the menu's keys (next,
    // select); no game is sought.
    let mut table = Table::open_with("lichess-days", "days = 3", Vec::new(), |server| {
        let first = server.correspondence_under_way_as(3, Color::Black);
        server
            .state()
            .games
            .get_mut(&first)
            .expect("the first")
            .script = [("@wait".to_string(), Duration::from_secs(600))].into();
        let second = server.correspondence_under_way_as(3, Color::White);
        server
            .state()
            .games
            .get_mut(&second)
            .expect("the second")
            .script = [
            ("e7e5".to_string(), Duration::from_millis(300)),
            ("b8c6".to_string(), Duration::from_millis(300)),
        ]
        .into();
    });
    let (first, second) = {
        let st = table.server.state();
        let ids: Vec<String> = st.games.keys().cloned().collect();
        (ids[0].clone(), ids[1].clone())
    };
    let listed = table.wait_for("online_games", |_| true);
    let games = listed["games"].as_array().cloned().unwrap_or_default();
    assert_eq!(games.len(), 2, "{listed}");
    assert_eq!(
        (&games[0]["id"], &games[0]["my_turn"]),
        (&first.as_str().into(), &false.into())
    );
    assert_eq!(
        (&games[1]["id"], &games[1]["my_turn"]),
        (&second.as_str().into(), &true.into())
    );
    let said = listed["say"].as_str().unwrap_or_default();
    assert!(
        said.contains("2.") && said.contains("Gegner am Zug"),
        "{said}"
    );
    table.scanner.press(NEXT);
    let item = table.wait_for("menu", |_| true);
    assert_eq!(item["say"], "2: gegen Bert, Ihr Zug.");
    table.scanner.press(SELECT);
    let chosen = table.wait_for("online_chosen", |_| true);
    assert_eq!(chosen["game"], second.as_str());
    let started = table.wait_for("online_game", |_| true);
    assert_eq!(started["game"]["id"], second.as_str());
    assert_eq!(started["game"]["days"], 3);
    assert!(started["game"].get("initial_ms").is_none(), "no clock");
    let moves = game_moves("", "1. e4 e5 2. Nf3 Nc6 3. Bb5");
    table.next(moves[0]);
    table.next(moves[1]);
    // The evening ends: play is stopped on the player's move.
    table.stop();

    // The next evening: play takes the same game up, nothing to choose,
    // and it is played on.
    table.seen.clear();
    table.start();
    for &m in &moves[2..] {
        table.next(m);
    }
    // Out of moves, the opponent resigns.
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(over["result"], "1-0");
    std::thread::sleep(Duration::from_millis(500));
    let printed = table.stop();
    assert!(table.all("online_games").is_empty(), "{printed}");
    let st = table.server.state();
    let ucis: Vec<String> = moves.iter().map(uci).collect();
    assert_eq!(st.games[&second].moves, ucis, "{printed}");
    assert!(st.games[&first].moves.is_empty());
    assert_eq!(st.games[&first].status, "started", "left as it was");
    assert!(
        !st.requests.iter().any(|r| r.contains("/api/board/seek")),
        "no seek: {:?}",
        st.requests
    );
    let posted = st.requests.iter().filter(|r| r.contains("/move/")).count();
    assert_eq!(posted, 3, "each move sent once: {printed}");
    drop(st);
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
    let (pgn, text) = table.pgn();
    assert_eq!(
        python_chess(&pgn),
        format!("{}\n1-0", ucis.join(" ")),
        "{text}"
    );
}

#[test]
fn play_on_lichess_a_new_correspondence_game_chosen_over_one_under_way_is_sought_by_days() {
    // One correspondence game under way; the player goes back from it to
    // the last choice, a new game: a seek of days a move is made (none of
    // time), and the game it finds is played without a clock.
    let mut table = Table::open_with(
        "lichess-days-new",
        "days = 5",
        script_of(&game_moves("", "1. e4 e5"), Color::White, 200),
        |server| {
            let under_way = server.correspondence_under_way_as(3, Color::Black);
            server.state().games.get_mut(&under_way).expect("it").script =
                [("@wait".to_string(), Duration::from_secs(600))].into();
            server.state().seek_colors = [Color::White].into();
        },
    );
    let listed = table.wait_for("online_games", |_| true);
    assert_eq!(listed["games"].as_array().map(Vec::len), Some(1));
    table.scanner.press(TAKEBACK);
    let item = table.wait_for("menu", |_| true);
    assert_eq!(item["say"], "2: eine neue Partie.");
    table.scanner.press(SELECT);
    let chosen = table.wait_for("online_chosen", |_| true);
    assert!(chosen["game"].is_null(), "{chosen}");
    let started = table.wait_for("online_game", |_| true);
    assert_eq!(started["game"]["days"], 5);
    // The seek was taken: none waits in the lobby any more.
    assert!(!table.dir.join("games").join("lichess-seek").exists());
    table.next(game_moves("", "1. e4")[0]);
    let printed = table.stop();
    let seeks = table.asked("/api/board/seek");
    assert_eq!(seeks.len(), 1, "{printed}");
    assert!(
        seeks[0].1.contains("days=5") && !seeks[0].1.contains("time="),
        "{seeks:?}"
    );
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_chosen_in_the_spoken_menu_its_ai_at_a_level_at_a_clock_it_plays() {
    // play starts for a game at the board (no opponent on lichess), the
    // token kept: the spoken menu offers lichess. The player opens it
    // and takes lichess's AI at level 2; the clock becomes one lichess
    // plays (15+10, there being none), and saving begins the game there.
    let mut table = Table::prepared("lichess-menu", "", Vec::new(), |_| {});
    let text = std::fs::read_to_string(&table.config).expect("config");
    std::fs::write(
        &table.config,
        text.replace("black_moves_on = \"lichess\"", "black_moves_on = \"blind\""),
    )
    .expect("config");
    table.start();
    table.wait_for("ready", |_| true);
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        !table
            .server
            .state()
            .requests
            .iter()
            .any(|r| r.contains("/api/stream/event")),
        "no lichess before it is chosen"
    );
    table.scanner.press(MENU);
    table.wait_for("menu", |_| true);
    table.scanner.press(SELECT);
    table.wait_for("menu", |_| true);
    // A person, the engine's eight steps, a seek casual and rated, then
    // lichess's AI from level 1.
    let mut item = Value::Null;
    for _ in 0..12 {
        table.scanner.press(NEXT);
        item = table.wait_for("menu", |_| true);
    }
    assert_eq!(item["say"], "Netz, Maschine, Stufe 2");
    table.scanner.press(SELECT);
    table.wait_for("menu", |v| {
        v["say"]
            .as_str()
            .is_some_and(|s| s.contains("Netz, Maschine, Stufe 2"))
    });
    table.scanner.press(TAKEBACK);
    let confirm = table.wait_for("menu", |_| true);
    let question = confirm["say"].as_str().unwrap_or_default().to_string();
    assert!(question.contains("15 Minuten"), "{question}");
    table.scanner.press(SELECT);
    let choices = table.wait_for("choices", |_| true);
    assert_eq!(
        (&choices["opponent"], &choices["find"], &choices["level"]),
        (&"lichess".into(), &"ai".into(), &2.into())
    );
    assert_eq!(choices["time_control"], "900+10");
    let started = table.wait_for("online_game", |_| true);
    assert_eq!(started["game"]["black"]["ai"], 2, "{started}");
    let printed = table.stop();
    let asked = table.asked("/api/challenge/ai");
    assert_eq!(asked.len(), 1, "{printed}");
    let form = &asked[0].1;
    assert!(
        form.contains("level=2")
            && form.contains("clock.limit=900")
            && form.contains("clock.increment=10"),
        "{form}"
    );
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
    // The choice is kept for the next start, as the menu's are.
    let kept = std::fs::read_to_string(table.dir.join("games").join("choices.toml"))
        .expect("choices kept");
    assert!(
        kept.contains("opponent = \"lichess\"") && kept.contains("find = \"ai\""),
        "{kept}"
    );
}

#[test]
fn play_on_lichess_a_resignation_lichess_answers_with_a_500_is_posted_again() {
    // lichess answers the resignation with a 500: it is posted again a
    // second later, and the game ends on lichess too.
    let moves = game_moves("", "1. e4 e5");
    let mut script = script_of(&moves, Color::White, 150);
    script.push(("@wait".into(), 120_000));
    let mut table = Table::open("lichess-resign-again", "", script);
    let started = table.wait_for("online_game", |_| true);
    let id = started["game"]["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    table.next(moves[0]);
    table.next(moves[1]);
    table
        .server
        .state()
        .path_faults
        .push_back((format!("POST /api/board/game/{id}/resign"), 500));
    table.resign();
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(over["reason"], "resignation");
    // pegboard's game ends at once; lichess's when the post is taken.
    let until = Instant::now() + Duration::from_secs(10);
    while table.server.state().games[&id].status != "resign" && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(100));
    }
    let printed = table.stop();
    let st = table.server.state();
    let game = &st.games[&id];
    assert_eq!(game.status, "resign", "{printed}");
    let resigns = st
        .requests
        .iter()
        .filter(|r| r.ends_with("/resign"))
        .count();
    assert_eq!(resigns, 2, "once refused with a 500, once taken: {printed}");
    drop(st);
    assert!(printed.contains("posted again in 1 s"), "{printed}");
}

#[test]
fn play_on_lichess_two_fitting_challenges_at_once_one_is_accepted_the_other_after_its_game() {
    // Two challenges at the clock asked for come together: accepting both
    // would start two games, one of them never played. One is accepted;
    // the others, which lila names only once, wait for the game's end,
    // and the first still standing is accepted then (one whose sender
    // has gone, lila's `offline`, is not, though lila would take it).
    let moves = game_moves("", "1. e4 e5");
    let mut script = script_of(&moves, Color::White, 150);
    script.push(("@wait".into(), 20_000));
    let mut table = Table::open("lichess-two-challenges", "find = \"accept\"", script);
    let until = Instant::now() + Duration::from_secs(10);
    while !table
        .server
        .state()
        .requests
        .iter()
        .any(|r| r.contains("/api/stream/event"))
    {
        assert!(Instant::now() < until, "play never opened the event stream");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    // Both on the event stream, one after the other at once.
    let bert = table.server.challenge_from("Bert", 15, 10, "black");
    let carl = table.server.challenge_from("Carl", 15, 10, "black");
    let dora = table.server.challenge_from("Dora", 15, 10, "black");
    let first = table.wait_for("online_game", |_| true);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(table.asked("/accept").len(), 1, "{}", table.printed());
    assert_eq!(table.server.state().games.len(), 1, "{}", table.printed());
    for &m in &moves {
        table.next(m);
    }
    table.server.state().offline_challenges.insert(carl.clone());
    table.server.state().script = [("@wait".to_string(), Duration::from_secs(30))].into();
    table.give_up_for_a_new_game();
    table.wait_for("new_game", |_| true);
    table.set_board(Chess::default());
    let second = table.wait_for("online_game", |_| true);
    let printed = table.stop();
    // (A challenge's game has the challenge's id.)
    assert_eq!(first["game"]["id"], bert.as_str(), "{printed}");
    assert_eq!(second["game"]["id"], dora.as_str(), "{printed}");
    let accepted: Vec<String> = table.asked("/accept").into_iter().map(|(p, _)| p).collect();
    assert_eq!(accepted.len(), 2, "{printed}");
    assert!(!accepted.iter().any(|p| p.contains(&carl)), "{accepted:?}");
    assert_eq!(table.asked("/show").len(), 2, "{printed}");
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_castling_written_king_onto_rook_in_standard_chess_is_the_same_move() {
    // lichess's API description writes castling king onto rook in every
    // game's moves (e1h1); its Board API has written e1g1 in standard
    // chess. Either way the server's moves are the game's: the player's
    // castling is not taken back for being spelt otherwise.
    let moves = game_moves("", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3");
    let mut table = Table::open_with(
        "lichess-king-onto-rook",
        "",
        script_of(&moves, Color::White, 150),
        |server| server.state().castling_king_onto_rook = true,
    );
    table.wait_for("online_game", |_| true);
    for &m in &moves {
        table.next(m);
    }
    let over = table.wait_for("game_over", |_| true);
    assert_eq!(over["result"], "1-0");
    std::thread::sleep(Duration::from_millis(300));
    let printed = table.stop();
    let st = table.server.state();
    let game = st.games.values().next().expect("the game");
    assert_eq!(game.moves[6], "e1h1", "{:?}", game.moves);
    assert_eq!(game.moves.len(), moves.len(), "{printed}");
    drop(st);
    assert!(!printed.contains("taken back"), "{printed}");
    assert_eq!(table.all("retraced").len(), 0, "{printed}");
    let (pgn, text) = table.pgn();
    let ucis: Vec<String> = moves.iter().map(uci).collect();
    assert_eq!(
        python_chess(&pgn),
        format!("{}\n1-0", ucis.join(" ")),
        "{text}"
    );
}

#[test]
fn play_on_lichess_accepting_by_days_takes_a_correspondence_challenge_never_a_clocks() {
    // `days = 3` with `find = "accept"`: a challenge at 15+10 (the table's
    // untouched clock) is not the kind asked for; Bert's by 3 days a move
    // is, and its game is played without a clock.
    let table = Table::open_with(
        "lichess-accept-days",
        "find = \"accept\"\ndays = 3",
        vec![("@wait".into(), 60_000)],
        |_| {},
    );
    let until = Instant::now() + Duration::from_secs(10);
    while !table
        .server
        .state()
        .requests
        .iter()
        .any(|r| r.contains("/api/stream/event"))
    {
        assert!(Instant::now() < until, "play never opened the event stream");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(1500));
    let mut table = table;
    let clocked = table.server.challenge_from("Carl", 15, 10, "black");
    std::thread::sleep(Duration::from_millis(300));
    let by_days = table.server.challenge_from_days("Bert", 3, "black");
    let started = table.wait_for("online_game", |_| true);
    assert_eq!(started["game"]["days"], 3, "{started}");
    let printed = table.stop();
    let accepted = table.asked("/accept");
    assert_eq!(accepted.len(), 1, "{printed}");
    let requests = table.server.state().requests.clone();
    assert!(
        requests.contains(&format!("POST /api/challenge/{by_days}/accept")),
        "{requests:?}"
    );
    assert!(!requests.contains(&format!("POST /api/challenge/{clocked}/accept")));
    assert_eq!(table.server.openapi_problems(), Vec::<String>::new());
}

#[test]
fn play_on_lichess_a_correspondence_seek_waiting_in_the_lobby_is_not_made_again_next_session() {
    // lichess keeps a seek of days a move in its lobby until someone takes
    // it, and the Board API cannot cancel it: a second session makes no
    // second seek (each would be one more game against a stranger).
    let mut table = Table::open_with("lichess-days-seek", "days = 3", Vec::new(), |server| {
        server.state().seek_pairs_after = Duration::from_secs(3600);
    });
    let until = Instant::now() + Duration::from_secs(10);
    while table.requests_ending("/api/board/seek") == 0 {
        assert!(Instant::now() < until, "no seek made");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    table.stop();
    let mark = table.dir.join("games").join("lichess-seek");
    assert!(mark.exists(), "the seek is marked");
    table.start();
    let until = Instant::now() + Duration::from_secs(10);
    while table.requests_ending("/api/stream/event") < 2 {
        assert!(
            Instant::now() < until,
            "the second session never opened its event stream"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let told = table.wait_for("online_notice", |v| v["notice"] == "seek_waiting");
    let words = pegboard::announce::Phrasebook::default().words.online;
    assert_eq!(told["say"], words.seek_waiting.as_str());
    std::thread::sleep(Duration::from_millis(2500));
    let printed = table.stop();
    assert_eq!(table.requests_ending("/api/board/seek"), 1, "{printed}");
    // While pegboard is off, someone takes the seek: the next session
    // finds its game, lists it, and the seek waits no more.
    table.server.lobby_correspondence_starts(3);
    table.start();
    let listed = table.wait_for("online_games", |_| true);
    assert_eq!(
        listed["games"].as_array().map(Vec::len),
        Some(1),
        "{listed}"
    );
    let printed = table.stop();
    assert!(!mark.exists(), "the mark is gone: {printed}");
}

#[test]
fn play_on_lichess_chosen_in_the_menu_without_a_token_is_told_and_nothing_is_asked() {
    // `[lichess] friends` makes the menu offer lichess; no token is kept:
    // choosing a seek there says so, in the player's words, and lichess
    // is never asked.
    let mut table = Table::prepared(
        "lichess-menu-no-token",
        "friends = [\"bert\"]",
        Vec::new(),
        |_| {},
    );
    let text = std::fs::read_to_string(&table.config).expect("config");
    std::fs::write(
        &table.config,
        text.replace("black_moves_on = \"lichess\"", "black_moves_on = \"blind\""),
    )
    .expect("config");
    std::fs::remove_file(
        table
            .dir
            .join("games")
            .join(pegboard::lichess::token::TOKEN_FILE),
    )
    .expect("the token removed");
    // (Keeping it asked lichess whose it was.)
    table.server.state().requests.clear();
    table.start();
    table.wait_for("ready", |_| true);
    table.scanner.press(MENU);
    table.wait_for("menu", |_| true);
    table.scanner.press(SELECT);
    table.wait_for("menu", |_| true);
    let mut item = Value::Null;
    for _ in 0..9 {
        table.scanner.press(NEXT);
        item = table.wait_for("menu", |_| true);
    }
    assert_eq!(item["say"], "Netz, Suche, ohne Elo");
    table.scanner.press(SELECT);
    table.scanner.press(TAKEBACK);
    table.wait_for("menu", |v| {
        v["say"].as_str().is_some_and(|s| s.contains('?'))
    });
    table.scanner.press(SELECT);
    let told = table.wait_for("online_notice", |_| true);
    assert_eq!(told["notice"], "no_token");
    assert_eq!(
        told["say"],
        "Die Partie wird nicht gestartet: kein Schlüssel für das Netz."
    );
    let printed = table.stop();
    assert!(table.server.state().requests.is_empty(), "{printed}");
    assert!(printed.contains("no lichess token"), "{printed}");
}

#[test]
fn play_on_lichess_a_game_begun_while_the_list_is_open_lets_the_list_be_offered_after_it() {
    // The games under way are read out; before the player chooses, a
    // correspondence seek of his is taken in the lobby and its game
    // begins: it is played, and after it the list is offered again.
    let mut table = Table::open_with(
        "lichess-days-list-again",
        "days = 3",
        Vec::new(),
        |server| {
            let under_way = server.correspondence_under_way_as(3, Color::Black);
            server.state().games.get_mut(&under_way).expect("it").script =
                [("@wait".to_string(), Duration::from_secs(600))].into();
        },
    );
    // A seek made before waits in the lobby: none is made now.
    std::fs::write(table.dir.join("games").join("lichess-seek"), "0\n").expect("marked");
    table.wait_for("online_games", |_| true);
    table.server.state().script = [("e7e5".to_string(), Duration::from_millis(200))].into();
    let seek_game = table.server.lobby_correspondence_starts(3);
    let started = table.wait_for("online_game", |_| true);
    assert_eq!(started["game"]["id"], seek_game.as_str());
    let moves = game_moves("", "1. e4 e5 2. Nf3");
    for &m in &moves {
        table.next(m);
    }
    // Out of moves, the opponent resigns; the next game is asked for.
    table.wait_for("game_over", |_| true);
    table.scanner.press(NEW_GAME);
    let again = table.wait_for("online_games", |_| true);
    assert_eq!(again["games"].as_array().map(Vec::len), Some(1), "{again}");
    let printed = table.stop();
    assert_eq!(table.all("online_games").len(), 2, "{printed}");
}
