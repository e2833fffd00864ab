//! The review of a finished game against the engine (pure): the engine's
//! judgement of every position, the player's serious mistakes found in
//! it, and the mistake the player is looking at as he steps through them.
//!
//! A review is of the game just over, or of the game before the one on
//! the board: setting up the pieces for the next game keeps it (the
//! keeper hands it to the next game as the `past_game` input, so that a
//! replay of that game's journal has it too).

use std::collections::BTreeMap;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use crate::core::analysis::{Analysis, Loss, Mark, Score, judge};
use crate::core::event::Reviewed;

/// A finished game, the engine's answers about its positions so far, and
/// where the player is in its mistakes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Review {
    start: Chess,
    mode: CastlingMode,
    moves: Vec<Move>,
    /// The colour the person played.
    player: Color,
    /// The engine's answers, by the ply of the position.
    analyses: BTreeMap<u32, Analysis>,
    /// The mistake the player is at (an index into [`Review::mistakes`]).
    at: Option<usize>,
}

/// One of the player's serious mistakes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mistake {
    /// The ply the mistake made (1-based).
    pub ply: u32,
    /// Its move number, as a scoresheet writes it.
    pub number: u32,
    /// The position it was made in.
    pub before: Chess,
    pub played: Move,
    pub mark: Mark,
    pub loss: Loss,
    /// The engine's better move there, if it named one other than the
    /// move played.
    pub better: Option<Move>,
    /// The engine's main line after the better move (legal moves only).
    pub line: Vec<Move>,
}

/// Why a past game cannot be reviewed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewError {
    /// A move is not legal where it is played: its index (0-based) and
    /// the move.
    Illegal { index: usize, uci: String },
    /// An analysis is of a position the game does not have.
    NoSuchPly(u32),
}

impl std::fmt::Display for ReviewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReviewError::Illegal { index, uci } => {
                write!(f, "move {} ({uci}) is not legal there", index + 1)
            }
            ReviewError::NoSuchPly(ply) => {
                write!(f, "an analysis of ply {ply}, which the game does not reach")
            }
        }
    }
}

impl std::error::Error for ReviewError {}

impl Review {
    /// The review of the game from `start` with `moves` (each checked
    /// legal), the person playing `player`; nothing analysed yet.
    pub fn new(
        start: Chess,
        mode: CastlingMode,
        uci: &[UciMove],
        player: Color,
    ) -> Result<Review, ReviewError> {
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(uci.len());
        for (index, u) in uci.iter().enumerate() {
            let m = u
                .to_move(&pos)
                .ok()
                .filter(|m| pos.is_legal(*m))
                .ok_or_else(|| ReviewError::Illegal {
                    index,
                    uci: u.to_string(),
                })?;
            pos.play_unchecked(m);
            moves.push(m);
        }
        Ok(Review {
            start,
            mode,
            moves,
            player,
            analyses: BTreeMap::new(),
            at: None,
        })
    }

    /// The review of a game already played (its moves are legal).
    pub fn of(start: &Chess, mode: CastlingMode, moves: &[Move], player: Color) -> Review {
        Review {
            start: start.clone(),
            mode,
            moves: moves.to_vec(),
            player,
            analyses: BTreeMap::new(),
            at: None,
        }
    }

    pub fn start(&self) -> &Chess {
        &self.start
    }

    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn player(&self) -> Color {
        self.player
    }

    /// The engine's answers so far, by ply.
    pub fn analyses(&self) -> impl Iterator<Item = &Analysis> {
        self.analyses.values()
    }

    /// The moves in UCI, as the game's castling mode writes them.
    pub fn uci(&self) -> Vec<String> {
        self.moves
            .iter()
            .map(|m| m.to_uci(self.mode).to_string())
            .collect()
    }

    /// The position after `ply` moves.
    pub fn position_at(&self, ply: u32) -> Option<Chess> {
        let mut pos = self.start.clone();
        for m in self.moves.get(..ply as usize)? {
            pos.play_unchecked(*m);
        }
        Some(pos)
    }

