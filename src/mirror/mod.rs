//! The sighted opponent's mirror: a live page for any browser on the
//! table, with the move to repeat on his own board, the position, both
//! clocks and what is going on.
//!
//! - [`state`]: what the page shows, kept from the event stream (pure);
//! - [`page`]: the page in the configured language, and [`View`]: whom
//!   the mirror serves;
//! - [`console`]: the assistant's and arbiter's console on the same
//!   server: its page, logging in, inputs;
//! - [`server`]: the web server, on a thread and a small runtime of its
//!   own, fed events over a channel.

pub mod console;
pub mod page;
pub mod server;
pub mod state;

pub use page::View;
pub use server::{Error, Mirror};
pub use state::MirrorState;
