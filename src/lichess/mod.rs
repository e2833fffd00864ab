//! lichess, where a blind player meets an opponent online through its
//! Board API: the lines of its event and game streams read into
//! pegboard's own types ([`stream`]), and the player's token kept in the
//! state directory for his owner alone ([`token`]). Like the engine's
//! wing, this one knows no game: the runtime is to hand what the streams
//! say to the game as inputs.

pub mod client;
pub mod link;
pub mod reason;
pub mod section;
pub mod stream;
pub mod token;
