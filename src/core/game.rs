//! The game authority: position, history, and how the game ends.
//!
//! Chess rules come from `shakmaty`; this module adds what the Laws say
//! about ending a game (Articles 5 and 9): checkmate, stalemate and dead
//! positions end it at once; threefold repetition and the fifty-move rule
//! only on a correct claim; a fivefold repetition and 75 moves by each
//! player without a pawn move or a capture end it without a claim (9.6);
//! resignation and agreement at the players' word.

use crate::core::laws::Edition;
use shakmaty::{
    Bitboard, ByColor, CastlingMode, Chess, Color, EnPassantMode, KnownOutcome, Move, MoveList,
    Position, fen::Fen, san::SanPlus, uci::UciMove, zobrist::Zobrist64,
};

/// How the game may start: the trace header's `start` and `variant`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartPosition {
    /// `startpos`, a FEN, or a Shredder/X-FEN.
    pub start: String,
    /// Chess960 castling rules (Appendix F).
    pub chess960: bool,
}

impl Default for StartPosition {
    fn default() -> Self {
        StartPosition {
            start: "startpos".to_string(),
            chess960: false,
        }
    }
}

/// A start position that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartError(pub String);

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StartError {}

impl StartPosition {
    /// Chess960 start number `n` (0 to 959, in Scharnagl's numbering; 518
    /// is the standard position), as a Shredder-FEN.
    pub fn chess960(n: u32) -> Option<StartPosition> {
        if n > 959 {
            return None;
        }
        let board = shakmaty::Board::chess960(n);
        let rooks: String = board
            .rooks()
            .intersect(board.white())
            .into_iter()
            .rev()
            .map(|sq| sq.file().upper_char())
            .collect();
        let castling = format!("{rooks}{}", rooks.to_ascii_lowercase());
        Some(StartPosition {
            start: format!("{board} w {castling} - 0 1"),
            chess960: true,
        })
    }

    /// The position and castling mode this start describes.
    /// The start `pos` with its castling rules: `startpos` for the
    /// standard start, else its FEN.
    pub fn of(pos: &Chess, mode: CastlingMode) -> StartPosition {
        let chess960 = mode == CastlingMode::Chess960;
        let start = if *pos == Chess::default() && !chess960 {
            "startpos".to_string()
        } else {
            shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
        };
        StartPosition { start, chess960 }
    }

    pub fn position(&self) -> Result<(Chess, CastlingMode), StartError> {
        if self.start == "startpos" {
            let mode = if self.chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            return Ok((Chess::default(), mode));
        }
        let fen: Fen = self
            .start
            .parse()
            .map_err(|e| StartError(format!("`{}` is not a FEN: {e}", self.start)))?;
        // A Shredder-FEN or an X-FEN whose rooks are not in the corners can
        // only be read with Chess960 castling rules.
        let mode = if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::detect(fen.as_setup())
        };
        let pos: Chess = fen
            .into_position(mode)
            .map_err(|e| StartError(format!("`{}` is not a legal position: {e}", self.start)))?;
        Ok((pos, mode))
    }
}

pub use crate::core::laws::Reason;

/// The end of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ending {
    pub outcome: KnownOutcome,
    pub reason: Reason,
    /// The player who resigned, whose flag fell or who made the third
    /// illegal move.
    pub by: Option<Color>,
}

/// A move that has been executed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedMove {
    pub m: Move,
    pub color: Color,
    /// 1-based half-move number.
    pub ply: u32,
    /// The move number as written on a scoresheet.
    pub number: u32,
    pub san: String,
    pub uci: String,
    /// FEN after the move.
    pub fen: String,
}

/// What a draw offer did (9.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offer {
    /// It accepted the opponent's standing offer: the game is drawn.
    Agreed(Ending),
    /// It stands, for the opponent to accept or reject.
    Made,
    /// It would accept the opponent's offer before both players have made
    /// a move, or it could not be accepted before then, which today's
    /// Laws do not allow (5.2.3; see [`Game::offer_allowed`]): nothing
    /// changed.
    TooEarly,
}

