//! The documentation tried as a new user would: every command in a shell
//! block of the README and the docs is run as written (or, where it needs
//! the Pi, a board or root, is named below with the reason), the tiny
//! trace of the organiser's page replays to what the text says, and every
//! link between the documents leads to a file and a heading that exist.

mod common;

#[path = "support/audio.rs"]
mod audio;

use std::path::{Path, PathBuf};
use std::process::Output;

const DOCS: &[&str] = &[
    "README.md",
    "docs/player.md",
    "docs/assistant-and-arbiter.md",
    "docs/organiser.md",
    "docs/hardware.md",
    "docs/developer.md",
    "hardware/README.md",
    "docs/architecture.md",
    "docs/cross-build.md",
    "docs/laws.md",
    "docs/trace-format.md",
    "sounds/README.md",
    "tests/README.md",
];

/// Commands the documents show that are not run here, and why. A command
/// a document adds must be run by this test or listed here.
const NOT_RUN_HERE: &[(&str, &str)] = &[
    (
        "bash .ci/demo.sh",
        "the demo: tests/cli.rs plays it through `pegboard demo`",
    ),
    (
        "bash .ci/test.sh",
        "the whole suite: this test is part of it",
    ),
    (
        "bash .ci/cross.sh",
        "the Pi build under qemu: run by .ci/test.sh",
    ),
    (
        "sudo hardware/install.sh",
        "installs onto a Raspberry Pi as root",
    ),
    (
        "sudo systemctl enable --now pegboard",
        "starts the service on a Pi",
    ),
    ("scp target/", "copies the Pi's binary to a Pi"),
    ("apt-get install espeak-ng sox", "installs packages as root"),
    (
        "sudo groupadd -f -r brlapi",
        "makes the group brltty lets in, as root (tests/braille_play.rs reaches a real brltty \
         with no authorization instead)",
    ),
    (
        "sudo usermod -a -G brlapi pegboard",
        "puts the service's user in that group, as root",
    ),
    (
        "python3 tools/make-clips.py",
        "remakes the shipped clips in the source tree",
    ),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every line of every ```sh block, its comment cut off.
fn shell_lines(doc: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(doc)).expect("document");
    let mut inside = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            inside = trimmed == "```sh" && !inside;
            continue;
        }
        if inside {
            let command = match trimmed.find("  #") {
                Some(i) => trimmed[..i].trim_end(),
                None => trimmed,
            };
            if !command.is_empty() && !command.starts_with('#') {
                lines.push(command.to_string());
            }
        }
    }
    lines
}

/// Splits a command line into words, honouring double quotes.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pegboard-readme-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn run(args: &[String], vars: &[(&'static str, String)]) -> Output {
    common::pegboard_command()
        .args(args)
        .envs(vars.iter().cloned())
        .current_dir(root())
        .output()
        .expect("pegboard runs")
}

#[test]
fn every_command_in_the_documents_runs_as_written() {
    let dir = temp_dir("commands");
    // The user's own file the README speaks of: another language and style.
    let my = dir.join("my.toml");
    std::fs::write(&my, "language = \"en\"\n[announce]\nstyle = \"long\"\n").expect("my.toml");
    // What /etc/pegboard/pegboard.toml stands for off the Pi: the setup
    // that runs on every build, a serial scanner (not plugged in here).
    let etc = dir.join("pegboard.toml");
    std::fs::copy(root().join("config/serial-laptop.toml"), &etc).expect("copy");
    // A machine with a sound system, as a user's has: a private PulseAudio
    // (into a null sink) and speech-dispatcher with espeak-ng.
    let sound = audio::AudioEnv::start("readme", true);
    let vars = sound.vars();
    let mut ran = 0;
    for doc in DOCS {
        for line in shell_lines(doc) {
            if let Some((_, why)) = NOT_RUN_HERE.iter().find(|(p, _)| line.starts_with(p)) {
                assert!(!why.is_empty());
                continue;
            }
            let mut args = words(&line);
            assert_eq!(
                args.first().map(String::as_str),
                Some("pegboard"),
                "{doc}: `{line}` is neither run by this test nor listed in NOT_RUN_HERE"
            );
            args.remove(0);
            for a in &mut args {
                if a == "my.toml" {
                    *a = my.to_string_lossy().to_string();
                }
                if a == "/etc/pegboard/pegboard.toml" {
                    *a = etc.to_string_lossy().to_string();
                }
            }
            // `> FILE`: standard output into a file of the test's own.
            let into = args.iter().position(|a| a == ">").map(|i| {
                let file = dir.join(args.get(i + 1).cloned().unwrap_or_default());
                args.truncate(i);
                file
            });
            let command = args.first().cloned().unwrap_or_default();
            // The commands that run until stopped run for a moment.
            if matches!(command.as_str(), "play" | "hw-test" | "calibrate") {
                args.extend(["--seconds", "1", "--silent"].map(String::from));
            }
            if command == "hall" && !args.iter().any(|a| a == "--keep-token") {
                args.extend(["--seconds", "1"].map(String::from));
            }
            let out = run(&args, &vars);
            let said = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            match command.as_str() {
                // With no board lifted, calibration times out and leaves
                // the file as it was, as its help says.
                "calibrate" => {
                    assert_eq!(out.status.code(), Some(2), "{doc}: `{line}`: {said}");
                    assert!(
                        said.contains("[board] is unchanged"),
                        "{doc}: `{line}`: {said}"
                    );
                }
                _ => assert!(out.status.success(), "{doc}: `{line}`: {said}"),
            }
            if let Some(file) = into {
                assert!(!out.stdout.is_empty(), "{doc}: `{line}` printed nothing");
                std::fs::write(&file, &out.stdout).expect("the output file");
            }
            if command == "say" {
                assert!(said.contains("spoken by:"), "{doc}: `{line}`: {said}");
            }
            ran += 1;
        }
    }
    assert!(ran >= 10, "only {ran} commands found");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_documents_tiny_trace_replays_as_the_text_says() {
    let readme = std::fs::read_to_string(root().join("docs/organiser.md")).expect("the page");
    let start = readme.find("```json\n").expect("the tiny trace") + "```json\n".len();
    let end = start + readme[start..].find("```").expect("its end");
    let dir = temp_dir("tiny");
    let tiny = dir.join("tiny.jsonl");
    std::fs::write(&tiny, &readme[start..end]).expect("tiny.jsonl");
    // "pegboard replay tiny.jsonl --until 2000 … says touch (g1, at 920 ms)
    // and then move (Nf3, Springer Felix drei, at 1520 ms)".
    assert!(readme.contains("`pegboard replay tiny.jsonl --until 2000`"));
    let out = run(
        &[
            "replay".into(),
            tiny.to_string_lossy().to_string(),
            "--until".into(),
            "2000".into(),
        ],
        &[],
    );
    assert!(out.status.success());
    let events: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let touch: Vec<_> = events.iter().filter(|e| e["event"] == "touch").collect();
    let moves: Vec<_> = events.iter().filter(|e| e["event"] == "move").collect();
    assert_eq!(
        (touch.len(), &touch[0]["square"], &touch[0]["t"]),
        (1, &"g1".into(), &920.into())
    );
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0]["san"], "Nf3");
    assert_eq!(moves[0]["say"], "Springer Felix drei");
    assert_eq!(moves[0]["t"], 1520);
    // "Without --until the replay ends at the last line … before that
    // window has passed."
    let out = run(&["replay".into(), tiny.to_string_lossy().to_string()], &[]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("\"move\""));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every test `docs/laws.md` names for a clause exists: `file::name` a
