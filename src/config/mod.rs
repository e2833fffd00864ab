//! The configuration file (TOML). Every key is optional; an unknown key or a
//! wrong value is an error that names the key and its line.

pub mod hardware;
pub mod locate;

use serde::Deserialize;

use crate::text::bounded;
use shakmaty::Role;

pub use hardware::{
    BoardConfig, ButtonsConfig, DisplayConfig, FaceKind, KeyConfig, SensorsConfig, SourceKind,
    Tm1637Config,
};
pub use locate::{ConfigError, Locator};

use crate::announce::phrases::{Style, Styles};
use crate::announce::vocabulary::FileNaming;
use crate::announce::{Phrasebook, Vocabulary};
use crate::core::clock::{IncrementTiming, TimeControl};
use crate::core::{
    BLIND_BOARD, ClockSettings, ClockStart, FlagRule, Players, Settings, TouchPolicy,
};
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
    pub display: DisplayConfig,
    pub journal: JournalConfig,
    pub game: GameConfig,
    pub mirror: MirrorConfig,
    pub console: ConsoleConfig,
    /// Boards besides the blind player's (which is `[sensors]` and
    /// `[board]`): the sighted player's, read by sensors of its own.
    pub boards: Vec<OtherBoard>,
    /// The file this was read from and its text, to name lines in later
    /// checks ([`Config::check_sensors`]).
    #[serde(skip)]
    pub source: Option<(String, String)>,
}

/// `[console]`: the assistant's and arbiter's console on the mirror's
/// server.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ConsoleConfig {
    /// Serve the console (`/console`, `POST /api/input`) with the mirror.
    pub enabled: bool,
    /// A short PIN instead of the generated secret, for clubs: 4 to 32
    /// characters.
    #[serde(deserialize_with = "pin")]
    pub pin: Option<String>,
}

impl Default for ConsoleConfig {
    fn default() -> Self {
        ConsoleConfig {
            enabled: true,
            pin: None,
        }
    }
}

fn pin<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let text = String::deserialize(d)?;
    let n = text.chars().count();
    if !(4..=32).contains(&n) || text.chars().any(char::is_whitespace) {
        return Err(serde::de::Error::custom(
            "a PIN is 4 to 32 characters without spaces",
        ));
    }
    Ok(Some(text))
}

/// A `[[boards]]` entry: another board of the game, its sensors and
/// layout. Which player moves on it is `[game] white_moves_on` /
/// `black_moves_on`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OtherBoard {
    /// The board's name in traces, events and `[game]`: "sighted".
    pub name: String,
    #[serde(default)]
    pub sensors: SensorsConfig,
    #[serde(default)]
    pub board: BoardConfig,
}

/// `[journal]`: where games are kept, and how a game resumes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct JournalConfig {
    /// The journal directory; by default the service's state directory
    /// (`/var/lib/pegboard`), else `$XDG_STATE_HOME/pegboard`.
    pub dir: Option<std::path::PathBuf>,
    pub resume: ResumeClocks,
}

/// After pegboard restarted on a game: do the clocks wait for the
/// `resume` key, or run on at once?
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResumeClocks {
    #[default]
    Held,
    Running,
}

/// `[mirror]`: the sighted opponent's page.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MirrorConfig {
    /// The address and port the page is served on; "" serves none.
    pub listen: String,
    pub orientation: Orientation,
}

impl Default for MirrorConfig {
    fn default() -> Self {
        MirrorConfig {
            listen: "127.0.0.1:8080".into(),
            orientation: Orientation::Opponent,
        }
    }
}

impl MirrorConfig {
    /// Where `--mirror [ADDR]` serves: `given` if it is not empty, else
    /// `listen`, else the default address (the flag asks for a mirror even
    /// when the configuration turns it off).
    pub fn address(&self, given: &str) -> String {
        [given, self.listen.as_str()]
            .into_iter()
            .find(|a| !a.trim().is_empty())
            .map_or_else(|| MirrorConfig::default().listen, str::to_string)
    }
}

/// Which side the mirror's board is seen from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Orientation {
    /// The sighted opponent's: the colour the blind player does not play.
    #[default]
    Opponent,
    White,
    Black,
}

