//! The `pegboard` command as a user runs it.

#[path = "support/audio.rs"]
mod audio;
mod common;
#[path = "support/lichess.rs"]
mod lichess;

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
    let first = pegboard(&["replay", &path, "--until", "1000"]);
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
    let second = pegboard(&["replay", &path, "--until", "1000"]);
    assert_eq!(
        first.stdout, second.stdout,
        "the same trace, the same events"
    );
}

fn events(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect()
}

#[test]
fn replay_invents_nothing_after_the_recording_ends() {
    // A five-minute clock, and a recording that ends at 1.5 s with the
    // knight just placed: no flag at 301.5 s, no warnings on the way, and
    // the debounce window after the last line has not passed either.
    let path = temp_file(
        "short.jsonl",
        "{\"t\":0,\"trace\":1,\"time_control\":\"300\"}\n{\"t\":900,\"lift\":\"g1\"}\n{\"t\":1500,\"place\":\"f3\"}\n",
    );
    let out = pegboard(&["replay", &path]);
    assert!(out.status.success());
    let ev = events(&out);
    let last_t = ev.iter().filter_map(|e| e["t"].as_u64()).max();
    assert_eq!(last_t, Some(920), "nothing after the last line: {ev:?}");
    assert!(
        ev.iter()
            .all(|e| e["event"] != "flag" && e["event"] != "game_over")
    );
    // --until lets time run on as far as asked.
    let out = pegboard(&["replay", &path, "--until", "2000"]);
    let ev = events(&out);
    let moves: Vec<_> = ev.iter().filter(|e| e["event"] == "move").collect();
    assert_eq!((moves.len(), &moves[0]["t"]), (1, &serde_json::json!(1520)));
    assert!(ev.iter().all(|e| e["t"].as_u64() <= Some(2000)));
    let out = pegboard(&["replay", &path, "--until", "400000"]);
    let ev = events(&out);
    let flag: Vec<_> = ev.iter().filter(|e| e["event"] == "flag").collect();
    assert_eq!(flag.len(), 1, "asked for, the flag falls");
}

#[test]
fn replay_of_a_recording_torn_by_a_power_cut_keeps_everything_before_the_damage() {
    let good = "{\"t\":0,\"trace\":1}\n{\"t\":100,\"lift\":\"e2\"}\n{\"t\":600,\"place\":\"e4\"}\n{\"t\":2000,\"lift\":\"e7\"}\n";
    for (name, tail) in [
        ("cut.jsonl", "{\"t\":2500,\"pla".to_string()),
        ("nul.jsonl", "\0".repeat(4096)),
    ] {
        let path = temp_file(name, &format!("{good}{tail}"));
        let out = pegboard(&["replay", &path, "--until", "3000"]);
        assert_eq!(out.status.code(), Some(3), "{name}");
        let ev = events(&out);
        let moves: Vec<_> = ev.iter().filter(|e| e["event"] == "move").collect();
        assert_eq!(moves.len(), 1, "{name}: e4 was replayed");
        assert_eq!(moves[0]["uci"], "e2e4");
        assert!(
            ev.iter()
                .any(|e| e["event"] == "touch" && e["square"] == "e7")
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("{path}:5: ")), "{err}");
        assert!(err.contains("last line is damaged"), "{err}");
    }
}

