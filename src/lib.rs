//! pegboard: a FIDE-conformant controller for a pegged chessboard used by a
//! visually handicapped player.
//!
//! The board reports only which apertures hold a peg. From that, the
//! [`core`] sees touches, executed moves, illegal moves and displaced
//! pieces; [`announce`] gives them words; [`trace`] reads and writes the
//! recorded sensor sessions that tests and `pegboard replay` share.

pub mod announce;
pub mod bounded;
pub mod buttons;
pub mod calibrate;
pub mod config;
pub mod console;
pub mod core;
pub mod display;
pub mod journal;
pub mod laws;
pub mod mirror;
pub mod pgn;
pub mod quote;
pub mod runtime;
pub mod scoresheet;
pub mod sensor_check;
pub mod sensors;
pub mod sim;
pub mod speech;
pub mod trace;
