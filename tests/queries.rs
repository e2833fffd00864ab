//! The blind player's questions (E2.9d: answered on request) and the
//! guidance when the board is wrong, driven through traces.

mod common;

use common::{of, run};

/// 1. e4 e5 2. Nf3 on the board.
const THREE_PLIES: &str = r#"{"t":100,"lift":"e2"}
{"t":200,"place":"e4"}
{"t":1000,"lift":"e7"}
{"t":1100,"place":"e5"}
{"t":2000,"lift":"g1"}
{"t":2100,"place":"f3"}"#;

/// 1. e4 e5 2. Nf3, then a question at t = 9000.
fn after_three_plies(question: &str) -> Vec<serde_json::Value> {
    run(&format!(
        r#"{THREE_PLIES}
{{"t":9000,"input":{question}}}"#
    ))
}

/// The one answer to the question: an `answer` event, for the blind
/// player's voices alone (nothing said to all).
fn answer(events: &[serde_json::Value]) -> String {
    assert!(of(events, "say").is_empty(), "said to all: {events:?}");
    let says = of(events, "answer");
    assert_eq!(says.len(), 1, "exactly one answer: {events:?}");
    assert_eq!(says[0]["t"], 9000, "answered at once");
    says[0]["text"].as_str().unwrap_or_default().to_string()
}

