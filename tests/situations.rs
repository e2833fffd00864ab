//! Random games, standard and Chess960, played by simulated hands that do
//! what players do between the moves: a piece taken up before its owner's
//! turn, an opponent's piece knocked onto an empty square, several pieces
//! touched before the move, captures in either order, castling in every
//! handling, and the sensors lost or pegboard killed in the middle of any
//! of it.
//!
//! The player is simulated in a closed loop, as a real one listens: when
//! pegboard says a move may have been made unseen (`unconfirmed`) he puts
//! the moved pieces down again; when it asks for a promotion piece he
//! names it again; a knocked piece he puts back once told.
//!
//! What must hold, for every game: the moves announced are the game's, in
//! order, each announced only after the hands completed it (no move
//! nobody made, none made and never announced); no illegal move, no touch
//! violation; a mismatch only for a knocked piece.
//!
//! A failed game writes what pegboard was fed as a trace, named in the
//! failure (`pegboard replay` plays it); `PEGBOARD_SITUATION_SEED`,
//! `_START` (a Chess960 number, 960 for the standard start) and `_PLIES`
//! play that one game again.

use pegboard::announce::Phrasebook;
use pegboard::core::footprint::Footprint;
use pegboard::core::{BLIND_BOARD, Controller, Event, Input, Settings, Stamped, StartPosition};
use pegboard::sim::Rng;
use pegboard::trace::{self, Header, Reading};
use proptest::prelude::*;
use shakmaty::{Bitboard, CastlingMode, Chess, Move, Position, Role, Square};

/// What the hands do besides the move itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Aside {
    Plain,
    /// The next mover takes his piece up during this move.
    Early,
    /// An opponent's piece is knocked onto an empty square.
    Knock,
    /// Other pieces touched (and put back) before the move.
    Touches,
    /// The sensors are lost in the middle of the move.
    Outage,
    /// pegboard is killed in the middle of the move and started again.
    Restart,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    Lift(Square),
    Place(Square),
    Promote(Role),
}

/// The board, the hands and pegboard's controller, in one time line.
struct Table {
    c: Controller,
    events: Vec<Stamped>,
    read: usize,
    raw: Bitboard,
    /// The hands' time.
    t: u64,
    /// Time pegboard was off: not on the controller's clock.
    offset: u64,
    /// The controller reads the sensors (false while they are lost).
    sees: bool,
    /// pegboard is off.
    off: Option<u64>,
    rng: Rng,
    /// What the controller was fed, as trace lines: written out when a
    /// game fails, to be replayed (`pegboard replay`).
    fed: Vec<String>,
    /// An input (a key) was pressed while pegboard was off, and is lost.
    lost_input: bool,
}

impl Table {
    fn now(&self) -> u64 {
        self.t - self.offset
    }

    fn wait(&mut self, ms: u64) {
        self.t += ms;
        if self.off.is_none() {
            let now = self.now();
            self.c.advance(now, &mut self.events);
        }
    }

    /// A short human pause between two actions of one move.
    fn pause(&mut self) {
        let ms = self.rng.range(120, 450);
        self.wait(ms);
    }

    fn set(&mut self, sq: Square, on: bool) {
        self.raw.set(sq, on);
        if self.sees && self.off.is_none() {
            let now = self.now();
            self.scan(now);
        }
    }

    fn scan(&mut self, now: u64) {
        let reading = Reading::Scan {
            board: BLIND_BOARD.to_string(),
            occ: self.raw,
        };
        self.fed.push(trace::write_line(now, &reading));
        self.c.scan(now, 0, self.raw, &mut self.events);
    }

    fn input(&mut self, input: Input) {
        self.lost_input |= self.off.is_some();
        if self.off.is_none() {
            let now = self.now();
            self.fed
                .push(trace::write_line(now, &Reading::Input(input.clone())));
            self.c.input(now, input, &mut self.events);
        }
    }

    fn act(&mut self, act: Act) {
        match act {
            Act::Lift(sq) => self.set(sq, false),
            Act::Place(sq) => self.set(sq, true),
            Act::Promote(role) => self.input(Input::Promote(role)),
        }
        self.pause();
    }

    fn lose(&mut self, aside: Aside) {
        match aside {
            Aside::Outage => {
                self.input(Input::BoardLost);
                self.sees = false;
            }
            _ => self.off = Some(self.t),
        }
    }

