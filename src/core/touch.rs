//! Touch-move: what a player who has touched pieces must do (Art. 4.3–4.5).
//!
//! On the visually handicapped player's board a piece counts as touched
//! when it leaves its aperture (E2.2). This module turns the ordered list of
//! touched pieces into the set of moves the Laws still allow.

use shakmaty::{CastlingMode, CastlingSide, Chess, Move, MoveList, Piece, Position, Role, Square};

use super::footprint::en_passant_victim;

/// A piece taken out of its aperture by the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Touch {
    pub square: Square,
    pub piece: Piece,
    /// Simulated time of the touch, in milliseconds.
    pub t: u64,
}

/// What the touches oblige the player to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Duty {
    /// Move the piece on this square (4.3a).
    Move(Square),
    /// Capture the opponent's piece on this square (4.3b, 4.3c).
    Capture(Square),
    /// Castle with the rook on this square (4.4a).
    Castle(Square),
    /// Make a king move, castling on the other side included (4.4c).
    KingMove(Square),
}

impl Duty {
    /// The touched square the duty is about.
    pub fn square(self) -> Square {
        match self {
            Duty::Move(sq) | Duty::Capture(sq) | Duty::Castle(sq) | Duty::KingMove(sq) => sq,
        }
    }
}

/// The moves the Laws still allow, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Obligation {
    pub allowed: MoveList,
    pub duty: Duty,
    /// The article that imposes it, e.g. `"4.3a"`.
    pub article: &'static str,
}

impl Obligation {
    pub fn permits(&self, m: Move) -> bool {
        self.allowed.contains(&m)
    }
}

/// The square of the piece a move captures.
pub fn captured_square(m: Move) -> Option<Square> {
    match m {
        Move::Normal {
            capture: Some(_),
            to,
            ..
        } => Some(to),
        Move::EnPassant { from, to } => Some(en_passant_victim(from, to)),
        _ => None,
    }
}

/// Does `m` move the piece standing on `sq`? In Chess960 castling moves the
/// rook as well as the king; in standard chess touching the rook first rules
/// castling out (4.4b), so there it counts as a king move only.
fn moves_piece_on(m: Move, sq: Square, mode: CastlingMode) -> bool {
    match m {
        Move::Castle { king, rook } => king == sq || (mode == CastlingMode::Chess960 && rook == sq),
        _ => m.from() == Some(sq),
    }
}

/// The touches that bound the player when he took up the piece he moved:
/// all of them but the piece `m` moves, when it was the last one touched.
/// Taking up the piece one moves is how an obligation is met or broken,
/// not a touch that makes a new one: a player who touched the opponent's
/// pawn and then moved his knight broke 4.3b (capture the pawn), not 4.3c.
pub fn before_the_move(touches: &[Touch], m: Move) -> &[Touch] {
    match touches.split_last() {
        Some((last, before)) if Some(last.square) == m.from() => before,
        _ => touches,
    }
}

