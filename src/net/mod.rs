//! The web server the mirror and the console share, as the hall's network
//! meets it: what it listens on, how much a stranger may send, and who may
//! change the game.
//!
//! - [`server`]: axum on a single-thread tokio runtime in a thread of its
//!   own, serving the routes it is given beside one task of their owner's;
//! - [`limits`]: how much a request may carry and how long it may take;
//! - [`shares`]: the connections and streams shared fairly among the
//!   devices in the hall (pure);
//! - [`page`]: a self-contained page with its Content-Security-Policy;
//! - [`request`]: what a request says about itself (its peer, origin,
//!   credential) and the JSON answers;
//! - [`auth`]: the secret's comparison, sessions and the limit on wrong
//!   guesses (pure);
//! - [`tls`]: HTTPS: the certificate, its fingerprint, a pinned client;
//! - [`redirect`]: plain HTTP sent on to HTTPS.
//!
//! The wing knows no game: the mirror and the console bring their routes.

pub mod auth;
pub mod limits;
pub mod page;
pub mod redirect;
pub mod request;
pub mod server;
pub mod shares;
pub mod tls;

pub use request::Peer;
pub use server::{Error, Server};