    /// Whether the position after `ply` moves is mate or stalemate: no
    /// engine is asked about it.
    fn ended_at(&self, ply: u32) -> bool {
        self.position_at(ply)
            .is_some_and(|pos| pos.is_checkmate() || pos.is_stalemate())
    }

    /// The first position the engine has still to judge.
    pub fn wanted(&self) -> Option<u32> {
        (0..=self.moves.len() as u32)
            .find(|ply| !self.analyses.contains_key(ply) && !self.ended_at(*ply))
    }

    /// Every position is judged.
    pub fn complete(&self) -> bool {
        self.wanted().is_none()
    }

    /// Takes in the engine's answer about one position.
    pub fn take(&mut self, a: Analysis) -> Result<(), ReviewError> {
        if a.ply as usize > self.moves.len() {
            return Err(ReviewError::NoSuchPly(a.ply));
        }
        self.analyses.insert(a.ply, a);
        Ok(())
    }

    /// The score after `ply` moves: the engine's, or the board's own for
    /// a mate or stalemate.
    pub fn score_at(&self, ply: u32) -> Option<Score> {
        if let Some(a) = self.analyses.get(&ply) {
            return Some(a.score);
        }
        let pos = self.position_at(ply)?;
        if pos.is_checkmate() {
            Some(Score::Mate(1).for_side(!pos.turn()))
        } else if pos.is_stalemate() {
            Some(Score::Cp(0))
        } else {
            None
        }
    }

    /// The player's serious mistakes, in the order played.
    pub fn mistakes(&self) -> Vec<Mistake> {
        let mut found = Vec::new();
        let mut pos = self.start.clone();
        for (i, &m) in self.moves.iter().enumerate() {
            let ply = i as u32 + 1;
            let before = pos.clone();
            pos.play_unchecked(m);
            if before.turn() != self.player {
                continue;
            }
            let (Some(b), Some(a)) = (self.score_at(ply - 1), self.score_at(ply)) else {
                continue;
            };
            let Some((mark, loss)) = judge(before.turn(), b, a) else {
                continue;
            };
            let judged = self.analyses.get(&(ply - 1));
            let better = judged
                .and_then(|j| j.best)
                .and_then(|u| u.to_move(&before).ok())
                .filter(|&b| before.is_legal(b) && b != m);
            let line = match (better, judged) {
                (Some(b), Some(j)) => continuation(&before, b, &j.line),
                _ => Vec::new(),
            };
            found.push(Mistake {
                ply,
                number: before.fullmoves().get(),
                before,
                played: m,
                mark,
                loss,
                better,
                line,
            });
        }
        found
    }

    /// Each move's score after it, and the player's mistakes marked with
    /// the better move: what the scoresheet writes.
    pub fn reviewed(&self) -> Vec<Reviewed> {
        let mistakes = self.mistakes();
        let mut pos = self.start.clone();
        let mut out = Vec::with_capacity(self.moves.len());
        for (i, &m) in self.moves.iter().enumerate() {
            let ply = i as u32 + 1;
            let before = pos.clone();
            pos.play_unchecked(m);
            let mistake = mistakes.iter().find(|x| x.ply == ply);
            out.push(Reviewed {
                ply,
                // A mate or stalemate on the board needs no score.
                eval: self.analyses.get(&ply).map(|a| a.score.pgn()),
                mark: mistake.map(|x| x.mark.as_str()),
                better: mistake
                    .and_then(|x| x.better)
                    .map(|b| shakmaty::san::SanPlus::from_move(before.clone(), b).to_string()),
            });
        }
        out
    }

    /// Leaves out the engine's main lines (their first moves stay).
    pub fn drop_lines(&mut self) {
        for a in self.analyses.values_mut() {
            a.line.clear();
        }
    }

    /// Leaves out the engine's answers: they are asked for again.
    pub fn drop_analyses(&mut self) {
        self.analyses.clear();
    }

    /// The mistake the player is at, if he has stepped to one.
    pub fn at(&self) -> Option<usize> {
        self.at
    }

    /// Steps to the mistake `index`, if there is one.
    pub fn go_to(&mut self, index: usize) -> Option<Mistake> {
        let m = self.mistakes().into_iter().nth(index)?;
        self.at = Some(index);
        Some(m)
    }
}

