//! Button, keypad and console actions, and their one codec: the name and
//! fields an input is written with, in a trace line, a journal record or a
//! console request (`{"input":"clock","color":"black"}`).

pub use crate::core::notices::EngineTrouble;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{Color, File, Rank, Role, Square};

use crate::core::analysis::{Analysis, Score};
use crate::core::clock::{MAX_MOVES, MAX_TIME_MS};
use crate::core::online::{OnlineChoice, OnlineGame};

/// How long after the resign key's first press a second one resigns.
pub const RESIGN_CONFIRM_WITHIN_MS: u64 = 10_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// The promotion piece chosen (announced) for the pawn being promoted.
    Promote(Role),
    /// "J'adoube" (4.2; today 4.2.1), said by this player (`None`: the
    /// player to move, as a trace without a colour says it): the pieces he
    /// takes up and puts back on their squares, on the boards he plays on,
    /// are adjusted, not touched, until his move begins. Only the player
    /// having the move may adjust; out of turn it is refused.
    Adjust(Option<Color>),
    /// That player presses the clock.
    Clock(Color),
    /// Say the last move again, or the last N moves (oldest first).
    Repeat(u32),
    /// Say the move of this ply again (1 is the game's first move), with
    /// its number and colour: a routing key on a move the Braille display
    /// shows.
    RepeatPly(u32),
    /// Say the move number and who is to move.
    MoveNumber,
    /// Read out one rank, a-file to h-file.
    Rank(Rank),
    /// Read out one file, first rank to eighth.
    File(File),
    /// The speech output has started to announce the move of this ply
    /// (E2.3c): the move counts as announced from this instant.
    Announced(u32),
    /// Say both clock times.
    Times,
    /// Read out the position.
    Position,
    /// Say what stands on a square.
    Square(Square),
    DrawOffer(Color),
    DrawClaim(Color),
    Resign(Color),
    /// The resign key: the first press asks whether he means it, a second
    /// within [`RESIGN_CONFIRM_WITHIN_MS`] resigns.
    ResignKey(Color),
    /// The console's resign: asked as the key is, and confirmed only by
    /// the console's second request (never by a key's press, nor a press
    /// by it).
    ConsoleResign(Color),
    /// The arbiter stops both times (6.12).
    Pause,
    /// The arbiter restarts the time that was running.
    Resume,
    /// The arbiter sets times and move counters (6.10b, 6.13); what is not
    /// given stays as it is.
    SetClock(ClockSetting),
    /// The arbiter rules that this player completed an illegal move (7.4b):
    /// the opponent gets two minutes; the third loses.
    IllegalMove(Color),
    /// This player, to move with less than two minutes, claims a draw
    /// under the quickplay finish (10.2; today the Guidelines III.5): the
    /// arbiter decides ([`Input::QuickplayRuling`]).
    QuickplayClaim(Color),
    /// The arbiter's decision on the standing quickplay-finish claim
    /// (10.2a–c; today III.5.1–III.5.3).
    QuickplayRuling(QuickplayRuling),
    /// This player rejects the opponent's standing draw offer orally
    /// (9.1b; today 9.1.2.1): the offer lapses.
    DrawDecline(Color),
    /// This player claims that the opponent's flag has fallen (A4d, E2.9e).
    FlagClaim(Color),
    /// The board's sensors stopped answering (a cable pulled, a scanner
    /// silent). The game is kept; the player is told.
    BoardLost,
    /// The sensors answer again. What changed meanwhile was not seen
    /// happening: a board that no single move explains is a mismatch with
    /// guidance, never an illegal move.
    BoardBack,
    /// The blind player's refreshable Braille display stopped answering
    /// (unplugged, or brltty stopped). The game goes on; he is told once.
    BrailleLost,
    /// The Braille display answers again, and shows the game.
    BrailleBack,
    /// pegboard started again on this unfinished game (a power cut, a
    /// crash): the journal up to here was this game. The clocks stop (a
    /// `resume` restarts them), what happened while pegboard was off is
    /// judged like a board that comes back, and the player hears where the
    /// game stands. With `hold` false (`"clocks":"running"`) the clock
    /// that was running runs on at once.
    Restarted {
        hold: bool,
    },
    /// Start a new game from the same start position. A game under way
    /// (moves played, not over) is given up only on a second `new_game`
    /// within ten seconds.
    NewGame,
    /// A move made on a board pegboard does not read, relayed by an
    /// assistant (E2.9a, E2.10): played if legal, else refused.
    Move(Relayed),
    /// The arbiter takes the game back to the position after this many
    /// moves (E2.8); every board is then guided back to it.
    Retrace(u32),
    /// The last move, relayed from the console, is taken back at once
    /// (the assistant relayed a wrong one): `u32` is the ply it made. Only
    /// that move, only while it is the last, and only within ten seconds;
    /// the clocks go back to what they were before it.
    TakeBack(u32),
    /// Say what the player's own board must do to show the game: the move
    /// to make on it, or the squares.
    ToReplicate,
    /// Say what differs between the player's own board and the game.
    Differences,
    /// The assistant reports that this player touched a piece (E2.9e): it
    /// is kept, with its time, for the arbiter; the game is unchanged.
    TouchReport(Color),
    /// The arbiter sets up a position (a FEN) or a Chess960 start (by its
    /// number): this game ends and the next begins from there.
    Setup(Setup),
    /// The game is adjourned (E2.9f, Art. 8 of the Laws' guidelines): the
    /// player to move seals this move, the clocks stop. It is not said or
    /// shown until the game is resumed.
    Adjourn(Relayed),
    /// The adjourned game is resumed: the sealed move is played and the
    /// clocks run again.
    Unseal,
    /// Practice: the player asks for the engine's best move here.
    Hint,
    /// Practice: the player asks who stands better, and by how much. In
    /// the review, after the mistake he is at, or after the move that
    /// made ply `ply` (a number: any move of the game reviewed).
    Evaluation(Option<u32>),
    /// The engine's judgement of the position after `ply` moves (its best
    /// move, its score from White's side): pegboard writes it into the
    /// journal as it gets it, so that a replay says the same without an
    /// engine.
    Analysis(Analysis),
    /// The engine's judgement of a position of the game under review (of
    /// the game just over, or of the game before): journaled as
    /// `analysis` is.
    ReviewAnalysis(Analysis),
    /// Practice: the player asks what the engine threatens (its best
    /// move, were it its turn).
    Threat,
    /// The engine's judgement of the position after `ply` moves with
    /// itself to move (the turn passed to it when it is the player's):
    /// its best move is the threat. Journaled as `analysis` is.
    ThreatAnalysis(Analysis),
    /// The game before this one, a game against the engine, with what the
    /// engine has judged of it: its review can be asked for until this
    /// game's first move. The keeper gives it when a game begins after
    /// one against the engine (after `new_game`, or a restart after it).
    PastGame(Box<crate::core::review::Review>),
    /// Practice: the player's last move and the engine's reply to it are
    /// taken back; the boards are guided back and the clocks show what
    /// they showed before the player's move, his own running.
    PracticeTakeBack,
    /// Say the material balance: who has what more.
    Material,
    /// The blind player calls the arbiter (his key): he hears that the
    /// call went out, and the console and the mirror show it.
    CallArbiter,
    /// The arbiter answers the call, from the console: the player hears
    /// he is coming.
    ArbiterComing,
    /// Name the opening played: its family in words where it is one of
    /// those named, and its ECO code. Answered once the classification
    /// is looked up at the edge (`opening_classified`).
    Opening,
    /// The classification of the game's opening after `ply` moves: the ECO
    /// code of the last position the classification names, and its family
    /// when it is one said in words; none when it names none (or has no
    /// data). Journaled as `analysis` is, so that a replay says the same
    /// without the data.
    OpeningClassified {
        ply: u32,
        eco: Option<crate::core::opening::Eco>,
        family: Option<crate::core::opening::Family>,
    },
    /// After a game against the engine: go through it with the engine and
    /// say the player's serious mistakes.
    Review,
    /// A step in the spoken menu: `menu` opens it (and closes it,
    /// unsaved); `menu_next`, `menu_select` and `menu_back` move in it.
    Menu(MenuStep),
    /// A key that is also a menu key was pressed: while the menu is open
    /// it is that step, else it is `input`. The keypad does not know
    /// whether the menu is open; the controller does. Written as the
    /// input with a `menu` field: `{"input":"times","menu":"next"}`.
    Keyed {
        menu: MenuStep,
        input: Box<Input>,
    },
    /// The server (lichess) started the game the blind player plays
    /// online: the seats, the clock and the players follow it. Taken only
    /// before the first move.
    OnlineGame(Box<OnlineGame>),
    /// The games under way on the server the player may take up (a
    /// correspondence game), for him to choose one of, or a new game.
    OnlineGames(Vec<OnlineChoice>),
    /// The server's clocks as its latest state gives them: they set
    /// pegboard's (quietly; the server's clock is the clock).
    OnlineClock {
        white_ms: u64,
        black_ms: u64,
    },
    /// The server says the game ended: its status (lichess's
    /// `GameStatusName`) and the winner, if there is one.
    OnlineEnd {
        status: String,
        winner: Option<Color>,
    },
    /// The connection to the server was lost; the game is kept.
    OnlineLost,
    /// The connection is back.
    OnlineBack,
    /// The opponent asks to take back his last move.
    OnlineTakeback,
    /// After the game, the opponent offers a rematch.
    OnlineRematch,
    /// The opponent left the game; the win can be claimed in `seconds`
    /// (none: he is back).
    OnlineGone {
        seconds: Option<u32>,
    },
    /// A chat message from the opponent (or another player of the game's
    /// chat): his name and text.
    OnlineChat {
        name: String,
        text: String,
    },
    /// What the server said that the player is to hear: another game
    /// under way, a refusal, a challenge declined, the first move's time.
    OnlineNotice(crate::core::online::ServerNotice),
    /// The engine that plays a seat is in trouble (it cannot be started,
    /// crashed, hangs, or answered no move); it is started again.
    /// Journaled, so that a replay tells it as it was told.
    EngineTrouble(EngineTrouble),
}

