//! Simulated hands: turning moves into the sensor readings a real player's
//! hands would produce, with human timing, varied order, switch chatter and
//! glitches. Used by `pegboard demo`, by the tests and by the benchmarks.

use shakmaty::{Bitboard, CastlingMode, Chess, Color, Move, Position, Square};

use crate::core::footprint::en_passant_victim;
use crate::core::{BLIND_BOARD, Input};
use crate::record::pgn::{GameRecord, resolve_san};
use crate::trace::{Entry, Reading};

/// The simulated hands' random numbers: the engine player's generator
/// (SplitMix64), seeded so that a simulated game is the same on every run
/// with the same seed.
pub use crate::engine::strength::Random as Rng;

/// How noisy and how quick the simulated hands are.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Percent of transitions that chatter (for up to 15 ms).
    pub chatter: u64,
    /// Percent of pauses during which a square glitches (for up to 10 ms).
    pub glitch: u64,
    /// Thinking time before a move, in ms.
    pub think: (u64, u64),
    /// Time a piece is in the hand, in ms.
    pub hand: (u64, u64),
    /// Write a raw scan every this many ms even when nothing changes (a
    /// 200 Hz scanner writes every 5 ms); 0: only changed readings.
    pub scan_period: u64,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            chatter: 40,
            glitch: 20,
            think: (600, 4000),
            hand: (250, 1200),
            scan_period: 0,
        }
    }
}

/// Longest chatter the simulator produces on a transition.
pub const MAX_CHATTER_MS: u64 = 15;
/// Longest glitch the simulator produces.
pub const MAX_GLITCH_MS: u64 = 10;

/// Simulated hands on one board.
#[derive(Debug, Clone)]
pub struct Hands {
    pub rng: Rng,
    pub style: Style,
    t: u64,
    raw: Bitboard,
    board: String,
    entries: Vec<Entry>,
    /// Time of the last raw change that completed an action (for latency).
    pub last_change: u64,
}

impl Hands {
    pub fn new(seed: u64, style: Style, start: Bitboard) -> Hands {
        Hands {
            rng: Rng::new(seed),
            style,
            t: 0,
            raw: start,
            board: BLIND_BOARD.to_string(),
            entries: Vec::new(),
            last_change: 0,
        }
    }

    /// The hands of the board named `board` (the blind player's is the
    /// default).
    pub fn on_board(mut self, board: &str) -> Hands {
        self.board = board.to_string();
        self
    }

    pub fn now(&self) -> u64 {
        self.t
    }