/// What became of a draw claim (Art. 9.2, 9.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimOutcome {
    /// The claim is correct: the game is drawn.
    Drawn(Ending),
    /// The claim is correct only if the claimant's next move makes it so
    /// ("the position is about to appear", 9.2a); decided on that move.
    Pending,
    /// The claim is incorrect; the game goes on.
    Incorrect,
    /// Only the player to move may claim.
    NotYourMove,
    /// The game is already over.
    GameOver,
}

/// The game: the one authority every board must converge to.
#[derive(Debug, Clone)]
pub struct Game {
    mode: CastlingMode,
    start: Chess,
    pos: Chess,
    moves: Vec<PlayedMove>,
    /// Zobrist hash of every position so far, the start included.
    hashes: Vec<Zobrist64>,
    ending: Option<Ending>,
    illegal_moves: ByColor<u32>,
    /// Completed illegal moves the arbiter ruled on (7.4b), per player.
    penalized_illegal_moves: ByColor<u32>,
    draw_offer: Option<Color>,
    pending_claim: Option<Color>,
    /// The edition of the Laws: whether 9.6's draws need no claim.
    laws: Edition,
}

fn hash(pos: &Chess) -> Zobrist64 {
    pos.zobrist_hash(EnPassantMode::Legal)
}

impl Game {
    pub fn new(pos: Chess, mode: CastlingMode) -> Game {
        let mut game = Game {
            mode,
            hashes: vec![hash(&pos)],
            start: pos.clone(),
            pos,
            moves: Vec::new(),
            ending: None,
            illegal_moves: ByColor::new_with(|_| 0),
            penalized_illegal_moves: ByColor::new_with(|_| 0),
            draw_offer: None,
            pending_claim: None,
            laws: Edition::default(),
        };
        game.ending = game.automatic_ending();
        game
    }

    /// The same game under the Laws of `laws` (today's by default).
    pub fn with_laws(mut self, laws: Edition) -> Game {
        self.laws = laws;
        if self.moves.is_empty() {
            self.ending = self.automatic_ending();
        }
        self
    }

    /// The edition of the Laws the game is played under.
    pub fn laws(&self) -> Edition {
        self.laws
    }

    pub fn from_start(start: &StartPosition) -> Result<Game, StartError> {
        let (pos, mode) = start.position()?;
        Ok(Game::new(pos, mode))
    }

    pub fn position(&self) -> &Chess {
        &self.pos
    }

    pub fn start_position(&self) -> &Chess {
        &self.start
    }

    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    /// Occupied squares of the game position: what every board must show.
    pub fn occupied(&self) -> Bitboard {
        self.pos.board().occupied()
    }

    pub fn legal_moves(&self) -> MoveList {
        self.pos.legal_moves()
    }

    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    pub fn last_move(&self) -> Option<&PlayedMove> {
        self.moves.last()
    }

    /// Half-moves played so far.
    pub fn ply(&self) -> u32 {
        self.moves.len() as u32
    }

    /// The last `n` moves (fewer if fewer were played), oldest first, each
    /// with the position it was played in.
    pub fn last_moves(&self, n: usize) -> Vec<(Chess, &PlayedMove)> {
        let first = self.moves.len().saturating_sub(n);
        let mut pos = self.start.clone();
        for pm in &self.moves[..first] {
            // Every move in the history was legal when it was played.
            pos.play_unchecked(pm.m);
        }
        let mut out = Vec::with_capacity(self.moves.len() - first);
        for pm in &self.moves[first..] {
            out.push((pos.clone(), pm));
            pos.play_unchecked(pm.m);
        }
        out
    }

    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    pub fn is_over(&self) -> bool {
        self.ending.is_some()
    }

