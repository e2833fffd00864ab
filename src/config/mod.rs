//! The configuration file (TOML). Every key is optional; an unknown key or a
//! wrong value is an error that names the key and its line.

pub mod hardware;

use serde::Deserialize;
use shakmaty::Role;

pub use hardware::{BoardConfig, ButtonsConfig, KeyConfig, SensorsConfig, SourceKind};

use crate::announce::phrases::{Style, Styles};
use crate::announce::vocabulary::FileNaming;
use crate::announce::{Phrasebook, Vocabulary};
use crate::core::clock::{IncrementTiming, TimeControl};
use crate::core::{ClockSettings, ClockStart, FlagRule, Players, Settings, TouchPolicy};
use crate::speech::{Delivery, EarconSwitches, SpeechConfig, VoiceLanguage};

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
}

/// A time control in the human form (`90+30`, `40/90,30+30`), read
/// where the configuration names it so a mistake names its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HumanControl(pub TimeControl);

impl<'de> Deserialize<'de> for HumanControl {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        TimeControl::parse_human(&text)
            .map(HumanControl)
            .map_err(serde::de::Error::custom)
    }
}

/// A time control in the PGN `TimeControl` tag form (`40/5400+30:1800+30`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnControl(pub TimeControl);

impl<'de> Deserialize<'de> for PgnControl {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        TimeControl::parse_pgn(&text)
            .map(PgnControl)
            .map_err(serde::de::Error::custom)
    }
}

/// `[clock]`: the time control and how the clock is pressed, warns and
/// counts flags.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClockConfig {
    pub control: Option<HumanControl>,
    pub pgn_control: Option<PgnControl>,
    pub start: ClockStart,
    pub controller_presses: Players,
    pub flag: FlagRule,
    pub increment: IncrementTiming,
    pub warn: Players,
    /// Warning thresholds in seconds.
    pub warnings: Vec<u64>,
    /// Loudness of the warnings, 0.0 to 1.0, relative to the voice.
    pub warning_volume: f32,
    pub third_illegal_move_loses: bool,
}

impl Default for ClockConfig {
    fn default() -> Self {
        let c = ClockSettings::default();
        ClockConfig {
            control: None,
            pgn_control: None,
            start: c.start,
            controller_presses: c.controller_presses,
            flag: c.flag,
            increment: c.increment,
            warn: c.warn,
            warnings: c.warnings_ms.iter().map(|ms| ms / 1000).collect(),
            warning_volume: 1.0,
            third_illegal_move_loses: c.third_illegal_move_loses,
        }
    }
}

