//! A lichess for the tests: the part of its Board API pegboard uses,
//! written from lichess's published OpenAPI description (lichess-org/api,
//! doc/specs), served over HTTP/1.1 on loopback by plain threads. It keeps
//! the rest of the product out: nothing in src/ uses it.
//!
//! - Every request needs `Authorization: Bearer TOKEN` (else 401).
//! - `GET /api/stream/event`: NDJSON; a `gameStart` for each game under
//!   way when it opens, then each new event; an empty line every
//!   `keep_alive`.
//! - `POST /api/board/seek` (form `time`, `increment`, `rated`, …): held
//!   open until the opponent is found, then the game starts.
//! - `POST /api/challenge/ai` (form `level`, `clock.limit`, …): the game
//!   against the AI starts at once; `POST /api/challenge/{username}`: the
//!   player challenged accepts a moment later; `POST
//!   /api/challenge/{id}/accept`: a challenge to the account
//!   ([`Lichess::challenge_from`]) accepted.
//! - `GET /api/board/game/stream/{id}`: `gameFull`, then a `gameState` at
//!   each move, offer or end, and the chat lines and the opponent leaving
//!   and coming back as the script says; closed when the game is over.
//! - `POST /api/board/game/{id}/move/{uci}`, `…/draw/{yes|no}`,
//!   `…/takeback/{yes|no}`, `…/resign`, `…/abort`, `…/claim-victory`.
//! - Faults on request: the next answers can be given status codes (a
//!   429, a 500) instead.
//!
//! The opponent plays the moves of a script, each after its delay, on a
//! thread of its own, and resigns when it has none left. A script entry
//! beginning with `@` is an act, done when due whoever is to move (each
//! delay counts from the game's last change: a move, an act, a takeback):
//! `@draw` (offers a draw, or accepts the account's), `@takeback` (asks to
//! take back his last move, or agrees to the account's request), `@gone`
//! and `@back` (leaves the game, claimable at once, and comes back),
//! `@chat:TEXT`, `@resign`, `@wait` (nothing: a pause before the next
//! act). The clocks run as lichess's do: the side to move's time goes
//! down by the time it took, the increment is added after its move, and a
//! flag falls when a time reaches nought (`outoftime`).

#![allow(dead_code)]

use std::collections::{BTreeMap, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Position};

/// The account the token belongs to.
pub const ME: &str = "anna";
/// The opponent a seek finds.
pub const OPPONENT: &str = "bert";

/// One game on the server.
#[derive(Debug, Clone)]
pub struct Game {
    pub id: String,
    /// The colour the account plays.
    pub mine: Color,
    pub moves: Vec<String>,
    pub position: Chess,
    pub initial_ms: u64,
    pub increment_ms: u64,
    pub wtime: u64,
    pub btime: u64,
    /// When the side to move began to think.
    pub since: Instant,
    /// The last change of the game (a move, an act, a takeback): the
    /// script's delays count from it.
    pub last: Instant,
    pub status: String,
    pub winner: Option<Color>,
    pub draw: Option<Color>,
    pub takeback: Option<Color>,
    /// The game stream's lines after `gameFull`: a state at each change.
    pub states: usize,
    /// The opponent's moves to come, each with how long he thinks.
    pub script: VecDeque<(String, Duration)>,
    /// An AI opponent's level, or none for a person.
    pub ai: Option<u8>,
    /// Lines the game's stream sends before its next state (chat, the
    /// opponent gone).
    pub lines: VecDeque<String>,
    /// How the game was made, as lila's `source` says: `lobby` (a seek),
    /// `friend` (a challenge), `ai`.
    pub source: &'static str,
    /// Days a move in a correspondence game (no clock), or none.
    pub days: Option<u32>,
}

/// lila's speed of a clock (chess `Speed`): by its estimated time,
/// `limit + 40 × increment` seconds.
pub fn speed_of(limit_s: u64, increment_s: u64) -> &'static str {
    match limit_s + 40 * increment_s {
        0..30 => "ultraBullet",
        30..180 => "bullet",
        180..480 => "blitz",
        480..1500 => "rapid",
        _ => "classical",
    }
}

