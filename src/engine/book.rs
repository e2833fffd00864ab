//! An opening book in the Polyglot format, read (pure once loaded): the
//! engine plays the opening from it at once, as a person plays the moves
//! he knows, and the book's moves are chosen by their weight.
//!
//! Debian's `gnuchess-book` package installs a public-domain Polyglot book
//! at [`DEBIAN_BOOK`]. The format, as Michel Van den Bergh describes it
//! (hgm.nubati.net/book_format.html): entries of 16 bytes, big-endian, a
//! 64-bit key, a 16-bit move, a 16-bit weight and 32 bits left unused
//! here, sorted by key. The key is the position's Zobrist hash with
//! Polyglot's numbers, which shakmaty computes (`Zobrist64`, with the en
//! passant square counted when a pawn of the side to move stands beside
//! the pawn that just moved two squares). A move is its target file and
//! rank, its origin file and rank (three bits each, lowest first) and its
//! promotion piece; castling is written as the king taking its own rook,
//! which shakmaty's UCI reading turns into castling.

use std::path::Path;

use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use super::strength::Random;

/// Where Debian's `gnuchess-book` puts its book.
pub const DEBIAN_BOOK: &str = "/usr/share/games/gnuchess/book.bin";

const ENTRY: usize = 16;

/// Why a book cannot be played from: its file and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookError(pub String);

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BookError {}

/// A Polyglot book, read whole.
#[derive(Debug, Clone)]
pub struct Book {
    entries: Vec<u8>,
}

/// A book move and its weight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookMove {
    pub m: Move,
    pub weight: u16,
}

impl Book {
    /// The book in `bytes`; `Err` saying why when they are none.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Book, BookError> {
        if bytes.is_empty() || !bytes.len().is_multiple_of(ENTRY) {
            return Err(BookError(format!(
                "{} bytes is no Polyglot book (entries of {ENTRY} bytes)",
                bytes.len()
            )));
        }
        let book = Book { entries: bytes };
        let sorted = (1..book.len()).all(|i| book.key(i - 1) <= book.key(i));
        if !sorted {
            return Err(BookError(
                "its entries are not sorted by key, as Polyglot books are".into(),
            ));
        }
        Ok(book)
    }

    /// The book in the file at `path`.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let bytes =
            std::fs::read(path).map_err(|e| BookError(format!("{}: {e}", path.display())))?;
        Book::from_bytes(bytes).map_err(|e| BookError(format!("{}: {e}", path.display())))
    }

    fn len(&self) -> usize {
        self.entries.len() / ENTRY
    }

    fn field(&self, i: usize, from: usize, width: usize) -> u64 {
        self.entries[i * ENTRY + from..i * ENTRY + from + width]
            .iter()
            .fold(0, |acc, &b| (acc << 8) | u64::from(b))
    }

    fn key(&self, i: usize) -> u64 {
        self.field(i, 0, 8)
    }

    /// The book's legal moves in `pos`, heaviest first.
    pub fn moves(&self, pos: &Chess) -> Vec<BookMove> {
        let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::PseudoLegal);
        let key = key.0;
        // The first entry with the key (a binary search).
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let mid = (low + high) / 2;
            if self.key(mid) < key {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        let mut out: Vec<BookMove> = (low..self.len())
            .take_while(|&i| self.key(i) == key)
            .filter_map(|i| {
                let weight = self.field(i, 10, 2) as u16;
                let m = decode(self.field(i, 8, 2) as u16, pos)?;
                Some(BookMove { m, weight })
            })
            .collect();
        out.sort_by_key(|m| std::cmp::Reverse(m.weight));
        out
    }

    /// A move from the book in `pos`, chosen by weight; `None` when the
    /// book has none (or only moves weighted nothing).
    pub fn choose(&self, pos: &Chess, random: &mut Random) -> Option<Move> {
        let moves = self.moves(pos);
        let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
        let mut left = random.below(total);
        for m in moves {
            let w = u64::from(m.weight);
            if total > 0 && left < w {
                return Some(m.m);
            }
            left = left.saturating_sub(w);
        }
        None
    }
}

