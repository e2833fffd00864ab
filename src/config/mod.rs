//! The configuration file (TOML). Every key is optional; an unknown key or a
//! wrong value is an error that names the key and its line.
//!
//! Each table's type, its defaults and its own checks belong to the wing
//! it configures (`[clock]` to the core, `[speech]` to the voices,
//! `[mirror]` to the mirror, …). This wing only reads the file into them,
//! checks what spans tables ([`cross`]), and keeps the text, so that any
//! later check can name the key's line ([`locate`]). The runtime puts the
//! parts together (`runtime::parts`).

pub mod cross;
pub mod locate;

use serde::Deserialize;

pub use locate::{ConfigError, Locator};

use crate::announce::section::AnnounceConfig;
use crate::console::ConsoleConfig;
use crate::core::BLIND_BOARD;
use crate::core::sections::{ClockConfig, DebounceConfig, GameConfig, TrackerConfig};
use crate::display::DisplayConfig;
use crate::keys::ButtonsConfig;
use crate::mirror::MirrorConfig;
use crate::record::journal::JournalConfig;
use crate::sensors::{BoardConfig, OtherBoard, SensorsConfig};
use crate::speech::{EarconSwitches, SpeechConfig};
use crate::text::key::KeyProblem;

/// The whole file: one field per table, each of its wing's type.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// A built-in language (`fide`, `de`, `en`, `pt`, `es`, `ca`) or the
    /// path of a language file.
    pub language: Option<String>,
    pub announce: AnnounceConfig,
    pub speech: SpeechConfig,
    pub earcons: EarconSwitches,
    pub debounce: DebounceConfig,
    pub tracker: TrackerConfig,
    pub clock: ClockConfig,
    pub sensors: SensorsConfig,
    pub board: BoardConfig,
    pub buttons: ButtonsConfig,
    pub display: DisplayConfig,
    pub journal: JournalConfig,
    pub game: GameConfig,
    pub mirror: MirrorConfig,
    pub console: ConsoleConfig,
    pub engine: crate::engine::EngineConfig,
    pub lichess: crate::lichess::section::LichessConfig,
    /// Boards besides the blind player's (which is `[sensors]` and
    /// `[board]`): the sighted player's, read by sensors of its own.
    pub boards: Vec<OtherBoard>,
    /// The tournament hall's hub (`pegboard hall`): the boards it follows.
    pub hall: crate::hall::HallConfig,
    /// The pages (mirror, console, hall view) over HTTPS.
    pub https: crate::net::tls::HttpsConfig,
    /// The Braille code of the `.brf` scoresheets.
    pub braille: crate::braille::BrailleConfig,
    /// The file this was read from and its text, to name lines in later
    /// checks ([`Config::locator`]).
    #[serde(skip)]
    pub source: Option<(String, String)>,
}

impl Config {
    /// Parses configuration text; `file` names it in errors. Everything
    /// the file alone decides is checked here, each error naming the key
    /// and its line: every value's range, keys that clash, and the
    /// language (built in, or a language file that must read and parse).
    pub fn parse(text: &str, file: &str) -> Result<Config, ConfigError> {
        let at = Locator::new(file, text);
        let config: Config = toml::from_str(text).map_err(|e| at.toml_error(&e))?;
        let checks = [
            config.clock.check(),
            cross::pins(&config.sensors, &config.buttons, &config.display),
            config.boards(),
            config.engine_values(),
            config.lichess_values(),
            config.fair_play(),
            config.hall.check(),
            config.https.check(),
            config.braille.check(),
            crate::announce::section::phrasebook(config.language.as_deref(), &config.announce)
                .map(drop)
                .map_err(|e| KeyProblem::at(&["language"], e.0)),
        ];
        for check in checks {
            check.map_err(|p| at.error(&p.path, p.message))?;
        }
        Ok(config)
    }

    pub fn load(path: &str) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            file: path.to_string(),
            line: None,
            message: format!("cannot be read: {e}"),
        })?;
        let config = Config::parse(&text, path)?;
        Ok(Config {
            source: Some((path.to_string(), text)),
            ..config
        })
    }

    /// Where a key stands in the text this was read from, to name its line
    /// in an error found after reading.
    pub fn locator(&self) -> Locator<'_> {
        match &self.source {
            Some((file, text)) => Locator::new(file, text),
            None => Locator::new("the configuration", ""),
        }
    }

    /// The problem `p` as an error at its key's line.
    pub fn error(&self, p: KeyProblem) -> ConfigError {
        self.locator().error(&p.path, p.message)
    }

    /// The names of the boards: the blind player's, then `[[boards]]`.
    pub fn board_names(&self) -> Vec<&str> {
        std::iter::once(BLIND_BOARD)
            .chain(self.boards.iter().map(|b| b.name.as_str()))
            .collect()
    }
}

#[cfg(test)]
mod tests;
