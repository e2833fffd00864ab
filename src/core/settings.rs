//! The values that tune the core. All times are in milliseconds.

use serde::{Deserialize, Serialize};
use shakmaty::{Color, Role};

use super::clock::{IncrementTiming, TimeControl};
use super::laws::Edition;

use super::debounce::DEFAULT_WINDOW_MS;

/// The name of the visually handicapped player's board: where moves are
/// made when a seat names no other.
pub const BLIND_BOARD: &str = "blind";

/// What to do when a player moves another piece than the one touched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TouchPolicy {
    /// Touch-move is not checked (casual play).
    Off,
    /// The move is made, and a `touch_violation` is reported.
    #[default]
    Warn,
    /// The move is refused: it must be taken back and the touched piece moved.
    Enforce,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// A square's reading must hold this long to count (see `debounce`).
    pub debounce_ms: u64,
    /// How long a board that no move in progress explains must stay still
    /// before a mismatch or an illegal move is reported.
    pub settle_ms: u64,
    /// Chess960 only: a king placed where castling would also put it, while
    /// the rook could still follow, waits this long for the rook.
    pub castling_wait_ms: u64,
    /// King and rook touched within this interval count as touched together.
    pub together_ms: u64,
    pub touch_policy: TouchPolicy,
    /// The piece a promoted pawn becomes when nobody says (casual play);
    /// `None`: wait for the `promote` input (E2.1, 4.6c).
    pub default_promotion: Option<Role>,
    pub clock: ClockSettings,
    /// Where each player's moves are made (E1): on a board, or relayed.
    pub seats: Seats,
    /// While a board differs from the game in a way no pending replication
    /// explains (E2.7), moves on the other boards wait for it to be put
    /// right. Off: play goes on, the divergence stays reported.
    pub hold_on_divergence: bool,
    /// What the spoken menu starts from: the choices this game was set
    /// up with (the configuration's, or the player's from the menu).
    pub preferences: Choices,
    /// The edition of the Laws the game is played under (`[game] laws`).
    pub laws: Edition,
    /// Whether the spoken menu offers opponents on lichess (a token is
    /// kept), and the friends it offers to challenge.
    pub online_friends: Option<Vec<String>>,
    /// Rated play (`[game] tournament`): the seats stay as configured,
    /// whatever the spoken menu chose before, and it offers no opponent
    /// but a person (Art. 11.3: no advice, no engine).
    pub tournament: bool,
}

/// Where a player's moves come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seat {
    /// Made on the named board and seen by its sensors.
    Board(String),
    /// Made on a board pegboard does not read (a wooden board) and
    /// relayed as `move` inputs by an assistant (E2.9a, E2.10).
    Relay,
    /// Chosen by the chess engine pegboard runs, and given to the game as
    /// `move` inputs, like a relayed move: the blind player makes it on his
    /// board.
    Engine,
    /// The opponent on lichess: his moves come from the server as `move`
    /// inputs, like a relayed move, and the blind player makes them on
    /// his board. Which colour is his, the game the server starts says.
    Lichess,
}

impl Seat {
    /// The seat a `…_moves_on` value names: "relay", "engine", or a
    /// board's name.
    pub fn parse(moves_on: &str) -> Seat {
        match moves_on {
            "relay" => Seat::Relay,
            "engine" => Seat::Engine,
            "lichess" => Seat::Lichess,
            board => Seat::Board(board.to_string()),
        }
    }

    /// The board the moves are made on, if pegboard reads it.
    pub fn board(&self) -> Option<&str> {
        match self {
            Seat::Board(name) => Some(name),
            Seat::Relay | Seat::Engine | Seat::Lichess => None,
        }
    }

    /// The seat as a trace header writes it; `None` for the blind
    /// player's board, where moves are made when nothing else is said.
    pub fn written(&self) -> Option<String> {
        match self {
            Seat::Board(name) if name == BLIND_BOARD => None,
            Seat::Board(name) => Some(name.clone()),
            Seat::Relay => Some("relay".to_string()),
            Seat::Engine => Some("engine".to_string()),
            Seat::Lichess => Some("lichess".to_string()),
        }
    }
}

/// Where White's and Black's moves come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seats {
    pub white: Seat,
    pub black: Seat,
}

