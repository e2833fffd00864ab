//! `pegboard demo --engine`: a short game against the engine, so that
//! practice can be heard without a board. Simulated hands play White, the
//! blind player (his moves chosen by the engine a step above, from the
//! book while it lasts); the engine plays Black at the configured strength
//! and pace, each of its moves said and then made on the board by the same
//! hands, as the blind player makes the engine's moves on his.

use std::time::Duration;

use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use crate::core::input::Relayed;
use crate::core::settings::{Opponent, Strength};
use crate::core::{Input, Seat, Settings};
use crate::engine::player::{Decided, Player};
use crate::engine::uci::position;
use crate::engine::{Engine, EngineConfig};
use crate::runtime::error::{Error, Result};
use crate::sim::{Hands, Style};

/// How many moves the demo game lasts, each side's, unless it ends before.
pub const MOVES: usize = 12;

/// The settings of a game against the engine as Black, the blind player
/// White.
pub fn settings(base: &Settings, engine: &EngineConfig) -> Settings {
    let mut s = base.clone();
    s.seats.black = Seat::Engine;
    s.preferences.opponent =
        Opponent::Engine(Strength::configured(engine.step, engine.elo, engine.level));
    s.preferences.color = Color::White;
    s
}

/// One side's player and the engine it asks.
pub struct Sides {
    engine: Engine,
    white: Player,
    black: Player,
}

impl Sides {
    /// The engine `config` names (Black at its strength), and White a step
    /// above it, so that the blind player's moves are a fair game.
    pub fn open(config: &EngineConfig, seed: u64) -> Result<Sides> {
        let book = config
            .opening_book()
            .map_err(|e| Error::Game(format!("the opening book: {e}")))?;
        let black_step = config.step_played().map_or(8, |s| s.number);
        let white_config = EngineConfig {
            step: Some((black_step + 1).min(8)),
            elo: None,
            level: None,
            movetime_ms: None,
            ..config.clone()
        };
        let engine = Engine::start(config, false).map_err(|e| Error::Game(e.to_string()))?;
        Ok(Sides {
            engine,
            white: Player::new(&white_config, book.clone(), seed),
            black: Player::new(config, book, seed.wrapping_add(1)),
        })
    }

    /// The move the side to move in `pos` (after `moves`) makes, and the
    /// think time it takes.
    pub fn choose(&mut self, pos: &Chess, moves: &[String]) -> Result<(Move, Duration)> {
        let player = if pos.turn() == Color::White {
            &mut self.white
        } else {
            &mut self.black
        };
        let s = player.situation(pos, moves.len() as u32, None);
        let decided = match player.from_book(pos, &s, CastlingMode::Standard) {
            Some(d) => d,
            None => {
                let (go, planned) = player.plan(&s);
                let start = shakmaty::fen::Fen::from_position(
                    &Chess::default(),
                    shakmaty::EnPassantMode::Legal,
                )
                .to_string();
                let thought = self
                    .engine
                    .think(
                        &position(&start, moves),
                        &go,
                        planned + Duration::from_secs(30),
                    )
                    .map_err(|e| Error::Game(e.to_string()))?;
                player.decide(&s, planned, &thought)
            }
        };
        let Decided { uci, think } = decided;
        let m = uci
            .to_move(pos)
            .map_err(|_| Error::Game(format!("the engine's move {uci} is not legal")))?;
        Ok((m, think))
    }
}

/// The hands of the demo: a calm player.
pub fn hands(seed: u64) -> Hands {
    let style = Style {
        think: (1500, 4000),
        hand: (400, 1200),
        ..Style::default()
    };
    Hands::new(seed, style, Chess::default().board().occupied())
}

/// The engine's move as the input that makes it.
pub fn engine_input(m: Move) -> Input {
    Input::Move(Relayed::Uci(m.to_uci(CastlingMode::Standard)))
}
