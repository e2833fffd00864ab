//! One board as the hub follows it (pure): the state its mirror last
//! served, its scoresheet, whether it can be reached, and what about it
//! needs the arbiter. Times are passed in: the hub's own milliseconds
//! (since it started) for what the hub saw, and the board's game time for
//! what the board says happened.

use serde::Serialize;
use serde_json::Value;

/// How long a report (an illegal move, a touch violation) stays marked
/// for the arbiter after it happened: five minutes. A fallen flag stays
/// until the game has its result, and this long after.
pub const MARKED_MS: u64 = 5 * 60 * 1000;

/// Whether the hub reaches the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// Not reached yet since the hub started.
    Awaited { since: u64 },
    /// Its event stream is open.
    Followed,
    /// It was reached, and is no longer (hub time it was lost at).
    Lost { since: u64 },
}

/// What needs the arbiter at a board, most urgent first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Need {
    /// The blind player called the arbiter, and no one has answered yet.
    Called { for_ms: u64 },
    /// A flag fell (6.9).
    Flag { color: String, ago_ms: u64 },
    /// The hub cannot reach the board.
    Lost { for_ms: u64 },
    /// The board's pegboard no longer reads its sensors.
    SensorsLost { for_ms: u64 },
    /// A board has differed from the game this long (a mismatch, or a
    /// sighted board that does not follow), on these squares.
    Differing {
        what: String,
        for_ms: u64,
        squares: Vec<String>,
    },
    /// An illegal move completed (7.5), the player's `count`th.
    Illegal {
        color: String,
        count: u64,
        ago_ms: u64,
    },
    /// A touched piece not moved (4.3), or reported touched (E2.9e).
    Touch {
        color: String,
        what: String,
        ago_ms: u64,
    },
    /// The broadcast will not show the game: these sides have no name
    /// lichess takes (see [`broadcast_name`]).
    ///
    /// [`broadcast_name`]: crate::hall::round::broadcast_name
    Unnamed { colors: Vec<String> },
}

/// One board of the round.
#[derive(Debug, Clone)]
pub struct Board {
    pub number: u32,
    /// Where its mirror is served (`http://10.0.0.21:8080`).
    pub url: String,
    /// The players' names the organiser gave ("" where the board's own
    /// tags name them).
    pub white: String,
    pub black: String,
    pub presence: Presence,
    /// The state its mirror served last, and the hub time it came.
    state: Option<(Value, u64)>,
    /// Its scoresheet, as its mirror served it last.
    pgn: Option<String>,
    /// The hub time its stream last said anything.
    heard: u64,
    /// The game the board shows now, which may be a later one than the
    /// round's: see [`Board::take_state`].
    showing: Option<GameId>,
    /// That later game's latest state, and the hub time it came: only its
    /// call for the arbiter is shown.
    later: Option<(Value, u64)>,
}

/// A game as its board's mirror names it: the mirror's run (when its
/// pegboard started, wall time) and the game time the game began at.
type GameId = (Option<u64>, Option<u64>);

