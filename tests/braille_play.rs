//! The Braille display in `pegboard play`, held against a real brltty
//! (Debian's, its Virtual driver played by the test as the display) and
//! liblouis's own `lou_translate`: a whole game shown move by move, the
//! display's keys asking the game (the times, a move again by its routing
//! key, the board rank by rank, the spoken menu), a display lost said once
//! and followed again, and Braille alone.

#[path = "support/brltty.rs"]
mod brltty;
mod common;

use std::time::Duration;

use brltty::{Brltty, Play, line_dots, lou_dots, opera_trace, play_config};
use shakmaty::{Chess, Position};

/// The text table of English at grade 2 (the default), and the moves'.
const TEXT: &str = "en-ueb-g2.ctb";
const MOVES: &str = "en-ueb-g1.ctb";
const CELLS: usize = 40;

fn number(n: u16) -> u16 {
    240 + (std::process::id() % 50) as u16 * 4 + n
}

fn dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "pegboard-braille-play-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a directory");
    dir
}

/// The game's line after `ply` of `sans`: "N. san" (or "N... san") and
/// who is to move, or how the game `ended`.
fn status(sans: &[String], ply: usize, ended: Option<&str>) -> Vec<String> {
    let number = ply.div_ceil(2);
    let dots = if ply % 2 == 1 { "." } else { "..." };
    let to_move = if ply % 2 == 1 { "Black" } else { "White" };
    let words = ended.map_or_else(|| format!("{to_move} to move"), str::to_string);
    line_dots(
        &[
            (MOVES, &format!("{number}{dots} {}", sans[ply - 1])),
            (TEXT, &words),
        ],
        CELLS,
    )
}

fn is_event(v: &serde_json::Value, name: &str) -> bool {
    v["event"] == name
}

