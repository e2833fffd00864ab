//! The chess engine a player can practise against: a UCI engine (Debian's
//! Stockfish) run as a child process at a lower priority, whose moves are
//! the opponent's, made on the blind player's board like a relayed move.
//!
//! - [`section`], the configuration's `[engine]`;
//! - [`uci`]: the protocol's lines, read and written (pure);
//! - [`strength`]: pegboard's strength steps, and the pick among the
//!   engine's candidates that weakens it (pure);
//! - [`pace`]: how long the engine takes over a move, as a person of its
//!   strength would (pure);
//! - [`book`]: the opening book it plays the opening from;
//! - [`player`]: the engine as a player: book, search, pick and think
//!   time for each of its moves, as the three above say;
//! - [`process`]: one engine process: started, told its options and
//!   strength, asked, killed;
//! - [`seat`]: the engine's seat, a thread that answers the runtime's
//!   requests and starts the engine again when it crashes, hangs or
//!   answers nonsense.

pub mod book;
pub mod pace;
pub mod player;
pub mod process;
pub mod seat;
pub mod section;
pub mod strength;
pub mod uci;

pub use process::{Engine, EngineError, Thought};
pub use seat::{Ask, Report, Seat};
pub use section::EngineConfig;
