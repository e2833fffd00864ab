//! The scan loop's pace: wakes the caller at the scan rate and tells it
//! the time. The only place the sensor side reads the clock; everything it
//! feeds gets the time as a value.

use std::time::{Duration, Instant};

pub struct Poller {
    period: Duration,
    start: Instant,
    next: Instant,
}

impl Poller {
    /// A pace of `hz` scans a second (at least 1).
    pub fn new(hz: u32) -> Poller {
        let start = Instant::now();
        Poller {
            period: Duration::from_secs(1) / hz.max(1),
            start,
            next: start,
        }
    }

    /// Sleeps until the next scan is due and returns the milliseconds since
    /// the poller started. If the caller fell behind, it does not try to
    /// catch up with a burst of scans: the next one is a period from now.
    pub fn wait(&mut self) -> u64 {
        let now = Instant::now();
        if self.next > now {
            std::thread::sleep(self.next - now);
            self.next += self.period;
        } else {
            self.next = now + self.period;
        }
        self.elapsed_ms()
    }

    /// Milliseconds since the poller started.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
}
