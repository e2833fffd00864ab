//! The assistant's and the arbiter's console (E2.9, E2.10, 6.12–6.13, 7):
//! inputs sent over the mirror's server, by those who hold the secret.
//!
//! - [`auth`]: the secret's comparison, sessions and the limit on wrong
//!   guesses (pure);
//! - [`Request`]: one input on its way to the runtime's door, with where
//!   the answer goes.

pub mod auth;

use crate::core::{Input, Stamped};

/// An input from the console, to be handed to the game by the runtime
/// (which journals it), and where to send what became of it.
#[derive(Debug)]
pub struct Request {
    pub input: Input,
    pub reply: tokio::sync::oneshot::Sender<Answer>,
}

/// What became of a console's input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Carried out: the events it caused.
    Done(Vec<Stamped>),
    /// Refused, and not journaled: the `refused` event says why.
    Refused(Stamped),
}
