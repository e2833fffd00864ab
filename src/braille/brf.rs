//! The Braille-ready file (`.brf`): lines of cells laid out on pages for an
//! embosser or a Braille notetaker.
//!
//! A page holds 25 lines of 40 cells (the size of the usual 11 × 11.5 inch
//! Braille page). Each line ends with CR LF, a form feed stands between
//! pages, and every page carries its number at the right of its first line,
//! written with the numeric indicator (`#A` for 1), as British Braille books
//! number their pages. The characters are North American Braille ASCII
//! (32–95), which every embosser and notetaker reads.

use super::cell::{self, Cell};

/// Cells on a line.
pub const LINE_CELLS: usize = 40;
/// Lines on a page, the page number's line included.
pub const PAGE_LINES: usize = 25;
/// Blank cells kept between text and the page number on a page's first line.
const NUMBER_GAP: usize = 3;

/// A paragraph of cells: its first line begins after `first` blank cells,
/// the lines it runs over to after `runover`. Words (runs of cells between
/// blanks) are never split unless one alone is longer than a line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Paragraph {
    pub cells: Vec<Cell>,
    pub first: usize,
    pub runover: usize,
}

impl Paragraph {
    /// A paragraph starting at the margin whose run-over lines start there
    /// too.
    pub fn new(cells: Vec<Cell>) -> Paragraph {
        Paragraph {
            cells,
            first: 0,
            runover: 0,
        }
    }

    /// The same paragraph with these indents.
    pub fn indented(self, first: usize, runover: usize) -> Paragraph {
        Paragraph {
            first,
            runover,
            ..self
        }
    }

    /// The lines the paragraph takes, each at most `width` cells.
    pub fn lines(&self, width: usize) -> Vec<Vec<Cell>> {
        let words: Vec<&[Cell]> = self
            .cells
            .split(|c| c.is_blank())
            .filter(|w| !w.is_empty())
            .collect();
        let mut lines = Vec::new();
        let mut line = vec![Cell::BLANK; self.first.min(width - 1)];
        let mut has_word = false;
        for word in words {
            let mut word = word;
            let room = width.saturating_sub(line.len() + usize::from(has_word));
            if has_word && word.len() > room {
                lines.push(std::mem::take(&mut line));
                line = vec![Cell::BLANK; self.runover.min(width - 1)];
                has_word = false;
            }
            if has_word {
                line.push(Cell::BLANK);
            }
            // A word longer than a whole line is cut where the line ends.
            while word.len() > width - line.len() {
                let (head, tail) = word.split_at(width - line.len());
                line.extend_from_slice(head);
                lines.push(std::mem::take(&mut line));
                line = vec![Cell::BLANK; self.runover.min(width - 1)];
                word = tail;
            }
            line.extend_from_slice(word);
            has_word = true;
        }
        if has_word || lines.is_empty() {
            lines.push(line);
        }
        lines
    }
}

/// A page number as Braille: the numeric indicator and the digits as the
/// letters a–j.
pub fn page_number(n: usize) -> Vec<Cell> {
    let digits = n.to_string();
    let text: String = std::iter::once('#')
        .chain(digits.bytes().map(|d| match d {
            b'0' => 'J',
            d => char::from(b'A' + (d - b'1')),
        }))
        .collect();
    cell::from_ascii(&text).unwrap_or_default()
}

/// Lays paragraphs out on pages and writes the file. An empty paragraph is
/// a blank line, left out at the top of a page.
pub fn write(paragraphs: &[Paragraph]) -> String {
    let lines: Vec<Vec<Cell>> = paragraphs
        .iter()
        .flat_map(|p| {
            if p.cells.iter().all(|c| c.is_blank()) {
                vec![Vec::new()]
            } else {
                p.lines(LINE_CELLS)
            }
        })
        .collect();
    let mut pages: Vec<Vec<Vec<Cell>>> = Vec::new();
    let mut rest = lines.as_slice();
    while !rest.is_empty() || pages.is_empty() {
        while rest.first().is_some_and(|l| l.is_empty()) && !pages.is_empty() {
            rest = &rest[1..];
        }
        if rest.is_empty() && !pages.is_empty() {
            break;
        }
        let number = page_number(pages.len() + 1);
        let room = LINE_CELLS - NUMBER_GAP - number.len();
        let mut page = Vec::with_capacity(PAGE_LINES);
        // The first line carries the number; a text line goes beside it if
        // it leaves the gap free.
        let mut first = match rest.first() {
            Some(l) if l.len() <= room => {
                rest = &rest[1..];
                l.clone()
            }
            _ => Vec::new(),
        };
        first.resize(LINE_CELLS - number.len(), Cell::BLANK);
        first.extend(number);
        page.push(first);
        while page.len() < PAGE_LINES {
            match rest.split_first() {
                Some((l, tail)) => {
                    page.push(l.clone());
                    rest = tail;
                }
                None => break,
            }
        }
        pages.push(page);
    }
    pages
        .iter()
        .map(|page| {
            page.iter()
                .map(|l| format!("{}\r\n", cell::ascii(l).trim_end()))
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\x0c")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(ascii: &str) -> Vec<Cell> {
        cell::from_ascii(ascii).expect("Braille ASCII")
    }

    #[test]
    fn a_paragraph_breaks_between_words_and_indents_its_runover() {
        let p = Paragraph::new(cells("AAAA BBBB CCCC")).indented(2, 4);
        let lines: Vec<String> = p.lines(11).iter().map(|l| cell::ascii(l)).collect();
        assert_eq!(lines, ["  AAAA BBBB", "    CCCC"]);
    }

    #[test]
    fn a_word_longer_than_a_line_is_cut_at_the_line_end() {
        let p = Paragraph::new(cells("ABCDEFGHIJKLMN"));
        let lines: Vec<String> = p.lines(5).iter().map(|l| cell::ascii(l)).collect();
        assert_eq!(lines, ["ABCDE", "FGHIJ", "KLMN"]);
    }

    #[test]
    fn page_numbers_are_the_numeric_indicator_and_letters() {
        assert_eq!(cell::ascii(&page_number(1)), "#A");
        assert_eq!(cell::ascii(&page_number(10)), "#AJ");
        assert_eq!(cell::ascii(&page_number(27)), "#BG");
    }

    #[test]
    fn pages_hold_25_lines_of_40_cells_numbered_at_the_right_of_the_first() {
        let paragraphs: Vec<Paragraph> = (1..=60)
            .map(|n| Paragraph::new(cells(&format!("LINE {n}"))))
            .collect();
        let brf = write(&paragraphs);
        let pages: Vec<&str> = brf.split('\x0c').collect();
        assert_eq!(pages.len(), 3);
        for (i, page) in pages.iter().enumerate() {
            let lines: Vec<&str> = page
                .strip_suffix("\r\n")
                .unwrap_or(page)
                .split("\r\n")
                .collect();
            assert!(lines.len() <= PAGE_LINES, "{}", lines.len());
            assert!(lines.iter().all(|l| l.len() <= LINE_CELLS));
            let number = cell::ascii(&page_number(i + 1));
            assert!(lines[0].ends_with(&number), "{:?}", lines[0]);
            assert_eq!(lines[0].len(), LINE_CELLS);
        }
        assert!(pages[0].starts_with("LINE 1 "));
        assert!(pages[1].starts_with("LINE 26 "));
    }
}
