//! The shape of the house, held by the source itself: only the runtime
//! constructs a controller, and the wings below it do not reach up into
//! the configuration, the keys or the runtime.

use std::path::{Path, PathBuf};

fn sources(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

fn all() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("source");
            let name = p
                .strip_prefix(root)
                .expect("under the root")
                .display()
                .to_string();
            (name, text)
        })
        .collect()
}

#[test]
fn only_the_runtime_constructs_a_controller() {
    let outside: Vec<String> = all()
        .into_iter()
        .filter(|(name, text)| {
            text.contains("Controller::new(")
                && !name.starts_with("src/runtime/")
                && !name.starts_with("src/core/")
        })
        .map(|(name, _)| name)
        .collect();
    assert!(outside.is_empty(), "a Controller is made in {outside:?}");
    // And the runtime does make it: the check above is not vacuous.
    assert!(
        all()
            .iter()
            .any(|(n, t)| n.starts_with("src/runtime/") && t.contains("Controller::new("))
    );
}

#[test]
fn the_wings_below_the_runtime_do_not_reach_up() {
    for (wing, above) in [
        (
            "src/sensors/",
            ["crate::config", "crate::buttons", "crate::runtime"],
        ),
        (
            "src/core/",
            ["crate::config", "crate::speech", "crate::runtime"],
        ),
        (
            "src/display/",
            ["crate::config", "crate::speech", "crate::runtime"],
        ),
        (
            "src/speech/",
            ["crate::config", "crate::sensors", "crate::runtime"],
        ),
    ] {
        for (name, text) in all().iter().filter(|(n, _)| n.starts_with(wing)) {
            for up in above {
                assert!(!text.contains(up), "{name} uses {up}");
            }
        }
    }
}

#[test]
fn the_core_asks_the_phrasebook_for_sentences() {
    // Phrase tables and templates belong to the phrasebook: the core asks
    // it for sentences and never fills a template itself.
    for (name, text) in all().iter().filter(|(n, _)| n.starts_with("src/core/")) {
        for reach in ["words.words", "phrases::fill", ".phrases."] {
            assert!(
                !text.contains(reach),
                "{name} reaches into the phrase tables: {reach}"
            );
        }
    }
}

#[test]
fn library_errors_are_types_callers_can_branch_on() {
    // No public function of the library answers with a bare string as its
    // error (the command line, in src/cli, prints them and may).
    for (name, text) in all()
        .iter()
        .filter(|(n, _)| !n.starts_with("src/cli/") && n != "src/main.rs")
    {
        let mut signature = String::new();
        for line in text.lines() {
            let line = line.trim_start();
            if line.starts_with("pub fn") || !signature.is_empty() {
                signature.push_str(line);
                if line.contains('{') || line.ends_with(';') {
                    assert!(
                        !(signature.contains("Result<") && signature.contains(", String>")),
                        "{name}: {signature}"
                    );
                    signature.clear();
                }
            }
        }
    }
}