    pub fn fen(&self) -> String {
        Fen::from_position(&self.pos, EnPassantMode::Legal).to_string()
    }

    pub fn uci(&self, m: Move) -> String {
        UciMove::from_move(m, self.mode).to_string()
    }

    pub fn illegal_moves(&self, color: Color) -> u32 {
        *self.illegal_moves.get(color)
    }

    /// Counts an illegal move (Art. 7.4) and returns the player's new total.
    pub fn record_illegal_move(&mut self, color: Color) -> u32 {
        let n = self.illegal_moves.get_mut(color);
        *n += 1;
        *n
    }

    /// How often the current position has stood on the board.
    pub fn repetitions(&self) -> usize {
        let current = hash(&self.pos);
        self.hashes.iter().filter(|&&h| h == current).count()
    }

    fn claimable(&self) -> Option<Reason> {
        if self.repetitions() >= 3 {
            Some(Reason::ThreefoldRepetition)
        } else if self.pos.halfmoves() >= 100 {
            Some(Reason::FiftyMoves)
        } else {
            None
        }
    }

    fn automatic_ending(&self) -> Option<Ending> {
        let (outcome, reason) = if self.pos.is_checkmate() {
            (
                KnownOutcome::Decisive {
                    winner: !self.pos.turn(),
                },
                Reason::Checkmate,
            )
        } else if self.pos.is_stalemate() {
            (KnownOutcome::Draw, Reason::Stalemate)
        } else if self.pos.is_insufficient_material() {
            (KnownOutcome::Draw, Reason::InsufficientMaterial)
        } else if self.laws.automatic_draws() && self.repetitions() >= 5 {
            (KnownOutcome::Draw, Reason::FivefoldRepetition)
        } else if self.laws.automatic_draws() && self.pos.halfmoves() >= 150 {
            // Checkmate, tested first, takes precedence (9.6.2).
            (KnownOutcome::Draw, Reason::SeventyFiveMoves)
        } else {
            return None;
        };
        Some(Ending {
            outcome,
            reason,
            by: None,
        })
    }

    /// Plays a legal move. Returns `None` (and changes nothing) if the move
    /// is not legal here or the game is over.
    pub fn play(&mut self, m: Move) -> Option<&PlayedMove> {
        if self.is_over() || !self.pos.is_legal(m) {
            return None;
        }
        let color = self.pos.turn();
        let number = self.pos.fullmoves().get();
        let uci = self.uci(m);
        let san = SanPlus::from_move_and_play_unchecked(&mut self.pos, m).to_string();
        self.hashes.push(hash(&self.pos));
        let ply = self.moves.len() as u32 + 1;
        let fen = self.fen();
        self.moves.push(PlayedMove {
            m,
            color,
            ply,
            number,
            san,
            uci,
            fen,
        });
        // A move by the player a draw was offered to declines it (9.1b).
        if self.draw_offer == Some(!color) {
            self.draw_offer = None;
        }
        self.ending = self.automatic_ending();
        if self.ending.is_none()
            && self.pending_claim.take() == Some(color)
            && let Some(reason) = self.claimable()
        {
            self.ending = Some(Ending {
                outcome: KnownOutcome::Draw,
                reason,
                by: None,
            });
        }
        self.moves.last()
    }

    /// The position after the first `ply` moves (0: the start), if the
    /// game has had that many.
    pub fn position_at(&self, ply: u32) -> Option<Chess> {
        let mut pos = self.start.clone();
        for played in self.moves.get(..ply as usize)? {
            pos.play_unchecked(played.m);
        }
        Some(pos)
    }

