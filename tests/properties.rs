//! Property tests: random games with random handling and noise give the
//! same moves; arbitrary scan sequences never panic and never corrupt the
//! game.

mod common;

use common::{run_with, to_json};
use pegboard::core::{BLIND_BOARD, Controller, Settings, StartPosition};
use pegboard::record::pgn::GameRecord;
use pegboard::sim::{Style, simulate_moves};
use proptest::prelude::*;
use shakmaty::{Bitboard, CastlingMode, Chess, Position, san::SanPlus};

/// A random legal game of up to `plies` moves, chosen by `choices`.
fn random_game(choices: &[u16], plies: usize) -> (Chess, Vec<shakmaty::Move>) {
    let start = Chess::default();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for &c in choices.iter().take(plies) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[c as usize % legal.len()];
        pos.play_unchecked(m);
        moves.push(m);
    }
    (start, moves)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, .. ProptestConfig::default() })]

    #[test]
    fn random_games_with_random_handling_and_noise_give_the_same_moves(
        choices in prop::collection::vec(any::<u16>(), 1..120),
        seed in any::<u64>(),
        chatter in 0u64..=100,
        glitch in 0u64..=100,
    ) {
        let (start, moves) = random_game(&choices, choices.len());
        let record = GameRecord { start: StartPosition::default(), sans: vec![], result: "*".into() };
        let style = Style { chatter, glitch, ..Style::default() };
        let trace = simulate_moves(&record, &start, CastlingMode::Standard, &moves, seed, style);
        let events = run_with(&trace, Settings::default());
        let mut pos = start.clone();
        let want: Vec<String> = moves
            .iter()
            .map(|&m| SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string())
            .collect();
        let got: Vec<String> = events
            .iter()
            .filter(|e| e["event"] == "move")
            .map(|e| e["san"].as_str().unwrap_or_default().to_string())
            .collect();
        prop_assert_eq!(got, want);
        for bad in ["illegal", "mismatch", "touch_violation"] {
            prop_assert!(events.iter().all(|e| e["event"] != bad), "unexpected {}", bad);
        }
    }

    #[test]
    fn arbitrary_scans_never_panic_and_the_position_stays_legal(
        steps in prop::collection::vec((0u64..3000, any::<u64>(), 0u8..6, 0u32..64), 1..300),
    ) {
        let mut c = Controller::new(
            &StartPosition::default(), Settings::default(), &[BLIND_BOARD],
        ).expect("start");
        let mut out = Vec::new();
        let mut t = 0;
        for (dt, word, kind, sq) in steps {
            t += dt;
            let sq = shakmaty::Square::new(sq);
            match kind {
                0 => c.scan(t, 0, Bitboard(word), &mut out),
                1 | 2 => c.lift(t, 0, sq, &mut out),
                3 | 4 => c.place(t, 0, sq, &mut out),
                _ => c.input(t, pegboard::core::Input::Promote(shakmaty::Role::Queen), &mut out),
            }
        }
        c.finish(&mut out);
        // The game replays from its start: every move in it was legal.
        let mut pos = c.game().start_position().clone();
        for pm in c.game().moves() {
            prop_assert!(pos.is_legal(pm.m));
            pos.play_unchecked(pm.m);
        }
        prop_assert_eq!(pos.board(), c.game().position().board());
        // Events are in time order and serialize.
        let json = to_json(&out);
        let times: Vec<u64> = json.iter().filter_map(|e| e["t"].as_u64()).collect();
        prop_assert!(times.windows(2).all(|w| w[0] <= w[1]));
    }
}
