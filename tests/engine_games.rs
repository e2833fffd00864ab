//! Whole games against the real Stockfish (Debian's, over UCI). The blind
//! player's moves come from real games while they are legal, then from a
//! weak player; simulated hands make them on the pegged board with human
//! timing and chatter, and repeat each of the engine's moves on it, now and
//! then wrongly first. The game is run through the controller as `play`
//! runs it: every move said, every engine move confirmed on the board,
//! the PGN read back by python-chess, both clocks what the timeline says.
//! And the engine's strength: at its lowest it beats a weak player.

mod common;

#[path = "support/scoresheet.rs"]
mod scoresheet;

use std::time::Duration;

use common::{of, run_with, sans};
use pegboard::core::input::Relayed;
use pegboard::core::{Input, Seat, Settings};
use pegboard::engine::uci::{Go, position};
use pegboard::engine::{Engine, EngineConfig};
use pegboard::record::pgn::read_games;
use pegboard::sim::{Hands, Rng, Style};
use pegboard::trace::{Entry, Header, Reading};
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Color, Move, Position, Square};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn stockfish(more: impl FnOnce(&mut EngineConfig)) -> Engine {
    let mut c = EngineConfig::default();
    more(&mut c);
    Engine::start(&c, false).expect("stockfish (installed by .ci/setup.sh) starts")
}

/// The engine's move in `pos`, reached by `moves` from the start.
fn engine_move(e: &mut Engine, pos: &Chess, moves: &[String], go: &Go) -> (Move, Option<u32>) {
    let t = e
        .think(&position(START, moves), go, Duration::from_secs(20))
        .expect("a move");
    let m = t
        .uci
        .to_move(pos)
        .unwrap_or_else(|_| panic!("Stockfish's {} is legal here", t.uci));
    (m, t.depth)
}

/// A weak player: a capture when there is one, else any legal move.
fn weak_move(pos: &Chess, rng: &mut Rng) -> Move {
    let legal = pos.legal_moves();
    let captures: Vec<&Move> = legal.iter().filter(|m| m.is_capture()).collect();
    let pick = |n: usize, rng: &mut Rng| rng.range(0, n as u64 - 1) as usize;
    if !captures.is_empty() {
        *captures[pick(captures.len(), rng)]
    } else {
        legal[pick(legal.len(), rng)]
    }
}

#[test]
fn at_its_lowest_strength_the_engine_mostly_beats_a_weak_player_searching_one_ply() {
    // Below Stockfish's lowest rating: its lowest skill, one ply deep.
    let mut e = stockfish(|c| c.elo = Some(600));
    assert!(e.below_lowest);
    let mut rng = Rng::new(7);
    let (mut won, mut lost) = (0, 0);
    for game in 0..20 {
        let engine = if game % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut pos = Chess::default();
        let mut moves: Vec<String> = Vec::new();
        e.new_game().expect("a new game");
        while !pos.is_game_over() && moves.len() < 400 {
            let m = if pos.turn() == engine {
                let (m, depth) = engine_move(&mut e, &pos, &moves, &Go::default());
                assert_eq!(depth, Some(1), "its search is one ply deep");
                m
            } else {
                weak_move(&pos, &mut rng)
            };
            moves.push(m.to_uci(CastlingMode::Standard).to_string());
            pos.play_unchecked(m);
        }
        if pos.is_checkmate() {
            if pos.turn() == engine {
                lost += 1;
            } else {
                won += 1;
            }
        }
    }
    assert!(
        won >= 15 && lost == 0,
        "of 20 games the engine won {won}, lost {lost}"
    );
}