    fn back(&mut self) {
        if let Some(since) = self.off.take() {
            self.offset += self.t - since;
            self.input(Input::Restarted { hold: true });
        } else {
            self.sees = true;
            self.input(Input::BoardBack);
        }
        // The reading taken when the board is seen again, which lasts.
        let now = self.now();
        self.scan(now);
        self.pause();
    }

    /// Events not looked at yet.
    fn news(&mut self) -> Vec<Event> {
        let new = self.events[self.read..]
            .iter()
            .map(|s| s.event.clone())
            .collect();
        self.read = self.events.len();
        new
    }
}

/// Does any legal move capture the piece on `sq`?
fn capturable(pos: &Chess, sq: Square) -> bool {
    pos.legal_moves().iter().any(|m| match m {
        Move::Normal { capture, to, .. } => capture.is_some() && *to == sq,
        Move::EnPassant { from, to } => Square::from_coords(to.file(), from.rank()) == sq,
        _ => false,
    })
}

/// The hands' actions that make `m` in `pos`, in a random lawful order.
fn actions(pos: &Chess, m: Move, rng: &mut Rng, mode: CastlingMode) -> Vec<Act> {
    let mut acts = Vec::new();
    let promote_first = rng.chance(50);
    if let (Some(role), true) = (m.promotion(), promote_first) {
        acts.push(Act::Promote(role));
    }
    match m {
        Move::Normal {
            from, to, capture, ..
        } => {
            if capture.is_some() && rng.chance(50) {
                acts.extend([Act::Lift(to), Act::Lift(from)]);
            } else {
                acts.push(Act::Lift(from));
                if capture.is_some() {
                    acts.push(Act::Lift(to));
                }
            }
            acts.push(Act::Place(to));
        }
        Move::EnPassant { from, to } => {
            let victim = Square::from_coords(to.file(), from.rank());
            acts.extend(match rng.range(0, 2) {
                0 => [Act::Lift(victim), Act::Lift(from), Act::Place(to)],
                1 => [Act::Lift(from), Act::Place(to), Act::Lift(victim)],
                _ => [Act::Lift(from), Act::Lift(victim), Act::Place(to)],
            });
        }
        Move::Castle { king, rook } => {
            let side = m
                .castling_side()
                .unwrap_or(shakmaty::CastlingSide::KingSide);
            let (king_to, rook_to) = (side.king_to(pos.turn()), side.rook_to(pos.turn()));
            if mode == CastlingMode::Standard && rng.chance(50) {
                // 4.6b: the king released on its square first.
                acts.extend([
                    Act::Lift(king),
                    Act::Place(king_to),
                    Act::Lift(rook),
                    Act::Place(rook_to),
                ]);
            } else {
                let mut puts = Vec::new();
                if king != king_to {
                    acts.push(Act::Lift(king));
                    puts.push(Act::Place(king_to));
                }
                if rook != rook_to {
                    acts.push(Act::Lift(rook));
                    puts.push(Act::Place(rook_to));
                }
                if rng.chance(50) {
                    puts.reverse();
                }
                acts.extend(puts);
            }
        }
        Move::Put { .. } => {}
    }
    if let (Some(role), false) = (m.promotion(), promote_first) {
        acts.push(Act::Promote(role));
    }
    acts
}

/// A random legal game from `start`, castling whenever the dice allow.
fn random_game(start: &Chess, rng: &mut Rng, plies: usize) -> Vec<Move> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() || pos.is_insufficient_material() {
            break;
        }
        let castles: Vec<Move> = legal.iter().copied().filter(|m| m.is_castle()).collect();
        let m = if !castles.is_empty() && rng.chance(60) {
            castles[rng.range(0, castles.len() as u64 - 1) as usize]
        } else {
            legal[rng.range(0, legal.len() as u64 - 1) as usize]
        };
        pos.play_unchecked(m);
        moves.push(m);
    }
    moves
}

/// What a game played at the table gave.
#[derive(Debug, Default)]
struct Outcome {
    failures: Vec<String>,
    /// The trace the controller was fed.
    trace: Vec<String>,
    knocks: usize,
    mismatches: usize,
}

