//! The sighted opponent's mirror: a live page for any browser on the
//! table, with the move to repeat on his own board, the position, both
//! clocks and what is going on.
//!
//! - [`state`]: what the page shows, kept from the event stream (pure);
//! - [`page`]: the page in the configured language, and [`View`]: whom
//!   the mirror serves;
//! - [`section`]: the configuration's `[mirror]`;
//! - [`server`]: its routes on the web server ([`crate::net`]), fed
//!   events over a channel; the runtime may put the console's routes
//!   beside them.

pub mod page;
pub mod section;
pub mod server;
pub mod state;

pub use crate::net::Error;
pub use page::View;
pub use section::{MirrorConfig, Orientation};
pub use server::{Mirror, Secure};
pub use state::MirrorState;
