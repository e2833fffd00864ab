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

/// Reads a PIN; an error never repeats what was written, since the
/// message goes to logs and terminals.
fn pin<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    d.deserialize_any(PinVisitor).map(Some)
}

struct PinVisitor;

/// What every wrong PIN is told: the rule, and no part of the value.
const PIN_RULE: &str = "a PIN is 4 to 32 characters without spaces, written in quotes, \
                        like pin = \"4711\"";

impl<'de> serde::de::Visitor<'de> for PinVisitor {
    type Value = String;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(PIN_RULE)
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<String, E> {
        let n = text.chars().count();
        if !(4..=32).contains(&n) || text.chars().any(char::is_whitespace) {
            return Err(E::custom(PIN_RULE));
        }
        Ok(text.to_string())
    }

    // Any other kind of value: the rule only (serde's own message would
    // quote the number).
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<String, E> {
        Err(E::custom(PIN_RULE))
    }

    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<String, E> {
        Err(E::custom(PIN_RULE))
    }

    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<String, E> {
        Err(E::custom(PIN_RULE))
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<String, E> {
        Err(E::custom(PIN_RULE))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, _: A) -> Result<String, A::Error> {
        Err(serde::de::Error::custom(PIN_RULE))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, _: A) -> Result<String, A::Error> {
        Err(serde::de::Error::custom(PIN_RULE))
    }
}
