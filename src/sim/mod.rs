//! Simulation, for `pegboard demo`, the tests and the benchmarks:
//!
//! - [`hands`]: a player's hands, turning moves into the sensor readings
//!   they would produce, with human timing, chatter and glitches;
//! - [`hardware`]: the board's electronics, a reed-switch matrix behind
//!   embedded-hal pins and MCP23017 expanders behind an I²C bus.

pub mod hands;
pub mod hardware;

pub use hands::*;
