//! Sensor sources: where raw occupancy comes from.
//!
//! Every source reads the whole board at once and hands back a
//! [`RawScan`]: one bit per **matrix position** (drive line × 8 + sense
//! line, or chip input, or the scanner's own bit number), 1 = a peg is in
//! that aperture. Which square a position is belongs to the [`Layout`]
//! (orientation and wiring), applied after the source, so that a source
//! knows nothing of chess and a board turned round needs no rewiring.
//!
//! The scans then go, unchanged, into the core's debouncer: they are
//! exactly the `occ` lines of a trace, which is what `pegboard record`
//! writes.
//!
//! The sources are generic over the embedded-hal 1.0 traits: the same code
//! runs on the Raspberry Pi's pins and buses (through `rppal`, with the
//! `rpi` feature) and on the simulated ones in [`sim`].

pub mod layout;
pub mod matrix;
pub mod mcp23017;
pub mod open;
pub mod poller;
pub mod serial;
pub mod sim;
pub mod trace_source;

#[cfg(feature = "rpi")]
pub mod rpi;

use std::fmt;

pub use layout::Layout;

/// One reading of every aperture, by matrix position (not yet by square).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RawScan {
    /// Bit p set: a peg at matrix position p.
    pub occ: u64,
    /// Buttons the source itself carries (the serial scanner's button
    /// bits), 1 = pressed; `None` for sources without buttons.
    pub buttons: Option<u16>,
}

/// Why a source gave no scan. None of these ends the game: the last good
/// reading stands until the source speaks again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceError {
    /// The device is not there (unplugged, not yet connected).
    Disconnected(String),
    /// The device is connected but has sent nothing new for this long.
    Stale { silent_ms: u64 },
    /// The device answered wrongly or not at all; the message says which.
    Device(String),
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceError::Disconnected(why) => write!(f, "sensor source disconnected: {why}"),
            SourceError::Stale { silent_ms } => {
                write!(f, "sensor data is stale: nothing new for {silent_ms} ms")
            }
            SourceError::Device(why) => write!(f, "sensor device error: {why}"),
        }
    }
}

impl std::error::Error for SourceError {}

/// A source of whole-board scans.
pub trait SensorSource {
    /// Reads the board now. `now_ms` is the caller's monotonic time, for
    /// sources that judge staleness or replay recorded time; sources that
    /// read pins ignore it.
    fn scan(&mut self, now_ms: u64) -> Result<RawScan, SourceError>;

    /// Wiring faults the source has found (stuck lines), by matrix
    /// position; empty when all is well or the source cannot tell.
    fn faults(&self) -> Vec<LineFault> {
        Vec::new()
    }

    /// A short name for messages ("GPIO matrix", "serial scanner /dev/...").
    fn describe(&self) -> String;
}

impl<S: SensorSource + ?Sized> SensorSource for Box<S> {
    fn scan(&mut self, now_ms: u64) -> Result<RawScan, SourceError> {
        (**self).scan(now_ms)
    }
    fn faults(&self) -> Vec<LineFault> {
        (**self).faults()
    }
    fn describe(&self) -> String {
        (**self).describe()
    }
}

/// A wiring fault: a whole line reads closed when nothing drives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineFault {
    /// The sense line that reads closed with no drive line driven (either
    /// it is shorted to ground, or a drive line is stuck driven).
    pub sense_line: u8,
    /// The matrix positions on that line (8 of them).
    pub positions: u64,
}

impl LineFault {
    /// The fault in the player's words: which squares it affects.
    pub fn describe(&self, layout: &Layout) -> String {
        let squares: Vec<String> = layout
            .squares_of(self.positions)
            .into_iter()
            .map(|sq| sq.to_string())
            .collect();
        format!(
            "sense line {} reads closed with no drive line driven (shorted, or a drive line is stuck): squares {} would all read occupied",
            self.sense_line,
            squares.join(" ")
        )
    }
}
