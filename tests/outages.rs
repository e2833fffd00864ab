//! Time the board was not seen: the sensors lost and back (`board_lost`,
//! `board_back`), pegboard killed and started again (`restarted`). What
//! changed meanwhile was not seen happening; a move is announced only
//! when the board says so without a guess (E2.3, 4.6), and the clock
//! keeps every move's press (6.7, 6.12).
//!
//! Articles follow the 2008 Laws (seeds 001/002); Appendix E2 is today's
//! Appendix D. The first reading after an unseen interval is the one at
//! the instant of the input that ends it (`docs/trace-format.md`).

mod common;

use common::{occ, of, parse, run, run_with, sans, with_clock};
use shakmaty::CastlingMode;

const E4_D5: &str = r#"{"t":0,"trace":1,"start":"startpos"}
{"t":900,"lift":"e2"}
{"t":1500,"place":"e4"}
{"t":3000,"lift":"d7"}
{"t":3500,"place":"d5"}"#;

// --- 1. A capturing piece merely taken up is no capture --------------------

#[test]
fn e2_3_a_after_a_restart_a_capturing_piece_in_the_hand_is_a_touch_not_a_capture() {
    let ev = run(&format!(
        "{E4_D5}\n{}",
        r#"{"t":6000,"input":"restarted"}
{"t":6000,"lift":"e4"}
{"t":20000,"input":"times"}"#
    ));
    assert_eq!(sans(&ev), ["e4", "d5"], "no exd5 announced: {ev:?}");
    let touch = of(&ev, "touch");
    assert_eq!(touch.last().expect("a touch")["square"], "e4");
    // What may have been made meanwhile is said once, after a hand's rest.
    let hint = of(&ev, "unconfirmed");
    assert_eq!(hint.len(), 1, "{ev:?}");
    assert_eq!(hint[0]["moves"], serde_json::json!(["e4d5"]));
    // The pawn then takes on d5, seen: the capture.
    let ev = run(&format!(
        "{E4_D5}\n{}",
        r#"{"t":6000,"input":"restarted"}
{"t":6000,"lift":"e4"}
{"t":8000,"lift":"d5"}
{"t":8500,"place":"d5"}"#
    ));
    assert_eq!(sans(&ev), ["e4", "d5", "exd5"]);
    assert_eq!(of(&ev, "move")[2]["t"], 8520);
}

#[test]
fn e2_3_a_after_the_sensors_are_back_a_capturing_piece_in_the_hand_is_no_capture() {
    // The same through an outage of the sensors, the board unchanged
    // meanwhile and the pawn taken up in the reading that ends it.
    let ev = run(&format!(
        "{E4_D5}\n{}",
        r#"{"t":4000,"input":"board_lost"}
{"t":6000,"input":"board_back"}
{"t":6000,"lift":"e4"}
{"t":7000,"input":"times"}"#
    ));
    assert_eq!(sans(&ev), ["e4", "d5"], "{ev:?}");
}

#[test]
fn e2_3_a_board_unchanged_through_a_restart_leaves_nothing_unseen() {
    // The first reading after the restart shows the game: the pawn taken
    // up later was seen taken up, and nothing is said of unseen moves.
    let ev = run(&format!(
        "{E4_D5}\n{}",
        r#"{"t":6000,"input":"restarted"}
{"t":9000,"lift":"e4"}
{"t":30000,"input":"times"}"#
    ));
    assert_eq!(sans(&ev), ["e4", "d5"]);
    assert!(of(&ev, "unconfirmed").is_empty(), "{ev:?}");
}

#[test]
fn e2_3_a_move_filling_an_empty_square_while_unseen_is_executed() {
    // A piece where the game has an empty square cannot be in a hand:
    // one legal move explains the board, and is played.
    let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let after = occ(fen, CastlingMode::Standard, &["d2"], &["d4"]);
    let ev = run(&format!(
        "{E4_D5}\n{{\"t\":6000,\"input\":\"restarted\"}}\n{{\"t\":6000,\"occ\":\"{after}\"}}"
    ));
    assert_eq!(sans(&ev), ["e4", "d5", "d4"], "{ev:?}");
}

// --- 6. A capture seen under way, whatever the squares' order -------------

/// After 1. e4 d5 White takes up e4 and d5 (both seen), the sensors go,
/// and the first reading after shows d5 full again; and Black the same
/// the other way round, d5xe4, whose squares are in the other order.
#[test]
fn e2_3_a_a_capture_seen_under_way_is_completed_by_a_landing_after_the_outage() {
    let white = format!(
        "{E4_D5}\n{}",
        r#"{"t":4000,"lift":"e4"}
{"t":4300,"lift":"d5"}
{"t":4500,"input":"board_lost"}
{"t":7000,"input":"board_back"}
{"t":7000,"place":"d5"}"#
    );
    let ev = run(&white);
    assert_eq!(sans(&ev), ["e4", "d5", "exd5"], "{ev:?}");
    let black = r#"{"t":0,"trace":1,"start":"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"}
{"t":4000,"lift":"d5"}
{"t":4300,"lift":"e4"}
{"t":4500,"input":"board_lost"}
{"t":7000,"input":"board_back"}
{"t":7000,"place":"e4"}"#;
    let ev = run(black);
    assert_eq!(sans(&ev), ["dxe4"], "{ev:?}");
}

