//! The vocabulary of the Laws that the game and its words share: why a
//! game ended. A leaf: the core decides it, the phrasebook says it, and
//! neither reaches into the other for it.

use serde::Serialize;

/// Why a game ended. The names are those of the event stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    ThreefoldRepetition,
    FiftyMoves,
    /// The same position for the fifth time (9.6.1): drawn, no claim needed.
    FivefoldRepetition,
    /// 75 moves by each player without a pawn move or a capture, the last
    /// not mating (9.6.2): drawn, no claim needed.
    SeventyFiveMoves,
    Resignation,
    Agreement,
    /// A flag fell (6.9): lost, or drawn if the opponent cannot mate.
    Flag,
    /// Both flags fell where a flag counts only on a claim (2008 A4d;
    /// today the rapid appendix's play without adequate supervision).
    BothFlags,
    /// The completed illegal move that loses (the second today, 7.5.5;
    /// the third in 2008, 7.4b; in 2008 blitz without adequate supervision
    /// the first, B3c): lost, or drawn if the opponent cannot mate.
    IllegalMoves,
    /// The arbiter upheld a quickplay-finish claim (10.2; today III.5):
    /// drawn.
    QuickplayFinish,
    /// Online: the opponent left the game and the player claimed the win
    /// (lichess's `timeout`).
    Abandoned,
    /// Online: the server ended the game for a reason of its own.
    Server,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::InsufficientMaterial => "insufficient_material",
            Reason::ThreefoldRepetition => "threefold_repetition",
            Reason::FiftyMoves => "fifty_moves",
            Reason::FivefoldRepetition => "fivefold_repetition",
            Reason::SeventyFiveMoves => "seventy_five_moves",
            Reason::Resignation => "resignation",
            Reason::Agreement => "agreement",
            Reason::Flag => "flag",
            Reason::BothFlags => "both_flags",
            Reason::IllegalMoves => "illegal_moves",
            Reason::QuickplayFinish => "quickplay_finish",
            Reason::Abandoned => "abandoned",
            Reason::Server => "server",
        }
    }
}

/// Which edition of the FIDE Laws a game is played under (`[game] laws`).
///
/// pegboard follows today's Laws (those in force since 1 January 2023) by
/// default; an organiser may choose the 2008 Laws (in force from 1 July
/// 2009), the edition the project's seeds hold. Where the two differ,
/// [`Edition`] holds the difference: how many completed illegal moves
/// lose, whether a promotion may be made piece first, the draws that need
/// no claim, the time an incorrect claim gives, the rapid and blitz
/// boundaries and penalties, whether a quickplay claim is an offer, and
/// the numbers under which every article is cited (`docs/laws.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Edition {
    /// The Laws in force since 1 January 2023 (blind play: Appendix D).
    #[default]
    Laws2023,
    /// The Laws in force from 1 July 2009 (blind play: Appendix E).
    Laws2008,
}

