//! Following one board: a thread that holds its mirror's event stream
//! open, hands each state it brings to the hub, reads the board's
//! scoresheet when the game changed, and opens the stream again when it
//! ends or breaks, waiting longer after each failure (1 s, 2 s … 10 s).

use std::io::{BufRead as _, BufReader, Read as _};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crossbeam_channel::Sender;
use serde_json::Value;

/// How long a connection to a board may take to open, and its answer to
/// begin.
const ANSWER_WITHIN: Duration = Duration::from_secs(5);

/// A board ends every stream within its life (100 s); one that has said
/// nothing for this long is gone, however its connection looks. Its
/// mirror sends a keep-alive every 15 s.
pub const SILENT_AT_MOST: Duration = Duration::from_secs(40);

/// How long one stream may be read at most: longer than a board keeps it.
const STREAM_AT_MOST: Duration = Duration::from_secs(130);

/// The longest wait before trying a board again.
const LONGEST_WAIT: Duration = Duration::from_secs(10);

/// The shortest time between two openings of a board's stream.
const OPENS_AT_MOST_EVERY: Duration = Duration::from_secs(1);

/// The longest line, and the longest state, a board may send: a state
/// of the longest game is some hundred kilobytes.
const LONGEST_LINE: u64 = 1024 * 1024;
const LONGEST_STATE: usize = 4 * 1024 * 1024;

/// What a follower tells the hub.
#[derive(Debug, Clone, PartialEq)]
pub enum Report {
    /// The board's state, as its mirror served it.
    State { board: usize, state: Value },
    /// The board's scoresheet.
    Pgn { board: usize, pgn: String },
    /// Its stream said something (a keep-alive): it is still there.
    Alive { board: usize },
    /// It could not be reached, or its stream broke.
    Lost { board: usize, why: String },
}

/// What a state says about the scoresheet: its moves and its result.
fn game_of(state: &Value) -> (usize, String) {
    let moves = state["moves"].as_array().map_or(0, Vec::len);
    let result = state["result"].as_str().unwrap_or("*").to_string();
    (moves, result)
}

/// One board's follower.
pub struct Follower {
    board: usize,
    base: String,
    agent: ureq::Agent,
    to_hub: Sender<Report>,
    stop: Arc<AtomicBool>,
}

