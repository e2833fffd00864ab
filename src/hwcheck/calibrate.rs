//! Calibration: the user lifts a1, then h1, then h8 (putting each back),
//! and the positions the sensors saw give the board's orientation, which is
//! written into the configuration file's `[board]` table.
//!
//! Pure, like the core: raw scans and their times come in as values.

use shakmaty::{Bitboard, Square};

use crate::core::debounce::{Debouncer, SquareChange};
use crate::sensors::Layout;
use crate::sensors::layout::Position;

/// The three squares, in the order they are lifted.
pub const CORNERS: [Square; 3] = [Square::A1, Square::H1, Square::H8];

/// What the user is asked to do now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Put pegs on a1, h1 and h8 (any others may stay).
    Fill,
    /// Lift the peg on this square.
    Lift(Square),
    /// Put it back.
    PutBack(Square),
    Done,
}

/// What calibration says after a scan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// The next step.
    Next(Step),
    /// Something to correct; the step stays.
    Problem(String),
    /// The orientation found.
    Found([Position; 3]),
}

pub struct Calibration {
    debouncer: Debouncer,
    started: bool,
    step: Step,
    found: Vec<Position>,
    lifted: Option<u8>,
    scratch: Vec<SquareChange>,
}

fn position(i: u8) -> Position {
    (i / 8, i % 8)
}

fn is_corner((r, c): Position) -> bool {
    (r == 0 || r == 7) && (c == 0 || c == 7)
}

impl Calibration {
    pub fn new(window_ms: u64) -> Calibration {
        Calibration {
            debouncer: Debouncer::new(window_ms, Bitboard::EMPTY),
            started: false,
            step: Step::Fill,
            found: Vec::new(),
            lifted: None,
            scratch: Vec::new(),
        }
    }

    pub fn step(&self) -> Step {
        self.step
    }

    /// A raw scan (by matrix position) at `t`.
    pub fn scan(&mut self, t: u64, raw: u64, out: &mut Vec<Said>) {
        if !self.started {
            self.debouncer = Debouncer::new(self.debouncer.window(), Bitboard(raw));
            self.started = true;
            self.check_filled(out);
            return;
        }
        // Changes that became stable before this reading come first.
        self.scratch.clear();
        while self.debouncer.advance(t, &mut self.scratch).is_some() {}
        self.debouncer.scan(t, Bitboard(raw));
        while self.debouncer.advance(t, &mut self.scratch).is_some() {}
        let changes = std::mem::take(&mut self.scratch);
        for c in &changes {
            self.change(c.square as u8, c.occupied, out);
        }
        self.scratch = changes;
        if self.step == Step::Fill {
            self.check_filled(out);
        }
    }

    /// Calibration needs at least three pegs in corners to start.
    fn check_filled(&mut self, out: &mut Vec<Said>) {
        let corners = [0u8, 7, 56, 63]
            .iter()
            .filter(|&&p| self.debouncer.stable().contains(Square::new(u32::from(p))))
            .count();
        if corners >= 3 {
            self.step = Step::Lift(CORNERS[0]);
            out.push(Said::Next(self.step));
        } else if out.is_empty() && self.step == Step::Fill {
            out.push(Said::Next(Step::Fill));
        }
    }

    fn change(&mut self, p: u8, occupied: bool, out: &mut Vec<Said>) {
        match self.step {
            Step::Lift(square) if !occupied => {
                if self.lifted.is_some() {
                    out.push(Said::Problem(
                        "two pegs are lifted; put both back, then lift only one".to_string(),
                    ));
                    return;
                }
                self.lifted = Some(p);
                let pos = position(p);
                if !is_corner(pos) {
                    out.push(Said::Problem(format!(
                        "that peg is not in a corner (row {}, column {}); put it back and lift {square}",
                        pos.0, pos.1
                    )));
                } else if self.found.contains(&pos) {
                    out.push(Said::Problem(format!(
                        "that corner was {} already; put it back and lift {square}",
                        CORNERS[self.found.iter().position(|&f| f == pos).unwrap_or(0)]
                    )));
                } else {
                    self.found.push(pos);
                    self.step = Step::PutBack(square);
                    out.push(Said::Next(self.step));
                }
            }
            Step::Lift(_) if occupied && self.lifted == Some(p) => {
                // A wrong peg went back.
                self.lifted = None;
            }
            Step::PutBack(square) if occupied && self.lifted == Some(p) => {
                self.lifted = None;
                let done = self.found.len();
                if done == CORNERS.len() {
                    let f = &self.found;
                    match Layout::new(f[0], f[1], f[2], IN_ORDER, IN_ORDER) {
                        Ok(_) => {
                            self.step = Step::Done;
                            out.push(Said::Found([f[0], f[1], f[2]]));
                            out.push(Said::Next(Step::Done));
                        }
                        Err(_) => {
                            self.found.clear();
                            self.step = Step::Lift(CORNERS[0]);
                            out.push(Said::Problem(format!(
                                "{square} is not along the edge from h1; start again"
                            )));
                            out.push(Said::Next(self.step));
                        }
                    }
                } else {
                    self.step = Step::Lift(CORNERS[done]);
                    out.push(Said::Next(self.step));
                }
            }
            _ => {}
        }
    }
}

const IN_ORDER: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

