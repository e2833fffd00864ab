//! The shape of the house, held by the source itself: one folder per
//! wing; only the runtime constructs a controller; the wings below it do
//! not reach up into the configuration, the keys or the runtime; the
//! configuration only reads the file; the runtime's functions stay short.

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
    let rules: [(&str, &[&str]); 17] = [
        (
            "src/sensors/",
            &["crate::config", "crate::keys", "crate::runtime"],
        ),
        // The core decides and says what it decided as facts; the words
        // are made at the edge (announce), never here.
        (
            "src/core/",
            &[
                "crate::config",
                "crate::speech",
                "crate::runtime",
                "crate::announce",
            ],
        ),
        (
            "src/display/",
            &["crate::config", "crate::speech", "crate::runtime"],
        ),
        (
            "src/speech/",
            &["crate::config", "crate::sensors", "crate::runtime"],
        ),
        (
            "src/keys/",
            &["crate::config", "crate::speech", "crate::runtime"],
        ),
        // What the game leaves is read and written here; the simulated
        // hands use it, not the other way.
        (
            "src/record/",
            &[
                "crate::config",
                "crate::speech",
                "crate::runtime",
                "crate::sim",
            ],
        ),
        // Braille is made from what the game left (its PGN, its events
        // once in words), in the code a section of its own names: it reads
        // no configuration, makes no words and speaks through no voice.
        (
            "src/braille/",
            &[
                "crate::config",
                "crate::speech",
                "crate::runtime",
                "crate::announce",
            ],
        ),
        (
            "src/sim/",
            &["crate::config", "crate::speech", "crate::runtime"],
        ),
        // The server knows no game: the mirror and the console bring their
        // routes, the runtime puts them on it.
        (
            "src/net/",
            &[
                "crate::core",
                "crate::config",
                "crate::mirror",
                "crate::console",
                "crate::runtime",
            ],
        ),
        (
            "src/mirror/",
            &["crate::console", "crate::config", "crate::runtime"],
        ),
        (
            "src/console/",
            &["crate::mirror", "crate::config", "crate::runtime"],
        ),
        // The hall's hub follows what each board's pegboard serves and
        // holds no second copy of the rules: it knows no game.
        (
            "src/hall/",
            &[
                "crate::core",
                "crate::speech",
                "crate::console",
                "crate::runtime",
            ],
        ),
        // The engine speaks UCI and knows no game: the runtime asks it
        // and hands its moves to the game.
        (
            "src/engine/",
            &[
                "crate::core",
                "crate::config",
                "crate::speech",
                "crate::runtime",
            ],
        ),
        // lichess's streams are read here and know no game: the runtime
        // hands what they say to it.
        (
            "src/lichess/",
            &[
                "crate::core",
                "crate::config",
                "crate::speech",
                "crate::runtime",
            ],
        ),
        // hw-test's and calibrate's judgement is pure: the runtime reads
        // the board for it.
        (
            "src/hwcheck/",
            &["crate::config", "crate::speech", "crate::runtime"],
        ),
        // The openings' classification is read here and knows no game:
        // the runtime looks the game up in it and hands the code to it.
        (
            "src/openings/",
            &[
                "crate::config",
                "crate::speech",
                "crate::runtime",
                "crate::core::controller",
                "crate::announce",
            ],
        ),
        // A leaf: every wing may use it, it uses none.
        ("src/text/", &["crate::"]),
    ];
    for (wing, above) in rules {
        for (name, text) in all().iter().filter(|(n, _)| n.starts_with(wing)) {
            // A wing's own tests may drive the whole (a replay through the
            // runtime to feed the mirror); its code may not.
            let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
            for up in above {
                assert!(!text.contains(up), "{name} uses {up}");
            }
        }
    }
}

