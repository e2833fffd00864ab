//! The GPIO diode matrix: 8 drive lines, 8 sense lines with pull-ups, one
//! reed switch and one diode per aperture.
//!
//! A scan drives one line low at a time, waits the settle time, and reads
//! the 8 sense lines: a sense line reads low where the switch on the driven
//! line is closed (a peg with its magnet in the aperture). The diode in
//! series with each switch stops current flowing backwards through other
//! closed switches, which without it would show "ghost" pegs at the fourth
//! corner of any rectangle of three closed switches.
//!
//! Every `check_every` scans the scanner also reads the sense lines with
//! no drive line driven: a sense line that still reads low is shorted to
//! ground, or a drive line is stuck low. Either way the squares on it
//! would all read occupied, and [`SensorSource::faults`] names them.

use embedded_hal::delay::DelayNs;
use embedded_hal::digital::{InputPin, OutputPin};

use super::{LineFault, RawScan, SensorSource, SourceError};

/// Timing of a matrix scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatrixTiming {
    /// The wait between driving a line and reading the sense lines, for the
    /// lines' capacitance to charge through the pull-ups (microseconds).
    pub settle_us: u32,
    /// Every this many scans, check for stuck lines (0: never).
    pub check_every: u32,
}

impl Default for MatrixTiming {
    fn default() -> MatrixTiming {
        MatrixTiming {
            settle_us: 10,
            check_every: 200,
        }
    }
}

/// Scans a diode matrix on 8 output and 8 input pins.
pub struct MatrixScanner<O, I, D> {
    drive: [O; 8],
    sense: [I; 8],
    delay: D,
    timing: MatrixTiming,
    scans: u32,
    faults: Vec<LineFault>,
}

fn pin_error<E: core::fmt::Debug>(what: &str, line: usize, e: E) -> SourceError {
    SourceError::Device(format!("{what} line {line}: {e:?}"))
}

impl<O: OutputPin, I: InputPin, D: DelayNs> MatrixScanner<O, I, D> {
    /// Takes the pins (drive lines are released, i.e. set high, at once)
    /// and checks the lines for the first time.
    pub fn new(
        mut drive: [O; 8],
        sense: [I; 8],
        delay: D,
        timing: MatrixTiming,
    ) -> Result<Self, SourceError> {
        for (line, pin) in drive.iter_mut().enumerate() {
            pin.set_high().map_err(|e| pin_error("drive", line, e))?;
        }
        let mut scanner = MatrixScanner {
            drive,
            sense,
            delay,
            timing,
            scans: 0,
            faults: Vec::new(),
        };
        scanner.check_lines()?;
        Ok(scanner)
    }

    /// Reads the sense lines with no drive line driven and records the
    /// lines that read closed.
    pub fn check_lines(&mut self) -> Result<(), SourceError> {
        self.delay.delay_us(self.timing.settle_us);
        let mut faults = Vec::new();
        for (line, pin) in self.sense.iter_mut().enumerate() {
            if pin.is_low().map_err(|e| pin_error("sense", line, e))? {
                faults.push(LineFault {
                    sense_line: line as u8,
                    positions: 0x0101_0101_0101_0101u64 << line,
                });
            }
        }
        self.faults = faults;
        Ok(())
    }

    /// One full scan of the 64 positions (row = drive line, column = sense
    /// line).
    pub fn read(&mut self) -> Result<u64, SourceError> {
        let mut occ = 0u64;
        for row in 0..8 {
            self.drive[row]
                .set_low()
                .map_err(|e| pin_error("drive", row, e))?;
            self.delay.delay_us(self.timing.settle_us);
            let mut bits = 0u64;
            for (col, pin) in self.sense.iter_mut().enumerate() {
                if pin.is_low().map_err(|e| pin_error("sense", col, e))? {
                    bits |= 1 << col;
                }
            }
            self.drive[row]
                .set_high()
                .map_err(|e| pin_error("drive", row, e))?;
            occ |= bits << (row * 8);
        }
        self.scans = self.scans.wrapping_add(1);
        if self.timing.check_every > 0 && self.scans.is_multiple_of(self.timing.check_every) {
            self.check_lines()?;
        }
        Ok(occ)
    }
}

impl<O: OutputPin, I: InputPin, D: DelayNs> SensorSource for MatrixScanner<O, I, D> {
    fn scan(&mut self, _now_ms: u64) -> Result<RawScan, SourceError> {
        Ok(RawScan {
            occ: self.read()?,
            buttons: None,
            missed: 0,
        })
    }

    fn faults(&self) -> Vec<LineFault> {
        self.faults.clone()
    }

    fn describe(&self) -> String {
        "GPIO diode matrix".to_string()
    }
}
