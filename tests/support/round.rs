//! A round's boards for the tests and benchmarks of the hall: real games
//! from the shared collections, played by simulated hands on a
//! 90-minute clock and replayed into events a mirror serves.
#![allow(dead_code)]

use pegboard::sim::Style;

/// The games the boards play: every game of the shared collections.
pub fn games() -> Vec<pegboard::record::pgn::PgnGame> {
    let dir = format!("{}/tests/games", env!("CARGO_MANIFEST_DIR"));
    let mut games = Vec::new();
    for file in [
        "immortal-games.pgn",
        "kasparov-deep-blue-1997.pgn",
        "nepomniachtchi-liren-game1.pgn",
        "anastasian-lewis.pgn",
        "molinari-bordais-1979.pgn",
        "broadcast-clk.pgn",
    ] {
        let text = std::fs::read(format!("{dir}/{file}")).expect("games");
        games.extend(pegboard::record::pgn::read_games(&text).expect("PGN"));
    }
    games
}

/// Board `i`'s game: the first moves of a real game, played by simulated
/// hands on a 90-minute clock, and then `more` (inputs, as trace lines).
pub fn board_events(
    game: &pegboard::record::pgn::PgnGame,
    i: usize,
    more: &[&str],
) -> Vec<pegboard::core::Stamped> {
    played(game, i as u64, 6 + 3 * i, more)
}

/// The first `plies` moves of `game` (all, if it has fewer), played by
/// hands of seed `seed`, then `more`.
pub fn played(
    game: &pegboard::record::pgn::PgnGame,
    seed: u64,
    plies: usize,
    more: &[&str],
) -> Vec<pegboard::core::Stamped> {
    let (start, mode, moves, _) = pegboard::sim::playable_moves(&game.record).expect("moves");
    let n = moves.len().min(plies);
    let mut record = game.record.clone();
    record.result = "*".into();
    let entries =
        pegboard::sim::simulate_moves(&record, &start, mode, &moves[..n], seed, Style::default());
    let end = entries.last().map_or(0, |e| e.t);
    let mut text: String = entries
        .iter()
        .map(|e| pegboard::trace::write_line(e.t, &e.reading) + "\n")
        .collect();
    for (k, line) in more.iter().enumerate() {
        text.push_str(&format!(
            "{{\"t\":{},{line}}}\n",
            end + 500 * (k as u64 + 1)
        ));
    }
    let last = end + 500 * more.len() as u64;
    pegboard::runtime::replay::replay(
        &pegboard::trace::read(text.as_bytes(), "a round's board").expect("a trace"),
        "test",
        with_clock("5400+30"),
        pegboard::announce::Phrasebook::default(),
        &[pegboard::core::BLIND_BOARD],
        pegboard::runtime::replay::Until::At(last + 1000),
    )
    .expect("replays")
}

/// The game's scoresheet, with its players' names.
pub fn scoresheet(
    game: &pegboard::record::pgn::PgnGame,
    events: &[pegboard::core::Stamped],
) -> String {
    let tags = [("White", &game.white), ("Black", &game.black)]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let mut sheet = pegboard::record::scoresheet::Scoresheet::new(&tags, Some("5400+30".into()));
    for e in events {
        sheet.observe(e);
    }
    sheet.pgn()
}

/// A game's events cut before each move: the first part is the game's
/// start, each next one a move and what follows it.
pub fn per_move(events: &[pegboard::core::Stamped]) -> Vec<Vec<pegboard::core::Stamped>> {
    let mut parts: Vec<Vec<pegboard::core::Stamped>> = vec![Vec::new()];
    for e in events {
        if matches!(e.event, pegboard::core::Event::Move { .. }) {
            parts.push(Vec::new());
        }
        if let Some(last) = parts.last_mut() {
            last.push(e.clone());
        }
    }
    parts
}

/// The default settings on the clock `control` (PGN's form).
fn with_clock(control: &str) -> pegboard::core::Settings {
    let mut s = pegboard::core::Settings::default();
    s.clock.control =
        Some(pegboard::core::clock::TimeControl::parse_pgn(control).expect("a PGN time control"));
    s
}