#[test]
fn the_core_makes_no_sentence() {
    // The core's events say what happened as facts: no phrase table, no
    // template, no phrasebook in its code (its tests may read the words
    // the edge makes of its facts).
    for (name, text) in all().iter().filter(|(n, _)| n.starts_with("src/core/")) {
        let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
        for reach in ["Phrasebook", "Vocabulary", "fill(", "Said::Text("] {
            assert!(
                !text.contains(reach) || (name == "src/core/said.rs" && reach == "Said::Text("),
                "{name} makes words: {reach}"
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

#[test]
fn the_source_holds_one_folder_per_wing_and_no_loose_files() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut folders = Vec::new();
    let mut loose = Vec::new();
    for entry in std::fs::read_dir(&src).expect("src") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .to_string();
        if path.is_dir() {
            folders.push(name);
        } else if name != "lib.rs" && name != "main.rs" {
            loose.push(name);
        }
    }
    assert!(
        loose.is_empty(),
        "loose files at the top of src/: {loose:?}"
    );
    folders.sort();
    assert_eq!(
        folders,
        [
            "announce", "braille", "cli", "config", "console", "core", "display", "engine", "hall",
            "hwcheck", "keys", "lichess", "mirror", "net", "openings", "record", "runtime",
            "sensors", "sim", "speech", "text", "trace",
        ],
        "a new wing goes into docs/architecture.md, and here"
    );
    // Simulation is one wing: no second "sim" module elsewhere.
    let sims: Vec<String> = all()
        .into_iter()
        .map(|(name, _)| name)
        .filter(|n| n.ends_with("/sim.rs") || (n.contains("/sim/") && !n.starts_with("src/sim/")))
        .collect();
    assert!(sims.is_empty(), "simulation outside src/sim/: {sims:?}");
}

/// The core's modules each file in the core uses, by name.
fn core_uses(name: &str, text: &str, modules: &[String]) -> Vec<String> {
    // In src/core/X/Y.rs, super:: is X; in src/core/X.rs and
    // src/core/X/mod.rs it is the core.
    let nested = name.matches('/').count() > 2 && !name.ends_with("/mod.rs");
    let mut prefixes = vec!["crate::core::".to_string()];
    prefixes.push(if nested { "super::super::" } else { "super::" }.to_string());
    let mut used = Vec::new();
    for prefix in prefixes {
        for (at, _) in text.match_indices(&prefix) {
            let rest = &text[at + prefix.len()..];
            let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                let group = group.split('}').next().unwrap_or("");
                group
                    .split(',')
                    .map(|s| s.trim().split("::").next().unwrap_or(""))
                    .collect()
            } else {
                vec![
                    rest.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .next()
                        .unwrap_or(""),
                ]
            };
            for n in names {
                if modules.iter().any(|m| m == n) && !used.iter().any(|u| u == n) {
                    used.push(n.to_string());
                }
            }
        }
    }
    used
}

#[test]
fn the_cores_modules_use_each_other_without_a_loop() {
    let files: Vec<(String, String)> = all()
        .into_iter()
        .filter(|(n, _)| n.starts_with("src/core/") && n != "src/core/mod.rs")
        .collect();
    let module_of = |name: &str| {
        let rest = name.trim_start_matches("src/core/");
        rest.split('/')
            .next()
            .unwrap_or(rest)
            .trim_end_matches(".rs")
            .to_string()
    };
    let mut modules: Vec<String> = files.iter().map(|(n, _)| module_of(n)).collect();
    modules.sort();
    modules.dedup();
    assert!(modules.len() >= 10, "{modules:?}");
    let mut edges: Vec<(String, String)> = Vec::new();
    for (name, text) in &files {
        // Tests may reach anywhere; only the code's own uses count.
        let code = text.split("#[cfg(test)]").next().unwrap_or(text);
        let from = module_of(name);
        for to in core_uses(name, code, &modules) {
            if to != from && !edges.contains(&(from.clone(), to.clone())) {
                edges.push((from.clone(), to));
            }
        }
    }
    // settings.rs once took BLIND_BOARD from the controller, which takes
    // its settings: the loop this test is for.
    assert!(edges.contains(&("controller".to_string(), "settings".to_string())));
    // Depth-first search for a way back to where it started.
    for start in &modules {
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        while let Some((at, path)) = stack.pop() {
            for (_, to) in edges.iter().filter(|(f, _)| *f == at) {
                assert!(
                    to != start,
                    "an import loop in the core: {} → {to}",
                    path.join(" → ")
                );
                if !path.contains(to) {
                    let mut longer = path.clone();
                    longer.push(to.clone());
                    stack.push((to.clone(), longer));
                }
            }
        }
    }
}

#[test]
fn the_configuration_only_reads_the_file() {
    // Each table's type belongs to the wing it configures; config/ holds
    // the whole file's type, its errors and the checks across tables, and
    // makes none of the parts (the runtime puts them together).
    let config: Vec<(String, String)> = all()
        .into_iter()
        .filter(|(n, _)| n.starts_with("src/config/") && !n.ends_with("/tests.rs"))
        .collect();
    assert!(!config.is_empty());
    let mut types = Vec::new();
    for (name, text) in &config {
        for line in text.lines() {
            let line = line.trim_start();
            for kind in ["pub struct ", "pub enum ", "struct ", "enum "] {
                if let Some(rest) = line.strip_prefix(kind) {
                    let ty: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    types.push(format!("{name}: {ty}"));
                }
            }
        }
        for made in [
            "-> Settings",
            "-> Phrasebook",
            "-> View",
            "-> Delivery",
            "-> VoiceLanguage",
            "crate::runtime",
        ] {
            assert!(!text.contains(made), "{name} makes a part: {made}");
        }
    }
    types.sort();
    assert_eq!(
        types,
        [
            "src/config/locate.rs: ConfigError",
            "src/config/locate.rs: Locator",
            "src/config/mod.rs: Config",
        ],
        "a table's type belongs to its wing"
    );
    // And the runtime puts the parts together in one place.
    let parts: Vec<String> = all()
        .into_iter()
        .filter(|(n, t)| {
            n.starts_with("src/")
                && n != "src/runtime/parts.rs"
                && t.contains("sections::settings(")
        })
        .map(|(n, _)| n)
        .collect();
    assert!(
        parts.is_empty(),
        "settings made outside runtime::parts: {parts:?}"
    );
}

#[test]
fn the_runtimes_functions_each_do_one_thing() {
    // The run loops are put together from named steps; none grows back
    // into one long function (play's loop was once 204 lines).
    const MOST: usize = 100;
    for (name, text) in all().iter().filter(|(n, _)| n.starts_with("src/runtime/")) {
        let code = text.split("#[cfg(test)]").next().unwrap_or(text);
        let lines: Vec<&str> = code.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            let indent = &line[..line.len() - trimmed.len()];
            let is_fn = [
                "fn ",
                "pub fn ",
                "pub(crate) fn ",
                "async fn ",
                "pub async fn ",
            ]
            .iter()
            .any(|p| trimmed.starts_with(p));
            if !is_fn || trimmed.ends_with(';') {
                continue;
            }
            let close = format!("{indent}}}");
            let length = lines[i..]
                .iter()
                .position(|l| *l == close)
                .map_or(0, |n| n + 1);
            assert!(
                length <= MOST,
                "{name}:{}: a function of {length} lines; split it by step",
                i + 1
            );
        }
    }
}
