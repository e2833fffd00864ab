//! The engine's seat in `play`: it is asked for its move when it is its
//! turn, and its move reaches the game through the same door as a relayed
//! move (journaled like every input, so a replay needs no engine). An
//! illegal move is refused by the game and asked for again; an engine in
//! trouble is put right by its seat and the player told once.

use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{ByColor, EnPassantMode, Position};

use crate::core::analysis::{Analysis, Score};
use crate::core::input::Relayed;
use crate::core::{Controller, Input, Judged, Seat, Stamped, Wanted};
use crate::engine::pace::{Clock, Situation};
use crate::engine::player::Player;
use crate::engine::uci::{Go, position};
use crate::engine::{Ask, EngineConfig, Report};
use crate::runtime::keeper::Keeper;
use crate::runtime::outputs::Door as _;

/// The engine's seat as `play` drives it.
pub(crate) struct EngineTurns {
    seat: crate::engine::Seat,
    config: EngineConfig,
    /// The colours the engine plays.
    plays: ByColor<bool>,
    /// The position last asked about (its FEN and ply), so that each is
    /// asked once; a retrace or a new game is a new position.
    asked: Option<(String, u32)>,
    /// The position the engine's game began from, for `ucinewgame`.
    game_start: Option<String>,
    /// The ply it was last asked at.
    last_ply: Option<u32>,
    /// The position in which the player was told the engine answered an
    /// illegal move.
    told_illegal: Option<(String, u32)>,
    /// No ask before this instant (after an illegal answer).
    ask_after: u64,
    /// The engine as a player: its book, its search, its pick among its
    /// candidates and its think time.
    player: Player,
    /// The search under way: where, since when, and the think time
    /// planned before it.
    thinking: Option<Thinking>,
    /// The engine's move, held until a person would have made it.
    held: Option<Held>,
    /// The same engine at full strength, for hints, evaluations, draw
    /// offers and the review; started the first time it is needed.
    analyst: Option<crate::engine::Seat>,
    /// The position last given to the analyst (its FEN, and which the
    /// game wants).
    analysing: Option<(String, Wanted)>,
    /// The castling rules the analyst was started with (Chess960 or not).
    analyst_960: Option<bool>,
}

/// A search under way.
struct Thinking {
    /// The position (its FEN and ply).
    here: (String, u32),
    /// When it was asked.
    since: u64,
    /// The think time planned before the search, in ms.
    planned: Duration,
    situation: Situation,
}

/// The engine's move, decided and held until `due`.
struct Held {
    here: (String, u32),
    uci: UciMove,
    due: u64,
}

/// The longest an analysis may take before the analyst counts as hung.
const ANALYSIS_WITHIN: Duration = Duration::from_secs(30);

/// How long after an illegal answer the engine is asked again (ms).
const RETRY_ILLEGAL_MS: u64 = 1000;

impl EngineTurns {
    /// The seat, when a player's moves are the engine's, taking over the
    /// engine `started` to check the configuration, if any.
    pub(crate) fn open(
        config: &EngineConfig,
        seats: &crate::core::Seats,
        chess960: bool,
        started: Option<crate::engine::Engine>,
    ) -> Option<EngineTurns> {
        let plays = ByColor::new_with(|c| *seats.of(c) == Seat::Engine);
        if !(plays.white || plays.black) {
            return None;
        }
        // A book's moves are written for the standard castling.
        let book = match config.opening_book() {
            Ok(book) => book.filter(|_| !chess960),
            Err(why) => {
                eprintln!("pegboard: the opening book is left aside: {why}");
                None
            }
        };
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Some(EngineTurns {
            seat: crate::engine::Seat::taking_over(config.clone(), chess960, started),
            config: config.clone(),
            plays,
            asked: None,
            game_start: None,
            last_ply: None,
            told_illegal: None,
            ask_after: 0,
            player: Player::new(config, book, seed),
            thinking: None,
            held: None,
            analyst: None,
            analysing: None,
            analyst_960: None,
        })
    }

    /// Where the engine stands for this move: its clock, the ply, its
    /// step and how many moves it has.
    fn situation(&self, t: u64, c: &Controller) -> Situation {
        let game = c.game();
        let turn = game.turn();
        let clock = c.clock().map(|clock| Clock {
            remaining_ms: clock.remaining(t, turn),
            increment_ms: clock.control().increment_for(clock.moves(turn)),
        });
        self.player.situation(game.position(), game.ply(), clock)
    }