impl Game {
    fn side(&self, c: Color) -> &'static str {
        match c {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The clocks now: the side to move's time goes down while it thinks.
    fn clocks(&self) -> (u64, u64) {
        let spent = if self.status == "started" && !self.moves.is_empty() {
            self.since.elapsed().as_millis() as u64
        } else {
            0
        };
        match self.position.turn() {
            Color::White => (self.wtime.saturating_sub(spent), self.btime),
            Color::Black => (self.wtime, self.btime.saturating_sub(spent)),
        }
    }

    /// The `gameState` line, as the spec's GameStateEvent has it.
    pub fn state_json(&self) -> String {
        let (wtime, btime) = self.clocks();
        let mut line = format!(
            r#"{{"type":"gameState","moves":"{}","wtime":{wtime},"btime":{btime},"winc":{inc},"binc":{inc},"status":"{}""#,
            self.moves.join(" "),
            self.status,
            inc = self.increment_ms
        );
        if let Some(w) = self.winner {
            line.push_str(&format!(r#","winner":"{}""#, self.side(w)));
        }
        if let Some(d) = self.draw {
            line.push_str(&format!(r#","{}draw":true"#, &self.side(d)[..1]));
        }
        if let Some(t) = self.takeback {
            line.push_str(&format!(r#","{}takeback":true"#, &self.side(t)[..1]));
        }
        line.push('}');
        line
    }

    fn player_json(&self, c: Color) -> String {
        if c == self.mine {
            format!(r#"{{"id":"{ME}","name":"Anna","title":null,"rating":1650}}"#)
        } else if let Some(level) = self.ai {
            // lila's BotJsonView writes its AI by its level alone.
            format!(r#"{{"aiLevel":{level}}}"#)
        } else {
            format!(r#"{{"id":"{OPPONENT}","name":"Bert","title":null,"rating":1702}}"#)
        }
    }

    /// The game's speed, as lila names it.
    pub fn speed(&self) -> &'static str {
        match self.days {
            Some(_) => "correspondence",
            None => speed_of(self.initial_ms / 1000, self.increment_ms / 1000),
        }
    }

    /// The `gameFull` line, as the spec's GameFullEvent has it: a
    /// correspondence game has no clock, its days a move instead.
    pub fn full_json(&self) -> String {
        let clock = match self.days {
            Some(days) => format!(r#""daysPerTurn":{days}"#),
            None => format!(
                r#""clock":{{"initial":{},"increment":{}}}"#,
                self.initial_ms, self.increment_ms
            ),
        };
        let speed = self.speed();
        let mut perf = speed.to_string();
        perf[..1].make_ascii_uppercase();
        format!(
            r#"{{"type":"gameFull","id":"{}","variant":{{"key":"standard","name":"Standard","short":"Std"}},{clock},"speed":"{speed}","perf":{{"name":"{perf}"}},"rated":false,"createdAt":1764000000000,"white":{},"black":{},"initialFen":"startpos","state":{}}}"#,
            self.id,
            self.player_json(Color::White),
            self.player_json(Color::Black),
            self.state_json()
        )
    }

    /// The `gameStart` line of the event stream (GameStartEvent, as lila's
    /// game JsonView `ownerPreview` and EventStream write it: its
    /// `source`, `speed`, and `compat` for the Board API; lichess's AI as
    /// an opponent with no id, its name and its level).
    pub fn start_json(&self) -> String {
        let opponent = match self.ai {
            Some(level) => {
                format!(r#"{{"id":null,"username":"Stockfish level {level}","ai":{level}}}"#)
            }
            None => format!(r#"{{"id":"{OPPONENT}","username":"Bert","rating":1702}}"#),
        };
        let speed = self.speed();
        format!(
            r#"{{"type":"gameStart","game":{{"fullId":"{id}abcd","gameId":"{id}","fen":"{}","color":"{}","lastMove":"","source":"{}","status":{{"id":20,"name":"started"}},"variant":{{"key":"standard","name":"Standard"}},"speed":"{speed}","perf":"{speed}","rated":false,"hasMoved":{},"opponent":{opponent},"isMyTurn":{},"secondsLeft":{},"compat":{{"bot":false,"board":true}},"id":"{id}"}}}}"#,
            shakmaty::fen::Fen::from_position(&self.position, shakmaty::EnPassantMode::Legal),
            self.side(self.mine),
            self.source,
            !self.moves.is_empty(),
            self.position.turn() == self.mine,
            self.days
                .map_or(self.initial_ms / 1000, |d| u64::from(d) * 86_400),
            id = self.id
        )
    }

    /// Plays `uci` if it is legal here; the clocks and the end follow.
    fn play(&mut self, uci: &str) -> bool {
        let Ok(m) = uci
            .parse::<UciMove>()
            .map_err(|_| ())
            .and_then(|u| u.to_move(&self.position).map_err(|_| ()))
        else {
            return false;
        };
        let mover = self.position.turn();
        let (wtime, btime) = self.clocks();
        self.wtime = wtime;
        self.btime = btime;
        if !self.moves.is_empty() {
            match mover {
                Color::White => self.wtime += self.increment_ms,
                Color::Black => self.btime += self.increment_ms,
            }
        }
        self.position.play_unchecked(m);
        self.moves
            .push(m.to_uci(CastlingMode::Standard).to_string());
        self.since = Instant::now();
        self.last = self.since;
        self.draw = None;
        self.takeback = None;
        if self.position.is_checkmate() {
            self.status = "mate".into();
            self.winner = Some(mover);
        } else if self.position.is_stalemate() {
            self.status = "stalemate".into();
        }
        true
    }

    /// Takes back `color`'s last move (and the move after it, if any).
    fn undo(&mut self, color: Color) {
        let start_turn = Color::White;
        while let Some(last) = self.moves.len().checked_sub(1) {
            // The mover of the last move: White moved the odd plies.
            let mover = if last % 2 == 0 {
                start_turn
            } else {
                !start_turn
            };
            self.moves.pop();
            if mover == color {
                break;
            }
        }
        let mut pos = Chess::default();
        for m in &self.moves {
            if let Ok(m) = m
                .parse::<UciMove>()
                .map_err(|_| ())
                .and_then(|u| u.to_move(&pos).map_err(|_| ()))
            {
                pos.play_unchecked(m);
            }
        }
        self.position = pos;
        self.since = Instant::now();
        self.last = self.since;
        self.takeback = None;
        self.draw = None;
    }

    fn end(&mut self, status: &str, winner: Option<Color>) {
        self.status = status.into();
        self.winner = winner;
        self.draw = None;
        self.takeback = None;
    }
}

/// What the server holds.
#[derive(Debug, Default)]
pub struct State {
    pub token: String,
    /// The event stream's lines, in order.
    pub events: Vec<String>,
    pub games: BTreeMap<String, Game>,
    /// Every request, as `METHOD path`, for the tests to read.
    pub requests: Vec<String>,
    /// Every request with the path template of lichess's description it
    /// answers to (`/api/board/game/{gameId}/move/{move}`) and its form.
    pub asked: Vec<(String, String, String)>,
    /// Everything the server sent but keep-alive lines: the schema of
    /// lichess's description it stands for, and the JSON.
    pub sent: Vec<(String, String)>,
    /// Each stream line as it was written: the machine clock's instant
    /// (seconds since the epoch) and the line.
    pub written_at: Vec<(f64, String)>,
    /// Each request as it came: the instant and `METHOD path`.
    pub received_at: Vec<(f64, String)>,
    /// Status codes to answer the next requests with, instead.
    pub faults: VecDeque<u16>,
    /// The same, for the next streams opened only.
    pub stream_faults: VecDeque<u16>,
    /// The same, each for the next request whose `METHOD path` begins so.
    pub path_faults: VecDeque<(String, u16)>,
    /// Lines a game's stream sends before its next state (garbage, say).
    pub garbage: VecDeque<String>,
    /// Raised to cut every stream open: each ends at once, unfinished.
    pub cuts: u32,
    /// Raised to close every game's stream open cleanly (its last chunk
    /// written), as lila does for other reasons than the game's end.
    pub closes: u32,
    /// Each game's streams opened so far: lila keeps one stream a game,
    /// colour and User-Agent, and closes the older cleanly when a newer
    /// one opens (modules/bot GameStateStream: its channel
    /// `gameStreamFor:{fullId}:{userAgent}`).
    pub game_streams: BTreeMap<String, u32>,
    /// Game streams opened, all games together.
    pub game_streams_opened: u32,
    /// While set, the streams say nothing, not even keep-alive lines, and
    /// a stream opened meanwhile gets no answer.
    pub silent: bool,
    /// The script the next game's opponent plays.
    pub script: VecDeque<(String, Duration)>,
    /// Challenges to the account not yet answered: their clock and the
    /// challenger's colour.
    pub challenges: BTreeMap<String, (u64, u64, String)>,
    /// The number of the last game made.
    next_id: u32,
    stopping: bool,
}

struct Shared {
    state: Mutex<State>,
    changed: Condvar,
    keep_alive: Duration,
}

/// The running server; stopped when dropped.
pub struct Lichess {
    pub addr: SocketAddr,
    shared: Arc<Shared>,
}

impl Lichess {
    /// A server on a free loopback port, answering `token`.
    pub fn start(token: &str, keep_alive: Duration) -> Lichess {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let addr = listener.local_addr().expect("its address");
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                token: token.to_string(),
                ..State::default()
            }),
            changed: Condvar::new(),
            keep_alive,
        });
        let s = shared.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if s.state.lock().map_or(true, |st| st.stopping) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let s = s.clone();
                std::thread::spawn(move || serve(&s, stream));
            }
        });
        let s = shared.clone();
        std::thread::spawn(move || opponent(&s));
        Lichess { addr, shared }
    }

    /// The server's URL, for a client's `server`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The state, to read or to change (wake the streams with
    /// [`Lichess::changed`] after a change).
    pub fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.shared)
    }

    pub fn changed(&self) {
        self.shared.changed.notify_all();
    }

    /// Cuts every stream open, as a network that fails does.
    pub fn cut(&self) {
        self.state().cuts += 1;
        self.changed();
    }

    /// A correspondence game of `days` a move from a friend's challenge,
    /// under way before pegboard came (the account plays White, no move
    /// made): the event stream names it when it opens. Its id.
    pub fn correspondence_under_way(&self, days: u32) -> String {
        let mut st = self.state();
        let script = std::mem::take(&mut st.script);
        let id = start_game(&mut st, Color::White, (0, 0), None, "friend");
        st.script = script;
        if let Some(g) = st.games.get_mut(&id) {
            g.days = Some(days);
            g.wtime = u64::from(days) * 86_400_000;
            g.btime = g.wtime;
        }
        // Its start is no news: it was under way before.
        st.events.clear();
        id
    }

    /// Closes every game's stream open cleanly, its game going on.
    pub fn close_cleanly(&self) {
        self.state().closes += 1;
        self.changed();
    }
}

/// Where `.ci/setup.sh` installs lichess's published types (made by lichess
/// from its OpenAPI description, `@lichess-org/types` on npm) and the
/// TypeScript compiler: `PEGBOARD_NPM`, else `~/.cache/pegboard-npm`.
pub fn npm_dir() -> std::path::PathBuf {
    std::env::var_os("PEGBOARD_NPM")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
                .join(".cache/pegboard-npm")
        })
}

/// A form's fields as the description types them: numbers and switches
/// as such, the rest as text.
fn form_object(body: &str) -> String {
    let fields: Vec<String> = body
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| {
            let v = v.replace('+', " ");
            let value = if v.parse::<f64>().is_ok() || v == "true" || v == "false" {
                v
            } else {
                serde_json::Value::String(v).to_string()
            };
            format!("{}: {value}", serde_json::Value::String(k.to_string()))
        })
        .collect();
    format!("{{{}}}", fields.join(", "))
}

