//! The controller: raw scans and inputs in, events out.
//!
//! A pure state machine. Time is a value passed in with every call; timers
//! (debounce windows, settle and castling waits) fire at exact simulated
//! instants through [`Controller::advance`], so a replay is deterministic
//! and every rule can be tested from a trace.
//!
//! By job: this file wires the debouncers, trackers, game and clock and
//! turns the trackers' verdicts into events; `inputs` takes the keys',
//! console's and arbiter's inputs and answers questions; `arbiter` keeps
//! the clock and applies the arbiter's rules. Every sentence comes from the
//! phrasebook.

use shakmaty::{Bitboard, ByColor, CastlingMode, Chess, Color, Piece, Position, Square};

use super::clock::{Class, Clock, Signal};
use super::debounce::{Debouncer, SquareChange};
use super::event::{ClockCause, Event, MissingPiece, Side, Stamped, piece_letter};
use super::game::{ClaimOutcome, Ending, Game, Reason, StartError, StartPosition};
use super::input::{ClockSetting, Input, QuickplayRuling};
use super::laws::Article;
use super::settings::{BLIND_BOARD, ClockStart, FlagRule, Seat, Settings};
use super::touch::{Duty, Obligation};
use super::tracker::{Tracker, Verdict};
use crate::core::notices::Notice;
use crate::core::said::Said;

mod arbiter;
mod inputs;
mod menu;
mod online;
mod opening;
mod practice;
mod review;

pub use practice::{Judged, Wanted};

/// The boards a game is played with: `named`, and every board a player
/// moves on (`settings.seats`), each once.
pub fn boards_of(named: &[&str], settings: &Settings) -> Vec<String> {
    let mut boards: Vec<String> = named.iter().map(|s| s.to_string()).collect();
    for seat in [&settings.seats.white, &settings.seats.black] {
        if let Some(b) = seat.board()
            && !boards.iter().any(|x| x == b)
        {
            boards.push(b.to_string());
        }
    }
    boards
}

#[derive(Debug, Clone)]
struct BoardView {
    name: String,
    debounce: Debouncer,
    tracker: Tracker,
    /// A move made here waits while another board differs from the game
    /// (`hold_on_divergence`).
    held: bool,
}

#[derive(Debug, Clone)]
pub struct Controller {
    settings: Settings,
    game: Game,
    boards: Vec<BoardView>,
    /// The earliest instant at which any timer fires.
    deadline: Option<u64>,
    changes: Vec<SquareChange>,
    /// The highest ply whose announcement has started (E2.3c).
    announced: u32,
    /// The clock, if a time control is set.
    clock: Option<Clock>,
    /// When a `new_game` during a game under way asked to be confirmed.
    new_game_asked: Option<u64>,
    /// When a `setup` during a game under way asked to be confirmed, and
    /// which.
    setup_asked: Option<(u64, super::input::Setup)>,
    /// When each player's resign key was first pressed.
    resign_asked: ByColor<Option<u64>>,
    /// When the console asked to resign for each colour (its own asking,
    /// apart from the key's).
    console_resign_asked: ByColor<Option<u64>>,
    /// The `new_game` event has gone out: this game is finished with.
    new_game_given: bool,
    /// The position the next game starts from, when the arbiter set one
    /// up (`setup`); else the same as this game's.
    next_start: Option<StartPosition>,
    /// `next_start` is for the next game only (a mistake's position from
    /// the review): the game after it begins where this one began.
    next_start_once: bool,
    /// The person's colour in that game (the colour of the mistake).
    next_start_person: Option<Color>,
    /// This game's start is for it alone, and it began at this instant:
    /// a board whose first reading differs from the start is guided to it.
    set_up_at: Option<u64>,
    /// The start the games here began from before an online game began
    /// from the server's (a Chess960 position, a set position): the next
    /// game begins there again.
    home_start: Option<(Chess, CastlingMode)>,
    /// The games under way on the server the player is choosing among
    /// (a new game the last choice), and the one he is at.
    online_choice: Option<(Vec<crate::core::online::OnlineChoice>, usize)>,
    /// The ply at which the player last offered a draw in the online game.
    online_draw_at: Option<u32>,
    /// The move sealed at an adjournment (E2.9f), until the game resumes.
    sealed: Option<shakmaty::Move>,
    /// The last move relayed from the console, which may be taken back
    /// for a short while: the ply it made, when, and the clock before it.
    relayed_last: Option<RelayedLast>,
    /// Practice against the engine: what the player asked of it, the
    /// review, the clocks before each move.
    practice: practice::Practice,
    /// The spoken menu.
    menu: super::menu::Menu,
    /// What the next game starts with: this game's choices, until the
    /// player saves others in the menu.
    chosen: super::settings::Choices,
    /// The online game this is, once the server started it.
    online: Option<super::online::OnlineGame>,
    /// The server's last clock reading (the ply it counts, White's and
    /// Black's times), until the moves it counts are pressed here.
    server_clock: Option<(u32, u64, u64)>,
    /// The online opponent left the game (and has not come back).
    opponent_gone: Option<u64>,
    /// The online opponent's request to take back a move stands, made at
    /// this ply (a move made since ends it, as on lichess).
    takeback_offer: Option<u32>,
    /// After an online game, the opponent offers a rematch.
    rematch_offer: bool,
    /// The last move, when pegboard judged it later than it was made (a
    /// Chess960 king waiting on its castling square for its rook): its
    /// ply, when it was made and when it was judged. Its clock press is
    /// counted from when it was made (4.6, E2.3), and the mover's flag
    /// does not fall meanwhile for a move made before it.
    judged_late: Option<JudgedLate>,
    /// A draw claimed under the quickplay finish (10.2; today III.5),
    /// until the arbiter rules on it.
    quickplay: Option<QuickplayClaim>,
    /// The ply at which the player asked for the opening's name, until
    /// its classification answers.
    opening_asked: Option<u32>,
}

