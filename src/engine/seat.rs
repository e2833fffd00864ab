//! The engine's seat: a thread that answers the runtime's requests for a
//! move, and keeps an engine to answer them. An engine that crashes, hangs
//! past its time and a margin, or answers no move is started again, given
//! the position and asked again; each trouble is reported once, for the
//! player to be told. The runtime checks the move's legality (the game's
//! own refusal) and asks again when it is illegal.

use std::time::Duration;

use crossbeam_channel::{Receiver, Sender};

use super::process::{Engine, EngineError, Thought};
use super::section::EngineConfig;
use super::uci::Go;

/// How long past its own time an engine may take before it counts as hung.
pub const MARGIN: Duration = Duration::from_secs(2);

/// How long the seat waits before starting an engine again that could not
/// be started.
const RETRY_AFTER: Duration = Duration::from_secs(2);

/// What the runtime asks: the engine's move at ply `ply` (the number of
/// moves made), in `position`, thinking as `go` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ask {
    pub ply: u32,
    /// The `position` command.
    pub position: String,
    pub go: Go,
    /// The longest the engine should think, for the deadline.
    pub think: Duration,
    /// A new game begins with this position (`ucinewgame` first).
    pub new_game: bool,
}

/// What the seat reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Report {
    /// The engine's move for ply `ply`.
    Move { ply: u32, thought: Thought },
    /// Something went wrong; the seat is putting it right.
    Trouble(EngineError),
}

/// The engine's seat. Its thread ends once the seat is dropped and a
/// search under way is done, and the engine with it; nothing waits for
/// that.
pub struct Seat {
    asks: Sender<Ask>,
    reports: Receiver<Report>,
}

impl Seat {
    /// Opens the seat for `config`; the engine starts on the first ask.
    pub fn open(config: EngineConfig, chess960: bool) -> Seat {
        Seat::taking_over(config, chess960, None)
    }

    /// The seat, taking over `started` (the engine started to check the
    /// configuration) when it was told the same castling rules, so that
    /// the engine is not started a second time.
    pub fn taking_over(config: EngineConfig, chess960: bool, started: Option<Engine>) -> Seat {
        let (asks, ask_rx) = crossbeam_channel::unbounded::<Ask>();
        let (report_tx, reports) = crossbeam_channel::unbounded();
        let started = started.filter(|e| e.chess960 == chess960);
        let spawned = std::thread::Builder::new()
            .name("engine".into())
            .spawn(move || run(&config, chess960, started, &ask_rx, &report_tx));
        drop(spawned);
        Seat { asks, reports }
    }

    /// Asks for a move; a later ask replaces one not yet begun.
    pub fn ask(&self, ask: Ask) {
        let _ = self.asks.send(ask);
    }

    /// What the seat has reported since last asked.
    pub fn reports(&self) -> Vec<Report> {
        self.reports.try_iter().collect()
    }

    /// Waits up to `within` for a report (for tests and tools).
    pub fn wait(&self, within: Duration) -> Option<Report> {
        self.reports.recv_timeout(within).ok()
    }
}

fn run(
    config: &EngineConfig,
    chess960: bool,
    started: Option<Engine>,
    asks: &Receiver<Ask>,
    reports: &Sender<Report>,
) {
    // An engine taken over has not been told a game begins: its first ask
    // is a new game's.
    let mut fresh = started.is_some();
    let mut engine: Option<Engine> = started;
    // The trouble last reported, so that the same is told once.
    let mut told: Option<EngineError> = None;
    while let Ok(mut ask) = asks.recv() {
        // Only the latest ask counts.
        while let Ok(later) = asks.try_recv() {
            ask.new_game |= later.new_game;
            ask = Ask {
                new_game: ask.new_game,
                ..later
            };
        }
        ask.new_game |= std::mem::take(&mut fresh);
        loop {
            let answer = match engine.as_mut() {
                Some(e) => {
                    let fresh = if ask.new_game { e.new_game() } else { Ok(()) };
                    fresh.and_then(|()| e.think(&ask.position, &ask.go, ask.think + MARGIN))
                }
                None => match Engine::start(config, chess960) {
                    Ok(mut e) => {
                        let answer = e
                            .new_game()
                            .and_then(|()| e.think(&ask.position, &ask.go, ask.think + MARGIN));
                        engine = Some(e);
                        answer
                    }
                    Err(e) => {
                        if told.as_ref() != Some(&e) {
                            let _ = reports.send(Report::Trouble(e.clone()));
                            told = Some(e);
                        }
                        // A newer ask, or the seat closing, while waiting.
                        match asks.recv_timeout(RETRY_AFTER) {
                            Ok(later) => ask = later,
                            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return,
                            Err(crossbeam_channel::RecvTimeoutError::Timeout) => {}
                        }
                        continue;
                    }
                },
            };
            match answer {
                Ok(thought) => {
                    told = None;
                    let _ = reports.send(Report::Move {
                        ply: ask.ply,
                        thought,
                    });
                    break;
                }
                Err(e) => {
                    // Started again from the position: a new game to it.
                    if let Some(mut old) = engine.take() {
                        old.kill();
                    }
                    if told.as_ref() != Some(&e) {
                        let _ = reports.send(Report::Trouble(e.clone()));
                        told = Some(e);
                    }
                    ask.new_game = true;
                }
            }
        }
    }
}
