//! The rules engine's sections of the configuration file: `[debounce]`,
//! `[tracker]`, `[clock]` and `[game]`, each read and checked where it is
//! written, and the [`Settings`] they make together.

use serde::Deserialize;
use shakmaty::Role;

use super::clock::{IncrementTiming, TimeControl};
use super::laws::Edition;
use super::settings::{
    BLIND_BOARD, ClockSettings, ClockStart, FlagRule, Players, Seat, Seats, Settings, TouchPolicy,
};
use crate::text::bounded;
use crate::text::key::KeyProblem;

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
    /// The completed illegal move that the Laws of `[game] laws` say
    /// loses does; `false`: each costs the opponent's time only. Read
    /// under its old name too.
    #[serde(alias = "third_illegal_move_loses")]
    pub illegal_moves_lose: bool,
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
            illegal_moves_lose: c.illegal_moves_lose,
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
            illegal_moves_lose: self.illegal_moves_lose,
        }
    }
}

/// `[game]`: the scoresheet's tags (PGN's Seven Tag Roster; the date is
/// the day the game begins), and where each player's moves are made.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GameConfig {
    #[serde(deserialize_with = "tag_text")]
    pub event: Option<String>,
    #[serde(deserialize_with = "tag_text")]
    pub site: Option<String>,
    #[serde(deserialize_with = "tag_text")]
    pub round: Option<String>,
    #[serde(deserialize_with = "tag_text")]
    pub white: Option<String>,
    #[serde(deserialize_with = "tag_text")]
    pub black: Option<String>,
    /// The board White's moves are made on (a `[[boards]]` name), or
    /// "relay": typed in or keyed by an assistant, or "engine": chosen by
    /// the chess engine of `[engine]`.
    pub white_moves_on: String,
    pub black_moves_on: String,
    /// While a board differs from the game unexplained (E2.7), moves on
    /// the other boards wait until it is put right.
    pub hold_on_divergence: bool,
    /// The edition of the Laws: "2023" (today's) or "2008".
    pub laws: LawsName,
    /// Rated play (fair play, Art. 11.3): no engine and no online seat,
    /// no practice keys, and the spoken menu offers no opponent but a
    /// person; `check-config` refuses what would break it.
    pub tournament: bool,
}

/// `[game] laws`: an edition of the Laws, by its year.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LawsName(pub Edition);

impl<'de> Deserialize<'de> for LawsName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Edition::parse(&text).map(LawsName).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "`laws` is the edition of the FIDE Laws the game is played under: \"2023\" \
                 (today's, the default) or \"2008\", not \"{}\"",
                crate::text::quote::short(&text)
            ))
        })
    }
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
            laws: LawsName::default(),
            tournament: false,
        }
    }
}

/// A scoresheet tag's text: one line (a line break would end the tag in
/// the PGN), at most 255 characters.
fn tag_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let text = String::deserialize(d)?;
    if text.chars().any(char::is_control) {
        return Err(serde::de::Error::custom(
            "a scoresheet tag is one line of text, without line breaks or tabs",
        ));
    }
    if text.chars().count() > 255 {
        return Err(serde::de::Error::custom(
            "a scoresheet tag is at most 255 characters",
        ));
    }
    Ok(Some(text))
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

impl ClockConfig {
    /// What serde cannot check: one time control, not two.
    pub fn check(&self) -> Result<(), KeyProblem> {
        if self.control.is_some() && self.pgn_control.is_some() {
            return Err(KeyProblem::at(
                &["clock", "pgn_control"],
                "[clock] sets both `control` and `pgn_control`; set one of them".to_string(),
            ));
        }
        Ok(())
    }
}

/// The game's settings, from its four sections.
pub fn settings(
    debounce: &DebounceConfig,
    tracker: &TrackerConfig,
    clock: &ClockConfig,
    game: &GameConfig,
) -> Settings {
    Settings {
        debounce_ms: debounce.window_ms,
        settle_ms: tracker.settle_ms,
        castling_wait_ms: tracker.castling_wait_ms,
        together_ms: tracker.together_ms,
        touch_policy: tracker.touch_policy,
        default_promotion: match tracker.default_promotion {
            PromotionDefault::None => None,
            PromotionDefault::Q => Some(Role::Queen),
            PromotionDefault::R => Some(Role::Rook),
            PromotionDefault::B => Some(Role::Bishop),
            PromotionDefault::N => Some(Role::Knight),
        },
        clock: clock.settings(),
        seats: Seats {
            white: Seat::parse(&game.white_moves_on),
            black: Seat::parse(&game.black_moves_on),
        },
        hold_on_divergence: game.hold_on_divergence,
        laws: game.laws.0,
        // The menu's choices span tables the core does not read (the
        // engine, the keys, the voice): the runtime fills them in.
        preferences: crate::core::settings::Choices::default(),
        online_friends: None,
        tournament: game.tournament,
    }
}
