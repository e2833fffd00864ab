//! The serial scanner on a real port: opens it, feeds the bytes to the
//! [`Link`], and reopens it after an unplug. Nothing here waits: each
//! `scan` drains what has arrived and returns at once, so the caller's
//! loop keeps its rate while the scanner is away.

use std::io::{ErrorKind, Read, Write};
use std::time::Duration;

use serialport::SerialPort;

use super::link::{Link, LinkState, LinkStats, LinkTiming};
use crate::sensors::{Losses, RawScan, SensorSource, SourceError};

pub struct SerialScanner {
    path: String,
    baud: u32,
    port: Option<Box<dyn SerialPort>>,
    link: Link,
    /// Try to open the port again from this time on.
    next_open_ms: u64,
    reconnect_ms: u64,
    /// Why the port is closed, for the error.
    closed_because: String,
    /// Times the port was opened.
    opened: u64,
}

impl SerialScanner {
    /// A scanner on this port (e.g. `/dev/pegboard-scanner`). The port is
    /// opened on the first scan, and again `reconnect_ms` after each loss.
    pub fn new(path: &str, baud: u32, timing: LinkTiming, reconnect_ms: u64) -> SerialScanner {
        SerialScanner {
            path: path.to_string(),
            baud,
            port: None,
            link: Link::new(timing),
            next_open_ms: 0,
            reconnect_ms,
            closed_because: "not opened yet".to_string(),
            opened: 0,
        }
    }

    pub fn state(&self) -> &LinkState {
        self.link.state()
    }

    pub fn stats(&self) -> LinkStats {
        self.link.stats()
    }

    /// How many times the port was opened (1 + reconnections).
    pub fn connections(&self) -> u64 {
        self.opened
    }

    pub fn is_open(&self) -> bool {
        self.port.is_some()
    }

    fn close(&mut self, now_ms: u64, why: String) {
        self.port = None;
        self.closed_because = why;
        self.next_open_ms = now_ms + self.reconnect_ms;
    }

    fn open(&mut self, now_ms: u64) {
        let opened = serialport::new(&self.path, self.baud)
            .timeout(Duration::ZERO)
            .open();
        match opened {
            Ok(mut port) => {
                self.opened += 1;
                let hello = self.link.connected(now_ms);
                match port.write_all(&hello) {
                    Ok(()) => self.port = Some(port),
                    Err(e) => self.close(now_ms, format!("{}: {e}", self.path)),
                }
            }
            Err(e) => self.close(now_ms, format!("{} cannot be opened: {e}", self.path)),
        }
    }

    /// Reads whatever has arrived; closes the port if it is gone.
    fn drain(&mut self, now_ms: u64) {
        let mut buffer = [0u8; 1024];
        loop {
            let Some(port) = self.port.as_mut() else {
                return;
            };
            match port.read(&mut buffer) {
                Ok(0) => return,
                Ok(n) => self.link.receive(now_ms, &buffer[..n]),
                Err(e)
                    if matches!(
                        e.kind(),
                        ErrorKind::TimedOut | ErrorKind::WouldBlock | ErrorKind::Interrupted
                    ) =>
                {
                    return;
                }
                Err(e) => {
                    let why = format!("{} was lost: {e}", self.path);
                    self.close(now_ms, why);
                    return;
                }
            }
        }
    }
}

impl SensorSource for SerialScanner {
    fn scan(&mut self, now_ms: u64) -> Result<RawScan, SourceError> {
        if self.port.is_none() {
            if now_ms < self.next_open_ms {
                return Err(SourceError::Disconnected(self.closed_because.clone()));
            }
            self.open(now_ms);
            if self.port.is_none() {
                return Err(SourceError::Disconnected(self.closed_because.clone()));
            }
        }
        self.drain(now_ms);
        if self.port.is_none() {
            return Err(SourceError::Disconnected(self.closed_because.clone()));
        }
        let (result, send) = self.link.poll(now_ms);
        if let (Some(bytes), Some(port)) = (send, self.port.as_mut())
            && let Err(e) = port.write_all(&bytes)
        {
            let why = format!("{} was lost: {e}", self.path);
            self.close(now_ms, why);
        }
        result
    }

    fn losses(&self) -> Losses {
        let stats = self.link.stats();
        Losses {
            lost_scans: stats.lost_scans,
            bad_frames: stats.frames.crc_errors + stats.frames.malformed,
            garbage_bytes: stats.frames.garbage_bytes,
        }
    }

    fn describe(&self) -> String {
        format!("serial scanner on {}", self.path)
    }
}