    /// Takes the game back to the position after `ply` moves (E2.8: the
    /// moves are retraced to the last position both boards agreed on).
    /// Later moves, an ending, a draw offer and a pending claim are gone;
    /// the illegal moves counted stay counted. `false`, and nothing
    /// changed, if the game has not had `ply` moves.
    pub fn retrace(&mut self, ply: u32) -> bool {
        let Some(kept) = self.moves.get(..ply as usize) else {
            return false;
        };
        let kept: Vec<Move> = kept.iter().map(|p| p.m).collect();
        let mut again = Game::new(self.start.clone(), self.mode).with_laws(self.laws);
        for m in kept {
            again.play(m);
        }
        again.illegal_moves = self.illegal_moves;
        again.penalized_illegal_moves = self.penalized_illegal_moves;
        *self = again;
        true
    }

    pub fn pending_claim(&self) -> Option<Color> {
        self.pending_claim
    }

    /// A draw claim by `color` under Articles 9.2 and 9.3.
    pub fn claim_draw(&mut self, color: Color) -> ClaimOutcome {
        if self.is_over() {
            return ClaimOutcome::GameOver;
        }
        if color != self.pos.turn() {
            return ClaimOutcome::NotYourMove;
        }
        if let Some(reason) = self.claimable() {
            let ending = Ending {
                outcome: KnownOutcome::Draw,
                reason,
                by: None,
            };
            self.ending = Some(ending);
            return ClaimOutcome::Drawn(ending);
        }
        // "About to appear": some move of the claimant would make it correct.
        let about_to_appear = self.legal_moves().iter().any(|&m| {
            let mut next = self.clone();
            next.pending_claim = None;
            next.play(m).is_some() && next.claimable().is_some()
        });
        // 9.1b (today's 9.1.2.3): a claim is also an offer of a draw; one
        // made while the opponent's offer stands accepts it.
        if let Offer::Agreed(ending) = self.offer(color) {
            return ClaimOutcome::Drawn(ending);
        }
        if about_to_appear {
            self.pending_claim = Some(color);
            ClaimOutcome::Pending
        } else {
            ClaimOutcome::Incorrect
        }
    }

    /// The standing draw offer lapses: the player it was made to rejected
    /// it by touching a piece with the intention of moving or capturing it
    /// (9.1b; today 9.1.2.1). `true` if an offer stood.
    pub fn decline_draw(&mut self) -> bool {
        self.draw_offer.take().is_some()
    }

    /// A draw offer. If the opponent's offer stands, this accepts it:
    /// today only once both players have made a move (5.2.3).
    pub fn offer_draw(&mut self, color: Color) -> Option<Ending> {
        match self.offer(color) {
            Offer::Agreed(ending) => Some(ending),
            Offer::Made | Offer::TooEarly => None,
        }
    }

    /// What a draw offer by `color` does (see [`Game::offer_draw`]).
    pub fn offer(&mut self, color: Color) -> Offer {
        if self.is_over() {
            return Offer::Made;
        }
        if !self.offer_allowed(color) {
            return Offer::TooEarly;
        }
        if self.draw_offer == Some(!color) {
            let ending = Ending {
                outcome: KnownOutcome::Draw,
                reason: Reason::Agreement,
                by: None,
            };
            self.ending = Some(ending);
            self.draw_offer = None;
            return Offer::Agreed(ending);
        }
        self.draw_offer = Some(color);
        Offer::Made
    }

    /// May a draw be agreed now? Today only once both players have made a
    /// move (5.2.3); the 2008 Laws set no such bound.
    pub fn agreement_allowed(&self) -> bool {
        self.laws.agreement_allowed(self.ply())
    }