impl ClockConfig {
    pub fn settings(&self) -> ClockSettings {
        ClockSettings {
            control: self
                .control
                .as_ref()
                .map(|c| c.0.clone())
                .or_else(|| self.pgn_control.as_ref().map(|c| c.0.clone())),
            start: self.start,
            controller_presses: self.controller_presses,
            flag: self.flag,
            increment: self.increment,
            warn: self.warn,
            warnings_ms: self.warnings.iter().map(|s| s * 1000).collect(),
            third_illegal_move_loses: self.third_illegal_move_loses,
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AnnounceConfig {
    /// How files are spoken: `fide`, `letters` or `nato`.
    pub files: FileNaming,
    /// `short` or `long`, for both players' moves…
    pub style: Style,
    /// …unless set for one player here.
    pub white_style: Option<Style>,
    pub black_style: Option<Style>,
}

impl AnnounceConfig {
    pub fn styles(&self) -> Styles {
        Styles {
            white: self.white_style.unwrap_or(self.style),
            black: self.black_style.unwrap_or(self.style),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DebounceConfig {
    pub window_ms: u64,
}

impl Default for DebounceConfig {
    fn default() -> Self {
        DebounceConfig {
            window_ms: Settings::default().debounce_ms,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PromotionDefault {
    None,
    Q,
    R,
    B,
    N,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrackerConfig {
    pub settle_ms: u64,
    pub castling_wait_ms: u64,
    pub together_ms: u64,
    pub touch_policy: TouchPolicy,
    pub default_promotion: PromotionDefault,
}

impl Default for TrackerConfig {
    fn default() -> Self {
        let s = Settings::default();
        TrackerConfig {
            settle_ms: s.settle_ms,
            castling_wait_ms: s.castling_wait_ms,
            together_ms: s.together_ms,
            touch_policy: s.touch_policy,
            default_promotion: PromotionDefault::None,
        }
    }
}

/// A configuration that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// Parses configuration text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Config, ConfigError> {
        let config: Config = toml::from_str(text).map_err(|e| {
            // toml reports the line, the column and the key in question.
            ConfigError(format!("{file}: {}", e.to_string().trim_end()))
        })?;
        if config.clock.control.is_some() && config.clock.pgn_control.is_some() {
            return Err(ConfigError(format!(
                "{file}: [clock] sets both `control` and `pgn_control`; set one of them"
            )));
        }
        if !(0.0..=1.0).contains(&config.clock.warning_volume) {
            return Err(ConfigError(format!(
                "{file}: [clock] warning_volume must be from 0.0 to 1.0, not {}",
                config.clock.warning_volume
            )));
        }
        hardware::check(&config.sensors, &config.buttons)
            .map_err(|e| ConfigError(format!("{file}: {e}")))?;
        Ok(config)
    }

    pub fn load(path: &str) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError(format!("{path}: cannot be read: {e}")))?;
        Config::parse(&text, path)
    }

    pub fn settings(&self) -> Settings {
        Settings {
            debounce_ms: self.debounce.window_ms,
            settle_ms: self.tracker.settle_ms,
            castling_wait_ms: self.tracker.castling_wait_ms,
            together_ms: self.tracker.together_ms,
            touch_policy: self.tracker.touch_policy,
            default_promotion: match self.tracker.default_promotion {
                PromotionDefault::None => None,
                PromotionDefault::Q => Some(Role::Queen),
                PromotionDefault::R => Some(Role::Rook),
                PromotionDefault::B => Some(Role::Bishop),
                PromotionDefault::N => Some(Role::Knight),
            },
            clock: self.clock.settings(),
        }
    }

    /// How events become utterances: earcons and the warnings' loudness.
    pub fn delivery(&self) -> Delivery {
        Delivery {
            earcons: self.earcons,
            warning_volume: (self.clock.warning_volume * 100.0).round() as u8,
        }
    }

    /// What the voices need to know of the language: the clip folder (the
    /// language's name, or a language file's name without `.toml`) and the
    /// synthesizer's language code.
    pub fn voice_language(&self, words: &Phrasebook) -> VoiceLanguage {
        let name = self.language.as_deref().unwrap_or("fide");
        let clips = std::path::Path::new(name)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| name.to_string());
        VoiceLanguage {
            clips,
            synthesizer: words.words.language.synthesizer.clone(),
            spoken: words.words.spoken.clone(),
        }
    }

    /// The words to speak, checked completely before anything starts.
    pub fn phrasebook(&self) -> Result<Phrasebook, ConfigError> {
        let name = self.language.as_deref().unwrap_or("fide");
        let words = match Vocabulary::built_in(name) {
            Some(parsed) => parsed.map_err(|e| ConfigError(e.to_string()))?,
            None if !name.contains('/') && !name.ends_with(".toml") => {
                let known: Vec<&str> = Vocabulary::built_in_names().collect();
                return Err(ConfigError(format!(
                    "language = \"{name}\": no such built-in language (built in: {}); \
                     a language file is given by its path, e.g. \"./my-language.toml\"",
                    known.join(", ")
                )));
            }
            None => {
                let text = std::fs::read_to_string(name).map_err(|e| {
                    ConfigError(format!("language file {name}: cannot be read: {e}"))
                })?;
                Vocabulary::parse(&text, name).map_err(|e| ConfigError(e.to_string()))?
            }
        };
        Ok(Phrasebook::new(words)
            .with_naming(self.announce.files)
            .with_styles(self.announce.styles()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_example_config_is_valid_and_matches_the_defaults() {
        let text = include_str!("../../config/pegboard.toml");
        let c = Config::parse(text, "pegboard.toml").expect("valid");
        assert_eq!(c.settings(), Settings::default());
        assert_eq!(c.speech, SpeechConfig::default());
        assert_eq!(c.earcons, EarconSwitches::default());
        assert_eq!(c.announce.styles(), Styles::default());
        assert_eq!(c.announce.files, FileNaming::default());
        assert_eq!(c.delivery(), Delivery::default());
        assert_eq!(c.sensors, SensorsConfig::default());
        assert_eq!(c.board, BoardConfig::default());
        assert_eq!(c.buttons.timing(), crate::buttons::ButtonTiming::default());
        assert_eq!(c.buttons.key.len(), 6);
    }

    #[test]
    fn unknown_key_names_key_and_line() {
        let err = Config::parse(
            "[tracker]\nsettle_ms = 5\ntouch_polcy = \"warn\"\n",
            "c.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(err.starts_with("c.toml: "), "{err}");
        assert!(err.contains("line 3"), "{err}");
        assert!(err.contains("touch_polcy"), "{err}");
    }

    #[test]
    fn bad_value_names_key_and_line() {
        let err = Config::parse("[tracker]\n\ntouch_policy = \"sometimes\"\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 3"), "{err}");
        assert!(err.contains("sometimes"), "{err}");
    }

    #[test]
    fn language_file_naming_and_styles_reach_the_phrasebook() {
        let c = Config::parse(
            "language = \"en\"\n[announce]\nfiles = \"nato\"\nstyle = \"long\"\nwhite_style = \"short\"\n",
            "c",
        )
        .expect("valid");
        let b = c.phrasebook().expect("built in");
        assert_eq!(b.words.language.synthesizer, "en");
        assert_eq!(b.naming, FileNaming::Nato);
        assert_eq!(b.styles.white, Style::Short);
        assert_eq!(b.styles.black, Style::Long);
    }

    #[test]
    fn the_voices_get_the_languages_spoken_forms() {
        let c = Config::parse("", "c").expect("valid");
        let words = c.phrasebook().expect("fide");
        let language = c.voice_language(&words);
        assert_eq!(language.synthesizer, "de");
        assert_eq!(language.spoken.apply("Kurze Rochade"), "Kurze Roschade");
        // What is shown is not touched.
        assert_eq!(words.words.moves.castle_short, "Kurze Rochade");
    }

    #[test]
    fn unknown_language_lists_the_built_in_ones() {
        let c = Config::parse("language = \"klingon\"\n", "c").expect("parses");
        let err = c.phrasebook().unwrap_err().to_string();
        assert!(err.contains("klingon"), "{err}");
        assert!(err.contains("built in: ca, de, en, es, fide, pt"), "{err}");
    }

    #[test]
    fn bad_style_names_key_and_line() {
        let err = Config::parse("[announce]\nstyle = \"medium\"\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 2"), "{err}");
        assert!(err.contains("medium"), "{err}");
    }

    #[test]
    fn unknown_voice_names_key_and_line() {
        let err = Config::parse("[speech]\nvoices = [\"clips\", \"espeak\"]\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 2"), "{err}");
        assert!(err.contains("espeak"), "{err}");
    }

    #[test]
    fn clock_controls_reach_the_settings_in_either_form() {
        let human = Config::parse("[clock]\ncontrol = \"40/90,30+30\"\n", "c").expect("valid");
        let pgn =
            Config::parse("[clock]\npgn_control = \"40/5400+30:1800+30\"\n", "c").expect("valid");
        assert!(human.settings().clock.control.is_some());
        assert_eq!(human.settings().clock, pgn.settings().clock);
        let c = Config::parse(
            "[clock]\ncontrol = \"5+3\"\nwarnings = [60]\nwarn = \"white\"\nflag = \"claim\"\n",
            "c",
        )
        .expect("valid");
        let s = c.settings().clock;
        assert_eq!(s.warnings_ms, vec![60_000]);
        assert_eq!(s.warn, Players::White);
        assert_eq!(s.flag, FlagRule::Claim);
    }

    #[test]
    fn bad_time_control_names_key_and_line() {
        let err = Config::parse("[clock]\n\ncontrol = \"90 minutes\"\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 3"), "{err}");
        assert!(err.contains("control"), "{err}");
        assert!(err.contains("90 minutes"), "{err}");
        let err = Config::parse(
            "[clock]\ncontrol = \"90\"\npgn_control = \"5400\"\n",
            "c.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("pgn_control"), "{err}");
    }

    #[test]
    fn values_reach_the_settings() {
        let c = Config::parse(
            "[debounce]\nwindow_ms = 30\n[tracker]\ntouch_policy = \"enforce\"\ndefault_promotion = \"q\"\n",
            "c",
        )
        .expect("valid");
        let s = c.settings();
        assert_eq!(s.debounce_ms, 30);
        assert_eq!(s.touch_policy, TouchPolicy::Enforce);
        assert_eq!(s.default_promotion, Some(Role::Queen));
    }
}
