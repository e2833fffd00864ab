//! Which square each matrix position is: the board's orientation and
//! wiring.
//!
//! A matrix position is a (row, column) pair: for the GPIO matrix the row
//! is the drive line and the column the sense line; for the expanders and
//! the serial scanner, position p is row p / 8, column p % 8. The layout
//! says where a1, h1 and h8 are (which fixes the orientation: which corner
//! is a1, which way the files and ranks run), and, for a board wired out of
//! order, which line each logical row and column is on.

use shakmaty::{Bitboard, Square};

/// A matrix position as (row, column), each 0–7.
pub type Position = (u8, u8);

/// Why three corners and the line orders make no board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayoutError {
    /// A corner (`a1`, `h1` or `h8`) outside rows and columns 0 to 7.
    OffTheMatrix { name: &'static str, at: Position },
    /// A corner that is not at a corner of the matrix.
    NotACorner { name: &'static str, at: Position },
    /// h1 is not along an edge from a1, or h8 not along the other from h1.
    NotABoard {
        a1: Position,
        h1: Position,
        h8: Position,
    },
    /// `rows` or `columns` does not list each line 0 to 7 once.
    Lines { name: &'static str, order: [u8; 8] },
}

impl std::fmt::Display for LayoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LayoutError::OffTheMatrix { name, at: (r, c) } => {
                write!(
                    f,
                    "{name} is at [{r}, {c}]; rows and columns go from 0 to 7"
                )
            }
            LayoutError::NotACorner { name, at: (r, c) } => write!(
                f,
                "{name} is at [{r}, {c}], which is not a corner of the matrix; a1, h1 and h8 are \
                 corners"
            ),
            LayoutError::NotABoard { a1, h1, h8 } => write!(
                f,
                "a1 [{}, {}], h1 [{}, {}] and h8 [{}, {}] do not make a board: h1 must be along \
                 one edge from a1, and h8 along the other edge from h1",
                a1.0, a1.1, h1.0, h1.1, h8.0, h8.1
            ),
            LayoutError::Lines { name, order } => {
                write!(f, "{name} must list each line 0 to 7 once, not {order:?}")
            }
        }
    }
}

impl std::error::Error for LayoutError {}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Matrix position index (row × 8 + column) of each square.
    position: [u8; 64],
    /// The square at each matrix position index.
    square: [u8; 64],
    identity: bool,
}

impl Default for Layout {
    /// a1 at (0, 0), h1 at (0, 7), h8 at (7, 7): row = rank, column = file.
    fn default() -> Layout {
        Layout::identity()
    }
}

impl Layout {
    pub fn identity() -> Layout {
        let mut position = [0u8; 64];
        let mut square = [0u8; 64];
        for i in 0..64u8 {
            position[i as usize] = i;
            square[i as usize] = i;
        }
        Layout {
            position,
            square,
            identity: true,
        }
    }

    /// The layout with a1, h1 and h8 at these positions, and the logical
    /// rows and columns on these physical lines (`rows[i]` is the line of
    /// logical row i; identity when wired in order).
    pub fn new(
        a1: Position,
        h1: Position,
        h8: Position,
        rows: [u8; 8],
        columns: [u8; 8],
    ) -> Result<Layout, LayoutError> {
        for (name, (r, c)) in [("a1", a1), ("h1", h1), ("h8", h8)] {
            if r > 7 || c > 7 {
                return Err(LayoutError::OffTheMatrix { name, at: (r, c) });
            }
            if !(r == 0 || r == 7) || !(c == 0 || c == 7) {
                return Err(LayoutError::NotACorner { name, at: (r, c) });
            }
        }
        let step = |from: Position, to: Position| -> (i8, i8) {
            (
                (to.0 as i8 - from.0 as i8) / 7,
                (to.1 as i8 - from.1 as i8) / 7,
            )
        };
        let file_step = step(a1, h1);
        let rank_step = step(h1, h8);
        let unit = |s: (i8, i8)| s.0.abs() + s.1.abs() == 1;
        if !unit(file_step) || !unit(rank_step) || file_step.0 * rank_step.0 != 0 {
            return Err(LayoutError::NotABoard { a1, h1, h8 });
        }
        for (name, order) in [("rows", rows), ("columns", columns)] {
            let mut seen = [false; 8];
            for &line in &order {
                if line > 7 || seen[line as usize] {
                    return Err(LayoutError::Lines { name, order });
                }
                seen[line as usize] = true;
            }
        }
        let mut position = [0u8; 64];
        let mut square = [0u8; 64];
        for sq in Square::ALL {
            let f = sq.file() as i8;
            let r = sq.rank() as i8;
            let row = a1.0 as i8 + f * file_step.0 + r * rank_step.0;
            let col = a1.1 as i8 + f * file_step.1 + r * rank_step.1;
            let p = rows[row as usize] * 8 + columns[col as usize];
            position[sq as usize] = p;
            square[p as usize] = sq as u8;
        }
        let identity = position.iter().enumerate().all(|(i, &p)| i == p as usize);
        Ok(Layout {
            position,
            square,
            identity,
        })
    }