/// A step in the spoken menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuStep {
    /// Open the menu; in the menu, leave it without saving.
    Open,
    /// The next item or value.
    Next,
    /// Choose the item or value said last.
    Select,
    /// Back up a level; at the top, offer to save what was chosen.
    Back,
}

impl MenuStep {
    /// The step's name as a key's `menu` role and a keyed input's `menu`
    /// field writes it (`Open` has none: it is the `menu` input).
    pub fn role(self) -> &'static str {
        match self {
            MenuStep::Open => "open",
            MenuStep::Next => "next",
            MenuStep::Select => "select",
            MenuStep::Back => "back",
        }
    }

    /// The step a `menu` role or field names: next, select or back.
    pub fn from_role(role: &str) -> Option<MenuStep> {
        match role {
            "next" => Some(MenuStep::Next),
            "select" => Some(MenuStep::Select),
            "back" => Some(MenuStep::Back),
            _ => None,
        }
    }
}

/// A position the arbiter sets up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setup {
    /// A FEN (an X-FEN or Shredder-FEN for Chess960 castling).
    Fen(String),
    /// A Chess960 start by its number, 0 to 959 (518: the standard array).
    Chess960(u32),
}

impl Setup {
    /// The start it describes, if it is one.
    pub fn start(&self) -> Option<crate::core::StartPosition> {
        match self {
            Setup::Fen(fen) => Some(crate::core::StartPosition {
                start: fen.clone(),
                chess960: false,
            }),
            Setup::Chess960(n) => crate::core::StartPosition::chess960(*n),
        }
    }
}

/// A relayed move as it was given: in UCI (`g8f6`) or SAN (`Nf6`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relayed {
    Uci(UciMove),
    San(San),
}

/// What the arbiter sets on the clock; `None` leaves a value as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClockSetting {
    pub white_ms: Option<u64>,
    pub black_ms: Option<u64>,
    pub white_moves: Option<u32>,
    pub black_moves: Option<u32>,
}

/// A JSON object whose keys are each given once: `{"san":"e4","san":"Ke2"}`
/// is refused, not read as its last value (which one a reader keeps is
/// not the same everywhere).
struct UniqueObject(serde_json::Map<String, serde_json::Value>);

impl<'de> serde::Deserialize<'de> for UniqueObject {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = UniqueObject;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<UniqueObject, A::Error> {
                let mut object = serde_json::Map::new();
                while let Some((key, value)) = map.next_entry::<String, serde_json::Value>()? {
                    if object.contains_key(&key) {
                        return Err(serde::de::Error::custom(format!(
                            "`{}` is given twice",
                            crate::text::quote::short(&key)
                        )));
                    }
                    object.insert(key, value);
                }
                Ok(UniqueObject(object))
            }
        }
        d.deserialize_map(Visitor)
    }
}

impl Input {
    /// Every input's name, as written in a trace, a journal or a request.
    pub const NAMES: [&'static str; 72] = [
        "promote",
        "adjust",
        "clock",
        "repeat",
        "move_number",
        "rank",
        "file",
        "announced",
        "times",
        "position",
        "square",
        "draw_offer",
        "draw_claim",
        "resign",
        "resign_key",
        "console_resign",
        "pause",
        "resume",
        "set_clock",
        "illegal_move",
        "quickplay_claim",
        "quickplay_draw",
        "quickplay_postpone",
        "quickplay_reject",
        "draw_decline",
        "flag_claim",
        "board_lost",
        "board_back",
        "braille_lost",
        "braille_back",
        "restarted",
        "new_game",
        "move",
        "retrace",
        "take_back",
        "to_replicate",
        "differences",
        "touch_report",
        "setup",
        "adjourn",
        "unseal",
        "hint",
        "evaluation",
        "analysis",
        "review_analysis",
        "past_game",
        "threat",
        "threat_analysis",
        "practice_take_back",
        "review",
        "material",
        "call_arbiter",
        "arbiter_coming",
        "opening",
        "opening_classified",
        "menu",
        "menu_next",
        "menu_select",
        "menu_back",
        "online_game",
        "online_games",
        "online_clock",
        "online_end",
        "online_lost",
        "online_back",
        "online_takeback",
        "online_rematch",
        "online_gone",
        "online_returned",
        "online_chat",
        "online_notice",
        "engine_trouble",
    ];

    /// The input's name as written in a trace.
    pub fn name(&self) -> &'static str {
        match self {
            Input::Promote(_) => "promote",
            Input::Adjust(_) => "adjust",
            Input::Clock(_) => "clock",
            Input::Repeat(_) | Input::RepeatPly(_) => "repeat",
            Input::MoveNumber => "move_number",
            Input::Rank(_) => "rank",
            Input::File(_) => "file",
            Input::Announced(_) => "announced",
            Input::Times => "times",
            Input::Position => "position",
            Input::Square(_) => "square",
            Input::DrawOffer(_) => "draw_offer",
            Input::DrawClaim(_) => "draw_claim",
            Input::Resign(_) => "resign",
            Input::ResignKey(_) => "resign_key",
            Input::ConsoleResign(_) => "console_resign",
            Input::Pause => "pause",
            Input::Resume => "resume",
            Input::SetClock(_) => "set_clock",
            Input::IllegalMove(_) => "illegal_move",
            Input::QuickplayClaim(_) => "quickplay_claim",
            Input::QuickplayRuling(r) => r.name(),
            Input::DrawDecline(_) => "draw_decline",
            Input::FlagClaim(_) => "flag_claim",
            Input::BoardLost => "board_lost",
            Input::BoardBack => "board_back",
            Input::BrailleLost => "braille_lost",
            Input::BrailleBack => "braille_back",
            Input::Restarted { .. } => "restarted",
            Input::NewGame => "new_game",
            Input::Move(_) => "move",
            Input::Retrace(_) => "retrace",
            Input::TakeBack(_) => "take_back",
            Input::ToReplicate => "to_replicate",
            Input::Differences => "differences",
            Input::TouchReport(_) => "touch_report",
            Input::Setup(_) => "setup",
            Input::Adjourn(_) => "adjourn",
            Input::Unseal => "unseal",
            Input::Hint => "hint",
            Input::Evaluation(_) => "evaluation",
            Input::Analysis(_) => "analysis",
            Input::ReviewAnalysis(_) => "review_analysis",
            Input::Threat => "threat",
            Input::ThreatAnalysis(_) => "threat_analysis",
            Input::PastGame(_) => "past_game",
            Input::PracticeTakeBack => "practice_take_back",
            Input::Review => "review",
            Input::Material => "material",
            Input::CallArbiter => "call_arbiter",
            Input::ArbiterComing => "arbiter_coming",
            Input::Opening => "opening",
            Input::OpeningClassified { .. } => "opening_classified",
            Input::Menu(MenuStep::Open) => "menu",
            Input::Menu(MenuStep::Next) => "menu_next",
            Input::Menu(MenuStep::Select) => "menu_select",
            Input::Menu(MenuStep::Back) => "menu_back",
            Input::Keyed { input, .. } => input.name(),
            Input::OnlineGame(_) => "online_game",
            Input::OnlineGames(_) => "online_games",
            Input::OnlineClock { .. } => "online_clock",
            Input::OnlineEnd { .. } => "online_end",
            Input::OnlineLost => "online_lost",
            Input::OnlineBack => "online_back",
            Input::OnlineTakeback => "online_takeback",
            Input::OnlineRematch => "online_rematch",
            Input::OnlineGone { seconds: Some(_) } => "online_gone",
            Input::OnlineGone { seconds: None } => "online_returned",
            Input::OnlineChat { .. } => "online_chat",
            Input::OnlineNotice(_) => "online_notice",
            Input::EngineTrouble(_) => "engine_trouble",
        }
    }
}

