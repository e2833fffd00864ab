//! Touch-move: what a player who has touched pieces must do (Art. 4.3–4.5).
//!
//! On the visually handicapped player's board a piece counts as touched
//! when it leaves its aperture (E2.2). This module turns the ordered list of
//! touched pieces into the set of moves the Laws still allow.

use shakmaty::{CastlingMode, CastlingSide, Chess, Move, MoveList, Piece, Position, Role, Square};

use super::footprint::en_passant_victim;
use super::laws::Article;

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
    /// Finish the move whose piece was released on this square (4.6).
    Released(Square),
}

impl Duty {
    /// The touched square the duty is about.
    pub fn square(self) -> Square {
        match self {
            Duty::Move(sq)
            | Duty::Capture(sq)
            | Duty::Castle(sq)
            | Duty::KingMove(sq)
            | Duty::Released(sq) => sq,
        }
    }
}

/// The moves the Laws still allow, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Obligation {
    pub allowed: MoveList,
    pub duty: Duty,
    /// The article that imposes it (4.3a in the 2008 Laws, today's 4.3.1).
    pub article: Article,
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
/// Castling keeps every touch: king and rook touched together are how it
/// is made (4.4a).
pub fn before_the_move(touches: &[Touch], m: Move) -> &[Touch] {
    match touches.split_last() {
        Some((last, before)) if Some(last.square) == m.from() && !m.is_castle() => before,
        _ => touches,
    }
}

/// The obligation created by `touches` (in the order they happened), or
/// `None` if the player may make any legal move (nothing touched, or 4.5:
/// none of the touched pieces can be moved or captured).
///
/// The Laws (2008 edition, seeds 001/002; the same words in 2001 and
/// today's 4.3–4.4):
/// - 4.3a, own pieces only: move the first touched that can be moved;
/// - 4.3b, the opponent's only: capture the first touched that can be
///   captured;
/// - 4.3c, both colours: capture the first touched opponent piece with the
///   first touched own piece; if that is illegal, move or capture the
///   first piece touched that can be moved or captured. Pieces touched in
///   the same instant come to this function with the player's own first,
///   as 4.3c says to take them when the order is unclear;
/// - 4.4: when the king is the own piece that must move, a rook of the
///   same side touched with or after it means castling that side (4.4a),
///   or another king move if that castling is illegal (4.4c); a rook
///   touched before the king forbids castling that side (4.4b).
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
    let own = touches.iter().find(|t| t.piece.color == us);
    let theirs = touches.iter().find(|t| t.piece.color != us);

    // 4.3c: the first touched opponent piece, taken by the first touched
    // own piece, if that is legal.
    if let (Some(own), Some(theirs)) = (own, theirs) {
        let captures: MoveList = legal
            .iter()
            .copied()
            .filter(|&m| {
                moves_piece_on(m, own.square, mode) && captured_square(m) == Some(theirs.square)
            })
            .collect();
        if !captures.is_empty() {
            return Some(Obligation {
                allowed: captures,
                duty: Duty::Capture(theirs.square),
                article: Article::TouchBoth,
            });
        }
    }
    let mixed = own.is_some() && theirs.is_some();

    // 4.3a/b (and the rest of 4.3c): the first touched piece that can be
    // moved or captured.
    for t in touches {
        let found = if t.piece.color == us {
            own_piece_duty(pos, mode, &legal, touches, t, together_ms)
        } else {
            let allowed: MoveList = legal
                .iter()
                .copied()
                .filter(|&m| captured_square(m) == Some(t.square))
                .collect();
            (!allowed.is_empty()).then_some(Obligation {
                allowed,
                duty: Duty::Capture(t.square),
                article: Article::TouchTheirs,
            })
        };
        if let Some(mut ob) = found {
            if mixed && matches!(ob.article, Article::TouchOwn | Article::TouchTheirs) {
                ob.article = Article::TouchBoth;
            }
            return Some(ob);
        }
    }
    // 4.5: none of the touched pieces can be moved or captured.
    None
}

/// What touching the own piece `t` obliges, if it can be moved: its moves
/// (4.3a), with the king's and rooks' rules of 4.4.
fn own_piece_duty(
    pos: &Chess,
    mode: CastlingMode,
    legal: &MoveList,
    touches: &[Touch],
    t: &Touch,
    together_ms: u64,
) -> Option<Obligation> {
    let us = pos.turn();
    let is_ours = |x: &Touch, role: Role| x.piece.color == us && x.piece.role == role;
    let rook_touch = |side: CastlingSide| {
        let sq = pos.castles().rook(us, side)?;
        touches
            .iter()
            .find(|x| x.square == sq && is_ours(x, Role::Rook))
    };
    let king_touch = touches.iter().find(|x| is_ours(x, Role::King));
    // 4.4b: a rook touched before the king rules out castling on its side.
    let forbidden: Vec<Square> = [CastlingSide::KingSide, CastlingSide::QueenSide]
        .into_iter()
        .filter_map(|side| {
            let rook = rook_touch(side)?;
            let king = king_touch?;
            let rook_first = rook.t.saturating_add(together_ms) < king.t;
            (rook_first && mode == CastlingMode::Standard).then_some(rook.square)
        })
        .collect();
    let permitted = |m: &Move| match m {
        Move::Castle { rook, .. } => !forbidden.contains(rook),
        _ => true,
    };
    // A castling rook touched with the king (4.4a: at the same time), or
    // in Chess960 in either order, since castling there is made with the
    // rook as well as the king (Appendix F), is castling.
    let castling_rook = t.piece.role == Role::Rook
        && king_touch.is_some_and(|k| {
            mode == CastlingMode::Chess960 || k.t <= t.t.saturating_add(together_ms)
        })
        && [CastlingSide::KingSide, CastlingSide::QueenSide]
            .into_iter()
            .any(|side| pos.castles().rook(us, side) == Some(t.square));
    if t.piece.role == Role::King || castling_rook {
        let king_square = king_touch.map_or(t.square, |k| k.square);
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            let Some(rook) = rook_touch(side) else {
                continue;
            };
            if forbidden.contains(&rook.square) {
                continue;
            }
            // 4.4a: king and rook touched: castle on that side if legal.
            let castle: MoveList = legal
                .iter()
                .copied()
                .filter(|m| matches!(m, Move::Castle { rook: r, .. } if *r == rook.square))
                .collect();
            if !castle.is_empty() {
                return Some(Obligation {
                    allowed: castle,
                    duty: Duty::Castle(rook.square),
                    article: Article::KingAndRook,
                });
            }
            // 4.4c: that castling is illegal: another king move; with
            // none, any legal move.
            let king_moves: MoveList = legal
                .iter()
                .copied()
                .filter(|m| m.from() == Some(king_square))
                .collect();
            return (!king_moves.is_empty()).then_some(Obligation {
                allowed: king_moves,
                duty: Duty::KingMove(king_square),
                article: Article::CastlingIllegal,
            });
        }
    }
    let allowed: MoveList = legal
        .iter()
        .copied()
        .filter(|&m| moves_piece_on(m, t.square, mode) && permitted(&m))
        .collect();
    (!allowed.is_empty()).then_some(Obligation {
        allowed,
        duty: Duty::Move(t.square),
        article: Article::TouchOwn,
    })
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