#[test]
fn e2_3_a_a_capture_whose_landing_and_lift_came_in_one_reading_is_not_guessed() {
    // The captured pawn was seen taken off; the capturing pawn's lift and
    // a landing on the captured square came in the one reading after the
    // outage, in no order the board can tell: the captured pawn may as
    // well have been put back with the capturer in the hand. Both square
    // orders are judged alike: said, and confirmed by putting the piece
    // down again.
    let cases = [
        (
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "d5",
            "e4",
            "e4d5",
        ),
        (
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
            "e4",
            "d5",
            "d5e4",
        ),
    ];
    for (fen, victim, capturer, uci) in cases {
        let after = occ(fen, CastlingMode::Standard, &[capturer], &[]);
        let trace = format!(
            "{{\"t\":0,\"trace\":1,\"start\":\"{fen}\"}}\n\
             {{\"t\":4000,\"lift\":\"{victim}\"}}\n\
             {{\"t\":4500,\"input\":\"board_lost\"}}\n\
             {{\"t\":7000,\"input\":\"board_back\"}}\n\
             {{\"t\":7000,\"occ\":\"{after}\"}}\n\
             {{\"t\":15000,\"input\":\"times\"}}"
        );
        let ev = run(&trace);
        assert!(sans(&ev).is_empty(), "{uci}: {ev:?}");
        let hint = of(&ev, "unconfirmed");
        assert_eq!(hint.len(), 1, "{uci}: {ev:?}");
        assert_eq!(hint[0]["moves"], serde_json::json!([uci]));
        let confirmed = format!(
            "{trace}\n{{\"t\":16000,\"lift\":\"{victim}\"}}\n{{\"t\":16400,\"place\":\"{victim}\"}}"
        );
        assert_eq!(sans(&run(&confirmed)).len(), 1, "{uci} confirmed");
    }
}

// --- 7. Chess960 castling across an outage ---------------------------------

const KING_F1: &str = "4k3/8/8/8/8/8/8/5K1R w H - 0 1";

fn chess960(body: &str) -> Vec<serde_json::Value> {
    run(&format!(
        "{{\"t\":0,\"trace\":1,\"variant\":\"chess960\",\"start\":\"{KING_F1}\"}}\n{body}"
    ))
}

#[test]
fn appendix_f_castling_made_unseen_is_not_taken_for_the_rooks_move() {
    // King f1, rook h1: O-O (king g1, rook f1) and Rg1 leave the same
    // squares. Made while the sensors were away, neither is guessed.
    let after = occ(KING_F1, CastlingMode::Chess960, &["h1"], &["g1"]);
    let body = format!(
        "{{\"t\":1000,\"input\":\"board_lost\"}}\n\
         {{\"t\":6000,\"input\":\"board_back\"}}\n\
         {{\"t\":6000,\"occ\":\"{after}\"}}\n\
         {{\"t\":12000,\"input\":\"times\"}}"
    );
    let ev = chess960(&body);
    assert!(sans(&ev).is_empty(), "{ev:?}");
    let hint = of(&ev, "unconfirmed");
    assert_eq!(hint.len(), 1, "{ev:?}");
    assert_eq!(hint[0]["moves"], serde_json::json!(["h1g1", "f1h1"]));
    assert_eq!(
        hint[0]["say"],
        "Nicht gesehen: Turm Hector eins nach Gustav eins oder Kurze Rochade? Wenn ja, gezogene Figuren anheben und wieder einsetzen."
    );
    // The king (g1) and the rook (f1) put down again: castling.
    let castled = format!(
        "{body}\n{}",
        r#"{"t":13000,"lift":"g1"}
{"t":13200,"lift":"f1"}
{"t":13600,"place":"g1"}
{"t":13800,"place":"f1"}"#
    );
    assert_eq!(sans(&chess960(&castled)), ["O-O"]);
    // The rook alone put down again on g1: the rook's move.
    let rook = format!(
        "{body}\n{}",
        r#"{"t":13000,"lift":"g1"}
{"t":13400,"place":"g1"}"#
    );
    assert_eq!(sans(&chess960(&rook)), ["Rg1"]);
}

