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
    /// Host names the page may be reached by besides IP addresses and
    /// `localhost` ("pegboard.local"); any other name is refused, as a
    /// DNS-rebinding page would send it.
    #[serde(deserialize_with = "host_names")]
    pub hosts: Vec<String>,
}

/// Host names: letters, digits, dots and hyphens, at most 16 of 253 bytes.
pub(crate) fn host_names<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let names = Vec::<String>::deserialize(d)?;
    if names.len() > 16 {
        return Err(serde::de::Error::custom("at most 16 host names"));
    }
    for n in &names {
        let plain = !n.is_empty()
            && n.len() <= 253
            && n.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
        if !plain {
            return Err(serde::de::Error::custom(format!(
                "\"{}\" is no host name (letters, digits, dots and hyphens, like \"pegboard.local\")",
                crate::text::quote::short(n)
            )));
        }
    }
    Ok(names)
}

impl Default for MirrorConfig {
    fn default() -> Self {
        MirrorConfig {
            listen: "127.0.0.1:8080".into(),
            orientation: Orientation::Opponent,
            hosts: Vec::new(),
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
