//! `[buttons]`: the player's keys, their timing and what each press does.

use serde::Deserialize;
use shakmaty::Color;

use super::{Action, ButtonTiming, KeyMap};
use crate::text::bounded;

/// A key action's name, checked where it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionName(pub Action);

impl<'de> Deserialize<'de> for ActionName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Action::parse(&text)
            .map(ActionName)
            .map_err(serde::de::Error::custom)
    }
}

/// One `[[buttons.key]]`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyConfig {
    /// A GPIO button: its BCM pin (to ground; the pull-up is switched on).
    pub pin: Option<u8>,
    /// A button on the serial scanner: its bit (0–15).
    pub bit: Option<u8>,
    /// What a short press does.
    pub press: Option<ActionName>,
    /// What a long press does.
    pub long: Option<ActionName>,
}

/// `[buttons]`
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ButtonsConfig {
    /// The colour the keypad's owner (the blind player) plays.
    pub player: PlayerColor,
    #[serde(deserialize_with = "bounded::u64_in::<_, 1, 1000>")]
    pub debounce_ms: u64,
    #[serde(deserialize_with = "bounded::u64_in::<_, 100, 10_000>")]
    pub long_press_ms: u64,
    pub key: Vec<KeyConfig>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerColor {
    #[default]
    White,
    Black,
}

impl From<PlayerColor> for Color {
    fn from(c: PlayerColor) -> Color {
        match c {
            PlayerColor::White => Color::White,
            PlayerColor::Black => Color::Black,
        }
    }
}

impl Default for ButtonsConfig {
    fn default() -> Self {
        let t = ButtonTiming::default();
        ButtonsConfig {
            player: PlayerColor::White,
            debounce_ms: t.debounce_ms,
            long_press_ms: t.long_press_ms,
            key: Vec::new(),
        }
    }
}

impl ButtonsConfig {
    pub fn timing(&self) -> ButtonTiming {
        ButtonTiming {
            debounce_ms: self.debounce_ms,
            long_press_ms: self.long_press_ms,
        }
    }

    /// Key i's meaning, in the order of the `[[buttons.key]]` tables.
    pub fn keymaps(&self) -> Vec<KeyMap> {
        self.key
            .iter()
            .map(|k| KeyMap {
                press: k.press.map(|a| a.0),
                long: k.long.map(|a| a.0),
            })
            .collect()
    }
}