/// A quickplay-finish claim the arbiter has yet to rule on.
#[derive(Debug, Clone, Copy)]
struct QuickplayClaim {
    /// Who claimed.
    color: Color,
    /// The opponent was given his two minutes at a postponement.
    extra_given: bool,
    /// A flag that fell meanwhile: it counts only if the claim is
    /// rejected (the arbiter declares the result after it, 10.2b).
    flag: Option<Color>,
}

/// A move judged later than it was made, or the engine's move.
#[derive(Debug, Clone, Copy)]
struct JudgedLate {
    ply: u32,
    made: u64,
    judged: u64,
    /// The engine's move: its time stops when it is made, and its flag
    /// waits for the announcement (behind the blind player's own move,
    /// say), up to [`ENGINE_ANNOUNCED_WITHIN`]: the engine does not have
    /// to speak.
    engine: bool,
}

/// How long after its judgement a move judged late holds its mover's
/// flag for its announcement (the voices start within a second and a
/// half, a move never waits behind anything but another move).
const ANNOUNCED_WITHIN: u64 = 5_000;

/// How long the engine's flag waits for its move to be said: behind the
/// blind player's own move and any answer being said, but not for ever
/// (should no voice say it, the clocks must not stand still).
const ENGINE_ANNOUNCED_WITHIN: u64 = 30_000;

/// A relayed move that can still be taken back (the assistant relayed a
/// wrong move, and the arbiter corrects it at once).
#[derive(Debug, Clone)]
struct RelayedLast {
    ply: u32,
    t: u64,
    /// Who made it, and his side of the clock before it.
    mover: Color,
    before: Option<super::clock::Before>,
}

/// How long a relayed move can be taken back (ms).
pub const TAKE_BACK_WITHIN: u64 = 10_000;

/// How long a `new_game` waits for its confirmation (ms).
const NEW_GAME_CONFIRM_WITHIN: u64 = 10_000;

/// The standard penalty time (7.4b, 10.2; today 7.5.5, III.5).
const TWO_MINUTES: u64 = 120_000;

impl Controller {
    /// A controller for a game from `start`, with one board per name.
    /// Every board is believed to show the start position until it is read.
    pub fn new(
        start: &StartPosition,
        settings: Settings,
        board_names: &[&str],
    ) -> Result<Controller, StartError> {
        let game = Game::from_start(start)?.with_laws(settings.laws);
        Ok(Controller::with_game(game, settings, board_names))
    }

