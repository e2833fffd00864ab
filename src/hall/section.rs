//! `[hall]`: the hall hub's boards, the round they play, where the hub
//! serves the arbiter's view and the round's PGN, and the broadcast.

use serde::Deserialize;

use crate::text::key::KeyProblem;

/// The most boards a hub follows: a lichess broadcast reads up to 100
/// games from one source.
pub const MOST_BOARDS: usize = 100;

/// The longest delay an organiser may set: one hour.
pub const MOST_DELAY_S: u32 = 3600;

/// `[hall]`: the tournament hall, for `pegboard hall`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HallConfig {
    /// The address and port the arbiter's view and the round's PGN are
    /// served on.
    pub listen: String,
    /// Host names the hub may be reached by besides IP addresses and
    /// `localhost`, as `[mirror] hosts`. (The broadcast's address answers
    /// to any: it serves one public file.)
    #[serde(deserialize_with = "crate::mirror::section::host_names")]
    pub hosts: Vec<String>,
    /// Where the round's games alone are served for a lichess broadcast's
    /// source URL ("0.0.0.0:8080"), always over plain HTTP (lichess follows
    /// no redirect and trusts no self-signed certificate); "" serves none.
    /// Only this address should be reachable from the internet: the hall
    /// view shows every move at once.
    pub broadcast_listen: String,
    /// The PGN tags every game of the round carries; "" keeps each
    /// board's own.
    pub event: String,
    pub site: String,
    pub round: String,
    /// Every move is held back this long before the public sees it (fair
    /// play), in the served PGN and in the pushed one alike; 0 shows each
    /// at once. The arbiter's view is never delayed.
    pub delay_s: u32,
    /// A board that has differed from the game this long needs the
    /// arbiter (a board set wrong, a sighted board not following).
    pub differing_s: u32,
    /// The boards, each with its number in the round.
    pub boards: Vec<HallBoard>,
    /// Pushing the round's PGN to a lichess broadcast round.
    pub push: Option<PushConfig>,
}

impl Default for HallConfig {
    fn default() -> Self {
        HallConfig {
            listen: "0.0.0.0:8090".into(),
            hosts: Vec::new(),
            broadcast_listen: String::new(),
            event: String::new(),
            site: String::new(),
            round: String::new(),
            delay_s: 0,
            differing_s: 10,
            boards: Vec::new(),
            push: None,
        }
    }
}

/// `[[hall.boards]]`: one board of the round.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HallBoard {
    /// Its number in the round (1, 2, …), as the pairings give it.
    pub number: u32,
    /// Where its pegboard serves its mirror, as the hub reaches it:
    /// `"192.168.1.21:8080"` or `"https://pegboard-3.local:8443"`.
    pub address: String,
    /// The players, where the board's own `[game]` tags do not name them.
    #[serde(default)]
    pub white: String,
    #[serde(default)]
    pub black: String,
    /// For a board served over HTTPS: its certificate's SHA-256
    /// fingerprint, as its `pegboard console-token` prints it. The hub
    /// trusts that certificate and no other for this board.
    #[serde(default)]
    pub fingerprint: String,
}

/// `[hall.push]`: a lichess broadcast round the hub pushes the round's
/// PGN to.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PushConfig {
    /// The broadcast round's id: the 8 letters and digits of its address
    /// on lichess (`https://lichess.org/broadcast/…/…/ROUNDID`).
    pub round: String,
    /// The server (lichess, or a test server).
    #[serde(default = "lichess")]
    pub server: String,
    /// The file that keeps the token (made on lichess with the
    /// `study:write` scope), readable by its owner alone.
    pub token_file: String,
    /// How long to wait after lichess answered 429 (too many requests):
    /// lichess asks every client for a minute; a server of one's own may
    /// ask less. 1 to 600 seconds.
    #[serde(default = "a_minute")]
    pub retry_after_429_s: u32,
}

fn lichess() -> String {
    "https://lichess.org".into()
}

fn a_minute() -> u32 {
    60
}

/// Why a board's address is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddressError(pub String);

impl std::fmt::Display for AddressError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AddressError {}

/// A board's address made whole: its scheme (`http://` unless it says
/// `https://`) and its host and port, without a path; or why not.
pub fn base_url(address: &str) -> Result<String, AddressError> {
    let (scheme, rest) = match address.split_once("://") {
        Some((s @ ("http" | "https"), rest)) => (s, rest),
        Some((s, _)) => {
            return Err(AddressError(format!(
                "\"{}\": a board is reached over http or https, not {s}",
                crate::text::quote::short(address)
            )));
        }
        None => ("http", address),
    };
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    let plain = !rest.is_empty()
        && rest.len() <= 260
        && rest
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c));
    if !plain {
        return Err(AddressError(format!(
            "\"{}\" is no board address: a host and port, like \"192.168.1.21:8080\" or \
             \"https://pegboard-3.local:8443\"",
            crate::text::quote::short(address)
        )));
    }
    Ok(format!("{scheme}://{rest}"))
}

