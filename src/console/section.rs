//! `[console]`: whether the console is served, and a PIN for clubs.

use serde::Deserialize;

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