impl Follower {
    /// Follows the board at `base` (`http://10.0.0.21:8080`), the hub's
    /// `board`th, on a thread of its own until `stop` is set.
    /// A board served over HTTPS is trusted by its certificate's
    /// `fingerprint` alone.
    pub fn start(
        board: usize,
        base: String,
        fingerprint: &str,
        to_hub: Sender<Report>,
        stop: Arc<AtomicBool>,
    ) -> std::io::Result<std::thread::JoinHandle<()>> {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(ANSWER_WITHIN))
            .timeout_recv_response(Some(ANSWER_WITHIN))
            .user_agent(concat!("pegboard-hall/", env!("CARGO_PKG_VERSION")))
            .build();
        let agent = if base.starts_with("https://") {
            crate::net::tls::pinned::agent(config, fingerprint)
        } else {
            config.into()
        };
        let follower = Follower {
            board,
            base,
            agent,
            to_hub,
            stop,
        };
        std::thread::Builder::new()
            .name(format!("hall-board-{board}"))
            .spawn(move || follower.run())
    }

    fn run(self) {
        let mut wait = Duration::from_secs(1);
        // The scoresheet as last read (its moves and result), kept across
        // the stream's openings: it is read again only when it changed.
        let mut written: Option<(usize, String)> = None;
        while !self.stop.load(Ordering::SeqCst) {
            let opened = std::time::Instant::now();
            let mut served = false;
            match self.follow(&mut written, &mut served) {
                // The stream ended as a board ends it: open it again, a
                // second after the last at the soonest.
                Ok(()) => {
                    wait = Duration::from_secs(1);
                    self.sleep(OPENS_AT_MOST_EVERY.saturating_sub(opened.elapsed()));
                }
                Err(why) => {
                    let _ = self.to_hub.send(Report::Lost {
                        board: self.board,
                        why,
                    });
                    // A stream that served the board broke (the hall's
                    // network dropped it): the waits begin again from a
                    // second, whatever the board's earlier troubles.
                    if served {
                        wait = Duration::from_secs(1);
                    }
                    self.sleep(wait);
                    wait = (wait * 2).min(LONGEST_WAIT);
                }
            }
        }
    }

    /// Sleeps `d`, or less when the hub stops.
    fn sleep(&self, d: Duration) {
        let until = std::time::Instant::now() + d;
        while !self.stop.load(Ordering::SeqCst) {
            let left = until.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                break;
            }
            std::thread::sleep(left.min(Duration::from_millis(100)));
        }
    }

    fn send(&self, report: Report) -> Result<(), String> {
        self.to_hub
            .send(report)
            .map_err(|_| "the hub stopped".to_string())
    }

    /// One stream, read to its end; `served` once it gave a state.
    fn follow(
        &self,
        written: &mut Option<(usize, String)>,
        served: &mut bool,
    ) -> Result<(), String> {
        let response = self
            .agent
            .get(format!("{}/events", self.base))
            .header("Accept", "text/event-stream")
            .config()
            .timeout_global(Some(STREAM_AT_MOST))
            .build()
            .call()
            .map_err(|e| e.to_string())?;
        let status = response.status().as_u16();
        if status == 308 && self.base.starts_with("http://") {
            return Err(format!(
                "its mirror answered {status}: the board serves HTTPS; give its address as \
                 https://… with its certificate's fingerprint in [[hall.boards]]"
            ));
        }
        if status != 200 {
            return Err(format!("its mirror answered {status}"));
        }
        let mut reader = BufReader::new(response.into_body().into_reader());
        let mut event = String::new();
        let mut data = String::new();
        let mut line = String::new();
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return Ok(());
            }
            line.clear();
            let n = (&mut reader)
                .take(LONGEST_LINE)
                .read_line(&mut line)
                .map_err(|e| e.to_string())?;
            if n == 0 {
                return Ok(());
            }
            if n as u64 >= LONGEST_LINE && !line.ends_with('\n') {
                return Err("the board sent a line longer than a megabyte".into());
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                if event == "state"
                    && let Ok(state) = serde_json::from_str::<Value>(&data)
                {
                    let game = game_of(&state);
                    *served = true;
                    self.send(Report::State {
                        board: self.board,
                        state,
                    })?;
                    if written.as_ref() != Some(&game) {
                        *written = self.read_pgn(&game);
                    }
                }
                event.clear();
                data.clear();
            } else if let Some(name) = line.strip_prefix("event:") {
                event = name.trim().to_string();
            } else if let Some(more) = line.strip_prefix("data:") {
                if !data.is_empty() {
                    data.push('\n');
                }
                data.push_str(more.strip_prefix(' ').unwrap_or(more));
                if data.len() > LONGEST_STATE {
                    return Err("the board sent a state larger than 4 megabytes".into());
                }
            } else if line.starts_with(':') {
                self.send(Report::Alive { board: self.board })?;
            }
        }
    }

    /// Reads the scoresheet, until it holds the game `game` says (the
    /// board writes it just after the events it follows) or a later point
    /// of it, at most a few times: what it holds then, read or not.
    ///
    /// A scoresheet with more moves than the state is taken at once: the
    /// state is an older one, read from a stream this follower fell
    /// behind on (a busy machine), and waiting for the scoresheet to
    /// match it would cost a second for each state still to read, longer
    /// than the board takes to make a move.
    fn read_pgn(&self, game: &(usize, String)) -> Option<(usize, String)> {
        for _ in 0..10 {
            let pgn = self.get_pgn()?;
            let holds = (
                super::round::plies(&pgn),
                super::round::tag(&pgn, "Result").unwrap_or_else(|| "*".into()),
            );
            let _ = self.send(Report::Pgn {
                board: self.board,
                pgn,
            });
            if holds == *game || holds.0 > game.0 {
                return Some(holds);
            }
            self.sleep(Duration::from_millis(100));
        }
        None
    }

    fn get_pgn(&self) -> Option<String> {
        let response = self
            .agent
            .get(format!("{}/pgn", self.base))
            .config()
            .timeout_global(Some(ANSWER_WITHIN))
            .build()
            .call()
            .ok()?;
        if response.status().as_u16() != 200 {
            return None;
        }
        let mut text = String::new();
        response
            .into_body()
            .into_reader()
            .take(4 * 1024 * 1024)
            .read_to_string(&mut text)
            .ok()?;
        Some(text)
    }
}
