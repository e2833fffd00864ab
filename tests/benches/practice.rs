//! The engine as a practice partner: `cargo bench --bench practice`.
//!
//! Two measures, both against Debian's Stockfish, each move chosen as
//! `play` chooses it (`engine::player`: the book, the step's search and
//! pick, the think time):
//!
//! - **The steps' matches.** Each step plays the next one up, 20 games
//!   (10 between steps 7 and 8), colours alternating, from the start
//!   position (the book's random choice
//!   varies the openings). A game ends as the Laws end it (mate,
//!   stalemate, insufficient material, threefold repetition, fifty
//!   moves), or as a draw after 300 plies. Target: the stronger step
//!   scores at least 65 % in every match.
//! - **The think times.** Step 3 plays step 3 at 5+3 and at 90+30, on a
//!   clock that runs by the think times pegboard gives (virtual time: the
//!   engine's answers are real, the seconds are counted, not waited).
//!   Figures: the median and the longest think time a move, and the least
//!   time either engine had left. Targets: no flag falls; at 5+3 the
//!   median is 2 to 10 s and the longest at most 30 s; at 90+30 the median
//!   is 5 to 90 s and the longest at most 120 s; in the opening (the first
//!   16 plies) no move takes longer than 8 s.
//!
//! Full strength searches for 500 ms a move here, so that the match
//! between steps 7 and 8 takes minutes, not hours; in `play` it searches
//! as long as its think time, which only makes it stronger. The smoke run
//! (`PEGBOARD_BENCH_SMOKE=1`) plays the matches of steps 1 to 3 (8 games
//! each) and one 5+3 game; `cargo bench --bench practice -- times` plays
//! the think times' games alone.

#[path = "../support/bench.rs"]
mod bench;

use std::collections::HashMap;
use std::time::Duration;

use pegboard::engine::book::{Book, DEBIAN_BOOK};
use pegboard::engine::pace::Clock;
use pegboard::engine::player::Player;
use pegboard::engine::uci::position;
use pegboard::engine::{Engine, EngineConfig};
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, KnownOutcome, Outcome, Position};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The most plies a match game is played to.
const MAX_PLIES: usize = 300;

/// One side: its engine (told its step's options) and its player.
struct Side {
    engine: Engine,
    player: Player,
}

fn side(step: u8, book: &Option<Book>, seed: u64) -> Side {
    let config = EngineConfig {
        step: Some(step),
        // Full strength at 500 ms a move (see above).
        movetime_ms: (step == 8).then_some(500),
        ..EngineConfig::default()
    };
    let engine = Engine::start(&config, false).expect("stockfish starts (.ci/setup.sh)");
    Side {
        engine,
        player: Player::new(&config, book.clone(), seed),
    }
}

/// `side`'s move in `pos` after `moves`, and the time it takes over it.
fn choose(
    side: &mut Side,
    pos: &Chess,
    moves: &[String],
    clock: Option<Clock>,
) -> (UciMove, Duration) {
    let s = side.player.situation(pos, moves.len() as u32, clock);
    if let Some(d) = side.player.from_book(pos, &s, CastlingMode::Standard) {
        return (d.uci, d.think);
    }
    let (go, planned) = side.player.plan(&s);
    let thought = side
        .engine
        .think(
            &position(START, moves),
            &go,
            planned + Duration::from_secs(30),
        )
        .expect("stockfish answers");
    let d = side.player.decide(&s, planned, &thought);
    (d.uci, d.think)
}

/// How a game ended, from White's side: 1, ½ or 0.
fn result(pos: &Chess, seen: &HashMap<u64, u32>, plies: usize) -> Option<f64> {
    if let Outcome::Known(outcome) = pos.outcome() {
        return Some(match outcome {
            KnownOutcome::Decisive {
                winner: Color::White,
            } => 1.0,
            KnownOutcome::Decisive {
                winner: Color::Black,
            } => 0.0,
            KnownOutcome::Draw => 0.5,
        });
    }
    let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
    let repeated = seen.get(&key.0).is_some_and(|&n| n >= 3);
    (repeated || pos.halfmoves() >= 100 || plies >= MAX_PLIES).then_some(0.5)
}

/// A game; returns White's score.
fn game(white: &mut Side, black: &mut Side) -> f64 {
    for s in [&mut *white, &mut *black] {
        s.engine.new_game().expect("a new game");
    }
    let mut pos = Chess::default();
    let mut moves: Vec<String> = Vec::new();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    loop {
        let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
        *seen.entry(key.0).or_default() += 1;
        if let Some(r) = result(&pos, &seen, moves.len()) {
            return r;
        }
        let mover = if pos.turn() == Color::White {
            &mut *white
        } else {
            &mut *black
        };
        let (uci, _) = choose(mover, &pos, &moves, None);
        let m = uci.to_move(&pos).expect("a legal move");
        pos.play_unchecked(m);
        moves.push(uci.to_string());
    }
}