/// `fn name` in `tests/file.rs`, `path::tests::name` one in `src/path.rs`
/// (or `src/path/mod.rs`), and a bare `file` the file `tests/file.rs`. The
/// table is the promise to an arbiter: a test renamed or gone fails here.
#[test]
fn every_test_the_laws_table_names_exists() {
    let text = std::fs::read_to_string(root().join("docs/laws.md")).expect("docs/laws.md");
    let names: Vec<&str> = text
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == ':')
        })
        .collect();
    let mut checked = 0;
    for name in names {
        let parts: Vec<&str> = name.split("::").collect();
        let (file, function) = match parts.as_slice() {
            [file] => {
                let path = root().join(format!("tests/{file}.rs"));
                if path.exists() {
                    checked += 1;
                }
                continue;
            }
            [file, function] => (root().join(format!("tests/{file}.rs")), *function),
            [module @ .., "tests", function] => {
                let path = module.join("/");
                let plain = root().join(format!("src/{path}.rs"));
                let file = if plain.exists() {
                    plain
                } else {
                    root().join(format!("src/{path}/mod.rs"))
                };
                (file, *function)
            }
            _ => continue,
        };
        let source = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("{name}: {}: {e}", file.display()));
        assert!(
            source.contains(&format!("fn {function}(")),
            "docs/laws.md names {name}, which {} does not hold",
            file.display()
        );
        checked += 1;
    }
    assert!(checked > 40, "only {checked} tests named");
}

/// The anchor a heading gets (as GitHub makes it): lowercase, letters,
/// digits, `-` and `_` kept, spaces made `-`, the rest dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// A document's text outside its fenced blocks.
fn prose(doc: &str) -> String {
    let text = std::fs::read_to_string(root().join(doc)).unwrap_or_else(|e| panic!("{doc}: {e}"));
    text.split("```").step_by(2).collect::<Vec<_>>().join("\n")
}

#[test]
fn every_link_between_the_documents_leads_to_a_file_and_heading_that_exist() {
    let mut checked = 0;
    for doc in DOCS {
        let text = prose(doc);
        let here = Path::new(doc).parent().unwrap_or(Path::new(""));
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = &rest[..end];
            if target.contains(char::is_whitespace)
                || target.starts_with("http:")
                || target.starts_with("https:")
                || target.starts_with("mailto:")
            {
                continue;
            }
            let (path, heading) = target.split_once('#').unwrap_or((target, ""));
            let file = if path.is_empty() {
                PathBuf::from(doc)
            } else {
                here.join(path)
            };
            let full = root().join(&file);
            assert!(full.exists(), "{doc}: the link ({target}) leads nowhere");
            if !heading.is_empty() {
                let anchors: Vec<String> = prose(&file.to_string_lossy())
                    .lines()
                    .filter_map(|l| l.strip_prefix('#'))
                    .map(|h| anchor(h.trim_start_matches('#')))
                    .collect();
                assert!(
                    anchors.iter().any(|a| a == heading),
                    "{doc}: the link ({target}) names no heading of {}",
                    file.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 50, "only {checked} links found");
}