    /// May `color` offer a draw (or accept the opponent's) now? Accepting
    /// needs an agreement allowed now. An offer must be one that could
    /// be accepted: the opponent would answer it after `color`'s next
    /// move if it is his turn, else now, since touching a piece to move
    /// rejects it (9.1.2.1). So today White offers from his second move
    /// (after 1... e5), Black from his first; in 2008 always.
    pub fn offer_allowed(&self, color: Color) -> bool {
        if self.draw_offer == Some(!color) {
            return self.agreement_allowed();
        }
        let own_move_first = u32::from(self.turn() == color);
        self.laws
            .agreement_allowed(self.ply().saturating_add(own_move_first))
    }

    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// `color` loses for `reason` (a flag, 6.9; a third illegal move,
    /// 7.4b) unless the opponent cannot checkmate by any legal sequence:
    /// then the game is drawn. Insufficient material is the test.
    pub fn lose(&mut self, color: Color, reason: Reason) -> Option<Ending> {
        if self.is_over() {
            return None;
        }
        let outcome = if self.pos.has_insufficient_material(!color) {
            KnownOutcome::Draw
        } else {
            KnownOutcome::Decisive { winner: !color }
        };
        let ending = Ending {
            outcome,
            reason,
            by: Some(color),
        };
        self.ending = Some(ending);
        Some(ending)
    }

    /// The game is drawn for `reason` (both flags in the last period, 6.11b).
    /// The game ends as another authority says (an online game's
    /// server), whatever the position; `None` if it is over already.
    pub fn conclude(&mut self, ending: Ending) -> Option<Ending> {
        if self.is_over() {
            return None;
        }
        self.ending = Some(ending);
        Some(ending)
    }

    pub fn draw(&mut self, reason: Reason) -> Option<Ending> {
        if self.is_over() {
            return None;
        }
        let ending = Ending {
            outcome: KnownOutcome::Draw,
            reason,
            by: None,
        };
        self.ending = Some(ending);
        Some(ending)
    }

    /// Counts a completed illegal move the arbiter ruled on (7.4b) and
    /// returns the player's total. The board's own illegal arrangements
    /// ([`Game::record_illegal_move`]) never became moves (E2.3: they were
    /// not announced), so they are not counted here.
    pub fn record_penalized_illegal_move(&mut self, color: Color) -> u32 {
        let n = self.penalized_illegal_moves.get_mut(color);
        *n += 1;
        *n
    }

    /// Resignation by `color` (5.1b).
    pub fn resign(&mut self, color: Color) -> Option<Ending> {
        if self.is_over() {
            return None;
        }
        let ending = Ending {
            outcome: KnownOutcome::Decisive { winner: !color },
            reason: Reason::Resignation,
            by: Some(color),
        };
        self.ending = Some(ending);
        Some(ending)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::san::San;

    fn game(fen: &str) -> Game {
        Game::from_start(&StartPosition {
            start: fen.to_string(),
            chess960: false,
        })
        .expect("start")
    }

    fn play_san(g: &mut Game, sans: &[&str]) {
        for s in sans {
            let m = s
                .parse::<San>()
                .expect("san")
                .to_move(g.position())
                .expect("legal");
            assert!(g.play(m).is_some(), "{s} must play");
        }
    }

    #[test]
    fn the_move_number_does_not_wrap_past_its_largest() {
        let mut g = game("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 4294967295");
        play_san(&mut g, &["e5", "Nf3"]);
        let numbers: Vec<u32> = g.moves().iter().map(|m| m.number).collect();
        assert!(numbers.iter().all(|&n| n > 0), "{numbers:?}");
        assert!(g.fen().ends_with(" 4294967295"), "{}", g.fen());
    }

    #[test]
    fn art_5_1_a_checkmate_ends_the_game() {
        let mut g = game("startpos");
        play_san(&mut g, &["f3", "e5", "g4", "Qh4#"]);
        let e = g.ending().expect("over");
        assert_eq!(e.reason, Reason::Checkmate);
        assert_eq!(
            e.outcome,
            KnownOutcome::Decisive {
                winner: Color::Black
            }
        );
        assert_eq!(g.last_move().map(|m| m.san.as_str()), Some("Qh4#"));
    }

    #[test]
    fn art_5_2_a_stalemate_ends_the_game_drawn() {
        let mut g = game("7k/8/8/5Q2/8/8/8/6K1 w - - 0 1");
        play_san(&mut g, &["Qf7"]);
        let e = g.ending().expect("stalemate");
        assert_eq!(e.reason, Reason::Stalemate);
        assert_eq!(e.outcome, KnownOutcome::Draw);
    }

    #[test]
    fn art_9_6_insufficient_material_ends_the_game() {
        let mut g = game("4k3/8/8/8/8/8/3p4/4KB2 w - - 0 1");
        play_san(&mut g, &["Kxd2"]);
        let e = g.ending().expect("dead position");
        assert_eq!(e.reason, Reason::InsufficientMaterial);
        assert_eq!(e.outcome, KnownOutcome::Draw);
    }

    #[test]
    fn art_9_2_threefold_repetition_only_on_correct_claim() {
        let mut g = game("startpos");
        play_san(&mut g, &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]);
        // Start position with black to move has not appeared three times yet.
        assert_eq!(g.claim_draw(Color::Black), ClaimOutcome::Pending);
        play_san(&mut g, &["Ng8"]);
        assert_eq!(g.repetitions(), 3);
        let e = g
            .ending()
            .expect("the pending claim is decided by the move");
        assert_eq!(e.reason, Reason::ThreefoldRepetition);
    }