/// Plays `moves` from `start` at a table whose hands do what the dice
/// say; a failed game's trace is written to the system's temporary
/// directory, named in the failure.
fn play(start: StartPosition, moves: &[Move], seed: u64) -> Outcome {
    let mut out = play_at_table(start, moves, seed);
    if out.mismatches != out.knocks {
        out.failures.push(format!(
            "{} mismatches for {} knocked pieces: a mismatch only for a knocked piece",
            out.mismatches, out.knocks
        ));
    }
    if !out.failures.is_empty() {
        let path = std::env::temp_dir().join(format!("pegboard-situation-{seed}.jsonl"));
        if std::fs::write(&path, out.trace.join("\n") + "\n").is_ok() {
            out.failures.push(format!("the trace: {}", path.display()));
        }
    }
    out
}

fn play_at_table(start: StartPosition, moves: &[Move], seed: u64) -> Outcome {
    let (pos0, mode) = start.position().expect("a start position");
    let c = Controller::new(
        &start,
        Settings::default(),
        Phrasebook::default(),
        &[BLIND_BOARD],
    )
    .expect("a controller");
    let mut table = Table {
        c,
        events: Vec::new(),
        read: 0,
        raw: pos0.board().occupied(),
        t: 0,
        offset: 0,
        sees: true,
        off: None,
        rng: Rng::new(seed),
        fed: Vec::new(),
        lost_input: false,
    };
    let header = Reading::Header(Header {
        start: start.clone(),
        ..Header::default()
    });
    table.fed.push(trace::write_line(0, &header));
    let mut out = Outcome::default();
    let mut pos = pos0.clone();
    macro_rules! fail {
        () => {{
            out.trace = table.fed.clone();
            return out;
        }};
    }
    // A piece taken up early for the next move: already out of the board.
    let mut early: Option<Square> = None;
    // A piece knocked over (from, onto), until its owner puts it back.
    let mut knocked: Option<(Square, Square)> = None;
    for (ply, &m) in moves.iter().enumerate() {
        let ply = ply as u32 + 1;
        let mut acts = actions(&pos, m, &mut table.rng, mode);
        let in_hand = early.take();
        if let Some(sq) = in_hand
            && let Some(i) = acts.iter().position(|&a| a == Act::Lift(sq))
        {
            acts.remove(i);
        }
        let next = moves.get(ply as usize).copied();
        let mut aside = choose_aside(&mut table.rng, &pos, m, next);
        if in_hand.is_some() && aside == Aside::Touches {
            // The piece to move is in the hand already.
            aside = Aside::Plain;
        }
        if next.is_none() && aside == Aside::Knock {
            // After the last move (a mate, say) the board is not judged.
            aside = Aside::Plain;
        }
        let think = table.rng.range(300, 2500);
        table.wait(think);
        match aside {
            Aside::Early => {
                // Never before the mover's first action: a piece off the
                // board alone for the settle time is a mismatch.
                let sq = next.and_then(|n| n.from()).expect("checked");
                let at = match acts.len() {
                    0 | 1 => 0,
                    n => table.rng.range(1, n as u64 - 1) as usize,
                };
                acts.insert(at, Act::Lift(sq));
                early = Some(sq);
            }
            Aside::Knock => {
                let (k, y) = knock_squares(&pos, m, &mut table.rng).expect("checked");
                let at = acts.len() - 1;
                acts.splice(at..at, [Act::Lift(k), Act::Place(y)]);
                knocked = Some((k, y));
                out.knocks += 1;
            }
            Aside::Touches => {
                let others = touchable(&pos, m);
                let mut pre = vec![
                    Act::Lift(m.from().expect("a move")),
                    Act::Place(m.from().expect("a move")),
                ];
                for _ in 0..table.rng.range(1, 2) {
                    if others.is_empty() {
                        break;
                    }
                    let o = others[table.rng.range(0, others.len() as u64 - 1) as usize];
                    pre.extend([Act::Lift(o), Act::Place(o)]);
                }
                acts.splice(0..0, pre);
            }
            _ => {}
        }
        // The outage: from before action `from` to before action `to`.
        let window = matches!(aside, Aside::Outage | Aside::Restart).then(|| {
            let from = table.rng.range(0, acts.len() as u64) as usize;
            let to = table.rng.range(from as u64, acts.len() as u64) as usize;
            // Chess960 castling whose king or rook comes down where the
            // other stood, that square emptied and filled again unseen,
            // cannot be told from the king's or the rook's move that the
            // hands are then seen finishing: a limit of the board
            // (docs/trace-format.md), left out here.
            let hidden_return = m.is_castle()
                && acts[from..to].iter().any(|&a| match a {
                    Act::Lift(sq) => acts[from..to].contains(&Act::Place(sq)),
                    _ => false,
                });
            if hidden_return {
                (from, from)
            } else {
                (from, to)
            }
        });
        let mut done_at = 0;
        for i in 0..=acts.len() {
            if let Some((from, to)) = window {
                if i == from {
                    table.lose(aside);
                }
                if i == to {
                    let away = table.rng.range(0, 3000);
                    table.wait(away);
                    table.back();
                    // What the hands did unseen, pegboard sees now.
                    if acts[from..to].iter().any(|a| matches!(a, Act::Place(_))) {
                        done_at = table.now();
                    }
                }
            }
            if let Some(&a) = acts.get(i) {
                table.act(a);
                if matches!(a, Act::Place(_)) && table.sees && table.off.is_none() {
                    done_at = table.now();
                }
            }
        }
        // The move is complete on the board: listen until it is announced.
        let mut reseated = false;
        let mut announced = None;
        let swap = m.is_castle()
            && Footprint::of(m, pos.turn(), pos.board().occupied()).after == pos.board().occupied();
        let swap_unseen = swap && window.is_some_and(|(from, to)| from < to);
        for i in 0..160 {
            for e in table.news() {
                match e {
                    Event::Move {
                        ply: p, ref san, ..
                    } if p == ply => announced = Some((san.clone(), table.now())),
                    Event::Move { ply: p, san, .. } => {
                        out.failures.push(format!(
                            "ply {p} ({san}) announced while ply {ply} was made"
                        ));
                        fail!();
                    }
                    Event::Unconfirmed { moves, .. }
                        if !reseated && moves.contains(&m.to_uci(mode).to_string()) =>
                    {
                        reseated = true;
                        done_at = reseat(&mut table, &pos, m);
                    }
                    // A promotion piece named while pegboard was off is
                    // named again when it asks.
                    Event::PromotionPending { .. } if table.lost_input => {
                        table.lost_input = false;
                        if let Some(role) = m.promotion() {
                            table.input(Input::Promote(role));
                        }
                    }
                    Event::Illegal { say, .. } => {
                        out.failures.push(format!("ply {ply}: illegal: {say}"))
                    }
                    Event::TouchViolation { say, article, .. } => out
                        .failures
                        .push(format!("ply {ply}: touch violation {article}: {say}")),
                    Event::Mismatch { .. } => {
                        out.mismatches += 1;
                        // The knocked piece, put back once told.
                        if let Some((k, y)) = knocked.take() {
                            table.act(Act::Lift(y));
                            table.act(Act::Place(k));
                        }
                    }
                    _ => {}
                }
            }
            if announced.is_some()
                && (aside != Aside::Knock
                    || table.raw == {
                        let mut after = pos.clone();
                        after.play_unchecked(m);
                        after.board().occupied()
                    })
            {
                break;
            }
            // Chess960 castling in which king and rook trade squares leaves
            // the board as it was: only each piece seen taken up and put
            // down shows it. Made partly while pegboard could not see,
            // nothing may show it; the player, hearing nothing, puts the
            // two pieces down again (docs/trace-format.md).
            if i == 40 && announced.is_none() && !reseated && swap_unseen {
                reseated = true;
                done_at = reseat(&mut table, &pos, m);
            }
            table.wait(250);
        }
        let want = shakmaty::san::SanPlus::from_move(pos.clone(), m).to_string();
        match announced {
            Some((san, t)) if san == want => {
                if t < done_at {
                    out.failures.push(format!(
                        "ply {ply} ({san}) announced at {t}, made at {done_at}"
                    ));
                }
            }
            Some((san, _)) => {
                out.failures.push(format!(
                    "ply {ply}: {san} announced, {want} made ({aside:?})"
                ));
                fail!();
            }
            None => {
                out.failures
                    .push(format!("ply {ply}: {want} never announced ({aside:?})"));
                fail!();
            }
        }
        pos.play_unchecked(m);
        out.trace = table.fed.clone();
        if !out.failures.is_empty() {
            return out;
        }
    }
    out.trace = table.fed.clone();
    out
}

