//! The event stream: what the controller concluded, in the words of the
//! trace-format contract (`docs/trace-format.md`).

use serde::{Serialize, Serializer};
use shakmaty::{Color, Role};

use super::clock::Face;
use super::game::Reason;
use super::said::Said;

/// A colour, written `white` or `black`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Side(pub Color);

impl Serialize for Side {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match self.0 {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// One player's side of the clock in a `clock` event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SideTime {
    pub remaining_ms: u64,
    /// Moves this player has completed on the clock.
    pub moves: u32,
    /// The period in force, 1-based.
    pub period: u32,
    pub flag: bool,
}

/// Why a `clock` event was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockCause {
    /// The clock started (6.5, or at the first move).
    Start,
    /// A move was completed: the mover's clock stopped, the other started.
    Press,
    /// A press that also began a new period (6.3).
    Period,
    Flag,
    Pause,
    Resume,
    /// The arbiter set the times or the move counter (6.13).
    Set,
    /// A player was given time as a penalty for the opponent.
    Penalty,
    /// The game ended; the clock stands.
    Stop,
    /// Written by a live display output as the shown time changes; the
    /// controller never writes it, so replays do not contain it.
    Tick,
}

/// A piece the board is missing: which piece belongs on which empty square.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MissingPiece {
    pub square: String,
    /// SAN letter, uppercase for white, `P` for a pawn.
    pub piece: String,
}