    #[test]
    fn art_9_2_repetition_does_not_end_the_game_without_a_claim() {
        let mut g = game("startpos");
        play_san(
            &mut g,
            &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"],
        );
        assert_eq!(g.repetitions(), 3);
        assert!(g.ending().is_none());
        assert_eq!(g.claim_draw(Color::Black), ClaimOutcome::NotYourMove);
        match g.claim_draw(Color::White) {
            ClaimOutcome::Drawn(e) => assert_eq!(e.reason, Reason::ThreefoldRepetition),
            other => panic!("expected a draw, got {other:?}"),
        }
    }

    const KNIGHT_SHUFFLE: [&str; 4] = ["Nf3", "Nf6", "Ng1", "Ng8"];

    #[test]
    fn art_9_6_1_fivefold_repetition_ends_the_game_without_a_claim() {
        let mut g = game("startpos");
        for _ in 0..3 {
            play_san(&mut g, &KNIGHT_SHUFFLE);
        }
        play_san(&mut g, &["Nf3", "Nf6", "Ng1"]);
        // The start position has stood four times; a claim would be
        // needed now, and none was made.
        assert!(g.ending().is_none(), "four times is not yet five");
        play_san(&mut g, &["Ng8"]);
        assert_eq!(g.repetitions(), 5);
        let e = g.ending().expect("the fifth time ends the game");
        assert_eq!(e.reason, Reason::FivefoldRepetition);
        assert_eq!(e.outcome, KnownOutcome::Draw);
        assert!(
            g.play(g.legal_moves()[0]).is_none(),
            "no move after the end"
        );
    }

    #[test]
    fn art_9_6_2_seventy_five_moves_end_the_game_without_a_claim() {
        // 149 half-moves without a pawn move or capture: one more ends it.
        let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 148 120");
        play_san(&mut g, &["Ra2"]);
        assert!(
            g.ending().is_none(),
            "149 half-moves are not yet 75 moves each"
        );
        play_san(&mut g, &["Kd7"]);
        let e = g.ending().expect("the 150th half-move ends the game");
        assert_eq!(e.reason, Reason::SeventyFiveMoves);
        assert_eq!(e.outcome, KnownOutcome::Draw);
    }

    #[test]
    fn art_9_6_2_a_mate_on_the_seventy_fifth_move_takes_precedence() {
        let mut g = game("7k/8/6K1/8/8/8/8/R7 w - - 149 120");
        play_san(&mut g, &["Ra8#"]);
        let e = g.ending().expect("over");
        assert_eq!(e.reason, Reason::Checkmate);
        assert_eq!(
            e.outcome,
            KnownOutcome::Decisive {
                winner: Color::White
            }
        );
    }

