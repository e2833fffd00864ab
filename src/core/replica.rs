//! A board that shows an earlier position than the game: it is to be
//! brought to the game's position by hand (E1, E2.7, E2.8).
//!
//! When the game moves on through one board (or a relayed move), every
//! other board lags behind by that move: that is no mismatch, it is a
//! replication to be done. After a retrace every board lags behind the
//! other way. A [`Lag`] remembers the position the board showed when it
//! fell behind; [`Lag::judge`] says, from the board's occupancy and the
//! order of its lifts and placements since, whether the replication is
//! done, still under way, or wrong.

use shakmaty::{Bitboard, Chess, Move, Piece, Position, Square};

use super::footprint::Footprint;

/// Sequence numbers of each square's latest lift and placement since the
/// board fell behind (0: none).
#[derive(Clone, Copy)]
pub struct Marks<'a> {
    pub lifted: &'a [u32; 64],
    pub placed: &'a [u32; 64],
    /// A promotion's new piece may be put on its square before the pawn
    /// is taken off (today's 4.6.2; a replication, never a move, always).
    pub promotion_any_order: bool,
}

impl Marks<'_> {
    /// Was this square's piece taken out and a piece put back after it?
    fn refreshed(&self, sq: Square) -> bool {
        let lifted = self.lifted[sq as usize];
        lifted != 0 && self.placed[sq as usize] > lifted
    }

    /// Were the move's pieces taken out, and was each moving piece put
    /// down on its new square after its own square was emptied (4.6: the
    /// move is made when the piece is released there)?
    pub fn executed(&self, fp: &Footprint) -> bool {
        fp.sources.into_iter().all(|s| self.lifted[s as usize] != 0)
            && fp.arrivals.iter().flatten().all(|&(to, from)| {
                self.arrived(to, from)
                    || (fp.promotion && self.promotion_any_order && self.exchanged(to, from))
            })
    }

    /// The pawn on `from` taken off and a new piece put down on `to`, in
    /// either order (4.6.2), the piece a capture takes seen taken off
    /// before it.
    fn exchanged(&self, to: Square, from: Square) -> bool {
        let (placed, lifted_to) = (self.placed[to as usize], self.lifted[to as usize]);
        self.lifted[from as usize] != 0 && placed != 0 && placed > lifted_to
    }

    /// Would the move be [`Marks::executed`] had its promotion piece been
    /// released after the pawn was taken off? A promotion made piece
    /// first, which the 2008 Laws do not count as made (4.6c).
    pub fn exchanged_piece_first(&self, fp: &Footprint) -> bool {
        fp.promotion
            && !self.executed(fp)
            && Marks {
                promotion_any_order: true,
                ..*self
            }
            .executed(fp)
    }

    /// Was a piece put down on `to` after the piece on `from` was taken
    /// up? Marks given together (one reading after an unseen interval)
    /// share their number, and tell no order.
    pub fn arrived(&self, to: Square, from: Square) -> bool {
        let from_seq = self.lifted[from as usize];
        from_seq != 0 && self.placed[to as usize] > from_seq
    }
}

/// What a lagging board shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judgement {
    /// The game's position: the replication is done.
    Done,
    /// Nothing done yet, or a piece surely still in the hand on the way
    /// (fewer pieces on the board than there will be).
    Waiting,
    /// Only the squares the replication changes differ, but it is not done:
    /// perhaps under way, perhaps left half done (a captured piece not
    /// taken off, a rook not moved). What to put where, if it stays so.
    Underway {
        missing: Vec<(Square, Piece)>,
        extra: Vec<Square>,
    },
    /// A square the replication does not change differs: what to put
    /// where, and which squares to empty.
    Wrong {
        missing: Vec<(Square, Piece)>,
        extra: Vec<Square>,
    },
}

/// A board behind the game.
#[derive(Debug, Clone)]
pub struct Lag {
    /// The position the board showed when it fell behind.
    pub base: Chess,
    /// The moves from there to the game's position when the board only
    /// lags behind; `None` after a retrace.
    pub moves: Option<Vec<Move>>,
}