/// A whole game: the blind player (White) plays `record`'s moves while
/// they are legal, then a weak player's; Stockfish (Black, depth 4) replies.
/// Returns the trace, the moves' SAN and how many the engine made.
fn engine_game(record_moves: &[Move], seed: u64, plies: usize) -> (Vec<Entry>, Vec<String>, usize) {
    // One thread (Stockfish's default) and a fixed depth: the same moves
    // on every run.
    let mut e = stockfish(|_| {});
    e.new_game().expect("a new game");
    let go = Go {
        depth: Some(4),
        ..Go::default()
    };
    let mode = CastlingMode::Standard;
    let mut pos = Chess::default();
    let mut hands = Hands::new(seed, Style::default(), pos.board().occupied());
    let mut rng = Rng::new(seed ^ 0xbad);
    let mut moves: Vec<String> = Vec::new();
    let mut sans_played = Vec::new();
    let mut inputs: Vec<Entry> = Vec::new();
    let input = |t: u64, input: Input| Entry {
        t,
        line: 0,
        reading: Reading::Input(input),
    };
    // A move is executed a debounce window after its last change; its
    // announcement starts 20 ms after that.
    let settle = pegboard::core::debounce::DEFAULT_WINDOW_MS + pegboard::sim::MAX_CHATTER_MS;
    let mut engine_moves = 0;
    let mut on_record = true;
    while !pos.is_game_over() && moves.len() < plies {
        let ply = moves.len() as u32 + 1;
        let m = if pos.turn() == Color::White {
            let m = match record_moves.get(moves.len()) {
                Some(&m) if on_record && pos.is_legal(m) => m,
                _ => {
                    on_record = false;
                    weak_move(&pos, &mut rng)
                }
            };
            hands.play(&pos, m, mode);
            let said = hands.last_change + settle + 20;
            inputs.push(input(said, Input::Announced(ply)));
            hands.wait_until(said);
            m
        } else {
            let (m, _) = engine_move(&mut e, &pos, &moves, &go);
            engine_moves += 1;
            // The engine thinks a while, its move is said at once; the
            // blind player makes it on his board a human moment later,
            // now and then on a wrong square first.
            let at = hands.now() + rng.range(200, 1500);
            inputs.push(input(at, Input::Move(Relayed::Uci(m.to_uci(mode)))));
            inputs.push(input(at + 20, Input::Announced(ply)));
            hands.wait_until(at + rng.range(800, 2500));
            match m {
                Move::Normal {
                    from,
                    to,
                    capture: None,
                    promotion: None,
                    ..
                } if rng.chance(20) => {
                    let wrong = (0..64)
                        .map(Square::new)
                        .find(|s| pos.board().piece_at(*s).is_none() && *s != to)
                        .expect("an empty square");
                    hands.lift(from);
                    hands.wait(400);
                    hands.place(wrong);
                    hands.wait(1500);
                    hands.lift(wrong);
                    hands.wait(300);
                    hands.place(to);
                }
                _ => hands.replicate(&pos, m, mode),
            }
            hands.wait(settle + 400);
            m
        };
        sans_played.push(SanPlus::from_move_and_play_unchecked(&mut pos.clone(), m).to_string());
        moves.push(m.to_uci(mode).to_string());
        pos.play_unchecked(m);
    }
    hands.wait(3000);
    let mut readings = hands.into_entries();
    readings.extend(inputs);
    readings.sort_by_key(|e| e.t);
    let mut entries = vec![Entry {
        t: 0,
        line: 0,
        reading: Reading::Header(Header {
            black_moves_on: Some("engine".into()),
            ..Header::default()
        }),
    }];
    entries.extend(readings);
    (entries, sans_played, engine_moves)
}

