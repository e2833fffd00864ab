//! The scan loop's pace: wakes the caller at the scan rate and tells it
//! the time. The only place the sensor side reads the clock; everything it
//! feeds gets the time as a value. It also keeps how late each scan was
//! taken ([`Lateness`]), so that a machine can be asked whether it keeps up.

use std::time::{Duration, Instant};

pub struct Poller {
    period: Duration,
    start: Instant,
    next: Instant,
    lateness: Lateness,
}

impl Poller {
    /// A pace of `hz` scans a second (at least 1).
    pub fn new(hz: u32) -> Poller {
        let start = Instant::now();
        let period = Duration::from_secs(1) / hz.max(1);
        Poller {
            period,
            start,
            next: start,
            lateness: Lateness::new(period),
        }
    }

    /// Sleeps until the next scan is due and returns the milliseconds since
    /// the poller started. If the caller fell behind, it does not try to
    /// catch up with a burst of scans: the next one is a period from now.
    pub fn wait(&mut self) -> u64 {
        let due = self.next;
        let now = Instant::now();
        let taken = if due > now {
            std::thread::sleep(due - now);
            self.next += self.period;
            Instant::now()
        } else {
            self.next = now + self.period;
            now
        };
        self.lateness.record(taken.saturating_duration_since(due));
        self.elapsed_ms()
    }

    /// The next scan is due now: the time since the last one (a command
    /// setting itself up after its first scan) is no scan taken late.
    pub fn restart(&mut self) {
        self.next = Instant::now();
    }

    /// Milliseconds since the poller started.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// How late the scans so far were taken.
    pub fn lateness(&self) -> &Lateness {
        &self.lateness
    }
}

/// How late a scan loop took its scans after they were due: counted in
/// steps of 10 µs up to 100 ms (the rest counted together), with the
/// greatest and the number later than one period. Recording a scan costs
/// an addition; it never allocates.
#[derive(Clone, Debug)]
pub struct Lateness {
    period: Duration,
    steps: Box<[u32; Lateness::STEPS + 1]>,
    scans: u64,
    over_a_period: u64,
    max: Duration,
}

impl Lateness {
    const STEP_US: u64 = 10;
    const STEPS: usize = 10_000;

    pub fn new(period: Duration) -> Lateness {
        Lateness {
            period,
            steps: Box::new([0; Lateness::STEPS + 1]),
            scans: 0,
            over_a_period: 0,
            max: Duration::ZERO,
        }
    }

    /// One scan, taken `late` after it was due.
    pub fn record(&mut self, late: Duration) {
        let step = (late.as_micros() as u64 / Lateness::STEP_US).min(Lateness::STEPS as u64);
        self.steps[step as usize] = self.steps[step as usize].saturating_add(1);
        self.scans += 1;
        if late > self.period {
            self.over_a_period += 1;
        }
        self.max = self.max.max(late);
    }

    /// The scans counted.
    pub fn scans(&self) -> u64 {
        self.scans
    }

    /// The scans taken later than one period after they were due.
    pub fn over_a_period(&self) -> u64 {
        self.over_a_period
    }

    /// The latest any scan was taken.
    pub fn max(&self) -> Duration {
        self.max
    }

    /// The lateness that the fraction `q` (0 to 1) of the scans did not
    /// exceed, to 10 µs (the top of its step); at most [`Lateness::max`].
    pub fn quantile(&self, q: f64) -> Duration {
        if self.scans == 0 {
            return Duration::ZERO;
        }
        let wanted = ((self.scans as f64) * q.clamp(0.0, 1.0)).ceil().max(1.0) as u64;
        let mut seen = 0u64;
        for (step, &n) in self.steps.iter().enumerate() {
            seen += u64::from(n);
            if seen >= wanted && step == Lateness::STEPS {
                return self.max;
            }
            if seen >= wanted {
                let top = Duration::from_micros((step as u64 + 1) * Lateness::STEP_US);
                return top.min(self.max);
            }
        }
        self.max
    }

    /// The scan period the lateness is measured against.
    pub fn period(&self) -> Duration {
        self.period
    }
}

impl std::fmt::Display for Lateness {
    /// "p50 0.01 ms, p99 0.08 ms, max 2.40 ms (2201 scans at 200 Hz, 0 by
    /// more than one period)".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        write!(
            f,
            "p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} scans at {} Hz, {} by more than one \
             period)",
            ms(self.quantile(0.5)),
            ms(self.quantile(0.99)),
            ms(self.max),
            self.scans,
            (1.0 / self.period.as_secs_f64()).round(),
            self.over_a_period,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lateness_counts_scans_and_finds_quantiles_to_a_step() {
        let mut l = Lateness::new(Duration::from_millis(5));
        for _ in 0..98 {
            l.record(Duration::from_micros(15));
        }
        l.record(Duration::from_millis(3));
        l.record(Duration::from_millis(7));
        assert_eq!(l.scans(), 100);
        assert_eq!(l.over_a_period(), 1);
        assert_eq!(l.max(), Duration::from_millis(7));
        assert_eq!(l.quantile(0.5), Duration::from_micros(20));
        assert_eq!(l.quantile(0.99), Duration::from_micros(3010));
        assert_eq!(l.quantile(1.0), Duration::from_millis(7));
    }

    #[test]
    fn lateness_beyond_the_steps_is_still_the_maximum() {
        let mut l = Lateness::new(Duration::from_millis(5));
        l.record(Duration::from_secs(2));
        assert_eq!(l.quantile(0.5), Duration::from_secs(2));
        assert_eq!(l.over_a_period(), 1);
    }

    #[test]
    fn a_poller_that_keeps_up_takes_its_scans_on_time() {
        let mut p = Poller::new(200);
        for _ in 0..20 {
            p.wait();
        }
        assert_eq!(p.lateness().scans(), 20);
        // A caller that falls behind is counted late.
        std::thread::sleep(Duration::from_millis(12));
        p.wait();
        assert_eq!(p.lateness().scans(), 21);
        assert!(p.lateness().max() >= Duration::from_millis(6));
        assert!(p.lateness().over_a_period() >= 1);
    }

    #[test]
    fn a_poller_restarted_after_a_pause_counts_no_scan_late() {
        let mut p = Poller::new(200);
        p.wait();
        std::thread::sleep(Duration::from_millis(30));
        p.restart();
        p.wait();
        assert_eq!(p.lateness().over_a_period(), 0);
        assert!(p.lateness().max() < Duration::from_millis(30));
    }
}