/// The arbiter's decision on a quickplay-finish claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuickplayRuling {
    /// The opponent cannot win by normal means, or is making no effort
    /// to: the game is drawn.
    Draw,
    /// The decision is postponed: the opponent gets two minutes (once)
    /// and the game goes on; the arbiter decides later, after a flag
    /// falls at the latest.
    Postpone,
    /// The claim is rejected: the opponent gets two minutes (unless a
    /// postponement gave them already), and a flag that fell meanwhile
    /// counts.
    Reject,
}

impl QuickplayRuling {
    /// The input's name for this ruling.
    pub fn name(self) -> &'static str {
        match self {
            QuickplayRuling::Draw => "quickplay_draw",
            QuickplayRuling::Postpone => "quickplay_postpone",
            QuickplayRuling::Reject => "quickplay_reject",
        }
    }
}

/// Why a name and fields are no input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    /// No input has this name.
    Unknown(String),
    /// The input does not take this field.
    ForeignField { input: String, field: &'static str },
    /// A field the input needs is missing or out of its range; the message
    /// says what it should hold.
    Field { input: String, message: String },
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::Unknown(name) => write!(
                f,
                "unknown input \"{name}\" (known: {})",
                Input::NAMES.join(", ")
            ),
            InputError::ForeignField { input, field } => {
                write!(f, "field `{field}` does not belong to input `{input}`")
            }
            InputError::Field { message, .. } => f.write_str(message),
        }
    }
}

impl std::error::Error for InputError {}

/// The fields an input may carry, as read from a line: each input takes
/// the ones it needs, and a field it does not take is an error.
#[derive(Debug, Clone, Copy, Default)]
pub struct InputFields<'a> {
    pub piece: Option<&'a str>,
    pub color: Option<&'a str>,
    pub square: Option<&'a str>,
    pub count: Option<u32>,
    pub rank: Option<u32>,
    pub file: Option<&'a str>,
    pub ply: Option<u32>,
    pub white_ms: Option<u64>,
    pub black_ms: Option<u64>,
    pub white_moves: Option<u32>,
    pub black_moves: Option<u32>,
    /// `restarted`: `held` or `running`.
    pub clocks: Option<&'a str>,
    /// `move`: the move in UCI, or…
    pub uci: Option<&'a str>,
    /// …in SAN.
    pub san: Option<&'a str>,
    /// `setup`: a FEN, or…
    pub fen: Option<&'a str>,
    /// …a Chess960 start number.
    pub chess960: Option<u32>,
    /// `analysis`: the score in centipawns, or…
    pub cp: Option<i64>,
    /// …a mate in this many moves (both from White's side).
    pub mate: Option<i64>,
    /// `analysis`: how deep the engine looked.
    pub depth: Option<u32>,
    /// `analysis`: the engine's main line, moves in UCI separated by
    /// spaces.
    pub line: Option<&'a str>,
    /// `opening_classified`: the ECO code found, and its family.
    pub eco: Option<&'a str>,
    pub family: Option<&'a str>,
    /// `past_game`: the game's moves in UCI, separated by spaces…
    pub moves: Option<&'a str>,
    /// …and the engine's judgements of its positions.
    pub analyses: Option<&'a [WrittenAnalysis]>,
    /// Any input from a key that is also a menu key: the step it is while
    /// the menu is open (`next`, `select`, `back`).
    pub menu: Option<&'a str>,
    /// `online_game`: the game the server started.
    pub game: Option<&'a OnlineGame>,
    /// `online_games`: the games under way to choose from.
    pub games: Option<&'a [OnlineChoice]>,
    /// `online_end`: the server's status for the end.
    pub status: Option<&'a str>,
    /// `online_gone`: the seconds until the win can be claimed.
    pub seconds: Option<u32>,
    /// `online_chat`: who wrote…
    pub name: Option<&'a str>,
    /// …what.
    pub text: Option<&'a str>,
    /// `online_notice`: which.
    pub notice: Option<&'a str>,
    /// `engine_trouble`: which.
    pub trouble: Option<&'a str>,
}

fn square(field: &str, s: &str) -> Result<Square, String> {
    s.parse::<Square>().map_err(|_| {
        format!(
            "`{field}` must be a square from a1 to h8, not \"{}\"",
            crate::text::quote::short(s)
        )
    })
}

/// A move given as `uci` or `san` (one of them) to the input `input`.
fn relayed(input: &str, uci: Option<&str>, san: Option<&str>) -> Result<Relayed, String> {
    match (uci, san) {
        (Some(u), None) => u.parse().map(Relayed::Uci).map_err(|_| {
            format!(
                "input `{input}`: `uci` must be a move in UCI such as \"g8f6\", not \"{}\"",
                crate::text::quote::short(u)
            )
        }),
        (None, Some(s)) => s.parse().map(Relayed::San).map_err(|_| {
            format!(
                "input `{input}`: `san` must be a move in SAN such as \"Nf6\", not \"{}\"",
                crate::text::quote::short(s)
            )
        }),
        _ => Err(format!(
            "input `{input}` needs either a `uci` (\"g8f6\") or a `san` (\"Nf6\")"
        )),
    }
}

/// The largest score in centipawns an `analysis` may give (a hundred
/// queens), and the longest mate.
const MAX_CP: i64 = 100_000;
const MAX_MATE: i64 = 500;

