//! The spoken menu, through traces: a blind player sets up his next game
//! with the keys alone (the inputs are as the keypad makes them: a key
//! that is also a menu key carries its `menu` step), hears every item and
//! every choice, and the next game is played as he chose: against the
//! engine at 15+10, in his colour, in his language. A game under way
//! changes only when he asks for it. tests/engine.rs and the binary test
//! below do the same through `play` with real key presses and Stockfish.

mod common;

use common::{of, parse, run_with};
use pegboard::core::Settings;
use serde_json::Value;

const START: &str = r#"{"t":0,"trace":1,"start":"startpos"}"#;

/// The three menu keys as the example keypads have them: the first key's
/// short press repeats the last move, or in the menu goes to the next
/// item; the second says the times, or selects; the third is j'adoube, or
/// goes back. The second key held opens the menu.
fn key(t: u64, step: &str) -> String {
    match step {
        "menu" => format!(r#"{{"t":{t},"input":"menu"}}"#),
        "next" => format!(r#"{{"t":{t},"input":"repeat","menu":"next"}}"#),
        "select" => format!(r#"{{"t":{t},"input":"times","menu":"select"}}"#),
        "back" => format!(r#"{{"t":{t},"input":"adjust","menu":"back"}}"#),
        other => panic!("no key {other}"),
    }
}

/// The presses, one every 400 ms from `t`.
fn presses(t: u64, steps: &[&str]) -> String {
    steps
        .iter()
        .enumerate()
        .map(|(i, s)| key(t + 400 * i as u64, s))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The presses that choose the engine at step 2 and 15+10, from the
/// configuration's defaults (a person, no clock), and save them.
const ENGINE_15_10: &[&str] = &[
    "menu", "select", "next", "next", "select", // Opponent: engine, step 2
    "next", "select", "next", "next", "next", "next", "select", // Time: 15+10
    "back", "select", // said back, saved
];

fn menu_says(ev: &[Value]) -> Vec<&str> {
    of(ev, "menu")
        .iter()
        .filter_map(|e| e["say"].as_str())
        .collect()
}

#[test]
fn a_blind_player_sets_up_an_engine_game_at_15_plus_10_with_the_keys_alone() {
    let end = 1000 + 400 * ENGINE_15_10.len() as u64;
    let ev = run_with(
        &parse(&format!(
            "{START}\n{}\n\
             {{\"t\":{},\"lift\":\"e2\"}}\n{{\"t\":{},\"place\":\"e4\"}}\n\
             {{\"t\":{},\"input\":\"announced\",\"ply\":1}}\n\
             {{\"t\":{},\"input\":\"move\",\"uci\":\"c7c5\"}}",
            presses(1000, ENGINE_15_10),
            end + 1000,
            end + 1200,
            end + 1300,
            end + 3000,
        )),
        Settings::default(),
    );
    assert_eq!(
        menu_says(&ev),
        [
            "Menü. Gegner: Mensch am Brett.",
            "Mensch am Brett",
            "Maschine, Stufe 1, Anfänger",
            "Maschine, Stufe 2, etwa 1100",
            "Gewählt: Gegner, Maschine, Stufe 2, etwa 1100.",
            "Zeit: ohne Uhr.",
            "ohne Uhr",
            "eigene Zeit",
            "eine Stunde 30 Minuten plus 30 Sekunden pro Zug",
            "40 Züge in einer Stunde 30 Minuten, dann 30 Minuten plus 30 Sekunden pro Zug",
            "15 Minuten plus 10 Sekunden pro Zug",
            "Gewählt: Zeit, 15 Minuten plus 10 Sekunden pro Zug.",
            "Speichern? Gegner Maschine, Stufe 2, etwa 1100, Zeit 15 Minuten plus 10 Sekunden pro Zug. \
             Auswählen speichert, zurück verwirft.",
        ]
    );
    // While the menu was open, the keys were its steps only: no move was
    // repeated, no time said, no j'adoube.
    assert!(of(&ev, "say").is_empty(), "{:?}", of(&ev, "say"));
    let choices = of(&ev, "choices");
    assert_eq!(choices.len(), 1, "{choices:?}");
    let c = choices[0];
    assert_eq!(c["opponent"], "engine");
    assert_eq!(c["step"], 2);
    assert_eq!(c["time_control"], "900+10");
    assert_eq!(c["color"], "white");
    assert_eq!(c["now"], true, "no game was under way");
    assert_eq!(c["say"], "Gespeichert.");
    // The game begins again at once, with the engine as Black and the clock
    // at 15 minutes (the increment given before the first move, as the
    // hall's clocks do).
    let new_game = of(&ev, "new_game");
    assert_eq!(new_game.len(), 1);
    assert_eq!(new_game[0]["t"], c["t"]);
    let clocks = of(&ev, "clock");
    let started = clocks.first().expect("the new game's clock starts");
    assert_eq!(started["running"], "white");
    assert_eq!(started["white"]["remaining_ms"], 910_000);
    assert_eq!(started["black"]["remaining_ms"], 910_000);
    // The player's e4 and the engine's c5 (given as the engine's seat
    // gives it): the engine's move is said in the long form, to be made
    // on the pegged board.
    let moves = of(&ev, "move");
    assert_eq!(moves.len(), 2, "{moves:?}");
    assert_eq!(moves[1]["board"], "relay");
    assert_eq!(moves[1]["say"], "Bauer Cesar sieben nach Cesar fünf");
    let replicate = of(&ev, "replicate");
    assert_eq!(replicate.len(), 1);
    assert_eq!(replicate[0]["moves"][0], "c7c5");
}

#[test]
fn the_keys_are_their_own_again_once_the_menu_is_closed() {
    let ev = run_with(
        &parse(&format!(
            "{START}\n{}\n{}",
            presses(1000, &["menu", "next", "menu"]),
            presses(3000, &["select", "back"]),
        )),
        Settings::default(),
    );
    assert_eq!(
        menu_says(&ev),
        [
            "Menü. Gegner: Mensch am Brett.",
            "Zeit: ohne Uhr.",
            "Menü geschlossen."
        ]
    );
    // `times` and `adjust` as themselves: the times answered (no clock),
    // to the blind player alone.
    let said: Vec<&str> = of(&ev, "answer")
        .iter()
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(said, ["Keine Uhr eingestellt."]);
    assert!(of(&ev, "say").is_empty());
    assert!(of(&ev, "choices").is_empty());
}

/// 1. e4 e5 on the pegged board, both players on it.
const OPENING: &str = r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":1200,"input":"announced","ply":1}
{"t":2000,"lift":"e7"}
{"t":2100,"place":"e5"}
{"t":2200,"input":"announced","ply":2}"#;

/// Colour Black and the engine at full strength, chosen and saved.
const BLACK_AGAINST_ENGINE: &[&str] = &[
    "menu", "select", "next", "next", "next", "next", "next", "next", "next", "next", "select",
    "next", "next", "select", "next", "select", "back", "select",
];

#[test]
fn a_game_under_way_goes_on_and_the_next_one_starts_with_the_choices() {
    let after = 5000 + 400 * BLACK_AGAINST_ENGINE.len() as u64;
    let ev = run_with(
        &parse(&format!(
            "{START}\n{OPENING}\n{}\n{}\n\
             {{\"t\":{},\"lift\":\"g1\"}}\n{{\"t\":{},\"place\":\"f3\"}}\n\
             {{\"t\":{},\"input\":\"new_game\"}}\n{{\"t\":{},\"input\":\"new_game\"}}\n\
             {{\"t\":{},\"input\":\"move\",\"uci\":\"d2d4\"}}",
            presses(5000, BLACK_AGAINST_ENGINE),
            key(after, "back"),
            after + 1000,
            after + 1100,
            after + 3000,
            after + 3500,
            after + 5000,
        )),
        Settings::default(),
    );
    let says = menu_says(&ev);
    assert_eq!(
        says[10],
        "Gewählt: Gegner, Maschine, Stufe 8, volle Stärke."
    );
    assert_eq!(says[15], "Gewählt: Farbe, Schwarz.");
    assert_eq!(
        says[16],
        "Speichern? Gegner Maschine, Stufe 8, volle Stärke, Farbe Schwarz. Auswählen speichert, zurück verwirft."
    );
    let choices = of(&ev, "choices");
    assert_eq!(choices[0]["now"], false, "a game is under way");
    assert!(
        choices[0]["say"]
            .as_str()
            .is_some_and(|s| s.contains("Die Partie läuft noch")),
        "{}",
        choices[0]
    );
    assert_eq!(
        says.last().copied(),
        Some("Das gilt ab der nächsten Partie.")
    );
    // The game went on, both players on the board: 2. Nf3 was a move.
    let moves = of(&ev, "move");
    assert_eq!(moves[2]["san"], "Nf3");
    assert_eq!(moves[2]["board"], "blind");
    // The second new_game confirms; the next game has the engine as White:
    // its d4 is relayed and said in the long form.
    assert_eq!(of(&ev, "new_game").len(), 1);
    assert_eq!(moves.len(), 4, "{moves:?}");
    assert_eq!(moves[3]["san"], "d4");
    assert_eq!(moves[3]["board"], "relay");
    assert_eq!(moves[3]["say"], "Bauer David zwei nach David vier");
}

#[test]
fn a_game_under_way_begins_again_when_the_player_asks() {
    let ev = run_with(
        &parse(&format!(
            "{START}\n{OPENING}\n{}\n{}",
            presses(5000, BLACK_AGAINST_ENGINE),
            key(5000 + 400 * BLACK_AGAINST_ENGINE.len() as u64, "select"),
        )),
        Settings::default(),
    );
    assert_eq!(of(&ev, "choices")[0]["now"], false);
    let new_game = of(&ev, "new_game");
    assert_eq!(new_game.len(), 1, "the player asked for a new game now");
    // The new game's first ready: the start position again.
    let ready = of(&ev, "ready");
    assert_eq!(ready.len(), 2);
    assert!(
        ready[1]["fen"]
            .as_str()
            .is_some_and(|f| f.starts_with("rnbqkbnr/pppppppp"))
    );
}

#[test]
fn the_next_game_speaks_the_language_chosen() {
    // Language is the sixth item; its values start at the one in force
    // (fide): next is German, then English.
    let steps = [
        "menu", "next", "next", "next", "next", "next", "select", "next", "next", "select", "back",
        "select",
    ];
    let end = 1000 + 400 * steps.len() as u64;
    let ev = run_with(
        &parse(&format!(
            "{START}\n{}\n{{\"t\":{},\"lift\":\"g1\"}}\n{{\"t\":{},\"place\":\"f3\"}}",
            presses(1000, &steps),
            end + 1000,
            end + 1100,
        )),
        Settings::default(),
    );
    let says = menu_says(&ev);
    assert_eq!(says[5], "Sprache: FIDE.");
    assert_eq!(says[8], "Englisch");
    assert_eq!(of(&ev, "choices")[0]["language"], "en");
    let moves = of(&ev, "move");
    assert_eq!(moves[0]["say"], "Knight Felix three", "{moves:?}");
}

/// One short press of key `bit` at `t` (held 120 ms), as a trace's `keys`
/// lines give it.
fn tap(t: u64, bit: u32) -> String {
    format!(
        "{{\"t\":{t},\"keys\":{}}}\n{{\"t\":{},\"keys\":0}}\n",
        1 << bit,
        t + 120
    )
}

/// The three menu keys, as in config/serial-laptop.toml, on a trace's
/// `keys` bits.
const KEYS: &str = "[[buttons.key]]\nbit = 0\npress = \"repeat\"\nlong = \"position\"\n\
                    menu = \"next\"\n\
                    [[buttons.key]]\nbit = 1\npress = \"times\"\nlong = \"menu\"\n\
                    menu = \"select\"\n\
                    [[buttons.key]]\nbit = 2\npress = \"adjust\"\nlong = \"draw_offer\"\n\
                    menu = \"back\"\n";

/// `play` for `seconds`, silent, on the trace `trace` and the configuration
/// `config` (both written into `dir`): its events.
fn play(dir: &std::path::Path, name: &str, trace: &str, config: &str, seconds: &str) -> Vec<Value> {
    let trace_path = dir.join(format!("{name}.jsonl"));
    std::fs::write(&trace_path, trace).expect("trace");
    let config_path = dir.join(format!("{name}.toml"));
    std::fs::write(
        &config_path,
        format!(
            "{config}[sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"{}\"\n",
            trace_path.display()
        ),
    )
    .expect("config");
    common::play_events(&config_path.display().to_string(), seconds).1
}

#[test]
fn play_sets_up_an_engine_game_from_key_presses_keeps_the_choices_and_starts_from_them() {
    let dir = common::empty_dir("menu-play");
    let journal = dir.join("games");
    let config = format!(
        "{KEYS}[engine]\nmovetime_ms = 200\n[journal]\ndir = \"{}\"\n",
        journal.display()
    );
    // The second key held a second opens the menu; then the same presses
    // as above, each a short tap.
    let mut trace = String::from("{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n");
    trace.push_str("{\"t\":300,\"keys\":2}\n{\"t\":1300,\"keys\":0}\n");
    let mut t = 1600;
    for step in &ENGINE_15_10[1..] {
        let bit = match *step {
            "next" => 0,
            "select" => 1,
            "back" => 2,
            other => panic!("{other}"),
        };
        trace.push_str(&tap(t, bit));
        t += 300;
    }
    // The new game: the blind player plays 1. e4.
    trace.push_str(&format!(
        "{{\"t\":{},\"lift\":\"e2\"}}\n{{\"t\":{},\"place\":\"e4\"}}\n",
        t + 800,
        t + 1000
    ));
    let events = play(&dir, "first", &trace, &config, "9");
    let says = menu_says(&events);
    assert_eq!(says.len(), 13, "{says:?}");
    assert_eq!(says[0], "Menü. Gegner: Mensch am Brett.");
    assert_eq!(
        says[11],
        "Gewählt: Zeit, 15 Minuten plus 10 Sekunden pro Zug."
    );
    let choices = of(&events, "choices");
    assert_eq!(choices.len(), 1, "{events:?}");
    assert_eq!(choices[0]["now"], true);
    // The next game: e4 on the board, and Stockfish's reply (relayed, in
    // the long form) as Black.
    let moves = of(&events, "move");
    assert_eq!(moves.len(), 2, "{moves:?}");
    assert_eq!(moves[0]["san"], "e4");
    assert_eq!(moves[1]["board"], "relay");
    assert_eq!(moves[1]["color"], "black");
    assert!(
        moves[1]["say"]
            .as_str()
            .is_some_and(|s| s.contains(" nach "))
    );
    // Kept in the journal directory, not in the configuration.
    let kept = std::fs::read_to_string(journal.join("choices.toml")).expect("choices kept");
    for line in [
        "opponent = \"engine\"",
        "step = 2",
        "time_control = \"900+10\"",
        "color = \"white\"",
    ] {
        assert!(kept.contains(line), "{line} in {kept}");
    }
    // The second game's journal and scoresheet: the engine's seat and
    // strength, and 15+10.
    let header = std::fs::read_to_string(journal.join("game-0002.journal")).expect("game 2");
    let header = header
        .lines()
        .find(|l| l.contains("\"trace\""))
        .unwrap_or_default();
    assert!(header.contains("\"black_moves_on\":\"engine\""), "{header}");
    assert!(header.contains("900+10"), "{header}");
    let pgn = std::fs::read_to_string(journal.join("game-0002.pgn")).expect("game 2's PGN");
    assert!(
        pgn.contains("[Black \"stockfish (step 2, about 1100)\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("[TimeControl \"900+10\"]"), "{pgn}");

    // Started again with no game to take up: the new game starts from the
    // kept choices, whatever the configuration file says.
    for entry in std::fs::read_dir(&journal).expect("the journal directory") {
        let path = entry.expect("an entry").path();
        if path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("game-"))
        {
            std::fs::remove_file(&path).expect("a game's file removed");
        }
    }
    let trace = "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n\
                 {\"t\":500,\"lift\":\"d2\"}\n{\"t\":700,\"place\":\"d4\"}\n";
    let events = play(&dir, "again", trace, &config, "4");
    let clock = of(&events, "clock");
    assert_eq!(clock[0]["white"]["remaining_ms"], 910_000, "{clock:?}");
    let moves = of(&events, "move");
    assert_eq!(moves.len(), 2, "{moves:?}");
    assert_eq!(moves[1]["board"], "relay", "the engine answers d4");
    let _ = std::fs::remove_dir_all(&dir);
}