/// The engine's main line `line` from `before`, after its first move
/// `better`: as far as its moves are legal.
fn continuation(before: &Chess, better: Move, line: &[UciMove]) -> Vec<Move> {
    if line.first().and_then(|u| u.to_move(before).ok()) != Some(better) {
        return Vec::new();
    }
    let mut pos = before.clone();
    pos.play_unchecked(better);
    let mut out = Vec::new();
    for u in &line[1..] {
        match u.to_move(&pos).ok().filter(|m| pos.is_legal(*m)) {
            Some(m) => {
                pos.play_unchecked(m);
                out.push(m);
            }
            None => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uci(moves: &str) -> Vec<UciMove> {
        moves
            .split_whitespace()
            .map(|m| m.parse().expect("uci"))
            .collect()
    }

    fn judged(ply: u32, cp: i32, line: &str) -> Analysis {
        let line = uci(line);
        Analysis {
            ply,
            best: line.first().copied(),
            score: Score::Cp(cp),
            depth: 12,
            line,
        }
    }

    #[test]
    fn a_review_wants_every_position_but_a_mate_and_finds_the_players_blunder() {
        // Fool's mate: White (the player) blunders with 2.g4.
        let mut r = Review::new(
            Chess::default(),
            CastlingMode::Standard,
            &uci("f2f3 e7e5 g2g4 d8h4"),
            Color::White,
        )
        .expect("legal");
        assert_eq!(r.wanted(), Some(0));
        r.take(judged(0, 30, "e2e4 e7e5")).expect("taken");
        r.take(judged(1, -60, "e7e5 g2g4")).expect("taken");
        r.take(judged(2, -70, "e2e4 b8c6 b1c3")).expect("taken");
        assert!(!r.complete());
        r.take(Analysis {
            ply: 3,
            best: Some("d8h4".parse().expect("uci")),
            score: Score::Mate(-1),
            depth: 5,
            line: uci("d8h4"),
        })
        .expect("taken");
        // The mated position needs no engine.
        assert!(r.complete());
        assert_eq!(
            r.take(judged(9, 0, "")),
            Err(ReviewError::NoSuchPly(9)),
            "a ply the game does not reach"
        );
        let mistakes = r.mistakes();
        // 1.f3 loses less than lichess counts a mistake (a fifth of the
        // chances); 2.g4 allows mate.
        assert_eq!(mistakes.len(), 1, "{mistakes:?}");
        let g4 = &mistakes[0];
        assert_eq!((g4.ply, g4.number), (3, 2));
        assert_eq!((g4.mark, g4.loss), (Mark::Blunder, Loss::AllowsMate));
        assert_eq!(
            g4.better
                .map(|m| m.to_uci(CastlingMode::Standard).to_string()),
            Some("e2e4".into())
        );
        assert_eq!(g4.line.len(), 2, "the main line after the better move");
        // Black's moves are never the player's mistakes.
        assert!(mistakes.iter().all(|m| m.ply % 2 == 1));
        let sheet = r.reviewed();
        assert_eq!(sheet[2].mark, Some("??"));
        assert_eq!(sheet[2].better.as_deref(), Some("e4"));
        assert_eq!(sheet[3].eval, None, "mate on the board");
    }

    #[test]
    fn an_illegal_move_in_a_past_game_is_named() {
        assert_eq!(
            Review::new(
                Chess::default(),
                CastlingMode::Standard,
                &uci("e2e4 e2e4"),
                Color::White
            ),
            Err(ReviewError::Illegal {
                index: 1,
                uci: "e2e4".into()
            })
        );
    }

    #[test]
    fn a_line_is_kept_as_far_as_it_is_legal_and_only_when_it_begins_with_the_better_move() {
        let pos = Chess::default();
        let e4 = "e2e4"
            .parse::<UciMove>()
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        assert_eq!(continuation(&pos, e4, &uci("e2e4 e7e5 e1e8")).len(), 1);
        assert!(continuation(&pos, e4, &uci("d2d4 d7d5")).is_empty());
    }
}
