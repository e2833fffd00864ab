//! The engine's seat in `play`: it is asked for its move when it is its
//! turn, and its move reaches the game through the same door as a relayed
//! move (journaled like every input, so a replay needs no engine). An
//! illegal move is refused by the game and asked for again; an engine in
//! trouble is put right by its seat and the player told once.

use std::time::Duration;

use shakmaty::{ByColor, Color, EnPassantMode, Position};

use crate::core::input::Relayed;
use crate::core::{Controller, Input, Seat, Stamped};
use crate::engine::uci::{Go, position};
use crate::engine::{Ask, EngineConfig, Report};
use crate::runtime::keeper::Keeper;
use crate::runtime::outputs::Door as _;

/// How long the engine thinks for a move when neither `movetime_ms` nor a
/// clock says.
const DEFAULT_THINK: Duration = Duration::from_secs(1);

/// The engine's seat as `play` drives it.
pub(crate) struct EngineTurns {
    seat: crate::engine::Seat,
    config: EngineConfig,
    /// The colours the engine plays.
    plays: ByColor<bool>,
    /// The position last asked about (its FEN and ply), so that each is
    /// asked once; a retrace or a new game is a new position.
    asked: Option<(String, u32)>,
    /// The position the engine's game began from, for `ucinewgame`.
    game_start: Option<String>,
    /// The position in which the player was told the engine answered an
    /// illegal move.
    told_illegal: Option<(String, u32)>,
    /// No ask before this instant (after an illegal answer).
    ask_after: u64,
}

/// How long after an illegal answer the engine is asked again (ms).
const RETRY_ILLEGAL_MS: u64 = 1000;

impl EngineTurns {
    /// The seat, when a player's moves are the engine's.
    pub(crate) fn open(
        config: &EngineConfig,
        seats: &crate::core::Seats,
        chess960: bool,
    ) -> Option<EngineTurns> {
        let plays = ByColor::new_with(|c| *seats.of(c) == Seat::Engine);
        (plays.white || plays.black).then(|| EngineTurns {
            seat: crate::engine::Seat::open(config.clone(), chess960),
            config: config.clone(),
            plays,
            asked: None,
            game_start: None,
            told_illegal: None,
            ask_after: 0,
        })
    }

    /// Asks for the engine's move when it is its turn in a game under way
    /// and this position has not been asked about.
    pub(crate) fn ask(&mut self, t: u64, c: &Controller) {
        let game = c.game();
        let pos = game.position();
        if game.is_over() || !self.plays[pos.turn()] || t < self.ask_after {
            return;
        }
        let here = (game.fen(), game.ply());
        if self.asked.as_ref() == Some(&here) {
            return;
        }
        let mode = game.castling_mode();
        let start = shakmaty::fen::Fen::from_position(game.start_position(), EnPassantMode::Legal)
            .to_string();
        let moves: Vec<String> = game
            .moves()
            .iter()
            .map(|m| m.m.to_uci(mode).to_string())
            .collect();
        let new_game = self.game_start.as_ref() != Some(&start) || game.ply() < 2;
        self.game_start = Some(start.clone());
        let (go, think) = self.go(t, c);
        self.seat.ask(Ask {
            ply: game.ply(),
            position: position(&start, &moves),
            go,
            think,
            new_game,
        });
        self.asked = Some(here);
    }

    /// How the engine thinks for this move, and the longest that takes.
    fn go(&self, t: u64, c: &Controller) -> (Go, Duration) {
        let limits = Go {
            depth: self.config.depth,
            nodes: self.config.nodes,
            ..Go::default()
        };
        if let Some(ms) = self.config.movetime_ms {
            return (
                Go {
                    movetime_ms: Some(ms),
                    ..limits
                },
                Duration::from_millis(ms),
            );
        }
        let Some(clock) = c.clock() else {
            return (
                Go {
                    movetime_ms: Some(DEFAULT_THINK.as_millis() as u64),
                    ..limits
                },
                DEFAULT_THINK,
            );
        };
        let turn = c.game().turn();
        let left = |color: Color| clock.remaining(t, color);
        let inc = |color: Color| clock.control().increment_for(clock.moves(color));
        (
            Go {
                wtime: Some(left(Color::White)),
                btime: Some(left(Color::Black)),
                winc: Some(inc(Color::White)),
                binc: Some(inc(Color::Black)),
                movestogo: clock.moves_to_control(turn),
                ..limits
            },
            // It may think as long as its time lasts.
            Duration::from_millis(left(turn) + inc(turn)),
        )
    }

    /// The seat's reports: a move for the position still standing goes to
    /// the game (an illegal one is asked for again, and told once as an
    /// answer that is no move); trouble goes to the log, and is returned
    /// for the player to be told.
    pub(crate) fn feed(
        &mut self,
        t: u64,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) -> Vec<crate::engine::EngineError> {
        let mut troubles = Vec::new();
        for report in self.seat.reports() {
            match report {
                Report::Move { ply, thought } => {
                    let c = keeper.controller();
                    let game = c.game();
                    if game.ply() != ply || game.is_over() || !self.plays[game.turn()] {
                        continue;
                    }
                    let input = Input::Move(Relayed::Uci(thought.uci));
                    if let Some(refused) = c.refusal(t, &input) {
                        // Logged and told once for this position, however
                        // often it answers so; asked again a second later.
                        let here = Some((game.fen(), game.ply()));
                        if self.told_illegal != here {
                            self.told_illegal = here;
                            notes.push(format!(
                                "engine: its move {} is not legal here ({}); it is asked again",
                                thought.uci,
                                match &refused.event {
                                    crate::core::Event::Refused { reason, .. } => *reason,
                                    _ => "refused",
                                }
                            ));
                            troubles.push(crate::engine::EngineError::Malformed(
                                thought.uci.to_string(),
                            ));
                        }
                        self.asked = None;
                        self.ask_after = t + RETRY_ILLEGAL_MS;
                        continue;
                    }
                    keeper.input(t, input, events);
                    // Whatever position the engine is to move in next (a
                    // retrace may bring this one back) is asked anew.
                    self.asked = None;
                }
                Report::Trouble(e) => {
                    notes.push(format!("engine: {e}; it is started again"));
                    troubles.push(e);
                }
            }
        }
        troubles
    }
}

/// Tells whether `config` names an engine that starts and speaks UCI
/// (`check-config`): `Ok` with its name, else why not.
pub fn check(config: &EngineConfig) -> Result<String, crate::engine::EngineError> {
    crate::engine::Engine::start(config, false).map(|e| e.name.clone())
}
