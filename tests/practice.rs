//! Practice against the engine, through traces: the hint, the
//! evaluation, the takeback (the board guided back, the clocks as they
//! were), the draw offer the engine judges, and the review after the game
//! with its marks and `[%eval]` comments read back by python-chess. The
//! engine's answers are given as the `analysis` inputs pegboard journals
//! (tests/engine.rs gets them from the real Stockfish).

mod common;

use common::{of, parse, run_with, sans, says, with_clock};
use pegboard::core::Settings;
use serde_json::Value;

/// The blind player is White on the pegged board; Black is the engine.
const PRACTICE: &str = r#"{"t":0,"trace":1,"start":"startpos","black_moves_on":"engine"}"#;

/// How long a square's reading must hold (the default `debounce_ms`).
const DEBOUNCE: u64 = 20;

/// 1. e4 e5 made and replicated; White to move.
const OPENING: &str = r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":1200,"input":"announced","ply":1}
{"t":3000,"input":"move","uci":"e7e5"}
{"t":3100,"input":"announced","ply":2}
{"t":4000,"lift":"e7"}
{"t":4200,"place":"e5"}"#;

fn practice(lines: &str, settings: Settings) -> Vec<Value> {
    run_with(&parse(&format!("{PRACTICE}\n{OPENING}\n{lines}")), settings)
}

#[test]
fn a_hint_is_the_engines_best_move_said_when_its_analysis_comes() {
    let ev = practice(
        r#"{"t":5000,"input":"analysis","ply":2,"uci":"d2d4","cp":40,"depth":14}
{"t":6000,"input":"hint"}
{"t":6500,"input":"analysis","ply":2,"uci":"g1f3","cp":35,"depth":14}
{"t":7000,"input":"analysis","ply":2,"uci":"b1c3","cp":30,"depth":14}"#,
        Settings::default(),
    );
    // An analysis nobody asked for says nothing; the one after the
    // question is answered once: the piece alone, first.
    let hints = of(&ev, "hint");
    assert_eq!(hints.len(), 1, "{hints:?}");
    assert_eq!(hints[0]["t"], 6500);
    assert_eq!(hints[0]["san"], "Nf3");
    assert_eq!(hints[0]["uci"], "g1f3");
    assert_eq!(hints[0]["part"], "piece");
    assert_eq!(
        hints[0]["say"],
        "Tipp: Springer auf Gustav eins. Noch einmal: der ganze Zug."
    );
    // The game is unchanged.
    assert_eq!(sans(&ev), ["e4", "e5"]);
}

#[test]
fn a_second_hint_in_the_same_position_gives_the_whole_move_at_once() {
    let ev = practice(
        r#"{"t":6000,"input":"hint"}
{"t":6500,"input":"analysis","ply":2,"uci":"g1f3","cp":35,"depth":14}
{"t":9000,"input":"hint"}
{"t":12000,"input":"hint"}"#,
        Settings::default(),
    );
    let hints: Vec<(u64, &str, &str)> = of(&ev, "hint")
        .iter()
        .map(|h| {
            (
                h["t"].as_u64().unwrap_or(0),
                h["part"].as_str().unwrap_or(""),
                h["say"].as_str().unwrap_or(""),
            )
        })
        .collect();
    // The second and third come at once, from the judgement already
    // made: no second search.
    assert_eq!(
        hints,
        [
            (
                6500,
                "piece",
                "Tipp: Springer auf Gustav eins. Noch einmal: der ganze Zug."
            ),
            (9000, "move", "Tipp: Springer Felix drei."),
            (12000, "move", "Tipp: Springer Felix drei."),
        ]
    );
}

#[test]
fn a_hint_asked_while_the_engine_is_to_move_or_without_an_engine_is_declined() {
    let ev = run_with(
        &parse(&format!(
            "{PRACTICE}\n{}",
            r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":1200,"input":"announced","ply":1}
{"t":2000,"input":"hint"}
{"t":2500,"input":"analysis","ply":1,"uci":"e7e5","cp":30,"depth":14}"#
        )),
        Settings::default(),
    );
    assert!(of(&ev, "hint").is_empty());
    assert!(says(&ev).contains(&"Die Maschine ist am Zug."), "{ev:?}");
    let alone = common::run(
        r#"{"t":0,"trace":1,"start":"startpos"}
{"t":1000,"input":"hint"}
{"t":1100,"input":"evaluation"}
{"t":1200,"input":"practice_take_back"}
{"t":1300,"input":"review"}"#,
    );
    assert_eq!(
        says(&alone),
        ["Das geht nur in einer Partie gegen die Maschine."; 4]
    );
}