/// The player puts the pieces of `m` down again, to confirm a move made
/// unseen: each taken up, then each put down. When the last is down.
fn reseat(table: &mut Table, pos: &Chess, m: Move) -> u64 {
    let fp = Footprint::of(m, pos.turn(), pos.board().occupied());
    let dests: Vec<Square> = fp.arrivals.iter().flatten().map(|&(to, _)| to).collect();
    for &d in &dests {
        table.act(Act::Lift(d));
    }
    for &d in &dests {
        table.act(Act::Place(d));
    }
    table.now()
}

fn choose_aside(rng: &mut Rng, pos: &Chess, m: Move, next: Option<Move>) -> Aside {
    let roll = rng.range(0, 99);
    let early_ok = next
        .is_some_and(|n| !n.is_castle() && n.from().is_some_and(|sq| !capturable(pos, sq)))
        && !m.is_promotion();
    let plain_normal = matches!(
        m,
        Move::Normal {
            capture: None,
            promotion: None,
            ..
        }
    );
    match roll {
        0..=14 if early_ok => Aside::Early,
        15..=26 if plain_normal && knock_squares(pos, m, &mut rng.clone()).is_some() => {
            Aside::Knock
        }
        27..=44 if !m.is_castle() => Aside::Touches,
        45..=62 => Aside::Outage,
        63..=77 => Aside::Restart,
        _ => Aside::Plain,
    }
}