fn game_id(state: &Value) -> GameId {
    (state["run"].as_u64(), state["game"].as_u64())
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

fn ms(v: &Value) -> Option<u64> {
    v.as_u64()
}

impl Board {
    pub fn new(number: u32, url: String, white: String, black: String, now: u64) -> Board {
        Board {
            number,
            url,
            white,
            black,
            presence: Presence::Awaited { since: now },
            state: None,
            pgn: None,
            heard: now,
            showing: None,
            later: None,
        }
    }

    /// Its mirror's state, read at hub time `now`: the board is followed.
    ///
    /// Once the board's game has its result, that game is the round's: a
    /// later game on the board (the start position set up again for the
    /// next game or to go over the game) is left out, as its scoresheet
    /// is, and so is a new game after the board's pegboard started again
    /// (another `run`). A retrace within the game keeps it. The later
    /// game's call for the arbiter is shown all the same.
    pub fn take_state(&mut self, state: Value, now: u64) {
        self.presence = Presence::Followed;
        self.heard = now;
        self.showing = Some(game_id(&state));
        if self.finished().is_some() && !self.showing_the_rounds_game() {
            self.later = Some((state, now));
            return;
        }
        self.later = None;
        self.state = Some((state, now));
    }

    /// The result of the round's game on this board, once it has one.
    fn finished(&self) -> Option<&str> {
        self.state.as_ref()?.0["result"].as_str()
    }

    /// Whether the board has gone on to a later game, which the hub
    /// leaves out (see [`Board::take_state`]).
    pub fn showing_a_later_game(&self) -> bool {
        self.finished().is_some() && !self.showing_the_rounds_game()
    }

    /// Whether the board shows the game the hub holds (or holds none).
    fn showing_the_rounds_game(&self) -> bool {
        self.state
            .as_ref()
            .is_none_or(|(s, _)| Some(game_id(s)) == self.showing)
    }

    /// Its stream said something at hub time `now`.
    pub fn heard(&mut self, now: u64) {
        self.heard = now;
    }

    /// Whether the hub reaches it at hub time `now`: a followed board
    /// whose stream has said nothing for [`SILENT_AT_MOST`] is lost since
    /// it last did.
    ///
    /// [`SILENT_AT_MOST`]: super::follow::SILENT_AT_MOST
    pub fn presence_at(&self, now: u64) -> Presence {
        let silent = super::follow::SILENT_AT_MOST.as_millis() as u64;
        match self.presence {
            Presence::Followed if now.saturating_sub(self.heard) > silent => {
                Presence::Lost { since: self.heard }
            }
            p => p,
        }
    }

    /// Its scoresheet; once the round's game has its result, only that
    /// game's (the board showing it, and the same result written).
    pub fn take_pgn(&mut self, pgn: String) {
        if let Some(result) = self.finished()
            && (!self.showing_the_rounds_game()
                || crate::hall::round::tag(&pgn, "Result").as_deref() != Some(result))
        {
            return;
        }
        self.pgn = Some(pgn);
    }

    /// The board could not be reached at hub time `now`. What it showed
    /// last stays.
    pub fn lost(&mut self, now: u64) {
        match self.presence {
            Presence::Followed => self.presence = Presence::Lost { since: now },
            Presence::Awaited { .. } | Presence::Lost { .. } => {}
        }
    }

    pub fn state(&self) -> Option<&Value> {
        self.state.as_ref().map(|(v, _)| v)
    }

    pub fn pgn(&self) -> Option<&str> {
        self.pgn.as_deref()
    }

    /// The board's game time at hub time `now`: its state's instant and
    /// the time since it came, while the board is followed; the state's
    /// instant once it is lost (nothing is known to have happened since).
    pub fn game_now(&self, now: u64) -> Option<u64> {
        self.time_of(self.state.as_ref()?, now)
    }

    /// The game time at hub time `now` of a game whose state came at hub
    /// time `at` (see [`Board::game_now`]).
    fn time_of(&self, (s, at): &(Value, u64), now: u64) -> Option<u64> {
        let t = ms(&s["now"]).or_else(|| ms(&s["t"]))?;
        Some(match self.presence_at(now) {
            Presence::Followed => t + now.saturating_sub(*at),
            _ => t,
        })
    }

    /// The blind player's call for the arbiter in the later game his board
    /// has gone on to, while the round keeps the finished one.
    fn later_call(&self, now: u64) -> Option<Need> {
        let later = self.later.as_ref()?;
        let called = ms(&later.0["called"])?;
        let game_now = self.time_of(later, now)?;
        Some(Need::Called {
            for_ms: game_now.saturating_sub(called),
        })
    }

    /// The board's game time at hub time `now` as the world's time runs,
    /// lost or not: a move made before the board was lost becomes as old
    /// as it is (for the broadcast's delay), where [`Board::game_now`]
    /// stands still (for a lost board's clock).
    pub fn game_time_passed(&self, now: u64) -> Option<u64> {
        let (s, at) = self.state.as_ref()?;
        let t = ms(&s["now"]).or_else(|| ms(&s["t"]))?;
        Some(t + now.saturating_sub(*at))
    }

    /// A player's name: the organiser's, else the board's own tag.
    pub fn name(&self, white: bool) -> String {
        let given = if white { &self.white } else { &self.black };
        if !given.is_empty() {
            return given.clone();
        }
        let tag = if white { "White" } else { "Black" };
        self.pgn
            .as_deref()
            .and_then(|p| crate::hall::round::tag(p, tag))
            .filter(|n| n != "?")
            .unwrap_or_default()
    }

    /// The sides whose names lichess would not take, once the board has a
    /// game to broadcast: what a broadcast round needs of the organiser.
    pub fn unnamed(&self) -> Option<Need> {
        let colors: Vec<String> = [("white", true), ("black", false)]
            .into_iter()
            .filter(|&(_, white)| !crate::hall::round::broadcast_name(&self.name(white)))
            .map(|(c, _)| c.to_string())
            .collect();
        (self.pgn.is_some() && !colors.is_empty()).then_some(Need::Unnamed { colors })
    }

    /// What needs the arbiter at hub time `now`, most urgent first; a
    /// board differing from the game counts once it has for `differing_ms`.
    pub fn needs(&self, now: u64, differing_ms: u64) -> Vec<Need> {
        let mut needs = Vec::new();
        let lost_for = match self.presence_at(now) {
            Presence::Lost { since } => Some(now.saturating_sub(since)),
            Presence::Awaited { since } => Some(now.saturating_sub(since)),
            Presence::Followed => None,
        };
        let (Some(s), Some(game_now)) = (self.state(), self.game_now(now)) else {
            if let Some(for_ms) = lost_for {
                needs.push(Need::Lost { for_ms });
            }
            return needs;
        };
        let ago = |t: u64| game_now.saturating_sub(t);
        if let Some(t) = ms(&s["called"]) {
            needs.push(Need::Called { for_ms: ago(t) });
        }
        needs.extend(self.later_call(now));
        // A flag counts once the arbiter sees it (6.8): it stays marked
        // until the game has its result, and five minutes after the fall.
        let ended = s["result"].is_string();
        if let Some(t) = ms(&s["flag_fell"]).filter(|&t| !ended || ago(t) < MARKED_MS) {
            for color in ["white", "black"] {
                if s["clock"][format!("{color}_flag")].as_bool() == Some(true) {
                    needs.push(Need::Flag {
                        color: color.into(),
                        ago_ms: ago(t),
                    });
                }
            }
        }
        if let Some(for_ms) = lost_for {
            needs.push(Need::Lost { for_ms });
        }
        if let Some(t) = ms(&s["sensors_lost"]) {
            needs.push(Need::SensorsLost { for_ms: ago(t) });
        }
        let status = &s["status"];
        let kind = status["kind"].as_str().unwrap_or_default();
        if matches!(kind, "mismatch" | "diverged" | "illegal" | "unconfirmed")
            && let Some(since) = ms(&status["since"])
            && ago(since) >= differing_ms
        {
            let squares = status["squares"]
                .as_array()
                .map(|a| a.iter().map(text).collect())
                .unwrap_or_default();
            needs.push(Need::Differing {
                what: kind.into(),
                for_ms: ago(since),
                squares,
            });
        }
        // The latest report of each kind and colour, while it is recent.
        let mut seen: Vec<(String, String)> = Vec::new();
        let reports = s["reports"].as_array().map(Vec::as_slice).unwrap_or(&[]);
        for r in reports.iter().rev() {
            let (kind, color) = (text(&r["kind"]), text(&r["color"]));
            let Some(t) = ms(&r["t"]).filter(|&t| ago(t) < MARKED_MS) else {
                continue;
            };
            if kind == "penalty" || seen.contains(&(kind.clone(), color.clone())) {
                continue;
            }
            seen.push((kind.clone(), color.clone()));
            needs.push(if kind == "illegal" {
                Need::Illegal {
                    color,
                    count: ms(&r["count"]).unwrap_or(1),
                    ago_ms: ago(t),
                }
            } else {
                Need::Touch {
                    color,
                    what: kind,
                    ago_ms: ago(t),
                }
            });
        }
        needs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn board() -> Board {
        Board::new(
            3,
            "http://10.0.0.23:8080".into(),
            String::new(),
            String::new(),
            0,
        )
    }

    #[test]
    fn sides_lichess_would_drop_are_named_once_the_board_has_a_game() {
        let mut b = board();
        assert_eq!(b.unnamed(), None, "no game yet, nothing to broadcast");
        b.take_pgn("[White \"Anna Blind\"]\n[Black \"?\"]\n\n*\n".into());
        assert_eq!(
            b.unnamed(),
            Some(Need::Unnamed {
                colors: vec!["black".into()]
            })
        );
        let mut named = Board::new(
            4,
            "http://10.0.0.24:8080".into(),
            String::new(),
            "Bert Seher".into(),
            0,
        );
        named.take_pgn("[White \"Anna Blind\"]\n[Black \"?\"]\n\n*\n".into());
        assert_eq!(named.unnamed(), None, "the organiser's name counts");
    }

    #[test]
    fn a_board_never_reached_is_lost_from_the_start() {
        let b = board();
        assert_eq!(b.needs(7000, 10_000), vec![Need::Lost { for_ms: 7000 }]);
    }

    #[test]
    fn the_boards_time_runs_on_from_its_state_while_it_is_followed_and_stops_when_lost() {
        let mut b = board();
        b.take_state(json!({"t": 50_000, "now": 60_000}), 1000);
        assert_eq!(b.game_now(4000), Some(63_000));
        // A stream silent for longer than a keep-alive's while is lost.
        assert_eq!(b.presence_at(41_000), Presence::Followed);
        assert_eq!(b.presence_at(41_001), Presence::Lost { since: 1000 });
        b.heard(30_000);
        assert_eq!(b.presence_at(41_001), Presence::Followed);
        b.lost(5000);
        assert_eq!(b.game_now(9000), Some(60_000));
        assert_eq!(b.needs(9000, 10_000), vec![Need::Lost { for_ms: 4000 }]);
    }

    #[test]
    fn e2_7_a_board_differing_needs_the_arbiter_only_after_differing_s() {
        let mut b = board();
        let state = json!({"t": 20_000,
            "status": {"kind": "mismatch", "since": 20_000, "squares": ["e4", "e2"]}});
        b.take_state(state, 0);
        assert_eq!(b.needs(9_999, 10_000), vec![]);
        assert_eq!(
            b.needs(10_000, 10_000),
            vec![Need::Differing {
                what: "mismatch".into(),
                for_ms: 10_000,
                squares: vec!["e4".into(), "e2".into()]
            }]
        );
    }

    #[test]
    fn the_call_and_a_fallen_flag_come_first_and_reports_fade_after_five_minutes() {
        let mut b = board();
        let state = json!({"t": 100_000,
        "called": 90_000,
        "flag_fell": 95_000,
        "clock": {"white_flag": false, "black_flag": true},
        "reports": [
            {"kind": "illegal", "color": "white", "count": 1, "t": 10_000},
            {"kind": "illegal", "color": "white", "count": 2, "t": 99_000},
            {"kind": "penalty", "color": "black", "t": 99_000},
            {"kind": "touch_violation", "color": "black", "t": 99_500},
        ]});
        b.take_state(state, 0);
        assert_eq!(
            b.needs(0, 10_000),
            vec![
                Need::Called { for_ms: 10_000 },
                Need::Flag {
                    color: "black".into(),
                    ago_ms: 5000
                },
                Need::Touch {
                    color: "black".into(),
                    what: "touch_violation".into(),
                    ago_ms: 500
                },
                Need::Illegal {
                    color: "white".into(),
                    count: 2,
                    ago_ms: 1000
                },
            ]
        );
        // Five minutes on, the unanswered call and the flag, in a game
        // without its result yet, stand.
        b.heard(MARKED_MS);
        assert_eq!(
            b.needs(MARKED_MS, 10_000),
            vec![
                Need::Called {
                    for_ms: 10_000 + MARKED_MS
                },
                Need::Flag {
                    color: "black".into(),
                    ago_ms: 5000 + MARKED_MS
                }
            ]
        );
    }

    #[test]
    fn art_6_8_a_fallen_flag_stays_marked_until_the_result_and_five_minutes() {
        let mut b = board();
        let state = json!({"t": 100_000, "flag_fell": 95_000, "result": "1-0",
            "clock": {"white_flag": false, "black_flag": true}});
        b.take_state(state, 0);
        b.heard(MARKED_MS - 5001);
        assert_eq!(
            b.needs(MARKED_MS - 5001, 10_000),
            vec![Need::Flag {
                color: "black".into(),
                ago_ms: MARKED_MS - 1
            }]
        );
        b.heard(MARKED_MS);
        assert_eq!(b.needs(MARKED_MS - 5000, 10_000), vec![]);
    }

    const FINISHED: &str =
        "[White \"Ann\"]\n[Black \"Ben\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 1-0\n\n";

    #[test]
    fn a_finished_game_stays_the_rounds_when_the_board_sets_up_the_next() {
        let mut b = board();
        let ended = json!({"t": 90_000, "run": 7, "game": 1000, "result": "1-0",
            "moves": [{"san": "e4"}, {"san": "e5"}, {"san": "Qh5"}]});
        b.take_state(ended.clone(), 0);
        b.take_pgn(FINISHED.into());
        // The start position set up again: a new game, its first move.
        let next = json!({"t": 120_000, "run": 7, "game": 100_000, "result": null,
            "moves": [{"san": "d4"}]});
        assert!(!b.showing_a_later_game());
        b.take_state(next, 1000);
        b.take_pgn(
            FINISHED
                .replace("1-0", "*")
                .replace("1. e4 e5 2. Qh5", "1. d4"),
        );
        assert!(b.showing_a_later_game());
        assert_eq!(b.state(), Some(&ended));
        assert_eq!(b.pgn(), Some(FINISHED));
        assert_eq!(b.presence, Presence::Followed);
        assert_eq!(b.needs(1000, 10_000), vec![]);
        // The blind player calls the arbiter in that next game: the call
        // is shown, though the game is not.
        let calling = json!({"t": 130_000, "run": 7, "game": 100_000, "result": null,
            "called": 129_000, "moves": [{"san": "d4"}]});
        b.take_state(calling, 1200);
        assert_eq!(b.state(), Some(&ended));
        assert_eq!(b.needs(1700, 10_000), vec![Need::Called { for_ms: 1500 }]);
        // Even a next game ended with the same result stays out.
        b.take_pgn(FINISHED.replace("2. Qh5", "2. Bc4"));
        assert_eq!(b.pgn(), Some(FINISHED));
        // The board's pegboard started again: its new game began at the
        // same game time as the finished one, in another run.
        let restarted = json!({"t": 5000, "run": 8, "game": 1000, "result": null, "moves": []});
        b.take_state(restarted, 1500);
        b.take_pgn(FINISHED.replace("1-0", "*").replace("1. e4 e5 2. Qh5", ""));
        assert_eq!(b.state(), Some(&ended));
        assert_eq!(b.pgn(), Some(FINISHED));
        // The board shows the round's game again (its stream served anew):
        // its scoresheet is taken.
        b.take_state(ended.clone(), 2000);
        let amended = FINISHED.replace("[Black", "[Annotator \"arbiter\"]\n[Black");
        b.take_pgn(amended.clone());
        assert_eq!(b.pgn(), Some(amended.as_str()));
    }

    #[test]
    fn e2_8_a_retrace_after_the_result_is_still_the_rounds_game() {
        let mut b = board();
        let ended = json!({"t": 90_000, "run": 7, "game": 1000, "result": "1-0",
            "moves": [{"san": "e4"}, {"san": "e5"}, {"san": "Qh5"}]});
        b.take_state(ended, 0);
        b.take_pgn(FINISHED.into());
        let retraced = json!({"t": 95_000, "run": 7, "game": 1000, "result": null,
            "moves": [{"san": "e4"}, {"san": "e5"}]});
        b.take_state(retraced.clone(), 1000);
        assert_eq!(b.state(), Some(&retraced));
        let open = FINISHED.replace("1-0", "*").replace(" 2. Qh5", "");
        b.take_pgn(open.clone());
        assert_eq!(b.pgn(), Some(open.as_str()));
    }
}