/// What an event says, found the same way for reading and for making its
/// words: the one list of the events that say something (but `Ready`,
/// whose saying is optional).
macro_rules! said_of {
    ($event:expr) => {
        match $event {
            Event::TouchViolation { say: said, .. }
            | Event::GameOver { say: said, .. }
            | Event::Refused { say: said, .. }
            | Event::Hint { say: said, .. }
            | Event::Evaluation { say: said, .. }
            | Event::Review { say: said, .. }
            | Event::ReviewStep { say: said, .. }
            | Event::Threat { say: said, .. }
            | Event::Opening { say: said, .. }
            | Event::Menu { say: said }
            | Event::Choices { say: said, .. }
            | Event::OnlineGame { say: said, .. }
            | Event::OnlineOffer { say: said, .. }
            | Event::OnlineGames { say: said, .. }
            | Event::OnlineChosen { say: said, .. }
            | Event::OnlineOpponent { say: said, .. }
            | Event::OnlineChat { say: said, .. }
            | Event::Say { text: said }
            | Event::Answer { text: said }
            | Event::ArbiterCalled { say: said }
            | Event::SensorsLost { say: said }
            | Event::SensorsBack { say: said }
            | Event::BrailleLost { say: said }
            | Event::BrailleBack { say: said }
            | Event::ArbiterComing { say: said }
            | Event::Move { say: said, .. }
            | Event::Online { say: said, .. }
            | Event::OnlineRequest { say: said, .. }
            | Event::OnlineNotice { say: said, .. }
            | Event::Replicate { say: said, .. }
            | Event::Retraced { say: said, .. }
            | Event::Resumed { say: said, .. }
            | Event::DrawOffer { say: said, .. }
            | Event::EngineTrouble { say: said, .. }
            | Event::Adjourned { say: said, .. }
            | Event::NewGame { say: said, .. }
            | Event::Restored { say: said, .. }
            | Event::TimeWarning { say: said, .. }
            | Event::Flag { say: said, .. }
            | Event::DrawDeclined { say: said, .. }
            | Event::PromotionPending { say: said, .. }
            | Event::PromotionUnmade { say: said, .. }
            | Event::Illegal { say: said, .. }
            | Event::Mismatch { say: said, .. }
            | Event::Diverged { say: said, .. }
            | Event::Unconfirmed { say: said, .. } => Some(said),
            _ => None,
        }
    };
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    Ready {
        fen: String,
        variant: &'static str,
        /// What the game is, said as it begins: the opponent and his
        /// strength, the blind player's colour and the clock. None for a
        /// game on lichess, whose own news says it.
        #[serde(skip_serializing_if = "Option::is_none")]
        say: Option<Said>,
        /// The language the game is said in: the configured one, or the
        /// one chosen in the menu. For the edge that makes the words; the
        /// stream does not carry it.
        #[serde(skip)]
        language: String,
    },
    Touch {
        board: String,
        color: Side,
        square: String,
        piece: String,
    },
    Move {
        board: String,
        ply: u32,
        color: Side,
        uci: String,
        san: String,
        say: crate::core::said::Said,
        fen: String,
        /// The instant the move was made (its release, 4.6, E2.3), when
        /// pegboard had to wait to be sure of it and so judged it later
        /// (`t`): the clock counts it from here.
        #[serde(skip_serializing_if = "Option::is_none")]
        made: Option<u64>,
    },
    PromotionPending {
        board: String,
        square: String,
        say: crate::core::said::Said,
    },
    /// Under the 2008 Laws: the new piece was put on the promotion square
    /// before the pawn was taken off; the move is made when the piece is
    /// released there after the pawn's removal (4.6c), so not yet.
    PromotionUnmade {
        board: String,
        square: String,
        article: &'static str,
        say: crate::core::said::Said,
    },
    /// A standing draw offer lapsed: `color`, the player it was made to,
    /// touched a piece with the intention of moving it (9.1b; today
    /// 9.1.2.1).
    DrawDeclined {
        color: Side,
        say: crate::core::said::Said,
    },
    TouchViolation {
        board: String,
        color: Side,
        touched: String,
        moved: String,
        article: &'static str,
        /// `true` under the `enforce` policy: the move was not accepted.
        rejected: bool,
        say: Said,
    },
    Illegal {
        board: String,
        color: Side,
        /// Illegal moves this player has made so far (Art. 7.4).
        count: u32,
        missing: Vec<MissingPiece>,
        extra: Vec<String>,
        say: crate::core::said::Said,
    },
    Mismatch {
        board: String,
        missing: Vec<MissingPiece>,
        extra: Vec<String>,
        say: crate::core::said::Said,
    },
    Restored {
        board: String,
        say: crate::core::said::Said,
    },
    /// After time the board was not seen: moves that may have been made
    /// meanwhile (UCI), none of them taken on a guess; `say` tells how to
    /// confirm one.
    Unconfirmed {
        board: String,
        moves: Vec<String>,
        say: crate::core::said::Said,
    },
    GameOver {
        result: &'static str,
        reason: Reason,
        say: Said,
    },
    Say {
        text: crate::core::said::Said,
    },
    /// The blind player called the arbiter (his key): the console and the
    /// mirror show it until the arbiter answers.
    ArbiterCalled {
        say: Said,
    },
    /// The arbiter answered the call from the console: he is coming.
    ArbiterComing {
        say: Said,
    },
    /// The blind player's board's sensors stopped answering
    /// (`board_lost`); the game is kept. The hall view marks his board.
    SensorsLost {
        say: Said,
    },
    /// They answer again (`board_back`).
    SensorsBack {
        say: Said,
    },
    /// The blind player's Braille display cannot be read
    /// (`braille_lost`): said to him once; the game goes on.
    BrailleLost {
        say: Said,
    },
    /// It can be read again (`braille_back`), and shows the game.
    BrailleBack {
        say: Said,
    },
    /// The answer to a question of the blind player's (the last moves, the
    /// move number, a rank, a file, a square, the position, the times,
    /// the material): his alone. His voices say it; the mirror, the
    /// console and the hall never show it.
    Answer {
        text: crate::core::said::Said,
    },
    /// The speech output started to announce this move (E2.3c).
    Announced {
        ply: u32,
        color: Side,
    },
    /// The clock after a press, a period change, a flag, or an arbiter's
    /// action: the running side (none when stopped), both times.
    Clock {
        cause: ClockCause,
        running: Option<Side>,
        paused: bool,
        white: SideTime,
        black: SideTime,
    },
    /// A player's time ran out (6.1). Whether it decides the game follows
    /// in a `game_over` event (or not, A4d, 6.11a).
    Flag {
        color: Side,
        say: crate::core::said::Said,
    },
    /// A player's own time reached a warning threshold.
    TimeWarning {
        color: Side,
        remaining_ms: u64,
        say: crate::core::said::Said,
    },
    /// `color` offers a draw (9.1); the scoresheet marks it `(=)`.
    DrawOffer {
        color: Side,
        say: crate::core::said::Said,
    },
    /// pegboard started again on an unfinished game: its journal was fed
    /// through the controller up to `ply`, and `say` tells the player
    /// where the game stands.
    Resumed {
        ply: u32,
        say: crate::core::said::Said,
    },
    /// This game is over for pegboard: the start position was set up
    /// again after its end, or a `new_game` was given. The next game
    /// begins at once, from the same start position.
    NewGame {
        say: crate::core::said::Said,
    },
    /// The game moved on through another board or a relayed move, or was
    /// retraced: `board` now shows an earlier position, and its player is
    /// to bring it to the game's position after `ply` moves by hand.
    /// `moves`: the moves to repeat (UCI), when the board only lags
    /// behind; empty after a retrace. `missing` and `extra`: what is to
    /// change, square by square. `say`: the move in the long form
    /// ("Springer Gustav acht nach Felix sechs"), or the squares.
    Replicate {
        board: String,
        ply: u32,
        moves: Vec<String>,
        missing: Vec<MissingPiece>,
        extra: Vec<String>,
        say: crate::core::said::Said,
    },
    /// `board` shows the game's position after `ply` moves again: the
    /// replication is done (and was done right).
    Replicated {
        board: String,
        ply: u32,
    },
    /// `board` differs from the game in a way no pending replication
    /// explains, and has been still for the settle time (E2.7): put right
    /// as `missing` and `extra` say. Ends with `replicated` or `restored`.
    Diverged {
        board: String,
        missing: Vec<MissingPiece>,
        extra: Vec<String>,
        say: crate::core::said::Said,
    },
    /// The game was taken back to the position after `ply` moves (E2.8);
    /// every board then replicates back to it.
    Retraced {
        ply: u32,
        fen: String,
        say: crate::core::said::Said,
    },
    /// The game is adjourned: `color` sealed his move (not shown until the
    /// game resumes, when it comes as a `move`), the clocks stand.
    Adjourned {
        color: Side,
        say: crate::core::said::Said,
    },
    /// The assistant reported that `color` touched a piece (E2.9e), kept
    /// with its time for the arbiter. Not spoken.
    TouchReported {
        color: Side,
    },
    /// Practice: the engine's best move for the player after `ply` moves.
    Hint {
        ply: u32,
        /// `piece`: the first hint in a position, the piece alone;
        /// `move`: asked again there, the whole move.
        part: &'static str,
        uci: String,
        san: String,
        say: Said,
    },
    /// Practice: who stands better after `ply` moves, from White's side:
    /// `cp` centipawns, or a mate in `mate` moves (negative: Black mates).
    Evaluation {
        ply: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        cp: Option<i32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        mate: Option<i32>,
        say: Said,
    },
    /// The review after a game against the engine begins: each move with
    /// the engine's score after it, and the player's serious mistakes
    /// marked (`?`, `??`) with the better move; `mistakes` how many. `past`:
    /// the review is of the game before the one on the board. `say` tells
    /// how many, and the first mistake as a `review_step` would.
    Review {
        moves: Vec<Reviewed>,
        mistakes: usize,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        past: bool,
        say: Said,
    },
    /// Practice: what the engine threatens after `ply` moves, its best
    /// move were it to move (`uci`, `san`), when that takes something or
    /// gives check; none when there is no such threat.
    Threat {
        ply: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        uci: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        san: Option<String>,
        say: Said,
    },
    /// The opening played, as the classification knows it after `ply`
    /// moves: its ECO code and, when it is one said in words, its family
    /// (`sicilian`); none when no position of the game is named.
    Opening {
        ply: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        eco: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        family: Option<String>,
        say: Said,
    },
    /// The player steps to one of his mistakes in the review (`index`
    /// from 1, of `mistakes`): the move that made ply `ply` in SAN, its
    /// mark, the better move and the engine's main line after it (SAN).
    ReviewStep {
        index: usize,
        mistakes: usize,
        ply: u32,
        san: String,
        mark: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        better: Option<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        line: Vec<String>,
        say: Said,
    },
    /// The spoken menu says where the player is: an item with its value,
    /// a value, a choice said back, a question.
    Menu {
        say: Said,
    },
    /// The player saved choices in the spoken menu: the next game starts
    /// with them (`now`: it begins at once, no game being under way). The
    /// opponent is `person` or `engine` (at `elo`, at `level`, or at full
    /// strength); `time_control` in the PGN form, or none; `color` the
    /// blind player's; `rate` and `volume` the voice's; `language` the
    /// words'.
    Choices {
        opponent: &'static str,
        /// The engine's step (1 to 8), or its own Elo or skill level.
        #[serde(skip_serializing_if = "Option::is_none")]
        step: Option<u8>,
        #[serde(skip_serializing_if = "Option::is_none")]
        elo: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        level: Option<u32>,
        /// An opponent on lichess: how he is found (`seek`, `ai`,
        /// `challenge`, `accept`), the friend challenged, whether rated.
        #[serde(skip_serializing_if = "Option::is_none")]
        find: Option<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        friend: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        rated: Option<bool>,
        time_control: Option<String>,
        color: Side,
        rate: i32,
        volume: u32,
        language: String,
        now: bool,
        say: Said,
    },
    /// A relayed move (the `move` input) or a retrace was refused and the
    /// game is unchanged: `given` is what was given (`Nf7`, `g8f6`, a
    /// ply), `reason` says why (see `docs/trace-format.md`), `article`
    /// the Laws' article a relayed move breaks, where one does.
    Refused {
        given: String,
        reason: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        article: Option<&'static str>,
        say: Said,
    },
    /// The server started the online game: its id and page, the blind
    /// player's colour, the players with their ratings, the clock.
    OnlineGame {
        game: crate::core::online::OnlineGame,
        say: Said,
    },
    /// The connection to the online game's server: `lost` or `back`.
    Online {
        connection: &'static str,
        say: crate::core::said::Said,
    },
    /// The online opponent asks something of the player: `takeback`, his
    /// last move taken back.
    OnlineOffer {
        offer: &'static str,
        color: Side,
        say: Said,
    },
    /// The online opponent left the game (`gone`, the win claimable in
    /// `seconds`), or is back.
    OnlineOpponent {
        gone: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        seconds: Option<u32>,
        say: Said,
    },
    /// A chat message in the online game.
    OnlineChat {
        name: String,
        text: String,
        say: Said,
    },
    /// The games under way on the server the player may take up, said
    /// with the first to choose (the menu's keys go through them).
    OnlineGames {
        games: Vec<crate::core::online::OnlineChoice>,
        say: Said,
    },
    /// The player chose the game under way `game` to play now, or (none)
    /// a new game.
    OnlineChosen {
        game: Option<String>,
        say: Said,
    },
    /// The player asks the server: `takeback` (or agrees to it),
    /// `claim_victory` (the opponent left), `abort` (before the game
    /// began).
    OnlineRequest {
        request: &'static str,
        say: crate::core::said::Said,
    },
    /// What the server or the online game has the player told, beyond
    /// moves, offers and the end: `other_game`, `find_refused`,
    /// `declined`, `move_refused`, `claim_refused`, `first_move` (the
    /// server's), `ai_no_draw`, `claim_in` (not yet: `seconds` to wait).
    OnlineNotice {
        notice: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        seconds: Option<u64>,
        say: crate::core::said::Said,
    },
    /// The engine that plays a seat is in trouble, and is started again:
    /// `cannot_start`, `crashed`, `hung` or `malformed` (an answer that is
    /// no move).
    EngineTrouble {
        trouble: &'static str,
        say: crate::core::said::Said,
    },
}

