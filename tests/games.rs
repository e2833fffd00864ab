//! Game after game, and a game taken up again after pegboard restarted:
//! the `restarted` and `new_game` inputs and what follows them, as a
//! journal replays them.

mod common;

use common::{names, of, run, run_with, sans, says, with_clock};

/// 1. e4 e5 on the blind board, each announced as printed.
const E4_E5: &str = r#"{"t":1000,"lift":"e2"}
{"t":1200,"place":"e4"}
{"t":1300,"input":"announced","ply":1}
{"t":3000,"lift":"e7"}
{"t":3300,"place":"e5"}
{"t":3400,"input":"announced","ply":2}"#;

#[test]
fn restarted_stops_the_clocks_and_says_where_the_game_stands() {
    let trace = format!("{E4_E5}\n{{\"t\":5400,\"input\":\"restarted\"}}");
    let ev = run_with(&common::parse(&trace), with_clock("300+0"));
    let resumed = of(&ev, "resumed");
    assert_eq!(resumed.len(), 1, "{ev:?}");
    assert_eq!(resumed[0]["ply"], 2);
    let say = resumed[0]["say"].as_str().unwrap_or_default();
    // White to move at move 2; the last move was Black's e5.
    assert!(
        say.starts_with("Partie fortgesetzt. Zug 2, Weiß am Zug."),
        "{say}"
    );
    assert!(say.contains("Schwarz"), "{say}");
    assert!(
        say.contains("Die Uhren stehen bis zur Taste Weiter."),
        "{say}"
    );
    // The clock stopped at the restart, with White's time as it was.
    let clocks = of(&ev, "clock");
    let last = clocks.last().expect("clock events");
    assert_eq!(last["cause"], "pause");
    assert_eq!(last["t"], 5400);
    assert_eq!(last["paused"], true);
    // The clock starts with the game (the trace's first line, 1000):
    // White used 0.3 s to his first press (1300) and 2.0 s since (3400 to
    // 5400); Black 2.1 s.
    assert_eq!(last["white"]["remaining_ms"], 300_000 - 300 - 2000);
    assert_eq!(last["black"]["remaining_ms"], 300_000 - 2100);
}

#[test]
fn restarted_with_clocks_running_leaves_the_running_clock_on() {
    let trace = format!("{E4_E5}\n{{\"t\":5400,\"input\":\"restarted\",\"clocks\":\"running\"}}");
    let ev = run_with(&common::parse(&trace), with_clock("300+0"));
    assert!(
        of(&ev, "clock").iter().all(|c| c["cause"] != "pause"),
        "{ev:?}"
    );
    let say = of(&ev, "resumed")[0]["say"].as_str().unwrap_or_default();
    assert!(!say.contains("Taste Weiter"), "{say}");
}

#[test]
fn restarted_then_resume_runs_the_clock_of_the_player_to_move() {
    let trace = format!(
        "{E4_E5}\n{{\"t\":5400,\"input\":\"restarted\"}}\n{{\"t\":9000,\"input\":\"resume\"}}\n{{\"t\":10000,\"input\":\"times\"}}"
    );
    let ev = run_with(&common::parse(&trace), with_clock("300+0"));
    let resumed = of(&ev, "clock")
        .into_iter()
        .find(|c| c["cause"] == "resume")
        .expect("resumed");
    assert_eq!(resumed["running"], "white");
    // The 3.6 s the clocks stood (5400..9000) are nobody's.
    let ev_times = of(&ev, "answer");
    let times = ev_times.last().expect("the times")["text"]
        .as_str()
        .unwrap_or_default();
    // White: 300 - 0.3 - 2.0 - 1.0 = 296.7 s, said in whole seconds.
    assert!(times.contains("4 Minuten 56 Sekunden"), "{times}");
}

#[test]
fn e2_3_a_move_made_while_pegboard_was_off_is_executed_on_restart() {
    // 1. e4 is in the journal; while pegboard was off Black played
    // e7-e5. The first reading after the restart shows it done.
    let trace = r#"{"t":1000,"lift":"e2"}
{"t":1200,"place":"e4"}
{"t":1300,"input":"announced","ply":1}
{"t":2000,"input":"restarted"}
{"t":2000,"occ":"ffef00101000efff"}"#;
    let ev = run(trace);
    assert_eq!(sans(&ev), ["e4", "e5"], "{ev:?}");
    assert!(of(&ev, "illegal").is_empty() && of(&ev, "mismatch").is_empty());
}

