//! Who may send what changes the game: a secret (the console's, or its
//! PIN) compared in constant time, login sessions, and the limit on wrong
//! guesses. Pure: every instant is a value passed in (milliseconds), so
//! each rule is tested without waiting.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;

/// A session's idle timeout: 30 minutes without a request ends it.
pub const SESSION_IDLE_MS: u64 = 30 * 60 * 1000;
/// Failures from one device (an address, an IPv6 /64) within this window…
pub const FAILURE_WINDOW_MS: u64 = 10 * 60 * 1000;
/// …at most this many; then the address is locked out until the oldest
/// of them leaves the window.
pub const MAX_FAILURES: usize = 10;
/// A PIN takes at most this many wrong guesses from everyone together
/// within [`DAY_MS`]; then it is locked until the oldest leaves the day.
/// Against a random four-digit PIN that is a 1 % chance a day.
pub const PIN_FAILURES_PER_DAY: usize = 100;
/// The window of [`PIN_FAILURES_PER_DAY`]: a day.
pub const DAY_MS: u64 = 24 * 60 * 60 * 1000;
/// The wait before the first failure is answered; it doubles with each
/// failure in the window…
pub const FIRST_DELAY_MS: u64 = 50;
/// …up to this.
pub const MAX_DELAY_MS: u64 = 800;

/// Compares two byte strings in time that depends on their lengths only,
/// never on where they first differ.
pub fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len().max(b.len());
    let mut diff = (a.len() ^ b.len()) as u8 | u8::from(a.len() != b.len());
    for i in 0..n {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0);
        diff |= x ^ y;
    }
    std::hint::black_box(diff) == 0
}

/// Login sessions: random tokens, each ended by its idle timeout.
#[derive(Debug, Default)]
pub struct Sessions {
    last_use: HashMap<String, u64>,
}

impl Sessions {
    /// Opens a session named by `token` (random, made by the caller).
    pub fn open(&mut self, token: String, now: u64) {
        self.forget_idle(now);
        self.last_use.insert(token, now);
    }

    /// Whether `token` names a live session; using it keeps it alive.
    pub fn check(&mut self, token: &str, now: u64) -> bool {
        self.forget_idle(now);
        match self.find(token) {
            Some(k) => {
                self.last_use.insert(k, now);
                true
            }
            None => false,
        }
    }

    /// Ends the session `token` names (logging out); whether there was one.
    pub fn close(&mut self, token: &str) -> bool {
        self.find(token)
            .is_some_and(|k| self.last_use.remove(&k).is_some())
    }

    /// The live token `token` names: each is compared whole, in constant
    /// time.
    fn find(&self, token: &str) -> Option<String> {
        self.last_use
            .keys()
            .find(|k| same(k.as_bytes(), token.as_bytes()))
            .cloned()
    }

    fn forget_idle(&mut self, now: u64) {
        self.last_use
            .retain(|_, &mut last| now.saturating_sub(last) < SESSION_IDLE_MS);
    }

    pub fn len(&self) -> usize {
        self.last_use.len()
    }

    pub fn is_empty(&self) -> bool {
        self.last_use.is_empty()
    }
}

/// What kind of secret opens the door.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strength {
    /// A short PIN (`[console] pin`): it can be guessed, so wrong guesses
    /// from everyone together are bounded, and it locks at the bound.
    Pin,
    /// The generated secret (128 random bits): it cannot be swept, so
    /// only each address's guesses are limited.
    Generated,
}

/// What the limiter says of an attempt to log in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// Go ahead and check the credential.
    Open,
    /// Refused without a check: this address failed too often (until
    /// `until`).
    Shut { until: u64 },
    /// Refused without a check, from everyone: the PIN took its day's
    /// wrong guesses (until `until`).
    Locked { until: u64 },
}

/// Why an attempt was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The credential was wrong: answer after `wait` ms.
    Wrong { wait: u64 },
    /// Not checked: this address is shut out until `until`.
    Shut { until: u64 },
    /// Not checked: the PIN is locked until `until`.
    Locked { until: u64 },
}

/// Wrong guesses, per device and, for a PIN, from everyone in a day.
#[derive(Debug)]
pub struct Limiter {
    strength: Strength,
    failures: HashMap<IpAddr, VecDeque<u64>>,
    /// A PIN's wrong guesses within the last day, from everyone.
    day: VecDeque<u64>,
}