    fn with_game(game: Game, settings: Settings, board_names: &[&str]) -> Controller {
        let boards = board_names
            .iter()
            .map(|&name| BoardView {
                name: name.to_string(),
                debounce: Debouncer::new(settings.debounce_ms, game.occupied()),
                tracker: Tracker::new(game.occupied(), &game, settings.seats.moving_on(name)),
                held: false,
            })
            .collect();
        let menu = if settings.tournament {
            super::menu::Menu::rated()
        } else {
            super::menu::Menu::new(settings.online_friends.clone())
        };
        let clock = settings.clock.control.clone().map(|control| {
            let (warn, player) = (settings.clock.warn, settings.preferences.color);
            Clock::new(control)
                .with_increment(settings.clock.increment)
                .with_first_moves_free(settings.clock.start == ClockStart::FirstMoves)
                .with_warnings(
                    &settings.clock.warnings_ms,
                    ByColor::new_with(|c| warn.includes(c, player)),
                )
        });
        Controller {
            chosen: settings.preferences.clone(),
            settings,
            game,
            boards,
            deadline: None,
            changes: Vec::new(),
            announced: 0,
            clock,
            new_game_asked: None,
            setup_asked: None,
            resign_asked: ByColor::default(),
            console_resign_asked: ByColor::default(),
            new_game_given: false,
            next_start: None,
            next_start_once: false,
            next_start_person: None,
            set_up_at: None,
            home_start: None,
            online_choice: None,
            online_draw_at: None,
            sealed: None,
            relayed_last: None,
            practice: practice::Practice::default(),
            menu,
            online: None,
            server_clock: None,
            opponent_gone: None,
            takeback_offer: None,
            rematch_offer: false,
            judged_late: None,
            quickplay: None,
            opening_asked: None,
        }
    }

    /// The next game after a `new_game` event, from the same start
    /// position with the same settings but for what the player chose in
    /// the menu (the seats, the time control, the language), opened at `t`
    /// (its `ready` and clock events go to `out`). Each of its boards starts from the raw
    /// reading this controller has last seen: a journal that opens with
    /// the start and those readings rebuilds it exactly.
    pub fn next_game(&self, t: u64, out: &mut Vec<Stamped>) -> Controller {
        let set_up = self
            .next_start
            .as_ref()
            .and_then(|s| s.position().ok())
            .map(|(pos, mode)| Game::new(pos, mode));
        let game = set_up.unwrap_or_else(|| match &self.home_start {
            Some((pos, mode)) => Game::new(pos.clone(), *mode),
            None => Game::new(
                self.game.start_position().clone(),
                self.game.castling_mode(),
            ),
        });
        let names: Vec<&str> = self.board_names().collect();
        let mut settings = self.settings.clone();
        self.chosen.apply(&mut settings);
        if let (true, Some(person)) = (self.next_start_once, self.next_start_person) {
            // A mistake's position: the person moves there, on his board,
            // against the engine, whatever the menu chose for later games.
            let own = [&self.settings.seats.white, &self.settings.seats.black]
                .into_iter()
                .find(|s| matches!(s, Seat::Board(_)))
                .cloned()
                .unwrap_or_else(|| Seat::Board(BLIND_BOARD.to_string()));
            let (white, black) = match person {
                Color::White => (own, Seat::Engine),
                Color::Black => (Seat::Engine, own),
            };
            settings.seats.white = white;
            settings.seats.black = black;
        }
        let game = game.with_laws(settings.laws);
        let mut next = Controller::with_game(game, settings, &names);
        next.start(t, out);
        if self.next_start_once {
            // The game after the set-up one begins where this one began.
            let (pos, mode) = self.home_start.clone().unwrap_or_else(|| {
                (
                    self.game.start_position().clone(),
                    self.game.castling_mode(),
                )
            });
            next.set_up_once(t, &StartPosition::of(&pos, mode));
        }
        for i in 0..self.boards.len() {
            next.scan(t, i, self.raw(i), out);
        }
        next
    }

    /// This game's start is for it alone (`after`: where the game after it
    /// begins), and it began at `t`: a board whose first reading does not
    /// show the start is guided to it square by square, and no change on
    /// it is a move until it does. Both `play` (for a mistake's position
    /// the review set up) and a replay (from the header's `after`) say so
    /// right after the game's start, before its first readings.
    pub fn set_up_once(&mut self, t: u64, after: &StartPosition) {
        self.home_start = after.position().ok();
        self.set_up_at = Some(t);
    }

    /// Where the game after this one begins, when this game's start is for
    /// it alone (a journal's header keeps it as `after`).
    pub fn after_start(&self) -> Option<StartPosition> {
        self.set_up_at?;
        let (pos, mode) = self.home_start.as_ref()?;
        Some(StartPosition::of(pos, *mode))
    }

    /// The start the arbiter set up for the next game, if any.
    pub fn next_start(&self) -> Option<&StartPosition> {
        self.next_start.as_ref()
    }

    /// The next game's start is for it alone (a mistake's position set up
    /// from the review): the games after it begin where this one began.
    pub fn next_start_once(&self) -> bool {
        self.next_start_once
    }

    /// The `draw_declined` event: `color` rejected the opponent's offer
    /// (9.1b; today 9.1.2.1), by touching a piece, moving, or saying so.
    fn draw_declined(&self, t: u64, color: Color) -> Stamped {
        Stamped {
            t,
            event: Event::DrawDeclined {
                color: Side(color),
                say: crate::core::said::Said::DrawDeclined(color),
            },
        }
    }