impl HallConfig {
    /// What the table alone decides: boards numbered once each and
    /// reachable at one address each, at most [`MOST_BOARDS`], the delay
    /// at most an hour, a round id lichess could have given.
    /// Whether the round goes to a lichess broadcast: served for its
    /// source URL, or pushed.
    pub fn broadcasts(&self) -> bool {
        !self.broadcast_listen.trim().is_empty() || self.push.is_some()
    }

    pub fn check(&self) -> Result<(), KeyProblem> {
        if self.boards.len() > MOST_BOARDS {
            return Err(KeyProblem::at(
                &["hall", "boards"],
                format!(
                    "{} boards: a hub follows at most {MOST_BOARDS} (a lichess broadcast reads \
                     that many games)",
                    self.boards.len()
                ),
            ));
        }
        if !self.broadcast_listen.is_empty()
            && self
                .broadcast_listen
                .parse::<std::net::SocketAddr>()
                .is_err()
        {
            return Err(KeyProblem::at(
                &["hall", "broadcast_listen"],
                format!(
                    "[hall] broadcast_listen = \"{}\": an address and port like \"0.0.0.0:8080\" \
                     (lichess reads a source on port 80, 443, 8080 or 8491 only)",
                    crate::text::quote::short(&self.broadcast_listen)
                ),
            ));
        }
        if self.delay_s > MOST_DELAY_S {
            return Err(KeyProblem::at(
                &["hall", "delay_s"],
                format!(
                    "[hall] delay_s = {}: at most {MOST_DELAY_S} (an hour)",
                    self.delay_s
                ),
            ));
        }
        if self.differing_s == 0 || self.differing_s > 600 {
            return Err(KeyProblem::at(
                &["hall", "differing_s"],
                format!(
                    "[hall] differing_s = {}: 1 to 600 seconds",
                    self.differing_s
                ),
            ));
        }
        for (i, b) in self.boards.iter().enumerate() {
            let at = |key: &str, message: String| {
                KeyProblem::at(&["hall", "boards", &i.to_string(), key], message)
            };
            if b.number == 0 || b.number > 999 {
                return Err(at("number", format!("board number {}: 1 to 999", b.number)));
            }
            if self.boards[..i].iter().any(|o| o.number == b.number) {
                return Err(at(
                    "number",
                    format!("board number {} is given twice", b.number),
                ));
            }
            let url = base_url(&b.address).map_err(|e| at("address", e.0))?;
            if self.boards[..i]
                .iter()
                .any(|o| base_url(&o.address).ok().as_deref() == Some(url.as_str()))
            {
                return Err(at("address", format!("{url} is given for two boards")));
            }
            if url.starts_with("https://")
                && crate::net::tls::plain_fingerprint(&b.fingerprint).is_none()
            {
                return Err(at(
                    "fingerprint",
                    format!(
                        "{url} is served over HTTPS: give its certificate's fingerprint \
                         (fingerprint = \"AB:CD:…\", 32 pairs of hex digits, as the board's \
                         `pegboard console-token` prints it)"
                    ),
                ));
            }
            for (key, name) in [("white", &b.white), ("black", &b.black)] {
                if name.chars().count() > 100 || name.chars().any(char::is_control) {
                    return Err(at(
                        key,
                        "a player's name is one line of at most 100 characters".into(),
                    ));
                }
                if self.broadcasts()
                    && !name.is_empty()
                    && !crate::hall::round::broadcast_name(name)
                {
                    return Err(at(
                        key,
                        format!(
                            "{key} = \"{}\": lichess shows no game whose player is named by \
                             one letter, \"unknown\" or \"bye\"; give the player's name, or \
                             leave the key out to take the board's own",
                            crate::text::quote::short(name)
                        ),
                    ));
                }
            }
        }
        for (key, value) in [
            ("event", &self.event),
            ("site", &self.site),
            ("round", &self.round),
        ] {
            if value.chars().count() > 100 || value.chars().any(char::is_control) {
                return Err(KeyProblem::at(
                    &["hall", key],
                    format!("[hall] {key}: one line of at most 100 characters"),
                ));
            }
        }
        if let Some(push) = &self.push {
            let id = push.round.len() == 8 && push.round.chars().all(|c| c.is_ascii_alphanumeric());
            if !id {
                return Err(KeyProblem::at(
                    &["hall", "push", "round"],
                    format!(
                        "[hall.push] round = \"{}\": a broadcast round's id is the 8 letters \
                         and digits at the end of its address on lichess",
                        crate::text::quote::short(&push.round)
                    ),
                ));
            }
            if !(push.server.starts_with("https://") || push.server.starts_with("http://")) {
                return Err(KeyProblem::at(
                    &["hall", "push", "server"],
                    "[hall.push] server: an address beginning with https:// (http:// only for a \
                     test server on the hall's own network)"
                        .into(),
                ));
            }
            if push.retry_after_429_s == 0 || push.retry_after_429_s > 600 {
                return Err(KeyProblem::at(
                    &["hall", "push", "retry_after_429_s"],
                    format!(
                        "[hall.push] retry_after_429_s = {}: 1 to 600 seconds (lichess asks 60)",
                        push.retry_after_429_s
                    ),
                ));
            }
            if push.token_file.trim().is_empty() {
                return Err(KeyProblem::at(
                    &["hall", "push", "token_file"],
                    "[hall.push] token_file: the file that keeps the broadcast token".into(),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hall(text: &str) -> Result<(), String> {
        crate::config::Config::parse(text, "hall.toml")
            .map(drop)
            .map_err(|e| e.to_string())
    }

    const TWO: &str = "[hall]\nround = \"3\"\n\
        [[hall.boards]]\nnumber = 1\naddress = \"10.0.0.21:8080\"\n\
        [[hall.boards]]\nnumber = 2\naddress = \"https://pegboard-2.local:8443/\"\nwhite = \"Ann\"\n\
        fingerprint = \"5E:4A:0C:1B:5E:4A:0C:1B:5E:4A:0C:1B:5E:4A:0C:1B:5E:4A:0C:1B:5E:4A:0C:1B:\
        5E:4A:0C:1B:5E:4A:0C:1B\"\n";

    #[test]
    fn a_round_of_boards_reads() {
        assert_eq!(hall(TWO), Ok(()));
        let c = crate::config::Config::parse(TWO, "hall.toml").expect("reads");
        assert_eq!(c.hall.boards.len(), 2);
        assert_eq!(
            base_url(&c.hall.boards[1].address).as_deref(),
            Ok("https://pegboard-2.local:8443")
        );
        assert_eq!(
            base_url("10.0.0.21:8080").as_deref(),
            Ok("http://10.0.0.21:8080")
        );
    }

    #[test]
    fn a_board_numbered_twice_is_named_at_its_line() {
        let text = TWO.replace("number = 2", "number = 1");
        assert_eq!(
            hall(&text),
            Err("hall.toml:7: board number 1 is given twice".into())
        );
    }

    #[test]
    fn a_bad_address_a_shared_one_and_a_long_delay_are_refused_at_their_lines() {
        let text = TWO.replace("10.0.0.21:8080", "ftp://x");
        assert!(
            hall(&text).is_err_and(|e| e.starts_with("hall.toml:5:") && e.contains("not ftp")),
            "{:?}",
            hall(&text)
        );
        let text = TWO.replace("https://pegboard-2.local:8443/", "10.0.0.21:8080");
        assert_eq!(
            hall(&text),
            Err("hall.toml:8: http://10.0.0.21:8080 is given for two boards".into())
        );
        let text = TWO.replace("round = \"3\"", "delay_s = 7200");
        assert_eq!(
            hall(&text),
            Err("hall.toml:2: [hall] delay_s = 7200: at most 3600 (an hour)".into())
        );
    }

    #[test]
    fn a_player_lichess_would_not_show_is_refused_at_his_line_when_the_round_is_broadcast() {
        let broadcast = TWO.replace(
            "round = \"3\"",
            "round = \"3\"\nbroadcast_listen = \"0.0.0.0:8080\"",
        );
        assert_eq!(
            hall(&TWO.replace("\"Ann\"", "\"A\"")),
            Ok(()),
            "no broadcast"
        );
        for name in ["A", "unknown", "Bye", " X "] {
            let text = broadcast.replace("white = \"Ann\"", &format!("white = \"{name}\""));
            assert!(
                hall(&text).is_err_and(|e| e.starts_with("hall.toml:10:")
                    && e.contains("leave the key out to take the board's own")),
                "{name}: {:?}",
                hall(&text)
            );
        }
        assert_eq!(hall(&broadcast.replace("\"Ann\"", "\"Li\"")), Ok(()));
    }

    #[test]
    fn a_board_over_https_is_refused_without_its_fingerprint() {
        let text = TWO.replace("fingerprint", "# fingerprint");
        assert!(
            hall(&text).is_err_and(|e| e.starts_with("hall.toml:6:")
                && e.contains("give its certificate's fingerprint (fingerprint =")),
            "{:?}",
            hall(&text)
        );
    }

    #[test]
    fn a_push_names_a_round_id_lichess_could_give() {
        let text = format!("{TWO}[hall.push]\nround = \"abc\"\ntoken_file = \"t\"\n");
        assert!(
            hall(&text).is_err_and(|e| e.starts_with("hall.toml:12:")),
            "{:?}",
            hall(&text)
        );
        let text = format!("{TWO}[hall.push]\nround = \"aBcD1234\"\ntoken_file = \"t\"\n");
        assert_eq!(hall(&text), Ok(()));
    }
}