impl Limiter {
    /// The limiter for a secret of `strength`.
    pub fn new(strength: Strength) -> Limiter {
        Limiter {
            strength,
            failures: HashMap::new(),
            day: VecDeque::new(),
        }
    }

    /// May `from` try a credential at `now`?
    pub fn gate(&mut self, from: IpAddr, now: u64) -> Gate {
        self.expire(now);
        if self.day.len() >= PIN_FAILURES_PER_DAY {
            return Gate::Locked {
                until: self.day.front().copied().unwrap_or(now) + DAY_MS,
            };
        }
        if let Some(f) = self.failures.get(&from)
            && f.len() >= MAX_FAILURES
        {
            return Gate::Shut {
                until: f.front().copied().unwrap_or(now) + FAILURE_WINDOW_MS,
            };
        }
        Gate::Open
    }

    /// `from` gave a wrong credential at `now`: how long to wait before
    /// answering (doubling with each recent failure: 50 ms, 100 ms …).
    pub fn failed(&mut self, from: IpAddr, now: u64) -> u64 {
        self.expire(now);
        let f = self.failures.entry(from).or_default();
        f.push_back(now);
        if self.strength == Strength::Pin {
            self.day.push_back(now);
        }
        let n = f.len().min(16) as u32;
        (FIRST_DELAY_MS << (n - 1)).min(MAX_DELAY_MS)
    }

    /// One attempt, judged and counted at once (so that attempts made
    /// together cannot all pass the gate before any is counted): `Ok`
    /// when `correct`, else the wait before answering, or the gate shut.
    pub fn attempt(&mut self, from: IpAddr, now: u64, correct: bool) -> Result<(), Refusal> {
        // Counted by device: an IPv6 host may take any address of its /64,
        // so that is one guesser. A hall's devices share one IPv4 network:
        // a guesser there shuts out only his own address (a laptop taking
        // many addresses is held by the PIN's day and the secret's size).
        let from = super::shares::holder(from);
        match self.gate(from, now) {
            Gate::Open => {}
            Gate::Shut { until } => return Err(Refusal::Shut { until }),
            Gate::Locked { until } => return Err(Refusal::Locked { until }),
        }
        if correct {
            self.succeeded(from);
            Ok(())
        } else {
            Err(Refusal::Wrong {
                wait: self.failed(from, now),
            })
        }
    }

    /// `from` logged in: its failures are forgiven.
    pub fn succeeded(&mut self, from: IpAddr) {
        self.failures.remove(&from);
    }

    fn expire(&mut self, now: u64) {
        for f in self.failures.values_mut() {
            while f
                .front()
                .is_some_and(|&t| now.saturating_sub(t) >= FAILURE_WINDOW_MS)
            {
                f.pop_front();
            }
        }
        self.failures.retain(|_, f| !f.is_empty());
        while self
            .day
            .front()
            .is_some_and(|&t| now.saturating_sub(t) >= DAY_MS)
        {
            self.day.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HERE: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(192, 168, 1, 20));
    const THERE: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(192, 168, 1, 21));

    #[test]
    fn same_compares_whole_strings() {
        assert!(same(b"4711", b"4711"));
        assert!(!same(b"4711", b"4712"));
        assert!(!same(b"4711", b"47111"));
        assert!(!same(b"", b"x"));
        assert!(same(b"", b""));
    }

    #[test]
    fn a_session_ends_after_its_idle_timeout_and_lives_while_used() {
        let mut s = Sessions::default();
        s.open("abc".into(), 0);
        assert!(s.check("abc", SESSION_IDLE_MS - 1));
        // Used just now: alive for another idle timeout.
        assert!(s.check("abc", 2 * SESSION_IDLE_MS - 2));
        assert!(!s.check("abd", 2 * SESSION_IDLE_MS - 2));
        assert!(!s.check("abc", 3 * SESSION_IDLE_MS));
        assert!(s.is_empty());
    }

    #[test]
    fn ten_failures_lock_an_address_out_until_the_window_passes() {
        let mut l = Limiter::new(Strength::Generated);
        let mut delays = Vec::new();
        for i in 0..MAX_FAILURES as u64 {
            // One failure every two seconds: the global limit stays clear.
            let now = i * 2000;
            assert_eq!(l.gate(HERE, now), Gate::Open);
            delays.push(l.failed(HERE, now));
        }
        assert_eq!(delays[..5], [50, 100, 200, 400, 800]);
        assert_eq!(delays[9], MAX_DELAY_MS);
        let now = 20_000;
        assert_eq!(
            l.gate(HERE, now),
            Gate::Shut {
                until: FAILURE_WINDOW_MS
            }
        );
        // Another address is not locked out by this one.
        assert_eq!(l.gate(THERE, now), Gate::Open);
        // The lockout expires as the first failure leaves the window.
        assert_eq!(l.gate(HERE, FAILURE_WINDOW_MS), Gate::Open);
    }

