//! The serial scanner: a microcontroller scans the board and streams
//! frames over USB serial (`hardware/serial-protocol.md`).

pub mod link;
pub mod port;
pub mod protocol;

pub use link::{Link, LinkState, LinkStats, LinkTiming};
pub use port::SerialScanner;