#[test]
fn the_spoken_menu_asks_the_practice_questions_for_a_keypad_without_their_keys() {
    // The example keypads have no key left for the practice questions:
    // in a game against the engine they are the menu's first item.
    let ev = practice(
        r#"{"t":5000,"input":"menu"}
{"t":5100,"input":"menu_select"}
{"t":5150,"input":"menu_next"}
{"t":5200,"input":"menu_next"}
{"t":5300,"input":"menu_select"}
{"t":5500,"input":"analysis","ply":2,"uci":"g1f3","cp":180,"depth":14}
{"t":6000,"input":"times","menu":"select"}
{"t":6100,"input":"menu_select"}
{"t":6200,"input":"menu"}
{"t":6300,"input":"times","menu":"select"}
{"t":6400,"input":"times","menu":"select"}"#,
        Settings::default(),
    );
    let menu: Vec<&str> = of(&ev, "menu")
        .iter()
        .filter_map(|m| m["say"].as_str())
        .collect();
    assert_eq!(
        menu,
        [
            "Menü. Übung: Tipp.",
            "Tipp",
            "Drohung",
            "wer steht besser",
            "Menü. Übung: Tipp.",
            "Tipp"
        ]
    );
    // Selected, the question is asked: who stands better, once the
    // engine has judged; then the hint, from that same judgement.
    let evaluations = of(&ev, "evaluation");
    assert_eq!(evaluations.len(), 1);
    assert_eq!(evaluations[0]["t"], 5500);
    assert_eq!(evaluations[0]["say"], "Weiß steht deutlich besser.");
    let hints = of(&ev, "hint");
    assert_eq!(hints.len(), 1, "{hints:?}");
    assert_eq!(hints[0]["t"], 6400);
    // Out of the menu, the select key at 6000 and 6100 was itself: the
    // times (no menu was open), then no step.
    assert!(of(&ev, "menu").iter().all(|m| m["t"] != 6000));
}

#[test]
fn the_threat_is_the_engines_best_move_were_it_to_move_when_it_takes_or_gives_check() {
    // 1. f3 e5 2. g4, the engine to move: it threatens mate.
    let before_mate: String = FOOLS_MATE.lines().take(10).collect::<Vec<_>>().join("\n");
    let ev = run_with(
        &parse(&format!(
            "{PRACTICE}\n{before_mate}\n{}",
            r#"{"t":6000,"input":"threat"}
{"t":6500,"input":"threat_analysis","ply":3,"uci":"d8h4","mate":-1,"depth":14}"#
        )),
        Settings::default(),
    );
    let threats = of(&ev, "threat");
    assert_eq!(threats.len(), 1, "{threats:?}");
    assert_eq!(threats[0]["t"], 6500);
    assert_eq!(threats[0]["san"], "Qh4#");
    assert_eq!(threats[0]["say"], "Drohung: Dame Hector vier, Schachmatt.");
    // After 1. e4 e5, White to move: the turn passed to the engine, its
    // best move there neither takes nor gives check. An answer nobody
    // asked for, or about another position, says nothing.
    let ev = practice(
        r#"{"t":4500,"input":"threat_analysis","ply":2,"uci":"d7d5","cp":-20,"depth":14}
{"t":5000,"input":"threat"}
{"t":5200,"input":"threat_analysis","ply":1,"uci":"d7d5","cp":-20,"depth":14}
{"t":5500,"input":"threat_analysis","ply":2,"uci":"g8f6","cp":-20,"depth":14}"#,
        Settings::default(),
    );
    let threats = of(&ev, "threat");
    assert_eq!(threats.len(), 1, "{threats:?}");
    assert_eq!(threats[0]["t"], 5500);
    assert!(threats[0].get("san").is_none());
    assert_eq!(threats[0]["say"], "Keine Drohung.");
    // In check, his king is what is threatened: said at once.
    let ev = run_with(
        &parse(&format!(
            "{PRACTICE}\n{}",
            r#"{"t":1000,"lift":"f2"}
{"t":1100,"place":"f3"}
{"t":1200,"input":"announced","ply":1}
{"t":3000,"input":"move","uci":"e7e5"}
{"t":3100,"input":"announced","ply":2}
{"t":4000,"lift":"e7"}
{"t":4200,"place":"e5"}
{"t":5000,"lift":"b1"}
{"t":5100,"place":"c3"}
{"t":5200,"input":"announced","ply":3}
{"t":7000,"input":"move","uci":"d8h4"}
{"t":7100,"input":"announced","ply":4}
{"t":8000,"input":"threat"}"#
        )),
        Settings::default(),
    );
    assert!(
        says(&ev).contains(&"Sie stehen im Schach."),
        "{:?}",
        says(&ev)
    );
    assert!(of(&ev, "threat").is_empty());
}