/// Writes `[board]` a1, h1 and h8 into the configuration text, keeping
/// everything else in it, comments and the `rows` and `columns` orders
/// included: calibration reads the board through those orders, so the
/// corners it finds are logical rows and columns.
pub(crate) fn write_board(config_text: &str, corners: [Position; 3]) -> Result<String, String> {
    let mut doc: toml_edit::DocumentMut = config_text
        .parse()
        .map_err(|e| format!("the configuration cannot be read: {e}"))?;
    if !doc.contains_table("board") {
        let mut table = toml_edit::Table::new();
        table.decor_mut().set_prefix(
            "\n# Where a1, h1 and h8 are on the sensor matrix, as [row, column]\n# (written by pegboard calibrate).\n",
        );
        doc.insert("board", toml_edit::Item::Table(table));
    }
    let board = doc
        .get_mut("board")
        .and_then(|b| b.as_table_mut())
        .ok_or("`board` in the configuration is not a table")?;
    for (name, (r, c)) in ["a1", "h1", "h8"].into_iter().zip(corners) {
        let mut array = toml_edit::Array::new();
        array.push(i64::from(r));
        array.push(i64::from(c));
        // Assigning through the index keeps the key's own comments.
        board[name] = toml_edit::value(array);
    }
    Ok(doc.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(cal: &mut Calibration, scans: &[(u64, u64)]) -> Vec<Said> {
        let mut out = Vec::new();
        for &(t, raw) in scans {
            cal.scan(t, raw, &mut out);
        }
        out
    }

    const FULL: u64 = 0xFFFF_0000_0000_FFFF;

    #[test]
    fn a_board_turned_round_is_found_from_three_lifts() {
        // Physically a1 is at position 63, h1 at 56, h8 at 0.
        let mut cal = Calibration::new(20);
        let said = run(
            &mut cal,
            &[
                (0, FULL),
                (100, FULL & !(1 << 63)),
                (200, FULL),
                (300, FULL & !(1 << 56)),
                (400, FULL),
                (500, FULL & !1),
                (600, FULL),
                (700, FULL),
            ],
        );
        assert_eq!(said[0], Said::Next(Step::Lift(Square::A1)));
        assert!(
            said.contains(&Said::Found([(7, 7), (7, 0), (0, 0)])),
            "{said:?}"
        );
        assert_eq!(cal.step(), Step::Done);
        let layout = Layout::new((7, 7), (7, 0), (0, 0), IN_ORDER, IN_ORDER).unwrap();
        assert_eq!(layout.position_of(Square::A1), 63);
    }

    #[test]
    fn a_peg_that_is_not_a_corner_is_refused() {
        let mut cal = Calibration::new(20);
        let said = run(
            &mut cal,
            &[(0, FULL), (100, FULL & !(1 << 12)), (200, FULL)],
        );
        assert!(
            said.iter()
                .any(|s| matches!(s, Said::Problem(p) if p.contains("not in a corner"))),
            "{said:?}"
        );
        assert_eq!(cal.step(), Step::Lift(Square::A1));
    }

    #[test]
    fn corners_that_make_no_board_start_again() {
        // a1 (0,0), h1 (0,7), then (0,0)'s diagonal... h8 at (7,0) would be
        // along the wrong edge from h1.
        let mut cal = Calibration::new(20);
        let said = run(
            &mut cal,
            &[
                (0, FULL),
                (100, FULL & !1),
                (200, FULL),
                (300, FULL & !(1 << 7)),
                (400, FULL),
                (500, FULL & !(1 << 56)),
                (600, FULL),
                (700, FULL),
            ],
        );
        assert!(
            said.iter().any(|s| matches!(s, Said::Problem(_))),
            "{said:?}"
        );
        assert_eq!(cal.step(), Step::Lift(Square::A1));
    }

    #[test]
    fn an_empty_board_asks_for_pegs_first() {
        let mut cal = Calibration::new(20);
        let said = run(
            &mut cal,
            &[
                (0, 0),
                (100, 1 | 1 << 7 | 1 << 63),
                (200, 1 | 1 << 7 | 1 << 63),
            ],
        );
        assert_eq!(
            said,
            vec![Said::Next(Step::Fill), Said::Next(Step::Lift(Square::A1))]
        );
    }

    #[test]
    fn the_corners_are_written_keeping_comments() {
        let text = "# my board\nlanguage = \"de\" # German\n\n[board]\n# turned\na1 = [0, 0]\n# lines 0 and 1 crossed on the connector\nrows = [1, 0, 2, 3, 4, 5, 6, 7]\n";
        let out = write_board(text, [(7, 7), (7, 0), (0, 0)]).unwrap();
        assert!(
            out.starts_with("# my board\nlanguage = \"de\" # German\n"),
            "{out}"
        );
        assert!(out.contains("# turned\n"), "{out}");
        assert!(
            out.contains("a1 = [7, 7]") && out.contains("h8 = [0, 0]"),
            "{out}"
        );
        // The line orders and their comments stay.
        assert!(
            out.contains(
                "# lines 0 and 1 crossed on the connector\nrows = [1, 0, 2, 3, 4, 5, 6, 7]"
            ),
            "{out}"
        );
        let config = crate::config::Config::parse(&out, "t").unwrap();
        // a1 at logical row 7, column 7: physical line rows[7] = 7.
        assert_eq!(config.board.layout.position_of(Square::A1), 63);
        // h8 at logical row 0: physical line rows[0] = 1.
        assert_eq!(config.board.layout.position_of(Square::H8), 8);
        // A file without [board] gets one.
        let out = write_board("language = \"en\"\n", [(0, 0), (0, 7), (7, 7)]).unwrap();
        assert!(out.contains("[board]"), "{out}");
        assert!(crate::config::Config::parse(&out, "t").is_ok());
    }
}
