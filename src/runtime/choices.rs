//! What the player chose in the spoken menu, kept in the state directory
//! (`choices.toml`, beside the games) and never in the configuration
//! file: `play` starts with it, and it wins over the configuration until
//! the file is deleted. It is written when a game begins with new
//! choices, whole under another name, synced, then put in place: a power
//! cut leaves the old file or the new one, never half of one.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use crate::announce::vocabulary::Vocabulary;
use crate::config::Config;
use crate::core::clock::TimeControl;
use crate::core::settings::{Choices, OnlineWay, Opponent, Strength};

/// A choices file that cannot be read or written: the file, the line
/// where one is known, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChoicesError(pub String);

impl std::fmt::Display for ChoicesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ChoicesError {}

/// The file the choices are kept in, in the journal directory.
pub const CHOICES_FILE: &str = "choices.toml";

/// The file as it is written and read.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Stored {
    /// "person", "engine" or "lichess".
    opponent: String,
    /// The engine's step, 1 to 8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    step: Option<u8>,
    /// The engine's own Elo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    elo: Option<u32>,
    /// The engine's skill level, or lichess's AI's level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    level: Option<u32>,
    /// On lichess: "seek", "ai", "challenge" or "accept"; the friend
    /// challenged; whether rated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    find: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    friend: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rated: Option<bool>,
    /// The PGN form, or "none".
    time_control: String,
    /// "white" or "black": the blind player's colour.
    color: String,
    rate: i32,
    volume: u32,
    language: String,
}

/// Where the choices are kept: the journal directory.
pub fn path(config: &Config) -> Option<PathBuf> {
    crate::runtime::keeper::journal_dir(config).map(|dir| dir.join(CHOICES_FILE))
}

/// The choices kept at `path`, if there is a file: `Err` names the file,
/// the line and what is wrong (the configuration is then played as it
/// is).
pub fn load(path: &Path) -> Result<Option<Choices>, ChoicesError> {
    read(path).map_err(ChoicesError)
}

fn read(path: &Path) -> Result<Option<Choices>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let at = |line: Option<usize>, what: String| match line {
        Some(line) => format!("{}:{line}: {what}", path.display()),
        None => format!("{}: {what}", path.display()),
    };
    let stored: Stored = toml::from_str(&text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
        at(line, e.message().to_string())
    })?;
    let line_of = |key: &str| {
        text.lines()
            .position(|l| l.trim_start().starts_with(key))
            .map(|i| i + 1)
    };
    let bad = |key: &str, what: String| at(line_of(key), format!("{key}: {what}"));
    let opponent = opponent(&stored, &bad)?;
    let control = match stored.time_control.as_str() {
        "none" => None,
        text => Some(TimeControl::parse_pgn(text).map_err(|e| bad("time_control", e.0))?),
    };
    let color = match stored.color.as_str() {
        "white" => Color::White,
        "black" => Color::Black,
        other => {
            return Err(bad(
                "color",
                format!(
                    "\"{}\" is neither \"white\" nor \"black\"",
                    crate::text::quote::short(other)
                ),
            ));
        }
    };
    if !(-100..=100).contains(&stored.rate) {
        return Err(bad(
            "rate",
            format!("{} is outside -100 … 100", stored.rate),
        ));
    }
    if stored.volume > 100 {
        return Err(bad("volume", format!("{} is over 100", stored.volume)));
    }
    let known =
        Vocabulary::built_in(&stored.language).is_some() || Path::new(&stored.language).is_file();
    if !known {
        return Err(bad(
            "language",
            format!(
                "\"{}\" is no built-in language and no language file",
                crate::text::quote::short(&stored.language)
            ),
        ));
    }
    Ok(Some(Choices {
        opponent,
        control,
        color,
        rate: stored.rate,
        volume: stored.volume,
        language: stored.language,
    }))
}

/// The opponent `stored` names; `bad` says what is wrong at a key.
fn opponent(stored: &Stored, bad: &dyn Fn(&str, String) -> String) -> Result<Opponent, String> {
    Ok(match stored.opponent.as_str() {
        "person" => Opponent::Person,
        "engine" => Opponent::Engine(Strength::configured(stored.step, stored.elo, stored.level)),
        "lichess" => {
            let rated = stored.rated.unwrap_or(false);
            Opponent::Lichess(match stored.find.as_deref() {
                Some("seek") | None => OnlineWay::Seek { rated },
                Some("ai") => OnlineWay::Ai {
                    level: stored
                        .level
                        .and_then(|l| u8::try_from(l).ok())
                        .filter(|l| (1..=8).contains(l))
                        .ok_or_else(|| {
                            bad("level", "lichess's AI needs a level from 1 to 8".into())
                        })?,
                },
                Some("challenge") => OnlineWay::Friend {
                    name: stored
                        .friend
                        .clone()
                        .filter(|f| !f.is_empty())
                        .ok_or_else(|| {
                            bad("find", "a challenge needs the `friend` challenged".into())
                        })?,
                    rated,
                },
                Some("accept") => OnlineWay::Accept,
                Some(other) => {
                    return Err(bad(
                        "find",
                        format!(
                            "\"{}\" is not \"seek\", \"ai\", \"challenge\" or \"accept\"",
                            crate::text::quote::short(other)
                        ),
                    ));
                }
            })
        }
        other => {
            return Err(bad(
                "opponent",
                format!(
                    "\"{}\" is not \"person\", \"engine\" or \"lichess\"",
                    crate::text::quote::short(other)
                ),
            ));
        }
    })
}