/// An opponent's piece (not king or rook, not capturable) and an empty
/// square next to it, away from the move.
fn knock_squares(pos: &Chess, m: Move, rng: &mut Rng) -> Option<(Square, Square)> {
    let theirs = pos.them() & !pos.board().kings() & !pos.board().rooks();
    let occupied = pos.board().occupied();
    let mut pairs = Vec::new();
    for k in theirs {
        if capturable(pos, k) {
            continue;
        }
        for y in shakmaty::attacks::king_attacks(k) {
            if !occupied.contains(y) && Some(y) != Some(m.to()) {
                pairs.push((k, y));
            }
        }
    }
    if pairs.is_empty() {
        return None;
    }
    Some(pairs[rng.range(0, pairs.len() as u64 - 1) as usize])
}

/// Pieces that may be touched before `m` without binding the player to
/// another move: his own but the king and rooks, and the opponent's that
/// nothing can capture.
fn touchable(pos: &Chess, m: Move) -> Vec<Square> {
    let b = pos.board();
    let own = pos.us() & !b.kings() & !b.rooks();
    let theirs = pos.them();
    own.into_iter()
        .filter(|&sq| Some(sq) != m.from() && Some(sq) != Some(m.to()))
        .chain(theirs.into_iter().filter(|&sq| !capturable(pos, sq)))
        .filter(|&sq| {
            !Footprint::of(m, pos.turn(), b.occupied())
                .changed
                .contains(sq)
        })
        .collect()
}

/// A number given in the environment, to play one failed game again.
fn replayed(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|s| s.parse().ok())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, .. ProptestConfig::default() })]

    #[test]
    fn random_games_with_the_situations_in_between_give_the_games_moves(
        seed in replayed("PEGBOARD_SITUATION_SEED").map_or(any::<u64>().boxed(), |s| Just(s).boxed()),
        chess960 in prop::bool::weighted(0.3),
        number in 0u32..960,
        plies in 10usize..60,
    ) {
        // One game again, as a failure named it: its seed, its Chess960
        // number (960 for the standard start) and its length.
        let (chess960, number, plies) = match replayed("PEGBOARD_SITUATION_START") {
            Some(n) => (n < 960, n as u32, replayed("PEGBOARD_SITUATION_PLIES").map_or(plies, |p| p as usize)),
            None => (chess960, number, plies),
        };
        let start = if chess960 {
            StartPosition::chess960(number).expect("a Chess960 number")
        } else {
            StartPosition::default()
        };
        let (pos, _) = start.position().expect("a start position");
        let mut rng = Rng::new(seed ^ 0x5eed);
        let moves = random_game(&pos, &mut rng, plies);
        let outcome = play(start, &moves, seed);
        prop_assert!(outcome.failures.is_empty(), "{:?}", outcome.failures);
    }
}