impl Config {
    /// The mirror's view: the blind player's colour (the keypad owner's),
    /// the side its board is seen from, and its page in `words`' language.
    pub fn mirror_view(&self, words: &Vocabulary) -> crate::mirror::View {
        let blind: shakmaty::Color = self.buttons.player.into();
        let seen = match self.mirror.orientation {
            Orientation::Opponent => !blind,
            Orientation::White => shakmaty::Color::White,
            Orientation::Black => shakmaty::Color::Black,
        };
        crate::mirror::View::new(blind, seen, words)
    }
}

/// `[game]`: the scoresheet's tags (PGN's Seven Tag Roster; the date is
/// the day the game begins), and where each player's moves are made.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GameConfig {
    pub event: Option<String>,
    pub site: Option<String>,
    pub round: Option<String>,
    pub white: Option<String>,
    pub black: Option<String>,
    /// The board White's moves are made on (a `[[boards]]` name), or
    /// "relay": typed in or keyed by an assistant.
    pub white_moves_on: String,
    pub black_moves_on: String,
    /// While a board differs from the game unexplained (E2.7), moves on
    /// the other boards wait until it is put right.
    pub hold_on_divergence: bool,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            event: None,
            site: None,
            round: None,
            white: None,
            black: None,
            white_moves_on: BLIND_BOARD.to_string(),
            black_moves_on: BLIND_BOARD.to_string(),
            hold_on_divergence: false,
        }
    }
}

/// A `[game] …_moves_on` value: a board's name, or "relay".
fn seat(moves_on: &str) -> crate::core::Seat {
    match moves_on {
        "relay" => crate::core::Seat::Relay,
        board => crate::core::Seat::Board(board.to_string()),
    }
}

impl GameConfig {
    /// The tags this names, by their PGN names.
    pub fn tags(&self) -> std::collections::BTreeMap<String, String> {
        [
            ("Event", &self.event),
            ("Site", &self.site),
            ("Round", &self.round),
            ("White", &self.white),
            ("Black", &self.black),
        ]
        .into_iter()
        .filter_map(|(tag, v)| v.clone().map(|v| (tag.to_string(), v)))
        .collect()
    }
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
    #[serde(deserialize_with = "bounded::list_in::<_, 1, 86_400, 20>")]
    pub warnings: Vec<u64>,
    /// Loudness of the warnings, 0.0 to 1.0, relative to the voice.
    #[serde(deserialize_with = "bounded::fraction")]
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
    #[serde(deserialize_with = "bounded::u64_in::<_, 1, 1000>")]
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
    #[serde(deserialize_with = "bounded::u64_in::<_, 100, 60_000>")]
    pub settle_ms: u64,
    #[serde(deserialize_with = "bounded::u64_in::<_, 0, 10_000>")]
    pub castling_wait_ms: u64,
    #[serde(deserialize_with = "bounded::u64_in::<_, 0, 5_000>")]
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

impl Config {
    /// Parses configuration text; `file` names it in errors. Everything
    /// the file alone decides is checked here, each error naming the key
    /// and its line: every value's range, keys that clash, and the
    /// language (built in, or a language file that must read and parse).
    pub fn parse(text: &str, file: &str) -> Result<Config, ConfigError> {
        let at = Locator::new(file, text);
        let config: Config = toml::from_str(text).map_err(|e| at.toml_error(&e))?;
        if config.clock.control.is_some() && config.clock.pgn_control.is_some() {
            return Err(at.error(
                &["clock", "pgn_control"],
                "[clock] sets both `control` and `pgn_control`; set one of them".to_string(),
            ));
        }
        hardware::check(&config.sensors, &config.buttons, &config.display)
            .map_err(|(path, message)| at.error(&path, message))?;
        config.check_boards().map_err(|(path, message)| {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            at.error(&path, message)
        })?;
        config
            .words()
            .map_err(|message| at.error(&["language"], message))?;
        Ok(config)
    }

    /// The names of the boards: the blind player's, then `[[boards]]`.
    pub fn board_names(&self) -> Vec<&str> {
        std::iter::once(BLIND_BOARD)
            .chain(self.boards.iter().map(|b| b.name.as_str()))
            .collect()
    }

