//! Why a relayed move cannot be played (pure): the rule it breaks, so that
//! the assistant and the player hear more than "not possible". shakmaty
//! decides what is legal; this only names, for a move it refused, which of
//! the Laws' articles stands in the way (cited by the game's edition).

use super::laws::Article;
use shakmaty::attacks;
use shakmaty::san::{San, SanError};
use shakmaty::uci::UciMove;
use shakmaty::{Bitboard, Chess, Color, Piece, Position, Rank, Role, Square};

/// What stands in the way of a relayed move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unplayable {
    /// No piece stands on the square the move starts from.
    Empty(Square),
    /// The piece belongs to the player who is not to move (1.1: the
    /// players move alternately).
    Turn { square: Square, owner: Color },
    /// The square moved to holds a piece of the mover's own colour (3.1).
    OwnPiece(Square),
    /// The move would leave or put the mover's own king in check (3.9).
    Check,
    /// Castling is not allowed now (3.8).
    Castling,
    /// A pawn reaching the last rank must become a piece, named (3.7e).
    Promotion,
    /// A bishop, rook or queen would pass over a piece (3.5).
    Blocked { role: Role, square: Square },
    /// The piece does not move that way (3.2–3.8, by piece).
    MovesSo { role: Role, square: Square },
    /// The SAN names more than one legal move.
    Ambiguous,
    /// No piece of the player to move can make the move named.
    NoMove,
}

impl Unplayable {
    /// Its name in the `refused` event's `reason`.
    pub fn reason(self) -> &'static str {
        match self {
            Unplayable::Empty(_) => "empty_square",
            Unplayable::Turn { .. } => "not_his_turn",
            Unplayable::OwnPiece(_) => "own_piece",
            Unplayable::Check => "king_in_check",
            Unplayable::Castling => "castling",
            Unplayable::Promotion => "promotion",
            Unplayable::Blocked { .. } => "blocked",
            Unplayable::MovesSo { .. } => "moves_otherwise",
            Unplayable::Ambiguous => "ambiguous",
            Unplayable::NoMove => "illegal",
        }
    }

    /// The article of the Laws it breaks, where one does.
    pub fn article(self) -> Option<Article> {
        Some(match self {
            Unplayable::Turn { .. } => Article::Turn,
            Unplayable::OwnPiece(_) => Article::OwnPiece,
            Unplayable::Check => Article::Check,
            Unplayable::Castling => Article::Castling,
            Unplayable::Promotion => Article::Promotion,
            Unplayable::Blocked { .. } => Article::PassingOver,
            Unplayable::MovesSo { role, .. } => match role {
                Role::Bishop => Article::Bishop,
                Role::Rook => Article::Rook,
                Role::Queen => Article::Queen,
                Role::Knight => Article::Knight,
                Role::Pawn => Article::Pawn,
                Role::King => Article::King,
            },
            Unplayable::Empty(_) | Unplayable::Ambiguous | Unplayable::NoMove => return None,
        })
    }
}

/// Why `uci` cannot be played in `pos` (which refused it).
pub fn uci(pos: &Chess, uci: &UciMove) -> Unplayable {
    match *uci {
        UciMove::Normal {
            from,
            to,
            promotion,
        } => by_squares(pos, from, to, promotion),
        UciMove::Put { .. } | UciMove::Null => Unplayable::NoMove,
    }
}

/// Why `san` cannot be played in `pos` (which refused it).
pub fn san(pos: &Chess, san: &San) -> Unplayable {
    if san.to_move(pos) == Err(SanError::AmbiguousSan) {
        return Unplayable::Ambiguous;
    }
    // A move the other player could make: it is not his turn.
    if let Ok(other) = pos.clone().swap_turn()
        && let Ok(m) = san.to_move(&other)
        && let Some(from) = m.from()
    {
        return Unplayable::Turn {
            square: from,
            owner: !pos.turn(),
        };
    }
    match *san {
        San::Castle(_) => Unplayable::Castling,
        San::Normal {
            role,
            file,
            rank,
            to,
            promotion,
            ..
        } => {
            let board = pos.board();
            let candidates: Vec<Square> = (board.by_role(role) & board.by_color(pos.turn()))
                .into_iter()
                .filter(|s| {
                    file.is_none_or(|f| s.file() == f) && rank.is_none_or(|r| s.rank() == r)
                })
                .collect();
            let reasons: Vec<Unplayable> = candidates
                .iter()
                .map(|&from| by_squares(pos, from, to, promotion))
                .collect();
            // The reason that comes nearest to a move: one the piece could
            // make but for the king, or for a promotion piece.
            for near in [Unplayable::Check, Unplayable::Promotion] {
                if reasons.contains(&near) {
                    return near;
                }
            }
            match reasons.as_slice() {
                [only] => *only,
                _ => Unplayable::NoMove,
            }
        }
        San::Put { .. } | San::Null => Unplayable::NoMove,
    }
}

