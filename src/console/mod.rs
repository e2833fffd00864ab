//! The assistant's and the arbiter's console (E2.9, E2.10, 6.12–6.13, 7):
//! inputs sent over the mirror's server, by those who hold the secret.
//!
//! - [`routes`]: its page and its routes (`/console`, `POST /api/login`,
//!   `POST /api/input`), put on the mirror's server by the runtime;
//! - [`section`]: the configuration's `[console]`;
//! - [`Request`]: one input on its way to the runtime's door, with where
//!   the answer goes; [`Door`]: where they go, and the secret that opens
//!   it.
//!
//! Who may enter (the secret's comparison, sessions, the limit on wrong
//! guesses) is the server's business: [`crate::net::auth`].

mod routes;
pub mod section;

pub use routes::routes;

/// The console's page: the words and the parts it shares with the
/// mirror's page (the board, the clocks, the themes, the stream) are put
/// in where it says, by `mirror::page::assemble`, which the runtime calls.
pub const PAGE: &str = include_str!("page.html");

/// The console's page for a game with or without the engine: its
/// practice buttons (hint, evaluation, threat, takeback, review) only in a game
/// where one player is the engine.
pub fn page(practice: bool) -> String {
    const FROM: &str = "<!-- practice -->";
    const TO: &str = "<!-- /practice -->";
    match (practice, PAGE.find(FROM), PAGE.find(TO)) {
        (false, Some(a), Some(b)) if a < b => format!("{}{}", &PAGE[..a], &PAGE[b + TO.len()..]),
        _ => PAGE.to_string(),
    }
}
pub use section::ConsoleConfig;

use crate::core::{Input, Stamped};

/// Where the console's inputs go, and the secret that opens it.
pub struct Door {
    pub requests: crossbeam_channel::Sender<Request>,
    /// The console secret, or the PIN.
    pub secret: Vec<u8>,
    /// Which of the two it is: a PIN's wrong guesses are bounded for
    /// everyone together.
    pub strength: crate::net::auth::Strength,
}

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
    Refused(Box<Stamped>),
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_practice_buttons_are_on_the_page_of_a_game_against_the_engine_only() {
        let with = super::page(true);
        let without = super::page(false);
        assert!(with.contains(r#"{"input":"hint"}"#));
        assert!(with.contains(r#"{"input":"practice_take_back"}"#));
        assert!(with.contains(r#"{"input":"threat"}"#));
        assert!(!without.contains(r#""input":"hint""#));
        assert!(!without.contains(r#""input":"threat""#));
        // The questions of any game are on both.
        for question in ["material", "opening"] {
            let button = format!(r#"{{"input":"{question}"}}"#);
            assert!(with.contains(&button) && without.contains(&button));
        }
        assert!(!without.contains("data-c=\"practice\""));
        // Only that part is left out.
        assert!(without.contains(r#"{"input":"times"}"#));
        assert!(with.len() - without.len() < 1000);
    }
}
