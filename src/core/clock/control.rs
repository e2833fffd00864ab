//! Time controls (Art. 6.2, 6.3; Appendices A1, B1): what each period gives,
//! read from a compact string in two forms.
//!
//! - The **human form**, in minutes, as tournament regulations write it:
//!   `90+30` (90 minutes, 30 seconds added per move), `40/90,30+30`
//!   (40 moves in 90 minutes, then 30 minutes for the rest; the `+30`
//!   written once on the last period counts from move 1), `5d3` (5 minutes
//!   with a 3-second delay), `5b3` (Bronstein delay).
//! - The **PGN form**, the `TimeControl` tag of the PGN standard (§9.6.1),
//!   in seconds: `40/5400+30:1800+30`, `300`, `4500+60`, `40/9000`. Periods
//!   are separated by `:`; the last one repeats as needed. Fractions of a
//!   second are allowed (`10+0.05`). `d`/`s` (simple delay) and `b`
//!   (Bronstein) after a period are pegboard's extension for delay clocks.

use std::fmt;

/// What each completed move earns (6.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bonus {
    None,
    /// Fischer: this much is added after each move.
    Increment(u64),
    /// Simple ("US") delay (6.2b): each move first uses this much fixed
    /// time; the main time only runs once it is used up.
    Delay(u64),
    /// Bronstein: the time a move used, up to this much, is given back.
    Bronstein(u64),
}

impl Bonus {
    /// The bonus in milliseconds, whatever its kind.
    pub fn ms(self) -> u64 {
        match self {
            Bonus::None => 0,
            Bonus::Increment(ms) | Bonus::Delay(ms) | Bonus::Bronstein(ms) => ms,
        }
    }
}

/// One period of a time control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    /// Moves to be completed in this period; `None`: all remaining moves.
    pub moves: Option<u32>,
    /// Time given at the start of the period.
    pub ms: u64,
    pub bonus: Bonus,
}

/// A time control: one or more periods. Past the last period, the last one
/// repeats (the PGN rule) if it has a move count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeControl {
    periods: Vec<Period>,
}

/// The class of a game by its time control (A1, B1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Standard,
    Rapid,
    Blitz,
}

impl Class {
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Standard => "standard",
            Class::Rapid => "rapid",
            Class::Blitz => "blitz",
        }
    }
}

/// A time control that cannot be read: the text and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControlError(pub String);

impl fmt::Display for ControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ControlError {}

const MINUTE: u64 = 60_000;
const SECOND: u64 = 1_000;

/// The most time a period may give: 24 hours. No chess clock shows more,
/// and every sum the clock makes stays far inside its integers.
pub const MAX_PERIOD_MS: u64 = 24 * 60 * MINUTE;
/// The largest bonus a move may earn (increment or delay): one hour.
pub const MAX_BONUS_MS: u64 = 60 * MINUTE;
/// The most moves a period may count.
pub const MAX_PERIOD_MOVES: u32 = 1000;
/// The most periods a control may have.
pub const MAX_PERIODS: usize = 10;

/// What each form looks like, for an error about a text that is none.
const HUMAN_FORM: &str = "a time control is minutes, with seconds added per move: \
                          \"90+30\", \"40/90,30+30\" (40 moves in 90 minutes, then 30), \
                          \"5d3\" (3 s delay) or \"5b3\" (Bronstein)";
const PGN_FORM: &str = "a PGN TimeControl is seconds, with seconds added per move: \
                        \"5400+30\", \"40/5400+30:1800+30\", \"300\"";