    /// Each `[[boards]]` name is new and plain, and each player moves on
    /// a board there is (or "relay").
    fn check_boards(&self) -> Result<(), (Vec<String>, String)> {
        let owned = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        for (i, b) in self.boards.iter().enumerate() {
            let plain = !b.name.is_empty()
                && b.name.len() <= 32
                && b.name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
            let problem = if !plain {
                Some(format!(
                    "[[boards]] name = \"{}\": a board's name is 1 to 32 of a-z, 0-9, _ and -, \
                     like \"sighted\"",
                    crate::text::quote::short(&b.name)
                ))
            } else if b.name == BLIND_BOARD {
                Some(
                    "[[boards]] name = \"blind\": the blind player's board is [sensors] and \
                     [board]; [[boards]] names the others, like \"sighted\""
                        .to_string(),
                )
            } else if b.name == "relay" {
                Some(
                    "[[boards]] name = \"relay\": \"relay\" means moves relayed by hand, no board"
                        .to_string(),
                )
            } else if self.boards[..i].iter().any(|o| o.name == b.name) {
                Some(format!("[[boards]] name = \"{}\" is given twice", b.name))
            } else {
                None
            };
            let index = i.to_string();
            if let Some(message) = problem {
                return Err((owned(&["boards", &index, "name"]), message));
            }
            hardware::check(
                &b.sensors,
                &ButtonsConfig::default(),
                &DisplayConfig::default(),
            )
            .map_err(|(path, message)| {
                let mut p = owned(&["boards", &index]);
                p.extend(path.iter().map(|s| s.to_string()));
                (p, format!("[[boards]] \"{}\": {message}", b.name))
            })?;
        }
        let names = self.board_names();
        for (key, value) in [
            ("white_moves_on", &self.game.white_moves_on),
            ("black_moves_on", &self.game.black_moves_on),
        ] {
            if value != "relay" && !names.contains(&value.as_str()) {
                return Err((
                    owned(&["game", key]),
                    format!(
                        "[game] {key} = \"{}\": no such board (the boards: {}; or \"relay\" \
                         for moves relayed by hand)",
                        crate::text::quote::short(value),
                        names.join(", ")
                    ),
                ));
            }
        }
        Ok(())
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

    /// Whether the sensors and keys this file names can be opened by this
    /// pegboard: a source it was built for, a trace file that exists, GPIO
    /// keys only with Raspberry Pi support. `pegboard play`, `record`,
    /// `hw-test` and `calibrate` ask this before they open anything, and
    /// `pegboard check-config` asks the same, so they agree.
    /// What in `[speech]` would leave the blind player without words:
    /// no voice listed, a file voice whose folder cannot be written, a
    /// speech-dispatcher voice that does not exist (`dispatcher_voices`:
    /// the voices speech-dispatcher names, when it answered). Each is a
    /// warning at its key's line; the second value is whether no listed
    /// voice at all could speak, which makes them an error.
    pub fn speech_warnings(
        &self,
        dispatcher_voices: Option<&[String]>,
    ) -> (Vec<ConfigError>, bool) {
        use crate::speech::VoiceName;
        let (file, text) = match &self.source {
            Some((file, text)) => (file.as_str(), text.as_str()),
            None => ("the configuration", ""),
        };
        let at = Locator::new(file, text);
        let speech = &self.speech;
        let mut warnings = Vec::new();
        if speech.voices.is_empty() {
            warnings.push(at.error(
                &["speech", "voices"],
                "[speech] voices is empty: no voice speaks, the moves are only printed".into(),
            ));
        }
        let mut can_speak = false;
        for voice in &speech.voices {
            match voice {
                VoiceName::File => {
                    let dir = &speech.file.directory;
                    if writable(dir) {
                        can_speak = true;
                    } else {
                        warnings.push(at.error(
                            &["speech", "file", "directory"],
                            format!(
                                "[speech.file] directory: {} cannot be written; the file voice \
                                 will not speak",
                                dir.display()
                            ),
                        ));
                    }
                }
                VoiceName::SpeechDispatcher => {
                    let wanted = &speech.speech_dispatcher.voice;
                    match dispatcher_voices {
                        Some(names) if !wanted.is_empty() && !names.iter().any(|n| n == wanted) => {
                            warnings.push(at.error(
                                &["speech", "speech_dispatcher", "voice"],
                                format!(
                                    "[speech.speech_dispatcher] voice: speech-dispatcher has no \
                                     voice named \"{}\" (`spd-say -L` lists them)",
                                    crate::text::quote::short(wanted)
                                ),
                            ));
                        }
                        _ => can_speak = true,
                    }
                }
                VoiceName::Clips | VoiceName::Text => can_speak = true,
                VoiceName::Null => {}
            }
        }
        (warnings, !can_speak && !speech.muted)
    }

    pub fn check_sensors(&self) -> Result<(), ConfigError> {
        let (file, text) = match &self.source {
            Some((file, text)) => (file.as_str(), text.as_str()),
            None => ("the configuration", ""),
        };
        let at = Locator::new(file, text);
        hardware::usable(&self.sensors, &self.buttons, &self.display)
            .map_err(|(path, message)| at.error(&path, message))?;
        for (i, b) in self.boards.iter().enumerate() {
            let index = i.to_string();
            hardware::usable(
                &b.sensors,
                &ButtonsConfig::default(),
                &DisplayConfig::default(),
            )
            .map_err(|(path, message)| {
                let mut p = vec!["boards", index.as_str()];
                p.extend(path.iter().map(String::as_str));
                at.error(&p, format!("[[boards]] \"{}\": {message}", b.name))
            })?;
        }
        Ok(())
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
            seats: crate::core::Seats {
                white: seat(&self.game.white_moves_on),
                black: seat(&self.game.black_moves_on),
            },
            hold_on_divergence: self.game.hold_on_divergence,
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

    /// The words to speak, checked completely before anything starts. An
    /// error names the configuration's `language` key and its line.
    pub fn phrasebook(&self) -> Result<Phrasebook, ConfigError> {
        self.words().map_err(|message| {
            let (file, text) = match &self.source {
                Some((file, text)) => (file.as_str(), text.as_str()),
                None => ("the configuration", ""),
            };
            Locator::new(file, text).error(&["language"], message)
        })
    }

    fn words(&self) -> Result<Phrasebook, String> {
        let name = self.language.as_deref().unwrap_or("fide");
        let words = match Vocabulary::built_in(name) {
            Some(parsed) => parsed.map_err(|e| e.to_string())?,
            None if !name.contains('/') && !name.ends_with(".toml") => {
                let known: Vec<&str> = Vocabulary::built_in_names().collect();
                return Err(format!(
                    "language = \"{}\": no such built-in language (built in: {}); \
                     a language file is given by its path, e.g. \"./my-language.toml\"",
                    crate::text::quote::short(name),
                    known.join(", ")
                ));
            }
            None => {
                let text = std::fs::read_to_string(name).map_err(|e| {
                    format!(
                        "language = \"{}\": the language file cannot be read: {e}",
                        crate::text::quote::short(name)
                    )
                })?;
                Vocabulary::parse(&text, name).map_err(|e| e.to_string())?
            }
        };
        Ok(Phrasebook::new(words)
            .with_naming(self.announce.files)
            .with_styles(self.announce.styles()))
    }
}

/// Whether a file can be made in `dir`, or (if it does not exist yet) in
/// the nearest folder above it, where the file voice would make it. The
/// check makes nothing that stays.
fn writable(dir: &std::path::Path) -> bool {
    let Some(existing) = dir
        .ancestors()
        .find(|d| d.as_os_str().is_empty() || d.is_dir())
    else {
        return false;
    };
    let existing = if existing.as_os_str().is_empty() {
        std::path::Path::new(".")
    } else {
        existing
    };
    let probe = existing.join(format!(".pegboard-check-{}", std::process::id()));
    let made = std::fs::write(&probe, b"").is_ok();
    let _ = std::fs::remove_file(&probe);
    made
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
        assert_eq!(c.buttons.timing(), crate::keys::ButtonTiming::default());
        assert_eq!(
            c.buttons,
            ButtonsConfig::default(),
            "the default has no keys"
        );
        assert_eq!(c.display, DisplayConfig::default());
        assert_eq!(c.journal, JournalConfig::default());
        assert_eq!(c.game, GameConfig::default());
        assert_eq!(c.mirror, MirrorConfig::default());
    }

    #[test]
    fn the_journal_and_game_tables_read_and_name_a_wrong_key() {
        let c = Config::parse(
            "[journal]\ndir = \"/srv/games\"\nresume = \"running\"\n[game]\nwhite = \"Anna\"\n",
            "p.toml",
        )
        .expect("valid");
        assert_eq!(c.journal.dir, Some(std::path::PathBuf::from("/srv/games")));
        assert_eq!(c.journal.resume, ResumeClocks::Running);
        assert_eq!(c.game.tags().get("White").map(String::as_str), Some("Anna"));
        let e = Config::parse("[journal]\nresume = \"later\"\n", "p.toml").expect_err("bad");
        assert_eq!(e.line, Some(2), "{e}");
        assert!(e.to_string().contains("resume"), "{e}");
        let e = Config::parse("[game]\nplayer = \"x\"\n", "p.toml").expect_err("bad");
        assert_eq!(e.line, Some(2), "{e}");
    }

    #[test]
    fn every_setup_example_is_valid() {
        for (name, text, source) in [
            (
                "gpio-matrix.toml",
                include_str!("../../config/gpio-matrix.toml"),
                SourceKind::Matrix,
            ),
            (
                "expanders.toml",
                include_str!("../../config/expanders.toml"),
                SourceKind::Mcp23017,
            ),
            (
                "serial-laptop.toml",
                include_str!("../../config/serial-laptop.toml"),
                SourceKind::Serial,
            ),
        ] {
            let c = Config::parse(text, name).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(c.sensors.source, source, "{name}");
            assert!(!c.buttons.key.is_empty(), "{name} has keys");
        }
    }

    fn error(text: &str) -> String {
        match Config::parse(text, "c.toml") {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{text:?} was accepted"),
        }
    }

    #[test]
    fn unknown_key_names_key_and_line() {
        let err = error("[tracker]\nsettle_ms = 500\ntouch_polcy = \"warn\"\n");
        assert!(
            err.starts_with("c.toml:3: [tracker] touch_polcy: unknown field `touch_polcy`"),
            "{err}"
        );
    }

    #[test]
    fn bad_value_names_key_and_line() {
        assert_eq!(
            error("[tracker]\n\ntouch_policy = \"sometimes\"\n"),
            "c.toml:3: [tracker] touch_policy: unknown variant `sometimes`, expected one of \
             `off`, `warn`, `enforce`"
        );
    }

    #[test]
    fn every_number_out_of_its_range_is_refused_with_key_line_and_range() {
        for (text, expected) in [
            (
                "[debounce]\nwindow_ms = 0\n",
                "c.toml:2: [debounce] window_ms: must be from 1 to 1000, not 0",
            ),
            (
                "[debounce]\nwindow_ms = 1000000000000\n",
                "c.toml:2: [debounce] window_ms: must be from 1 to 1000, not 1000000000000",
            ),
            (
                "[debounce]\nwindow_ms = 9223372036854775807\n",
                "c.toml:2: [debounce] window_ms: must be from 1 to 1000, not 9223372036854775807",
            ),
            (
                "[tracker]\nsettle_ms = 9223372036854775807\n",
                "c.toml:2: [tracker] settle_ms: must be from 100 to 60000, not 9223372036854775807",
            ),
            (
                "[tracker]\ntogether_ms = 9223372036854775807\n",
                "c.toml:2: [tracker] together_ms: must be from 0 to 5000, not 9223372036854775807",
            ),
            (
                "[tracker]\ncastling_wait_ms = 9223372036854775807\n",
                "c.toml:2: [tracker] castling_wait_ms: must be from 0 to 10000, not 9223372036854775807",
            ),
            (
                "[speech.speech_dispatcher]\nrate = 1000\n",
                "c.toml:2: [speech.speech_dispatcher] rate: must be from -100 to 100, not 1000",
            ),
            (
                "[speech.clips]\nvolume = -3.5\n",
                "c.toml:2: [speech.clips] volume: must be from 0.0 to 1.0, not -3.5",
            ),
            (
                "[speech.clips]\nvolume = nan\n",
                "c.toml:2: [speech.clips] volume: must be from 0.0 to 1.0, not NaN",
            ),
            (
                "[clock]\nwarning_volume = 2.0\n",
                "c.toml:2: [clock] warning_volume: must be from 0.0 to 1.0, not 2",
            ),
            (
                "[clock]\nwarnings = [600, 0]\n",
                "c.toml:2: [clock] warnings: each value must be from 1 to 86400, not 0",
            ),
            (
                "[sensors]\nscan_hz = 0\n",
                "c.toml:2: [sensors] scan_hz: must be from 1 to 1000, not 0",
            ),
            (
                "[sensors.serial]\nbaud = 0\n",
                "c.toml:2: [sensors.serial] baud: must be from 1200 to 4000000, not 0",
            ),
            (
                "[sensors.serial]\nstale_ms = 0\n",
                "c.toml:2: [sensors.serial] stale_ms: must be from 50 to 60000, not 0",
            ),
            (
                "[buttons]\nlong_press_ms = 0\n",
                "c.toml:2: [buttons] long_press_ms: must be from 100 to 10000, not 0",
            ),
            (
                "[sensors.matrix]\ndrive = [5, 6, 13, 19, 26, 12, 16, 40]\n",
                "c.toml:2: [sensors.matrix] drive: each value must be from 0 to 27, not 40",
            ),
            (
                "[sensors.mcp23017]\naddresses = [0x20, 0x21, 0x22, 0x50]\n",
                "c.toml:2: [sensors.mcp23017] addresses: each value must be from 0x20 to 0x27, not 0x50",
            ),
        ] {
            assert_eq!(error(text), expected, "{text:?}");
        }
    }

    #[test]
    fn clock_modules_on_pins_the_matrix_uses_name_the_key_and_line() {
        assert_eq!(
            error("[display]\nfaces = [\"tm1637\"]\n[display.tm1637]\nwhite_clk = 26\n"),
            "c.toml:4: [display.tm1637] White's CLK: BCM pin 26 is already [sensors.matrix] \
             drive line 4"
        );
        assert_eq!(
            error("[display.tm1637]\nbrightness = 8\n"),
            "c.toml:2: [display.tm1637] brightness: must be from 0 to 7, not 8"
        );
        // The modules' own defaults are free pins when the expanders read
        // the board, and are not checked when no module is configured.
        let ok = |text: &str| {
            Config::parse(text, "c.toml")
                .map(|_| ())
                .map_err(|e| e.to_string())
        };
        assert_eq!(
            ok("[sensors]\nsource = \"mcp23017\"\n[display]\nfaces = [\"tm1637\"]\n"),
            Ok(())
        );
        assert_eq!(ok("[display.tm1637]\nwhite_clk = 26\n"), Ok(()));
    }

    #[test]
    fn a_second_board_and_the_seats_are_read_and_checked() {
        let c = Config::parse(
            "[game]\nblack_moves_on = \"sighted\"\n\
             [[boards]]\nname = \"sighted\"\n[boards.sensors]\nsource = \"serial\"\n\
             [boards.sensors.serial]\nport = \"/dev/ttyACM1\"\n",
            "c.toml",
        )
        .expect("valid");
        assert_eq!(c.board_names(), ["blind", "sighted"]);
        assert_eq!(c.boards[0].sensors.serial.port, "/dev/ttyACM1");
        let seats = c.settings().seats;
        assert_eq!(seats.white, crate::core::Seat::Board("blind".into()));
        assert_eq!(seats.black, crate::core::Seat::Board("sighted".into()));
        let relay = Config::parse("[game]\nwhite_moves_on = \"relay\"\n", "c.toml").expect("valid");
        assert_eq!(relay.settings().seats.white, crate::core::Seat::Relay);
        assert_eq!(
            error("[game]\nblack_moves_on = \"sighty\"\n"),
            "c.toml:2: [game] black_moves_on = \"sighty\": no such board (the boards: blind; or \
             \"relay\" for moves relayed by hand)"
        );
        assert!(
            error("[[boards]]\nname = \"blind\"\n")
                .starts_with("c.toml:2: [[boards]] name = \"blind\""),
        );
        assert!(
            error("[[boards]]\nname = \"a\"\n[[boards]]\nname = \"a\"\n")
                .starts_with("c.toml:4: [[boards]] name = \"a\" is given twice"),
        );
        assert!(error("[[boards]]\nname = \"Two Words\"\n").contains("1 to 32 of a-z"));
    }

    #[test]
    fn checks_across_keys_name_the_key_and_line() {
        assert_eq!(
            error("[board]\na1 = [0, 0]\nh1 = [3, 3]\n"),
            "c.toml:3: [board] h1: h1 is at [3, 3], which is not a corner of the matrix; a1, h1 \
             and h8 are corners"
        );
        assert_eq!(
            error(
                "[sensors]\nsource = \"matrix\"\n[sensors.matrix]\n\
                 sense = [4, 17, 27, 22, 10, 9, 11, 5]\n"
            ),
            "c.toml:4: [sensors.matrix] sense line 7: BCM pin 5 is already [sensors.matrix] \
             drive line 0"
        );
        assert_eq!(
            error(
                "[sensors]\nsource = \"serial\"\n[[buttons.key]]\nbit = 3\n[[buttons.key]]\nbit = 3\npin = 4\n"
            ),
            "c.toml:7: [[buttons.key]] number 2 needs either `pin` (a GPIO button) or `bit` (a \
             serial scanner's button), not both or neither"
        );
        assert_eq!(
            error("[sensors]\nsource = \"serial\"\n[[buttons.key]]\nbit = 30\n"),
            "c.toml:4: [[buttons.key]] number 1: bit 30; the scanner's button bits are 0–15"
        );
    }

    #[test]
    fn a_huge_value_is_quoted_by_its_beginning_only() {
        let text = format!("language = \"{}\"\n", "x".repeat(20_000_000));
        let err = error(&text);
        assert!(err.len() < 300, "{} bytes", err.len());
        assert!(err.starts_with("c.toml:1: language = \"xxxx"), "{err}");
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
    fn unknown_language_lists_the_built_in_ones_at_its_line() {
        let err = error("# my setup\nlanguage = \"klingon\"\n");
        assert!(
            err.starts_with("c.toml:2: language = \"klingon\": no such built-in language"),
            "{err}"
        );
        assert!(err.contains("built in: ca, de, en, es, fide, pt"), "{err}");
        let err = error("language = \"./missing.toml\"\n");
        assert!(
            err.starts_with(
                "c.toml:1: language = \"./missing.toml\": the language file cannot be read"
            ),
            "{err}"
        );
    }

    #[test]
    fn bad_style_names_key_and_line() {
        assert!(
            error("[announce]\nstyle = \"medium\"\n")
                .starts_with("c.toml:2: [announce] style: unknown variant `medium`")
        );
    }

    #[test]
    fn unknown_voice_names_key_and_line() {
        assert!(
            error("[speech]\nvoices = [\"clips\", \"espeak\"]\n")
                .starts_with("c.toml:2: [speech] voices: unknown variant `espeak`")
        );
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
        let err = error("[clock]\n\ncontrol = \"ninety minutes\"\n");
        assert!(
            err.starts_with(
                "c.toml:3: [clock] control: \"ninety minutes\" is not a time control: a time \
                 control is minutes"
            ),
            "{err}"
        );
        assert_eq!(
            error("[clock]\ncontrol = \"90\"\npgn_control = \"5400\"\n"),
            "c.toml:3: [clock] sets both `control` and `pgn_control`; set one of them"
        );
        assert!(
            error("[clock]\npgn_control = \"40/5400+30:99999999\"\n")
                .starts_with("c.toml:2: [clock] pgn_control: time control")
        );
    }

    #[test]
    fn check_config_and_play_reach_one_verdict_on_the_sensors() {
        let dir = std::env::temp_dir().join(format!("pegboard-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("c.toml");
        let load = |text: &str| {
            std::fs::write(&path, text).expect("write");
            Config::load(&path.to_string_lossy()).expect("the file itself is valid")
        };
        let err = load("[sensors]\nsource = \"trace\"\n")
            .check_sensors()
            .unwrap_err();
        assert_eq!(err.line, Some(2));
        assert!(err.message.contains("needs [sensors.trace] file"), "{err}");
        let err =
            load("[sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"/nowhere.jsonl\"\n")
                .check_sensors()
                .unwrap_err();
        assert_eq!(err.line, Some(4));
        assert!(err.message.contains("cannot be read"), "{err}");
        #[cfg(not(feature = "rpi"))]
        {
            let err = load("[sensors]\nsource = \"matrix\"\n")
                .check_sensors()
                .unwrap_err();
            assert_eq!(err.line, Some(2));
            assert!(
                err.message.contains("without Raspberry Pi support"),
                "{err}"
            );
            let err = load("[sensors]\nsource = \"serial\"\n[[buttons.key]]\npin = 17\n")
                .check_sensors()
                .unwrap_err();
            assert_eq!(err.line, Some(4));
            assert!(err.message.contains("GPIO `pin`"), "{err}");
        }
        assert!(
            load("[sensors]\nsource = \"serial\"\n")
                .check_sensors()
                .is_ok()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_increment_timing_is_chosen_in_the_file() {
        assert_eq!(
            Config::parse("", "c")
                .expect("valid")
                .settings()
                .clock
                .increment,
            IncrementTiming::Before,
            "the hall's clocks by default"
        );
        let c = Config::parse("[clock]\ncontrol = \"90+30\"\nincrement = \"after\"\n", "c")
            .expect("valid");
        assert_eq!(c.settings().clock.increment, IncrementTiming::After);
        assert!(
            error("[clock]\nincrement = \"sometimes\"\n")
                .starts_with("c.toml:2: [clock] increment: unknown variant `sometimes`")
        );
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
