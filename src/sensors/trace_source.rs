//! A recorded trace played back as a sensor source, in real time: the
//! trace's `occ`, `lift` and `place` lines are taken as raw positions,
//! starting from the pieces of the header's start position (the start
//! position when there is no header), as `replay` reads it.
//! Lets `hw-test`, `record` and `calibrate` run without a board (and be
//! tested that way).

use super::{RawScan, SensorSource, SourceError};
use crate::core::{Game, StartPosition};
use crate::trace::{Entry, Reading};

pub struct TraceSource {
    name: String,
    entries: Vec<Entry>,
    next: usize,
    occ: u64,
    /// The keys held, once a `keys` line has said: until then the trace
    /// has no keys, as a board without a keypad.
    keys: Option<u16>,
}

impl TraceSource {
    /// A source playing `entries`. The error says why the header's start
    /// position cannot be set up.
    pub(crate) fn new(name: &str, entries: Vec<Entry>) -> Result<TraceSource, String> {
        let start = match entries.first().map(|e| &e.reading) {
            Some(Reading::Header(h)) => h.start.clone(),
            _ => StartPosition::default(),
        };
        let occ = Game::from_start(&start)
            .map_err(|e| format!("{name}: `start`: {e}"))?
            .occupied()
            .0;
        Ok(TraceSource {
            name: name.to_string(),
            entries,
            next: 0,
            occ,
            keys: None,
        })
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
                Reading::Keys(keys) => self.keys = Some(*keys),
                Reading::Header(_) | Reading::Input(_) => {}
            }
            self.next += 1;
        }
        Ok(RawScan {
            occ: self.occ,
            buttons: self.keys,
            missed: 0,
        })
    }

    fn recorded(&self) -> bool {
        true
    }

    fn due(&self, now_ms: u64) -> Option<u64> {
        self.entries
            .get(self.next)
            .map(|entry| entry.t)
            .filter(|&t| t <= now_ms)
    }

    fn describe(&self) -> String {
        format!("trace {}", self.name)
    }
}
