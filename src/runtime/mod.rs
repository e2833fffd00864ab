//! The runtime: the one door between the world and the game.
//!
//! The core ([`crate::core`]) is pure: it is fed scans, inputs and instants
//! and answers with events. Everything that is not pure lives here: opening
//! the sensors, keys and clock faces the configuration names ([`open`],
//! `rpi`), the scan loop and its clock ([`station`]) and its place in the
//! processor's queue ([`priority`]), the watch over a
//! board that is lost and back ([`presence`]), the voices and their reports
//! ([`voices`]), the fan-out of events to printing, speech and clock faces
//! ([`outputs`]), the Braille display's thread ([`braille`]), and systemd ([`notify`]). The commands are run loops
//! over these: [`play`] (the daemon), [`demo`], [`replay`] and the
//! hardware tools in [`tools`] (`record`, `hw-test`, `calibrate`).
//!
//! Only the runtime constructs and owns a `Controller`. Other threads (the
//! speaker, and later the network) reach it as inputs over channels.

pub mod braille;
pub mod choices;
pub mod console;
pub mod demo;
pub mod demo_engine;
pub mod engine;
pub mod error;
pub mod hall;
pub(crate) mod keeper;
pub mod lichess;
pub mod notify;
pub mod open;
pub(crate) mod openings;
pub mod outputs;
pub mod parts;
pub mod play;
pub mod presence;
pub mod priority;
pub mod replay;
#[cfg(feature = "rpi")]
pub mod rpi;
pub mod scoresheets;
pub mod station;
pub mod tools;
pub mod voices;

pub use error::{Error, Result};