/// A non-negative decimal number of `unit` milliseconds, exact to the
/// millisecond: "90", "0.05", "1.5".
fn amount(text: &str, unit: u64, what: &str, whole: &str) -> Result<u64, ControlError> {
    let bad = || {
        ControlError(format!(
            "time control \"{whole}\": {what} \"{text}\" is not a number"
        ))
    };
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if int.is_empty() && frac.is_empty() {
        return Err(bad());
    }
    if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let too_big = || {
        ControlError(format!(
            "time control \"{whole}\": {what} \"{text}\" is too large"
        ))
    };
    let int: u64 = if int.is_empty() {
        0
    } else {
        int.parse().map_err(|_| too_big())?
    };
    let mut ms = int.checked_mul(unit).ok_or_else(too_big)?;
    // The fraction, in exact integer arithmetic.
    let mut scale = unit;
    for digit in frac.bytes() {
        if !scale.is_multiple_of(10) {
            return Err(ControlError(format!(
                "time control \"{whole}\": {what} \"{text}\" is finer than a millisecond"
            )));
        }
        scale /= 10;
        ms = ms
            .checked_add(u64::from(digit - b'0') * scale)
            .ok_or_else(too_big)?;
    }
    Ok(ms)
}

/// One period: `[moves/]time[(+|d|s|b)bonus]`, time in `unit` ms, bonus in
/// seconds. Returns the period and whether a bonus was written.
fn period(text: &str, unit: u64, whole: &str) -> Result<(Period, bool), ControlError> {
    let (moves, rest) = match text.split_once('/') {
        Some((m, rest)) => {
            let n: u32 = if m.bytes().all(|b| b.is_ascii_digit()) && !m.is_empty() {
                m.parse().unwrap_or(u32::MAX)
            } else {
                return Err(ControlError(format!(
                    "time control \"{whole}\": the move count \"{m}\" is not a whole number"
                )));
            };
            if n == 0 {
                return Err(ControlError(format!(
                    "time control \"{whole}\": a period needs at least one move"
                )));
            }
            if n > MAX_PERIOD_MOVES {
                return Err(ControlError(format!(
                    "time control \"{whole}\": a period may count at most \
                     {MAX_PERIOD_MOVES} moves, not {n}"
                )));
            }
            (Some(n), rest)
        }
        None => (None, text),
    };
    let split = rest.find(['+', 'd', 'D', 's', 'S', 'b', 'B']);
    let (time, bonus) = match split {
        Some(i) => {
            let (time, b) = rest.split_at(i);
            let (mark, value) = b.split_at(1);
            let ms = amount(value, SECOND, "the bonus", whole)?;
            let bonus = match (mark, ms) {
                (_, 0) => Bonus::None,
                ("+", ms) => Bonus::Increment(ms),
                ("b" | "B", ms) => Bonus::Bronstein(ms),
                (_, ms) => Bonus::Delay(ms),
            };
            (time, Some(bonus))
        }
        None => (rest, None),
    };
    let ms = amount(time, unit, "the time", whole)?;
    Ok((
        Period {
            moves,
            ms,
            bonus: bonus.unwrap_or(Bonus::None),
        },
        bonus.is_some(),
    ))
}

/// Refuses a text that is not written in the form at all ("ninety
/// minutes"), saying what the form looks like, before any part of it is
/// read as a number. Only digits, `.`, `/`, the bonus marks and the
/// period separator belong in a control.
fn check_form(text: &str, separator: &str, form: &str) -> Result<(), ControlError> {
    let shaped = text.chars().all(|c| {
        c.is_ascii_digit() || c == ' ' || ".+/dDsSbB".contains(c) || separator.contains(c)
    }) && text
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit() || c == '.');
    if shaped {
        Ok(())
    } else {
        Err(ControlError(format!(
            "\"{}\" is not a time control: {form}",
            crate::text::quote::short(text)
        )))
    }
}

