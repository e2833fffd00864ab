//! One test per rule, named after its article. Each drives a hand-written
//! trace through debouncer, tracker and game, and checks the event stream.
//! Debounce is the default 20 ms, the settle wait 1000 ms.

mod common;

use common::{names, of, parse, run, run_with, sans};
use pegboard::core::{Settings, TouchPolicy};
use shakmaty::Role;

const CHESS960_HEADER: &str = r#"{"t":0,"trace":1,"variant":"chess960","start":"#;

#[test]
fn art_6_12_the_blind_player_calls_the_arbiter_with_his_key_and_hears_him_answer() {
    let ev = run(r#"{"t":1000,"input":"call_arbiter"}
{"t":5000,"input":"arbiter_coming"}"#);
    let called = of(&ev, "arbiter_called");
    assert_eq!(called.len(), 1);
    assert_eq!(called[0]["t"], 1000);
    assert_eq!(called[0]["say"], "Schiedsrichter gerufen.");
    let coming = of(&ev, "arbiter_coming");
    assert_eq!(coming.len(), 1);
    assert_eq!(coming[0]["t"], 5000);
    assert_eq!(coming[0]["say"], "Der Schiedsrichter kommt.");
}

#[test]
fn e2_2_a_piece_taken_out_of_its_aperture_is_touched() {
    let ev = run(r#"{"t":100,"lift":"g1"}"#);
    let touch = of(&ev, "touch");
    assert_eq!(touch.len(), 1);
    assert_eq!(touch[0]["t"], 120);
    assert_eq!(touch[0]["square"], "g1");
    assert_eq!(touch[0]["piece"], "N");
    assert_eq!(touch[0]["color"], "white");
    assert_eq!(touch[0]["board"], "blind");
    // A piece in the hand is a move in progress, never a mismatch.
    assert!(of(&ev, "mismatch").is_empty());
}

#[test]
fn e2_3_b_move_executed_when_the_piece_is_in_a_different_aperture() {
    let ev = run(r#"{"t":100,"lift":"g1"}
{"t":700,"place":"f3"}"#);
    let m = of(&ev, "move");
    assert_eq!(m.len(), 1);
    assert_eq!(m[0]["t"], 720, "one debounce window after the placement");
    assert_eq!(m[0]["ply"], 1);
    assert_eq!(m[0]["color"], "white");
    assert_eq!(m[0]["uci"], "g1f3");
    assert_eq!(m[0]["san"], "Nf3");
    assert_eq!(m[0]["say"], "Springer Felix drei");
    assert_eq!(
        m[0]["fen"],
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
    );
}

#[test]
fn ready_comes_first_with_the_start_fen() {
    let ev = run(r#"{"t":0,"trace":1,"start":"startpos"}"#);
    assert_eq!(ev[0]["event"], "ready");
    assert_eq!(
        ev[0]["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}

const CAPTURE_START: &str =
    r#"{"t":0,"trace":1,"start":"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"}"#;

/// The same position on a board White alone plays on (Black's moves
/// relayed): there every piece taken up in White's turn is his touch.
const CAPTURE_START_OWN: &str = r#"{"t":0,"trace":1,"start":"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2","black_moves_on":"relay"}"#;

#[test]
fn e2_3_a_capture_with_the_captured_piece_removed_first() {
    let ev = run(&format!(
        "{CAPTURE_START}\n{}",
        r#"{"t":100,"lift":"d5"}
{"t":600,"lift":"e4"}
{"t":1200,"place":"d5"}"#
    ));
    assert_eq!(sans(&ev), ["exd5"]);
    assert_eq!(of(&ev, "move")[0]["t"], 1220);
    assert_eq!(of(&ev, "move")[0]["say"], "Bauer Eva schlägt David fünf");
    assert!(of(&ev, "touch_violation").is_empty());
}

#[test]
fn e2_3_a_capture_with_the_mover_lifted_first_waits_for_the_victim() {
    let ev = run(&format!(
        "{CAPTURE_START}\n{}",
        r#"{"t":100,"lift":"e4"}
{"t":30000,"lift":"d5"}
{"t":31000,"place":"d5"}"#
    ));
    // Thirty seconds with the pawn in the hand: no move and no mismatch.
    assert_eq!(sans(&ev), ["exd5"]);
    assert_eq!(of(&ev, "move")[0]["t"], 31020);
    assert!(of(&ev, "mismatch").is_empty());
}

#[test]
fn a_captured_piece_held_while_the_taker_thinks_is_not_a_mismatch() {
    let ev = run(&format!(
        "{CAPTURE_START}\n{}",
        r#"{"t":100,"lift":"d5"}
{"t":60000,"input":"repeat"}"#
    ));
    assert!(of(&ev, "mismatch").is_empty());
    assert!(sans(&ev).is_empty());
}

#[test]
fn an_opponent_piece_touched_and_put_back_is_no_capture() {
    // d5 lifted and returned, then the e4 pawn lifted: the pawn is in the
    // hand, nothing is captured yet.
    let ev = run(&format!(
        "{CAPTURE_START_OWN}\n{}",
        r#"{"t":100,"lift":"d5"}
{"t":500,"place":"d5"}
{"t":900,"lift":"e4"}
{"t":5000,"place":"e5"}"#
    ));
    assert_eq!(sans(&ev), ["e5"]);
    // 4.3b: the touched d5 pawn could have been captured. The e4 pawn,
    // taken up last to make the move, does not turn it into 4.3c.
    let v = of(&ev, "touch_violation");
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["touched"], "d5");
    assert_eq!(v[0]["article"], "4.3.2");
}

const EP_START: &str =
    r#"{"t":0,"trace":1,"start":"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"}"#;

#[test]
fn e2_3_en_passant_is_never_executed_before_the_victim_is_gone() {
    let ev = run(&format!(
        "{EP_START}\n{}",
        r#"{"t":100,"lift":"e5"}
{"t":600,"place":"d6"}
{"t":20000,"lift":"d5"}"#
    ));
    let m = of(&ev, "move");
    assert_eq!(m.len(), 1);
    assert_eq!(m[0]["t"], 20020, "only when the captured pawn is gone");
    assert_eq!(m[0]["san"], "exd6");
    assert_eq!(m[0]["say"], "Bauer Eva schlägt David sechs en passant");
    assert!(of(&ev, "mismatch").is_empty());
}

#[test]
fn e2_3_en_passant_with_the_victim_removed_first() {
    let ev = run(&format!(
        "{EP_START}\n{}",
        r#"{"t":100,"lift":"d5"}
{"t":600,"lift":"e5"}
{"t":900,"place":"d6"}"#
    ));
    assert_eq!(sans(&ev), ["exd6"]);
    assert!(of(&ev, "touch_violation").is_empty());
}

const CASTLE_START: &str =
    r#"{"t":0,"trace":1,"start":"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"}"#;

#[test]
fn art_4_6_b_king_released_alone_is_not_yet_castling() {
    let ev = run(&format!(
        "{CASTLE_START}\n{}",
        r#"{"t":100,"lift":"e1"}
{"t":500,"place":"g1"}
{"t":30000,"lift":"h1"}
{"t":30500,"place":"f1"}"#
    ));
    let m = of(&ev, "move");
    assert_eq!(m.len(), 1);
    assert_eq!(m[0]["t"], 30520, "the rook completes it");
    assert_eq!(m[0]["san"], "O-O");
    assert_eq!(m[0]["uci"], "e1g1");
    assert_eq!(m[0]["say"], "Kurze Rochade");
    assert!(
        of(&ev, "mismatch").is_empty(),
        "a king waiting for its rook"
    );
    assert!(of(&ev, "touch_violation").is_empty());
}

#[test]
fn art_4_4_a_king_and_rook_lifted_together_castle_long() {
    let ev = run(&format!(
        "{CASTLE_START}\n{}",
        r#"{"t":100,"lift":"e1"}
{"t":200,"lift":"a1"}
{"t":700,"place":"d1"}
{"t":900,"place":"c1"}"#
    ));
    assert_eq!(sans(&ev), ["O-O-O"]);
    assert_eq!(of(&ev, "move")[0]["say"], "Lange Rochade");
}

#[test]
fn art_4_4_a_king_and_rook_touched_together_must_castle() {
    // King and rook taken up together while castling is legal, then only
    // the king moves (Kd1): castling was the duty.
    const KING_TO_D1: &str = r#"{"t":100,"lift":"e1"}
{"t":200,"lift":"a1"}
{"t":600,"place":"a1"}
{"t":900,"place":"d1"}"#;
    let ev = run(&format!("{CASTLE_START}\n{KING_TO_D1}"));
    assert_eq!(sans(&ev), ["Kd1"], "warned, not refused, by default");
    let v = of(&ev, "touch_violation");
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["article"], "4.4.1");
    assert_eq!(v[0]["touched"], "a1");
    assert_eq!(v[0]["say"], "Koenig und Turm berührt: Rochade ausführen.");
    // Under `enforce` the king move is refused until he castles.
    let settings = Settings {
        touch_policy: TouchPolicy::Enforce,
        ..Settings::default()
    };
    let ev = run_with(
        &parse(&format!(
            "{CASTLE_START}\n{KING_TO_D1}\n{}",
            r#"{"t":3000,"lift":"d1"}
{"t":3200,"lift":"a1"}
{"t":3600,"place":"c1"}
{"t":3800,"place":"d1"}"#
        )),
        settings,
    );
    assert_eq!(of(&ev, "touch_violation")[0]["rejected"], true);
    assert_eq!(sans(&ev), ["O-O-O"]);
}

#[test]
fn art_4_4_b_rook_first_is_a_rook_move() {
    let ev = run(&format!(
        "{CASTLE_START}\n{}",
        r#"{"t":100,"lift":"h1"}
{"t":600,"place":"f1"}"#
    ));
    assert_eq!(sans(&ev), ["Rf1"]);
}

#[test]
fn art_4_4_b_rook_touched_before_the_king_forbids_castling() {
    let ev = run(&format!(
        "{CASTLE_START}\n{}",
        r#"{"t":100,"lift":"h1"}
{"t":1000,"lift":"e1"}
{"t":1500,"place":"g1"}
{"t":1900,"place":"f1"}"#
    ));
    assert_eq!(sans(&ev), ["O-O"], "warned, not refused, by default");
    let v = of(&ev, "touch_violation");
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["touched"], "h1");
    assert_eq!(v[0]["article"], "4.3.1");
}

#[test]
fn art_4_4_c_castling_illegal_so_another_king_move() {
    // A black rook on f8 covers f1: kingside castling is illegal.
    let start = r#"{"t":0,"trace":1,"start":"4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1"}"#;
    let ev = run(&format!(
        "{start}\n{}",
        r#"{"t":100,"lift":"e1"}
{"t":150,"lift":"h1"}
{"t":600,"place":"h1"}
{"t":900,"lift":"a1"}
{"t":1300,"place":"b1"}"#
    ));
    assert_eq!(sans(&ev), ["Rb1"]);
    let v = of(&ev, "touch_violation");
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["article"], "4.4.3");
    assert_eq!(v[0]["touched"], "e1");
}

#[test]
fn art_4_3_a_touched_own_piece_must_be_moved_warn() {
    let ev = run(r#"{"t":100,"lift":"g1"}
{"t":500,"place":"g1"}
{"t":900,"lift":"e2"}
{"t":1300,"place":"e4"}"#);
    assert_eq!(sans(&ev), ["e4"]);
    let v = of(&ev, "touch_violation");
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["touched"], "g1");
    assert_eq!(v[0]["moved"], "e2");
    assert_eq!(v[0]["color"], "white");
    assert_eq!(v[0]["article"], "4.3.1");
    assert_eq!(v[0]["rejected"], false);
    assert_eq!(
        v[0]["say"],
        "Berührt ist Springer Gustav eins: mit diesem Stein ziehen."
    );
    // The violation is reported before the move it concerns.
    let order = names(&ev);
    let vi = order.iter().position(|n| n == "touch_violation");
    let mi = order.iter().position(|n| n == "move");
    assert!(vi < mi, "{order:?}");
}

#[test]
fn art_4_3_a_touch_violation_enforced_refuses_the_move() {
    let settings = Settings {
        touch_policy: TouchPolicy::Enforce,
        ..Settings::default()
    };
    let trace = parse(
        r#"{"t":100,"lift":"g1"}
{"t":500,"place":"g1"}
{"t":900,"lift":"e2"}
{"t":1300,"place":"e4"}
{"t":3000,"lift":"e4"}
{"t":3400,"place":"e2"}
{"t":4000,"lift":"g1"}
{"t":4400,"place":"f3"}"#,
    );
    let ev = run_with(&trace, settings);
    let v = of(&ev, "touch_violation");
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["rejected"], true);
    assert_eq!(sans(&ev), ["Nf3"], "e4 refused; the touched knight moved");
    assert_eq!(of(&ev, "restored").len(), 1, "board put back to e2");
}

#[test]
fn art_4_3_a_touch_policy_off_reports_nothing() {
    let settings = Settings {
        touch_policy: TouchPolicy::Off,
        ..Settings::default()
    };
    let trace = parse(
        r#"{"t":100,"lift":"g1"}
{"t":500,"place":"g1"}
{"t":900,"lift":"e2"}
{"t":1300,"place":"e4"}"#,
    );
    let ev = run_with(&trace, settings);
    assert_eq!(sans(&ev), ["e4"]);
    assert!(of(&ev, "touch_violation").is_empty());
}

#[test]
fn art_4_3_b_touched_opponent_piece_must_be_captured() {
    // Only the opponent's pawn d5 is touched (and put back); the knight,
    // taken up afterwards to move, is how the duty is broken.
    let ev = run(&format!(
        "{CAPTURE_START_OWN}\n{}",
        r#"{"t":100,"lift":"d5"}
{"t":500,"place":"d5"}
{"t":900,"lift":"g1"}
{"t":1300,"place":"f3"}"#
    ));
    assert_eq!(sans(&ev), ["Nf3"]);
    let v = of(&ev, "touch_violation");
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["touched"], "d5");
    assert_eq!(v[0]["article"], "4.3.2");
    assert_eq!(
        v[0]["say"],
        "Berührt ist Bauer David fünf: diesen Stein schlagen."
    );
}

#[test]
fn art_4_3_b_opponent_piece_alone() {
    // Only the opponent's pawn is touched; the queen takes it: lawful.
    let start = r#"{"t":0,"trace":1,"start":"4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1"}"#;
    let ev = run(&format!(
        "{start}\n{}",
        r#"{"t":100,"lift":"d5"}
{"t":500,"lift":"d1"}
{"t":900,"place":"d5"}"#
    ));
    assert_eq!(sans(&ev), ["Qxd5"]);
    assert!(of(&ev, "touch_violation").is_empty());
}

#[test]
fn art_4_3_c_own_and_opponent_piece_touched_capture_with_that_piece() {
    // Knight c3 and pawn d5 touched; Nxd5 is possible, so exd5 breaks 4.3c.
    let start = r#"{"t":0,"trace":1,"start":"4k3/8/8/3p4/4P3/2N5/8/4K3 w - - 0 1","black_moves_on":"relay"}"#;
    let ev = run(&format!(
        "{start}\n{}",
        r#"{"t":100,"lift":"c3"}
{"t":300,"place":"c3"}
{"t":500,"lift":"d5"}
{"t":700,"lift":"e4"}
{"t":900,"place":"d5"}"#
    ));
    assert_eq!(sans(&ev), ["exd5"]);
    let v = of(&ev, "touch_violation");
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["article"], "4.3.3");
}