/// An `analysis` input's fields: `ply`, `cp` or `mate`, `depth`, and the
/// best move as `uci` when there is one.
fn analysis(f: &InputFields) -> Result<Analysis, String> {
    let ply = f
        .ply
        .ok_or("input `analysis` needs a `ply`: the moves made before the position")?;
    let score = match (f.cp, f.mate) {
        (Some(cp), None) if cp.abs() <= MAX_CP => Score::Cp(cp as i32),
        (None, Some(n)) if n != 0 && n.abs() <= MAX_MATE => Score::Mate(n as i32),
        (Some(_), None) => return Err(format!("input `analysis`: `cp` must be within ±{MAX_CP}")),
        (None, Some(_)) => {
            return Err(format!(
                "input `analysis`: `mate` must be from 1 to {MAX_MATE} moves, negative when Black mates"
            ));
        }
        _ => {
            return Err(
                "input `analysis` needs either a `cp` (centipawns) or a `mate`, from White's side"
                    .to_string(),
            );
        }
    };
    let best = match f.uci {
        Some(u) => Some(u.parse::<UciMove>().map_err(|_| {
            format!(
                "input `analysis`: `uci` must be a move in UCI such as \"g8f6\", not \"{}\"",
                crate::text::quote::short(u)
            )
        })?),
        None => None,
    };
    let line = match f.line {
        Some(text) => text
            .split_whitespace()
            .map(|m| {
                m.parse::<UciMove>().map_err(|_| {
                    format!(
                        "input `analysis`: `line` must be moves in UCI separated by spaces, such as \"e2e4 e7e5\"; \"{}\" is none",
                        crate::text::quote::short(m)
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    if line.len() > crate::core::analysis::MAX_LINE {
        return Err(format!(
            "input `analysis`: `line` may hold at most {} moves",
            crate::core::analysis::MAX_LINE
        ));
    }
    Ok(Analysis {
        ply,
        best,
        score,
        depth: f.depth.unwrap_or(0),
        line,
    })
}

/// The longest `past_game` input pegboard writes: a trace line holds at
/// most [`crate::trace::MAX_LINE_BYTES`], with room for its time.
const PAST_GAME_BYTES: usize = 60_000;

impl Input {
    /// The `past_game` input for `review`, made to fit a trace line: for
    /// a very long game the engine's main lines are left out, and beyond
    /// that its answers (it is asked again when the review is).
    pub fn past_game(mut review: crate::core::review::Review) -> Input {
        let fits = |r: &crate::core::review::Review| {
            Input::PastGame(Box::new(r.clone())).to_json().len() <= PAST_GAME_BYTES
        };
        if !fits(&review) {
            review.drop_lines();
        }
        if !fits(&review) {
            review.drop_analyses();
        }
        Input::PastGame(Box::new(review))
    }
}

/// One analysis in a `past_game` input, written as an `analysis`
/// input's fields are.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenAnalysis {
    pub ply: Option<u32>,
    pub uci: Option<String>,
    pub cp: Option<i64>,
    pub mate: Option<i64>,
    pub depth: Option<u32>,
    pub line: Option<String>,
}

/// A `past_game` input's fields: `fen` (its start), `moves`, `color` (the
/// person's) and `analyses`.
fn past_game(f: &InputFields) -> Result<crate::core::review::Review, String> {
    let fen = f
        .fen
        .ok_or("input `past_game` needs a `fen`: the position the game began from")?;
    let setup = fen
        .parse::<shakmaty::fen::Fen>()
        .map_err(|e| format!("input `past_game`: `fen` is no FEN ({e})"))?
        .into_setup();
    let mode = shakmaty::CastlingMode::detect(&setup);
    let start: shakmaty::Chess = setup
        .position(mode)
        .map_err(|e| format!("input `past_game`: `fen` is no legal position ({e})"))?;
    let moves = f
        .moves
        .unwrap_or_default()
        .split_whitespace()
        .map(|m| {
            m.parse::<UciMove>().map_err(|_| {
                format!(
                    "input `past_game`: `moves` must be moves in UCI separated by spaces; \"{}\" is none",
                    crate::text::quote::short(m)
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let player = color("past_game", f.color)?;
    let mut review = crate::core::review::Review::new(start, mode, &moves, player)
        .map_err(|e| format!("input `past_game`: {e}"))?;
    for (i, w) in f.analyses.unwrap_or_default().iter().enumerate() {
        let a = analysis(&InputFields {
            ply: w.ply,
            uci: w.uci.as_deref(),
            cp: w.cp,
            mate: w.mate,
            depth: w.depth,
            line: w.line.as_deref(),
            ..InputFields::default()
        })
        .map_err(|e| format!("input `past_game`: analysis {}: {e}", i + 1))?;
        review
            .take(a)
            .map_err(|e| format!("input `past_game`: analysis {}: {e}", i + 1))?;
    }
    Ok(review)
}

fn color(input: &str, c: Option<&str>) -> Result<Color, String> {
    match c {
        Some("white") => Ok(Color::White),
        Some("black") => Ok(Color::Black),
        Some(other) => Err(format!(
            "input `{input}`: `color` must be \"white\" or \"black\", not \"{}\"",
            crate::text::quote::short(other)
        )),
        None => Err(format!(
            "input `{input}` needs a `color` (\"white\" or \"black\")"
        )),
    }
}

impl Input {
    /// Reads the input named `name` with its fields; the error says what
    /// the input should have held.
    pub fn decode(name: &str, f: &InputFields) -> Result<Input, InputError> {
        let bad = |message: String| InputError::Field {
            input: crate::text::quote::short(name).to_string(),
            message,
        };
        if let Some(role) = f.menu {
            let menu = MenuStep::from_role(role).ok_or_else(|| {
                bad(format!(
                    "`menu` must be \"next\", \"select\" or \"back\", not \"{}\"",
                    crate::text::quote::short(role)
                ))
            })?;
            if name.starts_with("menu") {
                return Err(bad(format!(
                    "input `{name}` is a menu step itself; it takes no `menu`"
                )));
            }
            let input = Input::decode(name, &InputFields { menu: None, ..*f })?;
            return Ok(Input::Keyed {
                menu,
                input: Box::new(input),
            });
        }
        let uses_piece = name == "promote";
        let uses_color = matches!(
            name,
            "adjust"
                | "clock"
                | "draw_offer"
                | "draw_claim"
                | "resign"
                | "resign_key"
                | "console_resign"
                | "illegal_move"
                | "quickplay_claim"
                | "draw_decline"
                | "flag_claim"
                | "touch_report"
                | "online_end"
                | "past_game"
        );
        let sets_clock = name == "set_clock" || name == "online_clock";
        let uses_square = name == "square";
        let analysed = matches!(name, "analysis" | "review_analysis" | "threat_analysis");
        for (field, present, used) in [
            ("piece", f.piece.is_some(), uses_piece),
            ("color", f.color.is_some(), uses_color),
            ("square", f.square.is_some(), uses_square),
            ("count", f.count.is_some(), name == "repeat"),
            ("rank", f.rank.is_some(), name == "rank"),
            ("file", f.file.is_some(), name == "file"),
            (
                "ply",
                f.ply.is_some(),
                matches!(
                    name,
                    "announced"
                        | "repeat"
                        | "retrace"
                        | "take_back"
                        | "analysis"
                        | "review_analysis"
                        | "threat_analysis"
                        | "evaluation"
                        | "opening_classified"
                ),
            ),
            (
                "uci",
                f.uci.is_some(),
                matches!(
                    name,
                    "move" | "adjourn" | "analysis" | "review_analysis" | "threat_analysis"
                ),
            ),
            ("san", f.san.is_some(), name == "move" || name == "adjourn"),
            (
                "fen",
                f.fen.is_some(),
                name == "setup" || name == "past_game",
            ),
            ("chess960", f.chess960.is_some(), name == "setup"),
            ("white_ms", f.white_ms.is_some(), sets_clock),
            ("black_ms", f.black_ms.is_some(), sets_clock),
            ("white_moves", f.white_moves.is_some(), sets_clock),
            ("black_moves", f.black_moves.is_some(), sets_clock),
            ("clocks", f.clocks.is_some(), name == "restarted"),
            ("cp", f.cp.is_some(), analysed),
            ("mate", f.mate.is_some(), analysed),
            ("depth", f.depth.is_some(), analysed),
            ("line", f.line.is_some(), analysed),
            ("eco", f.eco.is_some(), name == "opening_classified"),
            ("family", f.family.is_some(), name == "opening_classified"),
            ("moves", f.moves.is_some(), name == "past_game"),
            ("analyses", f.analyses.is_some(), name == "past_game"),
            ("game", f.game.is_some(), name == "online_game"),
            ("games", f.games.is_some(), name == "online_games"),
            ("status", f.status.is_some(), name == "online_end"),
            (
                "seconds",
                f.seconds.is_some(),
                matches!(name, "online_gone" | "online_notice"),
            ),
            (
                "name",
                f.name.is_some(),
                matches!(name, "online_chat" | "online_notice"),
            ),
            (
                "text",
                f.text.is_some(),
                matches!(name, "online_chat" | "online_notice"),
            ),
            ("notice", f.notice.is_some(), name == "online_notice"),
            ("trouble", f.trouble.is_some(), name == "engine_trouble"),
        ] {
            if present && !used {
                return Err(InputError::ForeignField {
                    input: crate::text::quote::short(name).to_string(),
                    field,
                });
            }
        }
        Ok(match name {
            "promote" => Input::Promote(match f.piece {
                Some("q") => Role::Queen,
                Some("r") => Role::Rook,
                Some("b") => Role::Bishop,
                Some("n") => Role::Knight,
                Some(other) => {
                    return Err(bad(format!(
                        "input `promote`: `piece` must be q, r, b or n, not \"{}\"",
                        crate::text::quote::short(other)
                    )));
                }
                None => {
                    return Err(bad(
                        "input `promote` needs a `piece` (q, r, b or n)".to_string()
                    ));
                }
            }),
            "adjust" => Input::Adjust(
                f.color
                    .map(|c| color(name, Some(c)))
                    .transpose()
                    .map_err(bad)?,
            ),
            "clock" => Input::Clock(color(name, f.color).map_err(bad)?),
            "repeat" => match (f.count, f.ply) {
                (Some(_), Some(_)) => {
                    return Err(bad(
                        "input `repeat`: give `count` (the last moves) or `ply` (one move), not both"
                            .to_string(),
                    ));
                }
                (_, Some(0)) => {
                    return Err(bad("input `repeat`: `ply` must be at least 1".to_string()));
                }
                (_, Some(ply)) => Input::RepeatPly(ply),
                (None, None) => Input::Repeat(1),
                (Some(n @ 1..), None) => Input::Repeat(n),
                (Some(0), None) => {
                    return Err(bad("input `repeat`: `count` must be at least 1".to_string()));
                }
            },
            "move_number" => Input::MoveNumber,
            "rank" => match f.rank {
                Some(r @ 1..=8) => Input::Rank(Rank::new(r - 1)),
                Some(other) => {
                    return Err(bad(format!(
                        "input `rank`: `rank` must be a number from 1 to 8, not {other}"
                    )));
                }
                None => return Err(bad("input `rank` needs a `rank` (1 to 8)".to_string())),
            },
            "file" => match f.file.and_then(|f| {
                let mut chars = f.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => File::from_char(c),
                    _ => None,
                }
            }) {
                Some(f) => Input::File(f),
                None => {
                    return Err(bad(format!(
                        "input `file` needs a `file` from \"a\" to \"h\"{}",
                        f.file
                            .map(|f| format!(", not \"{}\"", crate::text::quote::short(f)))
                            .unwrap_or_default()
                    )));
                }
            },
            "announced" => match f.ply {
                Some(p @ 1..) => Input::Announced(p),
                _ => {
                    return Err(bad(
                        "input `announced` needs a `ply` (1 or more)".to_string()
                    ));
                }
            },
            "times" => Input::Times,
            "position" => Input::Position,
            "square" => match f.square {
                Some(s) => Input::Square(square("square", s).map_err(bad)?),
                None => return Err(bad("input `square` needs a `square`".to_string())),
            },
            "draw_offer" => Input::DrawOffer(color(name, f.color).map_err(bad)?),
            "draw_claim" => Input::DrawClaim(color(name, f.color).map_err(bad)?),
            "resign" => Input::Resign(color(name, f.color).map_err(bad)?),
            "resign_key" => Input::ResignKey(color(name, f.color).map_err(bad)?),
            "console_resign" => Input::ConsoleResign(color(name, f.color).map_err(bad)?),
            "pause" => Input::Pause,
            "resume" => Input::Resume,
            "set_clock" => {
                let setting = ClockSetting {
                    white_ms: f.white_ms,
                    black_ms: f.black_ms,
                    white_moves: f.white_moves,
                    black_moves: f.black_moves,
                };
                if setting == ClockSetting::default() {
                    return Err(bad(
                        "input `set_clock` needs at least one of `white_ms`, `black_ms`, \
                             `white_moves`, `black_moves`"
                            .to_string(),
                    ));
                }
                for (field, ms) in [
                    ("white_ms", setting.white_ms),
                    ("black_ms", setting.black_ms),
                ] {
                    if ms.is_some_and(|ms| ms > MAX_TIME_MS) {
                        return Err(bad(format!(
                            "input `set_clock`: `{field}` must be at most {MAX_TIME_MS} (100 hours)"
                        )));
                    }
                }
                for (field, n) in [
                    ("white_moves", setting.white_moves),
                    ("black_moves", setting.black_moves),
                ] {
                    if n.is_some_and(|n| n > MAX_MOVES) {
                        return Err(bad(format!(
                            "input `set_clock`: `{field}` must be at most {MAX_MOVES}"
                        )));
                    }
                }
                Input::SetClock(setting)
            }
            "illegal_move" => Input::IllegalMove(color(name, f.color).map_err(bad)?),
            "quickplay_claim" => Input::QuickplayClaim(color(name, f.color).map_err(bad)?),
            "quickplay_draw" => Input::QuickplayRuling(QuickplayRuling::Draw),
            "quickplay_postpone" => Input::QuickplayRuling(QuickplayRuling::Postpone),
            "quickplay_reject" => Input::QuickplayRuling(QuickplayRuling::Reject),
            "draw_decline" => Input::DrawDecline(color(name, f.color).map_err(bad)?),
            "flag_claim" => Input::FlagClaim(color(name, f.color).map_err(bad)?),
            "board_lost" => Input::BoardLost,
            "board_back" => Input::BoardBack,
            "braille_lost" => Input::BrailleLost,
            "braille_back" => Input::BrailleBack,
            "restarted" => match f.clocks {
                None | Some("held") => Input::Restarted { hold: true },
                Some("running") => Input::Restarted { hold: false },
                Some(other) => {
                    return Err(bad(format!(
                        "input `restarted`: `clocks` must be \"held\" or \"running\", not \"{}\"",
                        crate::text::quote::short(other)
                    )));
                }
            },
            "new_game" => Input::NewGame,
            "move" | "adjourn" => {
                let relayed = relayed(name, f.uci, f.san).map_err(bad)?;
                if name == "move" {
                    Input::Move(relayed)
                } else {
                    Input::Adjourn(relayed)
                }
            }
            "unseal" => Input::Unseal,
            "take_back" => match f.ply {
                Some(p) => Input::TakeBack(p),
                None => {
                    return Err(bad(
                        "input `take_back` needs a `ply`: the ply the relayed move made"
                            .to_string(),
                    ));
                }
            },
            "retrace" => match f.ply {
                Some(p) => Input::Retrace(p),
                None => {
                    return Err(bad(
                        "input `retrace` needs a `ply`: the moves to keep (0 or more)".to_string(),
                    ));
                }
            },
            "to_replicate" => Input::ToReplicate,
            "differences" => Input::Differences,
            "touch_report" => Input::TouchReport(color(name, f.color).map_err(bad)?),
            "setup" => {
                let setup = match (f.fen, f.chess960) {
                    (Some(fen), None) => Setup::Fen(fen.to_string()),
                    (None, Some(n @ 0..=959)) => Setup::Chess960(n),
                    (None, Some(n)) => {
                        return Err(bad(format!(
                            "input `setup`: `chess960` must be from 0 to 959, not {n}"
                        )));
                    }
                    _ => {
                        return Err(bad(
                            "input `setup` needs either a `fen` or a `chess960` start number"
                                .to_string(),
                        ));
                    }
                };
                if let Some(Err(e)) = setup.start().map(|s| s.position()) {
                    return Err(bad(format!("input `setup`: {e}")));
                }
                Input::Setup(setup)
            }
            "hint" => Input::Hint,
            "evaluation" => Input::Evaluation(f.ply),
            "review_analysis" => Input::ReviewAnalysis(analysis(f).map_err(bad)?),
            "threat" => Input::Threat,
            "threat_analysis" => Input::ThreatAnalysis(analysis(f).map_err(bad)?),
            "past_game" => Input::PastGame(Box::new(past_game(f).map_err(bad)?)),
            "practice_take_back" => Input::PracticeTakeBack,
            "review" => Input::Review,
            "material" => Input::Material,
            "call_arbiter" => Input::CallArbiter,
            "arbiter_coming" => Input::ArbiterComing,
            "opening" => Input::Opening,
            "opening_classified" => Input::OpeningClassified {
                ply: f.ply.ok_or_else(|| {
                    bad("input `opening_classified` needs a `ply`: the moves classified".into())
                })?,
                eco: f
                    .eco
                    .map(|e| {
                        e.parse().map_err(|e: crate::core::opening::EcoError| {
                            bad(format!("input `opening_classified`: {e}"))
                        })
                    })
                    .transpose()?,
                family: f
                    .family
                    .map(|e| {
                        e.parse().map_err(|e: crate::core::opening::FamilyError| {
                            bad(format!("input `opening_classified`: {e}"))
                        })
                    })
                    .transpose()?,
            },
            "menu" => Input::Menu(MenuStep::Open),
            "menu_next" => Input::Menu(MenuStep::Next),
            "menu_select" => Input::Menu(MenuStep::Select),
            "menu_back" => Input::Menu(MenuStep::Back),
            "analysis" => Input::Analysis(analysis(f).map_err(bad)?),
            "online_games" => match f.games {
                Some(games) => {
                    if games.len() > crate::core::online::MAX_CHOICES {
                        return Err(bad(format!(
                            "input `online_games` lists at most {} games",
                            crate::core::online::MAX_CHOICES
                        )));
                    }
                    for g in games {
                        g.check()
                            .map_err(|e| bad(format!("input `online_games`: {e}")))?;
                    }
                    Input::OnlineGames(games.to_vec())
                }
                None => {
                    return Err(bad(
                        "input `online_games` needs `games`: the games under way to choose from"
                            .into(),
                    ));
                }
            },
            "online_game" => match f.game {
                Some(game) => {
                    game.check()
                        .map_err(|e| bad(format!("input `online_game`: {e}")))?;
                    Input::OnlineGame(Box::new(game.clone()))
                }
                None => {
                    return Err(bad(
                        "input `online_game` needs a `game`: the game the server started"
                            .to_string(),
                    ));
                }
            },
            "online_clock" => match (f.white_ms, f.black_ms, f.white_moves, f.black_moves) {
                (Some(w), Some(b), None, None) if w <= MAX_TIME_MS && b <= MAX_TIME_MS => {
                    Input::OnlineClock {
                        white_ms: w,
                        black_ms: b,
                    }
                }
                (_, _, None, None) => {
                    return Err(bad(format!(
                        "input `online_clock` needs both `white_ms` and `black_ms`, each at most {MAX_TIME_MS}"
                    )));
                }
                _ => {
                    return Err(bad(
                        "input `online_clock` takes `white_ms` and `black_ms` only".to_string(),
                    ));
                }
            },
            "online_end" => match f.status {
                Some(status) if crate::core::online::STATUSES.contains(&status) => {
                    Input::OnlineEnd {
                        status: status.to_string(),
                        winner: f
                            .color
                            .map(|c| color(name, Some(c)))
                            .transpose()
                            .map_err(bad)?,
                    }
                }
                other => {
                    return Err(bad(format!(
                        "input `online_end` needs a `status`, one of {}{}",
                        crate::core::online::STATUSES.join(", "),
                        other
                            .map(|s| format!(", not \"{}\"", crate::text::quote::short(s)))
                            .unwrap_or_default()
                    )));
                }
            },
            "online_lost" => Input::OnlineLost,
            "online_back" => Input::OnlineBack,
            "online_takeback" => Input::OnlineTakeback,
            "online_rematch" => Input::OnlineRematch,
            "online_gone" => Input::OnlineGone {
                seconds: Some(f.seconds.ok_or_else(|| {
                    bad("input `online_gone` needs `seconds`: until the win can be claimed".into())
                })?),
            },
            "online_returned" => Input::OnlineGone { seconds: None },
            "online_chat" => match (f.name, f.text) {
                (Some(who), Some(text))
                    if who.len() <= 100
                        && text.len() <= 1000
                        && !who.chars().chain(text.chars()).any(char::is_control) =>
                {
                    Input::OnlineChat {
                        name: who.to_string(),
                        text: text.to_string(),
                    }
                }
                _ => {
                    return Err(bad(
                        "input `online_chat` needs a `name` (at most 100 bytes) and a `text` \
                         (at most 1000), without control characters"
                            .to_string(),
                    ));
                }
            },
            "engine_trouble" => {
                Input::EngineTrouble(f.trouble.and_then(EngineTrouble::from_name).ok_or_else(
                    || {
                        bad(format!(
                            "input `engine_trouble` needs a `trouble`: one of {}",
                            EngineTrouble::ALL
                                .map(|t| format!("\"{}\"", t.name()))
                                .join(", ")
                        ))
                    },
                )?)
            }
            "online_notice" => Input::OnlineNotice(
                crate::core::online::ServerNotice::from_fields(
                    f.notice.unwrap_or_default(),
                    f.name,
                    f.text,
                    f.seconds,
                )
                .map_err(bad)?,
            ),
            other => {
                return Err(InputError::Unknown(
                    crate::text::quote::short(other).to_string(),
                ));
            }
        })
    }

    /// The input's fields as written after its name in a JSON object
    /// (`,"color":"black"`), empty for an input without fields.
    pub fn fields(&self) -> String {
        match self {
            Input::Promote(role) => format!(r#","piece":"{}""#, role.char()),
            Input::Adjust(None) => String::new(),
            Input::Clock(c)
            | Input::DrawOffer(c)
            | Input::DrawClaim(c)
            | Input::Resign(c)
            | Input::ResignKey(c)
            | Input::ConsoleResign(c)
            | Input::IllegalMove(c)
            | Input::QuickplayClaim(c)
            | Input::DrawDecline(c)
            | Input::FlagClaim(c)
            | Input::TouchReport(c)
            | Input::Adjust(Some(c)) => {
                format!(
                    r#","color":"{}""#,
                    match c {
                        Color::White => "white",
                        Color::Black => "black",
                    }
                )
            }
            Input::Square(sq) => format!(r#","square":"{sq}""#),
            Input::Repeat(1) => String::new(),
            Input::Repeat(n) => format!(r#","count":{n}"#),
            Input::RepeatPly(ply) => format!(r#","ply":{ply}"#),
            Input::Rank(r) => format!(r#","rank":{}"#, u32::from(*r) + 1),
            Input::File(f) => format!(r#","file":"{}""#, f.char()),
            Input::Announced(ply) | Input::Retrace(ply) | Input::TakeBack(ply) => {
                format!(r#","ply":{ply}"#)
            }
            Input::Move(Relayed::Uci(u)) | Input::Adjourn(Relayed::Uci(u)) => {
                format!(r#","uci":"{u}""#)
            }
            Input::Move(Relayed::San(s)) | Input::Adjourn(Relayed::San(s)) => {
                format!(r#","san":"{s}""#)
            }
            Input::Setup(Setup::Fen(fen)) => {
                format!(
                    r#","fen":{}"#,
                    serde_json::to_string(fen).unwrap_or_default()
                )
            }
            Input::Setup(Setup::Chess960(n)) => format!(r#","chess960":{n}"#),
            Input::Evaluation(Some(ply)) => format!(r#","ply":{ply}"#),
            Input::OpeningClassified { ply, eco, family } => {
                let eco = eco.map(|e| format!(r#","eco":"{e}""#));
                let family = family.map(|f| format!(r#","family":"{f}""#));
                format!(
                    r#","ply":{ply}{}{}"#,
                    eco.unwrap_or_default(),
                    family.unwrap_or_default()
                )
            }
            Input::PastGame(review) => {
                let start = shakmaty::fen::Fen::from_position(
                    review.start(),
                    shakmaty::EnPassantMode::Legal,
                );
                let color = match review.player() {
                    Color::White => "white",
                    Color::Black => "black",
                };
                let analyses: Vec<String> = review
                    .analyses()
                    .map(|a| {
                        let fields = Input::Analysis(a.clone()).fields();
                        format!("{{{}}}", fields.trim_start_matches(','))
                    })
                    .collect();
                format!(
                    r#","fen":"{start}","moves":"{}","color":"{color}","analyses":[{}]"#,
                    review.uci().join(" "),
                    analyses.join(",")
                )
            }
            Input::Analysis(a) | Input::ReviewAnalysis(a) | Input::ThreatAnalysis(a) => {
                let best = a.best.map(|u| format!(r#","uci":"{u}""#));
                let score = match a.score {
                    Score::Cp(cp) => format!(r#","cp":{cp}"#),
                    Score::Mate(n) => format!(r#","mate":{n}"#),
                };
                let line = if a.line.is_empty() {
                    String::new()
                } else {
                    let moves: Vec<String> = a.line.iter().map(ToString::to_string).collect();
                    format!(r#","line":"{}""#, moves.join(" "))
                };
                format!(
                    r#","ply":{}{}{score},"depth":{}{line}"#,
                    a.ply,
                    best.unwrap_or_default(),
                    a.depth
                )
            }
            Input::Keyed { menu, input } => {
                format!(r#"{},"menu":"{}""#, input.fields(), menu.role())
            }
            Input::Restarted { hold: true } => String::new(),
            Input::Restarted { hold: false } => r#","clocks":"running""#.to_string(),
            Input::SetClock(c) => [
                c.white_ms.map(|v| format!(r#","white_ms":{v}"#)),
                c.black_ms.map(|v| format!(r#","black_ms":{v}"#)),
                c.white_moves.map(|v| format!(r#","white_moves":{v}"#)),
                c.black_moves.map(|v| format!(r#","black_moves":{v}"#)),
            ]
            .into_iter()
            .flatten()
            .collect(),
            Input::OnlineGame(game) => format!(
                r#","game":{}"#,
                serde_json::to_string(game).unwrap_or_default()
            ),
            Input::OnlineGames(games) => format!(
                r#","games":{}"#,
                serde_json::to_string(games).unwrap_or_default()
            ),
            Input::OnlineClock { white_ms, black_ms } => {
                format!(r#","white_ms":{white_ms},"black_ms":{black_ms}"#)
            }
            Input::OnlineGone { seconds: Some(n) } => format!(r#","seconds":{n}"#),
            Input::OnlineChat { name, text } => format!(
                r#","name":{},"text":{}"#,
                serde_json::to_string(name).unwrap_or_default(),
                serde_json::to_string(text).unwrap_or_default()
            ),
            Input::EngineTrouble(trouble) => format!(r#","trouble":"{}""#, trouble.name()),
            Input::OnlineNotice(notice) => {
                let (who, text, seconds) = notice.fields();
                let json = |s: &str| serde_json::to_string(s).unwrap_or_default();
                [
                    Some(format!(r#","notice":"{}""#, notice.name())),
                    who.map(|w| format!(r#","name":{}"#, json(w))),
                    text.map(|t| format!(r#","text":{}"#, json(t))),
                    seconds.map(|n| format!(r#","seconds":{n}"#)),
                ]
                .into_iter()
                .flatten()
                .collect()
            }
            Input::OnlineEnd { status, winner } => {
                let winner = winner.map(|c| {
                    format!(
                        r#","color":"{}""#,
                        match c {
                            Color::White => "white",
                            Color::Black => "black",
                        }
                    )
                });
                format!(
                    r#","status":{}{}"#,
                    serde_json::to_string(status).unwrap_or_default(),
                    winner.unwrap_or_default()
                )
            }
            _ => String::new(),
        }
    }

    /// Reads an input from its JSON object, as a console sends it:
    /// `{"input":"move","san":"Nf6"}`. A field no input has, or a value of
    /// the wrong kind, is an error naming it.
    pub fn from_json(text: &str) -> Result<Input, InputError> {
        let bad = |message: String| InputError::Field {
            input: String::new(),
            message,
        };
        let UniqueObject(object) =
            serde_json::from_str(text).map_err(|e| bad(format!("not a JSON object: {e}")))?;
        let object = &object;
        const TEXTS: [&str; 13] = [
            "input", "piece", "color", "square", "file", "clocks", "uci", "san", "fen", "menu",
            "line", "eco", "family",
        ];
        const SIGNED: [&str; 2] = ["cp", "mate"];
        const NUMBERS: [&str; 9] = [
            "depth",
            "chess960",
            "count",
            "rank",
            "ply",
            "white_ms",
            "black_ms",
            "white_moves",
            "black_moves",
        ];
        for (key, value) in object {
            let ok = if TEXTS.contains(&key.as_str()) {
                value.is_string()
            } else if SIGNED.contains(&key.as_str()) {
                value.is_i64()
            } else if NUMBERS.contains(&key.as_str()) {
                value.is_u64()
            } else {
                return Err(bad(format!(
                    "`{}` is no field of an input",
                    crate::text::quote::short(key)
                )));
            };
            if !ok {
                return Err(bad(format!(
                    "`{key}` must be {}",
                    if TEXTS.contains(&key.as_str()) {
                        "a string"
                    } else {
                        "a whole number"
                    }
                )));
            }
        }
        let s = |k: &str| object.get(k).and_then(|x| x.as_str());
        let n = |k: &str| object.get(k).and_then(|x| x.as_u64());
        let small = |k: &str| -> Result<Option<u32>, InputError> {
            n(k).map(|x| u32::try_from(x).map_err(|_| bad(format!("`{k}` is too large"))))
                .transpose()
        };
        let name = s("input").ok_or_else(|| bad("an input needs `input`, its name".to_string()))?;
        if name.starts_with("online_") {
            return Err(bad(format!(
                "input `{name}` comes from the online game's server only"
            )));
        }
        if name == "past_game" {
            return Err(bad(
                "input `past_game` comes from pegboard's own journal only".to_string(),
            ));
        }
        if name == "engine_trouble" {
            return Err(bad(
                "input `engine_trouble` comes from pegboard's engine only".to_string(),
            ));
        }
        Input::decode(
            name,
            &InputFields {
                piece: s("piece"),
                color: s("color"),
                square: s("square"),
                count: small("count")?,
                rank: small("rank")?,
                file: s("file"),
                ply: small("ply")?,
                white_ms: n("white_ms"),
                black_ms: n("black_ms"),
                white_moves: small("white_moves")?,
                black_moves: small("black_moves")?,
                clocks: s("clocks"),
                uci: s("uci"),
                san: s("san"),
                fen: s("fen"),
                chess960: small("chess960")?,
                cp: object.get("cp").and_then(|x| x.as_i64()),
                mate: object.get("mate").and_then(|x| x.as_i64()),
                depth: small("depth")?,
                line: s("line"),
                eco: s("eco"),
                family: s("family"),
                moves: None,
                analyses: None,
                menu: s("menu"),
                game: None,
                games: None,
                status: None,
                seconds: None,
                name: None,
                text: None,
                notice: None,
                trouble: None,
            },
        )
    }

    /// The input as a JSON object, as a console request or a trace line
    /// without its time: `{"input":"clock","color":"black"}`.
    pub fn to_json(&self) -> String {
        format!(r#"{{"input":"{}"{}}}"#, self.name(), self.fields())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_very_long_past_game_is_made_to_fit_a_trace_line() {
        // 800 plies of knights going out and back, each judged with a
        // main line of ten moves: far more than a line holds.
        let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let moves: Vec<UciMove> = (0..800)
            .map(|i| cycle[i % 4].parse().expect("uci"))
            .collect();
        let mut r = crate::core::review::Review::new(
            shakmaty::Chess::default(),
            shakmaty::CastlingMode::Standard,
            &moves,
            Color::White,
        )
        .expect("legal");
        for ply in 0..=800u32 {
            let line: Vec<UciMove> = (0..10)
                .map(|i| cycle[(ply as usize + i) % 4].parse().expect("uci"))
                .collect();
            r.take(Analysis {
                ply,
                best: line.first().copied(),
                score: Score::Cp(10),
                depth: 14,
                line,
            })
            .expect("taken");
        }
        assert!(
            Input::PastGame(Box::new(r.clone())).to_json().len() > crate::trace::MAX_LINE_BYTES
        );
        let fitted = Input::past_game(r);
        let json = fitted.to_json();
        assert!(json.len() <= PAST_GAME_BYTES, "{}", json.len());
        // The answers stay, without their lines; it reads back as written.
        let Input::PastGame(review) = &fitted else {
            panic!("a past game");
        };
        assert_eq!(review.analyses().count(), 801);
        assert!(review.analyses().all(|a| a.line.is_empty()));
        let line = format!("{{\"t\":0,\"trace\":1}}\n{{\"t\":1,{}", &json[1..]);
        let read = crate::trace::read(line.as_bytes(), "x").expect("it reads");
        assert_eq!(read[1].reading, crate::trace::Reading::Input(fitted));
    }

    /// A past game with two judged positions, as the keeper hands it on.
    pub(crate) fn past() -> crate::core::review::Review {
        let moves: Vec<UciMove> = ["e2e4", "e7e5", "g1f3"]
            .iter()
            .map(|m| m.parse().expect("uci"))
            .collect();
        let mut r = crate::core::review::Review::new(
            shakmaty::Chess::default(),
            shakmaty::CastlingMode::Standard,
            &moves,
            Color::Black,
        )
        .expect("legal");
        for (ply, cp, line) in [(0, 30, "e2e4 e7e5"), (2, 35, "g1f3")] {
            let line: Vec<UciMove> = line
                .split_whitespace()
                .map(|m| m.parse().expect("uci"))
                .collect();
            r.take(Analysis {
                ply,
                best: line.first().copied(),
                score: Score::Cp(cp),
                depth: 12,
                line,
            })
            .expect("taken");
        }
        r
    }

    fn from_json(text: &str) -> Result<Input, InputError> {
        Input::from_json(text)
    }

    #[test]
    fn a_console_request_with_a_foreign_or_wrongly_typed_field_is_refused() {
        for bad in [
            r#"{"input":"clock","colour":"white"}"#,
            r#"{"input":"clock","color":5}"#,
            r#"{"input":"repeat","count":"two"}"#,
            r#"{"input":"repeat","count":-1}"#,
            r#"{"input":"repeat","count":2,"ply":3}"#,
            r#"{"input":"repeat","ply":0}"#,
            r#"{"input":"retrace","ply":99999999999}"#,
            r#"{"input":"analysis","ply":2,"cp":10,"mate":2}"#,
            r#"{"input":"analysis","ply":2}"#,
            r#"{"input":"analysis","ply":2,"mate":0}"#,
            r#"{"input":"analysis","cp":10}"#,
            r#"{"input":"analysis","ply":2,"cp":"10"}"#,
            r#"{"input":"analysis","ply":2,"cp":10,"uci":"castle"}"#,
            r#"{"input":"hint","cp":10}"#,
            r#"["clock"]"#,
            r#"{"color":"white"}"#,
            "not json",
        ] {
            assert!(Input::from_json(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_field_given_twice_is_refused_not_read_as_one_of_its_values() {
        let e = from_json(r#"{"input":"move","san":"e4","san":"Ke2"}"#)
            .expect_err("refused")
            .to_string();
        assert!(e.contains("`san` is given twice"), "{e}");
        assert!(from_json(r#"{"input":"move","input":"clock","color":"white"}"#).is_err());
        assert!(from_json(r#"{"input":"move","san":"e4"}"#).is_ok());
    }

    #[test]
    fn every_input_is_written_and_read_back_through_the_one_codec() {
        let all = [
            Input::Promote(Role::Knight),
            Input::Adjust(None),
            Input::Adjust(Some(Color::White)),
            Input::Clock(Color::Black),
            Input::Repeat(1),
            Input::Repeat(3),
            Input::RepeatPly(7),
            Input::MoveNumber,
            Input::Rank(Rank::Fourth),
            Input::File(File::G),
            Input::Announced(17),
            Input::Times,
            Input::Position,
            Input::Square(Square::E4),
            Input::DrawOffer(Color::White),
            Input::DrawClaim(Color::Black),
            Input::Resign(Color::White),
            Input::ResignKey(Color::Black),
            Input::ConsoleResign(Color::White),
            Input::Pause,
            Input::Resume,
            Input::SetClock(ClockSetting {
                white_ms: Some(60_000),
                black_moves: Some(12),
                ..ClockSetting::default()
            }),
            Input::IllegalMove(Color::Black),
            Input::QuickplayClaim(Color::White),
            Input::QuickplayRuling(QuickplayRuling::Draw),
            Input::QuickplayRuling(QuickplayRuling::Postpone),
            Input::QuickplayRuling(QuickplayRuling::Reject),
            Input::DrawDecline(Color::Black),
            Input::FlagClaim(Color::Black),
            Input::BoardLost,
            Input::BoardBack,
            Input::BrailleLost,
            Input::BrailleBack,
            Input::Restarted { hold: true },
            Input::Restarted { hold: false },
            Input::NewGame,
            Input::Move(Relayed::Uci("g8f6".parse().expect("uci"))),
            Input::Move(Relayed::Uci("e7e8q".parse().expect("uci"))),
            Input::Move(Relayed::San("Nf6".parse().expect("san"))),
            Input::Move(Relayed::San("O-O-O".parse().expect("san"))),
            Input::Retrace(0),
            Input::Retrace(12),
            Input::TakeBack(7),
            Input::ToReplicate,
            Input::Differences,
            Input::TouchReport(Color::Black),
            Input::Setup(Setup::Fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".into())),
            Input::Setup(Setup::Chess960(0)),
            Input::Adjourn(Relayed::San("Nf6".parse().expect("san"))),
            Input::Unseal,
            Input::Hint,
            Input::Evaluation(None),
            Input::Evaluation(Some(7)),
            Input::Analysis(Analysis {
                ply: 12,
                best: Some("g1f3".parse().expect("uci")),
                score: Score::Cp(-35),
                depth: 14,
                line: ["g1f3", "d7d5", "d2d4"]
                    .iter()
                    .map(|m| m.parse().expect("uci"))
                    .collect(),
            }),
            Input::Analysis(Analysis {
                ply: 0,
                best: None,
                score: Score::Mate(-3),
                depth: 0,
                line: Vec::new(),
            }),
            Input::ReviewAnalysis(Analysis {
                ply: 3,
                best: Some("b1c3".parse().expect("uci")),
                score: Score::Cp(20),
                depth: 14,
                line: vec!["b1c3".parse().expect("uci")],
            }),
            Input::PastGame(Box::new(past())),
            Input::Threat,
            Input::ThreatAnalysis(Analysis {
                ply: 4,
                best: Some("d8h4".parse().expect("uci")),
                score: Score::Mate(-1),
                depth: 14,
                line: vec!["d8h4".parse().expect("uci")],
            }),
            Input::PracticeTakeBack,
            Input::Review,
            Input::Material,
            Input::CallArbiter,
            Input::ArbiterComing,
            Input::Opening,
            Input::OpeningClassified {
                ply: 6,
                eco: Some("C50".parse().expect("eco")),
                family: Some(crate::core::opening::Family::Italian),
            },
            Input::OpeningClassified {
                ply: 6,
                eco: Some("C44".parse().expect("eco")),
                family: None,
            },
            Input::OpeningClassified {
                ply: 1,
                eco: None,
                family: None,
            },
            Input::Menu(MenuStep::Open),
            Input::Menu(MenuStep::Next),
            Input::Menu(MenuStep::Select),
            Input::Menu(MenuStep::Back),
            Input::OnlineGame(Box::new(crate::core::online::OnlineGame {
                id: "abcd1234".into(),
                site: "https://lichess.org/abcd1234".into(),
                color: Color::Black,
                white: crate::core::online::OnlinePlayer {
                    name: "Bert \"B\"".into(),
                    rating: Some(1702),
                    ai: None,
                },
                black: crate::core::online::OnlinePlayer {
                    name: "Anna".into(),
                    rating: None,
                    ai: None,
                },
                initial_ms: Some(900_000),
                increment_ms: 10_000,
                rated: true,
                initial_fen: Some(
                    "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1".into(),
                ),
                chess960: true,
                days: None,
            })),
            Input::OnlineGames(vec![crate::core::online::OnlineChoice {
                id: "aaaa1111".into(),
                opponent: "Bert \"B\"".into(),
                my_turn: true,
            }]),
            Input::OnlineClock {
                white_ms: 899_000,
                black_ms: 1_000,
            },
            Input::OnlineEnd {
                status: "resign".into(),
                winner: Some(Color::White),
            },
            Input::OnlineLost,
            Input::OnlineBack,
            Input::OnlineTakeback,
            Input::OnlineRematch,
            Input::OnlineGone { seconds: Some(30) },
            Input::OnlineGone { seconds: None },
            Input::OnlineChat {
                name: "Bert".into(),
                text: "gut gespielt \"!\"".into(),
            },
            Input::OnlineNotice(crate::core::online::ServerNotice::Declined {
                by: "Bert".into(),
                why: "I'm not accepting challenges at the moment.".into(),
            }),
            Input::EngineTrouble(EngineTrouble::CannotStart),
            Input::EngineTrouble(EngineTrouble::Crashed),
            Input::EngineTrouble(EngineTrouble::Hung),
            Input::EngineTrouble(EngineTrouble::Malformed),
        ];
        let mut named: Vec<&str> = all.iter().map(Input::name).collect();
        named.dedup();
        assert_eq!(named, Input::NAMES, "every input, each name once");
        for input in all {
            let json = input.to_json();
            if input.name().starts_with("online_")
                || input.name() == "past_game"
                || input.name() == "engine_trouble"
            {
                // The server's, never a console's (the trace reads them:
                // trace::tests).
                assert!(from_json(&json).is_err(), "{json}");
                continue;
            }
            assert_eq!(from_json(&json), Ok(input), "{json}");
        }
        // Written as a console request would be.
        assert_eq!(
            Input::Clock(Color::Black).to_json(),
            r#"{"input":"clock","color":"black"}"#
        );
        // A key that is also a menu key: the input with its menu step.
        for (input, step) in [
            (Input::Times, MenuStep::Select),
            (Input::Repeat(2), MenuStep::Next),
            (Input::DrawOffer(Color::White), MenuStep::Back),
        ] {
            let keyed = Input::Keyed {
                menu: step,
                input: Box::new(input.clone()),
            };
            assert_eq!(keyed.name(), input.name());
            let json = keyed.to_json();
            assert!(
                json.ends_with(&format!(r#","menu":"{}"}}"#, step.role())),
                "{json}"
            );
            assert_eq!(from_json(&json), Ok(keyed), "{json}");
        }
        for (bad, why) in [
            (r#"{"input":"times","menu":"up"}"#, "`menu` must be"),
            (
                r#"{"input":"menu_next","menu":"next"}"#,
                "is a menu step itself",
            ),
        ] {
            let e = from_json(bad).expect_err(bad).to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn a_relayed_move_must_read_as_uci_or_san_and_not_both() {
        for bad in [
            r#"{"input":"move"}"#,
            r#"{"input":"move","uci":"g8f6","san":"Nf6"}"#,
            r#"{"input":"move","uci":"knight f6"}"#,
            r#"{"input":"move","san":"Zz9"}"#,
            r#"{"input":"retrace"}"#,
            r#"{"input":"clock","color":"white","uci":"e2e4"}"#,
        ] {
            assert!(from_json(bad).is_err(), "{bad}");
        }
        let err = from_json(r#"{"input":"move","uci":"knight f6"}"#)
            .expect_err("bad")
            .to_string();
        assert!(err.contains("`uci` must be a move in UCI"), "{err}");
    }

    #[test]
    fn an_unknown_input_lists_the_known_ones() {
        let err = from_json(r#"{"input":"castle"}"#).expect_err("unknown");
        assert_eq!(err, InputError::Unknown("castle".into()));
        let err = err.to_string();
        assert!(err.contains("unknown input \"castle\""), "{err}");
        for name in Input::NAMES {
            assert!(err.contains(name), "{name} missing from: {err}");
        }
    }

    #[test]
    fn a_refused_input_says_why_in_a_kind_callers_can_branch_on() {
        assert_eq!(
            from_json(r#"{"input":"times","color":"white"}"#),
            Err(InputError::ForeignField {
                input: "times".into(),
                field: "color"
            })
        );
        match from_json(r#"{"input":"clock"}"#) {
            Err(InputError::Field { input, message }) => {
                assert_eq!(input, "clock");
                assert!(message.contains("needs a `color`"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }
}