impl Seats {
    pub fn of(&self, color: Color) -> &Seat {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// Which players move on the board `name`.
    pub fn moving_on(&self, name: &str) -> shakmaty::ByColor<bool> {
        shakmaty::ByColor::new_with(|c| self.of(c).board() == Some(name))
    }
}

impl Default for Seats {
    /// Both players on the blind player's board: the one-board setup.
    fn default() -> Self {
        let blind = Seat::Board(BLIND_BOARD.to_string());
        Seats {
            white: blind.clone(),
            black: blind,
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            debounce_ms: DEFAULT_WINDOW_MS,
            settle_ms: 1000,
            castling_wait_ms: 1500,
            together_ms: 300,
            touch_policy: TouchPolicy::Warn,
            default_promotion: None,
            clock: ClockSettings::default(),
            seats: Seats::default(),
            hold_on_divergence: false,
            preferences: Choices::default(),
            laws: Edition::default(),
            online_friends: None,
            tournament: false,
        }
    }
}

/// Which players a clock rule is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Players {
    White,
    Black,
    #[default]
    Both,
    Neither,
    /// The blind player alone, whichever colour he has.
    Player,
}

impl Players {
    /// Whether the rule is for `color`, the blind player having `player`.
    pub fn includes(self, color: Color, player: Color) -> bool {
        match self {
            Players::White => color == Color::White,
            Players::Black => color == Color::Black,
            Players::Both => true,
            Players::Neither => false,
            Players::Player => color == player,
        }
    }
}

/// When the clock starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockStart {
    /// The first player's clock starts with the game (6.5).
    #[default]
    Game,
    /// The first move is free: the clock starts when it is complete.
    FirstMove,
    /// Each side's first move is free: the clock starts when both are
    /// complete (lichess's clock, set by an online game; not a setting).
    #[serde(skip_deserializing)]
    FirstMoves,
}

/// When a fallen flag counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlagRule {
    /// At once: an arbiter watches the game (6.9, A3).
    #[default]
    Automatic,
    /// In rapid and blitz without adequate supervision, only on a valid
    /// claim (A4d). Standard games still count the flag at once.
    Claim,
}

/// The clock (Art. 6). No control: no clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockSettings {
    pub control: Option<TimeControl>,
    pub start: ClockStart,
    /// The players whose clock the controller presses when their move is
    /// executed and announced (E2.3). The others press it themselves with
    /// the `clock` input (6.7).
    pub controller_presses: Players,
    pub flag: FlagRule,
    /// When a Fischer increment is given: before each move (the hall's
    /// clocks) or after it.
    pub increment: IncrementTiming,
    /// The players warned when their own time runs low…
    pub warn: Players,
    /// …at these times left, in ms.
    pub warnings_ms: Vec<u64>,
    /// The completed illegal move the Laws say loses does (the second
    /// today, 7.5.5; the third in 2008, 7.4b); otherwise every one costs
    /// the opponent's time only.
    pub illegal_moves_lose: bool,
}

impl Default for ClockSettings {
    fn default() -> Self {
        ClockSettings {
            control: None,
            start: ClockStart::Game,
            controller_presses: Players::Both,
            flag: FlagRule::Automatic,
            increment: IncrementTiming::Before,
            warn: Players::Player,
            warnings_ms: vec![600_000, 300_000, 60_000, 30_000, 10_000],
            illegal_moves_lose: true,
        }
    }
}

/// Who the blind player plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opponent {
    /// A person: the opponent's seat as configured (this board, another
    /// board, or an assistant's relay), never the engine.
    Person,
    /// The engine, at a strength.
    Engine(Strength),
    /// An opponent on lichess, found this way.
    Lichess(OnlineWay),
}

/// How strong the engine plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strength {
    /// One of pegboard's steps, 1 to 8 (`engine::strength`).
    Step(u8),
    /// The engine's own rating (`UCI_Elo`).
    Elo(u32),
    /// Stockfish's `Skill Level`.
    Level(u32),
}

impl Strength {
    /// The strength `[engine]`'s keys give: `elo`, `level`, else the step
    /// (the gentle default step when none is given).
    pub fn configured(step: Option<u8>, elo: Option<u32>, level: Option<u32>) -> Strength {
        match (elo, level) {
            (Some(elo), _) => Strength::Elo(elo),
            (None, Some(level)) => Strength::Level(level),
            (None, None) => Strength::Step(step.unwrap_or(crate::engine::strength::DEFAULT_STEP)),
        }
    }

    /// As `[engine]`'s keys: step, elo, level.
    pub fn keys(self) -> (Option<u8>, Option<u32>, Option<u32>) {
        match self {
            Strength::Step(n) => (Some(n), None, None),
            Strength::Elo(e) => (None, Some(e), None),
            Strength::Level(l) => (None, None, Some(l)),
        }
    }
}

