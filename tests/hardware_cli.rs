//! `pegboard record`, `hw-test` and `calibrate` as a user runs them, on a
//! recorded sensor session played back as the source (no board needed).

mod common;

use std::process::Output;

fn pegboard(args: &[&str]) -> Output {
    common::pegboard_command()
        .args(args)
        .output()
        .expect("pegboard runs")
}

fn dir(test: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("pegboard-hw-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A configuration reading `trace` as its sensor source, with `extra` lines.
fn config_for(d: &std::path::Path, trace: &str, extra: &str) -> String {
    let t = d.join("sensors.jsonl");
    std::fs::write(&t, trace).expect("trace");
    let c = d.join("pegboard.toml");
    std::fs::write(
        &c,
        format!(
            "# my setup\nlanguage = \"en\"\n\n[sensors]\nsource = \"trace\"\nscan_hz = 200\n\n[sensors.trace]\nfile = \"{}\"\n{extra}",
            t.display()
        ),
    )
    .expect("config");
    c.to_string_lossy().to_string()
}

const START: &str = "ffff00000000ffff";

#[test]
fn hw_test_names_each_square_and_reports_flicker_and_dead_squares() {
    let d = dir("check");
    // e2 lifted and placed; a1 drops out for 12 ms (a flicker: shorter
    // than the 20 ms debounce window, long enough that a 200 Hz scan taken
    // late on a busy machine still sees it); h8 never
    // changes; bounces on e2's lift are ordinary and not reported.
    let trace = format!(
        "{{\"t\":0,\"trace\":1}}\n{{\"t\":0,\"occ\":\"{START}\"}}\n\
         {{\"t\":200,\"lift\":\"e2\"}}\n{{\"t\":202,\"place\":\"e2\"}}\n{{\"t\":204,\"lift\":\"e2\"}}\n\
         {{\"t\":400,\"place\":\"e2\"}}\n\
         {{\"t\":600,\"lift\":\"a1\"}}\n{{\"t\":612,\"place\":\"a1\"}}\n"
    );
    let config = config_for(&d, &trace, "");
    let out = pegboard(&[
        "hw-test",
        "--config",
        &config,
        // Long enough for a machine slow to start the command (an
        // emulator, a busy build machine) to read past the trace's end.
        "--seconds",
        "4",
        "--silent",
        "--plain",
    ]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    let e2_lines: Vec<&str> = t.lines().filter(|l| l.contains(" e2 ")).collect();
    assert_eq!(e2_lines.len(), 2, "{t}");
    assert!(
        e2_lines[0].ends_with("e2 lifted") && e2_lines[1].ends_with("e2 placed"),
        "{t}"
    );
    assert!(
        t.contains("Flickering (read a change that undid itself): a1 (1×)"),
        "{t}"
    );
    assert!(t.contains("always occupied") && t.contains("h8"), "{t}");
    assert!(t.contains("1 of 64 squares changed at least once."), "{t}");
    // The map at the end: rank 2 with e2 back.
    assert!(t.contains("2  # # # # # # # #"), "{t}");
}

#[test]
fn record_writes_a_trace_that_replays_to_the_move() {
    let d = dir("record");
    let trace = format!(
        "{{\"t\":0,\"trace\":1}}\n{{\"t\":0,\"occ\":\"{START}\"}}\n\
         {{\"t\":200,\"lift\":\"e2\"}}\n{{\"t\":500,\"place\":\"e4\"}}\n"
    );
    let config = config_for(&d, &trace, "");
    let file = d.join("session.jsonl").to_string_lossy().to_string();
    // Long enough that a machine slow to start the command (an emulator,
    // a busy build machine) still records past the trace's last line.
    let out = pegboard(&["record", &file, "--config", &config, "--seconds", "4.0"]);
    assert!(out.status.success(), "{}", text(&out));
    let recorded = std::fs::read_to_string(&file).expect("recorded");
    let occ: Vec<serde_json::Value> = recorded
        .lines()
        .filter(|l| l.contains("\"occ\""))
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let states: Vec<&str> = occ
        .iter()
        .map(|v| v["occ"].as_str().unwrap_or(""))
        .collect();
    // Each change, and the board once more at the end of the recording.
    assert_eq!(
        states,
        [
            "ffff00000000ffff",
            "ffff00000000efff",
            "ffff00001000efff",
            "ffff00001000efff"
        ]
    );
    // Times are the recording's own and close to the source's.
    let t_lift = occ[1]["t"].as_u64().unwrap_or(0);
    assert!((200..400).contains(&t_lift), "{t_lift}");
    // The last line is the board at the recording's end: about four
    // seconds after the source was opened (the recording's clock and its
    // seconds start then), its last scan before the end perhaps late under
    // an emulator (the aarch64 build under qemu) on a busy machine; after
    // the trace's last line in any case.
    let t_end = occ[3]["t"].as_u64().unwrap_or(0);
    assert!((600..=6000).contains(&t_end), "{t_end}");
    // The recording replays to 1. e4: it runs on to its end, past the
    // debounce window of the last placement.
    let replayed = pegboard(&["replay", &file]);
    assert!(replayed.status.success(), "{}", text(&replayed));
    assert!(
        String::from_utf8_lossy(&replayed.stdout).contains("\"san\":\"e4\""),
        "{}",
        text(&replayed)
    );
}

#[test]
fn record_of_a_trace_source_starts_from_the_headers_position() {
    // No `occ` line: the source starts from the header's start position,
    // not from an empty board.
    let d = dir("record-start");
    let trace = "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n{\"t\":200,\"lift\":\"e2\"}\n";
    let config = config_for(&d, trace, "");
    let file = d.join("session.jsonl").to_string_lossy().to_string();
    let out = pegboard(&["record", &file, "--config", &config, "--seconds", "3.0"]);
    assert!(out.status.success(), "{}", text(&out));
    let recorded = std::fs::read_to_string(&file).expect("recorded");
    let states: Vec<String> = recorded
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["occ"].as_str().map(str::to_string))
        .collect();
    assert_eq!(
        states[..2],
        ["ffff00000000ffff", "ffff00000000efff"],
        "{recorded}"
    );
}

#[test]
fn record_turns_positions_into_squares_with_the_configured_layout() {
    let d = dir("layout");
    // The board is turned round: the source's position 0 is h8.
    let trace = "{\"t\":0,\"trace\":1}\n{\"t\":0,\"occ\":\"0000000000000001\"}\n";
    let config = config_for(
        &d,
        trace,
        "\n[board]\na1 = [7, 7]\nh1 = [7, 0]\nh8 = [0, 0]\n",
    );
    let file = d.join("session.jsonl").to_string_lossy().to_string();
    let out = pegboard(&["record", &file, "--config", &config, "--seconds", "3.0"]);
    assert!(out.status.success(), "{}", text(&out));
    let recorded = std::fs::read_to_string(&file).expect("recorded");
    assert!(
        recorded.contains("\"occ\":\"8000000000000000\""),
        "{recorded}"
    );
}

/// Runs `pegboard calibrate` on a trace source in which the pegs on the
/// raw positions written as `corners` are lifted and put back in turn;
/// returns what it printed and the configuration file it wrote.
fn calibrate_lifting(name: &str, corners: [&str; 3], extra: &str) -> (String, String) {
    let d = dir(name);
    let mut trace = format!("{{\"t\":0,\"trace\":1}}\n{{\"t\":0,\"occ\":\"{START}\"}}\n");
    for (i, sq) in corners.iter().enumerate() {
        let t = 150 + 300 * i as u64;
        trace.push_str(&format!(
            "{{\"t\":{t},\"lift\":\"{sq}\"}}\n{{\"t\":{},\"place\":\"{sq}\"}}\n",
            t + 150
        ));
    }
    let config = config_for(&d, &trace, extra);
    let out = pegboard(&[
        "calibrate",
        "--config",
        &config,
        "--seconds",
        "5",
        "--silent",
    ]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    let written = std::fs::read_to_string(&config).expect("config");
    let check = pegboard(&["check-config", &config]);
    assert!(check.status.success(), "{}", text(&check));
    (t, written)
}

#[test]
fn calibrate_finds_a_turned_board_and_writes_it_into_the_config() {
    // Physically a1 is at position 63, h1 at 56, h8 at 0 (the trace's
    // squares stand for raw positions here: h8 is position 63).
    let (t, written) = calibrate_lifting("calibrate", ["h8", "a8", "a1"], "");
    assert!(
        t.contains("Lift the peg on a1.") && t.contains("Lift the peg on h8."),
        "{t}"
    );
    assert!(
        written.starts_with("# my setup\n"),
        "comments kept: {written}"
    );
    assert!(written.contains("a1 = [7, 7]"), "{written}");
    assert!(
        written.contains("h1 = [7, 0]") && written.contains("h8 = [0, 0]"),
        "{written}"
    );
}

#[test]
fn calibrate_reads_through_crossed_lines_and_keeps_their_order() {
    // Drive lines 0 and 1 crossed on the connector, which `rows` puts
    // right; the board itself is not turned. a1 is then raw position 8
    // (written a2 here), h1 raw 15 (h2), h8 raw 63.
    let (_, written) = calibrate_lifting(
        "calibrate-crossed",
        ["a2", "h2", "h8"],
        "\n[board]\n# lines 0 and 1 crossed\nrows = [1, 0, 2, 3, 4, 5, 6, 7]\n",
    );
    assert!(
        written.contains("a1 = [0, 0]")
            && written.contains("h1 = [0, 7]")
            && written.contains("h8 = [7, 7]"),
        "{written}"
    );
    assert!(
        written.contains("# lines 0 and 1 crossed\nrows = [1, 0, 2, 3, 4, 5, 6, 7]"),
        "the line order and its comment stay: {written}"
    );
}

#[test]
fn calibrate_that_times_out_leaves_the_config_alone() {
    let d = dir("calibrate-timeout");
    let trace = format!("{{\"t\":0,\"trace\":1}}\n{{\"t\":0,\"occ\":\"{START}\"}}\n");
    let config = config_for(&d, &trace, "");
    let before = std::fs::read_to_string(&config).expect("config");
    let out = pegboard(&[
        "calibrate",
        "--config",
        &config,
        "--seconds",
        "0.3",
        "--silent",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("[board] is unchanged"),
        "{}",
        text(&out)
    );
    assert_eq!(std::fs::read_to_string(&config).expect("config"), before);
}

#[test]
fn matrix_source_without_the_rpi_build_says_how_to_get_it() {
    let d = dir("norpi");
    let c = d.join("pegboard.toml");
    std::fs::write(&c, "[sensors]\nsource = \"matrix\"\n").expect("config");
    let out = pegboard(&[
        "hw-test",
        "--config",
        &c.to_string_lossy(),
        "--seconds",
        "0.1",
        "--silent",
    ]);
    let t = text(&out);
    if cfg!(feature = "rpi") {
        // On a Pi build without GPIO (CI), opening the pins fails plainly.
        assert_eq!(out.status.code(), Some(2), "{t}");
    } else {
        assert_eq!(out.status.code(), Some(2), "{t}");
        assert!(t.contains("--features rpi"), "{t}");
    }
}

#[test]
fn bad_hardware_config_names_the_key_and_line() {
    let d = dir("badconfig");
    let c = d.join("pegboard.toml");
    std::fs::write(
        &c,
        "[sensors]\nsource = \"serial\"\n\n[[buttons.key]]\npin = 23\npress = \"hints\"\n",
    )
    .expect("config");
    let path = c.to_string_lossy().to_string();
    let out = pegboard(&["check-config", &path]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.starts_with(&format!(
            "{path}:6: [[buttons.key]] press: unknown key action \"hints\""
        )),
        "{t}"
    );
    // A [board] problem is put at its key, not at the table.
    std::fs::write(&c, "[board]\nh1 = [0, 7]\na1 = [0, 3]\n").expect("config");
    let t = text(&pegboard(&["check-config", &path]));
    assert!(
        t.starts_with(&format!(
            "{path}:3: [board] a1: a1 is at [0, 3], which is not a corner"
        )),
        "{t}"
    );
    std::fs::write(
        &c,
        "[sensors.matrix]\ndrive = [5, 6, 13, 19, 26, 12, 16, 20]\nsense = [4, 17, 27, 22, 10, 9, 11, 5]\n",
    )
    .expect("config");
    let t = text(&pegboard(&["check-config", &path]));
    assert!(
        t.starts_with(&format!(
            "{path}:3: [sensors.matrix] sense line 7: BCM pin 5 is already [sensors.matrix] drive line 0"
        )),
        "{t}"
    );
}

#[test]
fn play_reads_the_sensors_and_announces_the_move() {
    let d = dir("play");
    let trace = format!(
        "{{\"t\":0,\"trace\":1}}\n{{\"t\":0,\"occ\":\"{START}\"}}\n\
         {{\"t\":200,\"lift\":\"g1\"}}\n{{\"t\":500,\"place\":\"f3\"}}\n"
    );
    let config = config_for(&d, &trace, "");
    let out = pegboard(&[
        "play",
        "--config",
        &config,
        "--seconds",
        "4",
        "--silent",
        "--events",
    ]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(
        t.contains("1. Nf3") && t.contains("Knight Felix three"),
        "{t}"
    );
    let moves: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .filter(|v: &serde_json::Value| v["event"] == "move")
        .collect();
    assert_eq!(moves.len(), 1, "{t}");
    assert_eq!(moves[0]["san"], "Nf3");
}