#[test]
fn art_7_4_an_unseen_board_that_no_legal_move_explains_is_guided_not_charged() {
    // After 1. e4 the board shows e2 and d2 both empty and nothing new:
    // no move of Black's does that. Guidance, and nobody is charged.
    let trace = r#"{"t":1000,"lift":"e2"}
{"t":1200,"place":"e4"}
{"t":1300,"input":"announced","ply":1}
{"t":2000,"input":"restarted"}
{"t":2000,"occ":"fff700101000e7ff"}"#;
    let ev = run(trace);
    assert_eq!(sans(&ev), ["e4"]);
    assert!(of(&ev, "illegal").is_empty(), "{ev:?}");
    assert_eq!(of(&ev, "mismatch").len(), 1, "{ev:?}");
}

#[test]
fn e2_3_an_unseen_capture_is_said_and_waits_to_be_confirmed() {
    // 1. e4 d5; pegboard comes back to a board with e4 empty and d5 full.
    // Only exd5 leaves that board, but so does the e4 pawn held in the
    // hand: no capture is announced on a guess (E2.3a needs the captured
    // piece seen removed). After a hand's rest the player hears what may
    // have been made and how to confirm it.
    let trace = r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":1200,"input":"announced","ply":1}
{"t":2000,"lift":"d7"}
{"t":2100,"place":"d5"}
{"t":2200,"input":"announced","ply":2}
{"t":3000,"input":"restarted"}
{"t":3000,"occ":"fff700080000efff"}
{"t":9000,"input":"times"}"#;
    let ev = run(trace);
    assert_eq!(sans(&ev), ["e4", "d5"], "{ev:?}");
    let hint = of(&ev, "unconfirmed");
    assert_eq!(hint.len(), 1, "{ev:?}");
    assert_eq!(hint[0]["t"], 3020 + 4000, "after four settle times");
    assert_eq!(hint[0]["moves"], serde_json::json!(["e4d5"]));
    assert_eq!(
        hint[0]["say"],
        "Nicht gesehen: Bauer Eva vier schlägt David fünf? Wenn ja, gezogene Figuren anheben und wieder einsetzen."
    );
    // The player confirms: the pawn on d5 taken up and put down again.
    let confirmed =
        format!("{trace}\n{{\"t\":10000,\"lift\":\"d5\"}}\n{{\"t\":10400,\"place\":\"d5\"}}");
    let ev = run(&confirmed);
    assert_eq!(sans(&ev), ["e4", "d5", "exd5"], "{ev:?}");
    assert_eq!(of(&ev, "move")[2]["t"], 10420);
    // Or the arbiter does, with the move itself.
    let arbiter = format!(
        "{trace}\n{{\"t\":10000,\"input\":\"move\",\"uci\":\"e4d5\"}}\n{{\"t\":20000,\"input\":\"times\"}}"
    );
    let ev = run(&arbiter);
    assert_eq!(sans(&ev), ["e4", "d5", "exd5"], "{ev:?}");
    assert_eq!(of(&ev, "replicated").len(), 1, "the board shows it: {ev:?}");
    assert!(of(&ev, "diverged").is_empty() && of(&ev, "mismatch").is_empty());
}

