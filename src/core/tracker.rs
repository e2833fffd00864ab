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
use super::laws::Article;
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
    /// `made`: the instant of the reading that made it (4.6, E2.3), which
    /// is earlier than the verdict only when the tracker had to wait to be
    /// sure (a Chess960 king on its castling square, waiting for its rook).
    Execute {
        m: Move,
        violation: Option<Obligation>,
        settled: bool,
        made: u64,
    },
    /// Under the `enforce` policy: the move broke touch-move and is refused.
    Rejected { m: Move, obligation: Obligation },
    /// The promoted pawn's new piece is placed; its kind is not yet known.
    PromotionPending(Square),
    /// Under the 2008 Laws the new piece was put on the promotion square
    /// before the pawn was taken off: the move is made once the piece is
    /// released there after the pawn's removal (4.6c), so not yet.
    PromotionUnmade(Square),
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
    /// J'adoube said by the player to move (4.2; today 4.2.1): each piece
    /// he takes up is adjusted, not touched, until his move begins (a
    /// piece put on another square, or one adjusted taken up again).
    adjusting: bool,
    /// Squares whose piece was taken up under j'adoube and is still out.
    adjusted: Bitboard,
    /// How many pieces were taken up under this j'adoube.
    adjust_lifts: u32,
    /// Lifts handed back with a move's placements: read together with the
    /// opponent's release, they may be his hand (a piece knocked out), so
    /// they are nobody's touch when given again.
    untouched: Bitboard,
    /// Each adjusted square's marks before its piece was taken up, to put
    /// back with the piece.
    adjust_prior: Vec<(Square, Seq, Seq)>,
    /// A piece was put on another square while adjusted pieces were out:
    /// what no legal move explains is a displacement, not an illegal move.
    adjust_displaced: bool,
    /// The instant of the last reading that changed this board.
    changed_at: u64,
    /// Since when a Chess960 king stands on its castling square waiting
    /// for its rook: the instant its move is made if the rook never comes.
    castle_from: Option<u64>,
    /// The squares that castling and that king's move concern.
    castle_squares: Bitboard,
    /// The ply at which a reading ended that wait and was handed back to
    /// be taken after the king's move: handed back once, it is taken the
    /// next time (should the move not have been played, held or
    /// adjourned).
    handed_back: Option<u32>,
    promotion_choice: Option<Role>,
    /// The promotion square the piece was last asked for.
    promotion_said: Option<Square>,
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
    /// A promotion may be made piece first (today's Laws, 4.6.2).
    any_order: bool,
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
            adjusting: false,
            adjusted: Bitboard::EMPTY,
            adjust_lifts: 0,
            untouched: Bitboard::EMPTY,
            adjust_prior: Vec::new(),
            adjust_displaced: false,
            changed_at: 0,
            castle_from: None,
            castle_squares: Bitboard::EMPTY,
            handed_back: None,
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
            any_order: game.laws().promotion_in_any_order(),
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
                // A piece taken up before the game moved on (the opponent's
                // pawn lifted while his promotion was still being chosen)
                // and still out is in a hand: its lift begins the
                // replication.
                self.clear_turn_keeping_held(shown.board().occupied());
                self.reported = None;
                self.lag_unseen = self.unseen_changes;
                self.lag = Some(Lag { base: shown, moves });
            }
        }
    }

    /// Does `color` make his moves on this board?
    pub fn moves_for(&self, color: shakmaty::Color) -> bool {
        self.moves_for[color]
    }

    /// A move made and not yet judged: a Chess960 king on its castling
    /// square, waiting for its rook. When it was made (released), and
    /// when it will be judged at the latest.
    pub fn judging(&self) -> Option<(u64, u64)> {
        Some((self.castle_from?, self.castle_at?))
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
        self.adjusting = false;
        self.adjusted = Bitboard::EMPTY;
        self.adjust_lifts = 0;
        self.adjust_prior.clear();
        self.adjust_displaced = false;
        self.castle_from = None;
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
        self.castle_from = None;
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
        self.castle_from = None;
        self.changed_at = t;
        self.sync(game);
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

    /// Starts a new turn's state when the game has moved on.
    /// A board behind the game keeps its marks until it has caught up.
    ///
    /// A piece of the new position that is still out of its aperture was
    /// taken up before this turn and not put back: it is in a hand. Its
    /// lift is kept, so that the move it begins is seen whole, but it is
    /// nobody's touch: taken up outside its owner's turn, it may have been
    /// his hand or the opponent's (knocked out during the opponent's
    /// move), and no player is charged for what his opponent's hand may
    /// have done (4.3 binds the player having the move).
    fn sync(&mut self, game: &Game) {
        if self.ply == game.ply() || self.lag.is_some() {
            return;
        }
        self.ply = game.ply();
        self.clear_turn_keeping_held(game.occupied());
    }

    /// Forgets the turn's marks but the lifts of pieces of `expected` that
    /// are still out of their apertures: those are in a hand.
    fn clear_turn_keeping_held(&mut self, expected: Bitboard) {
        let held: Vec<(Seq, Square)> = (expected & !self.occ)
            .into_iter()
            .map(|sq| (self.lifted[sq as usize], sq))
            .filter(|&(seq, _)| seq != 0)
            .collect();
        self.clear_turn();
        for (seq, sq) in held {
            self.lifted[sq as usize] = seq;
        }
    }

    /// Would a lift of the piece on `sq` be a touch (E2.2, 4.3)? Only on a
    /// board the player to move plays on, in his turn, and only a piece of
    /// the game's position. On a board both players use a hand cannot be
    /// told from the other: there only the mover's own pieces are his
    /// touch; the opponent's piece taken up may be its owner's hand (taken
    /// early, re-seated) and is charged to nobody. On his own board every
    /// piece he takes up is his touch.
    fn touch_of(&self, sq: Square, game: &Game) -> Option<Piece> {
        let playing = self.lag.is_none() && self.moves_for[game.turn()] && !game.is_over();
        if !playing || !game.occupied().contains(sq) {
            return None;
        }
        let piece = game.position().board().piece_at(sq)?;
        let shared = self.moves_for[!game.turn()];
        (piece.color == game.turn() || !shared).then_some(piece)
    }

    /// Stable square changes that happened together at `t`.
    ///
    /// Changes of one instant came in one reading, in no order the board
    /// can tell. On a board the player to move plays on they are taken as
    /// the one order that loses no move: his own pieces taken up first
    /// (4.3c: when it is unclear, his own piece was touched first), then
    /// the placements, and then the opponent's pieces taken up; when the
    /// placements complete his move, the opponent's lifts are handed back
    /// (the changes returned), to be given again once the move is played:
    /// they began the opponent's turn. Elsewhere every lift comes before
    /// every placement (a piece is taken out before it is put anywhere).
    /// The first reading after an unseen interval is one change of
    /// unknown order: its marks share one number.
    pub fn changes(
        &mut self,
        t: u64,
        changes: &[SquareChange],
        game: &Game,
        settings: &Settings,
        out: &mut Vec<Verdict>,
    ) -> Vec<SquareChange> {
        self.sync(game);
        let pos = game.position();
        let playing = self.lag.is_none() && self.moves_for[game.turn()] && !game.is_over();
        if playing
            && self.castle_from.is_some()
            && self.handed_back != Some(game.ply())
            && changes
                .iter()
                .any(|c| !self.castle_squares.contains(c.square))
        {
            // A king waiting on its castling square for its rook, and the
            // hands at work elsewhere (the opponent taking up a piece to
            // reply, another piece): the king's move was made when it was
            // released, and this reading is after it.
            let before = out.len();
            self.evaluate(t, game, settings, false, true, out);
            if out[before..]
                .iter()
                .any(|v| matches!(v, Verdict::Execute { .. }))
            {
                self.handed_back = Some(game.ply());
                return changes.to_vec();
            }
        }
        let theirs =
            |c: &SquareChange| !c.occupied && pos.board().color_at(c.square) == Some(!pos.turn());
        let unseen = self
            .unseen_until
            .is_some_and(|u| changes.first().is_some_and(|c| c.t <= u));
        let split = playing && !unseen && changes.iter().any(|c| c.occupied);
        if !split {
            self.take(t, changes, game, settings, out);
            return Vec::new();
        }
        let (later, now): (Vec<SquareChange>, Vec<SquareChange>) =
            changes.iter().copied().partition(|c| theirs(c));
        let before = out.len();
        self.take(t, &now, game, settings, out);
        let executed = out[before..]
            .iter()
            .any(|v| matches!(v, Verdict::Execute { .. }));
        if executed || later.is_empty() {
            self.untouched = later.iter().map(|c| c.square).collect();
            return later;
        }
        self.take(t, &later, game, settings, out);
        Vec::new()
    }

    /// Would the piece on `sq`, with a piece of the game now out of its
    /// aperture, make one legal move's pieces (a capture, en passant,
    /// castling)?
    fn makes_a_move_with_one_out(&self, sq: Square, game: &Game) -> bool {
        let expected = game.occupied();
        let out = expected & !self.occ & !Bitboard::from(sq);
        game.legal_moves().iter().any(|&m| {
            let sources = Footprint::of(m, game.turn(), expected).sources;
            sources.contains(sq) && !(sources & out).is_empty()
        })
    }

    /// The j'adoube is over at `t` because the move has begun: the pieces
    /// taken up under it and still out are the move's, touched in the
    /// order they were taken up.
    fn end_adjustment(&mut self, t: u64, game: &Game, out: &mut Vec<Verdict>) {
        let mut out_now: Vec<Square> = self.adjusted.into_iter().collect();
        out_now.sort_by_key(|&s| self.lifted[s as usize]);
        for s in out_now {
            if let Some(piece) = self.touch_of(s, game)
                && !self.touches.iter().any(|x| x.square == s)
            {
                let touch = Touch {
                    square: s,
                    piece,
                    t,
                };
                self.touches.push(touch);
                out.push(Verdict::Touch(touch));
            }
        }
        self.adjusted = Bitboard::EMPTY;
        self.adjust_prior.clear();
    }

    /// Takes changes of one instant in order: see [`Tracker::changes`].
    fn take(
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
        let playing = self.lag.is_none() && self.moves_for[game.turn()] && !game.is_over();
        let mut ordered = changes.to_vec();
        ordered.sort_by_key(|c| {
            let theirs = pos.board().color_at(c.square) != Some(pos.turn());
            // On the mover's board his placements come before the
            // opponent's lifts (see `changes`); elsewhere lifts first.
            let rank = match (c.occupied, theirs) {
                (false, false) => 0,
                (false, true) if !playing => 0,
                (true, _) => 1,
                (false, true) => 2,
            };
            (c.t, rank, theirs)
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
        if !changes.is_empty() {
            self.changed_at = t;
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
                    // The adjusted piece put back on its square: as if
                    // it had never been taken up (4.2).
                    self.adjusted.discard(sq);
                    if let Some(i) = self.adjust_prior.iter().position(|p| p.0 == sq) {
                        let (_, lifted, placed) = self.adjust_prior.swap_remove(i);
                        self.lifted[sq as usize] = lifted;
                        self.placed[sq as usize] = placed;
                    }
                    continue;
                }
                if self.adjusting {
                    // A piece put on another square: the move begins, and
                    // the j'adoube is over. A piece taken up under it and
                    // still out may be the one put here: it is part of the
                    // move, touched (a king put on its castling square).
                    self.adjusting = false;
                    self.adjust_displaced |= !self.adjusted.is_empty();
                    self.end_adjustment(change.t, game, out);
                }
                self.placed[sq as usize] = self.seq;
                put_down.add(sq);
                continue;
            }
            self.occ.discard(sq);
            if self.adjusting
                && self.adjust_lifts > 0
                && expected.contains(sq)
                && self.makes_a_move_with_one_out(sq, game)
            {
                // Taken up while a piece is out with which it makes one
                // legal move (a capture, castling): no adjustment but the
                // move beginning. The pieces out are its part: touched, in
                // the order taken. (The first piece after the j'adoube is
                // always the one said for, even beside a piece in the
                // hand.)
                self.adjusting = false;
                self.end_adjustment(change.t, game, out);
            }
            if self.adjusting && playing && expected.contains(sq) {
                // J'adoube (4.2): announced beforehand, not a touch. Its
                // lift is kept, so that the piece put elsewhere is a move
                // (E2.3b), and forgotten when it is put back.
                self.adjusted.add(sq);
                self.adjust_lifts = self.adjust_lifts.saturating_add(1);
                self.adjust_prior
                    .push((sq, self.lifted[sq as usize], self.placed[sq as usize]));
                self.lifted[sq as usize] = self.seq;
                continue;
            }
            self.adjusted.discard(sq);
            self.lifted[sq as usize] = self.seq;
            if self.touches.iter().any(|t| t.square == sq) || self.untouched.contains(sq) {
                continue;
            }
            if let Some(piece) = self.touch_of(sq, game) {
                let touch = Touch {
                    square: sq,
                    piece,
                    t: change.t,
                };
                self.touches.push(touch);
                out.push(Verdict::Touch(touch));
            }
        }
        if playing {
            self.note_release(put_down & !expected, game);
        }
        self.untouched = Bitboard::EMPTY;
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

    /// The `adjust` input of the player to move, for this board he plays
    /// on: j'adoube (4.2; today 4.2.1). The pieces he takes up from now
    /// on are adjusted, not touched, until his move begins; each put back
    /// on its square leaves no mark. A new j'adoube covers pieces adjusted
    /// under an earlier one again.
    pub fn adjust(&mut self, game: &Game) {
        self.sync(game);
        if self.lag.is_none() && self.moves_for[game.turn()] && !game.is_over() {
            self.adjusting = true;
            self.adjust_lifts = 0;
        }
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

    /// Would the move be [`Tracker::executed`] if the changes of the one
    /// reading after an unseen interval, which share a number, had come in
    /// the order it needs?
    fn executed_loosely(&self, fp: &Footprint) -> bool {
        let Some(together) = self.unseen_seq else {
            return self.executed(fp);
        };
        let any_order = fp.promotion && self.any_order;
        fp.sources.into_iter().all(|s| self.lifted[s as usize] != 0)
            && fp.arrivals.iter().flatten().all(|&(to, from)| {
                let (placed, lifted) = (self.placed[to as usize], self.lifted[from as usize]);
                lifted != 0
                    && (placed > lifted
                        || (placed == together && lifted == together)
                        || (any_order && placed != 0))
            })
    }

    fn marks(&self) -> Marks<'_> {
        Marks {
            lifted: &self.lifted,
            placed: &self.placed,
            promotion_any_order: self.any_order,
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
            // A replication is no move: a promotion's new piece may go
            // down before the pawn comes off under either edition.
            let marks = Marks {
                promotion_any_order: true,
                ..self.marks()
            };
            lag.judge(game.position(), self.occ, &marks)
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
        // Pieces of the game out and nothing else: a hand may hold them as
        // long as in the middle of a replication (the opponent's pawn taken
        // up while the promotion on the other board is being chosen).
        let wait = if extra.is_empty() {
            settings.settle_ms * UNDERWAY_SETTLES
        } else {
            settings.settle_ms
        };
        let verdict = Verdict::Diverged { missing, extra };
        self.report_when_still(t, wait, settled, out, verdict);
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
            self.castle_from = None;
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
        // Promotions that fit but whose new piece went down before the
        // pawn came off, which the 2008 Laws do not count as made.
        let mut piece_first = MoveList::new();
        let mut progressing = false;
        // Moves under way on their own squares while elsewhere pieces are
        // only out of their apertures: their squares and the arrivals
        // they have made.
        let mut aside: Vec<(Bitboard, Vec<(Square, Square)>)> = Vec::new();
        // The squares a castling king lands on, for the castlings whose own
        // squares are on their way (whatever else differs).
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
            if let Some(side) = m.castling_side()
                && fp.in_progress(expected & fp.changed, board & fp.changed)
            {
                castle_targets.add(side.king_to(color));
            }
            if fits && self.executed(&fp) {
                exact.push(m);
            } else if landed.is_empty() && strays.is_empty() && fp.in_progress(expected, board) {
                progressing = true;
                if fits && self.marks().exchanged_piece_first(&fp) {
                    piece_first.push(m);
                }
            } else if landed.is_empty()
                && strays.is_empty()
                && ((board ^ expected) & !fp.changed & board).is_empty()
                && board & fp.changed != fp.after & fp.changed
                && !((board ^ expected) & fp.changed).is_empty()
                && fp.in_progress(expected & fp.changed, board & fp.changed)
            {
                // On its way on its own squares, while elsewhere pieces
                // are only out of their apertures (an opponent's piece
                // taken up early): a piece it has put down may be the one
                // another move seems to have released there (the king on
                // its castling square, the rook in the hand).
                let arrived = fp
                    .arrivals
                    .iter()
                    .flatten()
                    .copied()
                    .filter(|&(to, from)| {
                        board.contains(to)
                            && !expected.contains(to)
                            && self.marks().arrived(to, from)
                    })
                    .collect();
                aside.push((fp.changed, arrived));
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
        // A legal move made as the Laws say on its own squares, while
        // elsewhere pieces are out of their apertures (an opponent's piece
        // taken up early, a piece in the hand) or knocked onto a square
        // beside their own: it was made when it was released (4.6, E2.3),
        // and is judged at once when one move explains the board. Only
        // two moves that each fit with a knocked piece wait, to be reported.
        let mut knocked_between = false;
        let mut made = t;
        if exact.is_empty() && unconfirmed.is_empty() && !progressing && !self.after_outage {
            let (found, with_knocks) = self.executed_despite_knocks(pos, expected, game);
            let one = found
                .iter()
                .all(|m| (m.from(), m.to()) == (found[0].from(), found[0].to()));
            // A move under way may be what the board shows: another of
            // the mover's pieces put where the found move's piece seems
            // released, or the pieces he holds all its own (king and rook
            // taken up, the rook put down: castling, 4.4a). It is still
            // under way.
            let own_missing = expected & !board & pos.us();
            let under_way = found.iter().any(|&m| {
                let fp = Footprint::of(m, color, expected);
                aside.iter().any(|(changed, arrived)| {
                    let held = own_missing & !fp.changed;
                    let explains = !held.is_empty() && own_missing.is_subset(*changed);
                    let other = fp
                        .arrivals
                        .iter()
                        .flatten()
                        .any(|&(to, from)| arrived.iter().any(|&(a, f)| a == to && f != from));
                    explains || other
                })
            });
            if under_way {
                self.settle_at = None;
                return;
            }
            if !found.is_empty() && (one || !with_knocks) {
                exact = found;
            } else {
                knocked_between = !found.is_empty();
            }
        }
        if !exact.is_empty() {
            if exact.iter().all(|m| m.is_promotion()) {
                let choice = self.promotion_choice.or(settings.default_promotion);
                if let Some(&m) =
                    choice.and_then(|r| exact.iter().find(|m| m.promotion() == Some(r)))
                {
                    self.execute(m, game, settings, settled, made, out);
                } else if self.promotion_said != Some(exact[0].to()) {
                    self.promotion_said = Some(exact[0].to());
                    self.settle_at = None;
                    out.push(Verdict::PromotionPending(exact[0].to()));
                }
                return;
            }
            // Chess960: a king placed where castling would also put it waits
            // a moment for its rook (4.6b) before it counts as a king move,
            // made when it was released there.
            let king_on_castle_square = exact.iter().all(|m| {
                m.role() == Role::King && !m.is_castle() && castle_targets.contains(m.to())
            });
            if king_on_castle_square {
                let since = *self.castle_from.get_or_insert(self.changed_at);
                // The squares castling and the king's move concern: a
                // change anywhere else ends the wait (`changes`).
                self.castle_squares = game
                    .legal_moves()
                    .iter()
                    .chain(exact.iter())
                    .filter(|m| m.is_castle() || exact.contains(m))
                    .map(|&m| Footprint::of(m, color, expected).changed)
                    .fold(Bitboard::EMPTY, |a, b| a | b);
                if !castle_wait_over {
                    if self.castle_at.is_none() {
                        self.castle_at = Some((since + settings.castling_wait_ms).max(t));
                    }
                    return;
                }
                made = since;
            }
            let m = self.choose(&exact, pos, game.castling_mode(), settings);
            self.execute(m, game, settings, settled, made, out);
            return;
        }
        self.castle_from = None;
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
            // Under the 2008 Laws a promotion whose piece went down before
            // the pawn came off is not made (4.6c): said once the board is
            // still, for the piece to be released again.
            if let Some(&m) = piece_first.first() {
                if self.reported == Some(board) {
                    return;
                }
                if !settled {
                    if self.settle_at.is_none() {
                        self.settle_at = Some(t + settings.settle_ms);
                    }
                } else {
                    self.reported = Some(board);
                    out.push(Verdict::PromotionUnmade(m.to()));
                }
                return;
            }
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
        // The board has been still for the settle time.
        self.reported = Some(board);
        let (missing, extra) = super::replica::against(pos, board);
        let ours_out = expected & pos.us() & !board;
        // Only what was put down this turn can be the mover's doing.
        let put_elsewhere = board & !expected & !strays;
        let relocated = !ours_out.is_empty()
            && (!put_elsewhere.is_empty() || !landed.is_empty())
            && board.count() <= expected.count();
        // Several legal moves with a knocked piece fit: no guess, and no
        // illegal move either; nor a piece taken up under j'adoube and
        // put down elsewhere (4.2): a displacement to put right.
        if relocated && !self.after_outage && !knocked_between && !self.adjust_displaced {
            out.push(Verdict::Illegal { missing, extra });
        } else {
            out.push(Verdict::Mismatch { missing, extra });
        }
    }

    /// The legal moves whose own squares are as they leave them, made as
    /// the Laws say, while elsewhere pieces are missing (out of their
    /// apertures) or stand on empty squares: each of those put there this
    /// turn must be a knocked piece of the opponent's, beside a square it
    /// is missing from (one of the mover's own set elsewhere would be a
    /// second move), and those there before the turn began are knocked
    /// pieces already. With whether any of them needs a knocked piece.
    fn executed_despite_knocks(
        &self,
        pos: &Chess,
        expected: Bitboard,
        game: &Game,
    ) -> (MoveList, bool) {
        let board = self.occ;
        let put_down = self.put_down_this_turn();
        let mut found = MoveList::new();
        let mut with_knocks = false;
        for &m in &game.legal_moves() {
            let fp = Footprint::of(m, pos.turn(), expected);
            let own_squares_done = board & fp.changed == fp.after & fp.changed;
            let missing_elsewhere = expected & !board & !fp.changed;
            let knocked_onto = board & !expected & !fp.changed & put_down;
            // Each piece on a square the game has empty is an opponent's
            // piece: knocked over from beside it, or (when no piece of the
            // mover's own is out to be it) one of his that he put down
            // early, anywhere: never charged to the mover as his second
            // move.
            let theirs_out = missing_elsewhere & pos.them();
            let explained = knocked_from(knocked_onto, theirs_out)
                || ((missing_elsewhere & pos.us()).is_empty()
                    && knocked_onto.count() <= theirs_out.count());
            if own_squares_done && explained && self.executed(&fp) {
                found.push(m);
                with_knocks |= !knocked_onto.is_empty();
            }
        }
        (found, with_knocks)
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
            Article::ReleasedCastling
        } else if bound.iter().all(|m| m.is_promotion()) {
            Article::ReleasedPromotion
        } else {
            Article::Released
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
        made: u64,
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
            made,
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
