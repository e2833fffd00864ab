//! A lichess for the tests: the part of its Board API pegboard uses,
//! written from lichess's published OpenAPI description (lichess-org/api,
//! doc/specs) and behaving as lila, lichess's server, does where its
//! source says more (each behaviour names the lila file it follows),
//! served over HTTP/1.1 on loopback by plain threads. It keeps the rest of
//! the product out: nothing in src/ uses it.
//!
//! - Every request needs `Authorization: Bearer TOKEN` (else 401).
//! - `GET /api/stream/event`: NDJSON; a `gameStart` for each game under
//!   way and a `challenge` for each challenge to the account pending when
//!   it opens, then each new event; an empty line every `keep_alive`
//!   (lila's: [`LILA_KEEP_ALIVE`]). A newer one closes the older.
//! - `POST /api/board/seek` (form `time`, `increment`, `rated`, `color`,
//!   `days`): refused unless rapid or slower; one at a time; held open (a
//!   blank line every 10 s) until the opponent is found
//!   ([`State::seek_pairs_after`]), then the game starts; `DELETE
//!   /api/board/seek` removes it.
//! - `POST /api/challenge/ai` (form `level`, `clock.limit`, …): the game
//!   against the AI starts at once; `POST /api/challenge/{username}`: the
//!   player challenged answers as [`State::challenge_answers`] says
//!   (`keepAliveStream` honoured); `POST /api/challenge/{id}/accept`,
//!   `…/decline`: a challenge to the account ([`Lichess::challenge_from`])
//!   answered; `…/cancel`: one the account sent withdrawn. After a game
//!   its opponent may offer a rematch ([`Lichess::rematch_from`]).
//! - `GET /api/board/game/stream/{id}`: `gameFull`, then a `gameState` at
//!   each move, offer or end, and the chat lines and the opponent leaving
//!   and coming back as the script says; a blank line every `keep_alive`;
//!   closed when the game is over.
//! - `POST /api/board/game/{id}/move/{uci}`, `…/draw/{yes|no}`,
//!   `…/takeback/{yes|no}`, `…/resign`, `…/abort`, `…/claim-victory`,
//!   `…/claim-draw`, refused in lila's words.
//! - Faults on request: the next answers can be given status codes (a
//!   429, a 500) instead.
//!
//! The opponent plays the moves of a script, each after its delay, on a
//! thread of its own, and resigns when it has none left. A script entry
//! beginning with `@` is an act, done when due whoever is to move (each
//! delay counts from the game's last change: a move, an act, a takeback):
//! `@draw` (offers a draw, or accepts the account's), `@takeback` (asks to
//! take back his last move, or agrees to the account's request),
//! `@gone:N` and `@back` (leaves the game, the win claimable N seconds
//! later; `@gone` is `@gone:0`; and comes back), `@chat:TEXT`, `@resign`,
//! `@wait` (nothing: a pause before the next act). The clocks run as
//! lichess's do: not before both sides have moved, then the side to
//! move's time goes down by the time it took, the increment is added after
//! its move, and a flag falls when a time reaches nought (`outoftime`); a
//! game whose first moves do not come in time is aborted.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// When the side to move began to think: the last move, or the game's
    /// creation (lila's `movedAt`).
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
    /// `pool` (a rated seek of a pool's clock), `friend` (a challenge),
    /// `ai`.
    pub source: &'static str,
    /// Days a move in a correspondence game (no clock), or none.
    pub days: Option<u32>,
    /// Whether the game is rated: as the seek's or the challenge's form
    /// says; lichess's AI never plays rated (modules/setup ApiAiConfig
    /// makes its games casual).
    pub rated: bool,
    /// The opponent gone: since when, and how long after that the win may
    /// be claimed (the script's `@gone:N`).
    pub gone: Option<(Instant, Duration)>,
    /// The ply at which the account last offered a draw (lila's
    /// `drawOffers`, read by `playerHasOfferedDrawRecently`).
    pub offered_draw_at: Option<usize>,
    /// Each position reached, as its EPD (board, side to move, castling,
    /// en passant), for lila's repetitions.
    positions: Vec<String>,
    /// Its variant and start.
    pub start: Start,
    /// Castling written king onto rook in a standard game too.
    king_onto_rook: bool,
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

/// The order of lila's speeds (chess `Speed`), slowest last.
fn speed_rank(speed: &str) -> u8 {
    match speed {
        "ultraBullet" => 0,
        "bullet" => 1,
        "blitz" => 2,
        "rapid" => 3,
        "classical" => 4,
        _ => 5,
    }
}

/// What a game starts from: lila's variant (`standard`, `chess960`, or
/// `fromPosition`: standard chess from a set position) and its initial
/// FEN (none: the standard start).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Start {
    pub variant: &'static str,
    pub fen: Option<String>,
}

impl Default for Start {
    fn default() -> Self {
        Start {
            variant: "standard",
            fen: None,
        }
    }
}

impl Start {
    /// Chess960 start number `n` (Scharnagl's), as lila writes its FEN
    /// (scalachess Chess960 `positionNumber`, the castling rights written
    /// `KQkq` when the rooks are the outermost, as X-FEN does).
    pub fn chess960(n: u32) -> Start {
        let mut setup = shakmaty::Setup::empty();
        setup.board = shakmaty::Board::chess960(n);
        setup.castling_rights = setup.board.rooks();
        let pos: Chess = setup
            .position(CastlingMode::Chess960)
            .expect("a Chess960 start");
        // lila keeps no initial FEN for the standard array (GameRepo
        // `insertDenormalized`): its games say `startpos`.
        let fen = (n != 518).then(|| {
            shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string()
        });
        Start {
            variant: "chess960",
            fen,
        }
    }

    /// Whether `fen` is a Chess960 start (lila's Variant
    /// `isValidInitialFen`): one of the 960 arrays, White to move, nothing
    /// moved.
    fn is_chess960_start(fen: &str) -> bool {
        let Ok(parsed) = fen.parse::<shakmaty::fen::Fen>() else {
            return false;
        };
        let board = &parsed.as_setup().board;
        (0..960).any(|n| shakmaty::Board::chess960(n) == *board)
            && parsed.as_setup().turn == Color::White
    }

    /// A standard game from the set position `fen`.
    pub fn from_position(fen: &str) -> Start {
        Start {
            variant: "fromPosition",
            fen: Some(fen.to_string()),
        }
    }

    /// The start a setup form asks for (lila's SetupForm `variant` and
    /// `fen`): a Chess960 game from the next start the test chose (lila
    /// draws one at random), a game from `fen` (lila makes a standard
    /// game with a FEN other than the start `fromPosition`); a FEN that
    /// is no legal position refused in lila's words.
    fn from_form(body: &str, chess960: u32) -> Result<Start, String> {
        let fen = form(body, "fen").filter(|f| !f.trim().is_empty());
        let standard_start = fen.as_deref().is_some_and(|f| {
            f.split(' ').next() == Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
        });
        match form(body, "variant").as_deref() {
            // The standard start given as a FEN is standard chess.
            None | Some("standard") | Some("fromPosition") if standard_start => {
                Ok(Start::default())
            }
            None | Some("standard") | Some("fromPosition") => match fen {
                None => Ok(Start::default()),
                Some(fen) => {
                    let parsed: Result<Chess, ()> = fen
                        .parse::<shakmaty::fen::Fen>()
                        .map_err(|_| ())
                        .and_then(|f| f.into_position(CastlingMode::Chess960).map_err(|_| ()));
                    match parsed {
                        Ok(_) => Ok(Start::from_position(&fen)),
                        Err(()) => Err("Invalid FEN".into()),
                    }
                }
            },
            // A Chess960 start given is played; another FEN is refused.
            Some("chess960") => match fen {
                None => Ok(Start::chess960(chess960)),
                Some(fen) if Start::is_chess960_start(&fen) => Ok(Start {
                    variant: "chess960",
                    fen: Some(fen),
                }),
                Some(_) => Err("Invalid FEN".into()),
            },
            Some(other) => Err(format!("Invalid variant: {other}")),
        }
    }

    /// The position it starts from.
    pub fn position(&self) -> Chess {
        match &self.fen {
            None => Chess::default(),
            Some(fen) => fen
                .parse::<shakmaty::fen::Fen>()
                .expect("a FEN")
                .into_position(CastlingMode::Chess960)
                .expect("a legal position"),
        }
    }

    /// How lila's Board API writes castling in its moves (scalachess
    /// `UciDump` with `legacyStandardCastling`: the king's two squares in
    /// standard chess alone, the king onto its rook otherwise).
    pub fn castling(&self) -> CastlingMode {
        if self.variant == "standard" {
            CastlingMode::Standard
        } else {
            CastlingMode::Chess960
        }
    }

    /// The `variant` object lila writes (its key, name and short name).
    fn variant_json(&self) -> &'static str {
        match self.variant {
            "chess960" => r#"{"key":"chess960","name":"Chess960","short":"960"}"#,
            "fromPosition" => r#"{"key":"fromPosition","name":"From Position","short":"FEN"}"#,
            _ => r#"{"key":"standard","name":"Standard","short":"Std"}"#,
        }
    }

    /// The `initialFen` lila writes: `startpos`, or the FEN.
    fn initial_fen(&self) -> &str {
        self.fen.as_deref().unwrap_or("startpos")
    }
}

/// A position's EPD: what makes two positions the same for lila's
/// repetitions.
fn epd(position: &Chess) -> String {
    shakmaty::fen::Epd::from_position(position, shakmaty::EnPassantMode::Legal).to_string()
}

impl Game {
    fn side(&self, c: Color) -> &'static str {
        match c {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// Whether the clock runs: lila starts a game's clock only once both
    /// sides have moved (modules/game GameExt `applyMove` and
    /// `startClock`; chess `Clock.step` neither times nor increments a
    /// move while the clock is stopped), so neither first move is timed.
    fn clock_running(&self) -> bool {
        self.status == "started" && self.moves.len() >= 2
    }

    /// The clocks now: the side to move's time goes down while it thinks.
    fn clocks(&self) -> (u64, u64) {
        let spent = if self.clock_running() {
            self.since.elapsed().as_millis() as u64
        } else {
            0
        };
        match self.position.turn() {
            Color::White => (self.wtime.saturating_sub(spent), self.btime),
            Color::Black => (self.wtime, self.btime.saturating_sub(spent)),
        }
    }

    /// Whether the game may still be aborted by the server for want of a
    /// first move (lila's GameExt `expirable`): made by the lobby, a pool,
    /// an arena or a swiss (`Source.expirable`), not both sides moved,
    /// still played, not against the AI, its clock not running.
    pub fn expirable(&self) -> bool {
        matches!(self.source, "lobby" | "pool" | "arena" | "swiss")
            && self.moves.len() < 2
            && self.status == "started"
            && self.ai.is_none()
            && self.days.is_none()
    }

    /// The time a side has for its first move (lila's GameExt
    /// `timeForFirstMove`, outside tournaments): 25 s blitz, 30 s rapid,
    /// 35 s slower.
    pub fn millis_to_move(&self) -> u64 {
        match self.speed() {
            "ultraBullet" => 15_000,
            "bullet" => 20_000,
            "blitz" => 25_000,
            "rapid" => 30_000,
            _ => 35_000,
        }
    }

    /// Whether the Board API plays this game (lila's modules/game Game
    /// `isBoardCompatible`): no clock, or rapid and slower, or blitz when
    /// the game is against the AI or from a challenge.
    pub fn board_compatible(&self) -> bool {
        let speed = speed_rank(self.speed());
        self.days.is_some()
            || speed >= speed_rank("rapid")
            || ((self.ai.is_some() || matches!(self.source, "friend" | "api"))
                && speed >= speed_rank("blitz"))
    }

    /// The `gameState` line, as the spec's GameStateEvent has it (and
    /// lila's BotJsonView `gameState`): with `expiration` while the game
    /// is expirable, `idleMillis` counted from the last move or the
    /// game's creation (lila's JsonView `expiration`).
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
        if self.expirable() {
            line.push_str(&format!(
                r#","expiration":{{"idleMillis":{},"millisToMove":{}}}"#,
                self.since.elapsed().as_millis(),
                self.millis_to_move()
            ));
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
    /// correspondence game has no clock, its days a move instead; `rated`
    /// and `speed` as the game is (lila's BotJsonView `gameImmutable`).
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
            r#"{{"type":"gameFull","id":"{}","variant":{},{clock},"speed":"{speed}","perf":{{"name":"{perf}"}},"rated":{},"createdAt":1764000000000,"white":{},"black":{},"initialFen":"{}","state":{}}}"#,
            self.id,
            self.start.variant_json(),
            self.rated,
            self.player_json(Color::White),
            self.player_json(Color::Black),
            self.start.initial_fen(),
            self.state_json()
        )
    }