/// The text an event says (an answer's `text`, another's `say`).
fn said(v: &serde_json::Value) -> String {
    v["text"]
        .as_str()
        .or_else(|| v["say"].as_str())
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_whole_game_is_shown_move_by_move_and_the_display_s_keys_ask_the_game() {
    let dir = dir("game");
    let mut brltty = Brltty::start("game", number(0), CELLS);
    let (trace, sans) = opera_trace(&dir, 7, usize::MAX);
    let config = play_config(&dir, &trace, &brltty.host, "");
    let play = Play::start(&[], &config);
    let mut seen = Vec::new();
    // Every move: announced, and its line on the display, in the reader's
    // Braille as liblouis writes it.
    // The moves as shakmaty writes them, with their check and mate signs.
    let mut pos = Chess::default();
    let written: Vec<String> = sans
        .iter()
        .map(|san| {
            let m = san
                .parse::<shakmaty::san::San>()
                .expect("san")
                .to_move(&pos)
                .expect("legal");
            shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string()
        })
        .collect();
    let lines: Vec<Vec<String>> = (1..sans.len())
        .map(|ply| status(&written, ply, None))
        .collect();
    // Each move's line, or a later one: brltty sends the display only the
    // cells it has when it next writes, so two moves pegboard shows in the
    // same instant (a machine that held the game back a moment) reach it as
    // the second.
    let mut shown_up_to = 0;
    for ply in 1..=sans.len() {
        let (_, moved) = play.event_until(Duration::from_secs(30), &mut seen, |v| {
            is_event(v, "move") && v["ply"] == ply
        });
        assert_eq!(moved["san"], written[ply - 1], "ply {ply}");
        if ply < sans.len() && shown_up_to < ply {
            let shown = brltty.shown_until(Duration::from_secs(10), |c| {
                lines[ply - 1..].iter().any(|l| c == l.as_slice())
            });
            shown_up_to = 1 + lines
                .iter()
                .position(|l| *l == shown)
                .expect("one of the lines");
        }
    }
    // The last move, mate, with the end of the game in place of who is to
    // move.
    let (_, over) = play.event_until(Duration::from_secs(10), &mut seen, |v| {
        is_event(v, "game_over")
    });
    let last = status(&written, sans.len(), Some(&said(&over)));
    brltty.shown_until(Duration::from_secs(10), |c| c == last.as_slice());

    // The times, asked with t on the display's Braille keyboard: the
    // answer the voices give is on the display.
    brltty.press("passchar 116");
    let (_, times) = play.event_until(Duration::from_secs(10), &mut seen, |v| {
        is_event(v, "answer")
    });
    let wanted = line_dots(&[(TEXT, &said(&times))], CELLS);
    brltty.shown_until(Duration::from_secs(10), |c| c == wanted.as_slice());

    // Home, then the routing key over the last move (a cell into "Rd8#",
    // past "17." and the blank): that move again.
    brltty.press("home");
    brltty.shown_until(Duration::from_secs(10), |c| c == last.as_slice());
    let over_the_move = lou_dots(MOVES, "17.").len() + 2;
    brltty.press(&format!("route {over_the_move}"));
    let (_, again) = play.event_until(Duration::from_secs(10), &mut seen, |v| {
        is_event(v, "answer")
    });
    assert!(
        said(&again).contains("17"),
        "the last move again: {}",
        said(&again)
    );
    let wanted = line_dots(&[(TEXT, &said(&again))], CELLS);
    brltty.shown_until(Duration::from_secs(10), |c| c == wanted.as_slice());

    // The board with b, rank by rank from the eighth: the position
    // shakmaty reaches, each square its piece's letter or a hyphen.
    let rank = |r: shakmaty::Rank| -> String {
        let squares: String = shakmaty::File::ALL
            .iter()
            .map(|&f| {
                pos.board()
                    .piece_at(shakmaty::Square::from_coords(f, r))
                    .map_or('-', |p| p.char())
            })
            .collect();
        format!("{} {squares}", r.char())
    };
    brltty.press("passchar 98");
    let wanted = line_dots(&[(MOVES, &rank(shakmaty::Rank::Eighth))], CELLS);
    brltty.shown_until(Duration::from_secs(10), |c| c == wanted.as_slice());
    brltty.press("lndn");
    let wanted = line_dots(&[(MOVES, &rank(shakmaty::Rank::Seventh))], CELLS);
    brltty.shown_until(Duration::from_secs(10), |c| c == wanted.as_slice());

    // The spoken menu opened with escape: its first words on the display.
    brltty.press("key_escape");
    let (_, menu) = play.event_until(Duration::from_secs(10), &mut seen, |v| is_event(v, "menu"));
    let wanted = line_dots(&[(TEXT, &said(&menu))], CELLS);
    brltty.shown_until(Duration::from_secs(10), |c| c == wanted.as_slice());

    // The display's keys are journaled as any key is: the routing key is
    // the move's ply.
    let journal: String = std::fs::read_dir(dir.join("journal"))
        .expect("the journal directory")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "journal"))
        .map(|e| std::fs::read_to_string(e.path()).expect("a journal"))
        .collect();
    assert!(
        journal.contains(&format!(r#""input":"repeat","ply":{}"#, sans.len())),
        "{journal}"
    );
    drop(play);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_display_lost_is_said_once_and_followed_again_and_braille_alone_announces() {
    let dir = dir("lost");
    let host = format!("127.0.0.1:{}", number(1));
    // Nf3 at 0.7 s, then nothing.
    let trace = common::nf3_trace(&dir);
    // Braille alone: the voices are silent, the display announces.
    let config = play_config(&dir, &trace, &host, "speech = false\n");
    let play = Play::start(&[], &config);
    let mut seen = Vec::new();
    // No brltty yet: said once.
    let (_, lost) = play.event_until(Duration::from_secs(10), &mut seen, |v| {
        said(v).contains("Braille display disconnected")
    });
    assert_eq!(lost["event"], "braille_lost");
    // The move is announced all the same (the clock runs on it).
    play.event_until(Duration::from_secs(10), &mut seen, |v| {
        is_event(v, "announced") && v["ply"] == 1
    });
    // brltty comes: the display is followed again, and shows the game.
    let mut brltty = Brltty::start("lost", number(1), CELLS);
    play.event_until(Duration::from_secs(20), &mut seen, |v| {
        said(v).contains("Braille display connected again")
    });
    let wanted = line_dots(&[(MOVES, "1. Nf3"), (TEXT, "Black to move")], CELLS);
    brltty.shown_until(Duration::from_secs(10), |c| c == wanted.as_slice());
    // The display unplugged while brltty goes on (brltty's word that it is
    // offline): said, and when it is plugged in again, said and shown the
    // game again.
    brltty.unplug();
    play.event_until(Duration::from_secs(10), &mut seen, |v| {
        said(v).contains("Braille display disconnected")
    });
    brltty.plug();
    play.event_until(Duration::from_secs(20), &mut seen, |v| {
        said(v).contains("Braille display connected again")
    });
    brltty.shown_until(Duration::from_secs(10), |c| c == wanted.as_slice());
    // brltty stopped: said once more, and only once however long it stays
    // away (the display is tried again meanwhile).
    brltty.stop();
    play.event_until(Duration::from_secs(10), &mut seen, |v| {
        said(v).contains("Braille display disconnected")
    });
    std::thread::sleep(Duration::from_secs(8));
    while let Ok((_, line)) = play.lines.try_recv() {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) {
            seen.push((std::time::Instant::now(), v));
        }
    }
    let told = seen
        .iter()
        .filter(|(_, v)| said(v).contains("Braille display disconnected"))
        .count();
    let sequence: Vec<String> = seen
        .iter()
        .filter(|(_, v)| {
            v["event"]
                .as_str()
                .is_some_and(|e| e.starts_with("braille"))
        })
        .map(|(_, v)| format!("{} at {}", v["event"], v["t"]))
        .collect();
    assert_eq!(
        told, 3,
        "{sequence:?}: once at the start, once unplugged, once when brltty stopped"
    );
    drop(play);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn liblouis_writes_the_moves_and_the_words_apart() {
    // What the tests above hold the display to: the moves uncontracted
    // with capitals marked, the words contracted.
    assert_eq!(lou_dots(MOVES, "Nf3").len(), 5);
    assert_eq!(lou_dots(TEXT, "the").len(), 1);
    assert_eq!(lou_dots(MOVES, "the").len(), 3);
}

#[test]
fn check_config_says_when_brltty_cannot_be_reached_and_braille_alone_needs_no_voice() {
    let dir = dir("check");
    let check = |name: &str, text: &str| {
        let file = dir.join(name);
        std::fs::write(&file, text).expect("config");
        let out = brltty::pegboard(&file)
            .arg("check-config")
            .arg(&file)
            .output()
            .expect("check-config runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let trace = dir.join("start.jsonl");
    std::fs::write(&trace, "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n").expect("trace");
    // No brltty there: valid, with a warning that says so.
    let nobody = format!(
        "language = \"en\"\n[sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"{}\"\n\
         [braille]\ndisplay = true\nhost = \"127.0.0.1:{}\"\nauth = \"none\"\n",
        trace.display(),
        number(2)
    );
    let (code, err) = check("nobody.toml", &nobody);
    assert_eq!(code, Some(0), "{err}");
    // (Refused at once, or, on a machine too busy to say so within the
    // check's 3 s, not answering: either way a warning, and the file valid.)
    assert!(
        err.contains("[braille] display = true, but the Braille display (connecting)")
            || err.contains("[braille] display = true, but brltty did not answer"),
        "{err}"
    );
    // brltty there: no word of the display.
    let brltty = Brltty::start("check", number(2), CELLS);
    let (code, err) = check("there.toml", &nobody);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("[braille]"), "{err}");
    // Braille alone: no voice is needed.
    let alone = format!("{nobody}speech = false\n[speech]\nvoices = []\n");
    let (code, err) = check("alone.toml", &alone);
    assert_eq!(code, Some(0), "{err}");
    drop(brltty);
    let _ = std::fs::remove_dir_all(&dir);
}
