//! Two boards, one game (E1, E2.7, E2.8): the blind player's pegged board
//! and the sighted player's board, or his moves relayed by hand.

mod common;

use common::{of, parse, run_with, sans};
use pegboard::core::Settings;
use pegboard::record::pgn::{PgnGame, read_games};
use pegboard::sim::{Sighted, Style, playable_moves, simulate_two_boards};
use serde_json::Value;
use shakmaty::Position;
use shakmaty::san::SanPlus;

fn games(file: &str) -> Vec<PgnGame> {
    let path = format!("{}/tests/games/{file}", env!("CARGO_MANIFEST_DIR"));
    let pgn = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_games(&pgn).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every game of `file`, played on two boards (or relayed), `seeds` times.
fn two_boards(file: &str, seeds: u64, sighted: Sighted) {
    for (i, game) in games(file).iter().enumerate() {
        let (start, mode, moves, _) = playable_moves(&game.record).expect("valid start");
        let mut pos = start.clone();
        let want: Vec<String> = moves
            .iter()
            .map(|&m| SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string())
            .collect();
        let black_moves = moves
            .iter()
            .enumerate()
            .filter(|(ply, _)| (*ply % 2 == 1) == start.turn().is_white())
            .count();
        for seed in 0..seeds {
            let trace = simulate_two_boards(
                &game.record,
                &start,
                mode,
                &moves,
                seed * 7919 + i as u64,
                Style::default(),
                sighted,
                (300, 3000),
            );
            let events = run_with(&trace, Settings::default());
            let label = format!(
                "{file} game {} ({} - {}), seed {seed}",
                i + 1,
                game.white,
                game.black
            );
            assert_eq!(sans(&events), want, "{label}");
            for bad in [
                "illegal",
                "mismatch",
                "touch_violation",
                "diverged",
                "refused",
            ] {
                let found = of(&events, bad);
                assert!(found.is_empty(), "{label}: unexpected {bad}: {found:?}");
            }
            // Every move is made on the other board too, and confirmed.
            let replicated = of(&events, "replicated");
            let replicas = if sighted == Sighted::Board {
                moves.len()
            } else {
                black_moves
            };
            assert_eq!(replicated.len(), replicas, "{label}");
            // No touch while replicating: every touch is the mover's, on
            // his own board.
            for touch in of(&events, "touch") {
                let own = match touch["board"].as_str() {
                    Some("blind") => "white",
                    _ => "black",
                };
                assert_eq!(touch["color"], own, "{label}: {touch}");
            }
            if sighted == Sighted::Relay {
                assert!(of(&events, "touch").iter().all(|t| t["board"] == "blind"));
            }
        }
    }
}

#[test]
fn real_games_on_two_boards_each_player_on_his_own() {
    two_boards("immortal-games.pgn", 1, Sighted::Board);
    two_boards("kasparov-deep-blue-1997.pgn", 2, Sighted::Board);
    two_boards("cutechess-fischerrandom.pgn", 2, Sighted::Board);
    two_boards("molinari-bordais-1979.pgn", 3, Sighted::Board);
    two_boards("nepomniachtchi-liren-game1.pgn", 2, Sighted::Board);
}

#[test]
fn real_games_with_the_sighted_players_moves_relayed() {
    two_boards("immortal-games.pgn", 1, Sighted::Relay);
    two_boards("kasparov-deep-blue-1997.pgn", 2, Sighted::Relay);
    two_boards("cutechess-fischerrandom.pgn", 2, Sighted::Relay);
    two_boards("nepomniachtchi-liren-game1.pgn", 2, Sighted::Relay);
}

const TWO: &str = r#"{"t":0,"trace":1,"start":"startpos","black_moves_on":"sighted"}"#;

fn run(lines: &str) -> Vec<Value> {
    run_with(&parse(&format!("{TWO}\n{lines}")), Settings::default())
}

fn one<'a>(events: &'a [Value], name: &str) -> &'a Value {
    let found = of(events, name);
    assert_eq!(found.len(), 1, "one {name}: {found:?}");
    found[0]
}

/// The events of board `name`, by kind, in order.
fn on<'a>(events: &'a [Value], board: &str) -> Vec<&'a str> {
    events
        .iter()
        .filter(|e| e["board"] == board)
        .filter_map(|e| e["event"].as_str())
        .collect()
}

