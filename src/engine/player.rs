//! The engine as a player (pure, but for the book read once): for each of
//! its moves, whether it plays it from the book, how it searches, which
//! of its candidates it plays and how long it takes over it, as
//! [`strength`](super::strength), [`pace`](super::pace) and
//! [`book`](super::book) say. `play` asks it through the engine's seat;
//! the strength benchmark asks it directly, so that both play alike.

use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess};

use super::book::Book;
use super::pace::{self, Situation};
use super::process::Thought;
use super::section::EngineConfig;
use super::strength::{self, Random, Step};
use super::uci::Go;

/// The engine as a player.
#[derive(Debug, Clone)]
pub struct Player {
    step: Option<Step>,
    book: Option<Book>,
    random: Random,
    /// The configuration's own limits: a fixed time a move (no person's
    /// pace then), a depth, a number of nodes.
    movetime_ms: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
}

/// A move and the time to take over it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decided {
    pub uci: UciMove,
    pub think: Duration,
}

impl Player {
    /// The player `config` makes, with `book` (already read) and random
    /// numbers from `seed`.
    pub fn new(config: &EngineConfig, book: Option<Book>, seed: u64) -> Player {
        Player {
            step: config.step_played(),
            book,
            random: Random::new(seed),
            movetime_ms: config.movetime_ms,
            depth: config.depth,
            nodes: config.nodes,
        }
    }

    /// The step it plays at (`None`: the engine weakens itself).
    pub fn step(&self) -> Option<Step> {
        self.step
    }

    /// The situation of its move in `pos` after `ply` plies, its clock
    /// `clock`.
    pub fn situation(&self, pos: &Chess, ply: u32, clock: Option<pace::Clock>) -> Situation {
        use shakmaty::Position;
        Situation {
            clock,
            ply,
            step: self.step.map_or(8, |s| s.number),
            legal_moves: pos.legal_moves().len(),
        }
    }

    /// Its move from the book in `pos`, while its step plays the book,
    /// and the time to take over it.
    pub fn from_book(&mut self, pos: &Chess, s: &Situation, mode: CastlingMode) -> Option<Decided> {
        let step = self.step?;
        if s.ply >= step.book_plies || mode == CastlingMode::Chess960 {
            return None;
        }
        let m = self.book.as_ref()?.choose(pos, &mut self.random)?;
        // A time a move fixed by the configuration holds for the book too.
        let think = match self.movetime_ms {
            Some(ms) => Duration::from_millis(ms),
            None => pace::book_move(s, &mut self.random),
        };
        Some(Decided {
            uci: m.to_uci(mode),
            think,
        })
    }

    /// How it searches, and the time it plans to take: a weakened step's
    /// depth (or the configuration's), never past that time; full
    /// strength for all of it; the clock is never the engine's to spend.
    pub fn plan(&mut self, s: &Situation) -> (Go, Duration) {
        let planned = match self.movetime_ms {
            Some(ms) => Duration::from_millis(ms),
            None => pace::before_search(s, self.random.unit()),
        };
        // A weakened step searches to its depth; full strength searches
        // for the whole time it may take.
        let depth = self.step.filter(|s| s.skill.is_some()).map(|s| s.depth);
        let go = Go {
            depth: self.depth.or(depth),
            nodes: self.nodes,
            movetime_ms: Some(planned.as_millis().max(1) as u64),
            ..Go::default()
        };
        (go, planned)
    }

    /// The move it plays once the engine has thought: its step's pick
    /// among the candidates, and the time to take over it from when it was
    /// asked (none past the answer when the configuration fixes its time).
    pub fn decide(&mut self, s: &Situation, planned: Duration, thought: &Thought) -> Decided {
        let picked = self
            .step
            .and_then(|s| s.skill)
            .and_then(|skill| strength::pick(&thought.lines, skill, &mut self.random))
            .and_then(|i| thought.lines.get(i))
            .map_or(thought.uci, |c| c.uci);
        let think = match self.movetime_ms {
            Some(_) => Duration::ZERO,
            None => pace::after_search(s, planned, &thought.lines),
        };
        Decided { uci: picked, think }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::strength::Candidate;
    use crate::engine::uci::Score;

    fn thought(lines: &[(&str, i32)]) -> Thought {
        let lines: Vec<Candidate> = lines
            .iter()
            .map(|(m, cp)| Candidate {
                uci: m.parse().expect("uci"),
                score: Score::Cp(*cp),
            })
            .collect();
        Thought {
            uci: lines[0].uci,
            score: Some(lines[0].score),
            depth: Some(1),
            nodes: None,
            line: vec![lines[0].uci],
            lines,
        }
    }

    #[test]
    fn a_step_searches_to_its_depth_for_the_time_it_plans() {
        let mut p = Player::new(&EngineConfig::default(), None, 1);
        let pos = Chess::default();
        let s = p.situation(&pos, 20, None);
        let (go, planned) = p.plan(&s);
        assert_eq!(go.depth, Some(1), "step 2 picks at depth 1");
        assert_eq!(go.movetime_ms, Some(planned.as_millis() as u64));
        assert_eq!((go.wtime, go.btime), (None, None), "never the clock");
        // Without a book nothing comes from it.
        assert_eq!(p.from_book(&pos, &s, CastlingMode::Standard), None);
    }

    #[test]
    fn the_weakest_step_plays_worse_moves_often_and_full_strength_never() {
        let t = thought(&[("e2e4", 50), ("d2d4", 40), ("a2a3", -150), ("h2h4", -200)]);
        let pos = Chess::default();
        let count = |config: EngineConfig| {
            let mut p = Player::new(&config, None, 5);
            let s = p.situation(&pos, 20, None);
            (0..400)
                .filter(|_| p.decide(&s, Duration::from_secs(1), &t).uci.to_string() != "e2e4")
                .count()
        };
        let weakest = count(EngineConfig {
            step: Some(1),
            ..EngineConfig::default()
        });
        let full = count(EngineConfig {
            step: Some(8),
            ..EngineConfig::default()
        });
        assert!(weakest > 200, "{weakest} of 400 not the best");
        assert_eq!(full, 0);
    }

    #[test]
    fn full_strength_searches_its_whole_time_and_a_weak_step_to_its_depth() {
        let full = EngineConfig {
            step: Some(8),
            ..EngineConfig::default()
        };
        let mut p = Player::new(&full, None, 1);
        let s = p.situation(&Chess::default(), 20, None);
        assert_eq!(p.plan(&s).0.depth, None);
        let mut p = Player::new(&EngineConfig::default(), None, 1);
        assert_eq!(p.plan(&s).0.depth, Some(1));
    }

    #[test]
    fn a_fixed_time_a_move_is_taken_at_once_and_searched_that_long() {
        let mut p = Player::new(
            &EngineConfig {
                movetime_ms: Some(200),
                ..EngineConfig::default()
            },
            None,
            3,
        );
        let pos = Chess::default();
        let s = p.situation(&pos, 20, None);
        let (go, planned) = p.plan(&s);
        assert_eq!(
            (go.movetime_ms, planned),
            (Some(200), Duration::from_millis(200))
        );
        let d = p.decide(&s, planned, &thought(&[("e2e4", 0)]));
        assert_eq!(d.think, Duration::ZERO);
    }
}