#[test]
fn appendix_f_the_castling_wait_stands_still_while_the_board_is_not_seen() {
    // The king is put on g1, where castling also puts it, and waits for
    // its rook; the sensors go before the wait is over, and the rook is
    // put on f1 meanwhile. The king released on g1 may only castle (4.6b):
    // the board is castling, never the king's move to g1.
    let after = occ(KING_F1, CastlingMode::Chess960, &["h1"], &["g1"]);
    let ev = chess960(&format!(
        "{}\n{{\"t\":2600,\"input\":\"board_back\"}}\n{{\"t\":2600,\"occ\":\"{after}\"}}",
        r#"{"t":1000,"lift":"f1"}
{"t":1400,"place":"g1"}
{"t":1500,"input":"board_lost"}"#
    ));
    assert_eq!(sans(&ev), ["O-O"], "{ev:?}");
    // The same across a restart of pegboard.
    let ev = chess960(&format!(
        "{}\n{{\"t\":2600,\"input\":\"restarted\"}}\n{{\"t\":2600,\"occ\":\"{after}\"}}",
        r#"{"t":1000,"lift":"f1"}
{"t":1400,"place":"g1"}"#
    ));
    assert_eq!(sans(&ev), ["O-O"], "{ev:?}");
}

#[test]
fn appendix_f_a_king_waiting_for_its_rook_is_a_king_move_only_once_seen_waiting() {
    // Without the outage the wait runs out and the king's move stands.
    let ev = chess960(
        r#"{"t":1000,"lift":"f1"}
{"t":1400,"place":"g1"}
{"t":9000,"input":"times"}"#,
    );
    assert_eq!(sans(&ev), ["Kg1"], "{ev:?}");
    // With the sensors away the wait stands still, and runs again from
    // their return: the king's move comes a full wait after it.
    let ev = chess960(
        r#"{"t":1000,"lift":"f1"}
{"t":1400,"place":"g1"}
{"t":1500,"input":"board_lost"}
{"t":30000,"input":"board_back"}
{"t":40000,"input":"times"}"#,
    );
    let moves = of(&ev, "move");
    assert_eq!(moves.len(), 1, "{ev:?}");
    assert!(moves[0]["t"].as_u64().unwrap_or(0) > 30000, "{ev:?}");
}

// --- 8. A move made while the clocks are held keeps its press --------------

#[test]
fn art_6_12_a_move_made_while_the_clocks_are_held_after_a_restart_counts() {
    let trace = r#"{"t":1000,"lift":"e2"}
{"t":1200,"place":"e4"}
{"t":1300,"input":"announced","ply":1}
{"t":5000,"input":"restarted"}
{"t":7000,"lift":"e7"}
{"t":7300,"place":"e5"}
{"t":7400,"input":"announced","ply":2}
{"t":9000,"input":"resume"}
{"t":10000,"input":"times"}"#;
    let ev = run_with(&parse(trace), with_clock("300+0"));
    assert_eq!(sans(&ev), ["e4", "e5"]);
    let clocks = of(&ev, "clock");
    let press = clocks
        .iter()
        .find(|c| c["t"] == 7400)
        .expect("Black's move is pressed while the clocks stand");
    assert_eq!(press["cause"], "press");
    assert_eq!(press["paused"], true);
    assert_eq!(press["running"], "white");
    assert_eq!(press["black"]["moves"], 1);
    let resumed = clocks
        .iter()
        .find(|c| c["cause"] == "resume")
        .expect("resumed");
    assert_eq!(resumed["running"], "white", "{ev:?}");
    // Black used 3.7 s before the restart (1300..5000) and none after.
    assert_eq!(resumed["black"]["remaining_ms"], 300_000 - 3700);
}

#[test]
fn art_6_12_a_move_made_while_the_arbiter_has_paused_the_clock_counts() {
    let trace = r#"{"t":1000,"lift":"e2"}
{"t":1200,"place":"e4"}
{"t":1300,"input":"announced","ply":1}
{"t":2000,"input":"pause"}
{"t":3000,"lift":"e7"}
{"t":3300,"place":"e5"}
{"t":3400,"input":"announced","ply":2}
{"t":6000,"input":"resume"}
{"t":8000,"input":"times"}"#;
    let ev = run_with(&parse(trace), with_clock("300+0"));
    let clocks = of(&ev, "clock");
    let resumed = clocks
        .iter()
        .find(|c| c["cause"] == "resume")
        .expect("resumed");
    assert_eq!(resumed["running"], "white");
    assert_eq!(resumed["black"]["moves"], 1);
    // Black thought 0.7 s (1300..2000); the pause is nobody's.
    assert_eq!(resumed["black"]["remaining_ms"], 300_000 - 700);
    // A hand on the paused clock still counts for nothing (6.12).
    let ev = run_with(
        &parse(
            r#"{"t":1000,"input":"pause"}
{"t":2000,"input":"clock","color":"white"}
{"t":3000,"input":"resume"}"#,
        ),
        with_clock("300+0"),
    );
    let resumed = of(&ev, "clock")
        .into_iter()
        .find(|c| c["cause"] == "resume")
        .cloned()
        .expect("resumed");
    assert_eq!(resumed["running"], "white");
    assert_eq!(resumed["white"]["moves"], 0);
}