impl Edition {
    /// The edition's name in the configuration and a trace header.
    pub fn as_str(self) -> &'static str {
        match self {
            Edition::Laws2023 => "2023",
            Edition::Laws2008 => "2008",
        }
    }

    /// The edition a name gives, if any.
    pub fn parse(name: &str) -> Option<Edition> {
        match name {
            "2023" => Some(Edition::Laws2023),
            "2008" => Some(Edition::Laws2008),
            _ => None,
        }
    }

    /// The completed illegal move by one player that loses: the second
    /// (2023: 7.5.5) or the third (2008: 7.4b).
    pub fn illegal_moves_that_lose(self) -> u32 {
        match self {
            Edition::Laws2023 => 2,
            Edition::Laws2008 => 3,
        }
    }

    /// May the pawn be removed and the new piece put on the promotion
    /// square in either order (2023: 4.6.2)? The 2008 Laws make the move
    /// when the pawn has been removed and the new piece then released on
    /// the square (4.6c).
    pub fn promotion_in_any_order(self) -> bool {
        self == Edition::Laws2023
    }

    /// Do the fivefold repetition and 75 moves end the game without a
    /// claim (2023: 9.6)? The 2008 Laws have neither.
    pub fn automatic_draws(self) -> bool {
        self == Edition::Laws2023
    }

    /// The time an incorrect draw claim gives the opponent: two minutes
    /// (2023: 9.5.3) or three (2008: 9.5b).
    pub fn incorrect_claim_ms(self) -> u64 {
        match self {
            Edition::Laws2023 => 2 * 60_000,
            Edition::Laws2008 => 3 * 60_000,
        }
    }

    /// May a draw be agreed after `plies` half-moves of the game? Today
    /// only once both players have made a move (5.2.3); the 2008 Laws set
    /// no such bound (5.2c).
    pub fn agreement_allowed(self, plies: u32) -> bool {
        self == Edition::Laws2008 || plies >= 2
    }

    /// Is a claim under the quickplay finish (2008: 10.2; today the
    /// Guidelines III.5) also an offer of a draw? The 2008 Laws say so
    /// (9.1b); today's name only the claims of 9.2 and 9.3 (9.1.2.3).
    pub fn quickplay_claim_offers_draw(self) -> bool {
        self == Edition::Laws2008
    }

    /// The longest time for all moves (the first period's time plus 60
    /// times its increment) that makes a game blitz (B.1): 10 minutes or
    /// less (2023), less than 15 (2008). Rapid is longer, and less than
    /// 60 minutes in both (A.1); 60 minutes or more is standard.
    pub fn blitz_at_most_ms(self) -> u64 {
        match self {
            Edition::Laws2023 => 10 * 60_000,
            Edition::Laws2008 => 15 * 60_000 - 1,
        }
    }

    /// The penalties of Articles 7 and 9 in rapid and blitz chess are one
    /// minute instead of two under today's Laws (A.3, B.2); the 2008 Laws
    /// keep the standard ones.
    pub fn rapid_penalties_halved(self) -> bool {
        self == Edition::Laws2023
    }

    /// The number under which this edition cites `article`.
    pub fn cite(self, article: Article) -> &'static str {
        let (old, new) = article.numbers();
        match self {
            Edition::Laws2023 => new,
            Edition::Laws2008 => old,
        }
    }
}

impl std::fmt::Display for Edition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A rule pegboard cites, whatever its number in an edition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Article {
    /// The players move alternately; the piece is the other player's.
    Turn,
    /// No move to a square of one's own piece.
    OwnPiece,
    Bishop,
    Rook,
    Queen,
    /// A bishop, rook or queen may not pass over a piece.
    PassingOver,
    Knight,
    Pawn,
    /// The king's move to an adjoining square.
    King,
    Castling,
    /// A pawn on the last rank is exchanged for a new piece.
    Promotion,
    /// No move may leave or put one's own king in check.
    Check,
    /// Only the player having the move adjusts, after saying so.
    Adjust,
    /// Own pieces touched: move the first that can move.
    TouchOwn,
    /// The opponent's pieces touched: capture the first that can be.
    TouchTheirs,
    /// Pieces of both colours touched.
    TouchBoth,
    /// King and rook touched: castle on that side.
    KingAndRook,
    /// Rook then king touched: no castling on that side.
    RookThenKing,
    /// Castling intended but illegal: another king move.
    CastlingIllegal,
    /// A piece released on a square stays there.
    Released,
    /// The king released on its castling square: only castling.
    ReleasedCastling,
    /// The pawn released on the promotion square must promote there.
    ReleasedPromotion,
    /// When a promotion is made: the pawn removed and the new piece
    /// released on the square (in either order, today: 4.6.2).
    PromotionMade,
    /// A player who touched a piece may not claim a draw on that move.
    ClaimAfterTouch,
    /// Completed illegal moves: two minutes, and the one that loses.
    IllegalMoves,
    /// An incorrect draw claim gives the opponent time.
    IncorrectClaim,
    /// The quickplay finish claim.
    Quickplay,
    /// The assistant tells the arbiter of the sighted player's touch.
    TouchReport,
    /// Both flags fallen where a flag counts only on a claim: drawn.
    BothFlags,
    /// A draw agreed: today only once both players have moved.
    Agreement,
}

impl Article {
    /// Every article pegboard cites.
    pub const ALL: [Article; 30] = [
        Article::Turn,
        Article::OwnPiece,
        Article::Bishop,
        Article::Rook,
        Article::Queen,
        Article::PassingOver,
        Article::Knight,
        Article::Pawn,
        Article::King,
        Article::Castling,
        Article::Promotion,
        Article::Check,
        Article::Adjust,
        Article::TouchOwn,
        Article::TouchTheirs,
        Article::TouchBoth,
        Article::KingAndRook,
        Article::RookThenKing,
        Article::CastlingIllegal,
        Article::Released,
        Article::ReleasedCastling,
        Article::ReleasedPromotion,
        Article::PromotionMade,
        Article::ClaimAfterTouch,
        Article::IllegalMoves,
        Article::IncorrectClaim,
        Article::Quickplay,
        Article::TouchReport,
        Article::BothFlags,
        Article::Agreement,
    ];

