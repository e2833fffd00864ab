//! What a move does to the apertures of a board.
//!
//! The board sees occupancy only. A move is known to it by the squares it
//! empties and fills: its *footprint*. A capture leaves the captured square
//! occupied (by the capturing piece), so the board must also have seen that
//! square emptied and filled again — the *landing* — to know the capture
//! was executed rather than not yet begun. Every piece a move moves must be
//! seen put down after it was taken up: its *arrival*.

use shakmaty::{Bitboard, Color, Move, Square};

/// The footprint of a legal move, for the side `color` in a position whose
/// occupancy is `occupied`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Footprint {
    /// Every square the move concerns.
    pub changed: Bitboard,
    /// Occupancy after the move.
    pub after: Bitboard,
    /// Squares whose piece must have been taken out: the moving pieces'
    /// origins and the captured piece's square.
    pub sources: Bitboard,
    /// Where each moving piece arrives: `(destination, origin of the piece
    /// that arrives there)`, whether the destination was empty or held the
    /// captured piece (a *landing*). A piece that stays (a Chess960 king or
    /// rook already on its castling square) arrives nowhere.
    pub arrivals: [Option<(Square, Square)>; 2],
    /// The square of the captured piece, if any (the victim's square for en
    /// passant).
    pub captured: Option<Square>,
    /// The move promotes a pawn: its new piece arrives where the pawn goes.
    pub promotion: bool,
}

/// Where the pawn taken en passant stands.
pub fn en_passant_victim(from: Square, to: Square) -> Square {
    Square::from_coords(to.file(), from.rank())
}

impl Footprint {
    pub fn of(m: Move, color: Color, occupied: Bitboard) -> Footprint {
        match m {
            Move::Normal {
                from,
                to,
                capture,
                promotion,
                ..
            } => {
                let captured = capture.map(|_| to);
                Footprint {
                    changed: Bitboard::from(from) | Bitboard::from(to),
                    after: occupied.without(from).with(to),
                    sources: if captured.is_some() {
                        Bitboard::from(from) | Bitboard::from(to)
                    } else {
                        Bitboard::from(from)
                    },
                    arrivals: [Some((to, from)), None],
                    captured,
                    promotion: promotion.is_some(),
                }
            }
            Move::EnPassant { from, to } => {
                let victim = en_passant_victim(from, to);
                Footprint {
                    changed: Bitboard::from(from) | Bitboard::from(to) | Bitboard::from(victim),
                    after: occupied.without(from).without(victim).with(to),
                    sources: Bitboard::from(from) | Bitboard::from(victim),
                    arrivals: [Some((to, from)), None],
                    captured: Some(victim),
                    promotion: false,
                }
            }
            Move::Castle { king, rook } => {
                let side = m
                    .castling_side()
                    .unwrap_or(shakmaty::CastlingSide::KingSide);
                let king_to = side.king_to(color);
                let rook_to = side.rook_to(color);
                let mut sources = Bitboard::EMPTY;
                let mut arrivals = [None, None];
                if king != king_to {
                    sources.add(king);
                    arrivals[0] = Some((king_to, king));
                }
                if rook != rook_to {
                    sources.add(rook);
                    arrivals[1] = Some((rook_to, rook));
                }
                Footprint {
                    changed: Bitboard::from(king)
                        | Bitboard::from(rook)
                        | Bitboard::from(king_to)
                        | Bitboard::from(rook_to),
                    after: occupied
                        .without(king)
                        .without(rook)
                        .with(king_to)
                        .with(rook_to),
                    sources,
                    arrivals,
                    captured: None,
                    promotion: false,
                }
            }
            Move::Put { to, .. } => Footprint {
                changed: Bitboard::from(to),
                after: occupied.with(to),
                sources: Bitboard::EMPTY,
                arrivals: [None, None],
                captured: None,
                promotion: false,
            },
        }
    }

    /// Could a board showing `board` be on its way from `before` to this
    /// move? Only the move's own squares may differ, and no piece may have
    /// appeared from nowhere among them, but for a promotion's new piece
    /// put on its square before the pawn is taken off (4.6.2 today).
    pub fn in_progress(&self, before: Bitboard, board: Bitboard) -> bool {
        let differ = before ^ board;
        let (now, was) = (
            (board & self.changed).count(),
            (before & self.changed).count(),
        );
        let piece_first = self.promotion
            && self.captured.is_none()
            && now == was + 1
            && self.arrivals[0].is_some_and(|(to, _)| board.contains(to));
        differ.is_subset(self.changed) && (now <= was || piece_first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position, Role};

    #[test]
    fn castling_footprint_in_standard_chess() {
        let pos = Chess::default();
        let occ = pos
            .board()
            .occupied()
            .without(Square::F1)
            .without(Square::G1);
        let m = Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        };
        let fp = Footprint::of(m, Color::White, occ);
        assert_eq!(
            fp.after,
            occ.without(Square::E1)
                .without(Square::H1)
                .with(Square::G1)
                .with(Square::F1)
        );
        assert_eq!(
            fp.sources,
            Bitboard::from(Square::E1) | Bitboard::from(Square::H1)
        );
        // Both pieces arrive on squares that were empty.
        assert_eq!(
            fp.arrivals,
            [
                Some((Square::G1, Square::E1)),
                Some((Square::F1, Square::H1))
            ]
        );
    }

    #[test]
    fn chess960_castling_where_king_and_rook_swap() {
        // King f1, rook g1: O-O puts the king on g1 and the rook on f1.
        let occ = Bitboard::from(Square::F1) | Bitboard::from(Square::G1);
        let m = Move::Castle {
            king: Square::F1,
            rook: Square::G1,
        };
        let fp = Footprint::of(m, Color::White, occ);
        assert_eq!(fp.after, occ);
        assert_eq!(
            fp.arrivals,
            [
                Some((Square::G1, Square::F1)),
                Some((Square::F1, Square::G1))
            ]
        );
    }

    #[test]
    fn capture_lands_on_the_captured_square() {
        let occ = Bitboard::from(Square::C4) | Bitboard::from(Square::F7);
        let m = Move::Normal {
            role: Role::Bishop,
            from: Square::C4,
            capture: Some(Role::Pawn),
            to: Square::F7,
            promotion: None,
        };
        let fp = Footprint::of(m, Color::White, occ);
        assert_eq!(fp.after, Bitboard::from(Square::F7));
        assert_eq!(fp.arrivals[0], Some((Square::F7, Square::C4)));
        assert_eq!(fp.captured, Some(Square::F7));
        // The bishop in the hand is a capture in progress, not a new piece.
        assert!(fp.in_progress(occ, Bitboard::from(Square::F7)));
        assert!(!fp.in_progress(occ, occ.with(Square::E6)));
    }
}