#[test]
fn an_unseen_capture_that_two_moves_explain_is_not_guessed() {
    // 1. Nc3 b5 2. a3 d5; while pegboard was off the knight left c3 and
    // took on b5 or on d5: both leave the same squares occupied, as does
    // the knight held in the hand. No guess: the knight counts as touched,
    // and the move is the one the hands make next.
    let trace = r#"{"t":1000,"lift":"b1"}
{"t":1100,"place":"c3"}
{"t":1200,"input":"announced","ply":1}
{"t":2000,"lift":"b7"}
{"t":2100,"place":"b5"}
{"t":2200,"input":"announced","ply":2}
{"t":3000,"lift":"a2"}
{"t":3100,"place":"a3"}
{"t":3200,"input":"announced","ply":3}
{"t":4000,"lift":"d7"}
{"t":4100,"place":"d5"}
{"t":4200,"input":"announced","ply":4}
{"t":5000,"input":"restarted"}
{"t":5000,"occ":"fff5000a0001fefd"}"#;
    let ev = run(trace);
    assert_eq!(sans(&ev), ["Nc3", "b5", "a3", "d5"], "{ev:?}");
    assert!(of(&ev, "illegal").is_empty() && of(&ev, "mismatch").is_empty());
    let touched = of(&ev, "touch");
    assert_eq!(touched.last().expect("a touch")["square"], "c3");
}

