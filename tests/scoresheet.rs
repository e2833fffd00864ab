//! The scoresheet (E2.5) read back by readers pegboard did not write:
//! pgn-reader and python-chess. Real games are played by simulated hands
//! through the controller with a clock; the PGN kept from the events must
//! hold the same moves, each mover's clock after his move, the draw
//! offers, the result, and for Chess960 the tags that set up its board.

mod common;
#[path = "support/scoresheet.rs"]
mod scoresheet;

use std::collections::BTreeMap;

use pegboard::announce::Phrasebook;
use pegboard::core::clock::TimeControl;
use pegboard::core::{BLIND_BOARD, Event, Settings, Stamped};
use pegboard::record::pgn::read_games;
use pegboard::record::scoresheet::Scoresheet;
use pegboard::runtime::replay::{Until, replay};
use pegboard::sim::{Style, simulate};
use scoresheet::{ReadGame, with_pgn_reader, with_python_chess};

/// A game from `tests/games`, played through the controller with the
/// clock `control`: its events and its scoresheet.
fn played(file: &str, index: usize, control: &str) -> (Vec<Stamped>, String) {
    let path = format!("{}/tests/games/{file}", env!("CARGO_MANIFEST_DIR"));
    let games = read_games(&std::fs::read(&path).expect("the game file")).expect("PGN");
    let record = &games[index].record;
    let entries = simulate(record, 7, Style::default()).expect("the game simulates");
    let mut settings = Settings::default();
    let control = TimeControl::parse_pgn(control).expect("a time control");
    settings.clock.control = Some(control.clone());
    let events = replay(
        &entries,
        file,
        settings,
        Phrasebook::default(),
        &[BLIND_BOARD],
        Until::Idle,
    )
    .expect("the trace replays");
    let tags: BTreeMap<String, String> = [("White", "Anna"), ("Event", "Club night")]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut sheet = Scoresheet::new(&tags, Some(control.to_pgn()));
    for e in &events {
        sheet.observe(e);
    }
    (events, sheet.pgn())
}

/// The scoresheet as python-chess reads it: exactly one game (a loop
/// over none would check nothing).
fn python_chess(pgn: &str) -> Vec<(ReadGame, bool)> {
    let games = with_python_chess(pgn);
    assert_eq!(games.len(), 1, "python-chess reads one game: {pgn}");
    games
}

/// The moves, each mover's time after his move in whole seconds (the
/// clock event that completed it), and the result, from the events.
fn from_events(events: &[Stamped]) -> (Vec<String>, Vec<Option<u64>>, String) {
    let mut sans = Vec::new();
    let mut colors = Vec::new();
    let mut clks: Vec<Option<u64>> = Vec::new();
    let mut result = "*".to_string();
    for e in events {
        match &e.event {
            Event::Move { san, color, .. } => {
                sans.push(san.clone());
                colors.push(color.0);
                clks.push(None);
            }
            Event::Clock {
                cause,
                running,
                white,
                black,
                ..
            } => {
                let cause = serde_json::to_value(cause).expect("a cause");
                let mover = match (cause.as_str(), running) {
                    (Some("press" | "period"), Some(r)) => Some(!r.0),
                    (Some("stop"), _) => colors.last().copied(),
                    _ => None,
                };
                if let Some(m) = mover
                    && let Some(i) = colors.iter().rposition(|&c| c == m)
                    && clks[i].is_none()
                {
                    let ms = if m == shakmaty::Color::White {
                        white.remaining_ms
                    } else {
                        black.remaining_ms
                    };
                    clks[i] = Some(ms / 1000);
                }
            }
            Event::GameOver { result: r, .. } => result = r.to_string(),
            _ => {}
        }
    }
    (sans, clks, result)
}

fn check(read: &ReadGame, events: &[Stamped], reader: &str) {
    let (sans, clks, result) = from_events(events);
    assert!(!sans.is_empty());
    assert_eq!(read.sans, sans, "{reader}: the moves");
    assert_eq!(read.clks, clks, "{reader}: the clock after each move");
    assert_eq!(read.result, result, "{reader}: the result");
    let roster: Vec<&str> = read.tags.iter().take(7).map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        roster,
        ["Event", "Site", "Date", "Round", "White", "Black", "Result"],
        "{reader}: the Seven Tag Roster, in its order"
    );
    assert_eq!(read.tag("White"), Some("Anna"));
    assert_eq!(read.tag("Event"), Some("Club night"));
    assert_eq!(read.tag("Black"), Some("?"));
}

