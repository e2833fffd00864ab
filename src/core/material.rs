//! The material balance, as a player says it (pure): who has what more,
//! in the units players count in: a pawn, a piece (a bishop or a knight),
//! the exchange (a rook for a piece), a rook, a queen.

use shakmaty::{Board, ByColor, Color, Role};

/// What one side has more of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thing {
    Queen,
    Rook,
    /// A rook against a bishop or a knight.
    Exchange,
    /// A bishop or a knight.
    Piece,
    Pawn,
}

/// The material balance: for each side, what it has more of, largest
/// first, with how many.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Balance {
    pub more: ByColor<Vec<(Thing, u32)>>,
}

impl Balance {
    /// The balance on `board`.
    pub fn of(board: &Board) -> Balance {
        let count = |role: Role| {
            let n = |c: Color| i64::from(board.by_piece(role.of(c)).count() as u32);
            n(Color::White) - n(Color::Black)
        };
        let queens = count(Role::Queen);
        let mut rooks = count(Role::Rook);
        let mut minors = count(Role::Bishop) + count(Role::Knight);
        let pawns = count(Role::Pawn);
        // A rook more on one side and a piece more on the other: the
        // exchange, as many times as they pair.
        let mut exchange = 0;
        if rooks.signum() * minors.signum() == -1 {
            let pairs = rooks.abs().min(minors.abs());
            exchange = pairs * rooks.signum();
            rooks -= exchange;
            minors += exchange;
        }
        let mut more: ByColor<Vec<(Thing, u32)>> = ByColor::default();
        for (thing, diff) in [
            (Thing::Queen, queens),
            (Thing::Rook, rooks),
            (Thing::Exchange, exchange),
            (Thing::Piece, minors),
            (Thing::Pawn, pawns),
        ] {
            let side = if diff > 0 { Color::White } else { Color::Black };
            if diff != 0 {
                more.get_mut(side).push((thing, diff.unsigned_abs() as u32));
            }
        }
        Balance { more }
    }

    /// Whether neither side has anything more.
    pub fn is_even(&self) -> bool {
        self.more.white.is_empty() && self.more.black.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    fn balance(fen: &str) -> Balance {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("position");
        Balance::of(pos.board())
    }

    #[test]
    fn the_start_is_even() {
        assert!(Balance::of(Chess::default().board()).is_even());
    }

    #[test]
    fn a_rook_for_a_knight_is_the_exchange() {
        // White gave a knight for Black's rook.
        let b = balance("rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB1R w - - 0 1");
        assert_eq!(b.more.white, [(Thing::Exchange, 1)]);
        assert_eq!(b.more.black, []);
    }

    #[test]
    fn each_side_says_what_it_has_more() {
        // White lacks a bishop and five pawns: Black has them more.
        let b = balance("rnbqkbnr/pppppppp/8/8/8/8/5PPP/RNBQK1NR w - - 0 1");
        assert_eq!(b.more.white, []);
        assert_eq!(b.more.black, [(Thing::Piece, 1), (Thing::Pawn, 5)]);
        let b = balance("4k3/8/8/8/8/8/PP6/QQ2K3 w - - 0 1");
        assert_eq!(b.more.white, [(Thing::Queen, 2), (Thing::Pawn, 2)]);
    }
}
