//! A Braille cell: six dots, and its two written forms, the Unicode
//! Braille pattern (U+2800–U+283F) and North American Braille ASCII (the
//! characters 32–95 a `.brf` file is made of).

use std::fmt;

/// One six-dot cell: bit 0 is dot 1 … bit 5 is dot 6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Cell(u8);

/// North American Braille ASCII, the cell of each character from 32 (`' '`)
/// to 95 (`'_'`), as dot numbers.
const ASCII: [&str; 64] = [
    "", "2346", "5", "3456", "1246", "146", "12346", "3", // space ! " # $ % & '
    "12356", "23456", "16", "346", "6", "36", "46", "34", // ( ) * + , - . /
    "356", "2", "23", "25", "256", "26", "235", "2356", // 0 1 2 3 4 5 6 7
    "236", "35", "156", "56", "126", "123456", "345", "1456", // 8 9 : ; < = > ?
    "4", "1", "12", "14", "145", "15", "124", "1245", // @ A B C D E F G
    "125", "24", "245", "13", "123", "134", "1345", "135", // H I J K L M N O
    "1234", "12345", "1235", "234", "2345", "136", "1236", "2456", // P Q R S T U V W
    "1346", "13456", "1356", "246", "1256", "12456", "45", "456", // X Y Z [ \ ] ^ _
];

impl Cell {
    /// The empty cell (a space).
    pub const BLANK: Cell = Cell(0);

    /// The cell with these dots, written as their numbers (`"1345"`);
    /// `None` for anything but the digits 1–6.
    pub fn from_dots(dots: &str) -> Option<Cell> {
        dots.chars().try_fold(Cell(0), |cell, d| match d {
            '1'..='6' => Some(Cell(cell.0 | 1 << (d as u8 - b'1'))),
            _ => None,
        })
    }

    /// The cell of a Unicode Braille pattern with no dot 7 or 8.
    pub fn from_unicode(c: char) -> Option<Cell> {
        let offset = u32::from(c).checked_sub(0x2800)?;
        (offset < 64).then_some(Cell(offset as u8))
    }

    /// The six-dot cell of any Unicode Braille pattern: dots 7 and 8, which
    /// a six-dot page has no room for, left off.
    pub fn from_unicode_six(c: char) -> Option<Cell> {
        let offset = u32::from(c).checked_sub(0x2800)?;
        (offset < 256).then_some(Cell((offset & 0x3f) as u8))
    }

    /// The cell a Braille ASCII character stands for (lower-case letters
    /// as their capitals, as embossers read them).
    pub fn from_ascii(c: char) -> Option<Cell> {
        let c = c.to_ascii_uppercase();
        let index = u32::from(c).checked_sub(32)? as usize;
        ASCII.get(index).and_then(|dots| Cell::from_dots(dots))
    }

    /// The dots as bits: dot 1 is bit 0 … dot 6 is bit 5 (as BrlAPI and
    /// Unicode number them).
    pub fn bits(self) -> u8 {
        self.0
    }

    /// The dots, as their numbers in order (`"1345"`; empty for a blank).
    pub fn dots(self) -> String {
        (0..6)
            .filter(|bit| self.0 & 1 << bit != 0)
            .map(|bit| char::from(b'1' + bit))
            .collect()
    }

    /// The Unicode Braille pattern.
    pub fn unicode(self) -> char {
        char::from_u32(0x2800 + u32::from(self.0)).unwrap_or(' ')
    }

    /// The Braille ASCII character (32–95).
    pub fn ascii(self) -> char {
        let dots = self.dots();
        let index = ASCII.iter().position(|d| *d == dots).unwrap_or(0);
        char::from(32 + index as u8)
    }

    /// True for the empty cell.
    pub fn is_blank(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.unicode())
    }
}

/// Cells as Unicode Braille, for messages and tests.
pub fn unicode(cells: &[Cell]) -> String {
    cells.iter().map(|c| c.unicode()).collect()
}

/// Cells as Braille ASCII.
pub fn ascii(cells: &[Cell]) -> String {
    cells.iter().map(|c| c.ascii()).collect()
}

/// Braille ASCII text as cells; `None` if a character is outside 32–95
/// (lower-case letters are their capitals).
pub fn from_ascii(text: &str) -> Option<Vec<Cell>> {
    text.chars().map(Cell::from_ascii).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_has_one_ascii_character_and_back() {
        let mut seen = std::collections::BTreeSet::new();
        for mask in 0..64u8 {
            let cell = Cell(mask);
            let c = cell.ascii();
            assert!((' '..='_').contains(&c), "{mask}: {c:?}");
            assert!(seen.insert(c), "{c:?} twice");
            assert_eq!(Cell::from_ascii(c), Some(cell));
            assert_eq!(Cell::from_unicode(cell.unicode()), Some(cell));
            assert_eq!(Cell::from_dots(&cell.dots()), Some(cell));
        }
    }

    #[test]
    fn outside_the_range_is_no_cell() {
        assert_eq!(Cell::from_ascii('`'), None);
        assert_eq!(Cell::from_ascii('~'), None);
        assert_eq!(Cell::from_unicode('\u{2840}'), None);
        assert_eq!(Cell::from_dots("7"), None);
    }
}