    /// Whether this game is finished with: the `new_game` event has gone
    /// out, and the next game is to begin.
    pub fn new_game_given(&self) -> bool {
        self.new_game_given
    }

    /// Ends this game for pegboard: the `new_game` event, once. A clock
    /// still running stops.
    fn new_game(&mut self, t: u64, out: &mut Vec<Stamped>) {
        if self.new_game_given {
            return;
        }
        self.new_game_given = true;
        if let Some(clock) = self.clock.as_mut()
            && clock.running().is_some()
        {
            clock.stop(t);
            self.clock_event(t, ClockCause::Stop, out);
        }
        out.push(Stamped {
            t,
            event: Event::NewGame {
                say: Notice::NewGame.into(),
            },
        });
    }

    /// Opens the event stream at `t`: the `ready` event, then, with a
    /// clock that starts with the game, the first player's clock (6.5).
    pub fn start(&mut self, t: u64, out: &mut Vec<Stamped>) {
        out.push(self.ready(t));
        let first = self.game.turn();
        let starts_now = self.settings.clock.start == ClockStart::Game;
        if let Some(clock) = self.clock.as_mut().filter(|_| starts_now)
            && !self.game.is_over()
        {
            clock.start(t, first);
            self.clock_event(t, ClockCause::Start, out);
        }
        self.recompute_deadline();
    }

    /// The clock, if a time control is set.
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    /// The `ready` event that opens every event stream.
    pub fn ready(&self, t: u64) -> Stamped {
        Stamped {
            t,
            event: Event::Ready {
                fen: self.game.fen(),
                variant: match self.game.castling_mode() {
                    CastlingMode::Standard => "standard",
                    CastlingMode::Chess960 => "chess960",
                },
                say: self.begins(),
                language: self.settings.preferences.language.clone(),
            },
        }
    }