#[test]
fn e2_9_repeat_says_the_last_move_with_its_number() {
    let ev = after_three_plies(r#""repeat""#);
    assert_eq!(answer(&ev), "2. Weiß: Springer Felix drei");
}

#[test]
fn e2_9_repeat_with_count_says_the_last_n_moves_oldest_first() {
    let ev = after_three_plies(r#""repeat","count":2"#);
    assert_eq!(
        answer(&ev),
        "1. Schwarz: Bauer Eva fünf. 2. Weiß: Springer Felix drei"
    );
    // More than were played: all of them.
    let ev = after_three_plies(r#""repeat","count":10"#);
    assert!(
        answer(&ev).starts_with("1. Weiß: Bauer Eva vier. 1. Schwarz"),
        "{ev:?}"
    );
}

#[test]
fn e2_9_repeat_of_one_ply_says_that_move_alone() {
    // The routing key over a move on the Braille display asks so.
    let ev = after_three_plies(r#""repeat","ply":2"#);
    assert_eq!(answer(&ev), "1. Schwarz: Bauer Eva fünf");
    let ev = after_three_plies(r#""repeat","ply":1"#);
    assert_eq!(answer(&ev), "1. Weiß: Bauer Eva vier");
    // A ply not yet played: no move.
    let ev = after_three_plies(r#""repeat","ply":4"#);
    let before = after_three_plies(r#""repeat","count":1"#);
    assert_ne!(answer(&ev), answer(&before), "{ev:?}");
    assert!(!answer(&ev).contains("Springer"), "{ev:?}");
}

#[test]
fn the_braille_display_lost_and_back_are_said_once_each() {
    let ev = run(&format!(
        r#"{THREE_PLIES}
{{"t":9000,"input":"braille_lost"}}
{{"t":9500,"input":"braille_back"}}"#
    ));
    let said: Vec<String> = ["braille_lost", "braille_back"]
        .iter()
        .flat_map(|name| of(&ev, name))
        .map(|e| e["say"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        said,
        [
            "Braillezeile nicht mehr verbunden. Die Partie geht weiter.",
            "Braillezeile wieder verbunden."
        ]
    );
    // The game is untouched: the three moves stand.
    assert_eq!(of(&ev, "move").len(), 3);
}

#[test]
fn e2_9_move_number_and_who_is_to_move() {
    let ev = after_three_plies(r#""move_number""#);
    assert_eq!(answer(&ev), "Zug 2, Schwarz am Zug.");
}

#[test]
fn e2_9_times_without_a_clock_says_there_is_none() {
    let ev = after_three_plies(r#""times""#);
    assert_eq!(answer(&ev), "Keine Uhr eingestellt.");
}

#[test]
fn e2_9_square_query_names_the_piece() {
    let ev = after_three_plies(r#""square","square":"f3""#);
    assert_eq!(answer(&ev), "Weiß Springer Felix drei");
    let ev = after_three_plies(r#""square","square":"g1""#);
    assert_eq!(answer(&ev), "Gustav eins leer");
}

#[test]
fn e2_9_rank_and_file_are_scanned_square_by_square() {
    let ev = after_three_plies(r#""rank","rank":4"#);
    assert_eq!(answer(&ev), "Reihe vier: Weiß Bauer Eva vier.");
    let ev = after_three_plies(r#""file","file":"f""#);
    assert_eq!(
        answer(&ev),
        "Linie Felix: Weiß Laeufer Felix eins, Weiß Bauer Felix zwei, Weiß Springer Felix drei, \
         Schwarz Bauer Felix sieben, Schwarz Laeufer Felix acht."
    );
}

#[test]
fn e2_9_position_is_read_as_piece_lists_per_side() {
    let ev = after_three_plies(r#""position""#);
    let text = answer(&ev);
    assert!(
        text.starts_with(
            "Weiß: Koenig Eva eins, Dame David eins, Turm Anna eins, Turm Hector eins"
        ),
        "{text}"
    );
    assert!(
        text.contains("Springer Bella eins, Springer Felix drei"),
        "{text}"
    );
    assert!(text.ends_with("Schwarz am Zug."), "{text}");
}

#[test]
fn e2_3_c_announced_marks_the_move_announced_once() {
    let ev = run(r#"{"t":100,"lift":"e2"}
{"t":200,"place":"e4"}
{"t":230,"input":"announced","ply":1}
{"t":240,"input":"announced","ply":1}
{"t":250,"input":"announced","ply":2}"#);
    let a = of(&ev, "announced");
    assert_eq!(
        a.len(),
        1,
        "a repeated or future ply changes nothing: {ev:?}"
    );
    assert_eq!(a[0]["ply"], 1);
    assert_eq!(a[0]["color"], "white");
    assert_eq!(a[0]["t"], 230);
}

#[test]
fn e2_7_guidance_follows_the_player_square_by_square_then_confirms() {
    // Two black pieces knocked out while white is to move. The player puts
    // one back: the guidance is renewed with only what is left; when the
    // second is back, the board is confirmed.
    let ev = run(r#"{"t":100,"lift":"b8"}
{"t":150,"lift":"g8"}
{"t":3000,"place":"b8"}
{"t":6000,"place":"g8"}"#);
    let mm = of(&ev, "mismatch");
    assert_eq!(mm.len(), 2, "{ev:?}");
    assert_eq!(
        mm[0]["say"],
        "Brett stimmt nicht. Schwarz Springer auf Bella acht stellen. \
         Schwarz Springer auf Gustav acht stellen."
    );
    assert_eq!(
        mm[1]["say"],
        "Brett stimmt nicht. Schwarz Springer auf Gustav acht stellen."
    );
    let r = of(&ev, "restored");
    assert_eq!(r.len(), 1);
    assert_eq!(r[0]["say"], "Brett stimmt wieder.");
    assert_eq!(r[0]["t"], 6020);
}

#[test]
fn the_material_balance_is_said_as_players_count_it() {
    let at = |fen: &str| {
        run(&format!(
            r#"{{"t":0,"trace":1,"start":"{fen}"}}
{{"t":9000,"input":"material"}}"#
        ))
    };
    assert_eq!(
        answer(&at(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        )),
        "Niemand hat etwas mehr."
    );
    // White won the exchange (a rook for a knight) and two pawns.
    assert_eq!(
        answer(&at("rnbqkbn1/pppppp2/8/8/8/8/PPPPPPPP/RNBQKB1R w Qq - 0 1")),
        "Weiß hat eine Qualität und 2 Bauern mehr."
    );
    assert_eq!(
        answer(&at("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")),
        "Weiß hat einen Turm mehr."
    );
    assert_eq!(
        answer(&at("3qk3/8/8/8/8/8/8/1NB1K3 w - - 0 1")),
        "Weiß hat 2 Figuren mehr. Schwarz hat eine Dame mehr."
    );
}

/// The Italian (1. e4 e5 2. Nf3 Nc6 3. Bc4), the opening asked at
/// t = 9000, and its classification given after it as the runtime
/// journals it.
fn italian_asked(answer: &str) -> Vec<serde_json::Value> {
    run(&format!(
        r#"{THREE_PLIES}
{{"t":3000,"lift":"b8"}}
{{"t":3100,"place":"c6"}}
{{"t":4000,"lift":"f1"}}
{{"t":4100,"place":"c4"}}
{{"t":9000,"input":"opening"}}
{answer}"#
    ))
}

fn opening_said(events: &[serde_json::Value]) -> Vec<(u64, String, String)> {
    of(events, "opening")
        .iter()
        .map(|e| {
            (
                e["t"].as_u64().unwrap_or_default(),
                e["eco"].as_str().unwrap_or("-").to_string(),
                e["say"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn the_opening_is_named_by_its_family_and_its_code() {
    let ev = italian_asked(
        r#"{"t":9000,"input":"opening_classified","ply":5,"eco":"C50","family":"italian"}"#,
    );
    assert_eq!(
        opening_said(&ev),
        [(9000, "C50".into(), "Italienische Partie, C50.".into())]
    );
    assert_eq!(of(&ev, "opening")[0]["family"], "italian");
    let ev = italian_asked(
        r#"{"t":9000,"input":"opening_classified","ply":5,"eco":"C03","family":"french"}"#,
    );
    assert_eq!(opening_said(&ev)[0].2, "Französische Verteidigung, C03.");
    // A line of no family said in words: the code alone.
    let ev = italian_asked(r#"{"t":9000,"input":"opening_classified","ply":5,"eco":"C44"}"#);
    assert_eq!(opening_said(&ev)[0].2, "Eröffnung C44.");
    assert!(of(&ev, "opening")[0].get("family").is_none());
    // None known.
    let ev = italian_asked(r#"{"t":9000,"input":"opening_classified","ply":5}"#);
    assert_eq!(
        opening_said(&ev),
        [(9000, "-".into(), "Keine bekannte Eröffnung.".into())]
    );
    assert!(
        of(&ev, "say").is_empty(),
        "one answer, as an `opening` event"
    );
}

#[test]
fn the_opening_is_said_only_once_asked_and_only_for_the_ply_asked() {
    // Asked, but no classification yet: nothing is said.
    let ev = italian_asked("");
    assert!(opening_said(&ev).is_empty(), "{ev:?}");
    // A classification for another ply than the one asked: nothing.
    let ev = italian_asked(r#"{"t":9000,"input":"opening_classified","ply":4,"eco":"C44"}"#);
    assert!(opening_said(&ev).is_empty(), "{ev:?}");
    // Answered once: a second classification says nothing more.
    let ev = italian_asked(
        r#"{"t":9000,"input":"opening_classified","ply":5,"eco":"C50"}
{"t":9500,"input":"opening_classified","ply":5,"eco":"C50"}"#,
    );
    assert_eq!(opening_said(&ev).len(), 1);
    // Not asked at all: a classification alone says nothing.
    let ev = run(r#"{"t":100,"lift":"e2"}
{"t":200,"place":"e4"}
{"t":9000,"input":"opening_classified","ply":1,"eco":"B00"}"#);
    assert!(opening_said(&ev).is_empty(), "{ev:?}");
}

#[test]
fn a_malformed_classification_is_named_at_its_line() {
    for (line, why) in [
        (
            r#"{"t":9000,"input":"opening_classified","eco":"C50"}"#,
            "needs a `ply`",
        ),
        (
            r#"{"t":9000,"input":"opening_classified","ply":5,"eco":"Z50"}"#,
            "no ECO code",
        ),
        (r#"{"t":9000,"input":"opening","eco":"C50"}"#, "eco"),
        (
            r#"{"t":9000,"input":"opening_classified","ply":5,"eco":"B10","family":"caro_kann"}"#,
            "no family of openings",
        ),
    ] {
        let text = format!("{{\"t\":0,\"trace\":1,\"start\":\"startpos\"}}\n{line}\n");
        let e = pegboard::trace::read(text.as_bytes(), "asked.jsonl").expect_err(line);
        let said = e.to_string();
        assert!(said.starts_with("asked.jsonl:2:"), "{said}");
        assert!(said.contains(why), "{line}: {said}");
    }
}
