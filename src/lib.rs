//! pegboard: a FIDE-conformant controller for a pegged chessboard used by a
//! visually handicapped player.
//!
//! The board reports only which apertures hold a peg. From that, the
//! [`core`] sees touches, executed moves, illegal moves and displaced
//! pieces; [`announce`] gives them words; [`trace`] reads and writes the
//! recorded sensor sessions that tests and `pegboard replay` share.

pub mod announce;
pub mod braille;
pub mod config;
pub mod console;
pub mod core;
pub mod display;
pub mod engine;
pub mod hall;
pub mod hwcheck;
pub mod keys;
pub mod lichess;
pub mod mirror;
pub mod net;
pub mod openings;
pub mod record;
pub mod runtime;
pub mod sensors;
pub mod sim;
pub mod speech;
pub mod text;
pub mod trace;