    /// Asks for the engine's move when it is its turn in a game under way
    /// and this position has not been asked about.
    pub(crate) fn ask(&mut self, t: u64, c: &Controller) {
        let game = c.game();
        let pos = game.position();
        if game.is_over() || !self.plays[pos.turn()] || t < self.ask_after {
            return;
        }
        let here = (game.fen(), game.ply());
        if self.asked.as_ref() == Some(&here) {
            return;
        }
        let (start, command) = position_after(game, game.ply());
        // A new game, or one that went back (a takeback, the next game
        // from the same start once the book has played its opening):
        // `ucinewgame` first.
        let went_back = self.last_ply.is_some_and(|last| game.ply() < last);
        let new_game = self.game_start.as_ref() != Some(&start) || game.ply() < 2 || went_back;
        self.last_ply = Some(game.ply());
        self.game_start = Some(start.clone());
        self.asked = Some(here.clone());
        self.held = None;
        let situation = self.situation(t, c);
        // The opening from the book, as a person plays the moves he knows.
        if let Some(d) = self.player.from_book(pos, &situation, game.castling_mode()) {
            self.held = Some(Held {
                here,
                uci: d.uci,
                due: t + d.think.as_millis() as u64,
            });
            return;
        }
        let (go, planned) = self.player.plan(&situation);
        self.seat.ask(Ask {
            ply: game.ply(),
            position: command,
            go,
            think: planned,
            new_game,
        });
        self.thinking = Some(Thinking {
            here,
            since: t,
            planned,
            situation,
        });
    }

    /// Gives the analyst the position the game wants judged (the player
    /// asked a hint, an evaluation, or offered a draw; or the review),
    /// once.
    pub(crate) fn analyse(&mut self, c: &Controller) {
        let Some(wanted) = wanted_now(c) else {
            return;
        };
        if self.analysing.as_ref() == Some(&(wanted.fen.clone(), wanted.which)) {
            return;
        }
        // The analyst plays by the castling rules of the game it judges
        // (a review of a Chess960 game after a hint in a standard one).
        if self.analyst_960 != Some(wanted.chess960) {
            self.analyst = None;
            self.analysing = None;
        }
        self.analyst_960 = Some(wanted.chess960);
        let analyst = self.analyst.get_or_insert_with(|| {
            crate::engine::Seat::open(self.config.analyst(), wanted.chess960)
        });
        analyst.ask(Ask {
            ply: wanted.which.ply,
            position: wanted.command,
            go: Go {
                depth: Some(self.config.analysis_depth),
                ..Go::default()
            },
            think: ANALYSIS_WITHIN,
            new_game: self.analysing.is_none(),
        });
        self.analysing = Some((wanted.fen, wanted.which));
    }

    /// The move the engine decided on, held until the think time a person
    /// would take (at once when the configuration fixes the engine's
    /// time).
    fn decided(&mut self, thought: &crate::engine::Thought) {
        let Some(thinking) = self.thinking.take() else {
            return;
        };
        let d = self
            .player
            .decide(&thinking.situation, thinking.planned, thought);
        self.held = Some(Held {
            here: thinking.here,
            uci: d.uci,
            due: thinking.since + d.think.as_millis() as u64,
        });
    }

    /// The seat's reports: a move for the position still standing goes to
    /// the game (an illegal one is asked for again, and told once as an
    /// answer that is no move); trouble goes to the log, and is returned
    /// for the player to be told.
    pub(crate) fn feed(
        &mut self,
        t: u64,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) -> Vec<crate::engine::EngineError> {
        let mut troubles = self.feed_analyses(t, keeper, events, notes);
        for report in self.seat.reports() {
            match report {
                Report::Move { ply, thought } => {
                    let game = keeper.controller().game();
                    let here = (game.fen(), game.ply());
                    if self.thinking.as_ref().is_some_and(|k| k.here == here) && game.ply() == ply {
                        self.decided(&thought);
                    }
                }
                Report::Trouble(e) => {
                    notes.push(format!("engine: {e}; it is started again"));
                    troubles.push(e);
                }
            }
        }
        if self.held.as_ref().is_some_and(|h| t >= h.due) {
            self.make_held(t, keeper, events, notes, &mut troubles);
        }
        troubles
    }

    /// The held move, due now, made in the game when its position still
    /// stands; an illegal one is asked for again, and told once as an
    /// answer that is no move.
    fn make_held(
        &mut self,
        t: u64,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
        troubles: &mut Vec<crate::engine::EngineError>,
    ) {
        let Some(held) = self.held.take() else {
            return;
        };
        let c = keeper.controller();
        let game = c.game();
        let here = (game.fen(), game.ply());
        if held.here != here || game.is_over() || !self.plays[game.turn()] {
            // A move for a position no longer standing (taken
            // back meanwhile): the one standing is asked, even
            // if it comes back as it was.
            self.asked = None;
            return;
        }
        let input = Input::Move(Relayed::Uci(held.uci));
        if let Some(refused) = c.refusal(t, &input) {
            // Logged and told once for this position, however
            // often it answers so; asked again a second later.
            let here = Some((game.fen(), game.ply()));
            if self.told_illegal != here {
                self.told_illegal = here;
                notes.push(format!(
                    "engine: its move {} is not legal here ({}); it is asked again",
                    held.uci,
                    match &refused.event {
                        crate::core::Event::Refused { reason, .. } => *reason,
                        _ => "refused",
                    }
                ));
                troubles.push(crate::engine::EngineError::Malformed(held.uci.to_string()));
            }
            self.asked = None;
            self.ask_after = t + RETRY_ILLEGAL_MS;
            return;
        }
        keeper.input(t, input, events);
        // Whatever position the engine is to move in next (a
        // retrace may bring this one back) is asked anew.
        self.asked = None;
    }