#[test]
fn whole_games_against_stockfish_made_on_the_pegged_board() {
    let path = format!(
        "{}/tests/games/kasparov-deep-blue-1997.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    let games = read_games(&std::fs::read(&path).expect("games")).expect("read");
    for (i, game) in games.iter().take(3).enumerate() {
        let (_, _, record_moves) = pegboard::sim::moves_of(&game.record).expect("moves");
        let (trace, want, engine_moves) = engine_game(&record_moves, 100 + i as u64, 80);
        let mut settings = Settings::default();
        settings.seats.black = Seat::Engine;
        settings.clock.control =
            Some(pegboard::core::clock::TimeControl::parse_pgn("900").expect("control"));
        let events = run_with(&trace, settings);
        let label = format!("game {}", i + 1);
        // Every move made and said; the engine's in the long form.
        assert_eq!(sans(&events), want, "{label}");
        let moves = of(&events, "move");
        for m in &moves {
            assert!(
                m["say"].as_str().is_some_and(|s| !s.is_empty()),
                "{label}: {m}"
            );
        }
        for m in moves.iter().filter(|m| m["color"] == "black") {
            assert_eq!(m["board"], "relay", "{label}");
            // "Springer Gustav acht nach Felix sechs", "Bauer Hector sechs
            // schlägt Gustav fünf": from where to where; or the castling.
            assert!(
                m["say"].as_str().is_some_and(|s| s.contains(" nach ")
                    || s.contains(" schlägt ")
                    || s.ends_with("Rochade")),
                "{label}: {m}"
            );
        }
        // Every engine move confirmed on the board, wrong squares guided.
        assert_eq!(of(&events, "replicated").len(), engine_moves, "{label}");
        for bad in ["illegal", "touch_violation", "refused"] {
            assert!(
                of(&events, bad).is_empty(),
                "{label}: {bad}: {:?}",
                of(&events, bad)
            );
        }
        // Both clocks: each player's time is what his moves took, from the
        // announcement of the move before to the announcement of his own
        // (E2.3), or for the engine to its move's coming: its time is not
        // spent while the voices say it. The instants are the trace's own.
        let said: Vec<u64> = trace
            .iter()
            .filter(|e| matches!(e.reading, Reading::Input(Input::Announced(_))))
            .map(|e| e.t)
            .collect();
        let made: Vec<u64> = trace
            .iter()
            .filter(|e| matches!(e.reading, Reading::Input(Input::Move(_))))
            .map(|e| e.t)
            .collect();
        assert_eq!(said.len(), want.len(), "{label}");
        assert_eq!(made.len(), engine_moves, "{label}");
        // The game begins with the trace, and White's clock with it (6.5).
        let start = trace.first().map(|e| e.t).expect("a trace");
        assert_eq!(
            of(&events, "clock")[0]["t"].as_u64(),
            Some(start),
            "{label}: the clock starts with the game"
        );
        let mut used = [0u64, 0u64];
        let mut before = start;
        let presses: Vec<&serde_json::Value> = of(&events, "clock")
            .into_iter()
            .filter(|c| c["cause"] == "press")
            .collect();
        // The move that ends the game (a mate, 5.1a) stops the clocks
        // instead; every other move presses them.
        let mated = !of(&events, "game_over").is_empty();
        assert_eq!(presses.len(), want.len() - usize::from(mated), "{label}");
        for (ply, (&at, press)) in said.iter().zip(&presses).enumerate() {
            let stop = if ply % 2 == 1 { made[ply / 2] } else { at };
            used[ply % 2] += stop - before;
            before = at;
            assert_eq!(press["t"].as_u64(), Some(at), "{label}");
            assert_eq!(
                press["white"]["remaining_ms"].as_u64(),
                Some(900_000 - used[0]),
                "{label}, ply {}",
                ply + 1
            );
            assert_eq!(
                press["black"]["remaining_ms"].as_u64(),
                Some(900_000 - used[1]),
                "{label}, ply {}",
                ply + 1
            );
        }
        // The scoresheet, read back by python-chess, is the game.
        let mut settings = Settings::default();
        settings.seats.black = Seat::Engine;
        let events = common::replayed(&trace, settings);
        let read = scoresheet::with_python_chess(&common::scoresheet_of(&events));
        assert_eq!(read.len(), 1, "{label}");
        assert_eq!(read[0].0.sans, want, "{label}");
    }
}
