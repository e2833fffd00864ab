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
//!
//! [`section`] is the configuration's `[sensors]`, `[board]` and
//! `[[boards]]`.

pub mod layout;
pub mod matrix;
pub mod mcp23017;
pub mod poller;
pub mod section;
pub mod serial;
pub mod trace_source;

use std::fmt;

pub use layout::Layout;
pub use section::{BoardConfig, OtherBoard, SensorsConfig, SourceKind};

/// One reading of every aperture, by matrix position (not yet by square).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RawScan {
    /// Bit p set: a peg at matrix position p.
    pub occ: u64,
    /// Buttons the source itself carries (the serial scanner's button
    /// bits), 1 = pressed; `None` for sources without buttons.
    pub buttons: Option<u16>,
    /// Buttons pressed and released again, each held across two of the
    /// source's scans (so no bounce), that the host saw down no more than
    /// once: a press a busy host could not time. The serial scanner's only.
    pub missed: u16,
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
    /// A chip on the I²C bus failed a transfer. `kind` is the bus's own
    /// error kind: `NoAcknowledge` means no chip answered at `address`
    /// (missing, unpowered, or set to another address).
    Bus {
        chip: &'static str,
        address: u8,
        /// The first of the two board rows the chip reads.
        first_row: u8,
        kind: embedded_hal::i2c::ErrorKind,
    },
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceError::Disconnected(why) => write!(f, "sensor source disconnected: {why}"),
            SourceError::Stale { silent_ms } => {
                write!(f, "sensor data is stale: nothing new for {silent_ms} ms")
            }
            SourceError::Device(why) => write!(f, "sensor device error: {why}"),
            SourceError::Bus {
                chip,
                address,
                first_row,
                kind,
            } => {
                let rows = format!("rows {first_row} and {}", first_row + 1);
                match kind {
                    embedded_hal::i2c::ErrorKind::NoAcknowledge(_) => write!(
                        f,
                        "{chip} at address {address:#04x} ({rows}) does not answer: no chip \
                         acknowledged the address (missing, unpowered, or on another address)"
                    ),
                    other => write!(
                        f,
                        "{chip} at address {address:#04x} ({rows}): I2C bus error: {other}"
                    ),
                }
            }
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

    /// What the source has lost so far, counted since it was opened:
    /// all zero for sources that cannot lose anything (pins are read, not
    /// received).
    fn losses(&self) -> Losses {
        Losses::default()
    }

    /// Whether the source plays recorded time (a trace) rather than
    /// reading a board now.
    fn recorded(&self) -> bool {
        false
    }

    /// For a source that plays recorded time: the instant of the next
    /// reading it has not yet given, when that is not after `now_ms`. When
    /// every board and key is read from recorded time, the scan loop reads
    /// them at each of these instants, so a loop held back between two scans
    /// still sees a glitch begin and end where the trace has them, as a
    /// scanner with its own clock would. Sources that read the board now
    /// have none.
    fn due(&self, _now_ms: u64) -> Option<u64> {
        None
    }

    /// A short name for messages ("GPIO matrix", "serial scanner /dev/...").
    fn describe(&self) -> String;
}

/// What a source that receives its scans lost on the way, counted since
/// it was opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Losses {
    /// Scans the sequence numbers show never arrived.
    pub lost_scans: u64,
    /// Frames whose checksum did not match, or of the wrong length.
    pub bad_frames: u64,
    /// Bytes that were no frame at all (noise on the line).
    pub garbage_bytes: u64,
}

/// How often, at most, losses are reported (ms): a noisy line is told,
/// not shouted.
pub const LOSS_REPORT_EVERY_MS: u64 = 10_000;

/// Reports a source's losses at most every [`LOSS_REPORT_EVERY_MS`], and
/// only when there are new ones.
#[derive(Debug, Clone, Default)]
pub struct LossReport {
    reported: Losses,
    next_at: u64,
}

impl LossReport {
    /// The report due at `t` for the source's counts, if any.
    pub fn update(&mut self, t: u64, now: Losses) -> Option<String> {
        if t < self.next_at {
            return None;
        }
        let text = now.since(&self.reported)?;
        self.reported = now;
        self.next_at = t.saturating_add(LOSS_REPORT_EVERY_MS);
        Some(text)
    }
}

impl Losses {
    /// What was lost since `before`, in words; `None` if nothing was.
    pub fn since(&self, before: &Losses) -> Option<String> {
        let new = |now: u64, then: u64| now.saturating_sub(then);
        let parts: Vec<String> = [
            (
                new(self.lost_scans, before.lost_scans),
                "scan lost",
                "scans lost",
            ),
            (
                new(self.bad_frames, before.bad_frames),
                "bad frame",
                "bad frames",
            ),
            (
                new(self.garbage_bytes, before.garbage_bytes),
                "byte of noise",
                "bytes of noise",
            ),
        ]
        .into_iter()
        .filter(|&(n, _, _)| n > 0)
        .map(|(n, one, many)| format!("{n} {}", if n == 1 { one } else { many }))
        .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

impl<S: SensorSource + ?Sized> SensorSource for Box<S> {
    fn scan(&mut self, now_ms: u64) -> Result<RawScan, SourceError> {
        (**self).scan(now_ms)
    }
    fn faults(&self) -> Vec<LineFault> {
        (**self).faults()
    }
    fn losses(&self) -> Losses {
        (**self).losses()
    }
    fn recorded(&self) -> bool {
        (**self).recorded()
    }
    fn due(&self, now_ms: u64) -> Option<u64> {
        (**self).due(now_ms)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_are_reported_when_new_and_at_most_every_ten_seconds() {
        let mut r = LossReport::default();
        let mut now = Losses::default();
        assert_eq!(r.update(0, now), None, "nothing lost, nothing said");
        now.bad_frames = 3;
        now.garbage_bytes = 40;
        assert_eq!(
            r.update(5, now).as_deref(),
            Some("3 bad frames, 40 bytes of noise")
        );
        now.lost_scans = 2;
        assert_eq!(r.update(9_000, now), None, "not again within ten seconds");
        assert_eq!(r.update(10_005, now).as_deref(), Some("2 scans lost"));
        assert_eq!(r.update(30_000, now), None, "nothing new");
    }
}
