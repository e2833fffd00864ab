//! The situations in between: pieces taken up before their owner's turn,
//! pieces knocked over, several pieces touched, j'adoube with a piece in
//! the hand, and a piece released on a square and moved on. One test per
//! case, named after its article.
//!
//! Articles 4.2–4.6 are numbered as in the 2008 Laws (seeds 001/002),
//! whose words on touching are those of 2001 and of today's Laws (where
//! 4.6 is 4.7). Appendix E2 follows the 2008 numbering. Debounce is the
//! default 20 ms, the settle wait 1000 ms.

mod common;

use common::{enforce, header, of, parse, run, run_with, sans};
use shakmaty::CastlingMode;

/// A header for a board White alone plays on (Black's moves relayed):
/// every piece taken up there in White's turn is White's touch. On a
/// board both players use, the opponent's piece taken up may be its
/// owner's hand and is charged to nobody.
fn own_board(fen: &str) -> String {
    format!(r#"{{"t":0,"trace":1,"start":"{fen}","black_moves_on":"relay"}}"#)
}

/// The one touch violation of a run: (touched, article).
fn violation(ev: &[serde_json::Value]) -> (String, String) {
    let v = of(ev, "touch_violation");
    assert_eq!(v.len(), 1, "one violation: {ev:?}");
    (
        v[0]["touched"].as_str().unwrap_or_default().to_string(),
        v[0]["article"].as_str().unwrap_or_default().to_string(),
    )
}

// --- Pieces taken up before their owner's turn --------------------------

#[test]
fn art_4_3_a_a_piece_taken_up_before_its_owners_turn_makes_his_move() {
    // Black takes up his knight while White is still moving; White plays
    // e4, the knight comes down on f6 in Black's turn: Nf6 is his move,
    // and White's d4 after it is no illegal move of Black's.
    let ev = run(r#"{"t":0,"trace":1,"start":"startpos"}
{"t":500,"lift":"g8"}
{"t":800,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":3100,"place":"f6"}
{"t":8100,"lift":"d2"}
{"t":8400,"place":"d4"}"#);
    assert_eq!(sans(&ev), ["e4", "Nf6", "d4"], "{ev:?}");
    assert!(of(&ev, "illegal").is_empty() && of(&ev, "mismatch").is_empty());
    assert!(of(&ev, "touch_violation").is_empty(), "{ev:?}");
    // White's move is made when the pawn is released (4.6, E2.3), one
    // debounce window after, though a piece is off the board.
    let moves = of(&ev, "move");
    assert_eq!(moves[0]["t"], 1120);
    assert!(moves[0].get("made").is_none(), "judged at once");
    // On a board both players use, the knight taken up in White's turn
    // may have been either hand: it is nobody's touch, in White's turn
    // or when Black's begins.
    assert!(
        of(&ev, "touch").iter().all(|e| e["square"] != "g8"),
        "{ev:?}"
    );
    assert_eq!(
        moves[1]["t"], 3120,
        "one window after the knight is put down"
    );
}

#[test]
fn art_4_3_a_a_piece_taken_up_while_a_promotion_waits_for_its_piece() {
    // White's pawn reaches b8 and waits for its piece; meanwhile Black
    // takes up his knight. The queen is named, then the knight comes
    // down on f6: both moves.
    let fen = "6n1/1P6/8/8/8/8/k7/4K3 w - - 0 1";
    let ev = run(&format!(
        "{}\n{}",
        header(fen),
        r#"{"t":500,"lift":"b7"}
{"t":900,"place":"b8"}
{"t":1500,"lift":"g8"}
{"t":2000,"input":"promote","piece":"q"}
{"t":5000,"place":"f6"}"#
    ));
    assert_eq!(sans(&ev), ["b8=Q", "Nf6"], "{ev:?}");
    assert_eq!(of(&ev, "promotion_pending").len(), 1);
    assert!(of(&ev, "illegal").is_empty() && of(&ev, "mismatch").is_empty());
}

// --- Pieces knocked over -----------------------------------------------

#[test]
fn art_7_3_a_piece_knocked_onto_an_empty_square_is_a_mismatch_not_an_illegal_move() {
    // White takes up d2 while Black's e7 pawn is knocked onto e6, then
    // puts the pawn down on d4. d4 is White's move; the knocked pawn is a
    // mismatch to put right, and nobody's illegal move.
    let ev = run(r#"{"t":0,"trace":1,"start":"startpos"}
{"t":500,"lift":"d2"}
{"t":700,"lift":"e7"}
{"t":750,"place":"e6"}
{"t":900,"place":"d4"}
{"t":6000,"lift":"e6"}
{"t":6300,"place":"e7"}
{"t":8000,"lift":"e7"}
{"t":8300,"place":"e5"}"#);
    assert_eq!(sans(&ev), ["d4", "e5"], "{ev:?}");
    assert!(of(&ev, "illegal").is_empty(), "{ev:?}");
    let mismatch = of(&ev, "mismatch");
    assert_eq!(mismatch.len(), 1, "{ev:?}");
    assert_eq!(
        mismatch[0]["t"], 1920,
        "with the move, after the settle wait"
    );
    assert_eq!(mismatch[0]["extra"], serde_json::json!(["e6"]));
    assert_eq!(mismatch[0]["missing"][0]["square"], "e7");
    assert_eq!(of(&ev, "restored").len(), 1);
    // The knocked pawn was never Black's touch: e5 breaks no duty.
    assert!(of(&ev, "touch_violation").is_empty());
}

#[test]
fn art_7_3_a_piece_knocked_in_the_opponents_turn_is_a_mismatch_too() {
    // After 1. e4 Black takes up g8 and White's d2 pawn is knocked onto d3;
    // the knight comes down on f6. Nf6 stands; the pawn is put back.
    let ev = run(r#"{"t":0,"trace":1,"start":"startpos"}
{"t":500,"lift":"e2"}
{"t":900,"place":"e4"}
{"t":3000,"lift":"g8"}
{"t":3200,"lift":"d2"}
{"t":3250,"place":"d3"}
{"t":3500,"place":"f6"}
{"t":7000,"lift":"d3"}
{"t":7300,"place":"d2"}"#);
    assert_eq!(sans(&ev), ["e4", "Nf6"], "{ev:?}");
    assert!(of(&ev, "illegal").is_empty(), "{ev:?}");
    let mismatch = of(&ev, "mismatch");
    assert_eq!(mismatch.len(), 1, "{ev:?}");
    assert_eq!(mismatch[0]["extra"], serde_json::json!(["d3"]));
    assert_eq!(of(&ev, "restored").len(), 1);
}

#[test]
fn art_7_4_two_own_pieces_moved_at_once_is_an_illegal_move_not_a_knock() {
    // A piece on a new square counts as knocked over only when one of the
    // opponent's pieces is missing: White putting both knights down in
    // one reading is his illegal move, not Nc3 with a knocked piece.
    let ev = run(r#"{"t":0,"trace":1,"start":"startpos"}
{"t":500,"lift":"b1"}
{"t":600,"lift":"g1"}
{"t":900,"occ":"ffff00000024ffbd"}"#);
    assert!(sans(&ev).is_empty(), "{ev:?}");
    let illegal = of(&ev, "illegal");
    assert_eq!(illegal.len(), 1, "{ev:?}");
    assert_eq!(illegal[0]["color"], "white");
}

#[test]
fn art_4_6_a_knight_released_is_his_move_and_the_other_knight_put_down_after_is_displaced() {
    // Both knights taken up, b1's put down on c3 first: released there as
    // a legal move, that is the move (4.6; today 4.7). The other knight,
    // put on f3 a moment later in Black's turn, is a displaced piece to
    // put back (7.3; today 7.4), charged to nobody as a move.
    let ev = run(r#"{"t":0,"trace":1,"start":"startpos"}
{"t":500,"lift":"b1"}
{"t":600,"lift":"g1"}
{"t":800,"place":"c3"}
{"t":900,"place":"f3"}"#);
    assert_eq!(sans(&ev), ["Nc3"], "{ev:?}");
    assert_eq!(of(&ev, "move")[0]["t"], 820);
    assert!(of(&ev, "illegal").is_empty(), "{ev:?}");
    let mismatch = of(&ev, "mismatch");
    assert_eq!(mismatch.len(), 1, "{ev:?}");
    assert_eq!(mismatch[0]["extra"], serde_json::json!(["f3"]));
    assert_eq!(mismatch[0]["missing"][0]["square"], "g1");
}

// --- Several pieces touched (4.3c, 4.4) ---------------------------------

#[test]
fn art_4_3_c_the_first_touched_own_piece_must_take_the_first_touched_opponent_piece() {
    // The knight, then the d5 pawn, are touched (and put back); then the
    // knight takes b5. It could take d5, the first opponent piece touched:
    // taking another touched piece is not what 4.3c asks.
    let fen = "4k3/8/8/1p1p4/8/2N5/8/4K3 w - - 0 1";
    let ev = run(&format!(
        "{}\n{}",
        own_board(fen),
        r#"{"t":100,"lift":"c3"}
{"t":300,"place":"c3"}
{"t":500,"lift":"d5"}
{"t":700,"place":"d5"}
{"t":1000,"lift":"c3"}
{"t":1200,"lift":"b5"}
{"t":1500,"place":"b5"}"#
    ));
    assert_eq!(sans(&ev), ["Nxb5"]);
    assert_eq!(violation(&ev), ("d5".into(), "4.3.3".into()));
}

#[test]
fn art_4_3_c_a_later_own_piece_touched_does_not_excuse_the_first() {
    // Knight c3 touched first, then the e4 pawn and d5: Nxd5 is legal,
    // so exd5 breaks 4.3c, though e4 and d5 were touched too.
    let fen = "4k3/8/8/3p4/4P3/2N5/8/4K3 w - - 0 1";
    let ev = run(&format!(
        "{}\n{}",
        own_board(fen),
        r#"{"t":100,"lift":"c3"}
{"t":300,"place":"c3"}
{"t":600,"lift":"e4"}
{"t":900,"lift":"d5"}
{"t":1300,"place":"d5"}"#
    ));
    assert_eq!(sans(&ev), ["exd5"]);
    assert_eq!(violation(&ev), ("d5".into(), "4.3.3".into()));
}

#[test]
fn art_4_3_c_if_that_capture_is_illegal_the_first_touched_piece_moves() {
    // Rook a1 touched first, then the d5 pawn, then the knight c3: Rxd5
    // is illegal, so the rook, first touched, must move, and does. The
    // knight could take d5, but it was not the first own piece touched.
    let fen = "4k3/8/8/3p4/8/2N5/8/R3K3 w - - 0 1";
    let ev = run(&format!(
        "{}\n{}",
        own_board(fen),
        r#"{"t":100,"lift":"a1"}
{"t":300,"place":"a1"}
{"t":500,"lift":"d5"}
{"t":700,"place":"d5"}
{"t":900,"lift":"c3"}
{"t":1100,"place":"c3"}
{"t":1500,"lift":"a1"}
{"t":1900,"place":"a5"}"#
    ));
    assert_eq!(sans(&ev), ["Ra5"]);
    assert!(of(&ev, "touch_violation").is_empty(), "{ev:?}");
}

#[test]
fn art_4_3_c_own_and_opponent_piece_lifted_in_one_reading_count_own_first() {
    // The knight g5 and the d4 pawn leave their apertures in one reading:
    // the knight counts as touched first. Nxd4 is illegal, so the knight
    // must move; exd4 breaks 4.3c. (In square order d4 would come first,
    // and capturing it would be the duty.)
    let fen = "4k3/8/8/6N1/3p4/4P3/8/4K3 w - - 0 1";
    let both_out = common::occ(fen, CastlingMode::Standard, &["g5", "d4"], &[]);
    let both_in = common::occ(fen, CastlingMode::Standard, &[], &[]);
    let ev = run(&format!(
        "{}\n{{\"t\":100,\"occ\":\"{both_out}\"}}\n{{\"t\":400,\"occ\":\"{both_in}\"}}\n{}",
        own_board(fen),
        r#"{"t":1000,"lift":"e3"}
{"t":1200,"lift":"d4"}
{"t":1500,"place":"d4"}"#
    ));
    assert_eq!(sans(&ev), ["exd4"]);
    let touches = of(&ev, "touch");
    assert_eq!(touches[0]["square"], "g5");
    assert_eq!(touches[1]["square"], "d4");
    assert_eq!(violation(&ev), ("g5".into(), "4.3.3".into()));
}

#[test]
fn art_4_3_a_a_rook_touched_before_a_capture_made_capturer_first() {
    // The rook a1 is touched first; then Nxd5, the knight taken up before
    // the pawn it takes. The rook had to move.
    let fen = "4k3/8/8/3p4/8/2N5/8/R3K3 w - - 0 1";
    let trace = format!(
        "{}\n{}",
        own_board(fen),
        r#"{"t":100,"lift":"a1"}
{"t":300,"place":"a1"}
{"t":600,"lift":"c3"}
{"t":900,"lift":"d5"}
{"t":1300,"place":"d5"}"#
    );
    let ev = run(&trace);
    assert_eq!(sans(&ev), ["Nxd5"]);
    assert_eq!(violation(&ev), ("a1".into(), "4.3.3".into()));
    // Under `enforce` the capture is refused.
    let ev = run_with(&parse(&trace), enforce());
    assert!(sans(&ev).is_empty(), "{ev:?}");
    assert_eq!(of(&ev, "touch_violation")[0]["rejected"], true);
}

#[test]
fn art_4_3_b_a_capturable_pawn_touched_then_another_capture() {
    // The d5 pawn, which the knight can take, is touched first; then the
    // knight takes b5 instead (taken up before b5 is lifted).
    let fen = "4k3/8/8/1p1p4/8/2N5/8/4K3 w - - 0 1";
    let ev = run(&format!(
        "{}\n{}",
        own_board(fen),
        r#"{"t":100,"lift":"d5"}
{"t":300,"place":"d5"}
{"t":600,"lift":"c3"}
{"t":900,"lift":"b5"}
{"t":1300,"place":"b5"}"#
    ));
    assert_eq!(sans(&ev), ["Nxb5"]);
    assert_eq!(violation(&ev), ("d5".into(), "4.3.3".into()));
}

#[test]
fn art_4_3_a_a_pawn_touched_then_castling() {
    let fen = "4k3/8/8/8/8/8/3P4/R3K2R w KQ - 0 1";
    let trace = format!(
        "{}\n{}",
        header(fen),
        r#"{"t":100,"lift":"d2"}
{"t":300,"place":"d2"}
{"t":600,"lift":"e1"}
{"t":700,"lift":"h1"}
{"t":1000,"place":"g1"}
{"t":1200,"place":"f1"}"#
    );
    let ev = run(&trace);
    assert_eq!(sans(&ev), ["O-O"]);
    assert_eq!(violation(&ev), ("d2".into(), "4.3.1".into()));
    let ev = run_with(&parse(&trace), enforce());
    assert!(sans(&ev).is_empty(), "refused: {ev:?}");
}

#[test]
fn art_4_3_c_a_pawn_touched_then_en_passant() {
    let fen = "4k3/8/8/3pP3/8/8/3P4/4K3 w - d6 0 2";
    let ev = run(&format!(
        "{}\n{}",
        own_board(fen),
        r#"{"t":100,"lift":"d2"}
{"t":300,"place":"d2"}
{"t":600,"lift":"e5"}
{"t":900,"lift":"d5"}
{"t":1300,"place":"d6"}"#
    ));
    assert_eq!(sans(&ev), ["exd6"]);
    assert_eq!(violation(&ev), ("d2".into(), "4.3.3".into()));
}

// --- J'adoube with a piece in the hand (4.2) ------------------------------

#[test]
fn art_4_2_jadoube_while_the_capturing_piece_is_in_the_hand_captures_nothing() {
    // The e4 pawn is in the hand; "j'adoube", and the d5 pawn is adjusted
    // (taken up and put back). No capture was made; the pawn then takes
    // on d5 for real.
    let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let trace = format!(
        "{}\n{}",
        header(fen),
        r#"{"t":100,"lift":"e4"}
{"t":500,"input":"adjust"}
{"t":700,"lift":"d5"}
{"t":900,"place":"d5"}"#
    );
    let ev = run(&trace);
    assert!(sans(&ev).is_empty(), "nothing captured: {ev:?}");
    let ev = run(&format!(
        "{trace}\n{}",
        r#"{"t":3000,"lift":"d5"}
{"t":3400,"place":"d5"}"#
    ));
    assert_eq!(sans(&ev), ["exd5"]);
    assert_eq!(of(&ev, "move")[0]["t"], 3420);
}

// --- A piece released on a square, then moved on (4.6) --------------------
//
// 2008 Laws 4.6 (today's 4.7): "When, as a legal move or part of a legal
// move, a piece has been released on a square, it cannot be moved to
// another square on this move"; (b) for castling, once the king is
// released the player may make no move but castling on that side.

#[test]
fn art_4_6_b_a_king_released_on_its_castling_square_may_only_castle() {
    let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    let trace = format!(
        "{}\n{}",
        header(fen),
        r#"{"t":100,"lift":"e1"}
{"t":500,"place":"g1"}
{"t":1500,"lift":"g1"}
{"t":1900,"place":"f1"}"#
    );
    let ev = run(&trace);
    assert_eq!(sans(&ev), ["Kf1"], "warned, not refused, by default");
    assert_eq!(violation(&ev), ("g1".into(), "4.7.2".into()));
    assert_eq!(
        of(&ev, "touch_violation")[0]["say"],
        "Zug mit Koenig auf Gustav eins ausführen."
    );
    // Under `enforce` Kf1 is refused, and castling it must be.
    let ev = run_with(
        &parse(&format!(
            "{trace}\n{}",
            r#"{"t":3000,"lift":"f1"}
{"t":3300,"place":"g1"}
{"t":3600,"lift":"h1"}
{"t":3900,"place":"f1"}"#
        )),
        enforce(),
    );
    assert_eq!(of(&ev, "touch_violation")[0]["rejected"], true);
    assert_eq!(sans(&ev), ["O-O"], "{ev:?}");
}

#[test]
fn art_4_6_a_pawn_released_on_the_en_passant_square_stays_there() {
    let fen = "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3";
    let ev = run(&format!(
        "{}\n{}",
        header(fen),
        r#"{"t":100,"lift":"e5"}
{"t":500,"place":"d6"}
{"t":1500,"lift":"d6"}
{"t":1900,"place":"e6"}"#
    ));
    assert_eq!(sans(&ev), ["e6"]);
    assert_eq!(violation(&ev), ("d6".into(), "4.7".into()));
}

#[test]
fn art_4_6_a_king_released_and_the_castling_completed_is_lawful() {
    let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    let ev = run(&format!(
        "{}\n{}",
        header(fen),
        r#"{"t":100,"lift":"e1"}
{"t":500,"place":"g1"}
{"t":1500,"lift":"h1"}
{"t":1900,"place":"f1"}"#
    ));
    assert_eq!(sans(&ev), ["O-O"]);
    assert!(of(&ev, "touch_violation").is_empty());
}