/// Why the piece on `from` cannot go to `to` in `pos`.
fn by_squares(pos: &Chess, from: Square, to: Square, promotion: Option<Role>) -> Unplayable {
    let board = pos.board();
    let us = pos.turn();
    let Some(piece) = board.piece_at(from) else {
        return Unplayable::Empty(from);
    };
    if piece.color != us {
        return Unplayable::Turn {
            square: from,
            owner: piece.color,
        };
    }
    let target = board.piece_at(to);
    // The king moving two files, or onto his own rook (as Chess960 writes
    // castling): castling, which is not allowed now.
    if piece.role == Role::King
        && from.rank() == to.rank()
        && (from.file().distance(to.file()) == 2
            || target
                == Some(Piece {
                    color: us,
                    role: Role::Rook,
                }))
    {
        return Unplayable::Castling;
    }
    if target.is_some_and(|p| p.color == us) {
        return Unplayable::OwnPiece(to);
    }
    let occupied = board.occupied();
    let reaches = if piece.role == Role::Pawn {
        pawn_reaches(pos, from, to, us)
    } else {
        attacks::attacks(from, piece, occupied).contains(to)
    };
    if reaches {
        let last = match us {
            Color::White => Rank::Eighth,
            Color::Black => Rank::First,
        };
        if piece.role == Role::Pawn && to.rank() == last && promotion.is_none() {
            return Unplayable::Promotion;
        }
        return Unplayable::Check;
    }
    let slider = matches!(piece.role, Role::Bishop | Role::Rook | Role::Queen);
    if slider && attacks::attacks(from, piece, Bitboard::EMPTY).contains(to) {
        Unplayable::Blocked {
            role: piece.role,
            square: from,
        }
    } else {
        Unplayable::MovesSo {
            role: piece.role,
            square: from,
        }
    }
}

