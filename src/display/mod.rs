//! Clock outputs: whatever shows the two times. Each takes the clock's
//! [`Face`] at an instant; the daemon (or the demo) calls them as the
//! clock changes. A display that fails (an unplugged module) reports an
//! error and the game goes on: the clock itself lives in the core.
//! [`section`] is the configuration's `[display]`.

pub mod faces;
pub mod section;
pub mod stream;
pub mod terminal;
pub mod tm1637;

pub use section::{DisplayConfig, FaceKind, Tm1637Config};

use std::fmt;

pub use crate::core::clock::Face;
pub use faces::Faces;
pub use stream::EventStreamDisplay;
pub use terminal::TerminalDisplay;
pub use tm1637::{Tm1637, Tm1637Pair};

/// A display that could not show the clock, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisplayError(pub String);

impl fmt::Display for DisplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DisplayError {}

/// Something that shows the clock.
pub trait ClockDisplay {
    /// Shows the clock as it stands at `t` (ms). Called as often as the
    /// owner likes; a display may skip what would not change.
    fn show(&mut self, t: u64, face: &Face) -> Result<(), DisplayError>;
}

/// A time as a clock shows it, rounded down to the second: `1:29:58`,
/// `9:05`, `0:00`.
pub fn hms(ms: u64) -> String {
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// What a four-digit display with a colon shows: hours and minutes from
/// one hour up (`1:29`), minutes and seconds below (`9:05`), dashes once
/// the flag has fallen. A blank is `' '`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FourDigits {
    pub digits: [char; 4],
    pub colon: bool,
}

impl FourDigits {
    pub fn of(ms: u64, flag: bool) -> FourDigits {
        if flag {
            return FourDigits {
                digits: ['-'; 4],
                colon: false,
            };
        }
        let s = ms / 1000;
        let (high, low) = if s >= 3600 {
            ((s / 3600).min(99), s / 60 % 60)
        } else {
            (s / 60, s % 60)
        };
        let digit = |n: u64| char::from_digit((n % 10) as u32, 10).unwrap_or(' ');
        FourDigits {
            digits: [
                if high >= 10 { digit(high / 10) } else { ' ' },
                digit(high),
                digit(low / 10),
                digit(low),
            ],
            colon: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_a_clock_shows_them() {
        assert_eq!(hms(5_398_999), "1:29:58");
        assert_eq!(hms(545_000), "9:05");
        assert_eq!(hms(999), "0:00");
        let d = FourDigits::of(5_398_999, false);
        assert_eq!(d.digits, [' ', '1', '2', '9']);
        let d = FourDigits::of(545_000, false);
        assert_eq!(d.digits, [' ', '9', '0', '5']);
        assert_eq!(
            FourDigits::of(36_000_000, false).digits,
            ['1', '0', '0', '0']
        );
        assert_eq!(FourDigits::of(0, true).digits, ['-'; 4]);
    }
}
