//! One board's view of the game: touches, executed moves, mismatches.
//!
//! The tracker applies Article 4 and Appendix E2.2/E2.3 to occupancy alone.
//! It compares the debounced board `B` with the occupancy `E` of the game
//! position and, using the order in which squares were emptied and filled
//! during the current turn, decides which of these holds:
//!
//! - `B = E`: nothing is happening (or everything was put back);
//! - `B` is the result of a legal move whose pieces were all taken out and
//!   whose captured piece was removed before the capturing piece landed:
//!   the move is **executed** (E2.3);
//! - `B` lies on the way to some legal move: a move **in progress**, never a
//!   mismatch however long it takes;
//! - otherwise the board is **unexplained**. Once it has been still for the
//!   settle time it is reported: as an **illegal** move if the player to move
//!   relocated his own pieces, else as a **mismatch** with guidance.
//!
//! The tracker does not change the game; it hands its verdicts to the
//! controller, which plays the move and tells the tracker the new position.

use shakmaty::{
    Bitboard, ByColor, CastlingMode, Chess, Move, MoveList, Piece, Position, Role, Square,
};

use super::debounce::SquareChange;
use super::footprint::Footprint;
use super::game::Game;
use super::replica::{Judgement, Lag, Marks};
use super::settings::{Settings, TouchPolicy};
use super::touch::{Obligation, Touch, before_the_move, obligation};

/// What the tracker concluded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// A piece left its aperture: it counts as touched (E2.2).
    Touch(Touch),
    /// A legal move was executed. `violation`: it broke touch-move (reported
    /// under the `warn` policy). `settled`: found after the settle wait.
    Execute {
        m: Move,
        violation: Option<Obligation>,
        settled: bool,
    },
    /// Under the `enforce` policy: the move broke touch-move and is refused.
    Rejected { m: Move, obligation: Obligation },
    /// The promoted pawn's new piece is placed; its kind is not yet known.
    PromotionPending(Square),
    /// The player to move relocated his pieces in a way no legal move does.
    Illegal {
        missing: Vec<(Square, Piece)>,
        extra: Vec<Square>,
    },
    /// The board differs from the game and no move in progress explains it.
    Mismatch {
        missing: Vec<(Square, Piece)>,
        extra: Vec<Square>,
    },
    /// A reported mismatch, illegal move or divergence has been put right.
    Restored,
    /// The board was behind the game and now shows it.
    Replicated,
    /// A board that is behind the game, or where the player to move does
    /// not move, differs in a way no replication explains (E2.7).
    Diverged {
        missing: Vec<(Square, Piece)>,
        extra: Vec<Square>,
    },
}

/// A replication that looks under way is reported after this many settle
/// times of stillness (a hand may rest with a piece in it), one that
/// cannot be after one.
pub const UNDERWAY_SETTLES: u64 = 4;

/// Sequence number of the latest lift or placement of each square during
/// the current turn; 0 means none.
type Seq = u32;

#[derive(Debug, Clone)]
pub struct Tracker {
    occ: Bitboard,
    /// The game ply the turn state below belongs to.
    ply: u32,
    seq: Seq,
    lifted: [Seq; 64],
    placed: [Seq; 64],
    touches: Vec<Touch>,
    adjust_pending: bool,
    /// Squares whose latest lift was announced as an adjustment.
    adjusted: Bitboard,
    promotion_choice: Option<Role>,
    promotion_said: Option<Bitboard>,
    settle_at: Option<u64>,
    castle_at: Option<u64>,
    /// The board as it was when a problem was last reported.
    reported: Option<Bitboard>,
    /// The sensors were away and are back: what changed meanwhile was not
    /// seen happening, so an unexplained board is a mismatch to put right,
    /// never an illegal move charged to a player. Cleared once the board
    /// agrees with the game again.
    after_outage: bool,
    /// The players whose moves are made on this board.
    moves_for: ByColor<bool>,
    /// The board is behind the game (another board or a relayed move
    /// moved it on, or it was retraced): the replication to be done.
    lag: Option<Lag>,
}

