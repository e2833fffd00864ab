//! What the game leaves behind, and how it is read back:
//!
//! - [`journal`]: every input, synced before it counts, so that a power
//!   cut never loses a move;
//! - [`scoresheet`]: the game's PGN, written after every move (E2.5);
//! - [`pgn`]: reading PGN games back (tests, the broadcast clock readings,
//!   `pegboard pgn`).

pub mod journal;
pub mod pgn;
pub mod scoresheet;