    /// The analyst's reports: an answer about the position the game still
    /// wants judged goes to it as the `analysis` input (journaled);
    /// trouble goes to the log and is returned for the player.
    fn feed_analyses(
        &mut self,
        t: u64,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) -> Vec<crate::engine::EngineError> {
        let mut troubles = Vec::new();
        let analysed = self
            .analyst
            .as_ref()
            .map(|a| a.reports())
            .unwrap_or_default();
        for report in analysed {
            match report {
                Report::Move { ply, thought } => {
                    let asked = self.analysing.take();
                    let Some(wanted) = wanted_now(keeper.controller())
                        .filter(|w| w.which.ply == ply)
                        .filter(|w| asked.as_ref() == Some(&(w.fen.clone(), w.which)))
                    else {
                        // An answer about a position no longer wanted.
                        self.analysing = asked.filter(|(_, w)| w.ply != ply);
                        continue;
                    };
                    let Some(score) = thought.score else {
                        notes.push(format!(
                            "engine: its analysis of ply {ply} gave no score; it is asked again"
                        ));
                        continue;
                    };
                    // The engine scores for the side to move; the game
                    // keeps White's side (the same sign change both ways).
                    let score = match score {
                        crate::engine::uci::Score::Cp(cp) => Score::Cp(cp),
                        crate::engine::uci::Score::Mate(n) => Score::Mate(n),
                    }
                    .for_side(wanted.turn);
                    let analysis = Analysis {
                        ply,
                        best: Some(thought.uci),
                        score,
                        depth: thought.depth.unwrap_or(0),
                        line: thought
                            .line
                            .iter()
                            .take(crate::core::analysis::MAX_LINE)
                            .copied()
                            .collect(),
                    };
                    let input = match wanted.which.of {
                        Judged::Game => Input::Analysis(analysis),
                        Judged::Review => Input::ReviewAnalysis(analysis),
                        Judged::Threat => Input::ThreatAnalysis(analysis),
                    };
                    keeper.input(t, input, events);
                }
                Report::Trouble(e) => {
                    notes.push(format!("engine (analysis): {e}; it is started again"));
                    troubles.push(e);
                }
            }
        }
        troubles
    }
}

/// The position after `ply` moves of `game` as a UCI `position` command,
/// with the start position's FEN.
fn position_after(game: &crate::core::Game, ply: u32) -> (String, String) {
    let moves: Vec<shakmaty::Move> = game
        .moves()
        .iter()
        .take(ply as usize)
        .map(|m| m.m)
        .collect();
    uci_position(game.start_position(), game.castling_mode(), &moves)
}

/// The game from `start` with `moves` (castling written as `mode` writes
/// it) as a UCI `position` command, with the start's FEN: the one way the
/// engine and the analyst are told a position.
fn uci_position(
    start: &shakmaty::Chess,
    mode: shakmaty::CastlingMode,
    moves: &[shakmaty::Move],
) -> (String, String) {
    let start = shakmaty::fen::Fen::from_position(start, EnPassantMode::Legal).to_string();
    let uci: Vec<String> = moves.iter().map(|m| m.to_uci(mode).to_string()).collect();
    let command = position(&start, &uci);
    (start, command)
}

/// A position the game wants judged, as the analyst is given it.
struct WantedHere {
    which: Wanted,
    /// Its FEN, and whose move it is there.
    fen: String,
    turn: shakmaty::Color,
    /// The UCI `position` command: the start's FEN and the moves since.
    command: String,
    chess960: bool,
}

/// The position `c` wants judged now, if any.
fn wanted_now(c: &Controller) -> Option<WantedHere> {
    let which = c.wanted_analysis()?;
    let (start, mode, moves) = c.analysis_position(which)?;
    let mut pos = start.clone();
    for m in &moves {
        pos.play_unchecked(*m);
    }
    let (_, command) = uci_position(&start, mode, &moves);
    Some(WantedHere {
        which,
        fen: shakmaty::fen::Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
        turn: pos.turn(),
        command,
        chess960: mode == shakmaty::CastlingMode::Chess960,
    })
}