fn squares(v: &Value) -> (Vec<String>, Vec<String>) {
    let missing = v["missing"]
        .as_array()
        .expect("missing")
        .iter()
        .map(|m| {
            format!(
                "{}{}",
                m["piece"].as_str().unwrap_or_default(),
                m["square"].as_str().unwrap_or_default()
            )
        })
        .collect();
    let extra = v["extra"]
        .as_array()
        .expect("extra")
        .iter()
        .filter_map(|x| x.as_str().map(str::to_string))
        .collect();
    (missing, extra)
}

#[test]
fn e1_each_player_moves_on_his_own_board_and_the_other_replicates() {
    let ev = run(r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":3000,"board":"sighted","lift":"e2"}
{"t":3200,"board":"sighted","place":"e4"}
{"t":5000,"board":"sighted","lift":"e7"}
{"t":5200,"board":"sighted","place":"e5"}
{"t":7000,"lift":"e7"}
{"t":7300,"place":"e5"}"#);
    assert_eq!(sans(&ev), ["e4", "e5"]);
    let replicate = of(&ev, "replicate");
    assert_eq!(replicate.len(), 2);
    assert_eq!(replicate[0]["board"], "sighted");
    assert_eq!(replicate[0]["moves"], serde_json::json!(["e2e4"]));
    // The blind player is told where to find the piece (E2.7).
    assert_eq!(replicate[1]["board"], "blind");
    assert_eq!(replicate[1]["say"], "Bauer Eva sieben nach Eva fünf");
    let black = &of(&ev, "move")[1];
    assert_eq!(black["board"], "sighted");
    assert_eq!(
        black["say"], "Bauer Eva sieben nach Eva fünf",
        "said in the long form"
    );
    assert_eq!(
        on(&ev, "sighted"),
        ["replicate", "replicated", "touch", "move"]
    );
    assert_eq!(
        on(&ev, "blind"),
        ["touch", "move", "replicate", "replicated"]
    );
}

#[test]
fn e2_7_the_sighted_board_left_a_move_behind_is_reported_until_put_right() {
    // 1. e4 on the pegged board; the sighted player plays ...e5 on his
    // board without first making 1. e4 there.
    let ev = run(r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":3000,"board":"sighted","lift":"e7"}
{"t":3200,"board":"sighted","place":"e5"}
{"t":9000,"board":"sighted","lift":"e5"}
{"t":9200,"board":"sighted","place":"e7"}
{"t":10000,"board":"sighted","lift":"e2"}
{"t":10200,"board":"sighted","place":"e4"}
{"t":12000,"board":"sighted","lift":"e7"}
{"t":12200,"board":"sighted","place":"e5"}"#);
    assert_eq!(
        sans(&ev),
        ["e4", "e5"],
        "no move before the board caught up"
    );
    let diverged = one(&ev, "diverged");
    assert_eq!(diverged["board"], "sighted");
    assert_eq!(
        squares(diverged),
        (
            vec!["Pe4".into(), "pe7".into()],
            vec!["e2".into(), "e5".into()]
        )
    );
    assert!(
        diverged["t"].as_u64() >= Some(3200 + 1000),
        "reported once still"
    );
    assert_eq!(
        on(&ev, "sighted"),
        ["replicate", "diverged", "replicated", "touch", "move"]
    );
    assert!(
        of(&ev, "touch")
            .iter()
            .all(|t| t["t"].as_u64() > Some(10200) || t["board"] == "blind")
    );
}

/// A position, White (the blind player) to move, Black on the sighted
/// board; `lines` follow.
fn from(fen: &str, lines: &str) -> Vec<Value> {
    let header = format!(r#"{{"t":0,"trace":1,"start":"{fen}","black_moves_on":"sighted"}}"#);
    run_with(&parse(&format!("{header}\n{lines}")), Settings::default())
}

#[test]
fn e2_7_a_knight_replicated_to_the_wrong_square() {
    let ev = run(r#"{"t":1000,"lift":"g1"}
{"t":1100,"place":"f3"}
{"t":3000,"board":"sighted","lift":"g1"}
{"t":3200,"board":"sighted","place":"h3"}
{"t":6000,"board":"sighted","lift":"h3"}
{"t":6200,"board":"sighted","place":"f3"}"#);
    let diverged = one(&ev, "diverged");
    assert_eq!(squares(diverged), (vec!["Nf3".into()], vec!["h3".into()]));
    assert_eq!(
        diverged["t"],
        3200 + 20 + 1000,
        "once still for the settle time"
    );
    assert_eq!(on(&ev, "sighted"), ["replicate", "diverged", "replicated"]);
}

#[test]
fn e2_7_a_capture_replicated_without_taking_off_the_captured_piece() {
    // 1. exd5 on the pegged board; on the sighted board the pawn is
    // lifted from e4 and the black pawn on d5 stays.
    let ev = from(
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        r#"{"t":1000,"lift":"e4"}
{"t":1200,"lift":"d5"}
{"t":1400,"place":"d5"}
{"t":3000,"board":"sighted","lift":"e4"}
{"t":12000,"board":"sighted","lift":"d5"}
{"t":12300,"board":"sighted","place":"d5"}"#,
    );
    assert_eq!(sans(&ev), ["exd5"]);
    let diverged = one(&ev, "diverged");
    assert_eq!(squares(diverged), (vec!["Pd5".into()], vec!["d5".into()]));
    // A hand may rest with a piece in it: the guidance waits longer.
    assert_eq!(diverged["t"], 3020 + 4 * 1000);
    assert_eq!(on(&ev, "sighted"), ["replicate", "diverged", "replicated"]);
}

#[test]
fn e2_7_castling_replicated_with_only_the_king_moved() {
    let ev = from(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        r#"{"t":1000,"lift":"e1"}
{"t":1100,"place":"g1"}
{"t":1300,"lift":"h1"}
{"t":1400,"place":"f1"}
{"t":5000,"board":"sighted","lift":"e1"}
{"t":5200,"board":"sighted","place":"g1"}
{"t":12000,"board":"sighted","lift":"h1"}
{"t":12300,"board":"sighted","place":"f1"}"#,
    );
    assert_eq!(sans(&ev), ["O-O"]);
    let diverged = one(&ev, "diverged");
    assert_eq!(squares(diverged), (vec!["Rf1".into()], vec!["h1".into()]));
    assert_eq!(on(&ev, "sighted"), ["replicate", "diverged", "replicated"]);
}

#[test]
fn e2_7_en_passant_replicated_without_removing_the_pawn() {
    let ev = from(
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        r#"{"t":1000,"lift":"e5"}
{"t":1100,"place":"d6"}
{"t":1300,"lift":"d5"}
{"t":3000,"board":"sighted","lift":"e5"}
{"t":3200,"board":"sighted","place":"d6"}
{"t":12000,"board":"sighted","lift":"d5"}"#,
    );
    assert_eq!(sans(&ev), ["exd6"]);
    let diverged = one(&ev, "diverged");
    assert_eq!(squares(diverged), (vec![], vec!["d5".into()]));
    assert_eq!(on(&ev, "sighted"), ["replicate", "diverged", "replicated"]);
}

#[test]
fn e2_8_retrace_two_moves_and_both_boards_are_guided_back() {
    let ev = run(r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":2000,"board":"sighted","lift":"e2"}
{"t":2100,"board":"sighted","place":"e4"}
{"t":3000,"board":"sighted","lift":"e7"}
{"t":3100,"board":"sighted","place":"e5"}
{"t":4000,"lift":"e7"}
{"t":4100,"place":"e5"}
{"t":5000,"lift":"g1"}
{"t":5100,"place":"f3"}
{"t":6000,"board":"sighted","lift":"g1"}
{"t":6100,"board":"sighted","place":"f3"}
{"t":8000,"input":"retrace","ply":1}
{"t":9000,"lift":"f3"}
{"t":9100,"place":"g1"}
{"t":9200,"lift":"e5"}
{"t":9300,"place":"e7"}
{"t":10000,"board":"sighted","lift":"e5"}
{"t":10100,"board":"sighted","place":"e7"}
{"t":10200,"board":"sighted","lift":"f3"}
{"t":10300,"board":"sighted","place":"g1"}
{"t":12000,"board":"sighted","lift":"c7"}
{"t":12100,"board":"sighted","place":"c5"}"#);
    assert_eq!(sans(&ev), ["e4", "e5", "Nf3", "c5"]);
    let retraced = one(&ev, "retraced");
    assert_eq!(retraced["ply"], 1);
    assert_eq!(
        retraced["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    let back: Vec<&Value> = of(&ev, "replicate")
        .into_iter()
        .filter(|r| r["t"] == 8000)
        .collect();
    assert_eq!(back.len(), 2, "both boards are guided back");
    for r in &back {
        assert_eq!(r["moves"], serde_json::json!([]));
        assert_eq!(
            squares(r),
            (
                vec!["Ng1".into(), "pe7".into()],
                vec!["f3".into(), "e5".into()]
            )
        );
    }
    let caught_up: Vec<&Value> = of(&ev, "replicated")
        .into_iter()
        .filter(|r| r["t"].as_u64() > Some(8000))
        .collect();
    assert_eq!(caught_up.len(), 2);
    assert!(caught_up.iter().all(|r| r["ply"] == 1));
    assert!(of(&ev, "diverged").is_empty());
    assert_eq!(
        of(&ev, "move")[3]["ply"],
        2,
        "play goes on from the retraced position"
    );
}

#[test]
fn art_6_7_a_the_sighted_players_move_completes_on_his_clock_press() {
    let mut settings = Settings::default();
    settings.clock.control =
        Some(pegboard::core::clock::TimeControl::parse_pgn("300").expect("control"));
    // pegboard presses the clock for the blind player only.
    settings.clock.controller_presses = pegboard::core::Players::White;
    let ev = run_with(
        &parse(&format!(
            "{TWO}\n{}",
            r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":1200,"input":"announced","ply":1}
{"t":3000,"board":"sighted","lift":"e2"}
{"t":3200,"board":"sighted","place":"e4"}
{"t":5000,"board":"sighted","lift":"e7"}
{"t":5200,"board":"sighted","place":"e5"}
{"t":9000,"input":"clock","color":"black"}"#
        )),
        settings,
    );
    assert_eq!(sans(&ev), ["e4", "e5"]);
    let presses: Vec<(u64, String)> = of(&ev, "clock")
        .iter()
        .filter(|c| c["cause"] == "press")
        .map(|c| {
            (
                c["t"].as_u64().unwrap_or(0),
                c["running"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        presses,
        [(1200, "black".to_string()), (9000, "white".to_string())],
        "Black's clock runs from his release until his press"
    );
}

#[test]
fn art_7_4_an_illegal_move_on_the_sighted_board() {
    // After 1. e4, Black's bishop jumps from f8 over its own pawn to c5.
    let ev = run(r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":2000,"board":"sighted","lift":"e2"}
{"t":2100,"board":"sighted","place":"e4"}
{"t":3000,"board":"sighted","lift":"f8"}
{"t":3100,"board":"sighted","place":"c5"}
{"t":6000,"board":"sighted","lift":"c5"}
{"t":6100,"board":"sighted","place":"f8"}
{"t":7000,"board":"sighted","lift":"e7"}
{"t":7100,"board":"sighted","place":"e5"}"#);
    let illegal = one(&ev, "illegal");
    assert_eq!(illegal["board"], "sighted");
    assert_eq!(illegal["color"], "black");
    assert_eq!(squares(illegal), (vec!["bf8".into()], vec!["c5".into()]));
    assert_eq!(sans(&ev), ["e4", "e5"]);
    assert!(
        of(&ev, "diverged").is_empty(),
        "an illegal move is no divergence"
    );
}

const RELAY: &str = r#"{"t":0,"trace":1,"start":"startpos","black_moves_on":"relay"}"#;

#[test]
fn e2_9_a_relayed_move_is_played_and_the_blind_player_guided_to_make_it() {
    let ev = run_with(
        &parse(&format!(
            "{RELAY}\n{}",
            r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":3000,"input":"move","san":"Nf6"}
{"t":4000,"lift":"d2"}
{"t":4200,"place":"d2"}
{"t":5000,"lift":"g8"}
{"t":5300,"place":"f6"}
{"t":7000,"lift":"e4"}
{"t":7200,"place":"e5"}
{"t":9000,"input":"move","uci":"f6d5"}"#
        )),
        Settings::default(),
    );
    assert_eq!(sans(&ev), ["e4", "Nf6", "e5", "Nd5"]);
    let relayed = &of(&ev, "move")[1];
    assert_eq!(relayed["board"], "relay");
    assert_eq!(relayed["say"], "Springer Gustav acht nach Felix sechs");
    // Nf6 was made on the pegged board; Nd5 is still to be made there.
    assert_eq!(
        on(&ev, "blind")
            .iter()
            .filter(|e| **e == "replicated")
            .count(),
        1
    );
    assert_eq!(
        of(&ev, "replicate").last().map(|r| &r["moves"]),
        Some(&serde_json::json!(["f6d5"]))
    );
    // The d2 pawn lifted while the board was being brought up to date is
    // no touch: e4-e5 breaks no touch-move rule.
    assert!(of(&ev, "touch_violation").is_empty());
    assert!(of(&ev, "touch").iter().all(|t| t["square"] != "d2"));
}

#[test]
fn e2_9_an_illegal_relayed_move_is_refused_saying_which_rule_and_whose_turn() {
    let ev = run_with(
        &parse(&format!(
            "{RELAY}\n{}",
            r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":3000,"input":"move","san":"Nc3"}
{"t":3500,"input":"move","uci":"e7e4"}
{"t":3600,"input":"move","uci":"d8h4"}
{"t":3700,"input":"move","uci":"e5e4"}
{"t":4000,"input":"move","san":"e5"}"#
        )),
        Settings::default(),
    );
    assert_eq!(sans(&ev), ["e4", "e5"]);
    let refused = of(&ev, "refused");
    let given: Vec<&str> = refused.iter().filter_map(|r| r["given"].as_str()).collect();
    assert_eq!(given, ["Nc3", "e7e4", "d8h4", "e5e4"]);
    // The players move alternately (1.1 in the 2008 Laws, today 1.2):
    // the knight is White's, and Black is to move.
    assert_eq!(refused[0]["reason"], "not_his_turn");
    assert_eq!(refused[0]["article"], "1.2");
    assert_eq!(
        refused[0]["say"],
        "Der gemeldete Zug ist nicht möglich. Die Figur auf Bella eins ist von Weiß. \
         Schwarz ist am Zug."
    );
    // 3.7: a pawn goes one square ahead, or two from its first rank.
    assert_eq!(refused[1]["reason"], "moves_otherwise");
    assert_eq!(refused[1]["article"], "3.7");
    assert_eq!(
        refused[1]["say"],
        "Der gemeldete Zug ist nicht möglich. Bauer auf Eva sieben kann nicht so ziehen. \
         Schwarz ist am Zug."
    );
    // 3.5: the queen's diagonal is closed by her own pawn.
    assert_eq!(refused[2]["reason"], "blocked");
    assert_eq!(refused[2]["article"], "3.5");
    // No piece on e5.
    assert_eq!(refused[3]["reason"], "empty_square");
    assert!(refused[3].get("article").is_none(), "{:?}", refused[3]);
}

#[test]
fn a_relayed_move_taken_back_at_once_restores_the_position_and_the_clocks() {
    let mut settings = Settings::default();
    settings.clock.control =
        Some(pegboard::core::clock::TimeControl::parse_pgn("300").expect("control"));
    let ev = run_with(
        &parse(&format!(
            "{RELAY}\n{}",
            r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":1200,"input":"announced","ply":1}
{"t":5000,"input":"move","san":"e5"}
{"t":5100,"input":"announced","ply":2}
{"t":8000,"input":"take_back","ply":2}
{"t":9000,"input":"take_back","ply":2}
{"t":12000,"input":"move","san":"c5"}
{"t":23000,"input":"take_back","ply":2}
{"t":24000,"input":"move","uci":"g1f3"}"#
        )),
        settings,
    );
    // e5 is taken back; c5 stands, its ten seconds past; Nf3 follows.
    assert_eq!(sans(&ev), ["e4", "e5", "c5", "Nf3"]);
    let retraced = of(&ev, "retraced");
    assert_eq!(retraced.len(), 1);
    assert_eq!(retraced[0]["ply"], 1);
    assert_eq!(retraced[0]["t"], 8000);
    // Black's clock runs on as if e5 had never been pressed: it started
    // when e4 was announced (1200), and has run since, without a break.
    // White's clock, which ran from e5's announcement (5100), keeps what
    // it shows.
    let set = of(&ev, "clock")
        .into_iter()
        .find(|c| c["cause"] == "set")
        .expect("the clocks set back");
    assert_eq!(set["t"], 8000);
    assert_eq!(set["running"], "black");
    assert_eq!(set["black"]["remaining_ms"], 300_000 - (8000 - 1200));
    assert_eq!(set["white"]["remaining_ms"], 300_000 - 1200 - (8000 - 5100));
    assert_eq!(set["white"]["moves"], 1);
    assert_eq!(set["black"]["moves"], 0);
    // A second take-back, and one after ten seconds, are refused.
    let refused = of(&ev, "refused");
    assert_eq!(refused.len(), 2);
    assert!(refused.iter().all(|r| r["reason"] == "not_takeable"));
    assert_eq!(refused[0]["t"], 9000);
    assert_eq!(refused[1]["t"], 23000);
}

#[test]
fn a_take_back_leaves_the_arbiters_pause_and_a_7_4_b_penalty_as_they_are() {
    let mut settings = Settings::default();
    settings.clock.control =
        Some(pegboard::core::clock::TimeControl::parse_pgn("300").expect("control"));
    let ev = run_with(
        &parse(&format!(
            "{RELAY}\n{}",
            r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":1200,"input":"announced","ply":1}
{"t":5000,"input":"move","san":"e5"}
{"t":6000,"input":"illegal_move","color":"white"}
{"t":7000,"input":"pause"}
{"t":8000,"input":"take_back","ply":2}"#
        )),
        settings,
    );
    assert_eq!(sans(&ev), ["e4", "e5"]);
    let set = of(&ev, "clock")
        .into_iter()
        .rfind(|c| c["cause"] == "set")
        .expect("the clocks set back");
    assert_eq!(set["t"], 8000);
    // Still paused, and the clock that runs on resuming is Black's.
    assert_eq!(set["paused"], true, "{set}");
    assert_eq!(set["running"], "black");
    // The time added to Black for White's illegal move stays (7.4b; at
    // five minutes a game, a minute); his clock ran from e4's
    // announcement (1200) to the pause (7000), e5 never announced.
    let penalty = of(&ev, "clock")
        .into_iter()
        .find(|c| c["cause"] == "penalty")
        .expect("the penalty");
    assert_eq!(
        penalty["black"]["remaining_ms"],
        300_000 - (6000 - 1200) + 60_000
    );
    assert_eq!(
        set["black"]["remaining_ms"],
        300_000 - (7000 - 1200) + 60_000
    );
    assert_eq!(set["white"]["remaining_ms"], 300_000 - 1200);
}

#[test]
fn a_take_back_after_the_game_ended_or_of_the_engines_move_is_refused() {
    // White resigns after Black's relayed move: the game's end stands.
    let ev = run_with(
        &parse(&format!(
            "{RELAY}\n{}",
            r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":1200,"input":"announced","ply":1}
{"t":5000,"input":"move","san":"e5"}
{"t":6000,"input":"resign","color":"white"}
{"t":7000,"input":"take_back","ply":2}"#
        )),
        Settings::default(),
    );
    assert_eq!(sans(&ev), ["e4", "e5"]);
    assert!(of(&ev, "retraced").is_empty());
    assert_eq!(of(&ev, "game_over").len(), 1);
    let refused = of(&ev, "refused");
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert_eq!(refused[0]["reason"], "game_over");
    // The engine's reply came as a move too; nobody relayed it.
    let engine = r#"{"t":0,"trace":1,"start":"startpos","black_moves_on":"engine"}"#;
    let ev = run_with(
        &parse(&format!(
            "{engine}\n{}",
            r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":1200,"input":"announced","ply":1}
{"t":5000,"input":"move","uci":"e7e5"}
{"t":6000,"input":"take_back","ply":2}"#
        )),
        Settings::default(),
    );
    assert_eq!(sans(&ev), ["e4", "e5"]);
    assert!(of(&ev, "retraced").is_empty());
    let refused = of(&ev, "refused");
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert_eq!(refused[0]["reason"], "not_takeable");
}

#[test]
fn the_keypad_says_the_move_to_make_and_what_differs() {
    let ev = run_with(
        &parse(&format!(
            "{RELAY}\n{}",
            r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":3000,"input":"move","san":"Nf6"}
{"t":3500,"input":"to_replicate"}
{"t":3600,"input":"differences"}
{"t":5000,"lift":"g8"}
{"t":5300,"place":"f6"}
{"t":6000,"input":"to_replicate"}
{"t":6100,"input":"differences"}"#
        )),
        Settings::default(),
    );
    assert_eq!(
        common::says(&ev),
        [
            "Springer Gustav acht nach Felix sechs",
            "Brett stimmt nicht. Entfernen von Gustav acht. Schwarz Springer auf Felix sechs stellen.",
            "Ihr Brett stimmt mit der Partie überein.",
            "Ihr Brett stimmt mit der Partie überein.",
        ]
    );
}

#[test]
fn e2_7_with_hold_on_divergence_the_other_board_waits() {
    let settings = Settings {
        hold_on_divergence: true,
        ..Settings::default()
    };
    // The sighted board has a knight on the wrong square; White's next
    // move waits until it is put right.
    let ev = run_with(
        &parse(&format!(
            "{TWO}\n{}",
            r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":2000,"board":"sighted","lift":"e2"}
{"t":2100,"board":"sighted","place":"e4"}
{"t":3000,"board":"sighted","lift":"e7"}
{"t":3100,"board":"sighted","place":"e5"}
{"t":4000,"lift":"e7"}
{"t":4100,"place":"e5"}
{"t":5000,"board":"sighted","lift":"b8"}
{"t":5100,"board":"sighted","place":"a6"}
{"t":8000,"lift":"g1"}
{"t":8100,"place":"f3"}
{"t":10000,"board":"sighted","lift":"a6"}
{"t":10100,"board":"sighted","place":"b8"}"#
        )),
        settings,
    );
    assert_eq!(sans(&ev), ["e4", "e5", "Nf3"]);
    let nf3 = &of(&ev, "move")[2];
    assert_eq!(
        nf3["t"], 10120,
        "played once the sighted board is right again"
    );
    assert_eq!(one(&ev, "diverged")["board"], "sighted");
    assert!(
        common::says(&ev)
            .contains(&"Der Zug wartet: das andere Brett stimmt nicht mit der Partie überein.")
    );
}

#[test]
fn e2_7_the_pawn_taken_up_while_the_promotion_is_chosen_begins_the_replication() {
    // The sighted player sees the pawn reach d8 and takes White's d7 pawn
    // up on his board while the blind player still chooses its piece (for
    // 2.5 s): that lift, made before the move was played, is no
    // divergence, and it is part of replicating the move.
    let ev = run_with(
        &parse(
            r#"{"t":0,"trace":1,"start":"k7/3P4/8/8/8/8/8/4K3 w - - 0 1","black_moves_on":"sighted"}
{"t":1000,"lift":"d7"}
{"t":1200,"place":"d8"}
{"t":1500,"board":"sighted","lift":"d7"}
{"t":4000,"input":"promote","piece":"q"}
{"t":4100,"lift":"d8"}
{"t":4300,"place":"d8"}
{"t":5500,"board":"sighted","place":"d8"}"#,
        ),
        Settings::default(),
    );
    assert_eq!(sans(&ev), ["d8=Q+"]);
    assert_eq!(one(&ev, "replicated")["board"], "sighted");
    assert!(of(&ev, "diverged").is_empty(), "{ev:?}");
}

/// A random legal game of up to `plies` moves, chosen by `choices`.
fn random_game(choices: &[u16]) -> Vec<shakmaty::Move> {
    let mut pos = shakmaty::Chess::default();
    let mut moves = Vec::new();
    for &c in choices {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[c as usize % legal.len()];
        pos.play_unchecked(m);
        moves.push(m);
    }
    moves
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 48, .. Default::default() })]

    #[test]
    fn random_games_on_two_boards_give_the_same_moves_and_the_boards_converge(
        choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 1..80),
        seed in proptest::prelude::any::<u64>(),
        chatter in 0u64..=100,
        glitch in 0u64..=100,
        quick in 100u64..1500,
        slow in 1500u64..6000,
        relay in proptest::prelude::any::<bool>(),
    ) {
        let moves = random_game(&choices);
        let record = pegboard::record::pgn::GameRecord {
            start: pegboard::core::StartPosition::default(),
            sans: Vec::new(),
            result: "*".to_string(),
        };
        let style = Style { chatter, glitch, ..Style::default() };
        let sighted = if relay { Sighted::Relay } else { Sighted::Board };
        let trace = simulate_two_boards(
            &record,
            &shakmaty::Chess::default(),
            shakmaty::CastlingMode::Standard,
            &moves,
            seed,
            style,
            sighted,
            (quick, slow),
        );
        let events = run_with(&trace, Settings::default());
        let mut pos = shakmaty::Chess::default();
        let want: Vec<String> = moves
            .iter()
            .map(|&m| SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string())
            .collect();
        proptest::prop_assert_eq!(sans(&events), want);
        // Every board caught up with every move made elsewhere, and none
        // was ever found wrong.
        let made_elsewhere = if relay { moves.len() / 2 } else { moves.len() };
        proptest::prop_assert_eq!(of(&events, "replicated").len(), made_elsewhere);
        proptest::prop_assert!(of(&events, "diverged").is_empty());
        proptest::prop_assert!(of(&events, "touch_violation").is_empty());
    }
}

#[test]
fn play_reads_the_sighted_players_board_and_keeps_the_game_in_its_journal() {
    let dir = std::env::temp_dir().join(format!("pegboard-two-boards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let blind = dir.join("blind.jsonl");
    std::fs::write(
        &blind,
        "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n\
         {\"t\":300,\"lift\":\"e2\"}\n{\"t\":500,\"place\":\"e4\"}\n\
         {\"t\":2600,\"lift\":\"e7\"}\n{\"t\":2800,\"place\":\"e5\"}\n",
    )
    .expect("trace");
    let sighted = dir.join("sighted.jsonl");
    std::fs::write(
        &sighted,
        "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n\
         {\"t\":1000,\"lift\":\"e2\"}\n{\"t\":1200,\"place\":\"e4\"}\n\
         {\"t\":1800,\"lift\":\"e7\"}\n{\"t\":2000,\"place\":\"e5\"}\n",
    )
    .expect("trace");
    let config = dir.join("two.toml");
    std::fs::write(
        &config,
        format!(
            "[game]\nblack_moves_on = \"sighted\"\n\
             [mirror]\nlisten = \"\"\n\
             [journal]\ndir = \"{}\"\n\
             [sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"{}\"\n\
             [[boards]]\nname = \"sighted\"\n[boards.sensors]\nsource = \"trace\"\n\
             [boards.sensors.trace]\nfile = \"{}\"\n",
            dir.join("games").display(),
            blind.display(),
            sighted.display()
        ),
    )
    .expect("config");
    let out = common::pegboard_command()
        .args(["play", "--silent", "--events", "--seconds", "4", "--config"])
        .arg(&config)
        .output()
        .expect("play runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let events: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert_eq!(sans(&events), ["e4", "e5"]);
    assert_eq!(of(&events, "move")[1]["board"], "sighted");
    let replicated: Vec<&str> = of(&events, "replicated")
        .iter()
        .filter_map(|r| r["board"].as_str())
        .collect();
    assert_eq!(replicated, ["sighted", "blind"]);
    // The journal replays to the same game: its header names the seats.
    let pgn = common::pegboard_command()
        .args(["pgn", "--config"])
        .arg(&config)
        .output()
        .expect("pgn runs");
    let pgn = String::from_utf8_lossy(&pgn.stdout);
    assert!(pgn.contains("1. e4 e5"), "{pgn}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn e2_8_a_retraced_game_keeps_only_its_kept_moves_on_the_scoresheet() {
    let entries = parse(&format!(
        "{RELAY}\n{}",
        r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":2000,"input":"move","san":"e5"}
{"t":3000,"input":"retrace","ply":1}
{"t":4000,"input":"move","san":"c5"}
{"t":5000,"input":"retrace","ply":9}"#
    ));
    let events = common::replayed(&entries, Settings::default());
    let pgn = common::scoresheet_of(&events);
    assert!(pgn.contains("1. e4 c5 *"), "{pgn}");
    let json = common::to_json(&events);
    let refused = one(&json, "refused");
    assert_eq!(
        refused["reason"], "no_such_ply",
        "a retrace past the game's end"
    );
}
