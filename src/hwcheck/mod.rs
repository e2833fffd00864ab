//! Checking the hardware before a game: `pegboard hw-test` watches every
//! aperture and tells a flickering reed switch from a real lift
//! ([`sensor_check`]); `pegboard calibrate` finds the board's wiring, square
//! by square ([`calibrate`]).

pub mod calibrate;
pub mod sensor_check;
