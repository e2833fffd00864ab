//! The round pushed to a lichess broadcast round
//! (`POST /api/broadcast/round/{id}/push`, the PGN as the body, a token
//! with the `study:write` scope): one push at a time, again whenever the
//! round changed, at most one a second. After a refusal it waits: a
//! minute after 429 (too many requests, as lichess asks of every client;
//! `[hall.push] retry_after_429_s`),
//! a minute after a refused token or an unknown round (the organiser must
//! act; the hall view says so), and 1 s, 2 s, 4 s … 60 s after other
//! failures. Only the latest round is ever pushed: a change made while a
//! push was under way is pushed after it, whole.
//!
//! lichess reads at most [`MOST_BYTES`] in one push. A round too big for
//! that (many boards of long games) is pushed in parts, each under it:
//! the games lichess has not yet taken as they stand, in board order.
//! lichess leaves a game a push does not name as it was.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::lichess::token::Token;

/// The shortest time between two pushes.
pub const SPACING: Duration = Duration::from_secs(1);

/// The wait after lichess refused the token or the round (after a 429,
/// the wait `[hall.push] retry_after_429_s` says, a minute for lichess).
pub const AFTER_REFUSAL: Duration = Duration::from_secs(60);

/// The longest wait after another failure.
pub const LONGEST_WAIT: Duration = Duration::from_secs(60);

/// How long a push may take, answer and all.
const PUSH_WITHIN: Duration = Duration::from_secs(20);

/// The most one push carries: lichess takes a body of up to 512 KiB (its
/// `play.http.parser.maxMemoryBuffer`), and refuses a larger one (413).
pub const MOST_BYTES: usize = 500 * 1024;

/// The round's games, each with its board (its `Board` tag, else its
/// place): the round split where lichess splits it, at a blank line before
/// a tag.
pub fn games_of(round: &str) -> Vec<(String, &str)> {
    let mut games = Vec::new();
    let mut start = 0;
    for (at, _) in round.match_indices("\n\n[") {
        games.push(&round[start..at + 2]);
        start = at + 2;
    }
    games.push(&round[start..]);
    games
        .into_iter()
        .filter(|g| !g.trim().is_empty())
        .enumerate()
        .map(|(i, g)| {
            let board = crate::hall::round::tag(g, "Board").unwrap_or_else(|| format!("#{i}"));
            (board, g)
        })
        .collect()
}

/// The next push's games (their places in `games`), given what lichess
/// took last of each board: the whole round when it fits in `most` bytes
/// and any game changed; else the changed games, in order, as many as fit
/// (one at least). None when lichess has every game as it stands.
pub fn next_push(
    games: &[(String, &str)],
    taken: &HashMap<String, String>,
    most: usize,
) -> Option<Vec<usize>> {
    let changed: Vec<usize> = (0..games.len())
        .filter(|&i| taken.get(&games[i].0).map(String::as_str) != Some(games[i].1))
        .collect();
    if changed.is_empty() {
        return None;
    }
    if games.iter().map(|(_, g)| g.len()).sum::<usize>() <= most {
        return Some((0..games.len()).collect());
    }
    let mut size = 0;
    let mut part = Vec::new();
    for i in changed {
        if !part.is_empty() && size + games[i].1.len() > most {
            break;
        }
        size += games[i].1.len();
        part.push(i);
    }
    Some(part)
}

/// How the broadcast stands, for the hall view.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PushState {
    /// Pushes lichess took.
    pub pushed: u64,
    /// The moves lichess counted in the last push it took.
    pub moves: u64,
    /// What went wrong last (none after a push that was taken whole),
    /// with lichess's own words where it gave some.
    pub trouble: Option<String>,
    /// Games lichess took in the last push but could not read, with its
    /// reasons.
    pub refused_games: Vec<String>,
}

struct Slot {
    /// The round to push, when it differs from the last pushed.
    latest: Option<String>,
    stopped: bool,
    state: PushState,
}

/// The pusher, on a thread of its own.
pub struct Pusher {
    slot: Arc<(Mutex<Slot>, Condvar)>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// What a push came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Taken: for each game of the push, in order, the moves lichess
    /// counted, or why it could not read it (the players named).
    Taken { games: Vec<Result<u64, String>> },
    /// 429: too many requests.
    TooMany,
    /// The token (401, 403) or the round (404) refused.
    Refused(String),
    /// Anything else: no answer, a server error.
    Failed(String),
}

