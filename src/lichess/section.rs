//! `[lichess]`: the server the blind player plays on, and how a game is
//! found there.

use serde::Deserialize;

/// How a game is found on the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Find {
    /// A seek in the lobby, at `time` + `increment` (the Board API takes
    /// rapid and classical seeks only).
    #[default]
    Seek,
    /// A challenge sent to `opponent`.
    Challenge,
    /// A challenge from `opponent` (from anyone, when none is named),
    /// accepted when its clock and variant are what the table says.
    Accept,
    /// lichess's own AI, at `level`.
    Ai,
}

impl Find {
    pub fn as_str(self) -> &'static str {
        match self {
            Find::Seek => "seek",
            Find::Challenge => "challenge",
            Find::Accept => "accept",
            Find::Ai => "ai",
        }
    }
}

/// The colour asked for in a challenge or against the AI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AskedColor {
    #[default]
    Random,
    White,
    Black,
}

impl AskedColor {
    pub fn as_str(self) -> &'static str {
        match self {
            AskedColor::Random => "random",
            AskedColor::White => "white",
            AskedColor::Black => "black",
        }
    }
}

/// `[lichess]`: played when a `[game] …_moves_on` is `"lichess"`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LichessConfig {
    /// The server: lichess, or a lila of one's own.
    pub server: String,
    /// How a game is found: "seek", "challenge", "accept" or "ai".
    pub find: Find,
    /// The time each player has, in minutes.
    pub time: u32,
    /// The seconds added after each move.
    pub increment: u32,
    /// A rated game (seek and challenge).
    pub rated: bool,
    /// The player challenged, or whose challenge is accepted.
    pub opponent: Option<String>,
    /// lichess's AI's strength, 1 to 8.
    pub level: u8,
    /// The colour asked for in a challenge or against the AI.
    pub color: AskedColor,
    /// The players' chat messages are read out.
    pub chat: bool,
}

impl Default for LichessConfig {
    fn default() -> Self {
        LichessConfig {
            server: crate::lichess::client::LICHESS.to_string(),
            find: Find::Seek,
            time: 15,
            increment: 10,
            rated: false,
            opponent: None,
            level: 1,
            color: AskedColor::Random,
            chat: false,
        }
    }
}

/// The shortest seek the Board API takes: rapid, an estimated game time
/// (`time` + 40 × `increment`) of 8 minutes or more.
const SEEK_LEAST_SECONDS: u32 = 8 * 60;

impl LichessConfig {
    /// Each value the table holds that cannot be used: its key and why.
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        let server = self.server.trim();
        if !(server.starts_with("https://") || server.starts_with("http://")) {
            out.push((
                "server",
                format!(
                    "\"{}\" is no web address (like \"{}\")",
                    crate::text::quote::short(server),
                    crate::lichess::client::LICHESS
                ),
            ));
        }
        if !(1..=180).contains(&self.time) {
            out.push((
                "time",
                format!("{} is not from 1 to 180 minutes", self.time),
            ));
        }
        if self.increment > 180 {
            out.push((
                "increment",
                format!("{} is past 180 seconds", self.increment),
            ));
        }
        if self.find == Find::Seek && self.time * 60 + 40 * self.increment < SEEK_LEAST_SECONDS {
            out.push((
                "time",
                format!(
                    "{}+{} is too quick for a seek from a board (lichess takes rapid and \
                     classical: time + 40 × increment of 8 minutes or more)",
                    self.time, self.increment
                ),
            ));
        }
        if !(1..=8).contains(&self.level) {
            out.push(("level", format!("{} is not from 1 to 8", self.level)));
        }
        let named = self.opponent.as_deref().map(str::trim).unwrap_or_default();
        if self.find == Find::Challenge && named.is_empty() {
            out.push((
                "find",
                "a challenge needs `opponent`, the name of the player challenged".to_string(),
            ));
        }
        if !named
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            || named.len() > 30
        {
            out.push((
                "opponent",
                format!(
                    "\"{}\" is no lichess user name (letters, digits, _ and -)",
                    crate::text::quote::short(named)
                ),
            ));
        }
        out
    }

    /// The opponent's name, as lichess compares names (any case).
    pub fn opponent_id(&self) -> Option<String> {
        self.opponent
            .as_deref()
            .map(|n| n.trim().to_ascii_lowercase())
            .filter(|n| !n.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_seek_a_rapid_game_on_lichess() {
        let c = LichessConfig::default();
        assert!(c.problems().is_empty(), "{:?}", c.problems());
        assert_eq!(c.server, "https://lichess.org");
        assert_eq!((c.find, c.time, c.increment), (Find::Seek, 15, 10));
    }

    #[test]
    fn each_unusable_value_is_named_at_its_key() {
        let cases = [
            (
                LichessConfig {
                    server: "lichess.org".into(),
                    ..Default::default()
                },
                "server",
            ),
            (
                LichessConfig {
                    time: 3,
                    increment: 0,
                    ..Default::default()
                },
                "time",
            ),
            (
                LichessConfig {
                    find: Find::Challenge,
                    ..Default::default()
                },
                "find",
            ),
            (
                LichessConfig {
                    opponent: Some("bad name!".into()),
                    ..Default::default()
                },
                "opponent",
            ),
            (
                LichessConfig {
                    level: 9,
                    ..Default::default()
                },
                "level",
            ),
        ];
        for (config, key) in cases {
            let problems = config.problems();
            assert_eq!(problems.first().map(|p| p.0), Some(key), "{problems:?}");
        }
        // A blitz game is fine against the AI or in a challenge.
        let ai = LichessConfig {
            find: Find::Ai,
            time: 3,
            increment: 2,
            ..Default::default()
        };
        assert!(ai.problems().is_empty());
    }
}