#[test]
fn art_4_5_touched_piece_that_cannot_move_leaves_the_choice_free() {
    // The rook on a1 is boxed in: touching it obliges nothing.
    let ev = run(r#"{"t":100,"lift":"a1"}
{"t":400,"place":"a1"}
{"t":900,"lift":"e2"}
{"t":1300,"place":"e4"}"#);
    assert_eq!(sans(&ev), ["e4"]);
    assert!(of(&ev, "touch_violation").is_empty());
}

#[test]
fn art_4_2_adjust_before_lift_and_return_is_no_touch() {
    // J'adoube covers the pieces taken up until the move begins: the
    // knight put back is no touch (4.2; today 4.2.1).
    let ev = run(r#"{"t":50,"input":"adjust"}
{"t":100,"lift":"g1"}
{"t":400,"place":"g1"}
{"t":900,"lift":"e2"}
{"t":1300,"place":"e4"}"#);
    // The pawn, taken up under the j'adoube, is touched when its move
    // begins (put on another square); the knight never.
    let touched: Vec<&str> = of(&ev, "touch")
        .iter()
        .filter_map(|e| e["square"].as_str())
        .collect();
    assert_eq!(touched, ["e2"]);
    assert!(of(&ev, "touch_violation").is_empty());
    assert_eq!(sans(&ev), ["e4"]);
}

#[test]
fn art_7_4_illegal_move_is_refused_counted_and_replaced() {
    let ev = run(r#"{"t":100,"lift":"g1"}
{"t":500,"place":"g4"}
{"t":3000,"lift":"g4"}
{"t":3500,"place":"g1"}
{"t":4000,"lift":"e2"}
{"t":4500,"place":"e4"}"#);
    let ill = of(&ev, "illegal");
    assert_eq!(ill.len(), 1);
    assert_eq!(ill[0]["t"], 1520, "reported once the board was still");
    assert_eq!(ill[0]["color"], "white");
    assert_eq!(ill[0]["count"], 1);
    assert_eq!(ill[0]["extra"][0], "g4");
    assert_eq!(ill[0]["missing"][0]["square"], "g1");
    assert_eq!(ill[0]["missing"][0]["piece"], "N");
    assert_eq!(
        ill[0]["say"],
        "Unmöglicher Zug. Stellung wiederherstellen und neu ziehen. Entfernen von Gustav vier. Weiß Springer auf Gustav eins stellen."
    );
    assert!(of(&ev, "mismatch").is_empty());
    assert_eq!(of(&ev, "restored").len(), 1);
    // 7.4a: 4.3 applies to the replacing move — the knight was touched.
    assert_eq!(sans(&ev), ["e4"]);
    assert_eq!(of(&ev, "touch_violation").len(), 1);
}

#[test]
fn art_7_4_illegal_move_replaced_directly_by_a_legal_one() {
    let ev = run(r#"{"t":100,"lift":"g1"}
{"t":500,"place":"g4"}
{"t":3000,"lift":"g4"}
{"t":3500,"place":"f3"}
{"t":4000,"lift":"e7"}
{"t":4500,"place":"e5"}
{"t":5000,"lift":"f3"}
{"t":5500,"place":"f5"}"#);
    assert_eq!(sans(&ev), ["Nf3", "e5"]);
    let ill = of(&ev, "illegal");
    assert_eq!(ill.len(), 2, "Ng4, then Nf5");
    assert_eq!(ill[0]["count"], 1);
    assert_eq!(ill[1]["color"], "white");
    assert_eq!(ill[1]["count"], 2, "illegal moves are counted per player");
}

#[test]
fn art_7_3_displaced_piece_gives_mismatch_with_guidance_then_restored() {
    // White to move; black's knight is knocked out of b8 (it cannot be captured).
    let ev = run(r#"{"t":100,"lift":"b8"}
{"t":5000,"place":"b8"}"#);
    let mm = of(&ev, "mismatch");
    assert_eq!(mm.len(), 1);
    assert_eq!(mm[0]["t"], 1120, "after the settle wait");
    assert_eq!(mm[0]["board"], "blind");
    assert_eq!(mm[0]["missing"][0]["square"], "b8");
    assert_eq!(mm[0]["missing"][0]["piece"], "n");
    assert_eq!(
        mm[0]["say"],
        "Brett stimmt nicht. Schwarz Springer auf Bella acht stellen."
    );
    let r = of(&ev, "restored");
    assert_eq!(r.len(), 1);
    assert_eq!(r[0]["t"], 5020);
}

#[test]
fn e2_7_extra_piece_on_an_empty_square_is_named() {
    let ev = run(r#"{"t":100,"place":"e5"}"#);
    let mm = of(&ev, "mismatch");
    assert_eq!(mm.len(), 1);
    assert_eq!(mm[0]["extra"][0], "e5");
    assert_eq!(mm[0]["missing"].as_array().map(Vec::len), Some(0));
    assert_eq!(mm[0]["say"], "Brett stimmt nicht. Entfernen von Eva fünf.");
}

#[test]
fn a_knocked_piece_while_moving_is_a_move_then_a_mismatch() {
    // The knight goes to f3 and the e2 pawn is knocked out on the way.
    let ev = run(r#"{"t":100,"lift":"g1"}
{"t":300,"lift":"e2"}
{"t":600,"place":"f3"}"#);
    assert_eq!(sans(&ev), ["Nf3"]);
    let mm = of(&ev, "mismatch");
    assert_eq!(mm.len(), 1);
    assert_eq!(mm[0]["missing"][0]["square"], "e2");
    assert_eq!(mm[0]["missing"][0]["piece"], "P");
}

const PROMO_START: &str = r#"{"t":0,"trace":1,"start":"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"}"#;

#[test]
fn e2_1_promotion_chosen_after_the_piece_is_placed() {
    let ev = run(&format!(
        "{PROMO_START}\n{}",
        r#"{"t":100,"lift":"b7"}
{"t":600,"place":"b8"}
{"t":9000,"input":"promote","piece":"n"}"#
    ));
    let pending = of(&ev, "promotion_pending");
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0]["square"], "b8");
    assert_eq!(pending[0]["t"], 620);
    let m = of(&ev, "move");
    assert_eq!(m.len(), 1);
    assert_eq!(m[0]["t"], 9000, "executed only once the choice is known");
    assert_eq!(m[0]["san"], "b8=N");
    assert_eq!(m[0]["say"], "Bauer Bella acht Umwandlung in Springer");
    assert!(of(&ev, "mismatch").is_empty());
}

#[test]
fn art_4_6_c_promotion_chosen_before_the_piece_is_placed() {
    let ev = run(&format!(
        "{PROMO_START}\n{}",
        r#"{"t":50,"input":"promote","piece":"r"}
{"t":100,"lift":"b7"}
{"t":600,"place":"b8"}"#
    ));
    assert!(of(&ev, "promotion_pending").is_empty());
    assert_eq!(sans(&ev), ["b8=R+"]);
    assert_eq!(of(&ev, "move")[0]["t"], 620);
}

#[test]
fn default_promotion_for_casual_play() {
    let settings = Settings {
        default_promotion: Some(Role::Queen),
        ..Settings::default()
    };
    let trace = parse(&format!(
        "{PROMO_START}\n{}",
        r#"{"t":100,"lift":"b7"}
{"t":600,"place":"b8"}"#
    ));
    let ev = run_with(&trace, settings);
    assert_eq!(sans(&ev), ["b8=Q+"]);
}

const C960: &str = "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1";

fn chess960(fen: &str, body: &str) -> Vec<serde_json::Value> {
    run(&format!("{CHESS960_HEADER}\"{fen}\"}}\n{body}"))
}

#[test]
fn appendix_f_chess960_castling_king_off_rook_in_king_in() {
    // King e1, rook h1 (kingside): the king is taken off, the rook goes
    // in on f1, then the king on g1 — O-O, written king takes rook.
    let fen = "1r2k2r/8/8/8/8/8/8/1R2K2R w KQkq - 0 1";
    let ev = chess960(
        fen,
        r#"{"t":100,"lift":"e1"}
{"t":600,"lift":"h1"}
{"t":900,"place":"f1"}
{"t":1200,"place":"g1"}"#,
    );
    assert_eq!(sans(&ev), ["O-O"]);
    assert_eq!(
        of(&ev, "move")[0]["uci"],
        "e1h1",
        "king takes rook in Chess960"
    );
    let _ = C960;
}

#[test]
fn appendix_f_chess960_king_only_castling() {
    // Rook already on f1: O-O moves only the king, e1 to g1.
    let fen = "4k3/8/8/8/8/8/8/4KR2 w F - 0 1";
    let ev = chess960(
        fen,
        r#"{"t":100,"lift":"e1"}
{"t":600,"place":"g1"}"#,
    );
    assert_eq!(sans(&ev), ["O-O"]);
}

#[test]
fn appendix_f_chess960_rook_only_castling() {
    // King already on g1, rook h1: O-O moves only the rook, over the king.
    let fen = "4k3/8/8/8/8/8/8/6KR w H - 0 1";
    let ev = chess960(
        fen,
        r#"{"t":100,"lift":"h1"}
{"t":600,"place":"f1"}"#,
    );
    assert_eq!(sans(&ev), ["O-O"]);
}

#[test]
fn appendix_f_chess960_transposition_rook_first_with_king_lifted() {
    // King b1, rook a1: O-O-O puts king c1 and rook d1. Rook off first,
    // then the king, then both in: a transposition, no touch violation.
    let fen = "4k3/8/8/8/8/8/8/RK6 w A - 0 1";
    let ev = chess960(
        fen,
        r#"{"t":100,"lift":"a1"}
{"t":400,"lift":"b1"}
{"t":800,"place":"d1"}
{"t":1100,"place":"c1"}"#,
    );
    assert_eq!(sans(&ev), ["O-O-O"]);
    assert!(of(&ev, "touch_violation").is_empty());
}

#[test]
fn appendix_f_chess960_king_and_rook_swap_squares() {
    // King f1, rook g1: O-O leaves the king on g1 and the rook on f1.
    let fen = "4k3/8/8/8/8/8/8/5KR1 w G - 0 1";
    let ev = chess960(
        fen,
        r#"{"t":100,"lift":"f1"}
{"t":300,"lift":"g1"}
{"t":800,"place":"g1"}
{"t":1100,"place":"f1"}"#,
    );
    assert_eq!(sans(&ev), ["O-O"]);
}

#[test]
fn appendix_f_chess960_king_on_its_castling_square_waits_for_the_rook() {
    // King f1, rook h1: g1 is both a king move and the castling square.
    let fen = "4k3/8/8/8/8/8/8/5K1R w H - 0 1";
    let castle = chess960(
        fen,
        r#"{"t":100,"lift":"f1"}
{"t":500,"place":"g1"}
{"t":1200,"lift":"h1"}
{"t":1600,"place":"f1"}"#,
    );
    assert_eq!(sans(&castle), ["O-O"]);
    let king_move = chess960(
        fen,
        r#"{"t":100,"lift":"f1"}
{"t":500,"place":"g1"}"#,
    );
    assert_eq!(sans(&king_move), ["Kg1"]);
    assert_eq!(
        of(&king_move, "move")[0]["t"],
        520 + 1500,
        "after the castling wait"
    );
}

#[test]
fn art_5_1_a_checkmate_ends_the_game() {
    let ev = run(r#"{"t":100,"lift":"f2"}
{"t":300,"place":"f3"}
{"t":1000,"lift":"e7"}
{"t":1300,"place":"e5"}
{"t":2000,"lift":"g2"}
{"t":2300,"place":"g4"}
{"t":3000,"lift":"d8"}
{"t":3300,"place":"h4"}"#);
    assert_eq!(sans(&ev), ["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(of(&ev, "move")[3]["say"], "Dame Hector vier, Schachmatt");
    let over = of(&ev, "game_over");
    assert_eq!(over.len(), 1);
    assert_eq!(over[0]["result"], "0-1");
    assert_eq!(over[0]["reason"], "checkmate");
    // "Schachmatt" was said with the move; the end adds the result.
    assert_eq!(over[0]["say"], "Schwarz gewinnt.");
}

#[test]
fn art_5_1_b_resignation_and_art_9_1_agreement() {
    let ev = run(r#"{"t":100,"input":"resign","color":"white"}"#);
    let over = of(&ev, "game_over");
    assert_eq!(over[0]["result"], "0-1");
    assert_eq!(over[0]["reason"], "resignation");
    assert_eq!(over[0]["say"], "Weiß gibt auf. Schwarz gewinnt.");

    // After 1. e4 e5 (today no draw is agreed before both have moved).
    let ev = run(r#"{"t":100,"lift":"e2"}
{"t":300,"place":"e4"}
{"t":500,"lift":"e7"}
{"t":700,"place":"e5"}
{"t":1000,"input":"draw_offer","color":"white"}
{"t":1900,"input":"draw_offer","color":"black"}"#);
    let over = of(&ev, "game_over");
    assert_eq!(over.len(), 1);
    assert_eq!(over[0]["result"], "1/2-1/2");
    assert_eq!(over[0]["reason"], "agreement");
}

#[test]
fn art_9_2_threefold_repetition_claim_through_the_trace() {
    let (body, t) = knight_shuffle(2);
    let early = run(&format!(
        "{}{{\"t\":{},\"input\":\"draw_claim\",\"color\":\"white\"}}",
        body.lines().take(12).collect::<Vec<_>>().join("\n") + "\n",
        t + 1
    ));
    let says: Vec<&str> = of(&early, "say")
        .iter()
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(says, ["Remisreklamation nicht berechtigt."]);
    assert!(of(&early, "game_over").is_empty());

    let ev = run(&format!(
        "{body}{{\"t\":{},\"input\":\"draw_claim\",\"color\":\"white\"}}",
        t + 1000
    ));
    let over = of(&ev, "game_over");
    assert_eq!(over.len(), 1);
    assert_eq!(over[0]["reason"], "threefold_repetition");
    assert_eq!(over[0]["result"], "1/2-1/2");
}

/// The knight shuffle g1f3 g8f6 f3g1 f6g8, `rounds` times, as lifts and
/// placements one second apart; returns the trace body and its last time.
fn knight_shuffle(rounds: usize) -> (String, u64) {
    let mut body = String::new();
    let mut t = 0;
    for _ in 0..rounds {
        for (a, b) in [("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8")] {
            t += 1000;
            body.push_str(&format!("{{\"t\":{t},\"lift\":\"{a}\"}}\n"));
            t += 300;
            body.push_str(&format!("{{\"t\":{t},\"place\":\"{b}\"}}\n"));
        }
    }
    (body, t)
}

#[test]
fn art_9_6_1_fivefold_repetition_ends_the_game_without_a_claim() {
    // Forty rounds of the shuffle: the start position stands for the
    // fifth time after the fourth round, and the game ends there.
    let (body, _) = knight_shuffle(40);
    let ev = run(&body);
    let over = of(&ev, "game_over");
    assert_eq!(over.len(), 1, "the game ends once, without a claim");
    assert_eq!(over[0]["reason"], "fivefold_repetition");
    assert_eq!(over[0]["result"], "1/2-1/2");
    assert_eq!(
        over[0]["say"],
        "Remis durch fünfmalige Stellungswiederholung."
    );
    assert_eq!(
        of(&ev, "move").len(),
        16,
        "no move is executed after the end"
    );
}

#[test]
fn art_9_6_2_seventy_five_moves_end_the_game_without_a_claim() {
    // Rooks and kings only, 148 half-moves already without a pawn move or
    // capture: two more quiet moves are the 75th of each player.
    let ev = run(
        r#"{"t":0,"trace":1,"start":"4k3/r7/8/8/8/8/R7/4K3 w - - 148 120"}
{"t":1000,"lift":"a2"}
{"t":1300,"place":"b2"}
{"t":2000,"lift":"a7"}
{"t":2300,"place":"b7"}"#,
    );
    assert_eq!(sans(&ev), ["Rb2", "Rb7"]);
    let over = of(&ev, "game_over");
    assert_eq!(over.len(), 1);
    assert_eq!(over[0]["reason"], "seventy_five_moves");
    assert_eq!(over[0]["result"], "1/2-1/2");
    assert_eq!(over[0]["say"], "Remis nach der Fünfundsiebzig-Züge-Regel.");
    assert_eq!(over[0]["t"], of(&ev, "move")[1]["t"]);
}

#[test]
fn repeat_says_the_last_move_again() {
    let ev = run(r#"{"t":0,"input":"repeat"}
{"t":100,"lift":"g1"}
{"t":700,"place":"f3"}
{"t":2000,"input":"repeat"}"#);
    let says: Vec<&str> = of(&ev, "answer")
        .iter()
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(says, ["Noch kein Zug.", "1. Weiß: Springer Felix drei"]);
}

#[test]
fn square_and_position_queries_are_answered() {
    let ev = run(
        r#"{"t":0,"trace":1,"start":"4k3/8/8/8/8/8/8/R3K3 w - - 0 1"}
{"t":10,"input":"square","square":"a1"}
{"t":20,"input":"square","square":"a2"}
{"t":30,"input":"position"}"#,
    );
    let says: Vec<&str> = of(&ev, "answer")
        .iter()
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(
        says,
        [
            "Weiß Turm Anna eins",
            "Anna zwei leer",
            "Weiß: Koenig Eva eins, Turm Anna eins. Schwarz: Koenig Eva acht. Weiß am Zug."
        ]
    );
}

#[test]
fn chatter_and_glitches_do_not_make_extra_events() {
    let ev = run(
        // g1 lifted with chatter, g7 glitches for 6 ms, f3 placed with chatter.
        r#"{"t":100,"occ":"ffff00000000ffbf"}
{"t":103,"occ":"ffff00000000ffff"}
{"t":110,"occ":"ffff00000000ffbf"}
{"t":2000,"occ":"ffbf00000000ffbf"}
{"t":2006,"occ":"ffff00000000ffbf"}
{"t":2400,"occ":"ffff00000020ffbf"}
{"t":2402,"occ":"ffff00000000ffbf"}
{"t":2405,"occ":"ffff00000020ffbf"}"#,
    );
    assert_eq!(names(&ev), ["ready", "touch", "move"]);
    assert_eq!(sans(&ev), ["Nf3"]);
    assert_eq!(of(&ev, "move")[0]["t"], 2425);
}

#[test]
fn moves_made_while_the_sensors_were_away_are_a_mismatch_never_an_illegal_move() {
    // 1. e4 e5 played while the scanner was unplugged: the board comes
    // back two plies ahead. Without the outage the same board would be
    // White's illegal relocation; after it, it is a board to put right.
    let body = r#"{"t":1000,"input":"board_lost"}
{"t":5000,"input":"board_back"}
{"t":5000,"occ":"ffef00101000efff"}
{"t":9000,"lift":"e4"}
{"t":9100,"place":"e2"}
{"t":9200,"lift":"e5"}
{"t":9300,"place":"e7"}
{"t":10000,"lift":"e2"}
{"t":10300,"place":"e4"}"#;
    let ev = run(body);
    // The sensors' loss and return are events of their own, said to him.
    let says: Vec<&str> = ["sensors_lost", "sensors_back"]
        .iter()
        .flat_map(|name| of(&ev, name))
        .filter_map(|e| e["say"].as_str())
        .collect();
    assert_eq!(
        says,
        [
            "Brett nicht verbunden. Die Partie bleibt erhalten.",
            "Brett wieder verbunden."
        ]
    );
    assert!(of(&ev, "say").is_empty(), "{ev:?}");
    assert!(of(&ev, "illegal").is_empty(), "nobody is charged: {ev:?}");
    let mismatch = of(&ev, "mismatch");
    assert_eq!(mismatch.len(), 1);
    assert_eq!(mismatch[0]["t"], 6020, "reported after the settle wait");
    assert_eq!(mismatch[0]["extra"], serde_json::json!(["e4", "e5"]));
    // Put right, the game goes on from where it was.
    assert_eq!(of(&ev, "restored").len(), 1);
    assert_eq!(sans(&ev), ["e4"]);

    // The same board seen at once, without an outage: White's e4 is
    // played when released, and Black's pawn, put on e5 before his turn,
    // is a mismatch to put right. Neither is charged as an illegal move.
    let ev = run(r#"{"t":5000,"occ":"ffef00101000efff"}"#);
    assert_eq!(sans(&ev), ["e4"]);
    assert!(of(&ev, "illegal").is_empty(), "{ev:?}");
    let mismatch = of(&ev, "mismatch");
    assert_eq!(mismatch.len(), 1, "{ev:?}");
    assert_eq!(mismatch[0]["extra"], serde_json::json!(["e5"]));
}