#[test]
fn the_evaluation_says_who_stands_better_in_words_not_centipawns() {
    let cases = [
        (r#""cp":12"#, "Die Stellung ist ausgeglichen."),
        (r#""cp":-45"#, "Schwarz steht etwas besser."),
        (r#""cp":180"#, "Weiß steht deutlich besser."),
        (r#""cp":-650"#, "Schwarz steht auf Gewinn."),
        (r#""mate":3"#, "Weiß setzt in 3 Zügen matt."),
        (r#""mate":-1"#, "Schwarz setzt im nächsten Zug matt."),
    ];
    for (score, said) in cases {
        let ev = practice(
            &format!(
                r#"{{"t":6000,"input":"evaluation"}}
{{"t":6500,"input":"analysis","ply":2,"uci":"g1f3",{score},"depth":14}}"#
            ),
            Settings::default(),
        );
        let evaluations = of(&ev, "evaluation");
        assert_eq!(evaluations.len(), 1, "{score}");
        assert_eq!(evaluations[0]["say"], said, "{score}");
        assert!(
            !said.chars().any(|c| c.is_ascii_digit()) || score.contains("mate"),
            "no centipawns are said"
        );
    }
}

#[test]
fn a_takeback_undoes_the_players_move_and_the_engines_reply_and_guides_the_board_back() {
    // 5+0. White's clock starts with the game; each side's stops when his
    // move is announced.
    let ev = practice(
        r#"{"t":10000,"lift":"g1"}
{"t":10200,"place":"f3"}
{"t":10300,"input":"announced","ply":3}
{"t":14000,"input":"move","uci":"b8c6"}
{"t":14100,"input":"announced","ply":4}
{"t":20000,"input":"practice_take_back"}
{"t":22000,"lift":"f3"}
{"t":22300,"place":"g1"}
{"t":25000,"lift":"d2"}
{"t":25200,"place":"d4"}"#,
        with_clock("300"),
    );
    // Nf3 and Nc6 are gone; d4 is played instead.
    assert_eq!(sans(&ev), ["e4", "e5", "Nf3", "Nc6", "d4"]);
    let retraced = of(&ev, "retraced");
    assert_eq!(retraced.len(), 1);
    assert_eq!(retraced[0]["ply"], 2);
    assert_eq!(
        of(&ev, "move").last().map(|m| (&m["ply"], &m["san"])),
        Some((&serde_json::json!(3), &serde_json::json!("d4")))
    );
    // The board is guided back: the knight from f3 to g1 (Nc6 was never
    // made on it), and the board is seen to show the game again.
    let replicate = of(&ev, "replicate")
        .into_iter()
        .find(|r| r["t"] == 20000)
        .expect("the board is guided back");
    assert_eq!(
        replicate["missing"],
        serde_json::json!([{"square":"g1","piece":"N"}])
    );
    assert_eq!(replicate["extra"], serde_json::json!(["f3"]));
    assert!(
        of(&ev, "replicated")
            .iter()
            .any(|r| r["t"] == 22300 + DEBOUNCE && r["ply"] == 2)
    );
    // The clocks show what they showed when Nf3 was made, White's running:
    // White's ran from 0 to 1200 and from 3100 to Nf3 (placed at 10200,
    // seen after the debounce); Black's, the engine's, from 1200 to its
    // move at 3000 (its time stops when its move comes, not when it is
    // said).
    let set = of(&ev, "clock")
        .into_iter()
        .find(|c| c["cause"] == "set")
        .expect("the clocks set back");
    assert_eq!(set["t"], 20000);
    assert_eq!(set["running"], "white");
    assert_eq!(
        set["white"]["remaining_ms"],
        300_000 - 1200 - (10200 + DEBOUNCE - 3100)
    );
    assert_eq!(set["black"]["remaining_ms"], 300_000 - (3000 - 1200));
    assert_eq!(set["white"]["moves"], 1);
    assert_eq!(set["black"]["moves"], 1);
}

#[test]
fn a_takeback_with_no_move_of_the_players_is_declined() {
    let ev = run_with(
        &parse(&format!(
            "{PRACTICE}\n{}",
            r#"{"t":1000,"input":"practice_take_back"}"#
        )),
        Settings::default(),
    );
    assert_eq!(says(&ev), ["Es gibt keinen Zug zurückzunehmen."]);
    assert!(of(&ev, "retraced").is_empty());
}

#[test]
fn art_9_1_the_engine_accepts_a_draw_offer_only_when_its_evaluation_says_so() {
    // White offers after his move; Black, the engine, is to move. From
    // Black's side a score of +120 for White is worse than half a pawn:
    // accepted. At −200 it stands better: declined.
    let offer = |score: &str| {
        practice(
            &format!(
                r#"{{"t":10000,"lift":"g1"}}
{{"t":10200,"place":"f3"}}
{{"t":10300,"input":"draw_offer","color":"white"}}
{{"t":10400,"input":"announced","ply":3}}
{{"t":12000,"input":"analysis","ply":3,"uci":"b8c6",{score},"depth":14}}"#
            ),
            Settings::default(),
        )
    };
    let accepted = offer(r#""cp":120"#);
    let over = of(&accepted, "game_over");
    assert_eq!(over.len(), 1);
    assert_eq!(over[0]["result"], "1/2-1/2");
    assert_eq!(over[0]["reason"], "agreement");
    let declined = offer(r#""cp":-200"#);
    assert!(of(&declined, "game_over").is_empty());
    assert!(says(&declined).contains(&"Die Maschine lehnt das Remis ab."));
}

/// 1. f3 e5 2. g4?? Qh4#: the player, White, blunders into mate.
const FOOLS_MATE: &str = r#"{"t":1000,"lift":"f2"}
{"t":1100,"place":"f3"}
{"t":1200,"input":"announced","ply":1}
{"t":3000,"input":"move","uci":"e7e5"}
{"t":3100,"input":"announced","ply":2}
{"t":4000,"lift":"e7"}
{"t":4200,"place":"e5"}
{"t":5000,"lift":"g2"}
{"t":5100,"place":"g4"}
{"t":5200,"input":"announced","ply":3}
{"t":7000,"input":"move","uci":"d8h4"}
{"t":7100,"input":"announced","ply":4}"#;

/// The engine's judgement of each position of the fool's mate but the
/// last (mate: no engine is asked about it).
const FOOLS_ANALYSIS: &str = r#"{"t":20000,"input":"analysis","ply":0,"uci":"e2e4","cp":25,"depth":14}
{"t":20100,"input":"analysis","ply":1,"uci":"e7e5","cp":-60,"depth":14}
{"t":20200,"input":"analysis","ply":2,"uci":"b1c3","cp":-70,"depth":14}
{"t":20300,"input":"analysis","ply":3,"uci":"d8h4","mate":-1,"depth":14}"#;

#[test]
fn the_review_says_each_serious_mistake_with_the_better_move() {
    let early = run_with(
        &parse(&format!(
            "{PRACTICE}\n{OPENING}\n{}",
            r#"{"t":9000,"input":"review"}"#
        )),
        Settings::default(),
    );
    assert_eq!(says(&early), ["Die Auswertung gibt es nach der Partie."]);
    let ev = run_with(
        &parse(&format!(
            "{PRACTICE}\n{FOOLS_MATE}\n{}\n{FOOLS_ANALYSIS}",
            r#"{"t":19000,"input":"review"}"#
        )),
        Settings::default(),
    );
    assert_eq!(of(&ev, "game_over")[0]["reason"], "checkmate");
    assert!(says(&ev).contains(&"Die Partie wird analysiert."));
    let review = of(&ev, "review");
    assert_eq!(review.len(), 1, "once, when every position is analysed");
    assert_eq!(review[0]["t"], 20300);
    // 1. f3 costs less than a fifth of White's chances: no mark. 2. g4
    // allows mate; Nc3 was better.
    assert_eq!(
        review[0]["say"],
        "Fehler 1 von 1. Zug 2: Bauer Gustav vier lässt Matt zu; besser war Springer Cesar drei."
    );
    assert_eq!(review[0]["mistakes"], 1);
    let moves = review[0]["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 4);
    assert_eq!(moves[0]["eval"], "-0.60");
    assert!(moves[0].get("mark").is_none());
    assert_eq!(moves[2]["mark"], "??");
    assert_eq!(moves[2]["better"], "Nc3");
    // The engine's own moves are not judged.
    assert!(moves[1].get("mark").is_none() && moves[3].get("mark").is_none());
}

/// The fool's mate judged so that both of White's moves are mistakes, with
/// the engine's main lines: 1. f3 gives away a piece's worth (e4 was
/// better: 1...e5 2. Nf3 Nc6), 2. g4 allows mate (Nc3 was better: 2...Nc6
/// 3. Nh3 d5 4. Nb5).
const FOOLS_LINES: &str = r#"{"t":20000,"input":"analysis","ply":0,"uci":"e2e4","cp":25,"depth":14,"line":"e2e4 e7e5 g1f3 b8c6"}
{"t":20100,"input":"analysis","ply":1,"uci":"e7e5","cp":-200,"depth":14,"line":"e7e5"}
{"t":20200,"input":"analysis","ply":2,"uci":"b1c3","cp":-210,"depth":14,"line":"b1c3 b8c6 g1h3 d7d5 c3b5"}
{"t":20300,"input":"analysis","ply":3,"uci":"d8h4","mate":-1,"depth":14,"line":"d8h4"}"#;

const FIRST_MISTAKE: &str = "Fehler 1 von 2. Zug 1: Bauer Felix drei verliert eine Figur; besser war Bauer Eva vier, dann Bauer Eva fünf, Springer Felix drei, Springer Cesar sechs.";
const SECOND_MISTAKE: &str = "Fehler 2 von 2. Zug 2: Bauer Gustav vier lässt Matt zu; besser war Springer Cesar drei, dann Springer Cesar sechs, Springer Hector drei, Bauer David fünf.";

/// What the player hears from the review, in order: the review's own
/// event, its steps, the evaluations and the notices.
fn heard(ev: &[Value], from: u64) -> Vec<(u64, String)> {
    ev.iter()
        .filter(|e| e["t"].as_u64().is_some_and(|t| t >= from))
        .filter(|e| {
            [
                "review",
                "review_step",
                "evaluation",
                "say",
                "answer",
                "menu",
                "new_game",
            ]
            .contains(&e["event"].as_str().unwrap_or(""))
        })
        .map(|e| {
            let text = e["say"].as_str().or(e["text"].as_str()).unwrap_or("");
            (e["t"].as_u64().unwrap_or(0), text.to_string())
        })
        .collect()
}

#[test]
fn the_review_is_stepped_through_a_mistake_at_a_time_with_the_menus_next_and_back_keys() {
    let ev = run_with(
        &parse(&format!(
            "{PRACTICE}\n{FOOLS_MATE}\n{}\n{FOOLS_LINES}\n{}",
            r#"{"t":19000,"input":"review"}"#,
            r#"{"t":21000,"input":"repeat","menu":"next"}
{"t":22000,"input":"menu_next"}
{"t":23000,"input":"adjust","menu":"back"}
{"t":23500,"input":"menu_back"}
{"t":24000,"input":"evaluation"}
{"t":25000,"input":"evaluation","ply":3}
{"t":25500,"input":"evaluation","ply":2}
{"t":26000,"input":"review"}
{"t":27000,"input":"menu"}
{"t":28000,"input":"repeat","menu":"next"}
{"t":29000,"input":"menu"}"#
        )),
        Settings::default(),
    );
    let heard = heard(&ev, 19000);
    let expected: Vec<(u64, String)> = [
        (19000, "Die Partie wird analysiert."),
        // Once every position is judged: the first mistake.
        (20300, FIRST_MISTAKE),
        (21000, SECOND_MISTAKE),
        (22000, "Keine Fehler mehr."),
        (23000, FIRST_MISTAKE),
        // Back at the first stays at the first.
        (23500, FIRST_MISTAKE),
        // The evaluation after the mistake, and after any move.
        (24000, "Nach Zug 1 von Weiß: Schwarz steht deutlich besser."),
        (
            25000,
            "Nach Zug 2 von Weiß: Schwarz setzt im nächsten Zug matt.",
        ),
        (
            25500,
            "Nach Zug 1 von Schwarz: Schwarz steht deutlich besser.",
        ),
        // Asked again: the mistake he is at, again.
        (26000, FIRST_MISTAKE),
        // The menu key leaves the review; the keys are their own again
        // (the repeat key repeats the last move), and the menu opens.
        (27000, "Auswertung beendet."),
        (28000, "2. Schwarz: Dame Hector vier, Schachmatt"),
        (29000, "Menü. Übung: Tipp."),
    ]
    .iter()
    .map(|(t, s)| (*t, s.to_string()))
    .collect();
    let heard: Vec<(u64, String)> = heard
        .into_iter()
        .filter(|(_, text)| !text.is_empty())
        .collect();
    assert_eq!(heard, expected);
    let steps = of(&ev, "review_step");
    assert_eq!(steps[0]["index"], 2);
    assert_eq!(steps[0]["mistakes"], 2);
    assert_eq!(steps[0]["ply"], 3);
    assert_eq!(steps[0]["san"], "g4");
    assert_eq!(steps[0]["mark"], "??");
    assert_eq!(steps[0]["better"], "Nc3");
    assert_eq!(
        steps[0]["line"],
        serde_json::json!(["Nc6", "Nh3", "d5", "Nb5"])
    );
    let evaluations = of(&ev, "evaluation");
    assert_eq!(evaluations[0]["ply"], 1);
    assert_eq!(evaluations[0]["cp"], -200);
    assert_eq!(evaluations[1]["mate"], -1);
    // Out of the review, the repeat key repeats: no step.
    assert!(steps.iter().all(|s| s["t"] != 28000));
}

/// The fool's mate, its review asked and judged (at 20000 to 20300),
/// with `before` the judgement and `after` it.
fn fools_judged(before: &str, after: &str) -> Vec<Value> {
    run_with(
        &parse(&format!(
            "{PRACTICE}\n{FOOLS_MATE}\n{before}\n{FOOLS_LINES}\n{after}"
        )),
        Settings::default(),
    )
}

#[test]
fn a_review_judged_while_the_menu_is_open_begins_when_it_closes_not_over_it() {
    let ev = fools_judged(
        r#"{"t":19000,"input":"review"}
{"t":19500,"input":"menu"}
{"t":19800,"input":"menu_next"}"#,
        r#"{"t":21000,"input":"menu_back"}
{"t":22000,"input":"repeat","menu":"next"}"#,
    );
    let said: Vec<(u64, String)> = heard(&ev, 19000)
        .into_iter()
        .filter(|(_, text)| !text.is_empty())
        .collect();
    let expected: Vec<(u64, String)> = [
        (19000, "Die Partie wird analysiert."),
        (19500, "Menü. Übung: Tipp."),
        (19800, "Gegner: Maschine, Stufe 2, etwa 1100."),
        // Judged whole at 20300, the menu open: nothing said then. The
        // menu closed (back from its items): the review.
        (21000, "Menü geschlossen."),
        (21000, FIRST_MISTAKE),
        // In the review: the next key steps.
        (22000, SECOND_MISTAKE),
    ]
    .iter()
    .map(|(t, s)| (*t, s.to_string()))
    .collect();
    assert_eq!(said, expected);
    assert_eq!(of(&ev, "review").len(), 1);
    // Closed by asking for the review itself: said once.
    let ev = fools_judged(
        r#"{"t":19000,"input":"review"}
{"t":19500,"input":"menu"}
{"t":19600,"input":"menu_select"}
{"t":19700,"input":"menu_next"}
{"t":19800,"input":"menu_next"}
{"t":19900,"input":"menu_next"}
{"t":19950,"input":"menu_next"}"#,
        r#"{"t":21000,"input":"menu_select"}"#,
    );
    let reviews = of(&ev, "review");
    assert_eq!(reviews.len(), 1, "{ev:?}");
    assert_eq!(reviews[0]["t"], 21000);
    assert_eq!(reviews[0]["say"], FIRST_MISTAKE);
    // Closed by a new game: the review is the next game's to ask for,
    // not said over its beginning.
    let ev = fools_judged(
        r#"{"t":19000,"input":"review"}
{"t":19500,"input":"menu"}
{"t":19600,"input":"menu_next"}
{"t":19700,"input":"menu_select"}
{"t":19800,"input":"menu_next"}
{"t":19900,"input":"menu_select"}"#,
        r#"{"t":21000,"input":"menu_back"}
{"t":21500,"input":"menu_select"}"#,
    );
    let said = heard(&ev, 19000);
    assert!(of(&ev, "new_game").len() == 1, "{said:?}");
    assert!(of(&ev, "review").is_empty(), "{said:?}");
}

#[test]
fn the_review_is_kept_when_the_pieces_are_set_up_again_and_a_mistakes_position_is_played_from() {
    // The game is over and the engine has judged it; the player asks for
    // a new game (the pieces set up again) before asking for the review.
    let ev = run_with(
        &parse(&format!(
            "{PRACTICE}\n{FOOLS_MATE}\n{}\n{FOOLS_LINES}\n{}",
            r#"{"t":19000,"input":"review"}
{"t":19500,"input":"menu"}"#,
            r#"{"t":21000,"input":"new_game"}
{"t":30000,"input":"review"}
{"t":31000,"input":"menu_next"}
{"t":32000,"input":"menu_select"}
{"t":34000,"lift":"g4"}
{"t":34500,"place":"g2"}
{"t":38000,"lift":"b1"}
{"t":38500,"place":"c3"}
{"t":38600,"input":"announced","ply":1}
{"t":40000,"input":"resign","color":"white"}
{"t":41000,"input":"new_game"}"#
        )),
        Settings::default(),
    );
    // The review of the game before, asked in the new one before its
    // first move: at once, from what the engine judged.
    let review = of(&ev, "review")
        .into_iter()
        .find(|r| r["t"] == 30000)
        .expect("the review in the new game");
    assert_eq!(review["past"], true);
    assert_eq!(review["say"], FIRST_MISTAKE);
    assert_eq!(review["mistakes"], 2);
    let heard = heard(&ev, 31000);
    assert_eq!(heard[0], (31000, SECOND_MISTAKE.to_string()));
    assert_eq!(heard[1], (32000, "Die Stellung von Zug 2.".to_string()));
    // The next game begins from the position 2. g4 was played in, with
    // White (the player) to move, against the engine again.
    let readies = of(&ev, "ready");
    let set_up = readies
        .iter()
        .find(|r| r["t"] == 32000)
        .expect("the mistake's game");
    assert_eq!(
        set_up["fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2"
    );
    assert!(
        set_up["say"]
            .as_str()
            .is_some_and(|s| s.starts_with("Maschine, Stufe 2")),
        "{set_up}"
    );
    // The board (which never showed the mate: the engine's last move
    // was not made on it) is told what differs: the pawn on g4 goes back
    // to g2. Once it shows the position, he plays the better move there.
    let diverged = of(&ev, "diverged");
    let told = diverged
        .iter()
        .find(|d| d["t"].as_u64() > Some(32000))
        .expect("the differences said");
    assert_eq!(
        told["missing"],
        serde_json::json!([{"square":"g2","piece":"P"}])
    );
    assert_eq!(told["extra"], serde_json::json!(["g4"]));
    assert!(
        of(&ev, "replicated")
            .iter()
            .any(|r| r["t"] == 34500 + DEBOUNCE),
        "the board shows the position"
    );
    let moves = of(&ev, "move");
    let nc3 = moves.last().expect("a move");
    assert_eq!(
        (nc3["san"].as_str(), nc3["t"].as_u64()),
        (Some("Nc3"), Some(38500 + DEBOUNCE))
    );
    // The game after it begins from the start again.
    let after = readies.last().expect("ready");
    assert_eq!(after["t"], 41000);
    assert_eq!(
        after["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}

#[test]
fn a_mistakes_game_replayed_from_its_own_journal_is_guided_and_played_as_it_was() {
    // The journal of the game a review set up: its header names the start
    // the game after it begins from (`after`), and the board's first
    // reading (the pawn still on g4) follows it at the same instant. The
    // replay guides the board as play did: g4 is no move.
    let start = "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2";
    let shown: u64 = {
        // The position after 1. f3 e5 2. g4: what the board still shows.
        let mut occ: u64 = 0;
        for sq in [
            "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "h2",
            "f3", "g4", "e5", "a7", "b7", "c7", "d7", "f7", "g7", "h7", "a8", "b8", "c8", "d8",
            "e8", "f8", "g8", "h8",
        ] {
            let b = sq.as_bytes();
            occ |= 1 << ((b[1] - b'1') * 8 + (b[0] - b'a'));
        }
        occ
    };
    let ev = run_with(
        &parse(&format!(
            r#"{{"t":32000,"trace":1,"start":"{start}","black_moves_on":"engine","after":"startpos"}}
{{"t":32000,"occ":"{shown:016x}"}}
{{"t":34000,"lift":"g4"}}
{{"t":34500,"place":"g2"}}
{{"t":38000,"lift":"b1"}}
{{"t":38500,"place":"c3"}}
{{"t":38600,"input":"announced","ply":1}}
{{"t":40000,"input":"resign","color":"white"}}
{{"t":41000,"input":"new_game"}}"#
        )),
        Settings::default(),
    );
    let told = of(&ev, "diverged");
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(
        told[0]["missing"],
        serde_json::json!([{"square":"g2","piece":"P"}])
    );
    assert_eq!(told[0]["extra"], serde_json::json!(["g4"]));
    assert_eq!(sans(&ev), ["Nc3"]);
    let readies = of(&ev, "ready");
    assert_eq!(
        readies.last().map(|r| r["fen"].clone()),
        Some(serde_json::json!(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        )),
        "the game after it begins from `after`"
    );
}

#[test]
fn the_review_of_the_game_before_waits_for_the_persons_first_move_not_the_engines() {
    // The person plays Black and mates (1. f3 e5 2. g4 Qh4#); in the
    // next game the engine, White, moves first: the review of the game
    // before is still his to ask for.
    let ev = run_with(
        &parse(
            r#"{"t":0,"trace":1,"start":"startpos","white_moves_on":"engine"}
{"t":1000,"input":"move","uci":"f2f3"}
{"t":1100,"input":"announced","ply":1}
{"t":1500,"lift":"f2"}
{"t":1600,"place":"f3"}
{"t":3000,"lift":"e7"}
{"t":3100,"place":"e5"}
{"t":3200,"input":"announced","ply":2}
{"t":4000,"input":"move","uci":"g2g4"}
{"t":4100,"input":"announced","ply":3}
{"t":4500,"lift":"g2"}
{"t":4600,"place":"g4"}
{"t":6000,"lift":"d8"}
{"t":6100,"place":"h4"}
{"t":6200,"input":"announced","ply":4}
{"t":8000,"input":"new_game"}
{"t":9000,"input":"move","uci":"e2e4"}
{"t":9100,"input":"announced","ply":1}
{"t":10000,"input":"review"}
{"t":10100,"input":"review_analysis","ply":0,"uci":"e2e4","cp":25,"depth":14}
{"t":10200,"input":"review_analysis","ply":1,"uci":"e7e6","cp":-50,"depth":14,"line":"e7e6"}
{"t":10300,"input":"review_analysis","ply":2,"uci":"d2d4","cp":300,"depth":14}
{"t":10400,"input":"review_analysis","ply":3,"uci":"d8h4","mate":-1,"depth":14}"#,
        ),
        Settings::default(),
    );
    let review = of(&ev, "review");
    assert_eq!(review.len(), 1, "{:?}", says(&ev));
    assert_eq!(review[0]["t"], 10400);
    assert_eq!(review[0]["past"], true);
    assert_eq!(
        review[0]["say"],
        "Fehler 1 von 1. Zug 1: Bauer Eva fünf verliert eine Figur; besser war Bauer Eva sechs."
    );
}

#[test]
fn the_review_of_the_game_before_is_judged_in_the_new_game_and_gone_at_its_first_move() {
    // No review was asked before the pieces were set up again: the
    // engine judges the game before in the new one (`review_analysis`).
    let ev = run_with(
        &parse(&format!(
            "{PRACTICE}\n{FOOLS_MATE}\n{}",
            r#"{"t":19000,"input":"new_game"}
{"t":20000,"input":"review"}
{"t":20100,"input":"analysis","ply":0,"uci":"d2d4","cp":0,"depth":14}
{"t":20200,"input":"review_analysis","ply":0,"uci":"e2e4","cp":25,"depth":14,"line":"e2e4 e7e5 g1f3 b8c6"}
{"t":20300,"input":"review_analysis","ply":1,"uci":"e7e5","cp":-200,"depth":14,"line":"e7e5"}
{"t":20400,"input":"review_analysis","ply":2,"uci":"b1c3","cp":-210,"depth":14,"line":"b1c3 b8c6 g1h3 d7d5 c3b5"}
{"t":20500,"input":"review_analysis","ply":3,"uci":"d8h4","mate":-1,"depth":14}
{"t":21000,"input":"menu"}
{"t":30000,"lift":"f3"}
{"t":30200,"place":"f2"}
{"t":30400,"lift":"g4"}
{"t":30600,"place":"g2"}
{"t":30800,"lift":"e5"}
{"t":31000,"place":"e7"}
{"t":31200,"lift":"h4"}
{"t":31400,"place":"d8"}
{"t":40000,"lift":"e2"}
{"t":40100,"place":"e4"}
{"t":40200,"input":"announced","ply":1}
{"t":41000,"input":"review"}"#
        )),
        Settings::default(),
    );
    let heard: Vec<(u64, String)> = heard(&ev, 20000)
        .into_iter()
        .filter(|(_, s)| !s.is_empty())
        .collect();
    assert_eq!(
        heard[..3],
        [
            (20000, "Die Partie wird analysiert.".to_string()),
            // The new game's own analysis does not count for the old.
            (20500, FIRST_MISTAKE.to_string()),
            (21000, "Auswertung beendet.".to_string()),
        ]
    );
    // Once the new game has a move, its review comes after it.
    assert!(
        heard.contains(&(41000, "Die Auswertung gibt es nach der Partie.".to_string())),
        "{heard:?}"
    );
}

#[test]
fn the_reviewed_scoresheet_carries_evals_marks_and_the_better_move_for_python_chess() {
    let entries = parse(&format!(
        "{PRACTICE}\n{FOOLS_MATE}\n{}\n{FOOLS_ANALYSIS}",
        r#"{"t":19000,"input":"review"}"#
    ));
    let pgn = common::scoresheet_of(&common::replayed(&entries, Settings::default()));
    // python-chess: each mainline move's SAN, NAGs, eval (White's side,
    // centipawns or mate) and first variation.
    let script = r#"
import io, json, sys
import chess.pgn
g = chess.pgn.read_game(io.StringIO(sys.stdin.read()))
assert not g.errors, g.errors
out = []
for node in g.mainline():
    e = node.eval()
    w = None if e is None else e.white()
    out.append({
        "san": node.san(),
        "nags": sorted(node.nags),
        "cp": None if w is None or w.is_mate() else w.score(),
        "mate": None if w is None or not w.is_mate() else w.mate(),
        "better": [v.san() for v in node.parent.variations[1:]],
    })
print(json.dumps(out))
"#;
    let out = common::piped("python3", &["-c", script], &pgn);
    assert!(
        out.status.success(),
        "python-chess: {}\n{pgn}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read: Vec<Value> = serde_json::from_slice(&out.stdout).expect("json");
    let sans: Vec<&str> = read.iter().filter_map(|m| m["san"].as_str()).collect();
    assert_eq!(sans, ["f3", "e5", "g4", "Qh4#"], "{pgn}");
    // $4 is PGN's "??" (a blunder).
    assert_eq!(read[2]["nags"], serde_json::json!([4]), "{pgn}");
    assert_eq!(read[0]["nags"], serde_json::json!([]));
    assert_eq!(read[0]["cp"], -60);
    assert_eq!(read[2]["mate"], -1);
    assert_eq!(read[2]["better"], serde_json::json!(["Nc3"]), "{pgn}");
    // The mate on the board needs no score.
    assert_eq!(read[3]["mate"], Value::Null, "{pgn}");
}

#[test]
fn the_engines_time_stops_when_its_move_is_made_and_its_flag_waits_for_the_voices() {
    // Black, the engine, has 5 s. Its move comes 4.9 s into its time and
    // is said 3 s later (the voices were busy): its time stopped at the
    // move, and no flag fell while the move waited to be said.
    let ev = practice_at(
        "5",
        &format!(
            "{E4_THEN_E5}\n{}",
            r#"{"t":9100,"input":"announced","ply":2}"#
        ),
    );
    // (White's own flag falls at the end of the trace, 3.8 s later.)
    let flags = of(&ev, "flag");
    assert!(flags.iter().all(|f| f["color"] == "white"), "{flags:?}");
    assert!(
        of(&ev, "game_over")
            .iter()
            .all(|g| g["t"].as_u64() > Some(12_000))
    );
    let press = of(&ev, "clock")
        .into_iter()
        .find(|c| c["t"] == 9100)
        .expect("the press for Black's move");
    assert_eq!(press["black"]["remaining_ms"], 100, "{press}");
    // White's time runs from the announcement: he could not know the
    // move before.
    assert_eq!(press["running"], "white");
    assert_eq!(press["white"]["remaining_ms"], 5000 - 1200);
}

#[test]
fn the_engines_clock_is_pressed_for_it_even_when_pegboard_presses_only_for_the_player() {
    let mut settings = with_clock("300");
    settings.clock.controller_presses = pegboard::core::Players::Player;
    let ev = run_with(
        &parse(&format!(
            "{PRACTICE}\n{E4_THEN_E5}\n{}",
            r#"{"t":6200,"input":"announced","ply":2}"#
        )),
        settings,
    );
    let presses: Vec<(u64, &str)> = of(&ev, "clock")
        .iter()
        .filter(|c| c["cause"] == "press")
        .map(|c| {
            (
                c["t"].as_u64().unwrap_or(0),
                c["running"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(presses, [(1200, "black"), (6200, "white")], "{ev:?}");
}

#[test]
fn the_engines_flag_waits_for_its_move_to_be_said_but_not_for_ever() {
    // The engine's move comes at 4.9 s of its 5 and is never said (no
    // voice works): its flag falls 30 s later, the clocks do not stand
    // still for good.
    let ev = practice_at("5", E4_THEN_E5);
    let flags = of(&ev, "flag");
    assert_eq!(flags.len(), 1, "{ev:?}");
    assert_eq!(
        (&flags[0]["color"], &flags[0]["t"]),
        (&"black".into(), &36_100.into())
    );
}

/// 1. e4, said at 1.2 s, and the engine's 1... e5 at 6.1 s.
const E4_THEN_E5: &str = r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":1200,"input":"announced","ply":1}
{"t":6100,"input":"move","uci":"e7e5"}"#;

/// The practice trace alone (no opening) on the clock `control`.
fn practice_at(control: &str, lines: &str) -> Vec<Value> {
    run_with(&parse(&format!("{PRACTICE}\n{lines}")), with_clock(control))
}