/// Step `low` against step `low + 1`, `games` games: the stronger step's
/// wins, draws and losses.
fn match_of(low: u8, games: u32, book: &Option<Book>) -> (u32, u32, u32) {
    let mut weak = side(low, book, 11 + u64::from(low));
    let mut strong = side(low + 1, book, 97 + u64::from(low));
    let (mut w, mut d, mut l) = (0, 0, 0);
    for g in 0..games {
        let strong_score = if g % 2 == 0 {
            game(&mut strong, &mut weak)
        } else {
            1.0 - game(&mut weak, &mut strong)
        };
        match strong_score {
            s if s > 0.75 => w += 1,
            s if s < 0.25 => l += 1,
            _ => d += 1,
        }
    }
    (w, d, l)
}

/// A game on the clock `initial`+`increment` (s), virtual time: every
/// think time, the ones from the opening apart, and the least time either
/// side had left.
fn timed_game(
    initial: u64,
    increment: u64,
    book: &Option<Book>,
    seed: u64,
) -> (Vec<u64>, Vec<u64>, u64) {
    let mut white = side(3, book, seed);
    let mut black = side(3, book, seed + 1);
    for s in [&mut white, &mut black] {
        s.engine.new_game().expect("a new game");
    }
    let mut left = [initial * 1000, initial * 1000];
    let mut pos = Chess::default();
    let mut moves: Vec<String> = Vec::new();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    let (mut thinks, mut opening) = (Vec::new(), Vec::new());
    let mut least = u64::MAX;
    loop {
        let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
        *seen.entry(key.0).or_default() += 1;
        if result(&pos, &seen, moves.len()).is_some() {
            return (thinks, opening, least);
        }
        let i = usize::from(pos.turn() == Color::Black);
        let clock = Clock {
            remaining_ms: left[i],
            increment_ms: increment * 1000,
        };
        let mover = if i == 0 { &mut white } else { &mut black };
        let (uci, think) = choose(mover, &pos, &moves, Some(clock));
        let ms = think.as_millis() as u64;
        if moves.len() < 16 {
            opening.push(ms);
        }
        thinks.push(ms);
        // The flag falls if the think time is more than is left.
        least = least.min(left[i].saturating_sub(ms));
        if ms >= left[i] {
            return (thinks, opening, 0);
        }
        left[i] = left[i] - ms + increment * 1000;
        let m = uci.to_move(&pos).expect("a legal move");
        pos.play_unchecked(m);
        moves.push(uci.to_string());
    }
}

fn median(v: &mut [u64]) -> u64 {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

fn main() {
    let mut targets = bench::Targets::new("practice");
    let book = Book::open(std::path::Path::new(DEBIAN_BOOK)).ok();
    targets.holds(
        "Debian's opening book is there",
        book.is_some(),
        "apt install gnuchess-book (.ci/setup.sh)",
    );
    let times_only = std::env::args().any(|a| a == "times");
    let (pairs, games): (Vec<u8>, u32) = bench::pick(((1..=7).collect(), 20), (vec![1, 2], 8));
    let pairs = if times_only { Vec::new() } else { pairs };
    println!("the steps' matches (colours alternating):");
    println!("| match | games | stronger step's wins | draws | losses | score |");
    println!("|---|---|---|---|---|---|");
    for low in pairs {
        // Full strength searches 500 ms a move: its match is half as long.
        let games = if low == 7 { games / 2 } else { games };
        let (w, d, l) = match_of(low, games, &book);
        let score = (f64::from(w) + 0.5 * f64::from(d)) / f64::from(games) * 100.0;
        println!(
            "| step {} against step {low} | {games} | {w} | {d} | {l} | {score:.0} % |",
            low + 1
        );
        // A smoke run's few games are held to 60 %, not 65 - 50 % of it.
        let target = if bench::smoke() { 60.0 } else { 65.0 };
        targets.holds(
            &format!(
                "step {} scores at least {target} % against step {low}",
                low + 1
            ),
            score >= target,
            &format!("{score:.0} %"),
        );
    }
    let controls: Vec<(u64, u64)> = bench::pick(vec![(300, 3), (5400, 30)], vec![(300, 3)]);
    for (initial, increment) in controls {
        let (mut thinks, opening, least) = timed_game(initial, increment, &book, 2026);
        let (m, most) = (
            median(&mut thinks),
            thinks.iter().copied().max().unwrap_or(0),
        );
        let opening_most = opening.iter().copied().max().unwrap_or(0);
        let name = format!("{}+{increment}", initial / 60);
        println!(
            "think times at {name} (step 3 against step 3, {} plies): median {:.1} s, longest {:.1} s, \
             longest in the opening {:.1} s; the least time left {:.1} s",
            thinks.len(),
            m as f64 / 1000.0,
            most as f64 / 1000.0,
            opening_most as f64 / 1000.0,
            least as f64 / 1000.0
        );
        targets.holds(
            &format!("no flag falls at {name}"),
            least > 0,
            "a flag fell",
        );
        let (low, high, longest) = if initial < 600 {
            (2.0, 10.0, 30.0)
        } else {
            (5.0, 90.0, 120.0)
        };
        let m = m as f64 / 1000.0;
        targets.holds(
            &format!("the median think time at {name} is {low} to {high} s"),
            (low..=high).contains(&m),
            &format!("{m:.1} s"),
        );
        targets.at_most(
            &format!("the longest think time at {name}"),
            most as f64 / 1000.0,
            longest,
            "s",
        );
        targets.at_most(
            &format!("the longest think time in the opening at {name}"),
            opening_most as f64 / 1000.0,
            8.0,
            "s",
        );
    }
    targets.finish();
}
