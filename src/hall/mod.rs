//! The tournament hall: `pegboard hall` follows every board of a round
//! over what each board's pegboard serves (its mirror's event stream and
//! its scoresheet), shows the arbiter all of them at once, and gives the
//! public the round's games, delayed as the organiser says. It knows no
//! rule of chess: each game stays whole on its own board.
//!
//! - [`section`]: `[hall]`, its boards and its broadcast;
//! - [`board`]: one board as the hub follows it, and what about it needs
//!   the arbiter (pure);
//! - [`round`]: the round's games as one PGN, delayed (pure);
//! - [`follow`]: a thread per board that follows its stream;
//! - [`push`]: the round pushed to a lichess broadcast;
//! - [`server`]: the arbiter's hall view and the round's PGN, served.
//!
//! [`Hall`] puts the boards together (pure: the hub's time is passed in).

pub mod board;
pub mod follow;
pub mod push;
pub mod round;
pub mod section;
pub mod server;

use serde_json::{Value, json};

pub use section::HallConfig;

use board::{Board, Need, Presence};
use follow::Report;

/// Every board of the round, as the hub knows them.
#[derive(Debug, Clone)]
pub struct Hall {
    boards: Vec<Board>,
    event: String,
    site: String,
    round: String,
    delay_ms: u64,
    differing_ms: u64,
    /// Whether the round is broadcast (served for lichess or pushed): a
    /// game lichess would drop then needs saying.
    broadcast: bool,
}

/// A need's place in the arbiter's list: the call first.
fn urgency(need: &Need) -> u8 {
    match need {
        Need::Called { .. } => 0,
        Need::Flag { .. } => 1,
        Need::Lost { .. } => 2,
        Need::SensorsLost { .. } => 3,
        Need::Differing { .. } => 4,
        Need::Illegal { .. } => 5,
        Need::Touch { .. } => 6,
        Need::Unnamed { .. } => 7,
    }
}

impl Hall {
    /// The boards `config` lists (checked: their addresses are whole), at
    /// hub time `now`.
    pub fn new(config: &HallConfig, now: u64) -> Hall {
        let boards = config
            .boards
            .iter()
            .map(|b| {
                let url = section::base_url(&b.address).unwrap_or_default();
                Board::new(b.number, url, b.white.clone(), b.black.clone(), now)
            })
            .collect();
        Hall {
            boards,
            event: config.event.clone(),
            site: config.site.clone(),
            round: config.round.clone(),
            delay_ms: u64::from(config.delay_s) * 1000,
            differing_ms: u64::from(config.differing_s) * 1000,
            broadcast: config.broadcasts(),
        }
    }

    pub fn boards(&self) -> &[Board] {
        &self.boards
    }

    /// Takes a follower's report in at hub time `now`; true if it was a
    /// scoresheet (the round may have changed).
    pub fn take(&mut self, report: Report, now: u64) -> bool {
        let board = match &report {
            Report::State { board, .. }
            | Report::Pgn { board, .. }
            | Report::Alive { board }
            | Report::Lost { board, .. } => *board,
        };
        let Some(b) = self.boards.get_mut(board) else {
            return false;
        };
        match report {
            Report::State { state, .. } => b.take_state(state, now),
            Report::Pgn { pgn, .. } => {
                b.take_pgn(pgn);
                return true;
            }
            Report::Alive { .. } => b.heard(now),
            Report::Lost { .. } => b.lost(now),
        }
        false
    }