impl TimeControl {
    /// A control of the given periods. The last period's move count, if
    /// any, repeats.
    pub fn new(periods: Vec<Period>) -> Result<TimeControl, ControlError> {
        if periods.is_empty() {
            return Err(ControlError(
                "a time control needs at least one period".into(),
            ));
        }
        if let Some(i) = periods[..periods.len() - 1]
            .iter()
            .position(|p| p.moves.is_none())
        {
            return Err(ControlError(format!(
                "period {} is for all remaining moves, so no period can follow it",
                i + 1
            )));
        }
        if periods[0].ms == 0 && periods[0].bonus.ms() == 0 {
            return Err(ControlError("the first period gives no time at all".into()));
        }
        if periods.len() > MAX_PERIODS {
            return Err(ControlError(format!(
                "{} periods are too many; at most {MAX_PERIODS}",
                periods.len()
            )));
        }
        for (i, p) in periods.iter().enumerate() {
            if p.ms > MAX_PERIOD_MS {
                return Err(ControlError(format!(
                    "period {} gives more than 24 hours",
                    i + 1
                )));
            }
            if p.bonus.ms() > MAX_BONUS_MS {
                return Err(ControlError(format!(
                    "period {} adds more than an hour a move",
                    i + 1
                )));
            }
            if p.moves.is_some_and(|n| n == 0 || n > MAX_PERIOD_MOVES) {
                return Err(ControlError(format!(
                    "period {} must count from 1 to {MAX_PERIOD_MOVES} moves",
                    i + 1
                )));
            }
        }
        Ok(TimeControl { periods })
    }

    /// Sudden death: `ms` for the whole game, with a bonus per move.
    pub fn sudden_death(ms: u64, bonus: Bonus) -> TimeControl {
        TimeControl {
            periods: vec![Period {
                moves: None,
                ms,
                bonus,
            }],
        }
    }

