//! What the player is told, as facts: the notices of the game, the
//! clock and the board, of practice, of the spoken menu and of a game
//! online. The core decides which; `announce` puts them in words.

use shakmaty::Color;

use super::clock::TimeControl;
use super::settings::Opponent;

/// What the player hears of the server in a game on lichess.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnlineNotice {
    Lost,
    Back,
    Aborted,
    TakebackAsked,
    Claim,
    ClaimNotYet,
    AbortAsked,
    /// A draw offered to lichess's AI, which takes none.
    AiNoDraw,
    /// A draw claimed (a repetition): lichess decides.
    DrawClaimed,
    /// The win claimed on the player's own move: not while he is to move.
    ClaimOwnTurn,
    /// The opponent's draw offer accepted: lichess ends the game.
    DrawAccepted,
    /// The opponent's takeback request declined.
    TakebackDeclined,
    /// A draw claimed: the opponent left.
    ClaimDraw,
    /// The draw claimed on the player's own move: not while he is to move.
    ClaimDrawOwnTurn,
    /// A draw offer lichess would not take now: before both have moved,
    /// or within 20 plies of the player's last.
    DrawNotNow,
    /// A takeback request lichess takes only once both have moved: not
    /// made.
    TakebackNotNow,
}

/// What becomes of a rematch, after an online game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rematch {
    /// The opponent offers one.
    Offered,
    /// The player offers one.
    Asked,
    /// The player accepts the opponent's.
    Accepted,
    /// The player declines the opponent's.
    Declined,
}

/// The sentences without values the game says: answers that there is
/// nothing to do, and notices of the clock and the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notice {
    NoClock,
    GameOverAlready,
    ClaimPending,
    ClaimIncorrect,
    ClaimNotYourMove,
    ClockPaused,
    ClockResumed,
    /// The blind player called the arbiter (his key).
    ArbiterCalled,
    /// The arbiter answered the call: he is coming.
    ArbiterComing,
    BoardLost,
    BoardBack,
    /// The blind player's Braille display stopped answering; the game
    /// goes on.
    BrailleLost,
    /// It answers again.
    BrailleBack,
    QuickplayClaim,
    QuickplayClaimIncorrect,
    /// The quickplay finish claim is no rule of this game (blitz, or an
    /// increment today; blitz without an arbiter watching in 2008).
    QuickplayClaimNotHere,
    /// The arbiter postponed his decision on the claim: the game goes on.
    QuickplayPostponed,
    /// The arbiter rejected the claim.
    QuickplayRejected,
    /// A flag fell while a quickplay-finish claim stands: the arbiter's
    /// ruling decides the result.
    QuickplayWaits,
    /// A ruling with no quickplay-finish claim standing.
    NoQuickplayClaim,
    FlagClaimIncorrect,
    Restored,
    TouchViolationCastle,
    Resumed,
    /// After a restart, the clocks wait for the `resume` input.
    ClocksHeld,
    NewGame,
    /// A `new_game` during a game under way asks to be confirmed.
    NewGameConfirm,
    /// The resign key pressed once: does he mean it?
    ResignConfirm,
    /// The board asked about shows the game.
    BoardMatches,
    /// A move waits while another board differs (`hold_on_divergence`).
    Held,
    /// The game was taken back (E2.8).
    Retraced,
    /// A relayed move cannot be played.
    RelayRefused,
    /// The game is adjourned, a move sealed (or a move given meanwhile).
    Adjourned,
}

/// An item of the spoken menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuItem {
    /// In a game against the engine (or with its review to ask for): the
    /// practice questions, each asked when it is selected.
    Practice,
    Opponent,
    TimeControl,
    Color,
    Rate,
    Volume,
    Language,
}

/// A practice question the spoken menu asks when it is selected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PracticeAct {
    Hint,
    Evaluation,
    TakeBack,
    Review,
    Material,
    Threat,
    Opening,
}

/// What the spoken menu says without values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuNotice {
    Closed,
    Saved,
    UnderWay,
    NextGame,
    Discarded,
    /// Values: a person at the board, no clock, the player's own time.
    Person,
    NoClock,
    OwnTime,
}

/// What practice against the engine says without values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PracticeNotice {
    /// Asked in a game without the engine.
    NotPractice,
    /// A hint asked while the engine is to move.
    EngineToMove,
    DrawDeclined,
    NothingToTakeBack,
    ReviewAfterGame,
    Reviewing,
    NoMistakes,
    /// A step past the last mistake of the review.
    NoMoreMistakes,
    /// The engine threatens nothing worth the name.
    NoThreat,
    /// The player, asking for the threat, is in check.
    InCheck,
    /// The review is left.
    ReviewEnded,
}

/// What went wrong with the engine, as `engine_trouble` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineTrouble {
    /// Its program cannot be started, or does not speak UCI.
    CannotStart,
    /// It ended while it played.
    Crashed,
    /// It did not answer in time.
    Hung,
    /// It answered something that is no move.
    Malformed,
}

impl EngineTrouble {
    pub const ALL: [EngineTrouble; 4] = [
        EngineTrouble::CannotStart,
        EngineTrouble::Crashed,
        EngineTrouble::Hung,
        EngineTrouble::Malformed,
    ];

    /// Its name as written in a trace.
    pub fn name(self) -> &'static str {
        match self {
            EngineTrouble::CannotStart => "cannot_start",
            EngineTrouble::Crashed => "crashed",
            EngineTrouble::Hung => "hung",
            EngineTrouble::Malformed => "malformed",
        }
    }

    pub fn from_name(name: &str) -> Option<EngineTrouble> {
        EngineTrouble::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// One value of an item of the spoken menu.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Opponent(Opponent),
    Control(Option<TimeControl>),
    /// The player's own time control, chosen in two steps.
    OwnTime,
    Color(Color),
    Rate(i32),
    Volume(u32),
    Language(String),
    /// A practice question, asked when it is selected.
    Act(PracticeAct),
}

/// What a step of the menu says, as facts: `announce` puts them in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MenuSaid {
    /// A notice of the menu.
    Notice(MenuNotice),
    /// A value offered.
    Value(Value),
    /// An item with its value; `opened`: the menu has just opened.
    Line {
        item: MenuItem,
        value: Option<Value>,
        opened: bool,
    },
    /// A value chosen for an item.
    Chosen { item: MenuItem, value: Value },
    /// The changes to save, each item with its new value.
    Confirm(Vec<(MenuItem, Value)>),
    /// Minutes offered for the player's own clock, as milliseconds.
    Minutes(u64),
    /// Seconds a move offered for the player's own clock, as milliseconds.
    Increment(u64),
}