    /// What the public may see of each board at hub time `now`: the moves
    /// made at least the delay ago on the board's own time, and the result
    /// once the game's end is as old. Without a delay, everything. A board
    /// whose scoresheet the hub has not read yet is left out of the round
    /// (a broadcast leaves a game it is not given as it stands; an empty
    /// one would reopen it). With a delay, the scoresheet is cut only
    /// within the moves it shares with the board's state: a scoresheet of
    /// a game taken back and played on, read before its state, shows no
    /// move the state does not date.
    fn shown(&self, now: u64) -> Vec<round::Shown<'_>> {
        self.boards
            .iter()
            .filter(|b| b.pgn().is_some())
            .map(|b| {
                let (plies, result) = if self.delay_ms == 0 {
                    (None, true)
                } else {
                    match (b.state(), b.game_time_passed(now)) {
                        (Some(s), Some(game_now)) => {
                            let until = game_now.checked_sub(self.delay_ms);
                            let old =
                                |t: Option<u64>| t.zip(until).is_some_and(|(t, until)| t <= until);
                            let moves = s["moves"].as_array().map(Vec::as_slice).unwrap_or(&[]);
                            let written = round::sans(b.pgn().unwrap_or_default());
                            let shared = moves
                                .iter()
                                .zip(&written)
                                .take_while(|(m, san)| m["san"].as_str() == Some(san.as_str()))
                                .count();
                            let plies = moves[..shared]
                                .iter()
                                .take_while(|m| old(m["t"].as_u64()))
                                .count();
                            let whole = shared == moves.len() && shared == written.len();
                            (Some(plies), whole && old(s["ended"].as_u64()))
                        }
                        // Nothing known of when its moves were made.
                        _ => (Some(0), false),
                    }
                };
                round::Shown {
                    number: b.number,
                    pgn: b.pgn(),
                    plies,
                    result,
                    white: &b.white,
                    black: &b.black,
                }
            })
            .collect()
    }

    /// The round's games as the public may see them at hub time `now`.
    pub fn round_pgn(&self, now: u64) -> String {
        let tags = round::RoundTags {
            event: &self.event,
            site: &self.site,
            round: &self.round,
        };
        round::pgn(&self.shown(now), &tags)
    }

    /// What the arbiter's view shows at hub time `now`: every board
    /// (position, clocks, last move, result, needs), and every need, the
    /// most urgent first.
    pub fn view(&self, now: u64) -> Value {
        let mut needs: Vec<(u8, u32, Value)> = Vec::new();
        let boards: Vec<Value> = self
            .boards
            .iter()
            .map(|b| {
                let mut board_needs = b.needs(now, self.differing_ms);
                if self.broadcast {
                    board_needs.extend(b.unnamed());
                }
                for n in &board_needs {
                    let mut v = json!(n);
                    v["board"] = json!(b.number);
                    needs.push((urgency(n), b.number, v));
                }
                let presence = match b.presence_at(now) {
                    Presence::Awaited { .. } => "awaited",
                    Presence::Followed => "followed",
                    Presence::Lost { .. } => "lost",
                };
                let s = b.state().cloned().unwrap_or(Value::Null);
                // How old the clock's reading is on the board's own time:
                // the page counts the running clock down from it.
                let clock_age = match (s["clock"]["t"].as_u64(), b.game_now(now)) {
                    (Some(t), Some(game_now)) => game_now.saturating_sub(t),
                    _ => 0,
                };
                json!({
                    "number": b.number,
                    "white": b.name(true),
                    "black": b.name(false),
                    "presence": presence,
                    "fen": s["fen"],
                    "ply": s["ply"],
                    "to_move": s["to_move"],
                    "last_move": s["last_move"],
                    "check": s["check"],
                    "clock": s["clock"],
                    "clock_age": clock_age,
                    "result": s["result"],
                    // The board went on to a later game after its result:
                    // the round keeps this one.
                    "later_game": b.showing_a_later_game(),
                    "needs": board_needs,
                })
            })
            .collect();
        needs.sort_by_key(|(u, number, _)| (*u, *number));
        json!({
            "event": self.event,
            "round": self.round,
            "delay_s": self.delay_ms / 1000,
            "boards": boards,
            "needs": needs.into_iter().map(|(_, _, v)| v).collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(delay_s: u32) -> HallConfig {
        let text = format!(
            "[hall]\nround = \"2\"\ndelay_s = {delay_s}\n\
             [[hall.boards]]\nnumber = 1\naddress = \"10.0.0.1:8080\"\n\
             [[hall.boards]]\nnumber = 2\naddress = \"10.0.0.2:8080\"\nwhite = \"Ann\"\n"
        );
        crate::config::Config::parse(&text, "hall.toml")
            .expect("reads")
            .hall
    }

    const PGN: &str = "[Event \"?\"]\n[White \"Carl\"]\n[Black \"Dora\"]\n[Result \"1-0\"]\n\n\
        1. e4 { [%clk 0:09:58] } e5 { [%clk 0:09:57] } 2. Qh5 { [%clk 0:09:50] } 1-0\n\n";

    fn state(now: u64) -> Value {
        json!({"t": now, "now": now,
            "moves": [{"t": 10_000, "san": "e4"}, {"t": 20_000, "san": "e5"},
                      {"t": 30_000, "san": "Qh5"}],
            "result": "1-0", "ended": 40_000})
    }

    fn played(delay_s: u32, game_now: u64) -> Hall {
        let mut hall = Hall::new(&config(delay_s), 0);
        hall.take(
            Report::State {
                board: 0,
                state: state(game_now),
            },
            5000,
        );
        hall.take(
            Report::Pgn {
                board: 0,
                pgn: PGN.into(),
            },
            5000,
        );
        hall
    }

    #[test]
    fn without_a_delay_the_round_is_each_game_as_written() {
        let pgn = played(0, 50_000).round_pgn(5000);
        assert!(pgn.contains("[Round \"2.1\"]"), "{pgn}");
        assert!(pgn.contains("2. Qh5 { [%clk 0:09:50] } 1-0"), "{pgn}");
        // The second board, never read: left out (an empty game would
        // reopen a finished one on the broadcast).
        assert!(!pgn.contains("[Round \"2.2\"]"), "{pgn}");
        assert_eq!(pgn.matches("[Event ").count(), 1, "{pgn}");
    }

    #[test]
    fn a_delayed_game_shows_only_moves_its_state_dates_when_the_scoresheet_runs_ahead() {
        // The board took 2. Qh5 back and played 2. Nf3: its new scoresheet
        // came before its new state. Only the moves both share are dated.
        let mut hall = played(15, 60_000);
        hall.take(
            Report::Pgn {
                board: 0,
                pgn: PGN.replace("2. Qh5", "2. Nf3"),
            },
            5000,
        );
        let pgn = hall.round_pgn(5000);
        assert!(
            pgn.contains("1. e4 { [%clk 0:09:58] } e5 { [%clk 0:09:57] } *"),
            "{pgn}"
        );
        assert!(!pgn.contains("Nf3") && !pgn.contains("Qh5"), "{pgn}");
        assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    }

    #[test]
    fn a_delay_holds_each_move_and_the_result_back_on_the_boards_own_time() {
        // 15 s of delay, the board at 40 s of its game: the moves at 10 s
        // and 20 s are shown, the one at 30 s not yet.
        let hall = played(15, 40_000);
        let pgn = hall.round_pgn(5000);
        assert!(
            pgn.contains("1. e4 { [%clk 0:09:58] } e5 { [%clk 0:09:57] } *"),
            "{pgn}"
        );
        // 5 s later on the hub's time, the third.
        let pgn = hall.round_pgn(10_000);
        assert!(pgn.contains("2. Qh5 { [%clk 0:09:50] } *"), "{pgn}");
        // The end (at 40 s) is shown 15 s after it.
        let pgn = hall.round_pgn(19_999);
        assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
        let pgn = hall.round_pgn(20_000);
        assert!(pgn.contains("2. Qh5 { [%clk 0:09:50] } 1-0"), "{pgn}");
    }

    #[test]
    fn a_board_lost_keeps_its_game_as_last_seen_and_its_moves_come_due_as_time_passes() {
        let mut hall = played(15, 40_000);
        hall.take(
            Report::Lost {
                board: 0,
                why: "refused".into(),
            },
            6000,
        );
        // Time runs on for the delay: the third move, made at 30 s of its
        // game, is public 15 s later (at 10 s of the hub's time), lost or
        // not; and nothing new comes of a board lost.
        let pgn = hall.round_pgn(9_999);
        assert!(pgn.contains("e5 { [%clk 0:09:57] } *"), "{pgn}");
        let pgn = hall.round_pgn(60_000);
        assert!(pgn.contains("2. Qh5 { [%clk 0:09:50] } 1-0"), "{pgn}");
        let view = hall.view(60_000);
        assert_eq!(view["boards"][0]["presence"], "lost");
        assert_eq!(view["needs"][0]["kind"], "lost");
        assert_eq!(view["needs"][0]["board"], 1);
        assert_eq!(view["needs"][0]["for_ms"], 54_000);
    }

    #[test]
    fn the_view_names_the_players_from_the_boards_tags_where_none_are_given() {
        let view = played(0, 50_000).view(5000);
        assert_eq!(view["boards"][0]["white"], "Carl");
        assert_eq!(view["boards"][1]["white"], "Ann");
        assert_eq!(view["boards"][0]["result"], "1-0");
    }
}
