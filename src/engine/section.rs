//! `[engine]`: the chess engine a player can play against, how strong it
//! plays and how long it thinks.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::book::{Book, BookError, DEBIAN_BOOK};
use super::strength::{DEFAULT_STEP, STEPS, Step, step_of};

/// `[engine]`: a UCI engine, played when a `[game] …_moves_on` is
/// `"engine"`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EngineConfig {
    /// The engine's program: a path, or a name looked for on `PATH` and
    /// then in `/usr/games` (where Debian puts `stockfish`).
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// UCI options handed through as they are (`Threads`, `Hash` …).
    pub options: BTreeMap<String, OptionValue>,
    /// Its strength as one of pegboard's steps, 1 (a beginner can win) to
    /// 8 (full strength); the second when no strength is given. Each step
    /// is named by a rough human strength (see `engine::strength`).
    pub step: Option<u8>,
    /// The Polyglot opening book it plays the opening from, at once: a
    /// path, or "" for none. Without it, Debian's `gnuchess-book` when it
    /// is installed.
    pub book: Option<String>,
    /// Its strength as the engine's own Elo rating (an engine's rating,
    /// far above a person's of the same number), through
    /// `UCI_LimitStrength` and
    /// `UCI_Elo` where the engine offers them. Below the lowest rating the
    /// engine plays, it plays at its lowest skill and searches one ply
    /// deep, so that a beginner can win.
    pub elo: Option<u32>,
    /// Its strength as Stockfish's `Skill Level`, 0 to 20 (instead of
    /// `elo`).
    pub level: Option<u32>,
    /// The deepest it searches, in plies.
    pub depth: Option<u32>,
    /// The most positions it searches for one move.
    pub nodes: Option<u64>,
    /// How long it thinks for each move, in ms, its move made as soon as
    /// it has one. Without it the engine takes the time a person of its
    /// strength would: a few seconds in the opening, more in a hard
    /// position, a fair share of its clock and never much of it (see
    /// `engine::pace`).
    pub movetime_ms: Option<u64>,
    /// The engine's priority below pegboard's (`nice`, 0 to 19): the scan
    /// loop is never late because the engine thinks.
    pub nice: u8,
    /// How deep the engine looks, in plies, for a hint, an evaluation, a
    /// draw offer and the review after the game. It looks at full
    /// strength then, whatever it plays at.
    pub analysis_depth: u32,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            command: "stockfish".to_string(),
            args: Vec::new(),
            options: BTreeMap::new(),
            step: None,
            book: None,
            elo: None,
            level: None,
            depth: None,
            nodes: None,
            movetime_ms: None,
            nice: 10,
            analysis_depth: 14,
        }
    }
}

/// A UCI option's value: a number, a switch or text.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum OptionValue {
    Number(i64),
    Switch(bool),
    Text(String),
}

impl std::fmt::Display for OptionValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionValue::Number(n) => write!(f, "{n}"),
            OptionValue::Switch(b) => write!(f, "{b}"),
            OptionValue::Text(t) => f.write_str(t),
        }
    }
}

/// The deepest analysis asked for: deeper takes minutes a move.
const MAX_ANALYSIS_DEPTH: u32 = 40;

/// The options that limit an engine's strength, left out when it analyses.
const STRENGTH_OPTIONS: [&str; 3] = ["UCI_LimitStrength", "UCI_Elo", "Skill Level"];

/// Where a program named without a path is looked for after `PATH`.
const GAMES: [&str; 2] = ["/usr/games", "/usr/local/games"];