/// Squares whose piece differs between two positions.
pub fn differing(a: &Chess, b: &Chess) -> Bitboard {
    (a.board().occupied() | b.board().occupied())
        .into_iter()
        .filter(|&sq| a.board().piece_at(sq) != b.board().piece_at(sq))
        .collect()
}

/// What turns `from` into `to` by hand: pieces to put (with their
/// squares), and squares to empty (a piece to be replaced counts as both).
pub fn changes(from: &Chess, to: &Chess) -> (Vec<(Square, Piece)>, Vec<Square>) {
    let differ = differing(from, to);
    let missing = (differ & to.board().occupied())
        .into_iter()
        .filter_map(|sq| to.board().piece_at(sq).map(|p| (sq, p)))
        .collect();
    let extra = (differ & from.board().occupied()).into_iter().collect();
    (missing, extra)
}

/// What a board with occupancy `board` lacks and has too many against
/// `pos`: the pieces to put (with their squares), and squares to empty.
pub fn against(pos: &Chess, board: Bitboard) -> (Vec<(Square, Piece)>, Vec<Square>) {
    let expected = pos.board().occupied();
    let missing = (expected & !board)
        .into_iter()
        .filter_map(|sq| pos.board().piece_at(sq).map(|p| (sq, p)))
        .collect();
    let extra = (board & !expected).into_iter().collect();
    (missing, extra)
}