    /// The `gameStart` line of the event stream (GameStartEvent, as lila's
    /// game JsonView `ownerPreview` and EventStream write it: its
    /// `source`, `speed`, `rated`, the account's time left, whether the
    /// account has moved, and `compat` for the Board API; lichess's AI as
    /// an opponent with no id, its name and its level).
    pub fn start_json(&self) -> String {
        let opponent = match self.ai {
            Some(level) => {
                format!(r#"{{"id":null,"username":"Stockfish level {level}","ai":{level}}}"#)
            }
            None => format!(r#"{{"id":"{OPPONENT}","username":"Bert","rating":1702}}"#),
        };
        let speed = self.speed();
        let (wtime, btime) = self.clocks();
        let left = if self.mine == Color::White {
            wtime
        } else {
            btime
        };
        // The account's colour has moved once White has, for White; once
        // Black has, for Black (lila's Pov `hasMoved`).
        let moved = self.moves.len() > usize::from(self.mine == Color::Black);
        format!(
            r#"{{"type":"gameStart","game":{{"fullId":"{id}abcd","gameId":"{id}","fen":"{}","color":"{}","lastMove":"{}","source":"{}","status":{{"id":{},"name":"{}"}},"variant":{},"speed":"{speed}","perf":"{speed}","rated":{},"hasMoved":{moved},"opponent":{opponent},"isMyTurn":{},"secondsLeft":{},"compat":{{"bot":false,"board":{}}},"id":"{id}"}}}}"#,
            shakmaty::fen::Fen::from_position(&self.position, shakmaty::EnPassantMode::Legal),
            self.side(self.mine),
            self.moves.last().map_or("", String::as_str),
            self.source,
            status_id(&self.status),
            self.status,
            self.start.variant_json(),
            self.rated,
            self.status == "started" && self.position.turn() == self.mine,
            left / 1000,
            self.board_compatible(),
            id = self.id
        )
    }

    /// Plays `uci` if it is legal here, else says why in lila's words (a
    /// move lila cannot read: round's BotPlayer `Invalid UCI`; a move the
    /// position does not allow: scalachess Variant `move`, whose pawn
    /// reaching the last rank unpromoted becomes a queen). The clocks, the
    /// offers and the end follow.
    fn play(&mut self, uci: &str) -> Result<(), String> {
        let parsed = match uci.parse::<UciMove>() {
            Ok(UciMove::Normal {
                from,
                to,
                promotion,
            }) => (from, to, promotion),
            _ => return Err(format!("Invalid UCI: {uci}")),
        };
        let (from, to, promotion) = parsed;
        let attempt = |promotion| {
            UciMove::Normal {
                from,
                to,
                promotion,
            }
            .to_move(&self.position)
            .ok()
        };
        let Some(m) = attempt(promotion).or_else(|| {
            promotion
                .is_none()
                .then(|| attempt(Some(shakmaty::Role::Queen)))
                .flatten()
        }) else {
            return Err(format!("Piece on {from} cannot move to {to}"));
        };
        let mover = self.position.turn();
        if self.clock_running() {
            let (wtime, btime) = self.clocks();
            self.wtime = wtime;
            self.btime = btime;
            match mover {
                Color::White => self.wtime += self.increment_ms,
                Color::Black => self.btime += self.increment_ms,
            }
        }
        self.position.play_unchecked(m);
        let castling = if self.king_onto_rook {
            CastlingMode::Chess960
        } else {
            self.start.castling()
        };
        self.moves.push(m.to_uci(castling).to_string());
        self.positions.push(epd(&self.position));
        self.since = Instant::now();
        self.last = self.since;
        // A move declines the opponent's draw offer and his takeback
        // proposal (lila's round Player `postHumanOrBotPlay`); the mover's
        // own offer and proposal stand.
        if self.draw == Some(!mover) {
            self.draw = None;
        }
        if self.takeback == Some(!mover) {
            self.takeback = None;
        }
        if self.position.is_checkmate() {
            self.end("mate", Some(mover));
        } else if self.position.is_stalemate() {
            self.end("stalemate", None);
        } else if self.position.is_insufficient_material()
            || self.position.halfmoves() >= 100
            || self.repetitions() >= 5
        {
            // scalachess Variant `autoDraw`: insufficient material, fifty
            // moves, a fivefold repetition end the game drawn.
            self.end("draw", None);
        }
        Ok(())
    }

    /// How often the position now has been reached.
    fn repetitions(&self) -> usize {
        let now = epd(&self.position);
        self.positions.iter().filter(|p| **p == now).count()
    }

    /// The flag falls on the side to move (lila's round Finisher
    /// `outOfTime`): a draw if the other side offers one; else the side to
    /// move loses, the other winning unless it cannot mate
    /// (`opponentHasInsufficientMaterial`).
    fn flag(&mut self) {
        let mover = self.position.turn();
        if self.draw == Some(!mover) {
            self.end("draw", None);
        } else if self.position.has_insufficient_material(!mover) {
            self.end("outoftime", None);
        } else {
            self.end("outoftime", Some(!mover));
        }
    }

    /// Takes back `color`'s last move (and the move after it, if any).
    fn undo(&mut self, color: Color) {
        let start_turn = self.start.position().turn();
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
        let mut pos = self.start.position();
        let mut positions = vec![epd(&pos)];
        for m in &self.moves {
            if let Ok(m) = m
                .parse::<UciMove>()
                .map_err(|_| ())
                .and_then(|u| u.to_move(&pos).map_err(|_| ()))
            {
                pos.play_unchecked(m);
                positions.push(epd(&pos));
            }
        }
        self.position = pos;
        self.positions = positions;
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

/// The id lila gives a game status (chess `Status`).
fn status_id(status: &str) -> u32 {
    match status {
        "created" => 10,
        "started" => 20,
        "aborted" => 25,
        "mate" => 30,
        "resign" => 31,
        "stalemate" => 32,
        "timeout" => 33,
        "draw" => 34,
        "outoftime" => 35,
        "cheat" => 36,
        "noStart" => 37,
        "insufficientMaterialClaim" => 38,
        "unknownFinish" => 50,
        _ => 60,
    }
}

/// lila's round tick: while the opponent is gone, each tells it again.
const GONE_TICK: Duration = Duration::from_secs(5);

/// lila's keep-alive on the event stream and a game's stream: a blank line
/// 7 s after the stream opens, and every 7 s after (modules/api
/// EventStream and modules/bot GameStateStream: `SetOnline` schedules
/// `CheckOnline` 7 s later, which offers the blank line).
pub const LILA_KEEP_ALIVE: Duration = Duration::from_secs(7);

/// lila's keep-alive on a seek's stream: a blank line 10 s after the seek
/// opens, and every 10 s after (modules/lobby BoardApiHookStream
/// `periodicBlankLine`, `scheduleWithFixedDelay(10.seconds, 10.seconds)`).
pub const LILA_SEEK_KEEP_ALIVE: Duration = Duration::from_secs(10);

/// lila's keep-alive on a challenge's `keepAliveStream`: a blank line once
/// nothing was sent for 50 s (modules/web ResponseWriter `ndJson.addKeepAlive`,
/// `keepAlive(50.seconds, ...)`, under Play's idle timeout of 75 s).
pub const LILA_CHALLENGE_KEEP_ALIVE: Duration = Duration::from_secs(50);

/// What a player the account challenges does (lila's challenge, answered
/// by its destination: modules/challenge ChallengeApi `accept` and
/// `decline`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChallengeAnswer {
    /// Accepts it after the time given: the game starts.
    Accept(Duration),
    /// Declines it after the time given, with lila's reason: its `key`
    /// (modules/challenge Challenge `DeclineReason`, lower case: generic,
    /// later, toofast, tooslow, timecontrol, rated, casual, standard,
    /// variant, nobot, onlybot) and its words (see
    /// [`ChallengeAnswer::decline`]).
    Decline {
        after: Duration,
        key: String,
        reason: String,
    },
    /// Never answers it.
    Never,
}

impl ChallengeAnswer {
    /// A decline after `after` for the reason `key`, in lila's English
    /// words for it (translation/source/challenge.xml, `decline*`).
    pub fn decline(after: Duration, key: &str) -> ChallengeAnswer {
        let reason = match key {
            "later" => "This is not the right time for me, please ask again later.",
            "toofast" => {
                "This time control is too fast for me, please challenge again with a slower game."
            }
            "tooslow" => {
                "This time control is too slow for me, please challenge again with a faster game."
            }
            "timecontrol" => "I'm not accepting challenges with this time control.",
            "rated" => "Please send me a rated challenge instead.",
            "casual" => "Please send me a casual challenge instead.",
            "standard" => "I'm not accepting variant challenges right now.",
            "variant" => "I'm not willing to play this variant right now.",
            "nobot" => "I'm not accepting challenges from bots.",
            "onlybot" => "I'm only accepting challenges from bots.",
            _ => "I'm not accepting challenges at the moment.",
        };
        ChallengeAnswer::Decline {
            after,
            key: key.to_string(),
            reason: reason.to_string(),
        }
    }
}

/// What the server holds.
#[derive(Debug, Default)]
pub struct State {
    pub token: String,
    /// The broadcast rounds the token may push to, by id, each with the
    /// pushes taken: when each began (seconds since the epoch) and its
    /// PGN.
    pub broadcast_rounds: BTreeMap<String, Vec<(f64, String)>>,
    /// The token's owner is not a contributor of the broadcast's study:
    /// its pushes are refused (403).
    pub broadcast_not_contributor: bool,
    /// Rounds that read their games from a source URL: a push to one is
    /// answered 200 with one error and no game (lila's RelayPush).
    pub broadcast_upstream: std::collections::BTreeSet<String>,
    /// What each round's broadcast shows, by its games' Round tags: each
    /// push's games as lila keeps them (a game a push leaves out stays as
    /// it was; a game with a side unnamed is dropped, as lila's
    /// RelayGame/RelayInputSanity drop it; at most 100 games are read).
    pub broadcast_shown: BTreeMap<String, BTreeMap<String, String>>,
    /// Pushes being answered now, and the most at once.
    pub pushing: u32,
    pub most_pushing: u32,
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
    /// Each game's streams opened so far.
    pub game_streams: BTreeMap<String, u32>,
    /// Each game stream opened: its game and the User-Agent it came with.
    /// lila keeps one stream a game, colour and User-Agent, and closes the
    /// older cleanly when a newer one opens (modules/bot GameStateStream:
    /// its channel `gameStreamFor:{fullId}:{userAgent}`); streams from two
    /// User-Agents live side by side.
    pub game_stream_agents: Vec<(String, String)>,
    /// The newest stream's number for each game and User-Agent.
    newest_game_stream: BTreeMap<(String, String), u32>,
    /// Game streams opened, all games together.
    pub game_streams_opened: u32,
    /// Event streams opened: lila keeps one a token and closes the older
    /// cleanly when a newer one opens (modules/api EventStream: its
    /// channel `eventStreamForBearer:{bearer}`).
    pub event_streams_opened: u32,
    /// When each event stream was asked for: lila allows 30 in ten minutes
    /// a token, then answers 429 (lila.web Limiters `eventStream`).
    event_stream_asked: Vec<Instant>,
    /// While set, the streams say nothing, not even keep-alive lines, and
    /// a stream opened meanwhile gets no answer.
    pub silent: bool,
    /// Challenges to the account their senders no longer keep alive
    /// (lila's `offline`).
    pub offline_challenges: BTreeSet<String>,
    /// How long after a challenge's outcome its stream's last line
    /// (`{"done":…}`) is written.
    pub challenge_done_after: Duration,
    /// While set, a challenge declined is told on its own stream only
    /// (`{"done":"declined"}`), never on the event stream: as when that
    /// stream was down while lila sent it.
    pub declines_unsaid: bool,
    /// The script the next game's opponent plays.
    pub script: VecDeque<(String, Duration)>,
    /// Challenges to the account not yet answered: their clock and the
    /// challenger's colour.
    pub challenges: BTreeMap<String, (u64, u64, String)>,
    /// The challenger of each challenge to the account.
    challengers: BTreeMap<String, String>,
    /// The challenges to the account that are rematches, with the game
    /// each is a rematch of.
    rematches: BTreeMap<String, String>,
    /// The account's colours in the next games a seek makes when its form
    /// asks no colour (or `random`): lila picks at random (modules/lobby
    /// Biter `assignCreatorColor`, UserApi `firstGetsWhite`), the test
    /// chooses the draw. The front is taken at each pairing; White when
    /// empty.
    pub seek_colors: VecDeque<Color>,
    /// The same for a challenge or a game against the AI asked with the
    /// colour `random` (lila's Challenge `randomColor`, ApiAiConfig).
    pub challenge_colors: VecDeque<Color>,
    /// How long after a seek opens its opponent is found (200 ms unless
    /// the test says).
    pub seek_pairs_after: Duration,
    /// Seeks removed by `DELETE /api/board/seek` before they found an
    /// opponent.
    pub seeks_cancelled: u32,
    /// When each seek's stream closed (seconds since the epoch, as
    /// `received_at`).
    pub seek_closed_at: Vec<f64>,
    /// Whether a seek's stream is open: lila allows one at a time. A
    /// `DELETE /api/board/seek` frees the place at once, as lila's hook
    /// removed ends the seek's stream before its 204 reaches the client.
    pub seeking: bool,
    /// Raised by each seek opened: its stream frees the place only if no
    /// other seek took it meanwhile.
    seek_generation: u32,
    /// Raised by each `DELETE /api/board/seek`.
    seek_cancels: u32,
    /// When the seeks and the games against the AI were asked for: lila
    /// allows 5 a minute an IP (lila.web Limiters `setupPost`).
    setup_posts: Vec<Instant>,
    /// What the next players the account challenges do, in order; when
    /// empty, each accepts 200 ms later.
    pub challenge_answers: VecDeque<ChallengeAnswer>,
    /// Challenges the account sent that lila took.
    pub challenges_sent: u32,
    /// The credit a day for challenges (lila.web Limiters `challengeUser`:
    /// 200 a day, 25 a minute; each challenge costing 5, or nothing to a
    /// player who follows the account: app/controllers Challenge
    /// `apiCreate`). 200 unless the test says.
    pub challenge_day_credit: u32,
    /// The players (lower case) who follow the account.
    pub followed_by: BTreeSet<String>,
    /// The credit spent on challenges, and when.
    challenge_spent: Vec<(Instant, u32)>,
    /// How long a real-time challenge sent without `keepAliveStream` waits
    /// for its answer: lila takes it offline when unseen for 20 s
    /// (modules/challenge ChallengeApi `sweep`). 20 s unless the test says.
    pub challenge_expires_after: Duration,
    /// How each challenge the account sent ended: its id and `accepted`,
    /// `declined`, `canceled` or `offline`.
    pub challenge_outcomes: Vec<(String, String)>,
    /// The challenges the account sent still waiting, and whether each
    /// was cancelled meanwhile.
    sent_challenges: BTreeMap<String, bool>,
    /// Whether a game whose first moves do not come in time is aborted
    /// (lila's round `NoStart`); true unless the test says.
    pub no_start_aborts: bool,
    /// The start number of the next Chess960 game (lila draws one at
    /// random, scalachess Chess960 `pieces`; the test chooses). 518, the
    /// standard array, unless the test says.
    pub chess960_start: u32,
    /// Castling written king onto rook in standard games too, as
    /// lichess's API description says of `gameState.moves` since
    /// September 2025 (scalachess `UciDump` without
    /// `legacyStandardCastling`); lila's Board API has written e1g1.
    pub castling_king_onto_rook: bool,
    /// The days a move of each correspondence challenge to the account
    /// not yet answered.
    pub challenge_days: BTreeMap<String, u32>,
    /// The start of each challenge to the account not yet answered that
    /// is not standard chess from the start.
    pub challenge_starts: BTreeMap<String, Start>,
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
    /// A server on a free loopback port, answering `token`; its event and
    /// game streams send a keep-alive line every `keep_alive` (lila's:
    /// [`LILA_KEEP_ALIVE`]).
    pub fn start(token: &str, keep_alive: Duration) -> Lichess {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let addr = listener.local_addr().expect("its address");
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                token: token.to_string(),
                seek_pairs_after: Duration::from_millis(200),
                challenge_day_credit: 200,
                challenge_expires_after: Duration::from_secs(20),
                no_start_aborts: true,
                chess960_start: 518,
                castling_king_onto_rook: false,
                challenge_days: BTreeMap::new(),
                challenge_starts: BTreeMap::new(),
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
        self.correspondence_under_way_as(days, Color::White)
    }

    /// A correspondence game of `days` a move starting now from the
    /// lobby (a seek of the account's taken by Bert), the account playing
    /// White: its `gameStart` goes on the event stream. Its id.
    pub fn lobby_correspondence_starts(&self, days: u32) -> String {
        let mut st = self.state();
        let id = start_game(
            &mut st,
            NewGame {
                mine: Color::White,
                initial_ms: 0,
                increment_ms: 0,
                days: Some(days),
                ai: None,
                source: "lobby",
                rated: false,
                id: None,
                start: Start::default(),
            },
        );
        drop(st);
        self.changed();
        id
    }

    /// The same, the account playing `mine`.
    pub fn correspondence_under_way_as(&self, days: u32, mine: Color) -> String {
        let mut st = self.state();
        let script = std::mem::take(&mut st.script);
        let id = start_game(
            &mut st,
            NewGame {
                mine,
                initial_ms: 0,
                increment_ms: 0,
                days: Some(days),
                ai: None,
                source: "friend",
                rated: false,
                id: None,
                start: Start::default(),
            },
        );
        st.script = script;
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
             type Text<P extends keyof paths> = paths[P] extends { post: { requestBody?: infer B } } \
             ? NonNullable<B> extends { content: { \"text/plain\": infer T } } \
             ? T : never : never;\n\
             // lila writes its AI in a gameFull by its level alone \
             // (modules/bot BotJsonView), where the description's \
             // GameEventPlayer asks for an id and a name: that \
             // difference is allowed.\n\
             type LilaPlayer = S[\"GameEventPlayer\"] | { aiLevel: number };\n\
             type GameFullAsLila = Omit<S[\"GameFullEvent\"], \"white\" | \"black\"> \
             & { white: LilaPlayer; black: LilaPlayer };\n\
             // lila answers a form it refuses with the form's errors twice \
             // over (lila.web CtrlErrors `doubleJsonFormError`), where the \
             // description's Error has a string.\n\
             type LilaFormError = { global: string[]; error: { global: string[] } };\n\
             // A challenge's keepAliveStream ends with `{\"done\":...}` (the \
             // description's words for `keepAliveStream`; modules/challenge \
             // ChallengeKeepAliveStream).\n\
             type ChallengeDone = { done: \"accepted\" | \"declined\" | \"canceled\" };\n",
        );
        for (i, (method, template, body)) in st.asked.iter().enumerate() {
            if LILA_ONLY.contains(&(method.as_str(), template.as_str())) {
                continue;
            }
            let method = method.to_ascii_lowercase();
            ts.push_str(&format!(
                "type R{i} = NonNullable<paths[\"{template}\"][\"{method}\"]>;\n\
                 const r{i}: [R{i}] extends [never] ? never : true = true;\n"
            ));
            if method == "post" && template.ends_with("/push") {
                // A broadcast's PGN is the body itself, as text.
                ts.push_str(&format!(
                    "const f{i}: Text<\"{template}\"> = {};\n",
                    serde_json::Value::String(body.clone())
                ));
            } else if method == "post" && !body.is_empty() {
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
            } else if schema == "LilaFormError" || schema == "ChallengeDone" {
                ts.push_str(&format!("const s{i}: {schema} = {json};\n"));
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

/// The routes lila serves that the description leaves out: `DELETE
/// /api/board/seek` (lila's conf/routes, app/controllers Setup
/// `boardApiHookCancel`).
const LILA_ONLY: &[(&str, &str)] = &[("DELETE", "/api/board/seek")];

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

/// The opponent: plays each game's script, each move after its delay;
/// lila's server meanwhile flags a time that reaches nought and aborts a
/// game whose first moves do not come in time. Every change wakes the
/// streams.
fn opponent(shared: &Shared) {
    loop {
        let mut st = lock(shared);
        if st.stopping {
            return;
        }
        let no_start_aborts = st.no_start_aborts;
        let mut moved = false;
        for game in st.games.values_mut() {
            if game.status != "started" {
                continue;
            }
            // A flag falls on the server's clock, once it runs.
            let (w, b) = game.clocks();
            let mover = game.position.turn();
            let timed = game.days.is_none();
            if timed && game.clock_running() && (if mover == Color::White { w } else { b }) == 0 {
                game.flag();
                game.states += 1;
                moved = true;
                continue;
            }
            // lila's round `NoStart`: the side to move let its first move's
            // time pass; outside tournaments the game is aborted, with no
            // winner (round Finisher `noStart`: `Aborted` unless the game
            // is mandatory).
            if no_start_aborts
                && game.expirable()
                && game.since.elapsed() >= Duration::from_millis(game.millis_to_move())
            {
                game.end("aborted", None);
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
                moved |= game.play(&uci).is_ok();
                game.states += 1;
            } else if game.script.is_empty() && game.last.elapsed() >= Duration::from_millis(200) {
                // Out of moves: the opponent resigns.
                resign(game, !game.mine);
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

/// `color` resigns: before both sides have moved lila aborts the game
/// instead (modules/bot BotPlayer `resign`: `abortableByUser` first).
fn resign(game: &mut Game, color: Color) {
    if game.moves.len() < 2 {
        game.end("aborted", None);
    } else {
        game.end("resign", Some(!color));
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
        "@back" => {
            game.gone = None;
            game.lines
                .push_back(r#"{"type":"opponentGone","gone":false}"#.into());
        }
        "@resign" => resign(game, them),
        // Waits (the opponent resigns only when his script is empty).
        "@wait" => {}
        _ => {
            if let Some(text) = act.strip_prefix("@chat:") {
                game.lines.push_back(format!(
                    r#"{{"type":"chatLine","room":"player","username":"Bert","text":{}}}"#,
                    serde_json::Value::String(text.into())
                ));
            } else if let Some(seconds) = act
                .strip_prefix("@gone")
                .map(|n| n.strip_prefix(':').unwrap_or(n).parse::<u64>().unwrap_or(0))
            {
                // Gone; the win may be claimed `seconds` later, as lila's
                // opponentGone line says (modules/bot BotJsonView
                // `opponentGoneClaimIn`). lila tells it only in a game whose
                // leaver may be made to resign (its round `Tick`,
                // `forceResignableNow`): no friend's game, no AI's.
                if game.source == "friend" || game.ai.is_some() {
                    return;
                }
                game.gone = Some((Instant::now(), Duration::from_secs(seconds)));
                game.lines.push_back(format!(
                    r#"{{"type":"opponentGone","gone":true,"claimWinInSeconds":{seconds}}}"#
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

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
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
        (Some("challengeDeclined"), _) => "ChallengeDeclinedEvent",
        (Some("challengeCanceled"), _) => "ChallengeCanceledEvent",
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

/// lila's words for a rate limit (lila.web ResponseBuilder
/// `rateLimitedMsg`).
const RATE_LIMITED: &str = r#"{"error":"Too many requests. Try again later."}"#;

fn write_answer(stream: &mut TcpStream, status: u16, body: &str) {
    let reason = match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        413 => "Request Entity Too Large",
        429 => "Too Many Requests",
        _ => "Error",
    };
    let _ = if status == 204 {
        write!(
            stream,
            "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"
        )
    } else {
        write!(
            stream,
            "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
             Connection: close\r\n\r\n{body}",
            body.len()
        )
    };
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
    write_chunk(shared, stream, line)
}

/// A line written as a chunk, kept as standing for `schema`.
fn chunk_as(shared: &Shared, stream: &mut TcpStream, line: &str, schema: &str) -> bool {
    keep_as(shared, line, schema);
    write_chunk(shared, stream, line)
}

fn write_chunk(shared: &Shared, stream: &mut TcpStream, line: &str) -> bool {
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

/// A form's switch as lila reads it (play's `boolean` mapping).
fn form_bool(body: &str, key: &str) -> bool {
    form(body, key).as_deref() == Some("true")
}

/// The colour a form asks (`white`, `black`), or none (`random`, left
/// out).
fn form_color(body: &str, key: &str) -> Option<Color> {
    match form(body, key).as_deref() {
        Some("white") => Some(Color::White),
        Some("black") => Some(Color::Black),
        _ => None,
    }
}

/// Watches the request side of a stream: set once the client closes its
/// connection (lila's stream then completes, its seek or challenge
/// stopped), the streams woken.
fn watch_close(shared: &Arc<Shared>, read: BufReader<TcpStream>) -> Arc<AtomicBool> {
    let closed = Arc::new(AtomicBool::new(false));
    let (s, c) = (shared.clone(), closed.clone());
    std::thread::spawn(move || {
        let mut read = read;
        let mut buf = [0u8; 256];
        while matches!(read.read(&mut buf), Ok(n) if n > 0) {}
        c.store(true, Ordering::SeqCst);
        let _st = lock(&s);
        s.changed.notify_all();
    });
    closed
}

fn serve(shared: &Arc<Shared>, stream: TcpStream) {
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
        let bearer = req.header("authorization").map(str::to_string);
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
            let body = match code {
                429 => RATE_LIMITED,
                // lila's words for a game it does not have (PlayApi).
                404 => r#"{"error":"No such game"}"#,
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
    let agent = req.header("user-agent").unwrap_or("").to_string();
    match (req.method.as_str(), segments.as_slice()) {
        ("GET", ["api", "stream", "event"]) => event_stream(shared, &mut write),
        ("POST", ["api", "broadcast", "round", id, "push"]) => {
            push(shared, &mut write, id, &req.body)
        }
        ("GET", ["api", "account"]) => account(shared, &mut write),
        ("POST", ["api", "board", "seek"]) => seek(shared, &mut write, &req.body, read),
        ("DELETE", ["api", "board", "seek"]) => cancel_seek(shared, &mut write),
        ("POST", ["api", "challenge", "ai"]) => challenge_ai(shared, &mut write, &req.body),
        ("POST", ["api", "challenge", id, "accept"]) => accept(shared, &mut write, id),
        ("POST", ["api", "challenge", id, "decline"]) => decline(shared, &mut write, id, &req.body),
        ("POST", ["api", "challenge", id, "cancel"]) => cancel(shared, &mut write, id),
        ("GET", ["api", "challenge", id, "show"]) => show(shared, &mut write, id),
        ("POST", ["api", "challenge", username]) => {
            challenge(shared, &mut write, username, &req.body, read)
        }
        ("GET", ["api", "board", "game", "stream", id]) => {
            game_stream(shared, &mut write, id, &agent)
        }
        ("POST", ["api", "board", "game", id, action @ ..]) => {
            // lila's BotPlayer waits half a second before a move in a game
            // against its AI.
            if action.first() == Some(&"move")
                && lock(shared).games.get(*id).is_some_and(|g| g.ai.is_some())
            {
                std::thread::sleep(Duration::from_millis(500));
            }
            let (code, body, wait) = game_action(&mut lock(shared), id, action);
            shared.changed.notify_all();
            std::thread::sleep(wait);
            answer(shared, &mut write, code, &body);
        }
        _ => answer(shared, &mut write, 404, r#"{"error":"Not found"}"#),
    }
    // The answer is whole: the connection closes, whoever else holds it.
    let _ = write.shutdown(Shutdown::Both);
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
        ["api", "broadcast", "round", _, "push"] => {
            vec!["api/broadcast/round/{broadcastRoundId}/push".into()]
        }
        [
            "api",
            "challenge",
            _,
            action @ ("accept" | "decline" | "cancel" | "show"),
        ] => {
            vec![format!("api/challenge/{{challengeId}}/{action}")]
        }
        ["api", "challenge", _] => vec!["api/challenge/{username}".into()],
        other => other.iter().map(|s| s.to_string()).collect(),
    };
    format!("/{}", named.join("/"))
}

/// A move, an offer or an answer, a resignation, an abort, a claim, as
/// lila's Board API takes them (app/controllers PlayApi, modules/bot
/// BotPlayer, modules/round Drawer and Takebacker): the answer, and how
/// long lila waits before giving it.
fn game_action(st: &mut State, id: &str, action: &[&str]) -> (u16, String, Duration) {
    let ok = (200, r#"{"ok":true}"#.to_string(), Duration::ZERO);
    let refused = |why: &str| (400, format!(r#"{{"error":"{why}"}}"#), Duration::ZERO);
    // PlayApi `boardCommandPost`: a command lila does not have.
    if !matches!(
        action,
        ["move", _]
            | ["draw" | "takeback", _]
            | ["resign" | "abort" | "claim-victory" | "claim-draw"]
    ) {
        return (404, r#"{"error":"No such command"}"#.into(), Duration::ZERO);
    }
    // PlayApi `WithPov` and `WithPovAsBoard`.
    let Some(game) = st.games.get_mut(id) else {
        return (404, r#"{"error":"No such game"}"#.into(), Duration::ZERO);
    };
    if !game.board_compatible() {
        return refused("This game cannot be played with the Board API.");
    }
    let me = game.mine;
    let playing = game.status == "started";
    let my_turn = playing && game.position.turn() == me;
    let plies = game.moves.len();
    let abortable = playing && plies < 2;
    let drawable = playing && !abortable;
    // lila's Form `trueish`.
    let yes = |answer: &str| matches!(answer, "yes" | "true" | "1");
    match action {
        ["move", uci] => {
            if !matches!(uci.parse::<UciMove>(), Ok(UciMove::Normal { .. })) {
                return refused(&format!("Invalid UCI: {uci}"));
            }
            if !my_turn {
                return refused("Not your turn, or game already over");
            }
            if let Err(why) = game.play(uci) {
                return refused(&why);
            }
        }
        ["draw", answer] if yes(answer) => {
            // BotPlayer `offerDraw`, then Drawer `yes`: a threefold
            // repetition is drawn, the opponent's offer accepted, the
            // opponent without mating material claimed, else the offer
            // made; a player offers once in 20 plies, never before both
            // have moved, never to the AI (GameExt `playerCanOfferDraw`).
            let can_offer = drawable
                && game.draw != Some(me)
                && game.ai.is_none()
                && game.offered_draw_at.is_none_or(|at| at + 20 < plies);
            if !(drawable && (can_offer || game.draw == Some(!me))) {
                return ok;
            }
            if game.repetitions() >= 3 || game.draw == Some(!me) {
                game.end("draw", None);
            } else if game.position.has_insufficient_material(!me) {
                game.end("insufficientMaterialClaim", None);
            } else {
                game.draw = Some(me);
                game.offered_draw_at = Some(plies);
            }
        }
        // BotPlayer `declineDraw`: the opponent's offer declined.
        ["draw", _] if drawable && game.draw == Some(!me) => game.draw = None,
        ["draw", _] => return ok,
        ["takeback", answer] if yes(answer) && playing => {
            // Takebacker `yes`: the opponent's proposal accepted; against
            // the AI, taken back at once (`single` on the AI's turn,
            // `double` on the player's); else proposed, once both sides
            // have moved and no proposal stands.
            if game.takeback == Some(!me) {
                game.undo(!me);
            } else if game.ai.is_some() && plies > usize::from(me == Color::Black) {
                game.undo(me);
            } else if plies >= 2 && game.takeback.is_none() {
                game.takeback = Some(me);
            } else {
                return ok;
            }
        }
        // Takebacker `no`: a proposal withdrawn or declined.
        ["takeback", _] if playing && game.takeback.is_some() => game.takeback = None,
        ["takeback", _] => return ok,
        ["resign"] if abortable => game.end("aborted", None),
        ["resign"] if playing => game.end("resign", Some(!me)),
        ["resign"] => return refused("This game cannot be resigned"),
        ["abort"] if abortable => game.end("aborted", None),
        ["abort"] => return refused("This game can no longer be aborted"),
        ["claim-victory" | "claim-draw"] => {
            // BotPlayer `claimVictory` and `claimDraw`: nothing unless the
            // opponent is to move in a game with a clock against a person
            // (Pov `mightClaimWin`); then the round forces his resignation
            // (or a draw) if he is gone long enough (RoundAsyncActor
            // `ResignForce`, `DrawForce`), and lila answers half a second
            // later whether the game was won (or drawn).
            // A claim-draw in a game that may be drawn is refused with 400
            // whenever the round does not draw it (BotPlayer `claimDraw`).
            // Neither is granted in a friend's game (Pov `forceResignable`).
            let victory = action[0] == "claim-victory";
            let might = playing
                && plies >= 2
                && game.ai.is_none()
                && game.days.is_none()
                && game.source != "friend"
                && !my_turn;
            if (victory && !might) || (!victory && !drawable) {
                return ok;
            }
            let long_gone = might
                && game
                    .gone
                    .is_some_and(|(since, after)| since.elapsed() >= after);
            let wait = Duration::from_millis(500);
            if !long_gone {
                let why = if victory {
                    "You cannot claim the win on this game"
                } else {
                    "You cannot claim draw on this game"
                };
                return (400, format!(r#"{{"error":"{why}"}}"#), wait);
            }
            // round Finisher `rageQuit`: the claimant wins, unless he
            // cannot mate (`opponentHasInsufficientMaterial`).
            let winner = (victory && !game.position.has_insufficient_material(me)).then_some(me);
            game.end("timeout", winner);
            game.states += 1;
            return (ok.0, ok.1, wait);
        }
        _ => return ok,
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

/// Whether the client has closed its connection already (a stream asked
/// for while the server was silent, given up since): nothing is served to
/// it, as nothing reaches a closed connection.
fn client_gone(out: &TcpStream) -> bool {
    if out.set_nonblocking(true).is_err() {
        return false;
    }
    let gone = matches!(out.peek(&mut [0u8; 1]), Ok(0));
    let _ = out.set_nonblocking(false);
    gone
}

/// The time to wait until `at`, nought if it has passed.
fn until(at: Instant) -> Duration {
    at.saturating_duration_since(Instant::now())
}

/// The event stream: each game under way, then each challenge to the
/// account still pending (lila's EventStream, its first lines), then each
/// new event; a blank line every `keep_alive`. A newer event stream closes
/// it cleanly; lila refuses the 31st in ten minutes (app/controllers Api
/// `eventStream`, with its words).
fn event_stream(shared: &Shared, out: &mut TcpStream) {
    if !until_heard(shared) || client_gone(out) {
        return;
    }
    {
        let mut st = lock(shared);
        let now = Instant::now();
        st.event_stream_asked
            .retain(|t| now.duration_since(*t) < Duration::from_secs(600));
        if st.event_stream_asked.len() >= 30 {
            drop(st);
            return answer(
                shared,
                out,
                429,
                r#"{"error":"Please don't poll this endpoint, it is intended to be streamed. See https://lichess.org/api#tag/Board/operation/apiStreamEvent."}"#,
            );
        }
        st.event_stream_asked.push(now);
    }
    if !stream_head(out) {
        return;
    }
    let mut st = lock(shared);
    st.event_streams_opened += 1;
    let mine = st.event_streams_opened;
    let mut sent = st.events.len();
    let mut first: Vec<String> = st
        .games
        .values()
        .filter(|g| g.status == "started")
        .map(Game::start_json)
        .collect();
    first.extend(
        st.challenges
            .iter()
            .map(|(id, (minutes, increment, color))| {
                let from = st.challengers.get(id).map_or("Carl", String::as_str);
                let start = st.challenge_starts.get(id).cloned().unwrap_or_default();
                let days = st.challenge_days.get(id).copied();
                format!(
                    r#"{{"type":"challenge","challenge":{}}}"#,
                    incoming_challenge_json(id, from, (*minutes, *increment), color, &start, days)
                )
            }),
    );
    let cuts = st.cuts;
    drop(st);
    // An older event stream closes.
    shared.changed.notify_all();
    for line in first {
        if !chunk(shared, out, &line) {
            return;
        }
    }
    let mut next = Instant::now() + shared.keep_alive;
    loop {
        let st = lock(shared);
        if st.stopping || st.event_streams_opened != mine {
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
            if Instant::now() >= next {
                drop(st);
                if !chunk(shared, out, "") {
                    return;
                }
                next = Instant::now() + shared.keep_alive;
                continue;
            }
            let _ = shared
                .changed
                .wait_timeout(st, until(next))
                .unwrap_or_else(|poisoned| poisoned.into_inner());
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

/// What a new game is made of.
struct NewGame {
    /// The colour the account plays.
    mine: Color,
    initial_ms: u64,
    increment_ms: u64,
    /// Days a move (a correspondence game, no clock), or none.
    days: Option<u32>,
    /// The AI's level, or none for a person.
    ai: Option<u8>,
    source: &'static str,
    rated: bool,
    /// The game's id (a challenge's game takes the challenge's id), or
    /// none for a new one.
    id: Option<String>,
    /// Its variant and start.
    start: Start,
}

/// A new game; its `gameStart` goes on the event stream. Returns its id.
fn start_game(st: &mut State, new: NewGame) -> String {
    let id = new.id.unwrap_or_else(|| {
        st.next_id += 1;
        format!("game{:04}", st.next_id)
    });
    let script = std::mem::take(&mut st.script);
    let (wtime, btime) = match new.days {
        Some(days) => (u64::from(days) * 86_400_000, u64::from(days) * 86_400_000),
        None => (new.initial_ms, new.initial_ms),
    };
    let game = Game {
        id: id.clone(),
        mine: new.mine,
        moves: Vec::new(),
        position: new.start.position(),
        initial_ms: new.initial_ms,
        increment_ms: new.increment_ms,
        wtime,
        btime,
        since: Instant::now(),
        last: Instant::now(),
        status: "started".into(),
        winner: None,
        draw: None,
        takeback: None,
        states: 0,
        script,
        ai: new.ai,
        lines: VecDeque::new(),
        source: new.source,
        days: new.days,
        rated: new.rated,
        gone: None,
        offered_draw_at: None,
        positions: vec![epd(&new.start.position())],
        start: new.start,
        king_onto_rook: st.castling_king_onto_rook,
    };
    st.events.push(game.start_json());
    st.games.insert(id.clone(), game);
    id
}

/// Whether lila's setup takes one more seek or game against the AI from
/// this IP: 5 a minute (lila.web Limiters `setupPost`).
fn setup_post(st: &mut State) -> bool {
    let now = Instant::now();
    st.setup_posts
        .retain(|t| now.duration_since(*t) < Duration::from_secs(60));
    if st.setup_posts.len() >= 5 {
        return false;
    }
    st.setup_posts.push(now);
    true
}

/// The clocks of lila's pools, minutes and seconds a move (modules/pool
/// PoolList `lobby`).
const POOL_CLOCKS: [(u64, u64); 11] = [
    (1, 0),
    (2, 1),
    (3, 0),
    (3, 2),
    (5, 0),
    (5, 3),
    (10, 0),
    (10, 5),
    (15, 10),
    (30, 0),
    (30, 20),
];

/// A form refused, as lila writes its errors (lila.web CtrlErrors
/// `doubleJsonFormError`: the form-wide errors under `global`, twice).
fn form_error(shared: &Shared, out: &mut TcpStream, why: &str) {
    let json = format!(r#"{{"global":["{why}"],"error":{{"global":["{why}"]}}}}"#);
    keep_as(shared, &json, "LilaFormError");
    write_answer(out, 400, &json);
}

/// A seek, as lila's app/controllers Setup `boardApiHook` takes it: its
/// form (SetupForm `boardApiHook`: `time` in minutes, 10 if left out;
/// `increment`, 5; `days`; `rated`; `color`) refused unless the Board API
/// plays its clock (rapid or slower: lila.core.game `isBoardCompatible`;
/// lila's words "Invalid time control"); 5 setups a minute; one seek at a
/// time (lila.web Limiters `boardApiConcurrency`, its ConcurrencyLimit's
/// words). A real-time seek is held open, a blank line every 10 s, until
/// the opponent is found (the game starts, the stream ends), it is
/// cancelled (`DELETE /api/board/seek`: the stream ends) or its client
/// closes it (the seek is gone: BoardApiHookStream). The account's colour
/// is the form's, else lila's random pick ([`State::seek_colors`]); a
/// rated seek of a pool's clock with no colour joins the pool (its game's
/// source `pool`, BoardApiHookStream `asPool`), else the lobby. A
/// correspondence seek is answered at once with its id.
fn seek(shared: &Arc<Shared>, out: &mut TcpStream, body: &str, read: BufReader<TcpStream>) {
    // (A silent server answers nothing, as a half-open connection.)
    if !until_heard(shared) || client_gone(out) {
        return;
    }
    let days: Option<u32> = form(body, "days").and_then(|d| d.parse().ok());
    let minutes: f64 = form(body, "time")
        .and_then(|t| t.parse().ok())
        .unwrap_or(10.0);
    let increment: u64 = form(body, "increment")
        .and_then(|t| t.parse().ok())
        .unwrap_or(5);
    let rated = form_bool(body, "rated");
    let color = form_color(body, "color");
    let limit_s = (minutes * 60.0).round() as u64;
    let chess960 = lock(shared).chess960_start;
    let start = match Start::from_form(body, chess960) {
        // A seek takes no position (SetupForm `boardApiHook` has no
        // `fen`, and takes every variant but fromPosition).
        Ok(start) if start.variant == "fromPosition" => {
            return form_error(shared, out, "Invalid variant");
        }
        // …nor a Chess960 start: lila draws it.
        Ok(start) if start.variant == "chess960" => Start::chess960(chess960),
        Ok(start) => start,
        Err(why) => return form_error(shared, out, &why),
    };
    if days.is_none() && limit_s + increment == 0 {
        return form_error(shared, out, "Invalid clock");
    }
    if days.is_none() && speed_rank(speed_of(limit_s, increment)) < speed_rank("rapid") {
        return form_error(shared, out, "Invalid time control");
    }
    let new = move |st: &mut State| NewGame {
        mine: color.unwrap_or_else(|| st.seek_colors.pop_front().unwrap_or(Color::White)),
        initial_ms: limit_s * 1000,
        increment_ms: increment * 1000,
        days,
        ai: None,
        source: if rated
            && color.is_none()
            && days.is_none()
            && POOL_CLOCKS.contains(&(limit_s / 60, increment))
            && limit_s.is_multiple_of(60)
        {
            "pool"
        } else {
            "lobby"
        },
        rated,
        id: None,
        start: start.clone(),
    };
    if days.is_some() {
        let mut st = lock(shared);
        st.next_id += 1;
        let id = format!("seek{:04}", st.next_id);
        let after = st.seek_pairs_after;
        drop(st);
        let json = format!(r#"{{"id":"{id}"}}"#);
        keep_as(shared, &json, SEEK_ID);
        write_answer(out, 200, &json);
        let s = shared.clone();
        std::thread::spawn(move || {
            std::thread::sleep(after);
            let mut st = lock(&s);
            let game = new(&mut st);
            start_game(&mut st, game);
            drop(st);
            s.changed.notify_all();
        });
        return;
    }
    let mut st = lock(shared);
    if !setup_post(&mut st) {
        drop(st);
        return answer(shared, out, 429, RATE_LIMITED);
    }
    if st.seeking {
        drop(st);
        return answer(
            shared,
            out,
            429,
            r#"{"error":"Please only run 1 request(s) at a time"}"#,
        );
    }
    st.seeking = true;
    st.seek_generation += 1;
    let generation = st.seek_generation;
    let (cancels, cuts) = (st.seek_cancels, st.cuts);
    let pairs_at = Instant::now().checked_add(st.seek_pairs_after);
    drop(st);
    if !stream_head(out) {
        let mut st = lock(shared);
        if st.seek_generation == generation {
            st.seeking = false;
        }
        return;
    }
    let closed = watch_close(shared, read);
    let mut next = Instant::now() + LILA_SEEK_KEEP_ALIVE;
    let mut cut = false;
    loop {
        let mut st = lock(shared);
        if st.stopping || st.seek_cancels != cancels || closed.load(Ordering::SeqCst) {
            break;
        }
        if st.cuts != cuts {
            cut = true;
            break;
        }
        if pairs_at.is_some_and(|at| Instant::now() >= at) {
            let game = new(&mut st);
            start_game(&mut st, game);
            drop(st);
            shared.changed.notify_all();
            break;
        }
        if Instant::now() >= next {
            drop(st);
            if !chunk(shared, out, "") {
                break;
            }
            next = Instant::now() + LILA_SEEK_KEEP_ALIVE;
            continue;
        }
        let wake = pairs_at.map_or(next, |at| at.min(next));
        let _ = shared
            .changed
            .wait_timeout(st, until(wake))
            .unwrap_or_else(|poisoned| poisoned.into_inner());
    }
    let mut st = lock(shared);
    if st.seek_generation == generation {
        st.seeking = false;
    }
    st.seek_closed_at.push(epoch());
    drop(st);
    if !cut {
        end_stream(out);
    }
}

/// The description's answer to a correspondence seek.
const SEEK_ID: &str =
    r#"paths["/api/board/seek"]["post"]["responses"][200]["content"]["application/json"]"#;

/// `DELETE /api/board/seek` (lila's app/controllers Setup
/// `boardApiHookCancel`, conf/routes; the description leaves it out): the
/// account's seek is removed, its stream ends; 204 whether or not there
/// was one.
fn cancel_seek(shared: &Shared, out: &mut TcpStream) {
    let mut st = lock(shared);
    st.seek_cancels += 1;
    if st.seeking {
        st.seeks_cancelled += 1;
    }
    // The place is free once the answer is sent: the seek's own thread
    // ends its stream when it next wakes, which a busy machine may delay
    // past the client's next seek.
    st.seeking = false;
    drop(st);
    shared.changed.notify_all();
    write_answer(out, 204, "");
}

/// A challenge's clock from its form (SetupForm `api`: `clock.limit` in
/// seconds, `clock.increment`; or `days`): seconds and seconds a move.
fn challenge_clock(body: &str) -> (u64, u64) {
    let limit: u64 = form(body, "clock.limit")
        .and_then(|t| t.parse().ok())
        .unwrap_or(900);
    let increment = form(body, "clock.increment")
        .and_then(|t| t.parse().ok())
        .unwrap_or(10);
    (limit, increment)
}

/// A game against the AI (app/controllers Setup `apiAi`): started at once,
/// never rated (5 setups a minute); answered 201 with the game (lila's
/// game JsonView `apiAiNewGame`: `player` is the side to move). A clock
/// the Board API cannot play (bullet) still makes the game; its stream
/// and moves are then refused.
fn challenge_ai(shared: &Shared, out: &mut TcpStream, body: &str) {
    let level: u8 = form(body, "level")
        .and_then(|t| t.parse().ok())
        .unwrap_or(1);
    let (limit, increment) = challenge_clock(body);
    let days: Option<u32> = form(body, "days").and_then(|d| d.parse().ok());
    let mut st = lock(shared);
    if !setup_post(&mut st) {
        drop(st);
        return answer(shared, out, 429, RATE_LIMITED);
    }
    let start = match Start::from_form(body, st.chess960_start) {
        Ok(start) => start,
        Err(why) => {
            drop(st);
            return form_error(shared, out, &why);
        }
    };
    let mine = form_color(body, "color")
        .unwrap_or_else(|| st.challenge_colors.pop_front().unwrap_or(Color::White));
    let id = start_game(
        &mut st,
        NewGame {
            mine,
            initial_ms: limit * 1000,
            increment_ms: increment * 1000,
            days,
            ai: Some(level),
            // From a position, lila's AI game is a `position` game
            // (ApiAiConfig).
            source: if start.fen.is_some() && start.variant == "fromPosition" {
                "position"
            } else {
                "ai"
            },
            rated: false,
            id: None,
            start,
        },
    );
    let game = &st.games[&id];
    let speed = game.speed();
    let variant = game.start.variant_json();
    let fen = shakmaty::fen::Fen::from_position(&game.position, shakmaty::EnPassantMode::Legal);
    drop(st);
    shared.changed.notify_all();
    let json = format!(
        r#"{{"id":"{id}","variant":{},"speed":"{speed}","perf":"{speed}","rated":false,"fen":"{}","turns":0,"source":"ai","status":{{"id":20,"name":"started"}},"createdAt":1764000000000,"player":"white","fullId":"{id}abcd"}}"#,
        variant, fen
    );
    keep_as(shared, &json, AI_GAME);
    write_answer(out, 201, &json);
}

/// The description's answer to a game against the AI.
const AI_GAME: &str =
    r#"paths["/api/challenge/ai"]["post"]["responses"][201]["content"]["application/json"]"#;

/// A challenge as lila writes it (modules/challenge JsonView; the
/// description's ChallengeJson).
struct ChallengeView<'a> {
    id: &'a str,
    from: &'a str,
    to: &'a str,
    /// Seconds and seconds a move, or days a move.
    clock: (u64, u64),
    days: Option<u32>,
    rated: bool,
    /// The challenger's choice of colour (`white`, `black`, `random`).
    color: &'a str,
    /// The challenger's colour.
    final_color: Color,
    status: &'a str,
    /// `out` to the challenger, none to anyone else.
    direction: Option<&'a str>,
    /// A decline's key and words.
    decline: Option<(&'a str, &'a str)>,
    /// The game it is a rematch of (modules/challenge Challenge
    /// `rematchOf`, set by lila's Rematcher when a player offers one).
    rematch_of: Option<&'a str>,
    /// Its variant and start (a challenge from a position names its
    /// `initialFen`).
    start: &'a Start,
}

fn challenge_json(c: &ChallengeView) -> String {
    let user = |name: &str| {
        format!(
            r#"{{"id":"{}","name":"{name}","rating":1702}}"#,
            name.to_ascii_lowercase()
        )
    };
    let (limit, increment) = c.clock;
    let (speed, time_control) = match c.days {
        Some(days) => (
            "correspondence",
            format!(r#"{{"type":"correspondence","daysPerTurn":{days}}}"#),
        ),
        None => (
            speed_of(limit, increment),
            format!(
                r#"{{"type":"clock","limit":{limit},"increment":{increment},"show":"{}+{increment}"}}"#,
                limit / 60
            ),
        ),
    };
    let mut perf = speed.to_string();
    perf[..1].make_ascii_uppercase();
    let mut json = format!(
        r#"{{"id":"{}","url":"http://lichess.test/{}","status":"{}","challenger":{},"destUser":{},"variant":{},"rated":{},"speed":"{speed}","timeControl":{time_control},"color":"{}","finalColor":"{}","perf":{{"icon":"","name":"{perf}"}}"#,
        c.id,
        c.id,
        c.status,
        user(c.from),
        user(c.to),
        c.start.variant_json(),
        c.rated,
        c.color,
        if c.final_color == Color::White {
            "white"
        } else {
            "black"
        },
    );
    if let Some(direction) = c.direction {
        json.push_str(&format!(r#","direction":"{direction}""#));
    }
    if let Some(game) = c.rematch_of {
        json.push_str(&format!(r#","rematchOf":"{game}""#));
    }
    if let Some((key, reason)) = c.decline {
        json.push_str(&format!(
            r#","declineReason":{},"declineReasonKey":"{key}""#,
            serde_json::Value::String(reason.into())
        ));
    }
    json.push('}');
    json
}

/// A challenge to the account from `from`, as lila writes it to the
/// account's event stream (no direction): at `minutes` + `increment`, the
/// challenger playing `color` (White for `random`).
fn incoming_challenge_json(
    id: &str,
    from: &str,
    (minutes, increment): (u64, u64),
    color: &str,
    start: &Start,
    days: Option<u32>,
) -> String {
    let final_color = if color == "black" {
        Color::Black
    } else {
        Color::White
    };
    challenge_json(&ChallengeView {
        id,
        from,
        to: "Anna",
        clock: (minutes * 60, increment),
        days,
        rated: false,
        color,
        final_color,
        status: "created",
        direction: None,
        decline: None,
        rematch_of: None,
        start,
    })
}

/// A challenge the account sends, waiting for its answer.
struct Sent {
    id: String,
    to: String,
    clock: (u64, u64),
    days: Option<u32>,
    rated: bool,
    color: String,
    /// The account's colour.
    mine: Color,
    answer: ChallengeAnswer,
    start: Start,
}

impl Sent {
    fn view<'a>(
        &'a self,
        status: &'a str,
        decline: Option<(&'a str, &'a str)>,
    ) -> ChallengeView<'a> {
        ChallengeView {
            id: &self.id,
            from: "Anna",
            to: &self.to,
            clock: self.clock,
            days: self.days,
            rated: self.rated,
            color: &self.color,
            final_color: self.mine,
            status,
            direction: None,
            decline,
            rematch_of: None,
            start: &self.start,
        }
    }
}

/// A challenge to `username`, as lila's app/controllers Challenge
/// `apiCreate` takes it: its cost (nothing if he follows the account, else
/// 5) spent from the credits of a minute (25) and a day
/// ([`State::challenge_day_credit`]), else 429 (lila.web Limiters
/// `challengeUser`). With `keepAliveStream=true` the answer is a stream
/// (modules/challenge ChallengeKeepAliveStream): the challenge, a blank
/// line after 50 s of nothing, and `{"done":…}` once it is accepted,
/// declined or cancelled; the challenge lives while the stream is open.
/// Without, the answer is the challenge, which goes offline unless
/// answered within 20 s ([`State::challenge_expires_after`]; a
/// correspondence challenge waits). The player challenged does as
/// [`State::challenge_answers`] says; a challenge accepted makes the game,
/// the challenge's id its id (source `friend`); one declined is told on
/// the event stream (`challengeDeclined`, EventStream).
fn challenge(
    shared: &Arc<Shared>,
    out: &mut TcpStream,
    username: &str,
    body: &str,
    read: BufReader<TcpStream>,
) {
    let clock = challenge_clock(body);
    let days: Option<u32> = form(body, "days").and_then(|d| d.parse().ok());
    let color = form(body, "color").unwrap_or_else(|| "random".into());
    let keep_alive_stream = form_bool(body, "keepAliveStream");
    let mut st = lock(shared);
    let start = match Start::from_form(body, st.chess960_start) {
        Ok(start) => start,
        Err(why) => {
            drop(st);
            return form_error(shared, out, &why);
        }
    };
    // lila rates a game with a clock, or a standard one by days, and never
    // one from a set position (ApiConfig `validRated`, ChallengeJoiner).
    let rated = form_bool(body, "rated");
    let rateable =
        start.variant != "fromPosition" && (days.is_none() || start.variant == "standard");
    if rated && !rateable {
        drop(st);
        return form_error(shared, out, "Invalid rated: this game can't be rated");
    }
    let cost = if st.followed_by.contains(&username.to_ascii_lowercase()) {
        0
    } else {
        5
    };
    let now = Instant::now();
    st.challenge_spent
        .retain(|(t, _)| now.duration_since(*t) < Duration::from_secs(86_400));
    let spent = |within: Duration| -> u32 {
        st.challenge_spent
            .iter()
            .filter(|(t, _)| now.duration_since(*t) < within)
            .map(|(_, c)| c)
            .sum()
    };
    if cost > 0
        && (spent(Duration::from_secs(60)) + cost > 25
            || spent(Duration::from_secs(86_400)) + cost > st.challenge_day_credit)
    {
        drop(st);
        return answer(shared, out, 429, RATE_LIMITED);
    }
    if cost > 0 {
        st.challenge_spent.push((now, cost));
    }
    st.challenges_sent += 1;
    st.next_id += 1;
    let id = format!("chal{:04}", st.next_id);
    let mine = match color.as_str() {
        "white" => Color::White,
        "black" => Color::Black,
        _ => st.challenge_colors.pop_front().unwrap_or(Color::White),
    };
    let answer_given = st
        .challenge_answers
        .pop_front()
        .unwrap_or(ChallengeAnswer::Accept(Duration::from_millis(200)));
    st.sent_challenges.insert(id.clone(), false);
    let expires = st.challenge_expires_after;
    drop(st);
    let sent = Sent {
        id,
        to: username.to_string(),
        clock,
        days,
        rated: form_bool(body, "rated"),
        color,
        mine,
        answer: answer_given,
        start,
    };
    let json = challenge_json(&ChallengeView {
        direction: Some("out"),
        ..sent.view("created", None)
    });
    if keep_alive_stream {
        if !stream_head(out) || !chunk(shared, out, &json) {
            return;
        }
        let closed = watch_close(shared, read);
        await_answer(shared, sent, expires, Some((out, closed)));
    } else {
        answer(shared, out, 200, &json);
        let _ = out.shutdown(Shutdown::Both);
        let s = shared.clone();
        std::thread::spawn(move || await_answer(&s, sent, expires, None));
    }
}

/// Waits for the answer to a challenge the account sent, and does it.
fn await_answer(
    shared: &Shared,
    sent: Sent,
    expires: Duration,
    mut stream: Option<(&mut TcpStream, Arc<AtomicBool>)>,
) {
    let created = Instant::now();
    let due = match &sent.answer {
        ChallengeAnswer::Accept(after) | ChallengeAnswer::Decline { after, .. } => {
            created.checked_add(*after)
        }
        ChallengeAnswer::Never => None,
    };
    let mut seen = created;
    let mut last_line = created;
    loop {
        let mut st = lock(shared);
        if st.stopping {
            return;
        }
        let now = Instant::now();
        let open = stream
            .as_ref()
            .is_some_and(|(_, closed)| !closed.load(Ordering::SeqCst));
        if open {
            seen = now;
        }
        let outcome = if st.sent_challenges.get(&sent.id) == Some(&true) {
            Some("canceled")
        } else if due.is_some_and(|at| now >= at) {
            Some(match sent.answer {
                ChallengeAnswer::Decline { .. } => "declined",
                _ => "accepted",
            })
        } else if sent.days.is_none() && now.duration_since(seen) >= expires {
            Some("offline")
        } else {
            None
        };
        if let Some(outcome) = outcome {
            st.sent_challenges.remove(&sent.id);
            st.challenge_outcomes
                .push((sent.id.clone(), outcome.to_string()));
            let done_after = st.challenge_done_after;
            match (outcome, &sent.answer) {
                ("accepted", _) => {
                    start_game(
                        &mut st,
                        NewGame {
                            mine: sent.mine,
                            initial_ms: sent.clock.0 * 1000,
                            increment_ms: sent.clock.1 * 1000,
                            days: sent.days,
                            ai: None,
                            source: "friend",
                            rated: sent.rated,
                            id: Some(sent.id.clone()),
                            start: sent.start.clone(),
                        },
                    );
                }
                ("declined", ChallengeAnswer::Decline { .. }) if st.declines_unsaid => {}
                ("declined", ChallengeAnswer::Decline { key, reason, .. }) => {
                    let json = challenge_json(&sent.view("declined", Some((key, reason))));
                    st.events.push(format!(
                        r#"{{"type":"challengeDeclined","challenge":{json}}}"#
                    ));
                }
                _ => {}
            }
            drop(st);
            shared.changed.notify_all();
            // (lila starts the game, then marks the challenge accepted,
            // which ends its stream: the game may come first.)
            std::thread::sleep(done_after);
            if let Some((out, _)) = stream.as_mut()
                && open
                && outcome != "offline"
            {
                let done = format!(r#"{{"done":"{outcome}"}}"#);
                if chunk_as(shared, out, &done, "ChallengeDone") {
                    end_stream(out);
                }
            }
            return;
        }
        if open && now.duration_since(last_line) >= LILA_CHALLENGE_KEEP_ALIVE {
            drop(st);
            if let Some((out, _)) = stream.as_mut() {
                let _ = chunk(shared, out, "");
            }
            last_line = Instant::now();
            continue;
        }
        let mut wake = if open {
            last_line + LILA_CHALLENGE_KEEP_ALIVE
        } else {
            seen + expires
        };
        if let Some(at) = due {
            wake = wake.min(at);
        }
        let _ = shared
            .changed
            .wait_timeout(st, until(wake))
            .unwrap_or_else(|poisoned| poisoned.into_inner());
    }
}

impl Lichess {
    /// A challenge from `from` to the account, on the event stream, at
    /// `minutes` + `increment`; `from` plays `color`. Returns its id.
    pub fn challenge_from(&self, from: &str, minutes: u64, increment: u64, color: &str) -> String {
        self.challenge_from_start(from, minutes, increment, color, Start::default())
    }

    /// A correspondence challenge from `from` to the account, `days` a
    /// move; `from` plays `color`. Returns its id.
    pub fn challenge_from_days(&self, from: &str, days: u32, color: &str) -> String {
        let mut st = self.state();
        st.next_id += 1;
        let id = format!("chal{:04}", st.next_id);
        let json = incoming_challenge_json(&id, from, (0, 0), color, &Start::default(), Some(days));
        st.events.push(format!(
            r#"{{"type":"challenge","challenge":{json},"compat":{{"bot":false,"board":true}}}}"#
        ));
        st.challenges.insert(id.clone(), (0, 0, color.to_string()));
        st.challenge_days.insert(id.clone(), days);
        st.challengers.insert(id.clone(), from.to_string());
        drop(st);
        self.changed();
        id
    }

    /// The same, from `start` (a Chess960 game, a set position).
    pub fn challenge_from_start(
        &self,
        from: &str,
        minutes: u64,
        increment: u64,
        color: &str,
        start: Start,
    ) -> String {
        let mut st = self.state();
        st.next_id += 1;
        let id = format!("chal{:04}", st.next_id);
        let json = incoming_challenge_json(&id, from, (minutes, increment), color, &start, None);
        st.challenge_starts.insert(id.clone(), start);
        // lila's EventStream adds `compat` to a challenge as it comes: the
        // Board API plays blitz and slower challenges (modules/challenge
        // Challenge `isBoardCompatible`).
        let board = speed_rank(speed_of(minutes * 60, increment)) >= speed_rank("blitz");
        st.events.push(format!(
            r#"{{"type":"challenge","challenge":{json},"compat":{{"bot":false,"board":{board}}}}}"#
        ));
        st.challenges
            .insert(id.clone(), (minutes, increment, color.to_string()));
        st.challengers.insert(id.clone(), from.to_string());
        drop(st);
        self.changed();
        id
    }
}

impl Lichess {
    /// After game `of`, its opponent offers a rematch, as lila's round
    /// Rematcher does: a challenge to the account on the event stream,
    /// `rematchOf` the game, at its clock and rating, the colours swapped
    /// (the opponent takes the account's). Returns its id.
    pub fn rematch_from(&self, of: &str) -> String {
        let mut st = self.state();
        let game = st.games.get(of).cloned().expect("the game to rematch");
        st.next_id += 1;
        let id = format!("chal{:04}", st.next_id);
        let (limit, increment) = (game.initial_ms / 1000, game.increment_ms / 1000);
        let color = if game.mine == Color::White {
            "white"
        } else {
            "black"
        };
        let json = challenge_json(&ChallengeView {
            id: &id,
            from: "Bert",
            to: "Anna",
            clock: (limit, increment),
            days: game.days,
            rated: game.rated,
            color,
            final_color: game.mine,
            status: "created",
            direction: None,
            decline: None,
            rematch_of: Some(of),
            start: &game.start,
        });
        st.events.push(format!(
            r#"{{"type":"challenge","challenge":{json},"compat":{{"bot":false,"board":true}}}}"#
        ));
        st.challenges
            .insert(id.clone(), (limit / 60, increment, color.to_string()));
        st.challengers.insert(id.clone(), OPPONENT.to_string());
        st.rematches.insert(id.clone(), of.to_string());
        drop(st);
        self.changed();
        id
    }
}

/// A challenge to the account accepted (app/controllers Challenge
/// `apiAccept`): the game starts, with the challenge's id (a rematch's
/// rated as the game it rematches); an id lila does not know is 404.
/// A challenge to the account shown (app/controllers Challenge
/// `apiShow`), with its status: `created`, or `offline` once its sender
/// no longer keeps it alive (ChallengeApi `sweep`, after 20 s for one with
/// a clock; lila still lets it be accepted, and names it no more on a new
/// event stream).
fn show(shared: &Shared, out: &mut TcpStream, id: &str) {
    let st = lock(shared);
    let Some((minutes, increment, color)) = st.challenges.get(id).cloned() else {
        drop(st);
        return answer(shared, out, 404, r#"{"error":"Not found"}"#);
    };
    let from = st
        .challengers
        .get(id)
        .cloned()
        .unwrap_or_else(|| "Carl".into());
    let start = st.challenge_starts.get(id).cloned().unwrap_or_default();
    let days = st.challenge_days.get(id).copied();
    let offline = st.offline_challenges.contains(id);
    drop(st);
    let json = incoming_challenge_json(id, &from, (minutes, increment), &color, &start, days);
    let json = if offline {
        json.replacen(r#""status":"created""#, r#""status":"offline""#, 1)
    } else {
        json
    };
    answer(shared, out, 200, &json);
}

fn accept(shared: &Shared, out: &mut TcpStream, id: &str) {
    let mut st = lock(shared);
    let Some((minutes, increment, color)) = st.challenges.remove(id) else {
        drop(st);
        return answer(shared, out, 404, r#"{"error":"Not found"}"#);
    };
    st.challengers.remove(id);
    // A rematch is rated as the game it rematches, and made the same way
    // (lila's round Rematcher: `pov.game.source`).
    let of = st
        .rematches
        .remove(id)
        .and_then(|of| st.games.get(&of).cloned());
    let rated = of.as_ref().is_some_and(|g| g.rated);
    let source = of.as_ref().map_or("friend", |g| g.source);
    // Its start: the challenge's, or the rematched game's.
    let start = st
        .challenge_starts
        .remove(id)
        .or_else(|| of.as_ref().map(|g| g.start.clone()))
        .unwrap_or_default();
    // The account plays the colour the challenger did not take.
    let mine = if color == "white" {
        Color::Black
    } else {
        Color::White
    };
    let days = st.challenge_days.remove(id);
    start_game(
        &mut st,
        NewGame {
            mine,
            initial_ms: minutes * 60_000,
            increment_ms: increment * 1000,
            days,
            ai: None,
            source,
            rated,
            id: Some(id.to_string()),
            start,
        },
    );
    drop(st);
    shared.changed.notify_all();
    answer(shared, out, 200, r#"{"ok":true}"#);
}

/// A challenge to the account declined (app/controllers Challenge
/// `apiDecline`, its form's `reason`): told on the event stream
/// (`challengeDeclined`).
fn decline(shared: &Shared, out: &mut TcpStream, id: &str, body: &str) {
    let mut st = lock(shared);
    let Some((minutes, increment, color)) = st.challenges.remove(id) else {
        drop(st);
        return answer(shared, out, 404, r#"{"error":"Not found"}"#);
    };
    let from = st.challengers.remove(id).unwrap_or_else(|| "Carl".into());
    let start = st.challenge_starts.remove(id).unwrap_or_default();
    if st.rematches.remove(id).is_some() {
        // A rematch offer declined (lila's Rematcher `no`): no event.
        drop(st);
        shared.changed.notify_all();
        return answer(shared, out, 200, r#"{"ok":true}"#);
    }
    let key = form(body, "reason").unwrap_or_else(|| "generic".into());
    let ChallengeAnswer::Decline { key, reason, .. } =
        ChallengeAnswer::decline(Duration::ZERO, &key.to_ascii_lowercase())
    else {
        unreachable!("a decline");
    };
    let json = challenge_json(&ChallengeView {
        status: "declined",
        decline: Some((&key, &reason)),
        final_color: if color == "black" {
            Color::Black
        } else {
            Color::White
        },
        ..ChallengeView {
            id,
            from: &from,
            to: "Anna",
            clock: (minutes * 60, increment),
            days: None,
            rated: false,
            color: &color,
            final_color: Color::White,
            status: "created",
            direction: None,
            decline: None,
            rematch_of: None,
            start: &start,
        }
    });
    st.events.push(format!(
        r#"{{"type":"challengeDeclined","challenge":{json}}}"#
    ));
    drop(st);
    shared.changed.notify_all();
    answer(shared, out, 200, r#"{"ok":true}"#);
}

/// A challenge the account sent cancelled (app/controllers Challenge
/// `apiCancel`): told on the event stream (`challengeCanceled`), its
/// keepAliveStream ends.
fn cancel(shared: &Shared, out: &mut TcpStream, id: &str) {
    let mut st = lock(shared);
    let open = st.sent_challenges.get(id) == Some(&false);
    match st.sent_challenges.get_mut(id) {
        Some(cancelled) if open => *cancelled = true,
        // Accepted: its game (the challenge's id) is aborted while it can
        // be (lila's apiCancel: `abortableByUser`, RoundBus `Abort`; the
        // description: "or aborts the game if the challenge was accepted,
        // but the game was not yet played").
        _ => {
            let game = st.games.get_mut(id);
            let Some(g) = game.filter(|g| g.status == "started" && g.moves.len() < 2) else {
                drop(st);
                return answer(shared, out, 404, r#"{"error":"Not found"}"#);
            };
            g.end("aborted", None);
            g.states += 1;
        }
    }
    drop(st);
    shared.changed.notify_all();
    answer(shared, out, 200, r#"{"ok":true}"#);
}

/// A game's stream (PlayApi `boardGameStream`, GameStateStream): the whole
/// game, then a state at each change, a blank line every `keep_alive`;
/// closed when the game is over, or cleanly when a newer stream opens for
/// the same game from the same User-Agent. A game the Board API cannot
/// play is refused.
fn game_stream(shared: &Shared, out: &mut TcpStream, id: &str, agent: &str) {
    if !until_heard(shared) || client_gone(out) {
        return;
    }
    let Some(game) = lock(shared).games.get(id).cloned() else {
        return answer(shared, out, 404, r#"{"error":"No such game"}"#);
    };
    if !game.board_compatible() {
        return answer(
            shared,
            out,
            400,
            r#"{"error":"This game cannot be played with the Board API."}"#,
        );
    }
    if !stream_head(out) || !chunk(shared, out, &game.full_json()) {
        return;
    }
    let mut seen = game.states;
    let mut over = game.status != "started";
    let key = (id.to_string(), agent.to_string());
    let (cuts, closes, mine) = {
        let mut st = lock(shared);
        st.game_streams_opened += 1;
        *st.game_streams.entry(id.to_string()).or_insert(0) += 1;
        st.game_stream_agents.push(key.clone());
        let n = st.newest_game_stream.entry(key.clone()).or_insert(0);
        *n += 1;
        let n = *n;
        (st.cuts, st.closes, n)
    };
    // A newer stream for the game from the same User-Agent closes the
    // older.
    shared.changed.notify_all();
    let mut next = Instant::now() + shared.keep_alive;
    let mut next_tick = Instant::now() + GONE_TICK;
    while !over {
        let st = lock(shared);
        if st.stopping {
            break;
        }
        if st.cuts != cuts {
            // Cut: the connection closes mid-stream.
            return;
        }
        if st.closes != closes || st.newest_game_stream.get(&key) != Some(&mine) {
            // Closed cleanly, the game going on: asked for, or a newer
            // stream opened.
            break;
        }
        if st.silent {
            drop(st);
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        let Some(game) = st.games.get(id).cloned() else {
            break;
        };
        if game.states == seen && Instant::now() >= next_tick {
            // lila's round ticks every 5 s (RoundSocket `tickInterval`):
            // while the opponent is gone each tick tells it again, the
            // seconds until the win may be claimed counting down
            // (RoundAsyncActor `Tick`: `notifyGoneIn`, then `notifyGone`).
            next_tick = Instant::now() + GONE_TICK;
            if let Some((since, wait)) = game.gone {
                drop(st);
                let left = wait.saturating_sub(since.elapsed()).as_secs();
                let line =
                    format!(r#"{{"type":"opponentGone","gone":true,"claimWinInSeconds":{left}}}"#);
                if !chunk(shared, out, &line) {
                    return;
                }
                continue;
            }
        }
        if game.states == seen {
            if Instant::now() >= next {
                drop(st);
                if !chunk(shared, out, "") {
                    return;
                }
                next = Instant::now() + shared.keep_alive;
                continue;
            }
            let _ = shared
                .changed
                .wait_timeout(st, until(next.min(next_tick)))
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            continue;
        }
        drop(st);
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

// `POST /api/broadcast/round/{id}/push`, as lila answers it: lila's
// app/controllers/RelayRound.scala (`push`, `ScopedBody(parse.tolerantText)`
// with the scope `study:write`, Forbidden for one who may not contribute)
// hands the text to modules/relay RelayPush, which splits it into games
// (MultiPgn) and reads each; the answer (modules/relay JsonView, its
// `OWrites[RelayPush.Results]`) lists each game's tags with the moves
// read, or with its error. A round it does not have is a 404.

/// A push: checked, read game by game, kept, answered. It takes a while
/// (lila updates the study's chapters), so that pushes at once would
/// overlap here.
fn push(shared: &Arc<Shared>, out: &mut TcpStream, id: &str, body: &str) {
    let port = out.local_addr().map_or(0, |a| a.port());
    let scopes = TOKEN_SCOPES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .get(&port)
        .cloned()
        .unwrap_or_else(|| "board:play".into());
    // lila's conf/base.conf: play.http.parser.maxMemoryBuffer = 512KiB;
    // the body is read before the action looks at the scope.
    if body.len() > 512 * 1024 {
        return answer(shared, out, 413, r#"{"error":"Request Entity Too Large"}"#);
    }
    if !scopes.split(", ").any(|s| s == "study:write") {
        return answer(
            shared,
            out,
            403,
            r#"{"error":"Missing scope: study:write"}"#,
        );
    }
    let began = epoch();
    {
        let mut st = lock(shared);
        if !st.broadcast_rounds.contains_key(id) {
            drop(st);
            return answer(shared, out, 404, r#"{"error":"Not found"}"#);
        }
        if st.broadcast_not_contributor {
            drop(st);
            return answer(shared, out, 403, r#"{"error":"Forbidden"}"#);
        }
        if st.broadcast_upstream.contains(id) {
            drop(st);
            let json = r#"{"games":[{"tags":{},"error":"This round reads an upstream URL, and takes no push."}]}"#;
            keep_as(shared, json, "BroadcastPgnPush");
            return write_answer(out, 200, json);
        }
        st.pushing += 1;
        st.most_pushing = st.most_pushing.max(st.pushing);
    }
    std::thread::sleep(Duration::from_millis(200));
    // lila reads at most 100 games of a push (MultiPgn's split).
    let mut shown: Vec<(String, String)> = Vec::new();
    let games: Vec<serde_json::Value> = body
        .split("\n\n[")
        .filter(|g| !g.trim().is_empty())
        .take(100)
        .map(|g| {
            let text = if g.starts_with('[') { g.to_string() } else { format!("[{g}") };
            let tag = |name: &str| {
                text.lines()
                    .find_map(|l| l.strip_prefix(&format!("[{name} \"")))
                    .and_then(|v| v.strip_suffix("\"]"))
                    .unwrap_or("?")
                    .to_string()
            };
            let tags = serde_json::json!({"White": tag("White"), "Black": tag("Black"), "Round": tag("Round")});
            // A name of one letter or "unknown" is no name, and a game
            // with a side unnamed is not shown; lila's answer, made before
            // that, still counts its moves.
            let named = |n: &str| {
                let n = n.trim();
                n.chars().count() > 1 && !n.eq_ignore_ascii_case("unknown")
            };
            match pegboard::record::pgn::read_games(text.as_bytes()) {
                Ok(read)
                    if read.len() == 1
                        && !read[0].truncated
                        && pegboard::sim::moves_of(&read[0].record).is_ok() =>
                {
                    if named(&tag("White")) && named(&tag("Black")) {
                        shown.push((tag("Round"), text.clone()));
                    }
                    serde_json::json!({"tags": tags, "moves": read[0].record.sans.len()})
                }
                _ => serde_json::json!({"tags": tags, "error": "Invalid PGN"}),
            }
        })
        .collect();
    {
        let mut st = lock(shared);
        st.pushing -= 1;
        if let Some(pushes) = st.broadcast_rounds.get_mut(id) {
            pushes.push((began, body.to_string()));
        }
        st.broadcast_shown
            .entry(id.to_string())
            .or_default()
            .extend(shown);
    }
    let json = serde_json::json!({ "games": games }).to_string();
    keep_as(shared, &json, "BroadcastPgnPush");
    write_answer(out, 200, &json);
}

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