    /// Reads the human form, in minutes (`90+30`, `40/90,30+30`, `5d3`).
    pub fn parse_human(text: &str) -> Result<TimeControl, ControlError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(ControlError("the time control is empty".into()));
        }
        check_form(text, ",", HUMAN_FORM)?;
        let mut periods = Vec::new();
        let mut with_bonus = Vec::new();
        for part in text.split(',') {
            let (p, written) = period(part.trim(), MINUTE, text)?;
            periods.push(p);
            with_bonus.push(written);
        }
        // "40/90,30+30": a bonus written on the last period only counts
        // from move 1 (the way regulations write it).
        let last = periods.len() - 1;
        if with_bonus[last] && with_bonus[..last].iter().all(|w| !w) {
            let bonus = periods[last].bonus;
            for p in &mut periods[..last] {
                p.bonus = bonus;
            }
        }
        TimeControl::new(periods)
            .map_err(|e| ControlError(format!("time control \"{text}\": {}", e.0)))
    }

    /// Reads the PGN `TimeControl` tag form, in seconds
    /// (`40/5400+30:1800+30`).
    pub fn parse_pgn(text: &str) -> Result<TimeControl, ControlError> {
        let text = text.trim();
        match text {
            "" => return Err(ControlError("the time control is empty".into())),
            "?" => {
                return Err(ControlError(
                    "time control \"?\": the PGN tag says the time control is unknown".into(),
                ));
            }
            "-" => {
                return Err(ControlError(
                    "time control \"-\": the PGN tag says the game had no time control".into(),
                ));
            }
            _ if text.starts_with('*') => {
                return Err(ControlError(format!(
                    "time control \"{text}\": sandclock (hourglass) controls are not supported"
                )));
            }
            _ => {}
        }
        check_form(text, ":", PGN_FORM)?;
        let mut periods = Vec::new();
        for part in text.split(':') {
            periods.push(period(part.trim(), SECOND, text)?.0);
        }
        TimeControl::new(periods)
            .map_err(|e| ControlError(format!("time control \"{text}\": {}", e.0)))
    }

    /// A control of one period of sudden death with a Fischer increment
    /// (or none), as its ms and the increment's ms; none for any other.
    pub fn fischer(&self) -> Option<(u64, u64)> {
        match self.periods() {
            [
                Period {
                    moves: None,
                    ms,
                    bonus,
                },
            ] => match bonus {
                Bonus::None => Some((*ms, 0)),
                Bonus::Increment(inc) => Some((*ms, *inc)),
                _ => None,
            },
            _ => None,
        }
    }

    pub fn periods(&self) -> &[Period] {
        &self.periods
    }

    /// The period in force for a player who has completed `moves` moves:
    /// its index (0-based, counting repeats) and the period itself.
    pub fn period_after(&self, moves: u32) -> (usize, Period) {
        let mut done = 0u32;
        for (i, p) in self.periods.iter().enumerate() {
            match p.moves {
                Some(n) if moves >= done.saturating_add(n) => done = done.saturating_add(n),
                _ => return (i, *p),
            }
        }
        // Past the last period: it repeats (it has a move count, or the
        // loop would have returned).
        let last = *self.periods.last().unwrap_or(&self.periods[0]);
        let n = last.moves.unwrap_or(1).max(1);
        let repeats = (moves - done) / n;
        (self.periods.len() + repeats as usize, last)
    }

    /// The Fischer increment the move after `moves` completed moves earns,
    /// by the period that move is in (0 for other bonuses).
    pub fn increment_for(&self, moves: u32) -> u64 {
        match self.period_after(moves).1.bonus {
            Bonus::Increment(ms) => ms,
            _ => 0,
        }
    }

    /// The move count at which the period in force after `moves` moves
    /// ends, if it has one.
    pub fn control_at(&self, moves: u32) -> Option<u32> {
        let (index, period) = self.period_after(moves);
        let n = period.moves?;
        let mut done = 0u32;
        for p in self.periods.iter().take(index.min(self.periods.len())) {
            done = done.saturating_add(p.moves.unwrap_or(0));
        }
        if index >= self.periods.len() {
            let repeats = (index - self.periods.len()) as u32;
            done = done.saturating_add(repeats.saturating_mul(n));
        }
        Some(done.saturating_add(n))
    }

    /// Whether the period in force after `moves` moves is the last one,
    /// for all remaining moves (6.11).
    pub fn is_last_period(&self, moves: u32) -> bool {
        self.period_after(moves).1.moves.is_none()
    }

    /// Rapid or blitz by A.1/B.1 of `laws`: the time for all moves, or the
    /// first period's time plus 60 times its increment (or delay), 60
    /// minutes or more is standard; below that it is rapid down to the
    /// edition's blitz bound (more than 10 minutes today, at least 15 in
    /// 2008), and blitz at or under it.
    pub fn class(&self, laws: crate::core::laws::Edition) -> Class {
        let first = self.periods[0];
        let total = if first.moves.is_none() {
            first.ms + 60 * first.bonus.ms()
        } else {
            // Several periods: all of them, each with 60 moves' bonus at most.
            self.periods.iter().map(|p| p.ms).sum::<u64>() + 60 * first.bonus.ms()
        };
        if total <= laws.blitz_at_most_ms() {
            Class::Blitz
        } else if total < 60 * MINUTE {
            Class::Rapid
        } else {
            Class::Standard
        }
    }

    /// The PGN `TimeControl` tag form, exact to the millisecond.
    pub fn to_pgn(&self) -> String {
        fn seconds(ms: u64) -> String {
            if ms.is_multiple_of(SECOND) {
                (ms / SECOND).to_string()
            } else {
                let s = format!("{}.{:03}", ms / SECOND, ms % SECOND);
                s.trim_end_matches('0').to_string()
            }
        }
        self.periods
            .iter()
            .map(|p| {
                let moves = p.moves.map(|n| format!("{n}/")).unwrap_or_default();
                let bonus = match p.bonus {
                    Bonus::None => String::new(),
                    Bonus::Increment(ms) => format!("+{}", seconds(ms)),
                    Bonus::Delay(ms) => format!("d{}", seconds(ms)),
                    Bonus::Bronstein(ms) => format!("b{}", seconds(ms)),
                };
                format!("{moves}{}{bonus}", seconds(p.ms))
            })
            .collect::<Vec<_>>()
            .join(":")
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_pgn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(moves: Option<u32>, ms: u64, bonus: Bonus) -> Period {
        Period { moves, ms, bonus }
    }

    // The PGN standard's own examples (§9.6.1).
    #[test]
    fn pgn_standard_examples() {
        assert!(TimeControl::parse_pgn("?").is_err());
        assert!(TimeControl::parse_pgn("-").is_err());
        assert!(TimeControl::parse_pgn("*180").is_err());
        assert_eq!(
            TimeControl::parse_pgn("40/9000").unwrap().periods(),
            &[p(Some(40), 9_000_000, Bonus::None)]
        );
        assert_eq!(
            TimeControl::parse_pgn("300").unwrap().periods(),
            &[p(None, 300_000, Bonus::None)]
        );
        assert_eq!(
            TimeControl::parse_pgn("4500+60").unwrap().periods(),
            &[p(None, 4_500_000, Bonus::Increment(60_000))]
        );
        // "40/9000:300": two periods, the first of forty moves.
        assert_eq!(
            TimeControl::parse_pgn("40/9000:300").unwrap().periods(),
            &[
                p(Some(40), 9_000_000, Bonus::None),
                p(None, 300_000, Bonus::None)
            ]
        );
    }

    #[test]
    fn pgn_form_of_the_issue_and_the_games_folder() {
        let c = TimeControl::parse_pgn("40/5400+30:1800+30").unwrap();
        assert_eq!(
            c.periods(),
            &[
                p(Some(40), 5_400_000, Bonus::Increment(30_000)),
                p(None, 1_800_000, Bonus::Increment(30_000))
            ]
        );
        let c = TimeControl::parse_pgn("40/7200:20/3600:900+30").unwrap();
        assert_eq!(c.periods().len(), 3);
        assert_eq!(c.periods()[2], p(None, 900_000, Bonus::Increment(30_000)));
        // Fractions of a second, as engines write them.
        let c = TimeControl::parse_pgn("10+0.05").unwrap();
        assert_eq!(c.periods(), &[p(None, 10_000, Bonus::Increment(50))]);
        assert_eq!(c.to_pgn(), "10+0.05");
    }

    #[test]
    fn human_form() {
        assert_eq!(
            TimeControl::parse_human("90+30").unwrap().periods(),
            &[p(None, 5_400_000, Bonus::Increment(30_000))]
        );
        // 40 moves in 90 min, then 30 min, +30 s per move from move 1.
        let c = TimeControl::parse_human("40/90,30+30").unwrap();
        assert_eq!(c, TimeControl::parse_pgn("40/5400+30:1800+30").unwrap());
        assert_eq!(
            TimeControl::parse_human("5d3").unwrap().periods(),
            &[p(None, 300_000, Bonus::Delay(3_000))]
        );
        assert_eq!(
            TimeControl::parse_human("5b3").unwrap().periods(),
            &[p(None, 300_000, Bonus::Bronstein(3_000))]
        );
        assert_eq!(
            TimeControl::parse_human("15").unwrap().periods(),
            &[p(None, 900_000, Bonus::None)]
        );
        // A bonus written on an earlier period stays where it is written.
        let c = TimeControl::parse_human("40/90+30,30").unwrap();
        assert_eq!(c.periods()[1].bonus, Bonus::None);
    }

    #[test]
    fn bad_controls_say_what_is_wrong() {
        let e = TimeControl::parse_human("ninety").unwrap_err();
        assert!(e.0.contains("\"ninety\""), "{e}");
        let e = TimeControl::parse_human("90,40/30").unwrap_err();
        assert!(e.0.contains("no period can follow"), "{e}");
        let e = TimeControl::parse_human("0/90").unwrap_err();
        assert!(e.0.contains("at least one move"), "{e}");
        let e = TimeControl::parse_pgn("10+0.0005").unwrap_err();
        assert!(e.0.contains("finer than a millisecond"), "{e}");
        assert!(TimeControl::parse_human("0").is_err());
        assert!(TimeControl::parse_human("").is_err());
        // Not a control at all: say what one looks like.
        let e = TimeControl::parse_human("ninety minutes").unwrap_err();
        assert!(
            e.0.contains("\"ninety minutes\" is not a time control"),
            "{e}"
        );
        assert!(e.0.contains("\"90+30\""), "{e}");
        let e = TimeControl::parse_pgn("90 min").unwrap_err();
        assert!(e.0.contains("\"5400+30\""), "{e}");
    }

    #[test]
    fn values_past_their_range_are_refused() {
        // Past u64: too large to read.
        let e = TimeControl::parse_human("18446744073709551616").unwrap_err();
        assert!(e.0.contains("too large"), "{e}");
        // In minutes, past u64 once made milliseconds.
        let e = TimeControl::parse_human("18446744073709551+0").unwrap_err();
        assert!(e.0.contains("too large"), "{e}");
        // Readable, but past anything a clock shows.
        let e = TimeControl::parse_human("1441+0").unwrap_err();
        assert!(e.0.contains("more than 24 hours"), "{e}");
        let e = TimeControl::parse_human("60d18446744073709551").unwrap_err();
        assert!(
            e.0.contains("too large") || e.0.contains("more than an hour"),
            "{e}"
        );
        let e = TimeControl::parse_human("60d3601").unwrap_err();
        assert!(e.0.contains("more than an hour a move"), "{e}");
        let e = TimeControl::parse_pgn("1001/5400").unwrap_err();
        assert!(e.0.contains("at most 1000 moves"), "{e}");
        let e = TimeControl::parse_pgn("99999999999/5400").unwrap_err();
        assert!(e.0.contains("at most 1000 moves"), "{e}");
        let e = TimeControl::parse_pgn("1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1").unwrap_err();
        assert!(e.0.contains("too many"), "{e}");
        // The limits themselves are fine.
        assert!(TimeControl::parse_human("1440+3600").is_ok());
        assert!(TimeControl::parse_pgn("1000/86400:60").is_ok());
    }

    #[test]
    fn periods_follow_the_move_count_and_the_last_repeats() {
        let c = TimeControl::parse_pgn("40/7200:20/3600").unwrap();
        assert_eq!(c.period_after(0).0, 0);
        assert_eq!(c.period_after(39).0, 0);
        assert_eq!(c.period_after(40).0, 1);
        assert_eq!(c.period_after(59).0, 1);
        assert_eq!(c.period_after(60).0, 2);
        assert_eq!(c.period_after(60).1.ms, 3_600_000);
        assert_eq!(c.control_at(0), Some(40));
        assert_eq!(c.control_at(45), Some(60));
        assert_eq!(c.control_at(61), Some(80));
        let sd = TimeControl::parse_human("40/90,30").unwrap();
        assert_eq!(sd.control_at(41), None);
        assert!(sd.is_last_period(41));
        assert!(!sd.is_last_period(3));
    }

    #[test]
    fn a1_b1_rapid_and_blitz_follow_from_the_control() {
        use crate::core::laws::Edition;
        let class = |s: &str| {
            TimeControl::parse_human(s)
                .unwrap()
                .class(Edition::Laws2023)
        };
        let class_2008 = |s: &str| {
            TimeControl::parse_human(s)
                .unwrap()
                .class(Edition::Laws2008)
        };
        assert_eq!(class("90+30"), Class::Standard);
        assert_eq!(class("40/90,30+30"), Class::Standard);
        // A.1: less than 60 minutes, in both editions.
        assert_eq!(class("60"), Class::Standard);
        assert_eq!(class_2008("60"), Class::Standard);
        assert_eq!(class("59"), Class::Rapid);
        assert_eq!(class("15"), Class::Rapid);
        // 10 minutes + 60 × 5 s = 15 minutes: rapid.
        assert_eq!(class("10+5"), Class::Rapid);
        // B.1 today: 10 minutes or less is blitz, 11 rapid; in 2008
        // less than 15 minutes was blitz.
        assert_eq!(class("10"), Class::Blitz);
        assert_eq!(class("11"), Class::Rapid);
        assert_eq!(class_2008("10"), Class::Blitz);
        assert_eq!(class_2008("14"), Class::Blitz);
        assert_eq!(class_2008("15"), Class::Rapid);
        assert_eq!(class("3+2"), Class::Blitz);
        // 60 minutes + 60 × 1 s = 61: no longer rapid.
        assert_eq!(class("60+1"), Class::Standard);
    }
}
