//! The `pegboard` command as a user runs it.

mod common;

use std::io::Write;
use std::process::Output;

fn pegboard(args: &[&str]) -> Output {
    common::pegboard_command()
        .args(args)
        .output()
        .expect("pegboard runs")
}

fn temp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("pegboard-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    let mut f = std::fs::File::create(&path).expect("temp file");
    f.write_all(text.as_bytes()).expect("write");
    path.to_string_lossy().to_string()
}

#[test]
fn replay_prints_the_event_stream_deterministically() {
    let path = temp_file(
        "game.jsonl",
        "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n{\"t\":100,\"lift\":\"e2\"}\n{\"t\":600,\"place\":\"e4\"}\n",
    );
    let first = pegboard(&["replay", &path]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let text = String::from_utf8_lossy(&first.stdout).to_string();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect();
    assert_eq!(lines[0]["event"], "ready");
    assert_eq!(lines[1]["event"], "touch");
    assert_eq!(lines[2]["event"], "move");
    assert_eq!(lines[2]["uci"], "e2e4");
    assert_eq!(lines[2]["t"], 620);
    let second = pegboard(&["replay", &path]);
    assert_eq!(
        first.stdout, second.stdout,
        "the same trace, the same events"
    );
}

#[test]
fn malformed_trace_names_file_line_and_reason_with_exit_code_2() {
    let path = temp_file(
        "bad.jsonl",
        "{\"t\":0,\"trace\":1}\n# fine\n{\"t\":100,\"lift\":\"e9\"}\n",
    );
    let out = pegboard(&["replay", &path]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{path}:3: `lift` must be a square")),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing is printed for a bad trace");
}

#[test]
fn unknown_board_is_an_error_naming_the_line() {
    let path = temp_file(
        "board.jsonl",
        "{\"t\":5,\"board\":\"sighted\",\"lift\":\"e2\"}\n",
    );
    let out = pegboard(&["replay", &path]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(":1: board \"sighted\" is not configured"),
        "{err}"
    );
}

#[test]
fn demo_plays_the_opera_game_to_mate() {
    let out = pegboard(&["demo", "--speed", "2000", "--silent"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("1. e4       « Bauer Eva vier »"), "{text}");
    assert!(text.contains("« Lange Rochade »"), "{text}");
    assert!(text.contains("17. Rd8#"), "{text}");
    assert!(text.contains("Schachmatt. Weiß gewinnt."), "{text}");
}

#[test]
fn demo_with_a_clock_shows_each_press_and_the_times() {
    let out = pegboard(&["demo", "--speed", "2000", "--silent", "--clock", "5+3"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    // The clock starts with the game, and White's first press leaves him
    // 5 minutes minus his thinking time plus 3 seconds.
    assert!(
        text.contains("(White    5:00 <  Black    5:00  )"),
        "{text}"
    );
    let presses = text.lines().filter(|l| l.contains("(White")).count();
    // The start, a press for each of the first 32 plies, and the stop:
    // the mate (ply 33) ends the game before any press.
    assert_eq!(presses, 1 + 32 + 1, "{text}");
    let bad = pegboard(&["demo", "--silent", "--clock", "ninety"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--clock"));
}

#[test]
fn demo_speaks_through_the_configured_voice_and_every_move_is_announced() {
    let dir = std::env::temp_dir().join(format!("pegboard-demo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let config = dir.join("demo.toml");
    std::fs::write(
        &config,
        format!(
            "[speech]\nvoices = [\"file\"]\n[speech.file]\ndirectory = \"{}\"\n",
            dir.join("out").display()
        ),
    )
    .expect("config");
    let out = pegboard(&[
        "demo",
        "--speed",
        "50",
        "--events",
        "--config",
        &config.display().to_string(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(speaking with the file voice)"), "{text}");
    let announced = text.matches("\"event\":\"announced\"").count();
    assert_eq!(
        announced, 33,
        "every one of the 33 plies is announced: {text}"
    );
    let index = std::fs::read_to_string(dir.join("out/utterances.tsv")).expect("utterances");
    assert!(index.contains("\tBauer Eva vier\n"), "{index}");
    assert!(index.contains("\tTurm David acht, Schachmatt\n"), "{index}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_config_names_the_key_and_line() {
    let good = pegboard(&[
        "check-config",
        concat!(env!("CARGO_MANIFEST_DIR"), "/config/pegboard.toml"),
    ]);
    assert!(good.status.success());
    let path = temp_file("bad.toml", "[tracker]\nsettle_ms = \"soon\"\n");
    let out = pegboard(&["check-config", &path]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 2"), "{err}");
    assert!(err.contains("settle_ms"), "{err}");
}