#[test]
fn replay_of_endless_input_stops_at_the_first_overlong_line() {
    let out = pegboard(&["replay", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/dev/zero:1: the line is longer than 65536 bytes"),
        "{err}"
    );
}

#[test]
fn play_and_replay_of_the_readme_trace_give_the_same_move() {
    // The README's three-line trace, played through `play` with the trace
    // as its sensor source: the board starts as the header says, so there
    // are no phantom touches and the knight is a knight.
    let trace = temp_file(
        "readme.jsonl",
        "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n{\"t\":900,\"lift\":\"g1\"}\n{\"t\":1500,\"place\":\"f3\"}\n",
    );
    let config = temp_file(
        "readme.toml",
        &format!("[sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"{trace}\"\n"),
    );
    let played = pegboard(&[
        "play",
        "--config",
        &config,
        "--seconds",
        "2.5",
        "--silent",
        "--events",
    ]);
    assert!(
        played.status.success(),
        "{}",
        String::from_utf8_lossy(&played.stderr)
    );
    let played: Vec<serde_json::Value> = String::from_utf8_lossy(&played.stdout)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let replayed = events(&pegboard(&["replay", &trace, "--until", "2500"]));
    let kinds = |ev: &[serde_json::Value], kind: &str| -> Vec<(String, String)> {
        ev.iter()
            .filter(|e| e["event"] == kind)
            .map(|e| {
                (
                    e["san"]
                        .as_str()
                        .or(e["square"].as_str())
                        .unwrap_or_default()
                        .to_string(),
                    e["say"].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect()
    };
    assert_eq!(
        kinds(&replayed, "move"),
        [("Nf3".to_string(), "Springer Felix drei".to_string())]
    );
    assert_eq!(kinds(&played, "move"), kinds(&replayed, "move"));
    assert_eq!(kinds(&played, "touch"), kinds(&replayed, "touch"));
    assert!(
        played.iter().all(|e| e["event"] != "mismatch"),
        "{played:?}"
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
    // Lines before the bad one were replayed as they were read (here only
    // the header: `ready`), and nothing after it.
    let ev = events(&out);
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(ev[0]["event"], "ready");
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
    // The mate said once, with the move; the end says the result.
    assert!(text.contains("« Turm David acht, Schachmatt »"), "{text}");
    assert!(text.contains("« Weiß gewinnt. »"), "{text}");
    assert_eq!(text.matches("Schachmatt").count(), 1, "{text}");
}

#[test]
fn demo_engine_plays_a_short_game_against_stockfish_said_as_practice_sounds() {
    // Nothing configured: Stockfish at the gentle second step, from the
    // book, at a person's pace (fifty times faster here).
    let out = pegboard(&["demo", "--engine", "--speed", "50", "--silent", "--events"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("Maschine, Stufe 2, etwa 1100. Sie spielen Weiß. Ohne Uhr."),
        "{text}"
    );
    let events: Vec<serde_json::Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let moves = common::of(&events, "move");
    assert!(moves.len() >= 12, "{text}");
    // The engine's moves come through the door and are said in full, for
    // the blind player to make them; the hands make each on the board.
    for m in moves.iter().filter(|m| m["color"] == "black") {
        assert_eq!(m["board"], "relay", "{m}");
        assert!(
            m["say"].as_str().is_some_and(|s| s.contains(" nach ")
                || s.contains(" schlägt ")
                || s.ends_with("Rochade")),
            "{m}"
        );
    }
    let black = moves.iter().filter(|m| m["color"] == "black").count();
    assert_eq!(common::of(&events, "replicated").len(), black, "{text}");
    for bad in ["illegal", "mismatch", "refused"] {
        assert!(common::of(&events, bad).is_empty(), "{bad}: {text}");
    }
}

#[test]
fn the_clips_are_found_from_any_folder() {
    // Run from a folder with no sounds/ in it: the clips are found beside
    // the program or in the source folder it was built from, not only in
    // ./sounds.
    let dir = common::empty_dir("clips-anywhere");
    let out_dir = dir.join("said");
    let config = dir.join("file.toml");
    std::fs::write(
        &config,
        format!("[speech.file]\ndirectory = \"{}\"\n", out_dir.display()),
    )
    .expect("config");
    let out = common::pegboard_command()
        .current_dir(&dir)
        .args(["say", "--voice", "file", "--config"])
        .arg(&config)
        .arg("Springer Felix drei")
        .output()
        .expect("say runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out_dir.join("0001.wav").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_help_names_the_engine_and_the_engine_demo() {
    let play = String::from_utf8_lossy(&pegboard(&["play", "--help"]).stdout).to_string();
    assert!(
        play.contains("Stockfish") && play.contains("[engine] step"),
        "{play}"
    );
    let demo = String::from_utf8_lossy(&pegboard(&["demo", "--help"]).stdout).to_string();
    assert!(
        demo.contains("--engine") && demo.contains("Stockfish"),
        "{demo}"
    );
}

#[test]
fn demo_with_a_clock_shows_each_press_and_the_times() {
    let out = pegboard(&["demo", "--speed", "2000", "--silent", "--clock", "5+3"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    // The clock starts with the game, showing the first move's 3 seconds
    // already, as the hall's clocks do.
    assert!(
        text.contains("(White    5:03 <  Black    5:03  )"),
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
    let path = temp_file("bad.toml", "[tracker]\nsettle_ms = \"soon\"\n");
    let out = pegboard(&["check-config", &path]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!("{path}:2: [tracker] settle_ms: invalid type")),
        "{err}"
    );
}

#[test]
fn check_config_refuses_a_clock_lichess_lets_no_board_play_at_its_key_and_line() {
    // lila never lets a board play bullet: 1+0 against its AI is refused
    // before the player hears "connection lost" for ever.
    let path = temp_file(
        "bullet.toml",
        "[game]\nblack_moves_on = \"lichess\"\n[lichess]\nfind = \"ai\"\ntime = 1\nincrement = 0\n",
    );
    let out = pegboard(&["check-config", &path]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!("{path}:5: [lichess] time: 1+0 is bullet")),
        "{err}"
    );
}

fn example(name: &str) -> String {
    format!("{}/config/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_shipped_example_is_valid_on_the_build_it_is_documented_for() {
    // The Pi's setups need Raspberry Pi support; a build without it says
    // so at the `source` line, as `pegboard play` would.
    for name in ["pegboard.toml", "gpio-matrix.toml", "expanders.toml"] {
        let out = pegboard(&["check-config", &example(name)]);
        let err = String::from_utf8_lossy(&out.stderr);
        if cfg!(feature = "rpi") {
            assert!(out.status.success(), "{name}: {err}");
        } else {
            assert_eq!(out.status.code(), Some(2), "{name}");
            assert!(
                err.contains("without Raspberry Pi support"),
                "{name}: {err}"
            );
            assert!(err.contains(&format!("{name}:")), "{name}: {err}");
        }
    }
    // The serial scanner's runs on every build: valid, and `play` runs on
    // it as it stands (no scanner plugged in: it says the board is not
    // connected, and stops when asked).
    let serial = example("serial-laptop.toml");
    let out = pegboard(&["check-config", &serial]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = pegboard(&["play", "--config", &serial, "--silent", "--seconds", "2.5"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Brett nicht verbunden"), "{text}");
}

#[test]
fn clips_are_found_only_in_the_documented_places() {
    // The program copied into a folder of its own, run from a folder with
    // no sounds/: it finds none (it does not fall back to the folder it was
    // built in), and names where it looked first.
    let dir = std::env::temp_dir().join(format!("pegboard-nosounds-{}", std::process::id()));
    let bin = dir.join("prefix/bin");
    std::fs::create_dir_all(&bin).expect("dir");
    let program = bin.join("pegboard");
    std::fs::copy(env!("CARGO_BIN_EXE_pegboard"), &program).expect("the program copied");
    let say = || {
        let out = common::program_command(&program)
            .args(["say", "--voice", "clips", "Anna"])
            .current_dir(&dir)
            .output()
            .expect("pegboard runs");
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    // Where `hardware/install.sh` or a package put the sounds, they are
    // found there; otherwise nowhere. Which of the two this machine is,
    // the test asserts the answer for it (the search order itself is
    // held by `speech::clips`' own test, on folders it makes).
    let installed = [
        "/usr/local/share/pegboard/sounds",
        "/usr/share/pegboard/sounds",
    ]
    .into_iter()
    .find(|d| std::path::Path::new(d).join("fide/manifest.toml").is_file());
    let err = say();
    match installed {
        None => {
            assert!(
                err.contains("voice clips: not working: clip set: sounds/fide/manifest.toml"),
                "{err}"
            );
            assert!(err.contains("spoken by: text"), "{err}");
        }
        Some(dir) => assert!(
            !err.contains("clip set:"),
            "the clips installed in {dir} are found: {err}"
        ),
    }
    // Its sounds put beside it, as an installation under a prefix has
    // them (share/pegboard/sounds): found, from any folder.
    let share = dir.join("prefix/share/pegboard");
    std::fs::create_dir_all(&share).expect("dir");
    std::os::unix::fs::symlink(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sounds"),
        share.join("sounds"),
    )
    .expect("the sounds beside the program");
    let err = say();
    assert!(!err.contains("clip set:"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `play` with its standard output on a terminal (a pseudo-terminal made by
/// util-linux's `script`), and on a pipe.
#[test]
fn play_on_a_terminal_shows_the_clock_as_a_status_line_and_on_a_pipe_does_not() {
    let dir = std::env::temp_dir().join(format!("pegboard-cli-face-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let config = common::nf3_play_config(&dir, "[clock]\ncontrol = \"5+3\"\n");
    let runner = std::env::var("PEGBOARD_TEST_RUNNER").unwrap_or_default();
    let line = format!(
        "{runner} {} play --silent --seconds 3 --config {config}",
        env!("CARGO_BIN_EXE_pegboard")
    );
    let out = std::process::Command::new("script")
        .args(["-qfec", &line, "/dev/null"])
        .env("XDG_STATE_HOME", common::fresh_state_dir())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script (util-linux) runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    // The line is redrawn in place (erase the line, then the times), and
    // follows the clock: White's 5:03 before his move, then his 5:05 with
    // the increment, and Black's clock running down below 5:03.
    assert!(
        text.contains("\r\x1b[2KWhite    5:03 <  Black    5:03"),
        "{text:?}"
    );
    assert!(
        text.contains("\r\x1b[2KWhite    5:05    Black    5:02 <"),
        "{text:?}"
    );
    // The move itself is printed on a line of its own above it.
    // (at 0.72 s, a scan or so later on a slow machine).
    assert!(text.contains("\r\x1b[2K[00:00.7"), "{text:?}");
    assert!(text.contains("] 1. Nf3"), "{text:?}");
    let piped = pegboard(&["play", "--silent", "--seconds", "1.5", "--config", &config]);
    let piped = String::from_utf8_lossy(&piped.stdout);
    assert!(piped.contains("1. Nf3"), "{piped}");
    assert!(
        !piped.contains('\x1b'),
        "no status line on a pipe: {piped:?}"
    );
}

/// On a machine without a JACK server, opening an audio output through
/// ALSA's JACK plugin makes libjack print a dozen lines onto standard
/// error ("jack server is not running or cannot be started"). pegboard
/// catches them: a newcomer's first `say` or `demo` shows none.
#[test]
fn libjacks_noise_is_caught_when_an_audio_output_opens() {
    // The test setup installs libjack (with ALSA's plugins) for the
    // machine's own architecture, and .ci/cross.sh the arm64 ones for the
    // emulated run, so that the noise is there to catch.
    // Debian's multiarch folder for the architecture this test was built for.
    let triple = if cfg!(target_arch = "aarch64") {
        "aarch64-linux-gnu"
    } else if cfg!(target_arch = "arm") {
        "arm-linux-gnueabihf"
    } else {
        "x86_64-linux-gnu"
    };
    let libjack = std::path::Path::new("/usr/lib")
        .join(triple)
        .join("libjack.so.0");
    assert!(
        libjack.exists(),
        "{} is not installed; .ci/setup.sh (and for arm64 .ci/cross.sh) installs it",
        libjack.display()
    );
    let out = common::pegboard_command()
        .args(["say", "--voice", "clips", "Anna"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        // No sound server: the output is looked for through ALSA.
        .env("PULSE_SERVER", "unix:/nonexistent/pulse")
        .output()
        .expect("pegboard runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        !err.to_ascii_lowercase().contains("jack"),
        "libjack's lines reached standard error:\n{err}"
    );
}

/// `check-config` names what would leave the blind player without words:
/// a warning at the key's line, an error only when no voice could speak.
#[test]
fn check_config_warns_of_what_would_leave_the_player_without_words() {
    let dir = common::empty_dir("cli-voices");
    let trace = dir.join("still.jsonl");
    std::fs::write(&trace, "{\"t\":0,\"trace\":1}\n").expect("trace");
    let sensors = format!(
        "[sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"{}\"\n",
        trace.display()
    );
    // speech-dispatcher is the test's own, started (with its espeak-ng
    // module) before it is asked: what is checked is how check-config
    // names a missing voice, not how fast a daemon starts on demand.
    let sound = audio::AudioEnv::start("cli-voices", true);
    let check = |name: &str, text: &str| {
        let file = dir.join(name);
        std::fs::write(&file, format!("{text}{sensors}")).expect("config");
        let out = common::pegboard_command()
            .envs(sound.vars())
            .arg("check-config")
            .arg(&file)
            .output()
            .expect("runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            file.display().to_string(),
        )
    };
    // No voice at all: an error.
    let (code, err, file) = check("none.toml", "# nothing\n[speech]\nvoices = []\n");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!("warning: {file}:3: [speech] voices is empty")),
        "{err}"
    );
    // A file voice that cannot write, and the text voice after it: a
    // warning, and the file is valid.
    let (code, err, file) = check(
        "file.toml",
        "[speech]\nvoices = [\"file\", \"text\"]\n[speech.file]\ndirectory = \"/proc/pegboard\"\n",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(&format!(
            "warning: {file}:4: [speech.file] directory: /proc/pegboard cannot be written"
        )),
        "{err}"
    );
    // The file voice alone, unable to write: nothing could speak.
    let (code, err, _) = check(
        "alone.toml",
        "[speech]\nvoices = [\"file\"]\n[speech.file]\ndirectory = \"/proc/pegboard\"\n",
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("no voice in [speech] voices could speak"),
        "{err}"
    );
    // A writable folder: no warning.
    let (code, err, _) = check(
        "fine.toml",
        &format!(
            "[speech]\nvoices = [\"file\"]\n[speech.file]\ndirectory = \"{}\"\n",
            dir.join("out").display()
        ),
    );
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert!(!dir.join("out").exists(), "the check makes nothing");
    // A speech-dispatcher voice that does not exist. The test's own
    // speech-dispatcher answers, so the voice is named missing. On a busy
    // machine (or under an emulator, the Pi's build under qemu) it may not
    // answer within the check's 3 s, which is then said instead: the
    // check is made again, as the verdict is how a missing voice is
    // named, not how fast the machine is.
    let emulated = std::env::var_os("PEGBOARD_TEST_RUNNER").is_some();
    let mut attempts = 0;
    let (code, err, file, unasked) = loop {
        attempts += 1;
        let (code, err, file) = check(
            "named.toml",
            "[speech]\nvoices = [\"speech-dispatcher\", \"text\"]\n\
             [speech.speech_dispatcher]\nvoice = \"no-such-voice\"\n",
        );
        let unasked =
            err.contains("[speech.speech_dispatcher] voice \"no-such-voice\" not checked");
        if !unasked || emulated || attempts == 5 {
            break (code, err, file, unasked);
        }
    };
    assert_eq!(code, Some(0), "{err}");
    let missing = err.contains(&format!(
        "warning: {file}:4: [speech.speech_dispatcher] voice: speech-dispatcher has no voice \
         named \"no-such-voice\""
    ));
    assert!(missing || (emulated && unasked), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `play --scan-timing` says at the end how late the scans were taken, so
/// that a Pi's owner can see whether it keeps up with the scan rate.
#[test]
fn play_tells_how_late_its_scans_were_taken_when_asked() {
    let dir = common::empty_dir("cli-scan-timing");
    let config = common::nf3_play_config(&dir, "");
    let out = pegboard(&[
        "play",
        "--silent",
        "--seconds",
        "1.5",
        "--scan-timing",
        "--config",
        &config,
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    for what in ["taken after they were due", "handled after they were taken"] {
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix(&format!("pegboard: scans {what}: p50 ")))
            .unwrap_or_else(|| panic!("no scans {what}: {text}"));
        // "0.01 ms, p99 0.08 ms, max 2.40 ms (300 scans at 200 Hz, 0 by
        // more than one period)": 1.5 s at 200 Hz is 300 scans (fewer on a
        // slow or emulated machine, never more). The scans handled are
        // those and the trace's three lines, each read at its own instant
        // when no scan fell on it.
        let scans: u64 = line
            .split_once(" ms (")
            .and_then(|(_, rest)| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        let most = if what == "handled after they were taken" {
            305
        } else {
            302
        };
        assert!((30..=most).contains(&scans), "{line}");
        assert!(line.contains(" scans at 200 Hz, "), "{line}");
        assert!(line.ends_with(" by more than one period)"), "{line}");
    }
    // Without the flag, nothing of it.
    let plain = pegboard(&["play", "--silent", "--seconds", "0.5", "--config", &config]);
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("pegboard: scans"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pegboard ARGS` run with the privileges `setpriv_args` taken away.
fn pegboard_without(setpriv_args: &[&str], args: &[&str]) -> Output {
    let plain = common::pegboard_command();
    let mut c = std::process::Command::new("setpriv");
    c.args(setpriv_args);
    c.arg(plain.get_program()).args(plain.get_args()).args(args);
    for (k, v) in plain.get_envs() {
        match v {
            Some(v) => c.env(k, v),
            None => c.env_remove(k),
        };
    }
    c.output().expect("setpriv runs")
}

/// Whether this machine lets a program of this process run real-time at
/// the scan loop's priority: util-linux's chrt asked, as the kernel
/// answers it here (capabilities, limits, control groups, containers).
fn real_time_permitted() -> bool {
    std::process::Command::new("chrt")
        .args(["-f", "4", "true"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Does this process hold capability `bit` (CAP_SETPCAP is 8) in its
/// effective set?
fn holds_capability(bit: u32) -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let hex = s
                .lines()
                .find_map(|l| l.strip_prefix("CapEff:"))?
                .trim()
                .to_string();
            u64::from_str_radix(&hex, 16).ok()
        })
        .is_some_and(|caps| caps & (1 << bit) != 0)
}

/// With `[sensors] realtime = true` the scan loop asks for a real-time
/// place, so that other work on the machine never delays a scan. The
/// kernel gives it to a process with `CAP_SYS_NICE` (root), or to one whose
/// `RLIMIT_RTPRIO` allows it (the service unit's `LimitRTPRIO=4`;
/// sched(7)), unless a control group or container keeps it; else the game
/// is played as before, at the ordinary priority, and `--scan-timing` says
/// why and what to do. Without the key nothing is asked.
#[test]
fn play_runs_its_scan_loop_real_time_when_asked_and_the_kernel_lets_it() {
    let dir = common::empty_dir("cli-scan-priority");
    let args = |config: String| {
        [
            "play",
            "--silent",
            "--seconds",
            "1",
            "--scan-timing",
            "--config",
        ]
        .map(String::from)
        .into_iter()
        .chain([config])
        .collect::<Vec<_>>()
    };
    let place = |out: &Output| {
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{text}{err}");
        assert!(
            text.contains("\"san\":\"Nf3\"") || text.contains("Nf3"),
            "played: {text}"
        );
        text.lines()
            .find_map(|l| l.strip_prefix("pegboard: the scan loop ran at "))
            .unwrap_or_else(|| panic!("no priority told: {text}"))
            .to_string()
    };
    let asked_args = args(common::nf3_play_config_sensing(
        &dir,
        "",
        "realtime = true\n",
    ));
    let asked_args: Vec<&str> = asked_args.iter().map(String::as_str).collect();
    let own = pegboard(&asked_args);
    let own_place = place(&own);
    let refusal_told = |out: &Output| {
        String::from_utf8_lossy(&out.stderr).contains(
            "pegboard: the scan loop runs at ordinary priority: the real-time one was refused",
        )
    };
    if real_time_permitted() {
        assert_eq!(own_place, "real-time priority (SCHED_FIFO 4)");
        assert!(!refusal_told(&own));
    } else {
        // Refused here: said at the end, and once at the start, where a
        // service's log keeps it.
        assert!(own_place.starts_with("ordinary priority"), "{own_place}");
        assert!(refusal_told(&own));
    }
    // Without CAP_SYS_NICE (and no RLIMIT_RTPRIO): the ordinary place,
    // said with its remedy, and the game played all the same. Taking the
    // capability away needs CAP_SETPCAP.
    if holds_capability(8) {
        let refused = pegboard_without(
            &["--bounding-set", "-sys_nice", "--inh-caps", "-sys_nice"],
            &asked_args,
        );
        let refused_place = place(&refused);
        assert!(
            refused_place.starts_with("ordinary priority"),
            "{refused_place}"
        );
        assert!(refused_place.contains("LimitRTPRIO=4"), "{refused_place}");
        assert!(refusal_told(&refused));
    } else {
        println!("without CAP_SETPCAP the capability cannot be taken away: that run is left out");
    }
    // Not asked for: not taken, even where it would be given.
    let plain_args = args(common::nf3_play_config(&dir, ""));
    let plain_args: Vec<&str> = plain_args.iter().map(String::as_str).collect();
    let not_asked = place(&pegboard(&plain_args));
    assert!(
        not_asked.starts_with("ordinary priority ([sensors] realtime = true"),
        "{not_asked}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pegboard lichess-token --config CONFIG` with `input` on standard
/// input: its output, and all it said (standard output, then error).
fn lichess_token(config: &std::path::Path, input: &str) -> (Output, String) {
    let mut child = common::pegboard_command()
        .args(["lichess-token", "--config"])
        .arg(config)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    // It may end before it reads (a directory it cannot use).
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes());
    let out = child.wait_with_output().expect("ends");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out, said)
}

/// A configuration in `dir` that keeps the state in `state` and plays on
/// `server`.
fn token_config(
    dir: &std::path::Path,
    state: &std::path::Path,
    server: &str,
) -> std::path::PathBuf {
    let config = dir.join("c.toml");
    std::fs::write(
        &config,
        format!(
            "[journal]\ndir = \"{}\"\n[lichess]\nserver = \"{server}\"\n",
            state.display()
        ),
    )
    .expect("config");
    config
}

#[test]
fn lichess_token_shows_where_to_make_it_checks_it_with_lichess_and_keeps_it_unprinted() {
    use std::os::unix::fs::PermissionsExt as _;
    const TOKEN: &str = "lip_Zx8kQ2mN4pR6tV1wY3bC";
    let server = lichess::Lichess::start(TOKEN, std::time::Duration::from_secs(1));
    let dir = common::empty_dir("lichess-token");
    let config = token_config(&dir, &dir.join("state"), &server.url());
    let (out, said) = lichess_token(&config, &format!("{TOKEN}\n"));
    assert!(out.status.success(), "{said}");
    // The page that makes a token with board:play already chosen.
    let address = format!(
        "{}/account/oauth/token/create?scopes%5B%5D=board:play&description=pegboard",
        server.url()
    );
    assert!(said.contains(&address), "{said}");
    // lichess said whose it is.
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("it is Anna's"),
        "{said}"
    );
    assert!(
        server
            .state()
            .requests
            .contains(&"GET /api/account".to_string())
    );
    assert!(said.contains("readable by you alone"), "{said}");
    assert!(!said.contains(TOKEN), "the token was printed: {said}");
    let kept = dir.join("state").join("lichess-token");
    assert!(said.contains(&kept.display().to_string()), "{said}");
    assert_eq!(std::fs::read_to_string(&kept).expect("kept").trim(), TOKEN);
    let mode = std::fs::metadata(&kept).expect("kept").permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    // Something that is no token is refused, and not repeated.
    let (out, said) = lichess_token(&config, "my password 123\n");
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("is no lichess token"), "{said}");
    assert!(!said.contains("password"), "{said}");
    // The token kept before is still the one there.
    assert_eq!(std::fs::read_to_string(&kept).expect("kept").trim(), TOKEN);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lichess_token_lichess_refuses_or_that_may_not_play_is_not_kept() {
    // A token as long as lichess asks clients to take (512 characters).
    let token: String = "lip_"
        .chars()
        .chain("Qx7_k".chars().cycle())
        .take(512)
        .collect();
    let server = lichess::Lichess::start(&token, std::time::Duration::from_secs(1));
    let dir = common::empty_dir("lichess-token-refused");
    let config = token_config(&dir, &dir.join("state"), &server.url());
    let kept = dir.join("state").join("lichess-token");
    // A token lichess does not know: refused, not kept.
    let (out, said) = lichess_token(&config, "lip_NotTheToken1234567\n");
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("lichess refused the token (no such token)"),
        "{said}"
    );
    assert!(said.contains("scopes%5B%5D=board:play"), "{said}");
    assert!(!said.contains("NotTheToken"), "{said}");
    assert!(!kept.exists());
    // The right one, all 512 characters of it.
    let (out, said) = lichess_token(&config, &format!("{token}\n"));
    assert!(out.status.success(), "{said}");
    assert!(said.contains("it is Anna's"), "{said}");
    assert_eq!(std::fs::read_to_string(&kept).expect("kept").trim(), token);
    assert!(!said.contains(&token[..16]), "{said}");
    // The same token, its board:play scope gone: said, and not kept over
    // the one there (here the same; a better one would stay).
    std::fs::remove_file(&kept).expect("removed");
    server.token_scopes("challenge:read");
    let (out, said) = lichess_token(&config, &format!("{token}\n"));
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("Anna's") && said.contains("board:play scope is missing"),
        "{said}"
    );
    assert!(!kept.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lichess_token_is_kept_unchecked_when_lichess_cannot_be_reached() {
    const TOKEN: &str = "lip_Offline0123456789abc";
    let dir = common::empty_dir("lichess-token-offline");
    // Nothing listens on port 1.
    let config = token_config(&dir, &dir.join("state"), "http://127.0.0.1:1");
    let (out, said) = lichess_token(&config, &format!("{TOKEN}\n"));
    assert!(out.status.success(), "{said}");
    assert!(said.contains("lichess could not be reached"), "{said}");
    assert!(said.contains("could not be checked"), "{said}");
    assert!(!said.contains(TOKEN), "{said}");
    let kept = dir.join("state").join("lichess-token");
    assert_eq!(std::fs::read_to_string(&kept).expect("kept").trim(), TOKEN);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lichess_token_in_another_users_directory_is_his_and_only_root_keeps_it_there() {
    use std::os::unix::fs::MetadataExt as _;
    const TOKEN: &str = "lip_ServiceToken12345678";
    let server = lichess::Lichess::start(TOKEN, std::time::Duration::from_secs(1));
    let dir = common::empty_dir("lichess-token-service");
    let root = std::fs::metadata(&dir).expect("made").uid() == 0;
    if root {
        // The service's state directory, owned by its user (nobody here):
        // root keeps the token there for that user, who alone reads it.
        let state = dir.join("state");
        std::fs::create_dir_all(&state).expect("made");
        std::os::unix::fs::chown(&state, Some(65534), Some(65534)).expect("chown");
        let config = token_config(&dir, &state, &server.url());
        let (out, said) = lichess_token(&config, &format!("{TOKEN}\n"));
        assert!(out.status.success(), "{said}");
        let kept = state.join("lichess-token");
        let meta = std::fs::metadata(&kept).expect("kept");
        assert_eq!(
            (meta.uid(), meta.gid(), meta.mode() & 0o777),
            (65534, 65534, 0o600)
        );
        assert!(
            said.contains(&format!("(the owner of {})", state.display())),
            "{said}"
        );
        assert!(said.contains("readable by that user alone"), "{said}");
    } else {
        // Root's directory: a token kept there by another user would be
        // his own, which root's `play` could read but no service user:
        // refused before any token is asked for, with the command that
        // can.
        let config = token_config(&dir, std::path::Path::new("/"), &server.url());
        let (out, said) = lichess_token(&config, "");
        assert_eq!(out.status.code(), Some(2), "{said}");
        assert!(said.contains("belongs to the user root"), "{said}");
        assert!(
            said.contains(&format!(
                "sudo pegboard lichess-token --config {}",
                config.display()
            )),
            "{said}"
        );
        assert!(!said.contains("paste"), "{said}");
        assert!(server.state().requests.is_empty());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_config_and_play_with_a_lichess_seat_say_when_no_token_is_kept() {
    let dir = common::empty_dir("lichess-no-token");
    let trace = dir.join("still.jsonl");
    std::fs::write(&trace, "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n").expect("trace");
    let config = dir.join("c.toml");
    std::fs::write(
        &config,
        format!(
            "[game]\nblack_moves_on = \"lichess\"\n[journal]\ndir = \"{}\"\n\
             [sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"{}\"\n",
            dir.join("state").display(),
            trace.display()
        ),
    )
    .expect("config");
    let check = common::pegboard_command()
        .arg("check-config")
        .arg(&config)
        .output()
        .expect("runs");
    let said = String::from_utf8_lossy(&check.stderr);
    assert!(check.status.success(), "{said}");
    assert!(
        said.contains("no lichess token") && said.contains("pegboard lichess-token"),
        "{said}"
    );
    let play = common::pegboard_command()
        .args(["play", "--silent", "--seconds", "2", "--config"])
        .arg(&config)
        .output()
        .expect("runs");
    let said = String::from_utf8_lossy(&play.stderr);
    assert!(!play.status.success());
    assert!(said.contains("pegboard lichess-token"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `lichess-token` on a terminal (a pseudo-terminal from python3's `pty`):
/// the token is read with the echo off, and Ctrl-C while it waits ends it
/// as Ctrl-C does, the terminal's echo put back.
#[test]
fn lichess_token_read_on_a_terminal_is_not_shown_and_ctrl_c_gives_the_echo_back() {
    let dir = common::empty_dir("lichess-token-tty");
    let config = token_config(&dir, &dir.join("state"), "http://127.0.0.1:9");
    let pegboard = common::pegboard_command();
    let mut python = std::process::Command::new("python3");
    python.arg("-c").arg(
        r#"
import os, pty, select, sys, termios, time
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
echo = lambda: bool(termios.tcgetattr(fd)[3] & termios.ECHO)
out, hidden, until = b"", False, time.time() + 30
while time.time() < until and not hidden:
    if select.select([fd], [], [], 0.05)[0]:
        try:
            out += os.read(fd, 4096)
        except OSError:
            break
    hidden = b"press Enter" in out and not echo()
os.write(fd, b"\x03")
_, status = os.waitpid(pid, 0)
print("hidden" if hidden else "shown", os.WTERMSIG(status) if os.WIFSIGNALED(status) else -1,
      "echo" if echo() else "noecho")
print(out.decode(errors="replace"))
"#,
    );
    python.arg(pegboard.get_program()).args(pegboard.get_args());
    for (key, value) in pegboard.get_envs() {
        match value {
            Some(v) => python.env(key, v),
            None => python.env_remove(key),
        };
    }
    let out = python
        .args(["lichess-token", "--config"])
        .arg(&config)
        .output()
        .expect("python3 runs");
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    let first = said.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        format!("hidden {} echo", libc::SIGINT),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("(it is not shown)"), "{said}");
    assert!(!dir.join("state").join("lichess-token").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