#[test]
fn the_resign_key_asks_first_and_resigns_on_a_second_press_within_ten_seconds() {
    // A long press on the keypads' resume key resigned at once before.
    let ev = run(r#"{"t":1000,"lift":"e2"}
{"t":1200,"place":"e4"}
{"t":1300,"input":"announced","ply":1}
{"t":2000,"input":"resign_key","color":"white"}
{"t":13000,"input":"resign_key","color":"white"}
{"t":14000,"input":"resign_key","color":"black"}
{"t":20000,"input":"resign_key","color":"white"}"#);
    let asked = "Partie aufgeben? Zum Bestätigen noch einmal.";
    // Asked at 2 s; 11 s later the question has lapsed, so it is asked
    // again; Black's press is his own question; White's within 10 s
    // of his last resigns.
    let said: Vec<(u64, &str)> = of(&ev, "say")
        .iter()
        .map(|e| {
            (
                e["t"].as_u64().unwrap_or(0),
                e["text"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        said,
        [(2000, asked), (13000, asked), (14000, asked)],
        "{ev:?}"
    );
    let over = of(&ev, "game_over");
    assert_eq!(over.len(), 1, "{ev:?}");
    assert_eq!(
        (&over[0]["t"], &over[0]["result"]),
        (&20000.into(), &"0-1".into())
    );
}

#[test]
fn the_consoles_resign_and_the_keys_never_confirm_each_other() {
    // The blind player's key asks for White at 2 s; the assistant's one
    // click for White at 3 s asks again, for the console: neither is a
    // second asking of the other. The console's own second request
    // resigns.
    let ev = run(r#"{"t":1000,"lift":"e2"}
{"t":1200,"place":"e4"}
{"t":1300,"input":"announced","ply":1}
{"t":2000,"input":"resign_key","color":"white"}
{"t":3000,"input":"console_resign","color":"white"}
{"t":3500,"input":"resign_key","color":"black"}
{"t":4000,"input":"console_resign","color":"black"}
{"t":6000,"input":"console_resign","color":"white"}"#);
    let asked = "Partie aufgeben? Zum Bestätigen noch einmal.";
    let said: Vec<u64> = of(&ev, "say")
        .iter()
        .filter(|e| e["text"] == asked)
        .filter_map(|e| e["t"].as_u64())
        .collect();
    assert_eq!(said, [2000, 3000, 3500, 4000], "{ev:?}");
    let over = of(&ev, "game_over");
    assert_eq!(over.len(), 1, "{ev:?}");
    assert_eq!(
        (&over[0]["t"], &over[0]["result"]),
        (&6000.into(), &"0-1".into())
    );
}

#[test]
fn a_game_that_is_over_accepts_no_moves() {
    let trace = r#"{"t":500,"input":"resign","color":"white"}
{"t":1000,"lift":"e2"}
{"t":1200,"place":"e4"}
{"t":5000,"input":"times"}"#;
    let ev = run(trace);
    assert_eq!(of(&ev, "game_over").len(), 1);
    assert!(sans(&ev).is_empty(), "{ev:?}");
    assert!(of(&ev, "illegal").is_empty(), "{ev:?}");
}

#[test]
fn setting_up_the_start_position_after_the_end_starts_a_new_game() {
    // 1. e4, White resigns; e4 goes back to e2; the next game's 1. d4.
    let trace = r#"{"t":1000,"lift":"e2"}
{"t":1200,"place":"e4"}
{"t":1300,"input":"announced","ply":1}
{"t":2000,"input":"resign","color":"white"}
{"t":4000,"lift":"e4"}
{"t":4200,"place":"e2"}
{"t":6000,"lift":"d2"}
{"t":6200,"place":"d4"}
{"t":6300,"input":"announced","ply":1}"#;
    let ev = run(trace);
    let new_game = of(&ev, "new_game");
    assert_eq!(new_game.len(), 1, "{ev:?}");
    assert_eq!(new_game[0]["say"], "Neue Partie.");
    // The next game opens with its own ready, and its first move is ply 1.
    let after: Vec<String> = names(&ev)
        .into_iter()
        .skip_while(|n| n != "new_game")
        .collect();
    assert_eq!(after[1], "ready", "{after:?}");
    let moves = of(&ev, "move");
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[1]["san"], "d4");
    assert_eq!(moves[1]["ply"], 1);
}

#[test]
fn new_game_during_a_game_under_way_needs_a_second_press() {
    let trace = r#"{"t":1000,"lift":"e2"}
{"t":1200,"place":"e4"}
{"t":1300,"input":"announced","ply":1}
{"t":2000,"input":"new_game"}
{"t":20000,"input":"new_game"}
{"t":25000,"input":"new_game"}"#;
    let ev = run(trace);
    let says = says(&ev);
    // The first asks; the second comes too late (18 s) and asks again;
    // the third, 5 s later, starts the new game.
    assert_eq!(
        says,
        [
            "Partie abbrechen? Zum Bestätigen noch einmal.",
            "Partie abbrechen? Zum Bestätigen noch einmal."
        ]
    );
    let new_game = of(&ev, "new_game");
    assert_eq!(new_game.len(), 1);
    assert_eq!(new_game[0]["t"], 25000);
}

#[test]
fn new_game_before_any_move_or_after_the_end_needs_no_confirmation() {
    let ev = run(r#"{"t":1000,"input":"new_game"}"#);
    assert_eq!(of(&ev, "new_game").len(), 1);
    let ev = run(r#"{"t":500,"input":"resign","color":"black"}
{"t":1000,"input":"new_game"}"#);
    assert_eq!(of(&ev, "new_game").len(), 1);
}

#[test]
fn art_9_1_a_draw_offer_is_an_event_of_its_own() {
    let trace = format!("{E4_E5}\n{{\"t\":4000,\"input\":\"draw_offer\",\"color\":\"white\"}}");
    let ev = run(&trace);
    let offers = of(&ev, "draw_offer");
    assert_eq!(offers.len(), 1);
    assert_eq!(offers[0]["color"], "white");
    assert!(offers[0]["say"].as_str().is_some_and(|s| !s.is_empty()));
}

#[test]
fn art_4_6_a_capture_seen_before_the_restart_is_not_taken_for_another() {
    // 1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3: the bishop on f3 is
    // taken off and the queen lifted; pegboard restarts; the queen lands
    // on f3. Qxd6 would leave the same squares filled, but the hands were
    // seen taking f3 first: 5. Qxf3.
    let trace = r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":2000,"lift":"e7"}
{"t":2100,"place":"e5"}
{"t":3000,"lift":"g1"}
{"t":3100,"place":"f3"}
{"t":4000,"lift":"d7"}
{"t":4100,"place":"d6"}
{"t":5000,"lift":"d2"}
{"t":5100,"place":"d4"}
{"t":6000,"lift":"c8"}
{"t":6100,"place":"g4"}
{"t":7000,"lift":"e5"}
{"t":7100,"lift":"d4"}
{"t":7200,"place":"e5"}
{"t":8000,"lift":"f3"}
{"t":8100,"lift":"g4"}
{"t":8200,"place":"f3"}
{"t":9000,"lift":"f3"}
{"t":9100,"lift":"d1"}
{"t":9500,"input":"restarted"}
{"t":9600,"place":"f3"}"#;
    let ev = run(trace);
    assert_eq!(
        sans(&ev),
        ["e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3", "Qxf3"],
        "{ev:?}"
    );
}