    /// The position index (row × 8 + column) of a square.
    pub fn position_of(&self, sq: Square) -> u8 {
        self.position[sq as usize]
    }

    /// The square at a position index (0–63).
    pub fn square_at(&self, position: u8) -> Square {
        Square::new(u32::from(self.square[(position & 63) as usize]))
    }

    /// A raw scan by position turned into occupancy by square.
    pub fn to_board(&self, raw: u64) -> Bitboard {
        if self.identity {
            return Bitboard(raw);
        }
        let mut board = 0u64;
        let mut rest = raw;
        while rest != 0 {
            let p = rest.trailing_zeros();
            rest &= rest - 1;
            board |= 1 << self.square[p as usize];
        }
        Bitboard(board)
    }

    /// Occupancy by square turned into a raw scan by position (what a
    /// board in this layout would read).
    pub fn to_raw(&self, board: Bitboard) -> u64 {
        if self.identity {
            return board.0;
        }
        board
            .into_iter()
            .fold(0u64, |raw, sq| raw | 1 << self.position[sq as usize])
    }

    /// The squares at these positions, in square order.
    pub fn squares_of(&self, positions: u64) -> Vec<Square> {
        self.to_board(positions).into_iter().collect()
    }

    /// Where a1, h1 and h8 are, as (row, column): what the configuration
    /// file records.
    pub fn corners(&self) -> [Position; 3] {
        let rc = |sq: Square| {
            let p = self.position_of(sq);
            (p / 8, p % 8)
        };
        [rc(Square::A1), rc(Square::H1), rc(Square::H8)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const IN_ORDER: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

    #[test]
    fn default_is_row_rank_column_file() {
        let l = Layout::default();
        assert_eq!(l.position_of(Square::A1), 0);
        assert_eq!(l.position_of(Square::H1), 7);
        assert_eq!(l.position_of(Square::A2), 8);
        assert_eq!(l.square_at(63), Square::H8);
    }

    #[test]
    fn board_turned_round_puts_a1_at_the_far_corner() {
        // The board turned 180°: a1 where h8 was.
        let l = Layout::new((7, 7), (7, 0), (0, 0), IN_ORDER, IN_ORDER).unwrap();
        assert_eq!(l.position_of(Square::A1), 63);
        assert_eq!(l.position_of(Square::H1), 56);
        assert_eq!(l.position_of(Square::H8), 0);
        assert_eq!(l.position_of(Square::E2), 6 * 8 + 3);
        // A raw reading of position 0 is h8.
        assert_eq!(l.to_board(1), Bitboard::from_square(Square::H8));
    }

    #[test]
    fn files_along_the_drive_lines() {
        // Rows are files: a1 (0,0), h1 (7,0), h8 (7,7).
        let l = Layout::new((0, 0), (7, 0), (7, 7), IN_ORDER, IN_ORDER).unwrap();
        assert_eq!(l.position_of(Square::B1), 8);
        assert_eq!(l.position_of(Square::A2), 1);
    }

    #[test]
    fn lines_wired_out_of_order() {
        // Rows 0 and 1 swapped on the connector.
        let l = Layout::new((0, 0), (0, 7), (7, 7), [1, 0, 2, 3, 4, 5, 6, 7], IN_ORDER).unwrap();
        assert_eq!(l.position_of(Square::A1), 8);
        assert_eq!(l.position_of(Square::A2), 0);
    }

    #[test]
    fn to_raw_and_back() {
        let l = Layout::new((0, 7), (7, 7), (7, 0), IN_ORDER, [7, 6, 5, 4, 3, 2, 1, 0]).unwrap();
        let board = Bitboard(0xFFFF_0000_0000_FFFF);
        assert_eq!(l.to_board(l.to_raw(board)), board);
        assert_eq!(l.corners(), [(0, 0), (7, 0), (7, 7)]);
    }

    #[test]
    fn not_corners_or_not_a_board_is_refused() {
        let e = Layout::new((0, 3), (0, 7), (7, 7), IN_ORDER, IN_ORDER).unwrap_err();
        assert_eq!(
            e,
            LayoutError::NotACorner {
                name: "a1",
                at: (0, 3)
            }
        );
        assert!(e.to_string().contains("not a corner"), "{e}");
        let e = Layout::new((0, 0), (7, 7), (7, 0), IN_ORDER, IN_ORDER).unwrap_err();
        assert!(matches!(e, LayoutError::NotABoard { .. }), "{e}");
        assert!(e.to_string().contains("do not make a board"), "{e}");
        let e =
            Layout::new((0, 0), (0, 7), (7, 7), [0, 0, 2, 3, 4, 5, 6, 7], IN_ORDER).unwrap_err();
        assert!(matches!(e, LayoutError::Lines { name: "rows", .. }), "{e}");
    }
}