impl Lichess {
    /// Everything the server was asked and sent, held against lichess's
    /// OpenAPI description by the TypeScript compiler on lichess's own
    /// types: each request's path and method must be the description's,
    /// each form its request body's, and each line and answer the schema
    /// it stands for (a missing field, a wrong type or value, a field the
    /// schema does not have). Returns what the compiler found.
    pub fn openapi_problems(&self) -> Vec<String> {
        let npm = npm_dir();
        let types = npm.join("node_modules/@lichess-org/types/lichess-api.d.ts");
        let tsc = npm.join("node_modules/.bin/tsc");
        assert!(
            types.is_file() && tsc.is_file(),
            "{} has no @lichess-org/types and typescript: .ci/setup.sh installs them",
            npm.display()
        );
        let st = self.state();
        let mut ts = String::from(
            "import type { components, paths } from \"@lichess-org/types\";\n\
             type S = components[\"schemas\"];\n\
             type Form<P extends keyof paths> = paths[P] extends { post: { requestBody?: infer B } } \
             ? NonNullable<B> extends { content: { \"application/x-www-form-urlencoded\": infer F } } \
             ? F : never : never;\n\
             // lila writes its AI in a gameFull by its level alone \
             // (modules/bot BotJsonView), where the description's \
             // GameEventPlayer asks for an id and a name: that one \
             // difference is allowed, nothing else.\n\
             type LilaPlayer = S[\"GameEventPlayer\"] | { aiLevel: number };\n\
             type GameFullAsLila = Omit<S[\"GameFullEvent\"], \"white\" | \"black\"> \
             & { white: LilaPlayer; black: LilaPlayer };\n",
        );
        for (i, (method, template, body)) in st.asked.iter().enumerate() {
            let method = method.to_ascii_lowercase();
            ts.push_str(&format!(
                "type R{i} = NonNullable<paths[\"{template}\"][\"{method}\"]>;\n\
                 const r{i}: [R{i}] extends [never] ? never : true = true;\n"
            ));
            if method == "post" && !body.is_empty() {
                ts.push_str(&format!(
                    "const f{i}: Form<\"{template}\"> = {};\n",
                    form_object(body)
                ));
            }
        }
        for (i, (schema, json)) in st.sent.iter().enumerate() {
            if schema.starts_with("paths[") {
                ts.push_str(&format!("const s{i}: {schema} = {json};\n"));
            } else if schema == "GameFullEvent" {
                ts.push_str(&format!("const s{i}: GameFullAsLila = {json};\n"));
            } else {
                ts.push_str(&format!("const s{i}: S[\"{schema}\"] = {json};\n"));
            }
        }
        drop(st);
        let dir = std::env::temp_dir().join(format!(
            "pegboard-openapi-{}-{}",
            std::process::id(),
            self.addr.port()
        ));
        std::fs::create_dir_all(&dir).expect("a folder for the check");
        std::fs::write(dir.join("check.ts"), ts).expect("the check");
        std::fs::write(
            dir.join("tsconfig.json"),
            format!(
                r#"{{"compilerOptions":{{"strict":true,"noEmit":true,"skipLibCheck":true,"noUnusedLocals":false,"types":[],"baseUrl":".","paths":{{"@lichess-org/types":["{}"]}}}},"files":["check.ts"]}}"#,
                types.display()
            ),
        )
        .expect("its configuration");
        let out = std::process::Command::new(&tsc)
            .arg("-p")
            .arg(dir.join("tsconfig.json"))
            .output()
            .expect("tsc runs");
        let found: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect();
        assert!(
            out.status.success() || !found.is_empty(),
            "tsc failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let _ = std::fs::remove_dir_all(&dir);
        found
    }
}

impl Drop for Lichess {
    fn drop(&mut self) {
        self.state().stopping = true;
        self.changed();
        // Wake the accept loop so that it sees the stop.
        let _ = TcpStream::connect(self.addr);
    }
}

/// The server's state, whoever panicked holding it before.
fn lock(shared: &Shared) -> MutexGuard<'_, State> {
    shared
        .state
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The opponent: plays each game's script, each move after its delay.
fn opponent(shared: &Shared) {
    loop {
        let mut st = lock(shared);
        if st.stopping {
            return;
        }
        let mut moved = false;
        for game in st.games.values_mut() {
            if game.status != "started" {
                continue;
            }
            // A flag falls on the server's clock.
            let (w, b) = game.clocks();
            let mover = game.position.turn();
            let timed = game.days.is_none();
            if timed && !game.moves.is_empty() && (if mover == Color::White { w } else { b }) == 0 {
                game.end("outoftime", Some(!mover));
                game.states += 1;
                moved = true;
                continue;
            }
            let act = game
                .script
                .front()
                .filter(|(what, delay)| what.starts_with('@') && game.last.elapsed() >= *delay)
                .map(|(what, _)| what.clone());
            if let Some(act) = act {
                game.script.pop_front();
                act_out(game, &act);
                game.last = Instant::now();
                game.states += 1;
                moved = true;
                continue;
            }
            if game.position.turn() == game.mine
                || game.script.front().is_some_and(|(w, _)| w.starts_with('@'))
            {
                continue;
            }
            let due = game
                .script
                .front()
                .is_some_and(|(_, delay)| game.last.elapsed() >= *delay);
            if due && let Some((uci, _)) = game.script.pop_front() {
                moved |= game.play(&uci);
                game.states += 1;
            } else if game.script.is_empty() && game.last.elapsed() >= Duration::from_millis(200) {
                // Out of moves: the opponent resigns.
                game.end("resign", Some(game.mine));
                game.states += 1;
                moved = true;
            }
        }
        drop(st);
        if moved {
            shared.changed.notify_all();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The opponent's act (a script entry beginning with `@`).
fn act_out(game: &mut Game, act: &str) {
    let them = !game.mine;
    match act {
        "@draw" if game.draw == Some(game.mine) => game.end("draw", None),
        "@draw" => game.draw = Some(them),
        "@takeback" if game.takeback == Some(game.mine) => game.undo(game.mine),
        "@takeback" => game.takeback = Some(them),
        "@gone" => game
            .lines
            .push_back(r#"{"type":"opponentGone","gone":true,"claimWinInSeconds":0}"#.into()),
        "@back" => game
            .lines
            .push_back(r#"{"type":"opponentGone","gone":false}"#.into()),
        "@resign" => game.end("resign", Some(game.mine)),
        // Waits (the opponent resigns only when his script is empty).
        "@wait" => {}
        _ => {
            if let Some(text) = act.strip_prefix("@chat:") {
                game.lines.push_back(format!(
                    r#"{{"type":"chatLine","room":"player","username":"Bert","text":{}}}"#,
                    serde_json::Value::String(text.into())
                ));
            }
        }
    }
}

/// A request: its method, path, headers and body.
struct Request {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: String,
}

fn read_request(stream: &mut BufReader<TcpStream>) -> Option<Request> {
    let mut line = String::new();
    stream.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        stream.read_line(&mut h).ok()?;
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':')?;
        headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
    }
    let length = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    stream.read_exact(&mut body).ok()?;
    Some(Request {
        method,
        path,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

/// The schema of lichess's description a line or an answer stands for.
fn schema_of(json: &str, status: u16) -> &'static str {
    let kind = serde_json::from_str::<serde_json::Value>(json)
        .ok()
        .and_then(|v| v.get("type").and_then(|t| t.as_str()).map(str::to_string));
    match (kind.as_deref(), status) {
        (Some("gameFull"), _) => "GameFullEvent",
        (Some("gameState"), _) => "GameStateEvent",
        (Some("gameStart"), _) => "GameStartEvent",
        (Some("gameFinish"), _) => "GameFinishEvent",
        (Some("chatLine"), _) => "ChatLineEvent",
        (Some("opponentGone"), _) => "OpponentGoneEvent",
        (Some("challenge"), _) => "ChallengeEvent",
        (None, 200) if json.contains("\"challenger\"") => "ChallengeJson",
        (_, 200) => "Ok",
        (_, 404) => "NotFound",
        _ => "Error",
    }
}

fn keep(shared: &Shared, json: &str, status: u16) {
    if json.trim().is_empty() {
        return;
    }
    let mut st = lock(shared);
    st.sent
        .push((schema_of(json, status).to_string(), json.to_string()));
}

/// Keeps `json` as standing for `schema` (a schema's name, or a type of
/// the description's `paths`).
fn keep_as(shared: &Shared, json: &str, schema: &str) {
    lock(shared)
        .sent
        .push((schema.to_string(), json.to_string()));
}

fn answer(shared: &Shared, stream: &mut TcpStream, status: u16, body: &str) {
    keep(shared, body, status);
    write_answer(stream, status, body);
}

fn write_answer(stream: &mut TcpStream, status: u16, body: &str) {
    let reason = match status {
        200 => "OK",
        201 => "Created",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        429 => "Too Many Requests",
        _ => "Error",
    };
    let _ = write!(
        stream,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
}

/// A streamed NDJSON answer: the head, then each line as a chunk.
fn stream_head(stream: &mut TcpStream) -> bool {
    write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\
         Connection: close\r\n\r\n"
    )
    .is_ok()
}

fn chunk(shared: &Shared, stream: &mut TcpStream, line: &str) -> bool {
    keep(shared, line, 200);
    let data = format!("{line}\n");
    let written =
        write!(stream, "{:x}\r\n{data}\r\n", data.len()).is_ok() && stream.flush().is_ok();
    if written && !line.is_empty() {
        lock(shared).written_at.push((epoch(), line.to_string()));
    }
    written
}

/// The machine clock now, in seconds since the epoch.
pub fn epoch() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

fn end_stream(stream: &mut TcpStream) {
    let _ = write!(stream, "0\r\n\r\n");
}

fn form(body: &str, key: &str) -> Option<String> {
    body.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (k == key).then(|| v.replace('+', " "))
    })
}

fn serve(shared: &Shared, stream: TcpStream) {
    let Ok(mut write) = stream.try_clone() else {
        return;
    };
    let mut read = BufReader::new(stream);
    let Some(req) = read_request(&mut read) else {
        return;
    };
    {
        let mut st = lock(shared);
        st.requests.push(format!("{} {}", req.method, req.path));
        st.received_at
            .push((epoch(), format!("{} {}", req.method, req.path)));
        let bearer = req
            .headers
            .iter()
            .find(|(k, _)| k == "authorization")
            .map(|(_, v)| v.clone());
        if bearer.as_deref() != Some(&format!("Bearer {}", st.token)) {
            drop(st);
            return answer(shared, &mut write, 401, r#"{"error":"No such token"}"#);
        }
        let code = match req.method.as_str() {
            "GET" => st.stream_faults.pop_front(),
            _ => None,
        };
        let asked = format!("{} {}", req.method, req.path);
        let by_path = st
            .path_faults
            .iter()
            .position(|(prefix, _)| asked.starts_with(prefix.as_str()))
            .and_then(|i| st.path_faults.remove(i))
            .map(|(_, code)| code);
        if let Some(code) = by_path.or(code).or_else(|| st.faults.pop_front()) {
            drop(st);
            // lila's words for a 429 (ResponseBuilder's rate limit).
            let body = match code {
                429 => r#"{"error":"Too many requests. Try again later."}"#,
                _ => r#"{"error":"Try again later"}"#,
            };
            return answer(shared, &mut write, code, body);
        }
    }
    let path = req.path.split('?').next().unwrap_or("").to_string();
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    lock(shared)
        .asked
        .push((req.method.clone(), template(&segments), req.body.clone()));
    match (req.method.as_str(), segments.as_slice()) {
        ("GET", ["api", "stream", "event"]) => event_stream(shared, &mut write),
        ("GET", ["api", "account"]) => account(shared, &mut write),
        ("POST", ["api", "board", "seek"]) => seek(shared, &mut write, &req.body),
        ("POST", ["api", "challenge", "ai"]) => challenge_ai(shared, &mut write, &req.body),
        ("POST", ["api", "challenge", id, "accept"]) => accept(shared, &mut write, id),
        ("POST", ["api", "challenge", username]) => {
            challenge(shared, &mut write, username, &req.body)
        }
        ("GET", ["api", "board", "game", "stream", id]) => game_stream(shared, &mut write, id),
        ("POST", ["api", "board", "game", id, action @ ..]) => {
            let (code, body) = game_action(&mut lock(shared), id, action);
            shared.changed.notify_all();
            answer(shared, &mut write, code, &body);
        }
        _ => answer(shared, &mut write, 404, r#"{"error":"Not found"}"#),
    }
}

/// The path template of lichess's description a request's path answers
/// to: its ids and moves as the description names them.
fn template(segments: &[&str]) -> String {
    let named: Vec<String> = match segments {
        ["api", "board", "game", "stream", _] => vec!["api/board/game/stream/{gameId}".into()],
        ["api", "board", "game", _, "move", _] => {
            vec!["api/board/game/{gameId}/move/{move}".into()]
        }
        ["api", "board", "game", _, "draw" | "takeback", _] => vec![format!(
            "api/board/game/{{gameId}}/{}/{{accept}}",
            segments[4]
        )],
        ["api", "board", "game", _, action] => {
            vec![format!("api/board/game/{{gameId}}/{action}")]
        }
        ["api", "challenge", "ai"] => vec!["api/challenge/ai".into()],
        ["api", "challenge", _, "accept"] => vec!["api/challenge/{challengeId}/accept".into()],
        ["api", "challenge", _] => vec!["api/challenge/{username}".into()],
        other => other.iter().map(|s| s.to_string()).collect(),
    };
    format!("/{}", named.join("/"))
}

/// A move, an offer or an answer, a resignation, an abort, a claim.
fn game_action(st: &mut State, id: &str, action: &[&str]) -> (u16, String) {
    let Some(game) = st.games.get_mut(id) else {
        return (404, r#"{"error":"No such game"}"#.into());
    };
    let ok = (200, r#"{"ok":true}"#.to_string());
    let refused = |why: &str| (400, format!(r#"{{"error":"{why}"}}"#));
    if game.status != "started" {
        return refused("This game is already over");
    }
    let me = game.mine;
    match action {
        ["move", uci] => {
            if game.position.turn() != me {
                return refused("Not your turn, or game already over");
            }
            if !game.play(uci) {
                return refused(&format!("Invalid move: {uci}"));
            }
        }
        // A draw offered by the opponent is accepted; else it is offered.
        ["draw", "yes"] if game.draw == Some(!me) => game.end("draw", None),
        ["draw", "yes"] => game.draw = Some(me),
        ["draw", "no"] => game.draw = None,
        ["takeback", "yes"] if game.takeback == Some(!me) => game.undo(!me),
        ["takeback", "yes"] => game.takeback = Some(me),
        ["takeback", "no"] => game.takeback = None,
        ["resign"] => game.end("resign", Some(!me)),
        ["abort"] if game.moves.len() < 2 => game.end("aborted", None),
        ["abort"] => return refused("This game can no longer be aborted"),
        ["claim-victory"] => game.end("timeout", Some(me)),
        _ => return (404, r#"{"error":"Not found"}"#.into()),
    }
    game.states += 1;
    ok
}

/// Waits while the server is silent (a stream opened meanwhile gets no
/// answer at all); false if the server stops.
fn until_heard(shared: &Shared) -> bool {
    loop {
        let st = lock(shared);
        if st.stopping {
            return false;
        }
        if !st.silent {
            return true;
        }
        drop(st);
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The event stream: each game under way, then each new event.
fn event_stream(shared: &Shared, out: &mut TcpStream) {
    if !until_heard(shared) || !stream_head(out) {
        return;
    }
    let mut st = lock(shared);
    let mut sent = st.events.len();
    let open: Vec<String> = st
        .games
        .values()
        .filter(|g| g.status == "started")
        .map(Game::start_json)
        .collect();
    drop(st);
    for line in open {
        if !chunk(shared, out, &line) {
            return;
        }
    }
    let cuts = lock(shared).cuts;
    loop {
        st = lock(shared);
        if st.stopping {
            return end_stream(out);
        }
        if st.cuts != cuts {
            // Cut: the connection closes mid-stream.
            return;
        }
        if st.silent {
            drop(st);
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        let new: Vec<String> = st.events[sent..].to_vec();
        sent = st.events.len();
        if new.is_empty() {
            let (guard, _) = shared
                .changed
                .wait_timeout(st, shared.keep_alive)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            drop(guard);
            if !chunk(shared, out, "") {
                return;
            }
            continue;
        }
        drop(st);
        for line in new {
            if !chunk(shared, out, &line) {
                return;
            }
        }
    }
}

/// A new game of `minutes` + `increment` in which the account plays
/// `mine`, against the AI at `ai` or a person; its `gameStart` goes on the
/// event stream. Returns its id.
fn start_game(
    st: &mut State,
    mine: Color,
    (minutes, increment): (u64, u64),
    ai: Option<u8>,
    source: &'static str,
) -> String {
    st.next_id += 1;
    let id = format!("game{:04}", st.next_id);
    let script = std::mem::take(&mut st.script);
    let game = Game {
        id: id.clone(),
        mine,
        moves: Vec::new(),
        position: Chess::default(),
        initial_ms: minutes * 60_000,
        increment_ms: increment * 1000,
        wtime: minutes * 60_000,
        btime: minutes * 60_000,
        since: Instant::now(),
        last: Instant::now(),
        status: "started".into(),
        winner: None,
        draw: None,
        takeback: None,
        states: 0,
        script,
        ai,
        lines: VecDeque::new(),
        source,
        days: None,
    };
    st.events.push(game.start_json());
    st.games.insert(id.clone(), game);
    id
}

/// The colour a form's `color` gives the account (random: White).
fn color_asked(body: &str, key: &str) -> Color {
    match form(body, key).as_deref() {
        Some("black") => Color::Black,
        _ => Color::White,
    }
}

/// A seek: held open, then the opponent is found and the game starts.
fn seek(shared: &Shared, out: &mut TcpStream, body: &str) {
    let minutes: u64 = form(body, "time")
        .and_then(|t| t.parse().ok())
        .unwrap_or(15);
    let increment: u64 = form(body, "increment")
        .and_then(|t| t.parse().ok())
        .unwrap_or(10);
    let mine = color_asked(body, "color");
    if !stream_head(out) {
        return;
    }
    // A moment in the lobby.
    let _ = chunk(shared, out, "");
    std::thread::sleep(Duration::from_millis(200));
    start_game(&mut lock(shared), mine, (minutes, increment), None, "lobby");
    shared.changed.notify_all();
    end_stream(out);
}

/// A clock from a challenge's form: minutes and seconds a move.
fn challenge_clock(body: &str) -> (u64, u64) {
    let limit: u64 = form(body, "clock.limit")
        .and_then(|t| t.parse().ok())
        .unwrap_or(900);
    let increment = form(body, "clock.increment")
        .and_then(|t| t.parse().ok())
        .unwrap_or(10);
    (limit / 60, increment)
}

/// A game against the AI: started at once (201, the game).
fn challenge_ai(shared: &Shared, out: &mut TcpStream, body: &str) {
    let level: u8 = form(body, "level")
        .and_then(|t| t.parse().ok())
        .unwrap_or(1);
    let (minutes, increment) = challenge_clock(body);
    let mine = color_asked(body, "color");
    let id = start_game(
        &mut lock(shared),
        mine,
        (minutes, increment),
        Some(level),
        "ai",
    );
    shared.changed.notify_all();
    let side = if mine == Color::White {
        "white"
    } else {
        "black"
    };
    let json = format!(
        r#"{{"id":"{id}","variant":{{"key":"standard","name":"Standard","short":"Std"}},"speed":"rapid","perf":"rapid","rated":false,"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","turns":0,"source":"ai","status":{{"id":20,"name":"started"}},"createdAt":1764000000000,"player":"{side}","fullId":"{id}abcd"}}"#
    );
    keep_as(shared, &json, AI_GAME);
    write_answer(out, 201, &json);
}

/// The description's answer to a game against the AI.
const AI_GAME: &str =
    r#"paths["/api/challenge/ai"]["post"]["responses"][201]["content"]["application/json"]"#;

/// A challenge as lichess describes it (ChallengeJson): from `from` to
/// `to`, at `minutes` + `increment`, the challenger's `color`.
fn challenge_json(
    id: &str,
    (from, to): (&str, &str),
    (minutes, increment): (u64, u64),
    color: &str,
) -> String {
    let user = |name: &str| {
        format!(
            r#"{{"id":"{}","name":"{name}","rating":1702}}"#,
            name.to_ascii_lowercase()
        )
    };
    format!(
        r#"{{"id":"{id}","url":"http://lichess.test/{id}","status":"created","challenger":{},"destUser":{},"variant":{{"key":"standard","name":"Standard","short":"Std"}},"rated":false,"speed":"rapid","timeControl":{{"type":"clock","limit":{},"increment":{increment},"show":"{minutes}+{increment}"}},"color":"{color}","perf":{{"icon":"R","name":"Rapid"}}}}"#,
        user(from),
        user(to),
        minutes * 60
    )
}

/// A challenge to `username`: he accepts a moment later and the game
/// starts.
fn challenge(shared: &Shared, out: &mut TcpStream, username: &str, body: &str) {
    let clock = challenge_clock(body);
    let color = form(body, "color").unwrap_or_else(|| "random".into());
    let mine = color_asked(body, "color");
    let json = challenge_json("chal0001", ("Anna", username), clock, &color);
    answer(shared, out, 200, &json);
    std::thread::sleep(Duration::from_millis(200));
    start_game(&mut lock(shared), mine, clock, None, "friend");
    shared.changed.notify_all();
}

impl Lichess {
    /// A challenge from `from` to the account, on the event stream, at
    /// `minutes` + `increment`; `from` plays `color`. Returns its id.
    pub fn challenge_from(&self, from: &str, minutes: u64, increment: u64, color: &str) -> String {
        let mut st = self.state();
        st.next_id += 1;
        let id = format!("chal{:04}", st.next_id);
        let json = challenge_json(&id, (from, "Anna"), (minutes, increment), color);
        st.events
            .push(format!(r#"{{"type":"challenge","challenge":{json}}}"#));
        st.challenges
            .insert(id.clone(), (minutes, increment, color.to_string()));
        drop(st);
        self.changed();
        id
    }
}

/// A challenge to the account accepted: the game starts.
fn accept(shared: &Shared, out: &mut TcpStream, id: &str) {
    let mut st = lock(shared);
    let Some((minutes, increment, color)) = st.challenges.remove(id) else {
        drop(st);
        return answer(shared, out, 404, r#"{"error":"No such challenge"}"#);
    };
    // The account plays the colour the challenger did not take.
    let mine = if color == "white" {
        Color::Black
    } else {
        Color::White
    };
    start_game(&mut st, mine, (minutes, increment), None, "friend");
    drop(st);
    shared.changed.notify_all();
    answer(shared, out, 200, r#"{"ok":true}"#);
}

/// A game's stream: the whole game, then a state at each change; closed
/// when the game is over.
fn game_stream(shared: &Shared, out: &mut TcpStream, id: &str) {
    if !until_heard(shared) {
        return;
    }
    let Some(game) = lock(shared).games.get(id).cloned() else {
        return answer(shared, out, 404, r#"{"error":"No such game"}"#);
    };
    if !stream_head(out) || !chunk(shared, out, &game.full_json()) {
        return;
    }
    let mut seen = game.states;
    let mut over = game.status != "started";
    let (cuts, closes, mine) = {
        let mut st = lock(shared);
        st.game_streams_opened += 1;
        let n = st.game_streams.entry(id.to_string()).or_insert(0);
        *n += 1;
        let n = *n;
        (st.cuts, st.closes, n)
    };
    // A newer stream for the game closes this one.
    shared.changed.notify_all();
    while !over {
        let st = lock(shared);
        if st.stopping {
            break;
        }
        if st.cuts != cuts {
            // Cut: the connection closes mid-stream.
            return;
        }
        if st.closes != closes || st.game_streams.get(id) != Some(&mine) {
            // Closed cleanly, the game going on: asked for, or a newer
            // stream opened for the same game.
            break;
        }
        if st.silent {
            drop(st);
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        let (st, _) = shared
            .changed
            .wait_timeout(st, shared.keep_alive)
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let Some(game) = st.games.get(id).cloned() else {
            break;
        };
        drop(st);
        if game.states == seen {
            if !chunk(shared, out, "") {
                return;
            }
            continue;
        }
        seen = game.states;
        over = game.status != "started";
        let extra: Vec<String> = lock(shared)
            .games
            .get_mut(id)
            .map(|g| g.lines.drain(..).collect())
            .unwrap_or_default();
        for line in extra {
            if !chunk(shared, out, &line) {
                return;
            }
        }
        let garbage: Vec<String> = lock(shared).garbage.drain(..).collect();
        for line in garbage {
            if write!(out, "{:x}\r\n{line}\n\r\n", line.len() + 1).is_err() {
                return;
            }
        }
        if !chunk(shared, out, &game.state_json()) {
            return;
        }
    }
    end_stream(out);
}

// `GET /api/account`, as lila answers it: lila's app/controllers/Account.scala
// (`apiMe`, a scoped action that any token may call) writes the account, a
// UserExtended; lila's LilaController and modules/oauth OAuthServer
// (`responseHeaders`) add the token's scopes to every scoped answer as
// `X-OAuth-Scopes` (their keys, joined by ", ", as OAuthScope.keyList
// writes them). A token lila does not know never comes here: serve's
// bearer check answers it with lila's 401 `{"error":"No such token"}`.

/// The scopes of each test lichess's token, by the server's port: none
/// there is `board:play` alone.
static TOKEN_SCOPES: Mutex<BTreeMap<u16, String>> = Mutex::new(BTreeMap::new());

impl Lichess {
    /// Gives the token `scopes` (lila's keys, ", " between them; "" for
    /// none) in place of `board:play`.
    pub fn token_scopes(&self, scopes: &str) {
        TOKEN_SCOPES
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .insert(self.addr.port(), scopes.to_string());
    }
}

/// The account the token belongs to, with the token's scopes.
fn account(shared: &Shared, out: &mut TcpStream) {
    let port = out.local_addr().map_or(0, |a| a.port());
    let scopes = TOKEN_SCOPES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .get(&port)
        .cloned()
        .unwrap_or_else(|| "board:play".into());
    let json = format!(
        r#"{{"id":"{ME}","username":"Anna","url":"https://lichess.org/@/Anna","createdAt":1700000000000,"seenAt":1764000000000,"playTime":{{"total":3600,"tv":0}}}}"#
    );
    keep_as(shared, &json, "UserExtended");
    let _ = write!(
        out,
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-OAuth-Scopes: {scopes}\r\n\
         X-Accepted-OAuth-Scopes: \r\nContent-Length: {}\r\nConnection: close\r\n\r\n{json}",
        json.len()
    );
}
