//! The engine's judgement of a position, as practice uses it (pure): the
//! score from White's side, the best move, and what a move lost. The
//! runtime asks an engine and hands its answer in as the `analysis`
//! input; everything said about it is decided here, so that a replay of
//! the journal says the same without an engine.

use shakmaty::Color;
use shakmaty::uci::UciMove;

/// A score from White's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns: positive when White stands better.
    Cp(i32),
    /// Mate in this many moves: positive when White mates, negative when
    /// Black does. Never 0: a position already mated is not analysed.
    Mate(i32),
}

/// The largest centipawn score kept: beyond it, the game is won anyway.
const CP_LIMIT: i32 = 2000;

/// The score beyond which lichess counts a position as won in its
/// chances (lila's `Cp.CEILING`).
const CHANCES_CEILING: i32 = 1000;

impl Score {
    /// The score from `color`'s side.
    pub fn for_side(self, color: Color) -> Score {
        match (self, color) {
            (s, Color::White) => s,
            (Score::Cp(cp), Color::Black) => Score::Cp(-cp),
            (Score::Mate(n), Color::Black) => Score::Mate(-n),
        }
    }

    /// The score in centipawns from White's side, a mate counted as
    /// beyond every material score.
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(cp) => cp.clamp(-CP_LIMIT, CP_LIMIT),
            Score::Mate(n) if n > 0 => CP_LIMIT + 1000 - n.min(500),
            Score::Mate(n) => -(CP_LIMIT + 1000) - n.max(-500),
        }
    }

    /// White's chances, from −1 (Black wins) to 1 (White wins): the
    /// logistic curve lichess fits to its players' results, which makes a
    /// pawn count more in a level position than in a won one; as lichess
    /// does, ten pawns (`Cp.CEILING`) count as won.
    pub fn chances(self) -> f64 {
        let cp = f64::from(self.centipawns().clamp(-CHANCES_CEILING, CHANCES_CEILING));
        2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0
    }

    /// The score as PGN's `[%eval …]` writes it: pawns from White's side
    /// (`0.35`, `-1.20`), or `#3` / `#-3` for a mate.
    pub fn pgn(self) -> String {
        match self {
            Score::Cp(cp) => format!("{:.2}", f64::from(cp) / 100.0),
            Score::Mate(n) => format!("#{n}"),
        }
    }
}

/// The engine's answer about the position after `ply` moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    pub ply: u32,
    /// The best move there, if the engine gave one.
    pub best: Option<UciMove>,
    pub score: Score,
    /// How deep it looked.
    pub depth: u32,
    /// The engine's main line from there, beginning with `best`; at most
    /// [`MAX_LINE`] moves are kept.
    pub line: Vec<UciMove>,
}

/// The longest main line kept with an analysis: more is more than a
/// player follows by ear.
pub const MAX_LINE: usize = 10;

/// Who stands better, in the words a player uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// Within a third of a pawn.
    Equal,
    /// Up to a pawn.
    Slightly(Color),
    /// Up to three pawns.
    Clearly(Color),
    /// More: the game should be won.
    Winning(Color),
    /// This side mates in this many moves.
    Mates(Color, u32),
}

impl Standing {
    pub fn of(score: Score) -> Standing {
        let side = |positive: bool| if positive { Color::White } else { Color::Black };
        match score {
            Score::Mate(n) => Standing::Mates(side(n > 0), n.unsigned_abs()),
            Score::Cp(cp) => match cp.unsigned_abs() {
                0..=30 => Standing::Equal,
                31..=100 => Standing::Slightly(side(cp > 0)),
                101..=300 => Standing::Clearly(side(cp > 0)),
                _ => Standing::Winning(side(cp > 0)),
            },
        }
    }
}

/// A move's mark on the scoresheet: `?` a mistake, `??` a blunder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Mistake,
    Blunder,
}