    /// Its numbers: (the 2008 Laws', today's).
    pub fn numbers(self) -> (&'static str, &'static str) {
        match self {
            Article::Turn => ("1.1", "1.2"),
            Article::OwnPiece => ("3.1", "3.1"),
            Article::Bishop => ("3.2", "3.2"),
            Article::Rook => ("3.3", "3.3"),
            Article::Queen => ("3.4", "3.4"),
            Article::PassingOver => ("3.5", "3.5"),
            Article::Knight => ("3.6", "3.6"),
            Article::Pawn => ("3.7", "3.7"),
            Article::King => ("3.8a", "3.8.1"),
            Article::Castling => ("3.8b", "3.8.2"),
            Article::Promotion => ("3.7e", "3.7.3.3"),
            Article::Check => ("3.9", "3.9.2"),
            Article::Adjust => ("4.2", "4.2.1"),
            Article::TouchOwn => ("4.3a", "4.3.1"),
            Article::TouchTheirs => ("4.3b", "4.3.2"),
            Article::TouchBoth => ("4.3c", "4.3.3"),
            Article::KingAndRook => ("4.4a", "4.4.1"),
            Article::RookThenKing => ("4.4b", "4.4.2"),
            Article::CastlingIllegal => ("4.4c", "4.4.3"),
            Article::Released => ("4.6", "4.7"),
            Article::ReleasedCastling => ("4.6b", "4.7.2"),
            Article::ReleasedPromotion => ("4.6c", "4.7"),
            Article::PromotionMade => ("4.6c", "4.7.3"),
            Article::ClaimAfterTouch => ("9.4", "9.4"),
            Article::IllegalMoves => ("7.4b", "7.5.5"),
            Article::IncorrectClaim => ("9.5b", "9.5.3"),
            Article::Quickplay => ("10.2", "III.5"),
            Article::TouchReport => ("E2.9e", "D.2.10.5"),
            Article::BothFlags => ("A4d", "A.5"),
            Article::Agreement => ("5.2c", "5.2.3"),
        }
    }

    /// The name a language file's words give it in a place
    /// (`{art:illegal_moves}`).
    pub fn name(self) -> &'static str {
        match self {
            Article::Turn => "turn",
            Article::OwnPiece => "own_piece",
            Article::Bishop => "bishop",
            Article::Rook => "rook",
            Article::Queen => "queen",
            Article::PassingOver => "passing_over",
            Article::Knight => "knight",
            Article::Pawn => "pawn",
            Article::King => "king",
            Article::Castling => "castling",
            Article::Promotion => "promotion",
            Article::Check => "check",
            Article::Adjust => "adjust",
            Article::TouchOwn => "touch_own",
            Article::TouchTheirs => "touch_theirs",
            Article::TouchBoth => "touch_both",
            Article::KingAndRook => "king_and_rook",
            Article::RookThenKing => "rook_then_king",
            Article::CastlingIllegal => "castling_illegal",
            Article::Released => "released",
            Article::ReleasedCastling => "released_castling",
            Article::ReleasedPromotion => "released_promotion",
            Article::PromotionMade => "promotion_made",
            Article::ClaimAfterTouch => "claim_after_touch",
            Article::IllegalMoves => "illegal_moves",
            Article::IncorrectClaim => "incorrect_claim",
            Article::Quickplay => "quickplay",
            Article::TouchReport => "touch_report",
            Article::BothFlags => "both_flags",
            Article::Agreement => "agreement",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_article_has_a_name_of_its_own_and_both_numbers() {
        let mut names: Vec<&str> = Article::ALL.iter().map(|a| a.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Article::ALL.len());
        for a in Article::ALL {
            let (old, new) = a.numbers();
            assert!(!old.is_empty() && !new.is_empty(), "{a:?}");
        }
    }

    #[test]
    fn an_edition_reads_its_own_name() {
        for e in [Edition::Laws2023, Edition::Laws2008] {
            assert_eq!(Edition::parse(e.as_str()), Some(e));
        }
        assert_eq!(Edition::parse("2018"), None);
        assert_eq!(Edition::default(), Edition::Laws2023);
    }
}