    /// Lets time run on to `t`, if it is later.
    pub fn wait_until(&mut self, t: u64) {
        if t > self.t {
            self.wait(t - self.t);
        }
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub fn into_entries(self) -> Vec<Entry> {
        self.entries
    }

    fn push(&mut self, reading: Reading) {
        self.entries.push(Entry {
            t: self.t,
            line: 0,
            reading,
        });
    }

    fn scan(&mut self) {
        let reading = Reading::Scan {
            board: self.board.clone(),
            occ: self.raw,
        };
        self.push(reading);
    }

    /// Lets `ms` pass, with idle scans and perhaps a glitch.
    pub fn wait(&mut self, ms: u64) {
        let end = self.t + ms;
        if ms > 4 * MAX_GLITCH_MS && self.rng.chance(self.style.glitch) {
            let at = self.t + self.rng.range(MAX_GLITCH_MS, ms - 2 * MAX_GLITCH_MS);
            let sq = Square::new(self.rng.range(0, 63) as u32);
            let len = self.rng.range(1, MAX_GLITCH_MS);
            self.idle_until(at);
            self.raw.toggle(sq);
            self.scan();
            self.idle_until(at + len);
            self.raw.toggle(sq);
            self.scan();
        }
        self.idle_until(end);
    }

    fn idle_until(&mut self, end: u64) {
        let p = self.style.scan_period;
        if p > 0 {
            while self.t + p <= end {
                self.t += p;
                self.scan();
            }
        }
        self.t = end;
    }

    fn transition(&mut self, sq: Square, occupied: bool) {
        let shorthand = self.rng.chance(30) && self.style.scan_period == 0;
        if self.rng.chance(self.style.chatter) {
            // Bounce: new, old, new, ... ending in the new state, all
            // within MAX_CHATTER_MS.
            let bounces = self.rng.range(1, 3);
            let span = self.rng.range(2 * bounces, MAX_CHATTER_MS);
            let start = self.t;
            let mut times: Vec<u64> = (0..2 * bounces)
                .map(|_| start + self.rng.range(1, span - 1))
                .collect();
            times.sort_unstable();
            times.dedup();
            self.raw.set(sq, occupied);
            self.scan();
            for (i, at) in times.into_iter().enumerate() {
                self.t = at;
                self.raw
                    .set(sq, if i % 2 == 0 { !occupied } else { occupied });
                self.scan();
            }
            self.t = start + span;
            self.raw.set(sq, occupied);
            self.scan();
        } else if shorthand {
            self.raw.set(sq, occupied);
            let reading = if occupied {
                Reading::Place {
                    board: self.board.clone(),
                    square: sq,
                }
            } else {
                Reading::Lift {
                    board: self.board.clone(),
                    square: sq,
                }
            };
            self.push(reading);
        } else {
            self.raw.set(sq, occupied);
            self.scan();
        }
        self.last_change = self.t;
    }

    pub fn lift(&mut self, sq: Square) {
        self.transition(sq, false);
    }

    pub fn place(&mut self, sq: Square) {
        self.transition(sq, true);
    }

    pub fn input(&mut self, input: Input) {
        self.push(Reading::Input(input));
    }

    fn pause(&mut self) {
        let (lo, hi) = self.style.hand;
        let ms = self.rng.range(lo, hi);
        self.wait(ms);
    }

    /// Thinks, then plays `m` in `pos` with a randomly chosen but lawful
    /// handling: either capture order, either en-passant order, king-first
    /// or king-and-rook castling, promotion piece said before or after.
    pub fn play(&mut self, pos: &Chess, m: Move, mode: CastlingMode) {
        let (lo, hi) = self.style.think;
        let think = self.rng.range(lo, hi);
        self.wait(think);
        self.make(pos, m, mode, true);
    }

    /// Makes a move already played elsewhere on this board (E2.7): the
    /// same handling, without saying the promotion piece, which the game
    /// already knows.
    pub fn replicate(&mut self, pos: &Chess, m: Move, mode: CastlingMode) {
        self.make(pos, m, mode, false);
    }

    fn make(&mut self, pos: &Chess, m: Move, mode: CastlingMode, says: bool) {
        let promote_before = says && self.rng.chance(50);
        if let (Some(role), true) = (m.promotion(), promote_before) {
            self.input(Input::Promote(role));
            let ms = self.rng.range(100, 600);
            self.wait(ms);
        }
        match m {
            Move::Normal {
                from, to, capture, ..
            } => {
                if capture.is_some() && self.rng.chance(50) {
                    // Captured piece off first.
                    self.lift(to);
                    self.pause();
                    self.lift(from);
                } else {
                    self.lift(from);
                    if capture.is_some() {
                        self.pause();
                        self.lift(to);
                    }
                }
                self.pause();
                self.place(to);
            }
            Move::EnPassant { from, to } => {
                let victim = en_passant_victim(from, to);
                match self.rng.range(0, 2) {
                    0 => {
                        self.lift(victim);
                        self.pause();
                        self.lift(from);
                        self.pause();
                        self.place(to);
                    }
                    1 => {
                        self.lift(from);
                        self.pause();
                        self.place(to);
                        self.pause();
                        self.lift(victim);
                    }
                    _ => {
                        self.lift(from);
                        self.pause();
                        self.lift(victim);
                        self.pause();
                        self.place(to);
                    }
                }
            }
            Move::Castle { king, rook } => {
                let side = m
                    .castling_side()
                    .unwrap_or(shakmaty::CastlingSide::KingSide);
                let color = pos.turn();
                let (king_to, rook_to) = (side.king_to(color), side.rook_to(color));
                let king_moves = king != king_to;
                let rook_moves = rook != rook_to;
                let king_first_alone = mode == CastlingMode::Standard && self.rng.chance(50);
                if king_first_alone {
                    // 4.6b: king released on its square first, the rook completes.
                    self.lift(king);
                    self.pause();
                    self.place(king_to);
                    self.pause();
                    self.lift(rook);
                    self.pause();
                    self.place(rook_to);
                } else {
                    // Both off the board, then both in (Appendix F's way).
                    if king_moves {
                        self.lift(king);
                        self.pause();
                    }
                    if rook_moves {
                        self.lift(rook);
                        self.pause();
                    }
                    let rook_in_first = self.rng.chance(50);
                    if rook_in_first && rook_moves {
                        self.place(rook_to);
                        self.pause();
                    }
                    if king_moves {
                        self.place(king_to);
                    }
                    if !rook_in_first && rook_moves {
                        if king_moves {
                            self.pause();
                        }
                        self.place(rook_to);
                    }
                }
            }
            Move::Put { to, .. } => self.place(to),
        }
        if let (Some(role), false, true) = (m.promotion(), promote_before, says) {
            let ms = self.rng.range(100, 900);
            self.wait(ms);
            self.input(Input::Promote(role));
        }
    }
}

/// Why a game record cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordError {
    /// The start position is not one (its FEN, or a Chess960 number).
    Start(crate::core::game::StartError),
    /// The move at this index (0-based ply) is not a legal move in SAN.
    Move { ply: usize, why: String },
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordError::Start(e) => write!(f, "{e}"),
            RecordError::Move { ply, why } => write!(f, "ply {}: {why}", ply + 1),
        }
    }
}