impl Mark {
    pub fn as_str(self) -> &'static str {
        match self {
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// What a mistake gave away, in the words of the review.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loss {
    /// The opponent can now mate.
    AllowsMate,
    /// The mover could have mated, and now cannot.
    MissesMate,
    Queen,
    Rook,
    /// A bishop's or a knight's worth.
    Piece,
    Pawn,
}

/// Drops in the mover's chances (of a range of 2) that make a move a
/// mistake or a blunder: lichess's thresholds.
const MISTAKE: f64 = 0.2;
const BLUNDER: f64 = 0.3;

/// How the move from `before` to `after` (both from White's side) served
/// `mover`: its mark and what it lost, or `None` when it was no serious
/// mistake.
pub fn judge(mover: Color, before: Score, after: Score) -> Option<(Mark, Loss)> {
    let (b, a) = (before.for_side(mover), after.for_side(mover));
    // A mate let go while still winning (lichess's rule, `MateLost`): far
    // ahead it is no serious mistake, clearly ahead a mistake, else a
    // blunder.
    if let (Score::Mate(n), Score::Cp(cp)) = (b, a)
        && n > 0
    {
        return match cp {
            1000.. => None,
            701..1000 => Some((Mark::Mistake, Loss::MissesMate)),
            _ => Some((Mark::Blunder, Loss::MissesMate)),
        };
    }
    // A mate allowed (lichess's `MateCreated`), judged by how the mover
    // stood before it: far behind already it is no serious mistake,
    // clearly behind a mistake, else a blunder.
    if let (Score::Cp(cp), Score::Mate(n)) = (b, a)
        && n < 0
    {
        return match cp {
            ..-999 => None,
            -999..-700 => Some((Mark::Mistake, Loss::AllowsMate)),
            _ => Some((Mark::Blunder, Loss::AllowsMate)),
        };
    }
    let drop = b.chances() - a.chances();
    let mark = if drop >= BLUNDER {
        Mark::Blunder
    } else if drop >= MISTAKE {
        Mark::Mistake
    } else {
        return None;
    };
    let loss = match (b, a) {
        (_, Score::Mate(n)) if n < 0 => Loss::AllowsMate,
        _ => match b.centipawns().saturating_sub(a.centipawns()) {
            700.. => Loss::Queen,
            400..700 => Loss::Rook,
            200..400 => Loss::Piece,
            _ => Loss::Pawn,
        },
    };
    Some((mark, loss))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_reads_from_either_side() {
        assert_eq!(Score::Cp(35).for_side(Color::Black), Score::Cp(-35));
        assert_eq!(Score::Mate(-2).for_side(Color::Black), Score::Mate(2));
        assert!(Score::Mate(5).centipawns() > Score::Cp(5000).centipawns());
        assert!(Score::Mate(1).centipawns() > Score::Mate(5).centipawns());
        assert!(Score::Mate(-1).centipawns() < Score::Mate(-5).centipawns());
    }

    #[test]
    fn standing_is_said_in_bands() {
        assert_eq!(Standing::of(Score::Cp(-20)), Standing::Equal);
        assert_eq!(
            Standing::of(Score::Cp(60)),
            Standing::Slightly(Color::White)
        );
        assert_eq!(
            Standing::of(Score::Cp(-250)),
            Standing::Clearly(Color::Black)
        );
        assert_eq!(
            Standing::of(Score::Cp(900)),
            Standing::Winning(Color::White)
        );
        assert_eq!(
            Standing::of(Score::Mate(-3)),
            Standing::Mates(Color::Black, 3)
        );
    }

    #[test]
    fn a_level_move_is_no_mistake_and_a_lost_rook_is_a_blunder() {
        assert_eq!(judge(Color::White, Score::Cp(30), Score::Cp(10)), None);
        assert_eq!(
            judge(Color::White, Score::Cp(30), Score::Cp(-470)),
            Some((Mark::Blunder, Loss::Rook))
        );
        // Black's move, scores from White's side.
        assert_eq!(
            judge(Color::Black, Score::Cp(0), Score::Cp(130)),
            Some((Mark::Mistake, Loss::Pawn))
        );
        assert_eq!(
            judge(Color::Black, Score::Cp(0), Score::Mate(2)),
            Some((Mark::Blunder, Loss::AllowsMate))
        );
        assert_eq!(
            judge(Color::White, Score::Mate(2), Score::Cp(50)),
            Some((Mark::Blunder, Loss::MissesMate))
        );
        // A mate let go: far ahead still, no serious mistake; clearly
        // ahead, a mistake; less, a blunder.
        assert_eq!(judge(Color::Black, Score::Mate(-3), Score::Cp(-1500)), None);
        assert_eq!(
            judge(Color::Black, Score::Mate(-3), Score::Cp(-800)),
            Some((Mark::Mistake, Loss::MissesMate))
        );
        assert_eq!(
            judge(Color::White, Score::Mate(1), Score::Cp(622)),
            Some((Mark::Blunder, Loss::MissesMate))
        );
        // Won either way: a pawn less in a won game is no mistake.
        assert_eq!(judge(Color::White, Score::Cp(1200), Score::Cp(1050)), None);
        // A mate allowed, by how the mover stood before (lila's
        // MateAdvice): level, a blunder; at −6, still a blunder; at −8, a
        // mistake; at −12, lost anyway.
        for (before, judged) in [
            (0, Some(Mark::Blunder)),
            (-600, Some(Mark::Blunder)),
            (-800, Some(Mark::Mistake)),
            (-1200, None),
        ] {
            assert_eq!(
                judge(Color::White, Score::Cp(before), Score::Mate(-2)).map(|(m, _)| m),
                judged,
                "{before}"
            );
        }
        // Beyond ten pawns lichess counts the game won: +12 to +4.3 is a
        // mistake there (its chances from +10), not a blunder.
        assert_eq!(
            judge(Color::White, Score::Cp(1200), Score::Cp(430)).map(|(m, _)| m),
            Some(Mark::Mistake)
        );
    }

    #[test]
    fn pgn_eval_is_pawns_or_a_mate() {
        assert_eq!(Score::Cp(35).pgn(), "0.35");
        assert_eq!(Score::Cp(-120).pgn(), "-1.20");
        assert_eq!(Score::Mate(-3).pgn(), "#-3");
    }
}
