//! An opening's classification: its code in the Encyclopaedia of Chess
//! Openings (ECO: a volume letter, A to E, and a number, 00 to 99), and
//! the family of openings that code belongs to, for the families players
//! name most.
//!
//! The code of a game comes from a classification read at the edge (the
//! runtime's `openings` wing); here it is a value, so that an answer is
//! journaled and replayed as it was given.

use std::fmt;
use std::str::FromStr;

/// An ECO code: "B90" is volume B, number 90.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Eco {
    /// `b'A'` to `b'E'`.
    volume: u8,
    /// 0 to 99.
    number: u8,
}

/// A text that is no ECO code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EcoError(pub String);

impl fmt::Display for EcoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is no ECO code (a letter A to E and two digits, as B90)",
            self.0
        )
    }
}

impl std::error::Error for EcoError {}

impl Eco {
    /// The code of volume `volume` (A to E) and `number` (0 to 99).
    pub fn new(volume: char, number: u8) -> Option<Eco> {
        let volume = u8::try_from(volume).ok()?;
        ((b'A'..=b'E').contains(&volume) && number < 100).then_some(Eco { volume, number })
    }

    /// Its volume, A to E.
    pub fn volume(self) -> char {
        char::from(self.volume)
    }

    /// Its number in the volume, 0 to 99.
    pub fn number(self) -> u8 {
        self.number
    }
}

impl fmt::Display for Eco {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{:02}", self.volume(), self.number)
    }
}

impl FromStr for Eco {
    type Err = EcoError;

    fn from_str(s: &str) -> Result<Eco, EcoError> {
        let bad = || EcoError(s.to_string());
        let mut chars = s.chars();
        let volume = chars.next().ok_or_else(bad)?;
        let digits = chars.as_str();
        if digits.len() != 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let number = digits.parse().map_err(|_| bad())?;
        Eco::new(volume, number).ok_or_else(bad)
    }
}

/// The families of openings named in words, each by the ECO codes it
/// spans. A code outside them is said as its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    English,
    Dutch,
    Scandinavian,
    Sicilian,
    French,
    Vienna,
    KingsGambit,
    Russian,
    Scotch,
    Italian,
    Spanish,
    QueensGambit,
    Slav,
    QueensGambitAccepted,
    QueensGambitDeclined,
    Catalan,
}

/// The codes of each family, as the ECO's own index divides them: first
/// and last code, both in the family.
const SPANS: [(&str, &str, Family); 16] = [
    ("A10", "A39", Family::English),
    ("A80", "A99", Family::Dutch),
    ("B01", "B01", Family::Scandinavian),
    ("B20", "B99", Family::Sicilian),
    ("C00", "C19", Family::French),
    ("C25", "C29", Family::Vienna),
    ("C30", "C39", Family::KingsGambit),
    ("C42", "C43", Family::Russian),
    ("C45", "C45", Family::Scotch),
    // The Giuoco Piano, the Evans Gambit and the Two Knights Defence.
    ("C50", "C59", Family::Italian),
    ("C60", "C99", Family::Spanish),
    // The Queen's Gambit, Chigorin's defence and Albin's countergambit.
    ("D06", "D09", Family::QueensGambit),
    ("D10", "D19", Family::Slav),
    ("D20", "D29", Family::QueensGambitAccepted),
    // With the Tarrasch and the Semi-Slav.
    ("D30", "D69", Family::QueensGambitDeclined),
    ("E01", "E09", Family::Catalan),
];

impl Family {
    /// The family `eco` belongs to, if it is one named in words.
    pub fn of(eco: Eco) -> Option<Family> {
        SPANS.iter().find_map(|&(first, last, family)| {
            let (first, last) = (first.parse::<Eco>().ok()?, last.parse::<Eco>().ok()?);
            (first..=last).contains(&eco).then_some(family)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eco(s: &str) -> Eco {
        s.parse().expect("an ECO code")
    }

    #[test]
    fn a_code_reads_and_writes_its_own_text() {
        for s in ["A00", "B90", "E99", "C42"] {
            assert_eq!(eco(s).to_string(), s);
        }
        assert_eq!(eco("B07").number(), 7);
        assert_eq!(eco("D20").volume(), 'D');
        for bad in ["", "F00", "a00", "B9", "B900", "B9x", "Ä00", " B90"] {
            assert_eq!(
                bad.parse::<Eco>(),
                Err(EcoError(bad.to_string())),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn the_spans_are_codes_in_order_and_do_not_overlap() {
        let mut last: Option<Eco> = None;
        for (first, end, _) in SPANS {
            let (first, end) = (eco(first), eco(end));
            assert!(first <= end, "{first}..{end}");
            assert!(last.is_none_or(|l| l < first), "{first} overlaps");
            last = Some(end);
        }
    }

    #[test]
    fn each_family_takes_its_codes_and_none_beside_them() {
        assert_eq!(Family::of(eco("B20")), Some(Family::Sicilian));
        assert_eq!(Family::of(eco("B99")), Some(Family::Sicilian));
        assert_eq!(Family::of(eco("B19")), None, "the Caro-Kann");
        assert_eq!(Family::of(eco("C44")), None);
        assert_eq!(Family::of(eco("C45")), Some(Family::Scotch));
        assert_eq!(Family::of(eco("C46")), None);
        assert_eq!(Family::of(eco("C60")), Some(Family::Spanish));
        assert_eq!(Family::of(eco("D69")), Some(Family::QueensGambitDeclined));
        assert_eq!(Family::of(eco("D70")), None, "the Grünfeld");
        assert_eq!(Family::of(eco("E00")), None);
        assert_eq!(Family::of(eco("E09")), Some(Family::Catalan));
    }
}