impl Tracker {
    /// A board showing `occ`, on which the players `moves_for` make their
    /// moves.
    pub fn new(occ: Bitboard, game: &Game, moves_for: ByColor<bool>) -> Tracker {
        Tracker {
            occ,
            ply: game.ply(),
            seq: 0,
            lifted: [0; 64],
            placed: [0; 64],
            touches: Vec::new(),
            adjust_pending: false,
            adjusted: Bitboard::EMPTY,
            promotion_choice: None,
            promotion_said: None,
            settle_at: None,
            castle_at: None,
            reported: None,
            after_outage: false,
            moves_for,
            lag: None,
        }
    }

    /// The game moved on (or back) without this board: it still shows
    /// `shown`, and is to follow by hand. `moves`: the moves that took the
    /// game from `shown` to where it is, if it only moved on. A board
    /// already behind keeps the position it showed.
    pub fn fall_behind(&mut self, shown: Chess, moves: Option<Vec<Move>>) {
        match &mut self.lag {
            Some(lag) => {
                lag.moves = match (lag.moves.take(), moves) {
                    (Some(mut before), Some(more)) => {
                        before.extend(more);
                        Some(before)
                    }
                    _ => None,
                };
            }
            None => {
                self.clear_turn();
                self.reported = None;
                self.lag = Some(Lag { base: shown, moves });
            }
        }
    }

    /// The replication this board still has to do, if any.
    pub fn lag(&self) -> Option<&Lag> {
        self.lag.as_ref()
    }

    /// Does this board differ from the game unexplained, reported and not
    /// yet put right (E2.7)?
    pub fn diverged(&self, game: &Game) -> bool {
        self.reported.is_some() && (self.lag.is_some() || !self.moves_for[game.turn()])
    }

    /// The position this board shows (or is believed to): the game's, or
    /// the one it showed when it fell behind.
    pub fn shown(&self, game: &Game) -> Chess {
        match &self.lag {
            Some(lag) => lag.base.clone(),
            None => game.position().clone(),
        }
    }

    fn clear_turn(&mut self) {
        self.seq = 0;
        self.lifted = [0; 64];
        self.placed = [0; 64];
        self.touches.clear();
        self.adjust_pending = false;
        self.adjusted = Bitboard::EMPTY;
        self.promotion_choice = None;
        self.promotion_said = None;
        self.castle_at = None;
        self.settle_at = None;
    }

    /// The sensors are back after an outage (the `board_back` input).
    pub fn board_back(&mut self) {
        self.after_outage = true;
    }

    /// The debounced occupancy of this board.
    pub fn occupied(&self) -> Bitboard {
        self.occ
    }

    /// Pieces touched so far this turn, in order.
    pub fn touches(&self) -> &[Touch] {
        &self.touches
    }

    /// Is a reported problem still waiting to be put right?
    pub fn has_reported_problem(&self) -> bool {
        self.reported.is_some()
    }