/// One move in a `review` event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reviewed {
    pub ply: u32,
    /// The score after the move as PGN's `[%eval]` writes it (`0.35`,
    /// `#-3`); none after a mate or stalemate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eval: Option<String>,
    /// `?` or `??` on the player's serious mistakes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark: Option<&'static str>,
    /// The better move there (SAN), with a mark.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub better: Option<String>,
}

impl Event {
    /// Whether the event answers a question of the blind player's (an
    /// answer, the opening's name): his voices say it, and the mirror, its
    /// stream, the hall and the console never show it.
    pub fn is_private(&self) -> bool {
        matches!(self, Event::Answer { .. } | Event::Opening { .. })
    }

    /// The board the event is about, for events about one board.
    pub fn board(&self) -> Option<&str> {
        match self {
            Event::Touch { board, .. }
            | Event::Move { board, .. }
            | Event::PromotionPending { board, .. }
            | Event::TouchViolation { board, .. }
            | Event::Illegal { board, .. }
            | Event::Mismatch { board, .. }
            | Event::Restored { board, .. }
            | Event::Unconfirmed { board, .. }
            | Event::Replicate { board, .. }
            | Event::Replicated { board, .. }
            | Event::Diverged { board, .. } => Some(board),
            _ => None,
        }
    }