    /// The sentence a game begins with, for the blind player: whom he
    /// plays, at what strength, with which colour and on what clock
    /// ("Maschine, Stufe 3, etwa 1400. Sie spielen Schwarz. 15 Minuten
    /// plus 10 Sekunden pro Zug."). None for a game on lichess (its news
    /// says it) and for one already under way.
    fn begins(&self) -> Option<Said> {
        let p = &self.settings.preferences;
        if matches!(p.opponent, super::settings::Opponent::Lichess(_))
            || self.online.is_some()
            || self.game.ply() > 0
        {
            return None;
        }
        Some(Said::GameBegins {
            opponent: p.opponent.clone(),
            color: p.color,
            control: self.settings.clock.control.clone(),
        })
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The highest ply whose announcement has started (0: none yet).
    pub fn announced_ply(&self) -> u32 {
        self.announced
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn board_index(&self, name: &str) -> Option<usize> {
        self.boards.iter().position(|b| b.name == name)
    }

    pub fn board_names(&self) -> impl Iterator<Item = &str> {
        self.boards.iter().map(|b| b.name.as_str())
    }

    /// The last raw reading of a board.
    pub fn raw(&self, board: usize) -> Bitboard {
        self.boards[board].debounce.raw()
    }

    /// The debounced occupancy of a board.
    pub fn stable(&self, board: usize) -> Bitboard {
        self.boards[board].tracker.occupied()
    }

    /// When the next timer fires, if any.
    #[inline]
    pub fn next_deadline(&self) -> Option<u64> {
        self.deadline
    }

    fn recompute_deadline(&mut self) {
        let clock = self.clock_deadline();
        self.deadline = self
            .boards
            .iter()
            .flat_map(|b| [b.debounce.next_deadline(), b.tracker.next_deadline()])
            .chain([clock])
            .flatten()
            .min();
    }

    /// When the clock's next timer fires: its own next instant, but for a
    /// flag held (`flag_held`) while a move made before it is judged or
    /// announced.
    fn clock_deadline(&self) -> Option<u64> {
        let clock = self.clock.as_ref()?;
        let due = clock.next_deadline()?;
        match clock.next_fall() {
            Some((color, at)) if at == due => match self.flag_held(color, at) {
                Some(until) => until,
                None => Some(due),
            },
            _ => Some(due),
        }
    }

    /// Whether `color`'s flag, due at `at`, waits, and until when (`None`
    /// inside: until an input). A move made before the flag that pegboard
    /// must wait to be sure of (a Chess960 king on its castling square,
    /// waiting for its rook) was made when it was released (4.6, E2.3):
    /// the flag waits for the judgement, and then for that move's
    /// announcement, whose clock press counts from when it was made
    /// (`Controller::announce`). The wait pegboard needed costs no flag.
    fn flag_held(&self, color: Color, at: u64) -> Option<Option<u64>> {
        if self.game.turn() == color {
            return self
                .boards
                .iter()
                .filter(|b| b.tracker.moves_for(color))
                .filter_map(|b| b.tracker.judging())
                .filter(|&(made, _)| made <= at)
                .map(|(_, until)| until)
                .max()
                .map(Some);
        }
        let late = self.judged_late?;
        let last = self.game.last_move()?;
        let pending = last.ply == late.ply && last.color == color && self.announced < late.ply;
        let until = late.judged
            + if late.engine {
                ENGINE_ANNOUNCED_WITHIN
            } else {
                ANNOUNCED_WITHIN
            };
        (pending && late.made <= at).then_some(Some(until))
    }

    /// Fires every timer due at or before `t`, in time order.
    pub fn advance(&mut self, t: u64, out: &mut Vec<Stamped>) {
        while let Some(d) = self.deadline.filter(|&d| d <= t) {
            self.fire(d, out);
        }
    }

    /// Fires every timer there is: the end of a trace.
    pub fn finish(&mut self, out: &mut Vec<Stamped>) {
        // Each firing either clears a timer or reports and clears it, so
        // this ends; the bound guards against a future timer that re-arms.
        for _ in 0..10_000 {
            match self.deadline {
                Some(d) => self.fire(d, out),
                None => break,
            }
        }
    }

    fn fire(&mut self, d: u64, out: &mut Vec<Stamped>) {
        for i in 0..self.boards.len() {
            let mut changes = std::mem::take(&mut self.changes);
            changes.clear();
            while self.boards[i].debounce.advance(d, &mut changes).is_some() {}
            if !changes.is_empty() {
                // What a move made in a reading hands back (the
                // opponent's lifts of a reading whose placements made it,
                // or his reply to a move waiting to be sure of) begins his
                // turn: given again once the move is played. Each round
                // plays a move, so this ends; the bound guards it.
                let mut reading = changes.clone();
                for _ in 0..4 {
                    if reading.is_empty() {
                        break;
                    }
                    let mut verdicts = Vec::new();
                    let b = &mut self.boards[i];
                    reading =
                        b.tracker
                            .changes(d, &reading, &self.game, &self.settings, &mut verdicts);
                    self.apply(d, i, verdicts, out);
                }
                // After the end, the start position set up again is the
                // next game (when the game did not end with its squares
                // filled as at the start: then only `new_game` begins one).
                let start = self.game.start_position().board().occupied();
                if self.game.is_over()
                    && self.game.occupied() != start
                    && self.boards[i].tracker.occupied() == start
                {
                    self.new_game(d, out);
                }
            }
            self.changes = changes;
            if self.boards[i]
                .tracker
                .next_deadline()
                .is_some_and(|x| x <= d)
            {
                let mut verdicts = Vec::new();
                let b = &mut self.boards[i];
                b.tracker
                    .on_timer(d, &self.game, &self.settings, &mut verdicts);
                self.apply(d, i, verdicts, out);
            }
        }
        if self.clock_deadline().is_some_and(|c| c <= d)
            && let Some(signal) = self.clock.as_mut().and_then(|c| c.fire(d))
        {
            self.clock_signal(d, signal, out);
        }
        self.recompute_deadline();
    }

    /// A raw reading of every square of `board` at `t`.
    #[inline]
    pub fn scan(&mut self, t: u64, board: usize, occ: Bitboard, out: &mut Vec<Stamped>) {
        if occ == self.boards[board].debounce.raw() && self.deadline.is_none_or(|d| d > t) {
            return;
        }
        if self.set_up_at == Some(t)
            && self.game.ply() == 0
            && occ != self.game.start_position().board().occupied()
            && self.boards[board].tracker.lag().is_none()
        {
            self.boards[board]
                .tracker
                .fall_behind(self.game.position().clone(), None);
        }
        self.advance(t, out);
        self.boards[board].debounce.scan(t, occ);
        self.recompute_deadline();
        self.advance(t, out);
    }

    /// Trace shorthand: the previous raw reading with `sq` emptied.
    pub fn lift(&mut self, t: u64, board: usize, sq: Square, out: &mut Vec<Stamped>) {
        let occ = self.raw(board).without(sq);
        self.scan(t, board, occ, out);
    }

    /// Trace shorthand: the previous raw reading with `sq` filled.
    pub fn place(&mut self, t: u64, board: usize, sq: Square, out: &mut Vec<Stamped>) {
        let occ = self.raw(board).with(sq);
        self.scan(t, board, occ, out);
    }

    /// Says a notice without values.
    fn notice(&self, t: u64, notice: Notice, out: &mut Vec<Stamped>) {
        self.say(t, notice, out);
    }

    fn say(&self, t: u64, text: impl Into<crate::core::said::Said>, out: &mut Vec<Stamped>) {
        out.push(Stamped {
            t,
            event: Event::Say { text: text.into() },
        });
    }

    /// The answer to the blind player's question: for his voices alone.
    fn answer_privately(
        &self,
        t: u64,
        text: impl Into<crate::core::said::Said>,
        out: &mut Vec<Stamped>,
    ) {
        out.push(Stamped {
            t,
            event: Event::Answer { text: text.into() },
        });
    }

    /// The game ended at `t`: say so, and stop the clock.
    fn game_over(&mut self, t: u64, ending: Ending, out: &mut Vec<Stamped>) {
        let say = Said::GameOver {
            reason: ending.reason,
            outcome: ending.outcome,
            by: ending.by,
        };
        out.push(Stamped {
            t,
            event: Event::GameOver {
                result: ending.outcome.as_str(),
                reason: ending.reason,
                say,
            },
        });
        if let Some(clock) = self.clock.as_mut()
            && clock.running().is_some()
        {
            clock.stop(t);
            self.clock_event(t, ClockCause::Stop, out);
        }
    }

    fn missing_list(&self, missing: &[(Square, Piece)]) -> Vec<MissingPiece> {
        missing
            .iter()
            .map(|&(sq, p)| MissingPiece {
                square: sq.to_string(),
                piece: piece_letter(p.color, p.role),
            })
            .collect()
    }

    fn violation(&self, ob: &Obligation) -> Said {
        let role = |sq: Square| {
            self.game
                .position()
                .board()
                .role_at(sq)
                .unwrap_or(shakmaty::Role::Pawn)
        };
        match ob.duty {
            Duty::Move(sq) | Duty::KingMove(sq) => Said::TouchViolation {
                role: role(sq),
                square: sq,
                capture: false,
            },
            Duty::Capture(sq) => Said::TouchViolation {
                role: role(sq),
                square: sq,
                capture: true,
            },
            Duty::Castle(_) => Notice::TouchViolationCastle.into(),
            Duty::Released(sq) => {
                let role = self
                    .game
                    .position()
                    .board()
                    .role_at(ob.allowed[0].from().unwrap_or(sq));
                Said::ReleasedViolation {
                    role: role.unwrap_or(shakmaty::Role::Pawn),
                    square: sq,
                }
            }
        }
    }

    fn touch_violation(
        &self,
        t: u64,
        board: &str,
        m: shakmaty::Move,
        ob: &Obligation,
        rejected: bool,
        out: &mut Vec<Stamped>,
    ) {
        out.push(Stamped {
            t,
            event: Event::TouchViolation {
                board: board.to_string(),
                color: Side(self.game.turn()),
                touched: ob.duty.square().to_string(),
                moved: m.from().unwrap_or(m.to()).to_string(),
                article: self.settings.laws.cite(ob.article),
                rejected,
                say: self.violation(ob),
            },
        });
    }

    /// Plays the legal move `m` at `t`, made on `board` (`None`: relayed),
    /// and leaves every other board behind it, to be brought up by hand.
    fn play(
        &mut self,
        t: u64,
        board: Option<usize>,
        m: shakmaty::Move,
        settled: bool,
        out: &mut Vec<Stamped>,
    ) {
        self.play_made(t, board, m, settled, t, out);
    }

    /// [`Controller::play`] of a move made at `made`, judged at `t`.
    fn play_made(
        &mut self,
        t: u64,
        board: Option<usize>,
        m: shakmaty::Move,
        settled: bool,
        made: u64,
        out: &mut Vec<Stamped>,
    ) {
        let before = self.game.position().clone();
        let color: Color = before.turn();
        let claim_was_pending = self.game.pending_claim() == Some(color);
        // The move of the player a draw was offered to rejects it (9.1b).
        let offer_standing = self.game.draw_offer() == Some(!color);
        // The blind player, who must now make the move on his own board,
        // hears where to find the piece (E2.7).
        let blind_follows = self
            .board_index(BLIND_BOARD)
            .is_some_and(|b| Some(b) != board);
        let say = if blind_follows {
            crate::core::said::Said::LongMove {
                before: Box::new(before.clone()),
                m,
            }
        } else {
            crate::core::said::Said::Move {
                before: Box::new(before.clone()),
                m,
            }
        };
        let shown: Vec<shakmaty::Chess> = self
            .boards
            .iter()
            .map(|b| b.tracker.shown(&self.game))
            .collect();
        self.keep_clock(t);
        let Some(played) = self.game.play(m) else {
            return;
        };
        let name = board.map_or("relay", |b| self.boards[b].name.as_str());
        let made = made.min(t);
        let engine = board.is_none() && *self.settings.seats.of(played.color) == Seat::Engine;
        self.judged_late = (made < t || engine).then_some(JudgedLate {
            ply: played.ply,
            made,
            judged: t,
            engine,
        });
        out.push(Stamped {
            t,
            event: Event::Move {
                board: name.to_string(),
                ply: played.ply,
                color: Side(played.color),
                uci: played.uci.clone(),
                san: played.san.clone(),
                say,
                fen: played.fen.clone(),
                made: (made < t).then_some(made),
            },
        });
        if offer_standing && self.game.ending().is_none() {
            out.push(self.draw_declined(t, color));
        }
        if let Some(ending) = self.game.ending() {
            self.game_over(t, ending, out);
        } else if claim_was_pending {
            self.notice(t, Notice::ClaimIncorrect, out);
            let ms = self.incorrect_claim_ms();
            self.penalty(t, !color, ms, out);
        }
        for (i, shown) in shown.into_iter().enumerate() {
            if Some(i) != board {
                self.boards[i].tracker.fall_behind(shown, Some(vec![m]));
                self.replicate(t, i, out);
            }
        }
        for i in 0..self.boards.len() {
            let mut more = Vec::new();
            let s = if Some(i) == board { settled } else { false };
            self.boards[i]
                .tracker
                .after_move(t, s, &self.game, &self.settings, &mut more);
            self.apply(t, i, more, out);
        }
    }

    /// Board `i` is seen again after time it was not (its sensors back,
    /// or pegboard started again).
    fn board_back(&mut self, t: u64, i: usize, out: &mut Vec<Stamped>) {
        let mut verdicts = Vec::new();
        self.boards[i]
            .tracker
            .board_back(t, &self.game, &self.settings, &mut verdicts);
        self.apply(t, i, verdicts, out);
    }

    /// What board `i` must do to catch up with the game, as an event.
    fn replicate(&self, t: u64, i: usize, out: &mut Vec<Stamped>) {
        let Some(lag) = self.boards[i].tracker.lag() else {
            return;
        };
        let target = self.game.position();
        let (missing, extra) = super::replica::changes(&lag.base, target);
        let moves: Vec<shakmaty::Move> = lag.moves.clone().unwrap_or_default();
        let say = self.replication_said(i);
        out.push(Stamped {
            t,
            event: Event::Replicate {
                board: self.boards[i].name.clone(),
                ply: self.game.ply(),
                moves: moves
                    .iter()
                    .map(|&m| m.to_uci(self.game.castling_mode()).to_string())
                    .collect(),
                missing: self.missing_list(&missing),
                extra: extra.iter().map(|s| s.to_string()).collect(),
                say,
            },
        });
    }

    /// What board `i` must do to catch up, in words: the one move in the
    /// long form, else square by square; `None` when it shows the game.
    fn replication_said(&self, i: usize) -> crate::core::said::Said {
        use crate::core::said::{Joint, Said};
        let Some(lag) = self.boards[i].tracker.lag() else {
            return Notice::BoardMatches.into();
        };
        if let Some(moves) = lag.moves.as_deref() {
            // Each move in turn, in the long form.
            let mut pos = lag.base.clone();
            let mut said = Vec::new();
            for &m in moves {
                said.push(Said::LongMove {
                    before: Box::new(pos.clone()),
                    m,
                });
                pos.play_unchecked(m);
            }
            return Said::Joined(said, Joint::Stops);
        }
        let (missing, extra) = super::replica::changes(&lag.base, self.game.position());
        Said::Mismatch { missing, extra }
    }

    /// A board was put right: moves held for it go ahead.
    fn release_held(&mut self, t: u64, out: &mut Vec<Stamped>) {
        for i in 0..self.boards.len() {
            if self.boards[i].held && !self.boards.iter().any(|b| b.tracker.diverged(&self.game)) {
                let mut more = Vec::new();
                self.boards[i]
                    .tracker
                    .after_move(t, true, &self.game, &self.settings, &mut more);
                self.apply(t, i, more, out);
            }
        }
    }

    fn apply(&mut self, t: u64, board: usize, verdicts: Vec<Verdict>, out: &mut Vec<Stamped>) {
        let name = self.boards[board].name.clone();
        for verdict in verdicts {
            match verdict {
                Verdict::Touch(touch) => {
                    out.push(Stamped {
                        t,
                        event: Event::Touch {
                            board: name.clone(),
                            color: Side(self.game.turn()),
                            square: touch.square.to_string(),
                            piece: piece_letter(touch.piece.color, touch.piece.role),
                        },
                    });
                    // 9.1b (today 9.1.2.1): the player a draw was offered
                    // to rejects it by touching a piece to move it.
                    let mover = self.game.turn();
                    if self.game.draw_offer() == Some(!mover) && self.game.decline_draw() {
                        out.push(self.draw_declined(t, mover));
                    }
                }
                Verdict::Execute {
                    m,
                    violation,
                    settled,
                    made,
                } => {
                    let waits_for = self.settings.hold_on_divergence.then(|| {
                        self.boards
                            .iter()
                            .enumerate()
                            .find(|(j, b)| *j != board && b.tracker.diverged(&self.game))
                            .map(|(j, _)| j)
                    });
                    // An adjourned game is not played on until it resumes.
                    if self.sealed.is_some() {
                        continue;
                    }
                    if let Some(Some(_)) = waits_for {
                        if !self.boards[board].held {
                            self.boards[board].held = true;
                            self.notice(t, Notice::Held, out);
                        }
                        continue;
                    }
                    self.boards[board].held = false;
                    if let Some(ob) = &violation {
                        self.touch_violation(t, &name, m, ob, false, out);
                    }
                    self.play_made(t, Some(board), m, settled, made, out);
                }
                Verdict::Replicated => {
                    out.push(Stamped {
                        t,
                        event: Event::Replicated {
                            board: name.clone(),
                            ply: self.game.ply(),
                        },
                    });
                    self.release_held(t, out);
                }
                Verdict::Diverged { missing, extra } => out.push(Stamped {
                    t,
                    event: Event::Diverged {
                        board: name.clone(),
                        missing: self.missing_list(&missing),
                        extra: extra.iter().map(|s| s.to_string()).collect(),
                        say: crate::core::said::Said::Mismatch {
                            missing: missing.clone(),
                            extra: extra.clone(),
                        },
                    },
                }),
                Verdict::Rejected { m, obligation } => {
                    self.touch_violation(t, &name, m, &obligation, true, out);
                }
                Verdict::PromotionUnmade(sq) => {
                    let say = crate::core::said::Said::PromotionUnmade(sq);
                    out.push(Stamped {
                        t,
                        event: Event::PromotionUnmade {
                            board: name.clone(),
                            square: sq.to_string(),
                            article: self.settings.laws.cite(Article::PromotionMade),
                            say,
                        },
                    });
                }
                Verdict::PromotionPending(sq) => {
                    let say = crate::core::said::Said::PromotionPending(sq);
                    out.push(Stamped {
                        t,
                        event: Event::PromotionPending {
                            board: name.clone(),
                            square: sq.to_string(),
                            say,
                        },
                    });
                }
                Verdict::Illegal { missing, extra } => {
                    let color = self.game.turn();
                    let count = self.game.record_illegal_move(color);
                    out.push(Stamped {
                        t,
                        event: Event::Illegal {
                            board: name.clone(),
                            color: Side(color),
                            count,
                            missing: self.missing_list(&missing),
                            extra: extra.iter().map(|s| s.to_string()).collect(),
                            say: crate::core::said::Said::Illegal {
                                missing: missing.clone(),
                                extra: extra.clone(),
                            },
                        },
                    });
                }
                Verdict::Mismatch { missing, extra } => out.push(Stamped {
                    t,
                    event: Event::Mismatch {
                        board: name.clone(),
                        missing: self.missing_list(&missing),
                        extra: extra.iter().map(|s| s.to_string()).collect(),
                        say: crate::core::said::Said::Mismatch {
                            missing: missing.clone(),
                            extra: extra.clone(),
                        },
                    },
                }),
                Verdict::Unconfirmed(moves) => {
                    let say = crate::core::said::Said::Unconfirmed {
                        before: Box::new(self.game.position().clone()),
                        moves: moves.clone(),
                    };
                    let mode = self.game.castling_mode();
                    out.push(Stamped {
                        t,
                        event: Event::Unconfirmed {
                            board: name.clone(),
                            moves: moves.iter().map(|m| m.to_uci(mode).to_string()).collect(),
                            say,
                        },
                    });
                }
                Verdict::Restored => {
                    out.push(Stamped {
                        t,
                        event: Event::Restored {
                            board: name.clone(),
                            say: Notice::Restored.into(),
                        },
                    });
                    self.release_held(t, out);
                }
            }
        }
    }
}