/// How an opponent on lichess is found, as the spoken menu offers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OnlineWay {
    /// A seek in lichess's lobby, rated or casual.
    Seek { rated: bool },
    /// lichess's AI at a level, 1 to 8 (it plays casual games only).
    Ai { level: u8 },
    /// A challenge to a friend (one of `[lichess] friends`).
    Friend { name: String, rated: bool },
    /// A challenge from anyone accepted.
    Accept,
}

impl OnlineWay {
    /// How `[lichess] find` names it.
    pub fn find(&self) -> &'static str {
        match self {
            OnlineWay::Seek { .. } => "seek",
            OnlineWay::Ai { .. } => "ai",
            OnlineWay::Friend { .. } => "challenge",
            OnlineWay::Accept => "accept",
        }
    }

    /// Whether the game is rated.
    pub fn rated(&self) -> bool {
        matches!(
            self,
            OnlineWay::Seek { rated: true } | OnlineWay::Friend { rated: true, .. }
        )
    }
}

impl Opponent {
    /// The opponent as the `choices` event and the choices file write it:
    /// `person`, `engine` (with the engine's step, Elo or skill level) or
    /// `lichess` (with its AI's level).
    pub fn written(&self) -> Written {
        let (opponent, (step, elo, level)) = match self {
            Opponent::Person => ("person", (None, None, None)),
            Opponent::Engine(strength) => ("engine", strength.keys()),
            Opponent::Lichess(OnlineWay::Ai { level }) => {
                ("lichess", (None, None, Some(u32::from(*level))))
            }
            Opponent::Lichess(_) => ("lichess", (None, None, None)),
        };
        Written {
            opponent,
            step,
            elo,
            level,
        }
    }
}

/// An opponent as written: `person`, `engine` or `lichess`, and the
/// engine's strength or lichess's AI's level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    pub opponent: &'static str,
    pub step: Option<u8>,
    pub elo: Option<u32>,
    pub level: Option<u32>,
}

/// What the player chose, or what the configuration says until he has:
/// the next game starts with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choices {
    pub opponent: Opponent,
    /// `None`: no clock.
    pub control: Option<TimeControl>,
    /// The blind player's colour.
    pub color: Color,
    /// speech-dispatcher's rate, -100 … 100.
    pub rate: i32,
    /// The voices' volume in percent, 0 … 100.
    pub volume: u32,
    /// A built-in language's name, or a language file's path.
    pub language: String,
}

impl Default for Choices {
    /// The configuration's defaults: a person on this board, no clock,
    /// White, a brisk voice at full volume, the FIDE words.
    fn default() -> Choices {
        Choices {
            opponent: Opponent::Person,
            control: None,
            color: Color::White,
            rate: 40,
            volume: 100,
            language: "fide".to_string(),
        }
    }
}

impl Choices {
    /// Where each player's moves come from, for these choices, starting
    /// from `base`: against a person, every seat the engine or lichess had
    /// becomes the blind player's board; against the engine (or lichess),
    /// the blind player moves on his board (or the board his colour was
    /// given) and the other colour is the engine's (lichess's).
    pub fn seats(&self, base: &Seats) -> Seats {
        let blind = || Seat::Board(BLIND_BOARD.to_string());
        let own = |seat: &Seat| match seat {
            Seat::Board(_) => seat.clone(),
            Seat::Relay | Seat::Engine | Seat::Lichess => blind(),
        };
        match self.opponent {
            Opponent::Person => {
                let person = |seat: &Seat| match seat {
                    Seat::Engine | Seat::Lichess => blind(),
                    _ => seat.clone(),
                };
                Seats {
                    white: person(&base.white),
                    black: person(&base.black),
                }
            }
            Opponent::Engine { .. } | Opponent::Lichess(_) => {
                let mine = own(base.of(self.color));
                let theirs = match self.opponent {
                    Opponent::Lichess(_) => Seat::Lichess,
                    _ => Seat::Engine,
                };
                match self.color {
                    Color::White => Seats {
                        white: mine,
                        black: theirs,
                    },
                    Color::Black => Seats {
                        white: theirs,
                        black: mine,
                    },
                }
            }
        }
    }

    /// The game's settings with these choices: the seats and the time
    /// control, and the choices themselves for the menu to start from.
    pub fn apply(&self, settings: &mut Settings) {
        // In rated play nobody but the configured players sits down: an
        // engine or an online opponent chosen in practice stays out.
        if !settings.tournament {
            settings.seats = self.seats(&settings.seats);
        }
        settings.clock.control = self.control.clone();
        settings.preferences = self.clone();
    }
}
