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

/// The chess a game is played in: standard chess (lichess's
/// `fromPosition` games, standard chess from a set position, with it), or
/// Chess960 (Appendix F), which lichess starts from one of its 960
/// positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    #[default]
    Standard,
    Chess960,
}

impl Variant {
    /// lichess's key for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Chess960 => "chess960",
        }
    }

    /// Whether a game in lichess's variant `key` is played in it: a
    /// standard game from a set position (`fromPosition`) is standard
    /// chess too.
    pub fn takes(self, key: &str) -> bool {
        match self {
            Variant::Standard => matches!(key, "standard" | "fromPosition"),
            Variant::Chess960 => key == "chess960",
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
    /// "standard" or "chess960".
    pub variant: Variant,
    /// Days a move: a correspondence game (no clock) instead of `time`
    /// and `increment`; the games under way are offered to choose from.
    pub days: Option<u32>,
    /// Friends on lichess the spoken menu offers to challenge.
    pub friends: Vec<String>,
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
            variant: Variant::Standard,
            days: None,
            friends: Vec::new(),
        }
    }
}

/// Whether `name` is a lichess user name: letters, digits, `_` and `-`,
/// 2 to 30 of them.
fn is_user_name(name: &str) -> bool {
    (2..=30).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The days a move lichess offers for a correspondence game (lila's
/// `DaysChoices`).
pub const CORRESPONDENCE_DAYS: [u32; 7] = [1, 2, 3, 5, 7, 10, 14];

/// The shortest seek the Board API takes: rapid, an estimated game time
/// (`time` + 40 × `increment`) of 8 minutes or more.
const SEEK_LEAST_SECONDS: u32 = 8 * 60;
/// The shortest game the Board API plays against lichess's AI or from a
/// challenge: blitz, 3 minutes or more; bullet never (lila's
/// `Game.isBoardCompatible`).
const CHALLENGE_LEAST_SECONDS: u32 = 3 * 60;

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
        if let Some(days) = self.days
            && !CORRESPONDENCE_DAYS.contains(&days)
        {
            out.push((
                "days",
                format!(
                    "{days} is not one of lichess's days a move: {}",
                    CORRESPONDENCE_DAYS.map(|d| d.to_string()).join(", ")
                ),
            ));
        }
        // lila rates a correspondence game in standard chess only (its
        // ApiConfig `validRated`).
        if self.rated
            && self.days.is_some()
            && self.variant != Variant::Standard
            && self.find == Find::Challenge
        {
            out.push((
                "rated",
                "lichess plays a Chess960 game by days a move casual only".to_string(),
            ));
        }
        let timed = self.days.is_none();
        if timed
            && self.find == Find::Seek
            && self.time * 60 + 40 * self.increment < SEEK_LEAST_SECONDS
        {
            out.push((
                "time",
                format!(
                    "{}+{} is too quick for a seek from a board (lichess takes rapid and \
                     classical: time + 40 × increment of 8 minutes or more)",
                    self.time, self.increment
                ),
            ));
        }
        if timed
            && self.find != Find::Seek
            && self.time * 60 + 40 * self.increment < CHALLENGE_LEAST_SECONDS
        {
            out.push((
                "time",
                format!(
                    "{}+{} is bullet, which lichess never lets a board play (against its AI or \
                     in a challenge it takes blitz and slower: time + 40 × increment of 3 \
                     minutes or more)",
                    self.time, self.increment
                ),
            ));
        }
        if !(1..=8).contains(&self.level) {
            out.push(("level", format!("{} is not from 1 to 8", self.level)));
        }
        for friend in &self.friends {
            if !is_user_name(friend) {
                out.push((
                    "friends",
                    format!(
                        "\"{}\" is no lichess user name (letters, digits, _ and -)",
                        crate::text::quote::short(friend)
                    ),
                ));
            }
        }
        if self.friends.len() > 20 {
            out.push(("friends", "at most 20 friends".to_string()));
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

    /// The speed lichess gives a game of this table's clock (its chess
    /// `Speed`, by the estimated time `time × 60 + 40 × increment`
    /// seconds).
    pub fn speed(&self) -> &'static str {
        if self.days.is_some() {
            return "correspondence";
        }
        match self.time * 60 + 40 * self.increment {
            0..30 => "ultraBullet",
            30..180 => "bullet",
            180..480 => "blitz",
            480..1500 => "rapid",
            _ => "classical",
        }
    }

    /// The `source`s lichess gives a game found this way: a seek is
    /// paired in the lobby or in a pool, a challenge sent or accepted is
    /// a friend's, lichess's AI is `ai`.
    pub fn sources(&self) -> &'static [&'static str] {
        match self.find {
            Find::Seek => &["lobby", "pool"],
            Find::Challenge | Find::Accept => &["friend"],
            Find::Ai => &["ai"],
        }
    }

    /// Why a game the event stream names is not the one this table asked
    /// for, if it is not: made another way, at another speed, in another
    /// variant, or not for the Board API.
    pub fn unlike(&self, game: &crate::lichess::stream::GameInfo) -> Option<String> {
        if game.compat.is_some_and(|c| !c.board) {
            return Some("lichess does not let a board play it".into());
        }
        if let Some(source) = game.source.as_deref()
            && !self.sources().contains(&source)
        {
            return Some(format!(
                "it was made as a {source} game, not by a {}",
                self.find.as_str()
            ));
        }
        if let Some(speed) = game.speed.as_deref()
            && speed != self.speed()
        {
            return Some(format!("it is a {speed} game, not {}", self.speed()));
        }
        if let Some(v) = game.variant.as_ref()
            && !self.variant.takes(&v.key)
        {
            return Some(format!("it is {}, not {}", v.key, self.variant.as_str()));
        }
        None
    }

    /// Why the whole game `full`, in which the player plays `white` (or
    /// Black), is not the one `[lichess]` asked for: another clock, a
    /// rated game for a casual one, another opponent, the AI at another
    /// level. The event stream's line does not say these; the game's
    /// first line does.
    pub fn unlike_full(
        &self,
        full: &crate::lichess::stream::GameFull,
        white: bool,
    ) -> Option<String> {
        let asked = (
            u64::from(self.time) * 60_000,
            u64::from(self.increment) * 1000,
        );
        match (self.days, full.clock) {
            (Some(days), None) if full.days_per_turn == Some(days) => {}
            (Some(days), _) => {
                return Some(format!(
                    "it is not a correspondence game of {days} days a move"
                ));
            }
            (None, clock) => {
                if let Some(why) = self.unlike_clock(clock, asked) {
                    return Some(why);
                }
            }
        }
        self.unlike_opponent(full, white)
    }

    /// Why a game's `clock` is not the one asked for.
    fn unlike_clock(
        &self,
        clock: Option<crate::lichess::stream::FullClock>,
        asked: (u64, u64),
    ) -> Option<String> {
        match clock {
            Some(c) if (c.initial, c.increment) == asked => {}
            Some(c) => {
                return Some(format!(
                    "its clock is {} s + {} s, not {} min + {} s",
                    c.initial / 1000,
                    c.increment / 1000,
                    self.time,
                    self.increment
                ));
            }
            None => return Some("it has no clock".into()),
        }
        None
    }

    /// Why the opponent of `full` is not the one asked for.
    fn unlike_opponent(
        &self,
        full: &crate::lichess::stream::GameFull,
        white: bool,
    ) -> Option<String> {
        let opponent = if white { &full.black } else { &full.white };
        let named = |p: &crate::lichess::stream::Player| {
            p.id.clone()
                .or_else(|| p.name.clone())
                .map(|n| n.to_ascii_lowercase())
        };
        match self.find {
            Find::Ai if opponent.ai_level != Some(self.level) => Some(format!(
                "it is not against lichess's AI at level {}",
                self.level
            )),
            Find::Seek | Find::Challenge if full.rated != self.rated => Some(format!(
                "it is {}, not {}",
                if full.rated { "rated" } else { "casual" },
                if self.rated { "rated" } else { "casual" }
            )),
            Find::Challenge | Find::Accept
                if self.opponent_id().is_some() && named(opponent) != self.opponent_id() =>
            {
                Some(format!(
                    "it is against {}, not {}",
                    named(opponent).unwrap_or_else(|| "someone else".into()),
                    self.opponent.as_deref().unwrap_or_default().trim()
                ))
            }
            _ => None,
        }
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
        // Bullet never: 1+0 against the AI, 2+0 in a challenge.
        for (find, time) in [(Find::Ai, 1), (Find::Challenge, 2), (Find::Accept, 2)] {
            let config = LichessConfig {
                find,
                time,
                increment: 0,
                opponent: Some("bert".into()),
                ..Default::default()
            };
            let problems = config.problems();
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert_eq!(problems[0].0, "time");
            assert!(problems[0].1.contains("bullet"), "{problems:?}");
        }
        // Days a move: lichess's choices only, and no clock to check.
        let days = |days| LichessConfig {
            days: Some(days),
            time: 1,
            increment: 0,
            ..Default::default()
        };
        assert!(days(3).problems().is_empty(), "{:?}", days(3).problems());
        assert_eq!(days(3).speed(), "correspondence");
        let problems = days(4).problems();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].0, "days");
        assert!(
            problems[0].1.contains("1, 2, 3, 5, 7, 10, 14"),
            "{problems:?}"
        );
        // A blitz game is fine against the AI or in a challenge.
        let ai = LichessConfig {
            find: Find::Ai,
            time: 3,
            increment: 2,
            ..Default::default()
        };
        assert!(ai.problems().is_empty());
    }

    #[test]
    fn a_game_under_way_in_another_variant_is_not_the_one_asked_for() {
        let info = |key: &str| crate::lichess::stream::GameInfo {
            game_id: "g".into(),
            color: None,
            fen: None,
            is_my_turn: None,
            opponent: None,
            rated: None,
            winner: None,
            source: Some("lobby".into()),
            speed: Some("rapid".into()),
            variant: Some(crate::lichess::stream::Variant { key: key.into() }),
            compat: None,
        };
        let standard = LichessConfig::default();
        assert_eq!(standard.unlike(&info("standard")), None);
        assert_eq!(standard.unlike(&info("fromPosition")), None);
        assert!(standard.unlike(&info("chess960")).is_some());
        assert!(standard.unlike(&info("crazyhouse")).is_some());
        let c960 = LichessConfig {
            variant: Variant::Chess960,
            ..Default::default()
        };
        assert_eq!(c960.unlike(&info("chess960")), None);
        assert!(c960.unlike(&info("standard")).is_some());
        assert!(c960.unlike(&info("fromPosition")).is_some());
    }
}