/// A Polyglot move in `pos`, if it is legal there.
fn decode(bits: u16, pos: &Chess) -> Option<Move> {
    let part = |shift: u16| (bits >> shift) & 7;
    let square = |file: u16, rank: u16| {
        format!(
            "{}{}",
            char::from(b'a' + file as u8),
            char::from(b'1' + rank as u8)
        )
    };
    let promotion = match part(12) {
        0 => "",
        1 => "n",
        2 => "b",
        3 => "r",
        4 => "q",
        _ => return None,
    };
    let text = format!(
        "{}{}{promotion}",
        square(part(6), part(9)),
        square(part(0), part(3))
    );
    let uci: UciMove = text.parse().ok()?;
    let m = uci.to_move(pos).ok()?;
    pos.is_legal(m).then_some(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    /// A Polyglot entry for `m` in `pos`, written as the format says.
    fn entry(pos: &Chess, from: Square, to: Square, promotion: u16, weight: u16) -> [u8; 16] {
        let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::PseudoLegal);
        let bits = u16::from(to.file())
            | (u16::from(to.rank()) << 3)
            | (u16::from(from.file()) << 6)
            | (u16::from(from.rank()) << 9)
            | (promotion << 12);
        let mut out = [0u8; 16];
        out[..8].copy_from_slice(&key.0.to_be_bytes());
        out[8..10].copy_from_slice(&bits.to_be_bytes());
        out[10..12].copy_from_slice(&weight.to_be_bytes());
        out
    }

    fn book(mut entries: Vec<[u8; 16]>) -> Book {
        entries.sort();
        Book::from_bytes(entries.concat()).expect("a book")
    }

    #[test]
    fn the_start_positions_key_is_polyglots() {
        // The format's own test value for the start position.
        let key: Zobrist64 = Chess::default().zobrist_hash(EnPassantMode::PseudoLegal);
        assert_eq!(key.0, 0x463b_9618_1691_fc9c);
    }

    #[test]
    fn moves_are_found_by_key_and_chosen_by_weight() {
        let start = Chess::default();
        let e4 = entry(&start, Square::E2, Square::E4, 0, 30);
        let d4 = entry(&start, Square::D2, Square::D4, 0, 10);
        let other = {
            let mut p = start.clone();
            p.play_unchecked(Move::Normal {
                role: shakmaty::Role::Pawn,
                from: Square::E2,
                to: Square::E4,
                capture: None,
                promotion: None,
            });
            entry(&p, Square::E7, Square::E5, 0, 5)
        };
        let b = book(vec![d4, other, e4]);
        let found = b.moves(&start);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].weight, 30);
        assert_eq!(
            found[0]
                .m
                .to_uci(shakmaty::CastlingMode::Standard)
                .to_string(),
            "e2e4"
        );
        let mut r = Random::new(9);
        let mut e4s = 0;
        for _ in 0..1000 {
            let m = b.choose(&start, &mut r).expect("a book move");
            if m.to() == Square::E4 {
                e4s += 1;
            }
        }
        assert!((690..810).contains(&e4s), "{e4s} of 1000, 750 expected");
    }

    #[test]
    fn castling_is_written_as_the_king_taking_its_rook() {
        let pos: Chess = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("a position");
        let b = book(vec![entry(&pos, Square::E1, Square::H1, 0, 1)]);
        let found = b.moves(&pos);
        assert!(
            matches!(found[0].m, Move::Castle { .. }),
            "{:?}",
            found[0].m
        );
    }

    #[test]
    fn an_illegal_or_weightless_move_is_never_played_and_a_bad_file_is_refused() {
        let start = Chess::default();
        let b = book(vec![
            entry(&start, Square::E2, Square::E5, 0, 50),
            entry(&start, Square::G1, Square::F3, 0, 0),
        ]);
        assert_eq!(b.moves(&start).len(), 1, "the illegal one is left out");
        assert_eq!(b.choose(&start, &mut Random::new(1)), None, "weightless");
        assert!(Book::from_bytes(vec![0; 17]).is_err());
        assert!(Book::from_bytes(Vec::new()).is_err());
        let mut unsorted = [[0u8; 16], [0u8; 16]];
        unsorted[0][0] = 9;
        assert!(Book::from_bytes(unsorted.concat()).is_err());
    }

    #[test]
    fn debians_book_gives_the_usual_first_moves() {
        let path = Path::new(DEBIAN_BOOK);
        let b = Book::open(path).expect("gnuchess-book is installed (.ci/setup.sh)");
        let first: Vec<String> = b
            .moves(&Chess::default())
            .iter()
            .take(2)
            .map(|m| m.m.to_uci(shakmaty::CastlingMode::Standard).to_string())
            .collect();
        assert_eq!(first, ["e2e4", "d2d4"]);
    }
}
