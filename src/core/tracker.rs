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
//!
//! Time it could not see (the sensors lost, pegboard off) is handled
//! apart: the first reading after it is one change of unknown order, and a
//! move is taken from it only when a piece stands where the game has an
//! empty square and one legal move alone explains the board. A board that
//! only lacks pieces is pieces in the hand; what might have been made
//! meanwhile (a capture, one of two moves) is said, to be confirmed by
//! putting the moved pieces down again or by the arbiter, never guessed.

use shakmaty::{
    Bitboard, ByColor, CastlingMode, Chess, Move, MoveList, Piece, Position, Role, Square,
};

use super::debounce::SquareChange;
use super::footprint::Footprint;
use super::game::Game;
use super::replica::{Judgement, Lag, Marks};
use super::settings::{Settings, TouchPolicy};
use super::touch::{Duty, Obligation, Touch, before_the_move, obligation};

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
    /// After time the board was not seen: these moves may have been made
    /// meanwhile, and none is taken on a guess. Putting the moved pieces
    /// down again (or the arbiter's `move`) confirms one.
    Unconfirmed(Vec<Move>),
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
    /// The board may hold changes made while it was not seen: from the
    /// end of an unseen interval until it is seen to agree with the game.
    unseen_changes: bool,
    /// The board is seen again after time it was not: the reading taken at
    /// that instant shows what changed meanwhile, and its changes (stable
    /// one debounce window later, up to this instant) share one sequence
    /// number, since their order is unknown.
    unseen_until: Option<u64>,
    /// The number the changes of that reading share, this turn.
    unseen_seq: Option<Seq>,
    /// The sensors are away (`board_lost`): nothing is judged, no timer
    /// runs, until they are back.
    lost: bool,
    /// The board for which the moves that may have been made unseen were
    /// last said.
    hinted: Option<Bitboard>,
    /// 4.6: a piece released on this square as part of a legal move this
    /// turn, and the moves that leave it there.
    released: Option<(Square, MoveList)>,
    /// The replication was asked for while the board was after an unseen
    /// interval: its landings may have been made unseen.
    lag_unseen: bool,
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
            unseen_changes: false,
            unseen_until: None,
            unseen_seq: None,
            lost: false,
            hinted: None,
            released: None,
            lag_unseen: false,
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
                self.lag_unseen = self.unseen_changes;
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

    /// Forgets the turn's marks. The sequence number goes on counting, so
    /// that a mark kept from before stays earlier than every new one.
    fn clear_turn(&mut self) {
        self.lifted = [0; 64];
        self.placed = [0; 64];
        self.touches.clear();
        self.adjust_pending = false;
        self.adjusted = Bitboard::EMPTY;
        self.promotion_choice = None;
        self.promotion_said = None;
        self.castle_at = None;
        self.settle_at = None;
        self.released = None;
        self.hinted = None;
        self.unseen_seq = None;
    }

    /// The sensors stopped answering (the `board_lost` input): the timers
    /// stop, so that no wait runs out on a board nobody can see.
    pub fn board_lost(&mut self) {
        self.lost = true;
        self.settle_at = None;
        self.castle_at = None;
    }

    /// The board is seen again after time it was not (the `board_back`
    /// and `restarted` inputs): what changed meanwhile was not seen
    /// happening. The waits start afresh.
    pub fn board_back(&mut self, t: u64, game: &Game, settings: &Settings, out: &mut Vec<Verdict>) {
        self.lost = false;
        self.after_outage = true;
        self.unseen_changes = true;
        self.unseen_until = Some(t + settings.debounce_ms);
        self.hinted = None;
        self.settle_at = None;
        self.castle_at = None;
        self.sync(t, game, out);
        self.evaluate(t, game, settings, false, false, out);
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

    /// Starts a new turn's state when the game has moved on at `t`.
    /// A board behind the game keeps its marks until it has caught up.
    ///
    /// A piece of the new position that is still out of its aperture was
    /// taken up before this turn and not put back: it is in a hand. Its
    /// lift is kept, so that the move it begins is seen whole, and when it
    /// is the new mover's piece and no piece stands where the game has an
    /// empty square (it could be that piece, knocked over), it counts as
    /// touched now, as he holds it when his turn begins (4.3, E2.2).
    fn sync(&mut self, t: u64, game: &Game, out: &mut Vec<Verdict>) {
        if self.ply == game.ply() || self.lag.is_some() {
            return;
        }
        self.ply = game.ply();
        let expected = game.occupied();
        let mut held: Vec<(Seq, Square)> = (expected & !self.occ)
            .into_iter()
            .map(|sq| (self.lifted[sq as usize], sq))
            .filter(|&(seq, _)| seq != 0)
            .collect();
        self.clear_turn();
        held.sort_unstable();
        for &(seq, sq) in &held {
            self.lifted[sq as usize] = seq;
        }
        let playing = self.moves_for[game.turn()] && !game.is_over();
        let strays = self.occ & !expected;
        if !playing || !strays.is_empty() {
            return;
        }
        let pos = game.position();
        for (_, sq) in held {
            if let Some(piece) = pos.board().piece_at(sq).filter(|p| p.color == pos.turn()) {
                let touch = Touch {
                    square: sq,
                    piece,
                    t,
                };
                self.touches.push(touch);
                out.push(Verdict::Touch(touch));
            }
        }
    }

    /// Stable square changes that happened together at `t`.
    ///
    /// Changes of one instant came in one reading, in no order the board
    /// can tell: lifts are taken before placements (a piece is taken out
    /// before it is put anywhere), and of the lifts the mover's own pieces
    /// first (4.3c: when it is unclear, his own piece was touched first).
    /// The first reading after an unseen interval is one change of unknown
    /// order: its marks share one number.
    pub fn changes(
        &mut self,
        t: u64,
        changes: &[SquareChange],
        game: &Game,
        settings: &Settings,
        out: &mut Vec<Verdict>,
    ) {
        self.sync(t, game, out);
        let expected = game.occupied();
        let pos = game.position();
        let mut ordered = changes.to_vec();
        ordered.sort_by_key(|c| {
            let theirs = pos.board().color_at(c.square) != Some(pos.turn());
            (c.t, c.occupied, theirs)
        });
        let unseen_until = self.unseen_until.take();
        let together = changes
            .first()
            .is_some_and(|c| unseen_until.is_some_and(|u| c.t <= u));
        if together {
            self.seq = self.seq.saturating_add(1);
            self.unseen_seq = Some(self.seq);
        } else if unseen_until.is_some() && self.occ == expected {
            // The board read when it was seen again showed the game:
            // nothing was done meanwhile that is still to be seen.
            self.after_outage = false;
            self.unseen_changes = false;
        }
        let mut put_down = Bitboard::EMPTY;
        for change in ordered {
            let sq = change.square;
            if !together {
                self.seq = self.seq.saturating_add(1);
            }
            if change.occupied {
                self.occ.add(sq);
                if self.adjusted.contains(sq) {
                    // The adjusted piece put back: no mark (4.2).
                    self.adjusted.discard(sq);
                    continue;
                }
                self.placed[sq as usize] = self.seq;
                put_down.add(sq);
                continue;
            }
            self.occ.discard(sq);
            if self.adjust_pending {
                // J'adoube (4.2): announced beforehand, not a touch, and
                // no lift that could make a move.
                self.adjust_pending = false;
                self.adjusted.add(sq);
                continue;
            }
            self.adjusted.discard(sq);
            self.lifted[sq as usize] = self.seq;
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
        if self.lag.is_none() && self.moves_for[game.turn()] {
            self.note_release(put_down & !expected, game);
        }
        self.settle_at = None;
        self.castle_at = None;
        self.evaluate(t, game, settings, false, false, out);
    }

    /// 4.6: a piece put down on an empty square as part of a legal move
    /// (the king on its castling square, the pawn on the en passant or
    /// promotion square) binds the move to that square. The first such
    /// release of the turn counts, and only where the board differs from
    /// the game on that move's squares alone, and was seen since the game
    /// was last seen: with another piece out of its aperture too, which
    /// piece was put down is not known.
    fn note_release(&mut self, squares: Bitboard, game: &Game) {
        // After an unseen interval which piece was put down is not known
        // either: a square may have been emptied and filled unseen.
        if self.released.is_some() || self.after_outage {
            return;
        }
        let expected = game.occupied();
        let differ = self.occ ^ expected;
        for sq in squares {
            let moves: MoveList = game
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| {
                    let fp = Footprint::of(m, game.turn(), expected);
                    differ.is_subset(fp.changed)
                        && fp
                            .arrivals
                            .iter()
                            .flatten()
                            .any(|&(to, from)| to == sq && self.marks().arrived(to, from))
                })
                .collect();
            if !moves.is_empty() {
                self.released = Some((sq, moves));
                return;
            }
        }
    }

    /// The `adjust` input: the next lift is an adjustment.
    pub fn adjust(&mut self, t: u64, game: &Game, out: &mut Vec<Verdict>) {
        self.sync(t, game, out);
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
        self.sync(t, game, out);
        self.promotion_choice = Some(role);
        self.evaluate(t, game, settings, false, false, out);
    }

    /// Fires the tracker's own timers that are due at `t`.
    pub fn on_timer(&mut self, t: u64, game: &Game, settings: &Settings, out: &mut Vec<Verdict>) {
        self.sync(t, game, out);
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
        self.sync(t, game, out);
        self.evaluate(t, game, settings, settled, false, out);
    }

    /// Were all pieces of the move taken out, and did every piece that lands
    /// on an occupied square land after its origin was emptied?
    fn executed(&self, fp: &Footprint) -> bool {
        self.marks().executed(fp)
    }

    /// Would the move be [`Tracker::executed`] if the changes of the one
    /// reading after an unseen interval, which share a number, had come in
    /// the order it needs?
    fn executed_loosely(&self, fp: &Footprint) -> bool {
        let Some(together) = self.unseen_seq else {
            return self.executed(fp);
        };
        fp.sources.into_iter().all(|s| self.lifted[s as usize] != 0)
            && fp.arrivals.iter().flatten().all(|&(to, from)| {
                let (placed, lifted) = (self.placed[to as usize], self.lifted[from as usize]);
                lifted != 0 && (placed > lifted || (placed == together && lifted == together))
            })
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
        // A board that was not seen when the game moved on (the arbiter
        // confirming a move made unseen) and shows the game's squares has
        // caught up: its landings could not be seen.
        let unseen_done = self.lag_unseen && self.occ == game.occupied();
        let judgement = if unseen_done {
            Judgement::Done
        } else {
            lag.judge(game.position(), self.occ, &self.marks())
        };
        match judgement {
            Judgement::Done => {
                self.lag = None;
                self.lag_unseen = false;
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

    /// Squares a piece was put down on during this turn.
    fn put_down_this_turn(&self) -> Bitboard {
        Square::ALL
            .into_iter()
            .filter(|&sq| self.placed[sq as usize] != 0)
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
        if game.is_over() || self.lost {
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
            // Not before the board has been read since it was seen again.
            if self.unseen_until.is_none() {
                self.after_outage = false;
                self.unseen_changes = false;
            }
            self.hinted = None;
            if self.reported.take().is_some() {
                out.push(Verdict::Restored);
            }
            return;
        }
        let pos = game.position();
        let color = pos.turn();
        let landed = self.landed_captures(pos, expected);
        // A piece standing where the game has an empty square, not put
        // there this turn (knocked over before the turn began): no move
        // of this player's is under way through it.
        let strays = board & !expected & !self.put_down_this_turn();
        // `fitting`: the moves that leave this board; `exact`: of those,
        // the ones seen made in the order the Laws ask; `loose`: the ones
        // that would be, had the changes of the one reading after an
        // unseen interval come in the order they need.
        let mut fitting = MoveList::new();
        let mut exact = MoveList::new();
        let mut loose = MoveList::new();
        let mut progressing = false;
        let mut castle_targets = Bitboard::EMPTY;
        for &m in &game.legal_moves() {
            let fp = Footprint::of(m, color, expected);
            let fits = fp.after == board;
            if fits {
                fitting.push(m);
                if self.executed_loosely(&fp) {
                    loose.push(m);
                }
            }
            if fits && self.executed(&fp) {
                exact.push(m);
            } else if landed.is_empty() && strays.is_empty() && fp.in_progress(expected, board) {
                progressing = true;
                if let Some(side) = m.castling_side() {
                    castle_targets.add(side.king_to(color));
                }
            }
        }

        // After an unseen interval the hands were not seen, and the board
        // alone does not say what they did: the changes of the one reading
        // after it came in no known order (docs/trace-format.md). So:
        // - moves seen made (their pieces taken up and put down in the
        //   Laws' order), when that reading's order could have made no
        //   other, are judged as ever: what was seen is preferred;
        // - else one move alone leaving the board is taken if a piece
        //   stands where the game has an empty square (a piece in the hand
        //   cannot do that);
        // - anything else may be pieces in the hand, or one of two moves
        //   (a capture of either of two pieces, Chess960 castling or the
        //   rook's move): it is said, and waits to be confirmed. Once said,
        //   what the hands do next is seen, and judged as ever.
        let mut unconfirmed = MoveList::new();
        if self.after_outage && !fitting.is_empty() {
            if let Some((_, bound)) = &self.released
                && fitting.iter().any(|m| bound.contains(m))
            {
                // 4.6: a piece released on a square this turn stays there.
                fitting.retain(|m| bound.contains(m));
                exact.retain(|m| bound.contains(m));
                loose.retain(|m| bound.contains(m));
            }
            let fills_empty = !(board & !expected).is_empty();
            let one = fitting
                .iter()
                .all(|m| (m.from(), m.to()) == (fitting[0].from(), fitting[0].to()));
            if !exact.is_empty() && exact == loose {
                // Seen made.
            } else if !exact.is_empty() {
                exact.clear();
                unconfirmed = loose;
            } else if one && fills_empty {
                exact = fitting;
            } else {
                unconfirmed = fitting;
            }
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
        if !unconfirmed.is_empty() {
            // Said once the board has been still as long as a hand may
            // rest with a piece in it.
            if self.hinted == Some(board) {
                self.settle_at = None;
            } else if !settled {
                if self.settle_at.is_none() {
                    self.settle_at = Some(t + settings.settle_ms * UNDERWAY_SETTLES);
                }
            } else {
                self.hinted = Some(board);
                // Said: from now on the hands are seen.
                self.after_outage = false;
                out.push(Verdict::Unconfirmed(unconfirmed.to_vec()));
            }
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
        // own squares are complete, with pieces knocked out of their
        // apertures or onto other squares elsewhere, is executed (the piece
        // was released, 4.6); what is left is then reported against the
        // new position.
        let knocks = self.executed_despite_knocks(pos, expected, game, settings);
        if let [m] = knocks[..] {
            self.execute(m, game, settings, true, out);
            return;
        }
        self.reported = Some(board);
        let (missing, extra) = super::replica::against(pos, board);
        let ours_out = expected & pos.us() & !board;
        // Only what was put down this turn can be the mover's doing.
        let put_elsewhere = board & !expected & !strays;
        let relocated = !ours_out.is_empty()
            && (!put_elsewhere.is_empty() || !landed.is_empty())
            && board.count() <= expected.count();
        // Several legal moves with a knocked piece fit: no guess, and no
        // illegal move either.
        if relocated && !self.after_outage && knocks.is_empty() {
            out.push(Verdict::Illegal { missing, extra });
        } else {
            out.push(Verdict::Mismatch { missing, extra });
        }
    }

    /// A legal move whose own squares are as it leaves them, made as the
    /// Laws say, while elsewhere pieces are missing (knocked out of their
    /// apertures) or stand on empty squares: each of those put there this
    /// turn must be a knocked piece of the opponent's, beside a square it
    /// is missing from (one of the mover's own set elsewhere would be a
    /// second move), and those there before the turn began are knocked
    /// pieces already. The move, if one alone
    /// fits; every one that fits, if several do.
    fn executed_despite_knocks(
        &self,
        pos: &Chess,
        expected: Bitboard,
        game: &Game,
        settings: &Settings,
    ) -> Vec<Move> {
        let board = self.occ;
        let put_down = self.put_down_this_turn();
        let mut found = MoveList::new();
        let mut with_knocks = false;
        for &m in &game.legal_moves() {
            let fp = Footprint::of(m, pos.turn(), expected);
            let own_squares_done = board & fp.changed == fp.after & fp.changed;
            let missing_elsewhere = expected & !board & !fp.changed;
            let knocked_onto = board & !expected & !fp.changed & put_down;
            let explained = knocked_from(knocked_onto, missing_elsewhere & pos.them());
            let choice_known = m.promotion().is_none()
                || m.promotion() == self.promotion_choice.or(settings.default_promotion);
            if own_squares_done && explained && choice_known && self.executed(&fp) {
                found.push(m);
                with_knocks |= !knocked_onto.is_empty();
            }
        }
        // Two moves that each explain the board, one of them with a piece
        // knocked onto a square (the queen on b6 and a piece knocked onto
        // g6, or the other way round), are not guessed between: the board
        // is reported. Without a knocked piece, touch-move chooses, as for
        // any two moves that leave the same board.
        let one = found
            .iter()
            .all(|m| (m.from(), m.to()) == (found[0].from(), found[0].to()));
        if found.is_empty() || (with_knocks && !one) {
            found.to_vec()
        } else {
            vec![self.choose(&found, pos, game.castling_mode(), settings)]
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
        // 4.6: a piece released earlier this turn narrows the choice.
        let bound: MoveList = match &self.released {
            Some((_, bound)) => moves
                .iter()
                .filter(|m| bound.contains(m))
                .copied()
                .collect(),
            None => MoveList::new(),
        };
        let pool = if bound.is_empty() { moves } else { &bound };
        if pool.len() > 1
            && let Some(ob) = obligation(pos, mode, &self.touches, settings.together_ms)
            && let Some(&m) = pool.iter().find(|&&m| ob.permits(m))
        {
            return m;
        }
        pool[0]
    }

    /// 4.6: the move breaks the release of a piece earlier this turn.
    fn release_broken(&self, m: Move) -> Option<Obligation> {
        let (sq, bound) = self.released.as_ref()?;
        if bound.contains(&m) {
            return None;
        }
        let article = if bound.iter().all(|m| m.is_castle()) {
            "4.6b"
        } else if bound.iter().all(|m| m.is_promotion()) {
            "4.6c"
        } else {
            "4.6"
        };
        Some(Obligation {
            allowed: bound.clone(),
            duty: Duty::Released(*sq),
            article,
        })
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
            self.release_broken(m).or_else(|| {
                obligation(
                    game.position(),
                    game.castling_mode(),
                    before_the_move(&self.touches, m),
                    settings.together_ms,
                )
                .filter(|ob| !ob.permits(m))
            })
        };
        self.settle_at = None;
        self.castle_at = None;
        if let Some(ob) = violation.clone()
            && settings.touch_policy == TouchPolicy::Enforce
        {
            // The refused move is not made: its own release binds nothing
            // (a release it broke still binds).
            if !matches!(ob.duty, Duty::Released(_)) {
                self.released = None;
            }
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

/// Can every square in `onto` hold a piece knocked from a square of `from`
/// next to it, each from a square of its own? A knocked piece falls beside
/// its aperture; one across the board was set there.
fn knocked_from(onto: Bitboard, from: Bitboard) -> bool {
    let mut left = from;
    onto.into_iter().all(|y| {
        let Some(k) = left.into_iter().find(|&k| k.distance(y) <= 1) else {
            return false;
        };
        left.discard(k);
        true
    })
}