impl std::error::Error for RecordError {}

/// The legal moves of a game record, and where (if anywhere) the record
/// stops making sense: the index of the first move that cannot be played.
pub fn playable_moves(
    record: &GameRecord,
) -> Result<(Chess, CastlingMode, Vec<Move>, Option<usize>), RecordError> {
    let (start, mode) = record.start.position().map_err(RecordError::Start)?;
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for (i, san) in record.sans.iter().enumerate() {
        match resolve_san(&pos, san) {
            Ok(m) => {
                pos.play_unchecked(m);
                moves.push(m);
            }
            Err(_) => return Ok((start, mode, moves, Some(i))),
        }
    }
    Ok((start, mode, moves, None))
}

/// The moves of a game, checked against the rules.
pub fn moves_of(record: &GameRecord) -> Result<(Chess, CastlingMode, Vec<Move>), RecordError> {
    let (start, mode) = record.start.position().map_err(RecordError::Start)?;
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for (ply, san) in record.sans.iter().enumerate() {
        let m = resolve_san(&pos, san).map_err(|e| RecordError::Move {
            ply,
            why: e.to_string(),
        })?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok((start, mode, moves))
}

/// Simulates a whole game: a trace that plays every move, then ends the
/// game the way the record says (resignation or agreed draw) if the last
/// position does not end it by itself.
pub fn simulate(record: &GameRecord, seed: u64, style: Style) -> Result<Vec<Entry>, RecordError> {
    let (start, mode, moves) = moves_of(record)?;
    Ok(simulate_moves(record, &start, mode, &moves, seed, style))
}

/// Simulates `moves` from `start`, ending as `record.result` says.
pub fn simulate_moves(
    record: &GameRecord,
    start: &Chess,
    mode: CastlingMode,
    moves: &[Move],
    seed: u64,
    style: Style,
) -> Vec<Entry> {
    let moves = moves.to_vec();
    let start = start.clone();
    let mut hands = Hands::new(seed, style, start.board().occupied());
    hands.push(Reading::Header(crate::trace::Header {
        start: record.start.clone(),
        ..crate::trace::Header::default()
    }));
    let mut pos = start;
    for m in moves {
        hands.play(&pos, m, mode);
        pos.play_unchecked(m);
    }
    if !pos.is_game_over() {
        hands.wait(2000);
        match record.result.as_str() {
            "1-0" => hands.input(Input::Resign(Color::Black)),
            "0-1" => hands.input(Input::Resign(Color::White)),
            "1/2-1/2" => {
                hands.input(Input::DrawOffer(pos.turn()));
                hands.wait(1500);
                hands.input(Input::DrawOffer(!pos.turn()));
            }
            _ => {}
        }
    }
    hands.wait(3000);
    hands.into_entries()
}

/// Where the sighted player's moves come from in a two-board simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sighted {
    /// His own board, read by sensors (`"sighted"`).
    Board,
    /// A wooden board: an assistant relays each move as a `move` input.
    Relay,
}