#[test]
fn e2_5_a_real_game_reads_back_with_its_moves_clocks_and_result() {
    // Napoleon - Bertrand (the record as it has come down): a mate.
    let (events, pgn) = played("immortal-games.pgn", 18, "5400+30");
    let read = with_pgn_reader(&pgn);
    assert_eq!(read.len(), 1, "{pgn}");
    check(&read[0], &events, "pgn-reader");
    assert_eq!(read[0].tag("TimeControl"), Some("5400+30"));
    assert_eq!(read[0].tag("Termination"), Some("normal"));
    for (game, chess960) in python_chess(&pgn) {
        check(&game, &events, "python-chess");
        assert!(!chess960);
    }
}

#[test]
fn e2_5_a_resigned_game_and_a_game_with_a_period_read_back() {
    // Kasparov - Deep Blue 1997, game 6 (White wins, Black resigns), with
    // two periods, so that the move counter's period change shows.
    let (events, pgn) = played("kasparov-deep-blue-1997.pgn", 5, "40/5400+30:1800+30");
    check(&with_pgn_reader(&pgn)[0], &events, "pgn-reader");
    for (game, _) in python_chess(&pgn) {
        check(&game, &events, "python-chess");
        assert_eq!(game.tag("Termination"), Some("normal"));
    }
}

#[test]
fn art_9_1_draw_offers_are_marked_and_an_agreed_draw_ends_the_sheet() {
    // Nepomniachtchi - Ding 2023, game 1: drawn by agreement. The
    // simulated hands offer the draw and it is accepted.
    let (events, pgn) = played("nepomniachtchi-liren-game1.pgn", 0, "7200+30");
    let offers: Vec<&Stamped> = events
        .iter()
        .filter(|e| matches!(e.event, Event::DrawOffer { .. }))
        .collect();
    assert_eq!(offers.len(), 1, "one offer, then the acceptance");
    let read = with_pgn_reader(&pgn);
    check(&read[0], &events, "pgn-reader");
    assert_eq!(read[0].result, "1/2-1/2");
    let marked: Vec<usize> = read[0]
        .comments
        .iter()
        .enumerate()
        .filter(|(_, c)| c.contains("(=)"))
        .map(|(i, _)| i)
        .collect();
    // The offer was made after the last move (and accepted).
    assert_eq!(marked, [read[0].sans.len() - 1], "{pgn}");
    for (game, _) in python_chess(&pgn) {
        assert!(game.comments.last().is_some_and(|c| c.contains("(=)")));
        check(&game, &events, "python-chess");
    }
}

#[test]
fn chess960_scoresheets_set_up_their_start_position() {
    // A Fischer random engine game, from its own start position.
    let (events, pgn) = played("cutechess-fischerrandom.pgn", 2, "300+3");
    let read = with_pgn_reader(&pgn);
    check(&read[0], &events, "pgn-reader");
    assert_eq!(read[0].tag("Variant"), Some("Chess960"));
    assert_eq!(read[0].tag("SetUp"), Some("1"));
    let Some(Event::Ready { fen, .. }) = events.first().map(|e| &e.event) else {
        panic!("ready first");
    };
    assert_eq!(read[0].tag("FEN"), Some(fen.as_str()));
    for (game, chess960) in python_chess(&pgn) {
        assert!(chess960, "python-chess set up a Chess960 board");
        check(&game, &events, "python-chess");
    }
}

#[test]
fn a_set_up_positions_move_number_never_wraps() {
    // The arbiter set up a position at the largest move number PGN can
    // carry; moves after it keep that number rather than start from 0.
    let record = pegboard::record::pgn::GameRecord {
        start: pegboard::core::StartPosition {
            start: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 4294967295".into(),
            chess960: false,
        },
        sans: ["e5", "Nf3", "Nc6", "Bb5"].map(String::from).to_vec(),
        result: "*".into(),
    };
    let entries = simulate(&record, 3, Style::default()).expect("simulates");
    let events = replay(
        &entries,
        "set-up",
        Settings::default(),
        Phrasebook::default(),
        &[BLIND_BOARD],
        Until::Idle,
    )
    .expect("replays");
    let mut sheet = Scoresheet::new(&BTreeMap::new(), None);
    for e in &events {
        sheet.observe(e);
    }
    let pgn = sheet.pgn();
    assert!(
        pgn.contains("4294967295... e5 4294967295. Nf3 Nc6 4294967295. Bb5"),
        "{pgn}"
    );
    assert!(!pgn.contains(" 0. "), "{pgn}");
}
