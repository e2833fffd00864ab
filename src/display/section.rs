//! `[display]`: where the clock is shown, and the TM1637 modules' pins.

use serde::Deserialize;

use crate::text::bounded;

/// A clock face `play` drives besides its printed events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FaceKind {
    /// A status line with both times, updated in place, when standard
    /// output is a terminal.
    Terminal,
    /// Two TM1637 four-digit modules on the Pi's GPIO, one per player.
    Tm1637,
}

/// `[display]`: where the clock is shown.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DisplayConfig {
    pub faces: Vec<FaceKind>,
    pub tm1637: Tm1637Config,
}

impl Default for DisplayConfig {
    fn default() -> Self {
        DisplayConfig {
            faces: vec![FaceKind::Terminal],
            tm1637: Tm1637Config::default(),
        }
    }
}

/// `[display.tm1637]`: the BCM pins of the two modules' CLK and DIO lines.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Tm1637Config {
    #[serde(deserialize_with = "bounded::u8_in::<_, 0, 27>")]
    pub white_clk: u8,
    #[serde(deserialize_with = "bounded::u8_in::<_, 0, 27>")]
    pub white_dio: u8,
    #[serde(deserialize_with = "bounded::u8_in::<_, 0, 27>")]
    pub black_clk: u8,
    #[serde(deserialize_with = "bounded::u8_in::<_, 0, 27>")]
    pub black_dio: u8,
    /// 0 (dimmest) … 7 (brightest).
    #[serde(deserialize_with = "bounded::u8_in::<_, 0, 7>")]
    pub brightness: u8,
}

impl Default for Tm1637Config {
    fn default() -> Self {
        Tm1637Config {
            white_clk: 5,
            white_dio: 6,
            black_clk: 13,
            black_dio: 19,
            brightness: 7,
        }
    }
}