/// Simulates a whole game on two boards (E1): the blind player (White,
/// on `"blind"`) and the sighted player (Black) each move on their own
/// board, and each board's player makes the opponent's move on his own
/// board after `delay` ms (a range) once it is played, before his own.
/// With [`Sighted::Relay`] Black's moves are relayed and only the blind
/// player's board is read.
#[allow(clippy::too_many_arguments)]
pub fn simulate_two_boards(
    record: &GameRecord,
    start: &Chess,
    mode: CastlingMode,
    moves: &[Move],
    seed: u64,
    style: Style,
    sighted: Sighted,
    delay: (u64, u64),
) -> Vec<Entry> {
    let occ = start.board().occupied();
    let mut blind = Hands::new(seed, style, occ);
    let mut other = Hands::new(seed ^ 0x5eed, style, occ).on_board("sighted");
    let mut entries = vec![Entry {
        t: 0,
        line: 0,
        reading: Reading::Header(crate::trace::Header {
            start: record.start.clone(),
            black_moves_on: Some(
                match sighted {
                    Sighted::Board => "sighted",
                    Sighted::Relay => "relay",
                }
                .to_string(),
            ),
            ..crate::trace::Header::default()
        }),
    }];
    // A move is executed a debounce window after its last change; the
    // other board's player starts on it a human delay later.
    let settle = crate::core::debounce::DEFAULT_WINDOW_MS + MAX_CHATTER_MS;
    let mut pos = start.clone();
    for &m in moves {
        let white = pos.turn() == Color::White;
        let done = match (white, sighted) {
            (true, _) => {
                blind.play(&pos, m, mode);
                blind.last_change + settle
            }
            (false, Sighted::Board) => {
                other.play(&pos, m, mode);
                other.last_change + settle
            }
            (false, Sighted::Relay) => {
                let (lo, hi) = style.think;
                let think = blind.rng.range(lo, hi);
                let at = blind.now().max(other.now()) + think;
                other.wait_until(at);
                entries.push(Entry {
                    t: at,
                    line: 0,
                    reading: Reading::Input(Input::Move(crate::core::input::Relayed::Uci(
                        m.to_uci(mode),
                    ))),
                });
                at
            }
        };
        let follower = if white { &mut other } else { &mut blind };
        if white && sighted == Sighted::Relay {
            // The wooden board is not read; its player keeps pace.
            follower.wait_until(done);
        } else {
            let wait = follower.rng.range(delay.0, delay.1);
            follower.wait_until(done + wait);
            follower.replicate(&pos, m, mode);
        }
        // The mover's next move comes after his own board caught up.
        let (mover, follower) = if white {
            (&mut blind, &mut other)
        } else {
            (&mut other, &mut blind)
        };
        let caught_up = follower.last_change + settle;
        mover.wait_until(caught_up.max(follower.now()));
        follower.wait_until(mover.now());
        pos.play_unchecked(m);
    }
    let end = blind.now().max(other.now()) + 2000;
    blind.wait_until(end);
    let mut tail = Vec::new();
    if !pos.is_game_over() {
        let decided = |input| Entry {
            t: end,
            line: 0,
            reading: Reading::Input(input),
        };
        match record.result.as_str() {
            "1-0" => tail.push(decided(Input::Resign(Color::Black))),
            "0-1" => tail.push(decided(Input::Resign(Color::White))),
            "1/2-1/2" => {
                tail.push(decided(Input::DrawOffer(pos.turn())));
                tail.push(decided(Input::DrawOffer(!pos.turn())));
            }
            _ => {}
        }
    }
    blind.wait(3000);
    let mut readings: Vec<Entry> = blind.into_entries();
    if sighted == Sighted::Board {
        readings.extend(other.into_entries());
    }
    readings.extend(entries.drain(1..));
    // One timeline: by time, each board's own order kept.
    readings.sort_by_key(|e| e.t);
    entries.extend(readings.into_iter().filter(|e| e.t <= end));
    entries.extend(tail);
    entries
}