    /// The `clock` event showing `face`.
    pub fn clock(cause: ClockCause, face: &Face) -> Event {
        let side = |c: Color| SideTime {
            remaining_ms: *face.remaining.get(c),
            moves: *face.moves.get(c),
            period: *face.periods.get(c),
            flag: *face.flags.get(c),
        };
        Event::Clock {
            cause,
            running: face.running.map(Side),
            paused: face.paused,
            white: side(Color::White),
            black: side(Color::Black),
        }
    }

    /// The event's name as written in the stream.
    pub fn name(&self) -> &'static str {
        match self {
            Event::Ready { .. } => "ready",
            Event::Touch { .. } => "touch",
            Event::Move { .. } => "move",
            Event::PromotionPending { .. } => "promotion_pending",
            Event::PromotionUnmade { .. } => "promotion_unmade",
            Event::DrawDeclined { .. } => "draw_declined",
            Event::TouchViolation { .. } => "touch_violation",
            Event::Illegal { .. } => "illegal",
            Event::Mismatch { .. } => "mismatch",
            Event::Restored { .. } => "restored",
            Event::Unconfirmed { .. } => "unconfirmed",
            Event::GameOver { .. } => "game_over",
            Event::Say { .. } => "say",
            Event::Answer { .. } => "answer",
            Event::ArbiterCalled { .. } => "arbiter_called",
            Event::ArbiterComing { .. } => "arbiter_coming",
            Event::SensorsLost { .. } => "sensors_lost",
            Event::SensorsBack { .. } => "sensors_back",
            Event::BrailleLost { .. } => "braille_lost",
            Event::BrailleBack { .. } => "braille_back",
            Event::Announced { .. } => "announced",
            Event::Clock { .. } => "clock",
            Event::Flag { .. } => "flag",
            Event::TimeWarning { .. } => "time_warning",
            Event::DrawOffer { .. } => "draw_offer",
            Event::Resumed { .. } => "resumed",
            Event::NewGame { .. } => "new_game",
            Event::Replicate { .. } => "replicate",
            Event::Replicated { .. } => "replicated",
            Event::Diverged { .. } => "diverged",
            Event::Retraced { .. } => "retraced",
            Event::Refused { .. } => "refused",
            Event::TouchReported { .. } => "touch_reported",
            Event::Adjourned { .. } => "adjourned",
            Event::Hint { .. } => "hint",
            Event::Evaluation { .. } => "evaluation",
            Event::Review { .. } => "review",
            Event::ReviewStep { .. } => "review_step",
            Event::Threat { .. } => "threat",
            Event::Opening { .. } => "opening",
            Event::Menu { .. } => "menu",
            Event::Choices { .. } => "choices",
            Event::OnlineGame { .. } => "online_game",
            Event::Online { .. } => "online",
            Event::OnlineOffer { .. } => "online_offer",
            Event::OnlineOpponent { .. } => "online_opponent",
            Event::OnlineChat { .. } => "online_chat",
            Event::OnlineRequest { .. } => "online_request",
            Event::OnlineNotice { .. } => "online_notice",
            Event::OnlineGames { .. } => "online_games",
            Event::OnlineChosen { .. } => "online_chosen",
            Event::EngineTrouble { .. } => "engine_trouble",
        }
    }

    /// What this event gives the speech output, if anything: its words,
    /// once the edge has made them.
    pub fn spoken(&self) -> Option<&str> {
        match self {
            Event::Ready { say, .. } => say.as_ref().map(Said::as_str),
            _ => said_of!(self).map(Said::as_str),
        }
    }

    /// What this event says, for the edge to put in words.
    pub fn said_mut(&mut self) -> Option<&mut Said> {
        match self {
            Event::Ready { say, .. } => say.as_mut(),
            _ => said_of!(self),
        }
    }
}

/// An event with the simulated instant the controller concluded it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stamped {
    pub t: u64,
    #[serde(flatten)]
    pub event: Event,
}

/// A SAN piece letter: uppercase for white, `P`/`p` for pawns.
pub fn piece_letter(color: Color, role: Role) -> String {
    let c = role.upper_char();
    match color {
        Color::White => c.to_string(),
        Color::Black => c.to_ascii_lowercase().to_string(),
    }
}