impl EngineConfig {
    /// The engine's program, found: the path given, or the name on `PATH`
    /// or in the games folders. `None` when there is none.
    pub fn program(&self) -> Option<PathBuf> {
        let command = Path::new(&self.command);
        if self.command.contains('/') {
            return command.is_file().then(|| command.to_path_buf());
        }
        let path = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&path)
            .chain(GAMES.iter().map(PathBuf::from))
            .map(|dir| dir.join(command))
            .find(|p| p.is_file())
    }

    /// Checks of the values alone, each with the key it is about.
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if self.command.trim().is_empty() {
            out.push(("command", "the engine's program is missing".to_string()));
        }
        if let Some(level) = self.level
            && level > 20
        {
            out.push(("level", format!("{level} is past 20, the strongest level")));
        }
        let given = [
            self.step.is_some(),
            self.elo.is_some(),
            self.level.is_some(),
        ];
        if given.iter().filter(|&&g| g).count() > 1 {
            out.push((
                if self.step.is_some() { "step" } else { "level" },
                "give the strength one way: as step, elo or level".to_string(),
            ));
        }
        if let Some(step) = self.step
            && step_of(step).is_none()
        {
            out.push((
                "step",
                format!("{step} is not a step from 1 to {}", STEPS.len()),
            ));
        }
        if let Some(book) = self.book.as_deref().filter(|b| !b.is_empty())
            && let Err(why) = Book::open(Path::new(book))
        {
            out.push(("book", why.to_string()));
        }
        if self.nice > 19 {
            out.push((
                "nice",
                format!("{} is past 19, the lowest priority", self.nice),
            ));
        }
        if !(1..=MAX_ANALYSIS_DEPTH).contains(&self.analysis_depth) {
            out.push((
                "analysis_depth",
                format!(
                    "{} is not from 1 to {MAX_ANALYSIS_DEPTH} plies",
                    self.analysis_depth
                ),
            ));
        }
        if self.movetime_ms == Some(0) {
            out.push((
                "movetime_ms",
                "an engine needs some time to think".to_string(),
            ));
        }
        if self.depth == Some(0) || self.nodes == Some(0) {
            out.push((
                if self.depth == Some(0) {
                    "depth"
                } else {
                    "nodes"
                },
                "an engine must search at least one".to_string(),
            ));
        }
        out
    }

    /// The same engine at full strength, for analysis: no Elo, level,
    /// depth, nodes or move time, and none of the options that weaken it.
    pub fn analyst(&self) -> EngineConfig {
        let mut options = self.options.clone();
        options.retain(|name, _| {
            !STRENGTH_OPTIONS
                .iter()
                .any(|s| s.eq_ignore_ascii_case(name))
        });
        EngineConfig {
            options,
            step: step_of(STEPS.len() as u8).map(|s| s.number),
            elo: None,
            level: None,
            depth: None,
            nodes: None,
            movetime_ms: None,
            ..self.clone()
        }
    }

    /// The step pegboard plays the engine at: the one given, else the
    /// default one; `None` when the engine weakens itself (`elo`,
    /// `level`).
    pub fn step_played(&self) -> Option<Step> {
        if self.elo.is_some() || self.level.is_some() {
            return None;
        }
        step_of(self.step.unwrap_or(DEFAULT_STEP))
    }

    /// The opening book: the one named, else Debian's when it is there;
    /// `None` for "" or none. `Err` saying why a book named cannot be read.
    pub fn opening_book(&self) -> Result<Option<Book>, BookError> {
        match self.book.as_deref() {
            Some("") => Ok(None),
            Some(path) => Book::open(Path::new(path)).map(Some),
            None => Ok(Book::open(Path::new(DEBIAN_BOOK)).ok()),
        }
    }

    /// How the engine's strength is named on a scoresheet, in English:
    /// "step 2, about 1100", "Elo 1500".
    pub fn strength(&self) -> String {
        match (self.step_played(), self.elo, self.level) {
            (Some(step), _, _) => match (step.rating, step.skill) {
                (Some(r), _) => format!("step {}, about {r}", step.number),
                (None, Some(_)) => format!("step {}, beginner", step.number),
                (None, None) => format!("step {}, full strength", step.number),
            },
            (None, Some(elo), _) => format!("Elo {elo}"),
            (None, None, Some(level)) => format!("level {level}"),
            (None, None, None) => "full strength".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_reads_with_its_defaults_and_options() {
        let c: EngineConfig = toml::from_str(
            "command = \"/bin/true\"\nelo = 1500\noptions = { Threads = 1, Ponder = false, \
             SyzygyPath = \"/tb\" }\n",
        )
        .expect("reads");
        assert_eq!(c.nice, 10);
        assert_eq!(c.elo, Some(1500));
        let written: Vec<String> = c.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        assert_eq!(written, ["Ponder=false", "SyzygyPath=/tb", "Threads=1"]);
        assert_eq!(c.program(), Some(PathBuf::from("/bin/true")));
        assert!(c.problems().is_empty());
        assert_eq!(c.strength(), "Elo 1500");
    }

    #[test]
    fn a_program_is_looked_for_on_the_path_and_wrong_values_are_named() {
        let c = EngineConfig {
            command: "sh".into(),
            ..EngineConfig::default()
        };
        assert!(c.program().is_some_and(|p| p.ends_with("sh")));
        let missing = EngineConfig {
            command: "no-such-engine-here".into(),
            ..EngineConfig::default()
        };
        assert_eq!(missing.program(), None);
        let wrong = EngineConfig {
            level: Some(25),
            elo: Some(1200),
            nice: 30,
            ..EngineConfig::default()
        };
        let keys: Vec<&str> = wrong.problems().iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, ["level", "level", "nice"]);
        let wrong = EngineConfig {
            step: Some(9),
            book: Some("/no/such/book.bin".into()),
            ..EngineConfig::default()
        };
        let keys: Vec<&str> = wrong.problems().iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, ["step", "book"]);
    }

    #[test]
    fn without_a_strength_the_engine_plays_the_gentle_second_step() {
        let c = EngineConfig::default();
        assert_eq!(c.step_played().map(|s| s.number), Some(2));
        assert_eq!(c.strength(), "step 2, about 1100");
        let first = EngineConfig {
            step: Some(1),
            ..EngineConfig::default()
        };
        assert_eq!(first.strength(), "step 1, beginner");
        assert_eq!(c.analyst().strength(), "step 8, full strength");
        assert_eq!(c.analyst().step_played().and_then(|s| s.skill), None);
        let own = EngineConfig {
            elo: Some(1500),
            ..EngineConfig::default()
        };
        assert_eq!(own.step_played(), None);
        assert_eq!(
            EngineConfig {
                book: Some(String::new()),
                ..EngineConfig::default()
            }
            .opening_book()
            .map(|b| b.is_some()),
            Ok(false)
        );
    }
}