/// Keeps `choices` at `path`: written whole beside it, synced, renamed
/// over it, and the directory synced.
pub fn store(path: &Path, choices: &Choices) -> Result<(), ChoicesError> {
    write(path, choices).map_err(ChoicesError)
}

fn write(path: &Path, choices: &Choices) -> Result<(), String> {
    let crate::core::settings::Written {
        opponent,
        step,
        elo,
        level,
    } = choices.opponent.written();
    let way = match &choices.opponent {
        Opponent::Lichess(way) => Some(way),
        _ => None,
    };
    let stored = Stored {
        opponent: opponent.to_string(),
        step,
        elo,
        level,
        find: way.map(|w| w.find().to_string()),
        friend: way.and_then(|w| match w {
            OnlineWay::Friend { name, .. } => Some(name.clone()),
            _ => None,
        }),
        rated: way.map(OnlineWay::rated),
        time_control: choices
            .control
            .as_ref()
            .map_or_else(|| "none".to_string(), |c| c.to_pgn()),
        color: match choices.color {
            Color::White => "white",
            Color::Black => "black",
        }
        .to_string(),
        rate: choices.rate,
        volume: choices.volume,
        language: choices.language.clone(),
    };
    let fail = |e: std::io::Error| format!("{}: {e}", path.display());
    let body = toml::to_string(&stored).map_err(|e| format!("{}: {e}", path.display()))?;
    let text = format!(
        "# What the player chose in the spoken menu: each game starts with it,\n\
         # whatever the configuration file says. Delete this file to play as the\n\
         # configuration says again.\n{body}"
    );
    crate::record::journal::replace_file(path, &text).map_err(fail)
}

/// The configuration with the kept choices over it, if there are any;
/// the second value is a note for the log when the file could not be
/// used (the configuration is then played as it is).
pub fn overlaid(config: &Config) -> (Config, Option<String>) {
    let Some(path) = path(config) else {
        return (config.clone(), None);
    };
    match load(&path) {
        Ok(Some(choices)) => (crate::runtime::parts::with_choices(config, &choices), None),
        Ok(None) => (config.clone(), None),
        Err(e) => (
            config.clone(),
            Some(format!(
                "{e}; the spoken menu's choices are left aside, the configuration is played"
            )),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "pegboard-choices-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    }

    #[test]
    fn choices_are_kept_and_read_back_whole() {
        let path = dir().join(CHOICES_FILE);
        assert_eq!(load(&path), Ok(None));
        let choices = Choices {
            opponent: Opponent::Engine(Strength::Step(3)),
            control: TimeControl::parse_pgn("900+10").ok(),
            color: Color::Black,
            rate: -20,
            volume: 70,
            language: "de".into(),
        };
        store(&path, &choices).expect("stored");
        assert_eq!(load(&path), Ok(Some(choices.clone())));
        assert!(!path.with_extension("toml.new").exists());
        // Each way to an opponent on lichess too.
        for way in [
            OnlineWay::Seek { rated: true },
            OnlineWay::Ai { level: 5 },
            OnlineWay::Friend {
                name: "bert".into(),
                rated: false,
            },
            OnlineWay::Accept,
        ] {
            let online = Choices {
                opponent: Opponent::Lichess(way),
                ..choices.clone()
            };
            store(&path, &online).expect("stored");
            assert_eq!(load(&path), Ok(Some(online)));
        }
        let _ = std::fs::remove_dir_all(path.parent().expect("its folder"));
    }

    #[test]
    fn a_damaged_file_names_its_line_and_leaves_the_configuration_alone() {
        let path = dir().join(CHOICES_FILE);
        let good = "opponent = \"person\"\ntime_control = \"none\"\ncolor = \"white\"\n\
                    rate = 40\nvolume = 100\nlanguage = \"fide\"\n";
        std::fs::write(&path, good.replace("\"white\"", "\"green\"")).expect("written");
        let e = load(&path).expect_err("refused").0;
        assert!(
            e.ends_with("choices.toml:3: color: \"green\" is neither \"white\" nor \"black\""),
            "{e}"
        );
        std::fs::write(&path, good.replace("rate = 40", "rate = 400")).expect("written");
        assert!(load(&path).expect_err("refused").0.contains(":4: rate:"));
        std::fs::write(&path, good.replace("volume = 100\n", "volume = \n")).expect("written");
        assert!(load(&path).expect_err("refused").0.contains(":5:"));
        std::fs::write(&path, good.replace("\"fide\"", "\"xx\"")).expect("written");
        assert!(
            load(&path)
                .expect_err("refused")
                .0
                .contains(":6: language:")
        );
        let config = Config::parse(
            &format!(
                "[journal]\ndir = \"{}\"\n",
                path.parent().expect("dir").display()
            ),
            "c.toml",
        )
        .expect("config");
        let (played, note) = overlaid(&config);
        assert_eq!(played.language, config.language);
        assert_eq!(played.game, config.game);
        assert!(note.is_some_and(|n| n.contains("configuration is played")));
        let _ = std::fs::remove_dir_all(path.parent().expect("its folder"));
    }
}
