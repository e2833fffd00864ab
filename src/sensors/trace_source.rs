//! A recorded trace played back as a sensor source, in real time: the
//! trace's `occ`, `lift` and `place` lines are taken as raw positions.
//! Lets `hw-test`, `record` and `calibrate` run without a board (and be
//! tested that way).

use super::{RawScan, SensorSource, SourceError};
use crate::trace::{Entry, Reading};

pub struct TraceSource {
    name: String,
    entries: Vec<Entry>,
    next: usize,
    occ: u64,
}

impl TraceSource {
    pub fn new(name: &str, entries: Vec<Entry>) -> TraceSource {
        TraceSource {
            name: name.to_string(),
            entries,
            next: 0,
            occ: 0,
        }
    }

    /// Whether every line has been played.
    pub fn finished(&self) -> bool {
        self.next >= self.entries.len()
    }
}

impl SensorSource for TraceSource {
    fn scan(&mut self, now_ms: u64) -> Result<RawScan, SourceError> {
        while let Some(entry) = self.entries.get(self.next) {
            if entry.t > now_ms {
                break;
            }
            match &entry.reading {
                Reading::Scan { occ, .. } => self.occ = occ.0,
                Reading::Lift { square, .. } => self.occ &= !(1u64 << *square as u32),
                Reading::Place { square, .. } => self.occ |= 1u64 << *square as u32,
                Reading::Header(_) | Reading::Input(_) => {}
            }
            self.next += 1;
        }
        Ok(RawScan {
            occ: self.occ,
            buttons: None,
        })
    }

    fn describe(&self) -> String {
        format!("trace {}", self.name)
    }
}