    pub fn next_deadline(&self) -> Option<u64> {
        match (self.settle_at, self.castle_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Starts a new turn's state when the game has moved on.
    /// A board behind the game keeps its marks until it has caught up.
    fn sync(&mut self, game: &Game) {
        if self.ply == game.ply() || self.lag.is_some() {
            return;
        }
        self.ply = game.ply();
        self.clear_turn();
    }

    /// Stable square changes that happened together at `t`.
    pub fn changes(
        &mut self,
        t: u64,
        changes: &[SquareChange],
        game: &Game,
        settings: &Settings,
        out: &mut Vec<Verdict>,
    ) {
        self.sync(game);
        let expected = game.occupied();
        let pos = game.position();
        for change in changes {
            let sq = change.square;
            self.seq += 1;
            if change.occupied {
                self.occ.add(sq);
                self.placed[sq as usize] = self.seq;
                continue;
            }
            self.occ.discard(sq);
            self.lifted[sq as usize] = self.seq;
            if self.adjust_pending {
                // J'adoube (4.2): announced beforehand, not a touch.
                self.adjust_pending = false;
                self.adjusted.add(sq);
                continue;
            }
            self.adjusted.discard(sq);
            // Only the player to move touches, on his own board; a board
            // being brought up to date is not played on (E2.7).
            let playing = self.lag.is_none() && self.moves_for[game.turn()];
            if game.is_over() || !expected.contains(sq) || !playing {
                continue;
            }
            if self.touches.iter().any(|t| t.square == sq) {
                continue;
            }
            if let Some(piece) = pos.board().piece_at(sq) {
                let touch = Touch {
                    square: sq,
                    piece,
                    t: change.t,
                };
                self.touches.push(touch);
                out.push(Verdict::Touch(touch));
            }
        }
        self.settle_at = None;
        self.castle_at = None;
        self.evaluate(t, game, settings, false, false, out);
    }

    /// The `adjust` input: the next lift is an adjustment.
    pub fn adjust(&mut self, game: &Game) {
        self.sync(game);
        self.adjust_pending = true;
    }

    /// The `promote` input: the promotion piece is chosen.
    pub fn promote(
        &mut self,
        t: u64,
        role: Role,
        game: &Game,
        settings: &Settings,
        out: &mut Vec<Verdict>,
    ) {
        self.sync(game);
        self.promotion_choice = Some(role);
        self.evaluate(t, game, settings, false, false, out);
    }

    /// Fires the tracker's own timers that are due at `t`.
    pub fn on_timer(&mut self, t: u64, game: &Game, settings: &Settings, out: &mut Vec<Verdict>) {
        self.sync(game);
        if self.castle_at.is_some_and(|d| d <= t) {
            self.castle_at = None;
            self.evaluate(t, game, settings, false, true, out);
        }
        if self.settle_at.is_some_and(|d| d <= t) {
            self.settle_at = None;
            self.evaluate(t, game, settings, true, false, out);
        }
    }

    /// After the controller played a move this tracker reported: look at
    /// the board again against the new position.
    pub fn after_move(
        &mut self,
        t: u64,
        settled: bool,
        game: &Game,
        settings: &Settings,
        out: &mut Vec<Verdict>,
    ) {
        self.sync(game);
        self.evaluate(t, game, settings, settled, false, out);
    }

    /// Were all pieces of the move taken out, and did every piece that lands
    /// on an occupied square land after its origin was emptied?
    fn executed(&self, fp: &Footprint) -> bool {
        self.marks().executed(fp)
    }

    fn marks(&self) -> Marks<'_> {
        Marks {
            lifted: &self.lifted,
            placed: &self.placed,
        }
    }

    /// A board behind the game: done, under way, or wrong once still.
    fn evaluate_lag(
        &mut self,
        t: u64,
        game: &Game,
        settings: &Settings,
        settled: bool,
        out: &mut Vec<Verdict>,
    ) {
        let Some(lag) = &self.lag else { return };
        match lag.judge(game.position(), self.occ, &self.marks()) {
            Judgement::Done => {
                self.lag = None;
                self.reported = None;
                self.ply = game.ply();
                self.clear_turn();
                out.push(Verdict::Replicated);
            }
            Judgement::Waiting => self.settle_at = None,
            Judgement::Underway { missing, extra } => {
                // A hand may rest this long in the middle of a replication.
                let wait = settings.settle_ms * UNDERWAY_SETTLES;
                let verdict = Verdict::Diverged { missing, extra };
                self.report_when_still(t, wait, settled, out, verdict);
            }
            Judgement::Wrong { missing, extra } => {
                let verdict = Verdict::Diverged { missing, extra };
                self.report_when_still(t, settings.settle_ms, settled, out, verdict);
            }
        }
    }

    /// A board the player to move does not play on: it should show the
    /// game, and anything else once still is a divergence.
    fn evaluate_view(
        &mut self,
        t: u64,
        game: &Game,
        settings: &Settings,
        settled: bool,
        out: &mut Vec<Verdict>,
    ) {
        let expected = game.occupied();
        if self.occ == expected {
            self.settle_at = None;
            if self.reported.take().is_some() {
                out.push(Verdict::Restored);
            }
            return;
        }
        let (missing, extra) = super::replica::against(game.position(), self.occ);
        let verdict = Verdict::Diverged { missing, extra };
        self.report_when_still(t, settings.settle_ms, settled, out, verdict);
    }

    /// Reports `verdict` once the board has been still for `wait` ms, and
    /// once only for the same board.
    fn report_when_still(
        &mut self,
        t: u64,
        wait: u64,
        settled: bool,
        out: &mut Vec<Verdict>,
        verdict: Verdict,
    ) {
        if self.reported == Some(self.occ) {
            return;
        }
        if !settled {
            if self.settle_at.is_none() {
                self.settle_at = Some(t + wait);
            }
            return;
        }
        self.reported = Some(self.occ);
        out.push(verdict);
    }

    /// Chess960 castling where king and rook trade squares leaves the
    /// occupancy as it was: only the lifts and placements show it happened.
    fn swapped_castling(&self, game: &Game) -> bool {
        let expected = game.occupied();
        game.legal_moves().iter().any(|&m| {
            let fp = Footprint::of(m, game.turn(), expected);
            m.is_castle() && fp.after == expected && self.executed(&fp)
        })
    }

    /// Opponent squares whose piece was taken out and a piece put back there
    /// after one of the mover's pieces was taken out: a capture has landed.
    fn landed_captures(&self, pos: &Chess, expected: Bitboard) -> Bitboard {
        let ours_out = expected & pos.us() & !self.occ;
        let Some(first_out) = ours_out
            .into_iter()
            .map(|s| self.lifted[s as usize])
            .filter(|&s| s != 0)
            .min()
        else {
            return Bitboard::EMPTY;
        };
        (expected & pos.them() & self.occ & !self.adjusted)
            .into_iter()
            .filter(|&s| self.lifted[s as usize] != 0 && self.placed[s as usize] > first_out)
            .collect()
    }

    fn evaluate(
        &mut self,
        t: u64,
        game: &Game,
        settings: &Settings,
        settled: bool,
        castle_wait_over: bool,
        out: &mut Vec<Verdict>,
    ) {
        if self.lag.is_some() {
            return self.evaluate_lag(t, game, settings, settled, out);
        }
        if game.is_over() {
            self.settle_at = None;
            self.castle_at = None;
            return;
        }
        if !self.moves_for[game.turn()] {
            return self.evaluate_view(t, game, settings, settled, out);
        }
        let expected = game.occupied();
        let board = self.occ;
        if board == expected && !self.swapped_castling(game) {
            self.settle_at = None;
            self.castle_at = None;
            self.promotion_said = None;
            self.after_outage = false;
            if self.reported.take().is_some() {
                out.push(Verdict::Restored);
            }
            return;
        }
        let pos = game.position();
        let color = pos.turn();
        let landed = self.landed_captures(pos, expected);
        let mut exact = MoveList::new();
        let mut unseen = MoveList::new();
        let mut progressing = false;
        let mut castle_targets = Bitboard::EMPTY;
        for &m in &game.legal_moves() {
            let fp = Footprint::of(m, color, expected);
            if fp.after == board && self.executed(&fp) {
                exact.push(m);
            } else if fp.after == board && self.after_outage {
                // After an outage the hands were not seen: a board that one
                // legal move explains is that move, however it was made.
                unseen.push(m);
            } else if landed.is_empty() && fp.in_progress(expected, board) {
                progressing = true;
                if let Some(side) = m.castling_side() {
                    castle_targets.add(side.king_to(color));
                }
            }
        }

        // Unseen, two different moves that leave the same board (a capture
        // by one piece of either of two pieces) are not guessed between.
        if exact.is_empty()
            && unseen
                .iter()
                .all(|m| (m.from(), m.to()) == (unseen[0].from(), unseen[0].to()))
        {
            exact = unseen;
        }
        if !exact.is_empty() {
            if exact.iter().all(|m| m.is_promotion()) {
                let choice = self.promotion_choice.or(settings.default_promotion);
                if let Some(&m) =
                    choice.and_then(|r| exact.iter().find(|m| m.promotion() == Some(r)))
                {
                    self.execute(m, game, settings, settled, out);
                } else if self.promotion_said != Some(board) {
                    self.promotion_said = Some(board);
                    self.settle_at = None;
                    out.push(Verdict::PromotionPending(exact[0].to()));
                }
                return;
            }
            // Chess960: a king placed where castling would also put it waits
            // a moment for its rook (4.6b) before it counts as a king move.
            let king_on_castle_square = exact.iter().all(|m| {
                m.role() == Role::King && !m.is_castle() && castle_targets.contains(m.to())
            });
            if king_on_castle_square && !castle_wait_over {
                if self.castle_at.is_none() {
                    self.castle_at = Some(t + settings.castling_wait_ms);
                }
                return;
            }
            let m = self.choose(&exact, pos, game.castling_mode(), settings);
            self.execute(m, game, settings, settled, out);
            return;
        }
        if progressing {
            self.settle_at = None;
            return;
        }

        // Unexplained.
        if self.reported == Some(board) {
            return;
        }
        if !settled {
            if self.settle_at.is_none() {
                self.settle_at = Some(t + settings.settle_ms);
            }
            return;
        }
        // The board has been still for the settle time. A legal move whose
        // own squares are complete, with pieces knocked out elsewhere, is
        // executed (the piece was released, 4.6); what is left is then
        // reported against the new position.
        if let Some(m) = self.executed_with_pieces_missing(pos, expected, game, settings) {
            self.execute(m, game, settings, true, out);
            return;
        }
        self.reported = Some(board);
        let (missing, extra) = super::replica::against(pos, board);
        let ours_out = expected & pos.us() & !board;
        let relocated = !ours_out.is_empty()
            && (!(board & !expected).is_empty() || !landed.is_empty())
            && board.count() <= expected.count();
        if relocated && !self.after_outage {
            out.push(Verdict::Illegal { missing, extra });
        } else {
            out.push(Verdict::Mismatch { missing, extra });
        }
    }

    fn executed_with_pieces_missing(
        &self,
        pos: &Chess,
        expected: Bitboard,
        game: &Game,
        settings: &Settings,
    ) -> Option<Move> {
        let board = self.occ;
        let mut found = MoveList::new();
        for &m in &game.legal_moves() {
            let fp = Footprint::of(m, pos.turn(), expected);
            let own_squares_done = board & fp.changed == fp.after & fp.changed;
            let elsewhere_only_missing = (board & !fp.changed).is_subset(expected);
            let choice_known = m.promotion().is_none()
                || m.promotion() == self.promotion_choice.or(settings.default_promotion);
            if own_squares_done && elsewhere_only_missing && choice_known && self.executed(&fp) {
                found.push(m);
            }
        }
        if found.is_empty() {
            None
        } else {
            Some(self.choose(&found, pos, game.castling_mode(), settings))
        }
    }

    /// Among moves that all fit the board, the one touch-move points to.
    fn choose(
        &self,
        moves: &MoveList,
        pos: &Chess,
        mode: CastlingMode,
        settings: &Settings,
    ) -> Move {
        if moves.len() > 1
            && let Some(ob) = obligation(pos, mode, &self.touches, settings.together_ms)
            && let Some(&m) = moves.iter().find(|&&m| ob.permits(m))
        {
            return m;
        }
        moves[0]
    }

    fn execute(
        &mut self,
        m: Move,
        game: &Game,
        settings: &Settings,
        settled: bool,
        out: &mut Vec<Verdict>,
    ) {
        let violation = if settings.touch_policy == TouchPolicy::Off {
            None
        } else {
            obligation(
                game.position(),
                game.castling_mode(),
                before_the_move(&self.touches, m),
                settings.together_ms,
            )
            .filter(|ob| !ob.permits(m))
        };
        self.settle_at = None;
        self.castle_at = None;
        if let Some(ob) = violation.clone()
            && settings.touch_policy == TouchPolicy::Enforce
        {
            self.reported = Some(self.occ);
            out.push(Verdict::Rejected { m, obligation: ob });
            return;
        }
        self.reported = None;
        out.push(Verdict::Execute {
            m,
            violation,
            settled,
        });
    }
}