/// The wait before the next try after `outcome`, the previous failure's
/// wait being `wait`, and the wait after a 429 `after_429`.
pub fn next_wait(outcome: &Outcome, wait: Duration, after_429: Duration) -> Duration {
    match outcome {
        Outcome::Taken { .. } => SPACING,
        Outcome::TooMany => after_429,
        Outcome::Refused(_) => AFTER_REFUSAL,
        Outcome::Failed(_) => (wait * 2).clamp(SPACING, LONGEST_WAIT),
    }
}

/// Reads lichess's answer to a push: `{"games":[{"tags":…,"moves":n} or
/// {"tags":…,"error":"…"}]}`. The round's own refusal comes as a game's
/// error without tags, naming the upstream: lichess takes no push for a
/// round that reads its games from a source URL. (A game it could not
/// parse at all also comes without tags, and is that game's trouble.)
pub fn taken(body: &str) -> Outcome {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(body) else {
        return Outcome::Failed("lichess's answer could not be read".into());
    };
    let games = v["games"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let untagged = |g: &serde_json::Value| g["tags"].as_object().is_none_or(|t| t.is_empty());
    if let Some(error) = games
        .iter()
        .filter(|g| untagged(g))
        .filter_map(|g| g["error"].as_str())
        .find(|e| e.to_ascii_lowercase().contains("upstream"))
    {
        return Outcome::Refused(format!(
            "lichess takes no push for this round ({error}): a round that reads its games \
             from a source URL takes none; remove the source URL on lichess, or [hall.push]"
        ));
    }
    let games = games
        .iter()
        .map(|g| {
            let name = |c: &str| g["tags"][c].as_str().unwrap_or("?").to_string();
            match g["error"].as_str() {
                Some(error) => Err(format!("{} – {}: {error}", name("White"), name("Black"))),
                None => Ok(g["moves"].as_u64().unwrap_or(0)),
            }
        })
        .collect();
    Outcome::Taken { games }
}

impl Pusher {
    /// Pushes to round `round` on `server` with `token`, waiting
    /// `after_429` when told 429.
    pub fn start(
        server: &str,
        round: &str,
        token: Token,
        after_429: Duration,
    ) -> std::io::Result<Pusher> {
        let slot = Arc::new((
            Mutex::new(Slot {
                latest: None,
                stopped: false,
                state: PushState::default(),
            }),
            Condvar::new(),
        ));
        let url = format!(
            "{}/api/broadcast/round/{round}/push",
            server.trim_end_matches('/')
        );
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(PUSH_WITHIN))
            .user_agent(concat!("pegboard-hall/", env!("CARGO_PKG_VERSION")))
            .build();
        let agent: ureq::Agent = config.into();
        let shared = Arc::clone(&slot);
        let thread = std::thread::Builder::new()
            .name("hall-push".into())
            .spawn(move || run(&shared, &agent, &url, &token, after_429))?;
        Ok(Pusher {
            slot,
            thread: Some(thread),
        })
    }

    /// The round as it stands: pushed when the pusher is free.
    pub fn offer(&self, pgn: &str) {
        let (lock, wake) = &*self.slot;
        let mut slot = lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        slot.latest = Some(pgn.to_string());
        wake.notify_all();
    }

    pub fn state(&self) -> PushState {
        let (lock, _) = &*self.slot;
        lock.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .state
            .clone()
    }

    /// Stops after the push under way, if any.
    pub fn stop(mut self) {
        {
            let (lock, wake) = &*self.slot;
            lock.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .stopped = true;
            wake.notify_all();
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn push(agent: &ureq::Agent, url: &str, token: &Token, pgn: &str) -> Outcome {
    let response = agent
        .post(url)
        .header("Authorization", &format!("Bearer {}", token.secret()))
        .header("Content-Type", "text/plain; charset=utf-8")
        .send(pgn);
    let response = match response {
        Ok(r) => r,
        Err(e) => return Outcome::Failed(e.to_string()),
    };
    let status = response.status().as_u16();
    let body = response.into_body().read_to_string().unwrap_or_default();
    let words = || {
        serde_json::from_str::<serde_json::Value>(&body)
            .ok()
            .and_then(|v| v["error"].as_str().map(str::to_string))
            .unwrap_or_else(|| body.chars().take(200).collect())
    };
    match status {
        200 => taken(&body),
        429 => Outcome::TooMany,
        401 | 403 => Outcome::Refused(format!(
            "lichess refused the broadcast token ({status}): it needs the study:write scope, \
             and its owner must be a contributor of the broadcast ({})",
            words()
        )),
        404 => {
            Outcome::Refused("lichess knows no broadcast round by [hall.push] round (404)".into())
        }
        413 => Outcome::Failed(format!(
            "lichess takes at most 512 KiB in one push, and this one had {} KiB (413)",
            pgn.len().div_ceil(1024)
        )),
        _ => Outcome::Failed(format!("lichess answered {status}: {}", words())),
    }
}

fn run(
    slot: &Arc<(Mutex<Slot>, Condvar)>,
    agent: &ureq::Agent,
    url: &str,
    token: &Token,
    after_429: Duration,
) {
    let (lock, wake) = &**slot;
    // What lichess took last of each board's game, and what it said of
    // it: the moves it counted, or why it could not read it.
    let mut taken_games: HashMap<String, String> = HashMap::new();
    let mut answers: std::collections::BTreeMap<String, Result<u64, String>> =
        std::collections::BTreeMap::new();
    // The most one push carries: less after lichess found one too large.
    let mut most = MOST_BYTES;
    let mut wait = SPACING;
    let mut not_before = Instant::now();
    loop {
        // What lichess does not yet have of the latest round, once the
        // wait is over: the whole round, or a part of one too big.
        let (pgn, boards) = {
            let mut s = lock
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            loop {
                if s.stopped {
                    return;
                }
                let now = Instant::now();
                let latest = s.latest.as_deref().unwrap_or_default();
                let games = games_of(latest);
                let part = next_push(&games, &taken_games, most);
                let until = match part {
                    Some(part) if now >= not_before => {
                        let pgn: String = part.iter().map(|&i| games[i].1).collect();
                        let boards: Vec<(String, String)> = part
                            .iter()
                            .map(|&i| (games[i].0.clone(), games[i].1.to_string()))
                            .collect();
                        break (pgn, boards);
                    }
                    Some(_) => not_before.saturating_duration_since(now),
                    None => Duration::from_secs(3600),
                };
                s = wake
                    .wait_timeout(s, until)
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .0;
            }
        };
        let outcome = push(agent, url, token, &pgn);
        if matches!(&outcome, Outcome::Failed(why) if why.ends_with("(413)")) {
            most = (pgn.len() / 2).max(1);
        }
        wait = next_wait(&outcome, wait, after_429);
        not_before = Instant::now() + wait;
        let mut s = lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match outcome {
            Outcome::Taken { games } => {
                // lichess answers for the games it read, in the push's
                // order (at most 100 of them).
                for ((board, _), answer) in boards.iter().zip(games) {
                    answers.insert(board.clone(), answer);
                }
                taken_games.extend(boards);
                s.state.pushed += 1;
                s.state.moves = answers.values().filter_map(|a| a.as_ref().ok()).sum();
                // A game lichess could not read is trouble the hall view
                // names, though the push was taken (lichess answers 200
                // for a round whose every game failed), until a later push
                // of it is read.
                let refused: Vec<String> = answers
                    .values()
                    .filter_map(|a| a.as_ref().err().cloned())
                    .collect();
                s.state.trouble = (!refused.is_empty()).then(|| {
                    format!(
                        "lichess could not read {} of the {} games: {}",
                        refused.len(),
                        answers.len(),
                        refused.join("; ")
                    )
                });
                s.state.refused_games = refused;
                wait = SPACING;
            }
            Outcome::TooMany => {
                s.state.trouble = Some(format!(
                    "lichess asked for fewer pushes (429): the next waits {} s",
                    after_429.as_secs()
                ));
            }
            Outcome::Refused(why) | Outcome::Failed(why) => s.state.trouble = Some(why),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lichess_answer_counts_the_moves_and_names_the_games_it_could_not_read() {
        let body = r#"{"games":[
            {"tags":{"White":"Ann","Black":"Ben"},"moves":12},
            {"tags":{"White":"Carl","Black":"Dora"},"error":"Invalid move"},
            {"tags":{"White":"Eve","Black":"Finn"},"moves":3}]}"#;
        assert_eq!(
            taken(body),
            Outcome::Taken {
                games: vec![Ok(12), Err("Carl – Dora: Invalid move".into()), Ok(3)]
            }
        );
    }

    #[test]
    fn a_round_without_pushes_names_its_own_refusal() {
        let body = r#"{"games":[{"tags":{},"error":"The round has an upstream URL"}]}"#;
        assert!(
            matches!(taken(body), Outcome::Refused(why) if why.contains("source URL") && why.contains("[hall.push]"))
        );
        // A game lichess could not parse also comes without tags: that
        // game's trouble, not the round's.
        let body =
            r#"{"games":[{"tags":{},"error":"Invalid PGN"},{"tags":{"White":"A"},"moves":2}]}"#;
        assert_eq!(
            taken(body),
            Outcome::Taken {
                games: vec![Err("? – ?: Invalid PGN".into()), Ok(2)]
            }
        );
    }

    fn game(board: u32, moves: &str) -> String {
        format!("[Event \"Open\"]\n[Board \"{board}\"]\n[Result \"*\"]\n\n{moves} *\n\n")
    }

    #[test]
    fn the_round_is_split_into_its_games_by_board() {
        let round = [game(1, "1. e4"), game(2, "1. d4"), game(3, "")].concat();
        let games = games_of(&round);
        let boards: Vec<&str> = games.iter().map(|(b, _)| b.as_str()).collect();
        assert_eq!(boards, ["1", "2", "3"]);
        assert_eq!(games[1].1, game(2, "1. d4"));
        assert_eq!(games.iter().map(|(_, g)| *g).collect::<String>(), round);
    }

    #[test]
    fn a_round_that_fits_goes_whole_and_one_too_big_in_parts_of_what_changed() {
        let round = [game(1, "1. e4"), game(2, "1. d4"), game(3, "1. c4")].concat();
        let games = games_of(&round);
        let mut taken = HashMap::new();
        assert_eq!(next_push(&games, &taken, 10_000), Some(vec![0, 1, 2]));
        // Parts of at most two games' size: the first two, then the third.
        let most = games[0].1.len() + games[1].1.len();
        assert_eq!(next_push(&games, &taken, most), Some(vec![0, 1]));
        for &i in &[0, 1] {
            taken.insert(games[i].0.clone(), games[i].1.to_string());
        }
        assert_eq!(next_push(&games, &taken, most), Some(vec![2]));
        taken.insert(games[2].0.clone(), games[2].1.to_string());
        assert_eq!(next_push(&games, &taken, most), None);
        // Board 2 moves on: only its game, when the round is too big; the
        // whole round when it fits.
        let round = [game(1, "1. e4"), game(2, "1. d4 d5"), game(3, "1. c4")].concat();
        let games = games_of(&round);
        assert_eq!(next_push(&games, &taken, most), Some(vec![1]));
        assert_eq!(next_push(&games, &taken, 10_000), Some(vec![0, 1, 2]));
        // A game larger than a push alone still goes, alone.
        assert_eq!(next_push(&games, &HashMap::new(), 10), Some(vec![0]));
    }

    #[test]
    fn the_waits_after_each_outcome() {
        let taken = Outcome::Taken { games: vec![Ok(1)] };
        let minute = Duration::from_secs(60);
        assert_eq!(next_wait(&taken, Duration::from_secs(8), minute), SPACING);
        assert_eq!(next_wait(&Outcome::TooMany, SPACING, minute), minute);
        assert_eq!(
            next_wait(&Outcome::TooMany, SPACING, Duration::from_secs(5)),
            Duration::from_secs(5)
        );
        assert_eq!(
            next_wait(&Outcome::Refused("404".into()), SPACING, minute),
            AFTER_REFUSAL
        );
        let failed = Outcome::Failed("503".into());
        let waits: Vec<u64> =
            std::iter::successors(Some(SPACING), |w| Some(next_wait(&failed, *w, minute)))
                .skip(1)
                .take(8)
                .map(|d| d.as_secs())
                .collect();
        assert_eq!(waits, vec![2, 4, 8, 16, 32, 60, 60, 60]);
    }
}
