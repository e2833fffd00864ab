//! `[mirror]`: the address the page is served on, and the side its board
//! is seen from.

use serde::Deserialize;
use shakmaty::Color;

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

impl Orientation {
    /// The colour the board is seen from, for a blind player of `blind`.
    pub fn seen_by(self, blind: Color) -> Color {
        match self {
            Orientation::Opponent => !blind,
            Orientation::White => Color::White,
            Orientation::Black => Color::Black,
        }
    }
}