/// The obligation created by `touches` (in the order they happened), or
/// `None` if the player may make any legal move (nothing touched, or 4.5:
/// none of the touched pieces can be moved or captured).
///
/// `together_ms`: a king and rook touched within this interval count as
/// touched at the same time (4.4a, 4.4c).
pub fn obligation(
    pos: &Chess,
    mode: CastlingMode,
    touches: &[Touch],
    together_ms: u64,
) -> Option<Obligation> {
    if touches.is_empty() {
        return None;
    }
    let us = pos.turn();
    let legal = pos.legal_moves();
    let mut forbidden_castles: Vec<Square> = Vec::new();

    // 4.4: king and rook.
    if let Some(king) = touches
        .iter()
        .find(|t| t.piece.color == us && t.piece.role == Role::King)
    {
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            let Some(rook_sq) = pos.castles().rook(us, side) else {
                continue;
            };
            let Some(rook) = touches
                .iter()
                .find(|t| t.square == rook_sq && t.piece.color == us && t.piece.role == Role::Rook)
            else {
                continue;
            };
            let king_first = king.t <= rook.t.saturating_add(together_ms);
            if mode == CastlingMode::Chess960 || king_first {
                let castle: MoveList = legal
                    .iter()
                    .copied()
                    .filter(|m| matches!(m, Move::Castle { rook, .. } if *rook == rook_sq))
                    .collect();
                if !castle.is_empty() {
                    return Some(Obligation {
                        allowed: castle,
                        duty: Duty::Castle(rook_sq),
                        article: "4.4a",
                    });
                }
                let king_moves: MoveList = legal
                    .iter()
                    .copied()
                    .filter(|m| m.from() == Some(king.square))
                    .collect();
                if king_moves.is_empty() {
                    return None;
                }
                return Some(Obligation {
                    allowed: king_moves,
                    duty: Duty::KingMove(king.square),
                    article: "4.4c",
                });
            }
            // 4.4b: the rook was touched first; no castling on that side.
            forbidden_castles.push(rook_sq);
        }
    }

    let permitted = |m: &Move| match m {
        Move::Castle { rook, .. } => !forbidden_castles.contains(rook),
        _ => true,
    };

    let own: Vec<Square> = touches
        .iter()
        .filter(|t| t.piece.color == us)
        .map(|t| t.square)
        .collect();
    let theirs: Vec<Square> = touches
        .iter()
        .filter(|t| t.piece.color != us)
        .map(|t| t.square)
        .collect();
    let mixed = !own.is_empty() && !theirs.is_empty();

    // 4.3c: one's own piece and the opponent's: capture it with that piece
    // (the first touched of one's own pieces that can take a touched one).
    if mixed {
        for &piece in &own {
            let captures: MoveList = legal
                .iter()
                .copied()
                .filter(|&m| {
                    m.from() == Some(piece)
                        && captured_square(m).is_some_and(|c| theirs.contains(&c))
                })
                .collect();
            if let Some(first) = captures.first().and_then(|&m| captured_square(m)) {
                return Some(Obligation {
                    allowed: captures,
                    duty: Duty::Capture(first),
                    article: "4.3c",
                });
            }
        }
    }

    // 4.3a/b (and the rest of 4.3c): the first touched piece that can be
    // moved or captured.
    for t in touches {
        let (allowed, duty, article): (MoveList, Duty, &'static str) = if t.piece.color == us {
            (
                legal
                    .iter()
                    .copied()
                    .filter(|&m| moves_piece_on(m, t.square, mode) && permitted(&m))
                    .collect(),
                Duty::Move(t.square),
                if mixed { "4.3c" } else { "4.3a" },
            )
        } else {
            (
                legal
                    .iter()
                    .copied()
                    .filter(|&m| captured_square(m) == Some(t.square))
                    .collect(),
                Duty::Capture(t.square),
                if mixed { "4.3c" } else { "4.3b" },
            )
        };
        if !allowed.is_empty() {
            return Some(Obligation {
                allowed,
                duty,
                article,
            });
        }
    }
    // 4.5: none of the touched pieces can be moved or captured.
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn art_4_3_the_piece_taken_up_last_to_move_is_not_a_new_touch() {
        let pos = Chess::default();
        let touch = |sq: Square, t: u64| Touch {
            square: sq,
            piece: pos.board().piece_at(sq).expect("a piece"),
            t,
        };
        let knight_then_pawn = [touch(Square::G1, 0), touch(Square::E2, 500)];
        let e4 = Move::Normal {
            role: Role::Pawn,
            from: Square::E2,
            capture: None,
            to: Square::E4,
            promotion: None,
        };
        assert_eq!(
            before_the_move(&knight_then_pawn, e4),
            &knight_then_pawn[..1]
        );
        // The moved piece touched first stays: it made the obligation.
        let pawn_then_knight = [touch(Square::E2, 0), touch(Square::G1, 500)];
        assert_eq!(
            before_the_move(&pawn_then_knight, e4),
            &pawn_then_knight[..]
        );
        assert!(before_the_move(&[], e4).is_empty());
    }
}