impl Lag {
    /// How far a board with occupancy `board` and these `marks` has come
    /// towards `target`.
    pub fn judge(&self, target: &Chess, board: Bitboard, marks: &Marks) -> Judgement {
        let base_occ = self.base.board().occupied();
        let target_occ = target.board().occupied();
        let differ = differing(&self.base, target);
        // Squares occupied before and after by different pieces: the old
        // piece must have been taken out and the new one put in.
        let landings = differ & base_occ & target_occ;
        let stale: Bitboard = landings
            .into_iter()
            .filter(|&sq| !marks.refreshed(sq))
            .collect();
        let single_done = match self.moves.as_deref() {
            Some([m]) => marks.executed(&Footprint::of(*m, self.base.turn(), base_occ)),
            _ => true,
        };
        if board == target_occ && stale.is_empty() && single_done {
            return Judgement::Done;
        }
        let agrees_outside = ((board ^ target_occ) & !differ).is_empty();
        if board == base_occ || (agrees_outside && board.count() < target_occ.count()) {
            return Judgement::Waiting;
        }
        let missing = (target_occ & !board | stale)
            .into_iter()
            .filter_map(|sq| target.board().piece_at(sq).map(|p| (sq, p)))
            .collect();
        let extra = (board & !target_occ | stale).into_iter().collect();
        if agrees_outside {
            Judgement::Underway { missing, extra }
        } else {
            Judgement::Wrong { missing, extra }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Color, Role, san::San};

    fn after(sans: &str) -> Chess {
        let mut p = Chess::default();
        for s in sans.split_whitespace() {
            let m = s.parse::<San>().expect("SAN").to_move(&p).expect("legal");
            p.play_unchecked(m);
        }
        p
    }

    /// Lifts and placements in order, as `"-g1 +f3"`.
    fn marks(hands: &str) -> ([u32; 64], [u32; 64]) {
        let (mut lifted, mut placed) = ([0; 64], [0; 64]);
        for (i, h) in hands.split_whitespace().enumerate() {
            let sq: Square = h[1..].parse().expect("square");
            let seq = i as u32 + 1;
            if h.starts_with('-') {
                lifted[sq as usize] = seq;
            } else {
                placed[sq as usize] = seq;
            }
        }
        (lifted, placed)
    }

    fn judge(before: &str, m: &str, hands: &str) -> Judgement {
        let base = after(before);
        let target = after(&format!("{before} {m}"));
        let mv = m
            .parse::<San>()
            .expect("SAN")
            .to_move(&base)
            .expect("legal");
        let (lifted, placed) = marks(hands);
        let mut board = base.board().occupied();
        for h in hands.split_whitespace() {
            let sq: Square = h[1..].parse().expect("square");
            if h.starts_with('-') {
                board.discard(sq);
            } else {
                board.add(sq);
            }
        }
        let lag = Lag {
            base,
            moves: Some(vec![mv]),
        };
        lag.judge(
            &target,
            board,
            &Marks {
                lifted: &lifted,
                placed: &placed,
                promotion_any_order: true,
            },
        )
    }

    #[test]
    fn a_move_replicated_is_done_and_half_of_it_is_waiting() {
        assert_eq!(judge("e4", "Nf6", "-g8 +f6"), Judgement::Done);
        assert_eq!(judge("e4", "Nf6", "-g8"), Judgement::Waiting);
        assert_eq!(judge("e4", "Nf6", ""), Judgement::Waiting);
        assert_eq!(judge("e4", "Nf6", "-g8 +g8"), Judgement::Waiting);
    }

    #[test]
    fn e2_7_knight_to_the_wrong_square_is_wrong() {
        let Judgement::Wrong { missing, extra } = judge("e4", "Nf6", "-g8 +h6") else {
            panic!("not wrong");
        };
        assert_eq!(
            missing,
            [(
                Square::F6,
                Piece {
                    color: Color::Black,
                    role: Role::Knight
                }
            )]
        );
        assert_eq!(extra, [Square::H6]);
    }

    #[test]
    fn e2_7_capture_without_removing_the_piece_is_wrong() {
        // 1. e4 d5 2. exd5: the pawn lifted, d5's pawn never taken out.
        let Judgement::Underway { missing, extra } = judge("e4 d5", "exd5", "-e4") else {
            panic!("not wrong");
        };
        assert_eq!(
            missing,
            [(
                Square::D5,
                Piece {
                    color: Color::White,
                    role: Role::Pawn
                }
            )]
        );
        assert_eq!(extra, [Square::D5]);
        // Done right: the black pawn out, the white one in.
        assert_eq!(judge("e4 d5", "exd5", "-d5 -e4 +d5"), Judgement::Done);
        assert_eq!(judge("e4 d5", "exd5", "-e4 -d5 +d5"), Judgement::Done);
        // The black pawn taken out, the white one still in the hand.
        assert_eq!(judge("e4 d5", "exd5", "-d5 -e4"), Judgement::Waiting);
    }

    #[test]
    fn e2_7_castling_with_only_the_king_moved_is_wrong() {
        let before = "e4 e5 Nf3 Nc6 Bc4 Bc5";
        let Judgement::Underway { missing, extra } = judge(before, "O-O", "-e1 +g1") else {
            panic!("not wrong");
        };
        assert_eq!(
            missing,
            [(
                Square::F1,
                Piece {
                    color: Color::White,
                    role: Role::Rook
                }
            )]
        );
        assert_eq!(extra, [Square::H1]);
        assert_eq!(judge(before, "O-O", "-e1 +g1 -h1 +f1"), Judgement::Done);
    }

    #[test]
    fn e2_7_en_passant_without_removing_the_pawn_is_wrong() {
        let before = "e4 a6 e5 d5";
        let Judgement::Underway { missing, extra } = judge(before, "exd6", "-e5 +d6") else {
            panic!("not wrong");
        };
        assert!(missing.is_empty());
        assert_eq!(extra, [Square::D5]);
        assert_eq!(judge(before, "exd6", "-e5 +d6 -d5"), Judgement::Done);
    }

    #[test]
    fn changes_name_every_square_a_retrace_touches() {
        let from = after("e4 d5 exd5");
        let to = after("e4");
        let (missing, extra) = changes(&from, &to);
        // The white pawn back from d5 to e4, the black one back on d7.
        let pawn = |color| Piece {
            color,
            role: Role::Pawn,
        };
        assert_eq!(
            missing,
            [
                (Square::E4, pawn(Color::White)),
                (Square::D7, pawn(Color::Black))
            ]
        );
        assert_eq!(extra, [Square::D5]);
        let (missing, extra) = changes(&from, &Chess::default());
        assert_eq!(missing.len(), 2, "e2 and d7: {missing:?}");
        assert_eq!(extra, [Square::D5]);
    }
}