    #[test]
    fn art_9_6_2_a_capture_or_pawn_move_restarts_the_count() {
        let mut g = game("r3k3/8/8/8/8/8/8/R3K3 w - - 149 120");
        play_san(&mut g, &["Rxa8+"]);
        assert!(g.ending().is_none(), "the capture restarts the count");
        assert_eq!(g.position().halfmoves(), 0);
    }

    #[test]
    fn art_9_5_incorrect_claim_leaves_the_game_running() {
        let mut g = game("startpos");
        assert_eq!(g.claim_draw(Color::White), ClaimOutcome::Incorrect);
        assert!(!g.is_over());
    }

    #[test]
    fn art_9_3_fifty_move_rule_on_claim() {
        let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
        assert_eq!(g.claim_draw(Color::White), ClaimOutcome::Pending);
        play_san(&mut g, &["Ra2"]);
        assert_eq!(g.ending().map(|e| e.reason), Some(Reason::FiftyMoves));
    }

    #[test]
    fn art_9_1_agreed_draw_needs_both_sides() {
        let mut g = game("startpos");
        // Today's 5.2.3: not before both players have made a move.
        play_san(&mut g, &["e4", "e5"]);
        assert_eq!(g.offer_draw(Color::White), None);
        let e = g.offer_draw(Color::Black).expect("accepted");
        assert_eq!(e.reason, Reason::Agreement);
        assert_eq!(e.outcome, KnownOutcome::Draw);
    }

    #[test]
    fn art_9_1_b_a_move_declines_the_offer() {
        let mut g = game("startpos");
        play_san(&mut g, &["e4"]);
        assert_eq!(g.offer_draw(Color::White), None);
        play_san(&mut g, &["e5"]);
        assert_eq!(g.draw_offer(), None);
        assert_eq!(g.offer_draw(Color::White), None);
        assert!(!g.is_over());
    }

    #[test]
    fn art_5_1_b_resignation_gives_the_opponent_the_win() {
        let mut g = game("startpos");
        let e = g.resign(Color::White).expect("over");
        assert_eq!(
            e.outcome,
            KnownOutcome::Decisive {
                winner: Color::Black
            }
        );
        assert_eq!(e.reason, Reason::Resignation);
        // A move that was legal a moment ago is refused: the game is over.
        let e4 = g
            .legal_moves()
            .into_iter()
            .find(|m| m.to() == shakmaty::Square::E4)
            .expect("1. e4 is legal in the start position");
        assert!(g.position().is_legal(e4));
        assert!(g.play(e4).is_none());
        assert_eq!(g.ply(), 0);
    }

    #[test]
    fn chess960_start_numbers_give_their_positions() {
        // 518 is the standard array; 0 is BBQNNRKR (Scharnagl's first).
        let standard = StartPosition::chess960(518).expect("518");
        let (pos, mode) = standard.position().expect("a position");
        assert_eq!(mode, CastlingMode::Chess960);
        assert_eq!(pos.board(), Chess::default().board());
        let first = StartPosition::chess960(0).expect("0");
        assert!(
            first
                .start
                .starts_with("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf"),
            "{}",
            first.start
        );
        assert!(first.position().is_ok());
        assert_eq!(StartPosition::chess960(960), None);
    }

    #[test]
    fn chess960_start_from_shredder_fen() {
        let g = game("nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w GDgd - 0 1");
        assert_eq!(g.castling_mode(), CastlingMode::Chess960);
        let g = game("nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1");
        assert_eq!(g.castling_mode(), CastlingMode::Chess960);
    }

    #[test]
    fn bad_start_is_an_error_not_a_panic() {
        assert!(
            Game::from_start(&StartPosition {
                start: "nonsense".into(),
                chess960: false
            })
            .is_err()
        );
        assert!(
            Game::from_start(&StartPosition {
                start: "8/8/8/8/8/8/8/8 w - - 0 1".into(),
                chess960: false
            })
            .is_err()
        );
    }
}
