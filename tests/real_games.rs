//! Real games, played through the whole pipeline by simulated hands with
//! varied handling, switch chatter and glitches: exactly the game's moves
//! must come out, with no false alarm, and the right ending.

mod common;

use common::{of, run_with, sans};
use pegboard::core::Settings;
use pegboard::record::pgn::{PgnGame, read_games};
use pegboard::sim::{Style, playable_moves, simulate_moves};
use shakmaty::{Position, san::SanPlus};

fn games(file: &str) -> Vec<PgnGame> {
    let path = format!("{}/tests/games/{file}", env!("CARGO_MANIFEST_DIR"));
    let pgn = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_games(&pgn).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The SAN of each move and how the game must end, from shakmaty alone.
fn expected(
    game: &PgnGame,
    moves: &[shakmaty::Move],
    start: &shakmaty::Chess,
) -> (Vec<String>, Option<(String, String)>) {
    let mut pos = start.clone();
    let sans = moves
        .iter()
        .map(|&m| SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string())
        .collect();
    let ending = if pos.is_checkmate() {
        let result = if pos.turn().is_white() { "0-1" } else { "1-0" };
        Some((result.to_string(), "checkmate".to_string()))
    } else if pos.is_stalemate() {
        Some(("1/2-1/2".to_string(), "stalemate".to_string()))
    } else if pos.is_insufficient_material() {
        Some(("1/2-1/2".to_string(), "insufficient_material".to_string()))
    } else {
        match game.record.result.as_str() {
            "1-0" | "0-1" => Some((game.record.result.clone(), "resignation".to_string())),
            "1/2-1/2" => Some((game.record.result.clone(), "agreement".to_string())),
            _ => None,
        }
    };
    (sans, ending)
}

/// The records known to hold a move that cannot be played: (file, game
/// number, the 0-based ply, its SAN). Each is an ambiguous SAN in the
/// record itself; python-chess refuses the same four ("ambiguous san"):
/// Pillsbury–Tarasch 5...Nd7, Morphy–Baucher 15...Rf8, Spassky–Petrosian
/// 13.Rd1, La Bourdonnais–McDonnell 9...Nd7. Such a game is played up to
/// that move, and no other game may be cut.
const KNOWN_CUTS: &[(&str, usize, usize, &str)] = &[
    ("immortal-games.pgn", 1, 9, "Nd7"),
    ("immortal-games.pgn", 17, 29, "Rf8"),
    ("immortal-games.pgn", 25, 24, "Rd1"),
    ("immortal-games.pgn", 34, 17, "Nd7"),
];

fn check_file(file: &str, seeds: u64) {
    let games = games(file);
    assert!(!games.is_empty(), "{file} has games");
    for (i, game) in games.iter().enumerate() {
        let (start, mode, moves, defect) = playable_moves(&game.record).expect("valid start");
        let known = KNOWN_CUTS
            .iter()
            .find(|&&(f, n, _, _)| f == file && n == i + 1)
            .map(|&(_, _, ply, san)| (ply, san));
        let cut = defect.map(|at| (at, game.record.sans[at].as_str()));
        assert_eq!(
            cut,
            known,
            "{file} game {} ({} - {}): the record must be played to its end unless it is a \
             known cut",
            i + 1,
            game.white,
            game.black
        );
        if let Some((at, _)) = cut {
            assert_eq!(moves.len(), at, "played up to the cut");
        }
        assert!(
            moves.len() >= 8,
            "{file} game {}: too short to be a test",
            i + 1
        );
        let (want_sans, want_end) = expected(game, &moves, &start);
        for seed in 0..seeds {
            let trace = simulate_moves(
                &game.record,
                &start,
                mode,
                &moves,
                seed * 7919 + i as u64,
                Style::default(),
            );
            let events = run_with(&trace, Settings::default());
            let label = format!(
                "{file} game {} ({} - {}), seed {seed}",
                i + 1,
                game.white,
                game.black
            );
            assert_eq!(sans(&events), want_sans, "{label}");
            for bad in ["illegal", "mismatch", "touch_violation"] {
                let found = of(&events, bad);
                assert!(found.is_empty(), "{label}: unexpected {bad}: {found:?}");
            }
            // A promotion waits for its piece when the hands place it
            // before naming it: at most once per promotion of the game.
            let promotions = moves.iter().filter(|m| m.is_promotion()).count();
            let pending = of(&events, "promotion_pending").len();
            assert!(
                pending <= promotions,
                "{label}: {pending} promotions pending for {promotions} promotions"
            );
            let over = of(&events, "game_over");
            match &want_end {
                Some((result, reason)) => {
                    assert_eq!(over.len(), 1, "{label}: one game_over");
                    assert_eq!(over[0]["result"], result.as_str(), "{label}");
                    assert_eq!(over[0]["reason"], reason.as_str(), "{label}");
                }
                None => assert!(over.is_empty(), "{label}"),
            }
        }
    }
}

#[test]
fn opera_style_short_game_molinari_bordais() {
    check_file("molinari-bordais-1979.pgn", 8);
}

#[test]
fn anastasian_lewis_up_to_its_null_move() {
    let games = games("anastasian-lewis.pgn");
    assert!(games[0].truncated, "the record has a null move (Z0)");
    check_file("anastasian-lewis.pgn", 4);
}

#[test]
fn nepomniachtchi_ding_world_championship_game_1() {
    check_file("nepomniachtchi-liren-game1.pgn", 4);
}

#[test]
fn kasparov_deep_blue_1997() {
    check_file("kasparov-deep-blue-1997.pgn", 2);
}

#[test]
fn immortal_games() {
    check_file("immortal-games.pgn", 1);
}

#[test]
fn chess960_games_with_every_castling_handling() {
    check_file("cutechess-fischerrandom.pgn", 6);
}