/// Whether a pawn of `us` on `from` could go to `to`, ignoring its king:
/// one square ahead onto an empty one, two from its first rank over empty
/// ones, or one diagonally onto a piece of the opponent or en passant.
fn pawn_reaches(pos: &Chess, from: Square, to: Square, us: Color) -> bool {
    let board = pos.board();
    let ahead = |sq: Square| match us {
        Color::White => sq.offset(8),
        Color::Black => sq.offset(-8),
    };
    let start = match us {
        Color::White => Rank::Second,
        Color::Black => Rank::Seventh,
    };
    if attacks::pawn_attacks(us, from).contains(to) {
        return board.piece_at(to).is_some_and(|p| p.color != us)
            || pos.ep_square(shakmaty::EnPassantMode::Legal) == Some(to);
    }
    let Some(one) = ahead(from) else {
        return false;
    };
    if board.piece_at(one).is_some() {
        return false;
    }
    if one == to {
        return true;
    }
    from.rank() == start && ahead(one) == Some(to) && board.piece_at(to).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::laws::Edition;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    fn by_uci(fen: &str, m: &str) -> Unplayable {
        let pos = position(fen);
        let m: UciMove = m.parse().expect("uci");
        assert!(m.to_move(&pos).is_err(), "{m} is legal here");
        uci(&pos, &m)
    }

    fn by_san(fen: &str, m: &str) -> Unplayable {
        let pos = position(fen);
        let m: San = m.parse().expect("san");
        assert!(m.to_move(&pos).is_err(), "{m} is legal here");
        san(&pos, &m)
    }

    /// The article as the 2008 Laws number it.
    fn old(why: Unplayable) -> Option<&'static str> {
        why.article().map(|a| Edition::Laws2008.cite(a))
    }

    /// The article as today's Laws number it.
    fn today(why: Unplayable) -> Option<&'static str> {
        why.article().map(|a| Edition::Laws2023.cite(a))
    }

    #[test]
    fn articles_are_cited_in_todays_numbers_too() {
        let black = Unplayable::Turn {
            square: Square::E7,
            owner: Color::Black,
        };
        assert_eq!(today(black), Some("1.2"));
        assert_eq!(today(Unplayable::Promotion), Some("3.7.3.3"));
        assert_eq!(today(Unplayable::Check), Some("3.9.2"));
        assert_eq!(today(Unplayable::Castling), Some("3.8.2"));
        let king = Unplayable::MovesSo {
            role: Role::King,
            square: Square::E1,
        };
        assert_eq!(today(king), Some("3.8.1"));
        assert_eq!(today(Unplayable::OwnPiece(Square::D2)), Some("3.1"));
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn art_1_1_the_players_move_alternately() {
        let black = Unplayable::Turn {
            square: Square::E7,
            owner: Color::Black,
        };
        assert_eq!(by_uci(START, "e7e5"), black);
        assert_eq!(by_san(START, "e5"), black);
        assert_eq!(old(black), Some("1.1"));
    }

    #[test]
    fn art_3_1_no_move_onto_a_piece_of_the_same_colour() {
        assert_eq!(by_uci(START, "d1d2"), Unplayable::OwnPiece(Square::D2));
        assert_eq!(old(by_uci(START, "d1d2")), Some("3.1"));
    }

    #[test]
    fn art_3_2_to_3_8_each_piece_moves_its_own_way() {
        let fen = "4k3/8/8/8/8/8/8/RNBQK3 w Q - 0 1";
        let cases = [
            ("c1c3", Role::Bishop, Square::C1, "3.2"),
            ("a1b2", Role::Rook, Square::A1, "3.3"),
            ("d1e3", Role::Queen, Square::D1, "3.4"),
            ("b1b3", Role::Knight, Square::B1, "3.6"),
            ("e1e3", Role::King, Square::E1, "3.8a"),
        ];
        for (m, role, square, article) in cases {
            let why = by_uci(fen, m);
            assert_eq!(why, Unplayable::MovesSo { role, square }, "{m}");
            assert_eq!(old(why), Some(article), "{m}");
        }
        let pawn = by_uci(START, "e2d3");
        assert_eq!(
            pawn,
            Unplayable::MovesSo {
                role: Role::Pawn,
                square: Square::E2
            }
        );
        assert_eq!(old(pawn), Some("3.7"));
        // A pawn does not take straight ahead.
        let blocked_pawn = "4k3/8/8/8/4p3/4P3/8/4K3 w - - 0 1";
        assert!(matches!(
            by_uci(blocked_pawn, "e3e4"),
            Unplayable::MovesSo { .. }
        ));
    }

    #[test]
    fn art_3_5_no_passing_over_pieces() {
        let why = by_uci(START, "a1a3");
        assert_eq!(
            why,
            Unplayable::Blocked {
                role: Role::Rook,
                square: Square::A1
            }
        );
        assert_eq!(old(why), Some("3.5"));
    }

    #[test]
    fn art_3_7e_a_pawn_on_the_last_rank_becomes_a_piece() {
        let fen = "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(by_uci(fen, "e7e8"), Unplayable::Promotion);
        assert_eq!(old(Unplayable::Promotion), Some("3.7e"));
    }

    #[test]
    fn art_3_8_castling_when_it_is_not_allowed() {
        // The bishop stands between king and rook.
        assert_eq!(by_uci(START, "e1g1"), Unplayable::Castling);
        assert_eq!(by_san(START, "O-O"), Unplayable::Castling);
        // The king has moved: the right is lost.
        let moved = "r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1";
        assert_eq!(by_uci(moved, "e1c1"), Unplayable::Castling);
    }

    #[test]
    fn art_3_9_no_move_may_leave_the_king_in_check() {
        // The e-pawn is pinned by the rook on e8.
        let pinned = "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1";
        assert_eq!(by_uci(pinned, "e2d3"), Unplayable::Check);
        assert_eq!(by_san(pinned, "Bd3"), Unplayable::Check);
        // In check, a move that does not answer it.
        let checked = "4r1k1/8/8/8/8/8/P7/4K3 w - - 0 1";
        assert_eq!(by_uci(checked, "a2a3"), Unplayable::Check);
        assert_eq!(old(Unplayable::Check), Some("3.9"));
    }

    #[test]
    fn an_empty_square_and_a_san_that_names_two_moves() {
        assert_eq!(by_uci(START, "e4e5"), Unplayable::Empty(Square::E4));
        assert_eq!(old(Unplayable::Empty(Square::E4)), None);
        let two_knights = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
        assert_eq!(by_san(two_knights, "Nd2"), Unplayable::Ambiguous);
        assert_eq!(
            by_san(START, "Qh5"),
            Unplayable::Blocked {
                role: Role::Queen,
                square: Square::D1
            }
        );
        assert_eq!(by_san(START, "Bb7"), Unplayable::NoMove);
    }
}
