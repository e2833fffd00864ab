//! Controller latency in simulated time: `cargo bench --bench latency`.
//!
//! For every move of many simulated games (real games from tests/games,
//! simulated hands with chatter and glitches), the latency is the time from
//! the raw change that completed the move to the `move` event. Two figures:
//! from the *last* raw change (the trace-format contract: the last bounce
//! of the completing transition), and from the *first* edge of that
//! transition (so chatter counts against us too).
//!
//! Moves that wait for a promotion choice are decided by the key, not by
//! a raw change, and are left out (their number is printed); every other
//! move counts, however long it took.
//!
//! Target with the default debounce: median ≤ 50 ms, p95 ≤ 60 ms (from the
//! last raw change). The smoke run (`PEGBOARD_BENCH_SMOKE=1`) plays one
//! simulation of each game instead of three.

#[path = "../support/bench.rs"]
mod bench;

use pegboard::announce::Phrasebook;
use pegboard::core::{BLIND_BOARD, Event, Settings};
use pegboard::record::pgn::read_games;
use pegboard::runtime::replay::{Until, replay};
use pegboard::sim::{Style, playable_moves, simulate_moves};
use pegboard::trace::{Entry, Reading};
use shakmaty::Bitboard;

/// Raw changes of the trace, in time order: (time, occupancy after).
fn raw_changes(entries: &[Entry]) -> Vec<(u64, Bitboard)> {
    let mut raw = Bitboard(0xffff_0000_0000_ffff);
    let mut out = Vec::new();
    for e in entries {
        let next = match &e.reading {
            Reading::Header(h) => {
                if let Ok((pos, _)) = h.start.position() {
                    raw = shakmaty::Position::board(&pos).occupied();
                }
                continue;
            }
            Reading::Scan { occ, .. } => *occ,
            Reading::Lift { square, .. } => raw.without(*square),
            Reading::Place { square, .. } => raw.with(*square),
            Reading::Input(_) | Reading::Keys(_) => continue,
        };
        if next != raw {
            raw = next;
            out.push((e.t, raw));
        }
    }
    out
}

fn main() {
    let mut targets = bench::Targets::new("latency");
    let mut promotions = 0usize;
    let mut last = Vec::new();
    let mut first = Vec::new();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/games");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("tests/games")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    for path in files {
        let pgn = std::fs::read(&path).expect("pgn");
        for (i, game) in read_games(&pgn).expect("pgn").iter().enumerate() {
            let Ok((start, mode, moves, _)) = playable_moves(&game.record) else {
                continue;
            };
            for seed in 0..bench::pick(3u64, 1) {
                let trace = simulate_moves(
                    &game.record,
                    &start,
                    mode,
                    &moves,
                    seed * 31 + i as u64,
                    Style::default(),
                );
                let events = replay(
                    &trace,
                    "latency",
                    Settings::default(),
                    Phrasebook::default(),
                    &[BLIND_BOARD],
                    Until::Idle,
                )
                .expect("replay");
                let changes = raw_changes(&trace);
                // A promotion that waits for its piece to be chosen is
                // decided by the key, not by a raw change: left out.
                let mut choosing = false;
                for e in &events {
                    match e.event {
                        Event::PromotionPending { .. } => {
                            choosing = true;
                            continue;
                        }
                        Event::Move { .. } if choosing => {
                            choosing = false;
                            promotions += 1;
                            continue;
                        }
                        Event::Move { .. } => {}
                        _ => continue,
                    }
                    let idx = changes
                        .iter()
                        .rposition(|&(t, _)| t <= e.t)
                        .expect("a move follows a raw change");
                    let (t_last, final_occ) = changes[idx];
                    // The first edge of the completing transition: walk back
                    // over bounces within 15 ms on the same square.
                    let mut j = idx;
                    while j > 0 && changes[j].0 - changes[j - 1].0 <= 15 && {
                        let d = changes[j - 1].1 ^ final_occ;
                        d.count() <= 1
                    } {
                        j -= 1;
                    }
                    last.push(e.t - t_last);
                    first.push(e.t - changes[j].0);
                }
            }
        }
    }
    last.sort_unstable();
    first.sort_unstable();
    println!(
        "controller latency over {} moves (simulated ms, debounce {} ms); \
         {promotions} promotions that waited for the choice of a piece left out:",
        last.len(),
        Settings::default().debounce_ms
    );
    let ms = |v: &[u64]| v.iter().map(|&x| x as f64).collect::<Vec<_>>();
    let (last, first) = (ms(&last), ms(&first));
    for (name, v) in [
        ("from the last raw change", &last),
        ("from the first edge   ", &first),
    ] {
        println!(
            "  {name}: median {} ms, p95 {} ms, max {} ms",
            bench::quantile(v, 0.5),
            bench::quantile(v, 0.95),
            v[v.len() - 1]
        );
    }
    targets.at_most(
        "median from the last raw change",
        bench::quantile(&last, 0.5),
        50.0,
        "ms",
    );
    targets.at_most(
        "p95 from the last raw change",
        bench::quantile(&last, 0.95),
        60.0,
        "ms",
    );
    targets.finish();
}
