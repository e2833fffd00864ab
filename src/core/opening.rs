//! An opening's classification: its code in the Encyclopaedia of Chess
//! Openings (ECO: a volume letter, A to E, and a number, 00 to 99), and
//! its family, for the families said in words.
//!
//! Both come from a classification read at the edge (the `openings`
//! wing); here they are values, so that an answer is journaled and
//! replayed as it was given.

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

/// The families of openings said in words; an opening of another is said
/// by its code. Each reads and writes its own name, the key of its words
/// in a language file's `[openings]` table ("sicilian").
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
    TwoKnights,
    FourKnights,
    Spanish,
    QueensGambit,
    Slav,
    QueensGambitAccepted,
    QueensGambitDeclined,
    Catalan,
    KingsIndian,
    QueensIndian,
}

impl Family {
    /// Every family.
    pub const ALL: [Family; 20] = [
        Family::English,
        Family::Dutch,
        Family::Scandinavian,
        Family::Sicilian,
        Family::French,
        Family::Vienna,
        Family::KingsGambit,
        Family::Russian,
        Family::Scotch,
        Family::Italian,
        Family::TwoKnights,
        Family::FourKnights,
        Family::Spanish,
        Family::QueensGambit,
        Family::Slav,
        Family::QueensGambitAccepted,
        Family::QueensGambitDeclined,
        Family::Catalan,
        Family::KingsIndian,
        Family::QueensIndian,
    ];

    /// Its name: the key of its words in a language file.
    pub fn name(self) -> &'static str {
        match self {
            Family::English => "english",
            Family::Dutch => "dutch",
            Family::Scandinavian => "scandinavian",
            Family::Sicilian => "sicilian",
            Family::French => "french",
            Family::Vienna => "vienna",
            Family::KingsGambit => "kings_gambit",
            Family::Russian => "russian",
            Family::Scotch => "scotch",
            Family::Italian => "italian",
            Family::TwoKnights => "two_knights",
            Family::FourKnights => "four_knights",
            Family::Spanish => "spanish",
            Family::QueensGambit => "queens_gambit",
            Family::Slav => "slav",
            Family::QueensGambitAccepted => "queens_gambit_accepted",
            Family::QueensGambitDeclined => "queens_gambit_declined",
            Family::Catalan => "catalan",
            Family::KingsIndian => "kings_indian",
            Family::QueensIndian => "queens_indian",
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that names no family.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FamilyError(pub String);

impl fmt::Display for FamilyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
        write!(
            f,
            "{:?} is no family of openings (one of {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for FamilyError {}

impl FromStr for Family {
    type Err = FamilyError;

    fn from_str(s: &str) -> Result<Family, FamilyError> {
        Family::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| FamilyError(s.to_string()))
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
    fn a_family_reads_and_writes_its_own_name() {
        for family in Family::ALL {
            assert_eq!(family.to_string().parse::<Family>(), Ok(family));
        }
        let e = "caro_kann".parse::<Family>().expect_err("no such family");
        assert!(e.to_string().contains("sicilian"), "{e}");
    }
}