    /// A guesser's address, each another device.
    fn address(i: usize) -> IpAddr {
        IpAddr::V4(std::net::Ipv4Addr::new(
            10,
            (i / 250) as u8,
            (i % 250) as u8,
            1,
        ))
    }

    #[test]
    fn a_pin_locks_for_everyone_after_its_days_wrong_guesses() {
        let mut l = Limiter::new(Strength::Pin);
        // A sweep from many addresses, one guess each, a second apart.
        for i in 0..PIN_FAILURES_PER_DAY {
            let t = i as u64 * 1000;
            assert_eq!(l.attempt(address(i), t, false).map_err(|_| ()), Err(()));
        }
        let now = PIN_FAILURES_PER_DAY as u64 * 1000;
        let locked = Err(Refusal::Locked { until: DAY_MS });
        assert_eq!(l.attempt(address(1000), now, false), locked);
        assert_eq!(
            l.attempt(address(1001), now, true),
            locked,
            "the right PIN too"
        );
        // The lock lifts as the first guess leaves the day.
        assert_eq!(l.attempt(address(1001), DAY_MS, true), Ok(()));
    }

    #[test]
    fn the_generated_secret_is_limited_per_device_only() {
        let mut l = Limiter::new(Strength::Generated);
        for i in 0..10 * PIN_FAILURES_PER_DAY {
            assert!(matches!(
                l.attempt(address(i), i as u64, false),
                Err(Refusal::Wrong { .. })
            ));
        }
        assert_eq!(l.attempt(address(5000), 5000, true), Ok(()));
    }

    #[test]
    fn a_guesser_in_the_hall_shuts_out_himself_and_not_his_network() {
        let mut l = Limiter::new(Strength::Generated);
        // Ten wrong guesses from one laptop on the hall's network: it is
        // shut, and the assistant beside it on the same /24 is not.
        let laptop = IpAddr::V4(std::net::Ipv4Addr::new(192, 168, 7, 10));
        for i in 0..10u64 {
            assert!(matches!(
                l.attempt(laptop, i, false),
                Err(Refusal::Wrong { .. })
            ));
        }
        assert!(matches!(
            l.attempt(laptop, 20, true),
            Err(Refusal::Shut { .. })
        ));
        let assistant = IpAddr::V4(std::net::Ipv4Addr::new(192, 168, 7, 11));
        assert_eq!(l.attempt(assistant, 20, true), Ok(()));
    }

    #[test]
    fn the_addresses_of_one_ipv6_64_are_one_guesser() {
        let mut l = Limiter::new(Strength::Generated);
        for i in 0..10u16 {
            let from = IpAddr::V6(std::net::Ipv6Addr::new(
                0x2001,
                0xdb8,
                1,
                2,
                0,
                0,
                0,
                10 + i,
            ));
            assert!(matches!(
                l.attempt(from, u64::from(i), false),
                Err(Refusal::Wrong { .. })
            ));
        }
        let same = IpAddr::V6(std::net::Ipv6Addr::new(0x2001, 0xdb8, 1, 2, 9, 9, 9, 9));
        assert!(matches!(
            l.attempt(same, 20, true),
            Err(Refusal::Shut { .. })
        ));
        let other = IpAddr::V6(std::net::Ipv6Addr::new(0x2001, 0xdb8, 1, 3, 0, 0, 0, 1));
        assert_eq!(l.attempt(other, 20, true), Ok(()));
    }

    #[test]
    fn a_closed_session_opens_nothing() {
        let mut s = Sessions::default();
        s.open("abc".into(), 0);
        assert!(s.close("abc"));
        assert!(!s.check("abc", 1));
        assert!(!s.close("abc"), "closed once");
    }

    #[test]
    fn a_login_forgives_the_addresss_failures() {
        let mut l = Limiter::new(Strength::Generated);
        for i in 0..9 {
            l.failed(HERE, i * 2000);
        }
        l.succeeded(HERE);
        assert_eq!(
            l.failed(HERE, 30_000),
            FIRST_DELAY_MS,
            "counting starts again"
        );
    }
}
